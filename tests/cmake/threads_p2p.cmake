# pstswm pingpong and swap --threads T: T tag-separated streams between one pair, in mode multiple
# (every thread calls MPI: MPI_THREAD_MULTIPLE, the default with --threads) and funneled
# (--thread-level funneled: the master drives every stream).  Every stream's payload is checked
# against its own seeds, so a message taken by another stream fails the run.  T = 4 oversubscribes
# this 2-core host on purpose; the sizes and loops stay small for MPICH's busy-polling.
pst_kind(mpi)
foreach(mode multiple funneled)
  if(mode STREQUAL "funneled")
    set(level --thread-level funneled)
  else()
    set(level "")
  endif()
  pst_records_test(threads.pingpong.${mode}.2 2 CHECKS
    "header['threads'] == 2 and header['thread_level'] == '${mode}'"
    "len(points) == 2 * 2 * 3"
    "all(p['threads'] == 2 and p['thread_mode'] == '${mode}' for p in points)"
    "all(p['verified'] and p['msgs_per_s'] > 0 and p['t_is'].startswith('time per message') for p in points)"
    "{p['direction'] for p in points} == {'uni', 'bi'}"
    ARGS pingpong --threads 2 ${level} --modes send,isend --direction uni,bi --sizes 8,64K --reps 2 --iters 10 --warmup 2 --timeout 120)
  pst_records_test(threads.pingpong.${mode}.4 2 CHECKS
    "all(p['threads'] == 4 and p['thread_mode'] == '${mode}' and p['verified'] for p in points)"
    "len(points) == 3"
    ARGS pingpong --threads 4 ${level} --modes ssend --sizes 8,64K --reps 2 --iters 5 --warmup 2 --timeout 120)
  pst_records_test(threads.swap.${mode}.2 2 CHECKS
    "header['threads'] == 2 and header['thread_level'] == '${mode}'"
    "len(points) == 3 * 2"
    "all(p['threads'] == 2 and p['thread_mode'] == '${mode}' and p['verified'] for p in points)"
    ARGS swap --threads 2 ${level} --protocols 1,3,0,6,3,3 --sizes 8,64K --reps 2 --timeout 120)
  pst_records_test(threads.swap.${mode}.4 2 CHECKS
    "all(p['threads'] == 4 and p['thread_mode'] == '${mode}' and p['verified'] for p in points)"
    "len(points) == 2 * 2"
    ARGS swap --threads 4 ${level} --protocols 1,0,2,1 --sizes 1K,4K --volume 4K --reps 2 --timeout 120)
endforeach()
# Funneled, buffered sends (0,0) run: one thread uses the attached space.
pst_records_test(threads.swap.funneled.buffered 2 CHECKS
  "len(points) == 2 and all(p['protocol'] == '0,0' and p['thread_mode'] == 'funneled' and p['verified'] for p in points)"
  ARGS swap --threads 2 --thread-level funneled --protocols 0,0 --sizes 8,64K --reps 2 --timeout 60)
# One thread: records as before (no threads, thread_mode), MPI initialised at single.
pst_records_test(threads.pingpong.one 2 CHECKS
  "header['thread_level'] == 'single'"
  "all('threads' not in p and 'thread_mode' not in p and 'msgs_per_s' not in p for p in points)"
  "all(p['t_is'] == 'half round trip' for p in points)"
  ARGS pingpong --threads 1 --modes send --sizes 8 --reps 2 --iters 10)

# Bad input: pstrun leaves an unusable --threads to pstswm, which refuses it in one line.
foreach(cmd pingpong swap)
  pst_bad_input_test(threads.bad.${cmd}.zero 2 2 "^pstswm ${cmd}: error: --threads: 0 is out of range \\(allowed: 1 ... 1024\\)$"
    ${cmd} --threads 0 --out ${PST_TEST_OUT})
  pst_bad_input_test(threads.bad.${cmd}.negative 2 2 "^pstswm ${cmd}: error: --threads: -3 is out of range \\(allowed: 1 ... 1024\\)$"
    ${cmd} --threads -3 --out ${PST_TEST_OUT})
  pst_bad_input_test(threads.bad.${cmd}.word 2 2 "^pstswm ${cmd}: error: --threads: 'abc' is not an integer$"
    ${cmd} --threads abc --out ${PST_TEST_OUT})
  pst_bad_input_test(threads.bad.${cmd}.too_many 2 2 "^pstswm ${cmd}: error: --threads: 1025 is out of range \\(allowed: 1 ... 1024\\)$"
    ${cmd} --threads 1025 --out ${PST_TEST_OUT})
  pst_bad_input_test(threads.bad.${cmd}.level_single 2 2
    "^pstswm ${cmd}: error: --threads 2 needs MPI_THREAD_FUNNELED or more. asked for single \\(--thread-level\\), the MPI library granted single$"
    ${cmd} --threads 2 --thread-level single --out ${PST_TEST_OUT})
  pst_bad_input_test(threads.bad.${cmd}.transport 2 2
    "--threads 2: the streams are two-sided MPI messages. --transport rma is not \\(use --transport mpi\\)"
    ${cmd} --threads 2 --transport rma --out ${PST_TEST_OUT})
endforeach()
pst_bad_input_test(threads.bad.pingpong.bsend 2 2 "--threads 2: mode bsend cannot run as streams \\(allowed: send, ssend, isend\\)"
  pingpong --threads 2 --modes send,bsend --out ${PST_TEST_OUT})
pst_bad_input_test(threads.bad.swap.buffered 2 2
  "--threads 2: protocol 0,0 \\(unordered.simple\\) sends buffered from one attached space per process, which threads cannot share in mode multiple"
  swap --threads 2 --protocols 1,3,0,0 --out ${PST_TEST_OUT})
