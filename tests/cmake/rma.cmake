# One-sided transport (rma): every protocol as SWAP and SENDRECV, verified, at 2/3/4/8 ranks
# (MPICH oversubscribed with the quick shift set 1, 2, P-1: it busy-polls, so each blocking
# step can cost a time slice), the rma catalogue and self-transfers
# (tests/unit/test_comm_rma.c), and pstswm swap --transport rma.
foreach(n 2 3 4 8)
  set(mode full)
  if(n GREATER 2 AND NOT PST_MPI STREQUAL "openmpi")
    set(mode quick)
  endif()
  add_test(NAME comm.rma.np${n} COMMAND ${PSTRUN} -n ${n} $<TARGET_FILE:test_mpi_comm> rma ${mode})
  set_tests_properties(comm.rma.np${n} PROPERTIES TIMEOUT 300 PROCESSORS ${n}
    PASS_REGULAR_EXPRESSION "transport rma: 16 protocols on ${n} ranks: 0 corrupted transfers")
endforeach()

# 16 protocols x 2 sizes = 32 points; 16 protocol summaries + 2 sensitivity rows.
pst_records_test(swap.rma.np2.all_protocols 2 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 32"
  "len(summaries) == 18"
  "all(p['verified'] for p in points)"
  "all(r['transport'] == 'rma' for r in recs)"
  "all(p['win_model'] == 'unified' for p in points)"
  ARGS swap --transport rma --protocols all --sizes 8,4M --reps 2 --warmup 1 --timeout 120)
pst_records_test(swap.rma.np4.pairs_all 4 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 32"
  "all(p['npairs'] == 2 for p in points)"
  "all(p['pair'] == 'all' for p in points)"
  "all(r['transport'] == 'rma' for r in recs)"
  ARGS swap --transport rma --pairs all --protocols all --sizes 8,1M --reps 2 --warmup 1 --timeout 120)
# Idle ranks take part in the collective window set-up: ranks 0,1 (and 1 of 3) sit out.
pst_records_test(swap.rma.np4.idle_ranks 4 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 8"
  "all(p['pair'] == '2,3' for p in points)"
  "all(r['transport'] == 'rma' for r in recs)"
  ARGS swap --transport rma --pairs 2,3 --protocols 0,0,1,1,2,2,3,3 --sizes 8,1M --reps 2 --timeout 60)
pst_records_test(swap.rma.np3.idle_rank 3 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 4"
  "all(p['pair'] == '0,2' for p in points)"
  "all(r['transport'] == 'rma' for r in recs)"
  ARGS swap --transport rma --pairs 0,2 --protocols unordered.get,ordered.put --sizes 1001,64K --reps 2 --timeout 60)
# Split volume needs many slots in flight: 64 KiB as 1...64 messages, two cache states.
# 2 caches x 2 protocols x 7 sizes = 28 points; summaries 2 x (2 + 7) = 18.
pst_records_test(swap.rma.np2.volume_caches 2 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 28"
  "len(summaries) == 18"
  "all(p['volume'] == 65536 for p in points)"
  "all(r['transport'] == 'rma' for r in recs)"
  ARGS swap --transport rma --volume 64K --sizes 1K:64K --protocols 0,1,3,3 --cache 1,10 --reps 2 --timeout 120)
# The mpi transport's records name it too.
pst_records_test(swap.mpi.np2.transport_field 2 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 1"
  "all(r['transport'] == 'mpi' for r in recs)"
  ARGS swap --protocols 0,6 --sizes 64 --reps 2 --timeout 60)

pst_bad_input_test(swap.rma.bad.transport_list 2 2 "--transport: unknown transport 'bogus' \\(allowed: mpi, rma"
  swap --transport bogus --out ${PST_TEST_OUT})
pst_bad_input_test(swap.rma.bad.mpi_only_protocol 2 2 "--protocols: unknown protocol '0,6' \\(codes 0,0-0,3, 1,0-1,3"
  swap --transport rma --protocols 0,6 --out ${PST_TEST_OUT})
pst_bad_input_test(swap.rma.bad.mpi_slug 2 2 "--protocols: unknown protocol 'ordered.sync'"
  swap --transport rma --protocols ordered.sync --out ${PST_TEST_OUT})

# OpenSHMEM transport (built when configure found Open MPI's oshmem): the same protocols on
# the symmetric heap.  Without it, asking for it is a usage error, never a fallback.
if(PST_HAVE_SHMEM)
  foreach(n 2 3 4 8)
    add_test(NAME comm.shmem.np${n} COMMAND ${PSTRUN} -n ${n} $<TARGET_FILE:test_mpi_comm> shmem)
    set_tests_properties(comm.shmem.np${n} PROPERTIES TIMEOUT 300 PROCESSORS ${n}
      PASS_REGULAR_EXPRESSION "transport shmem: 16 protocols on ${n} ranks: 0 corrupted transfers")
  endforeach()
  pst_records_test(swap.shmem.np2.all_protocols 2 CHECKS
    "all(r['bench'] == 'swap' for r in recs)"
    "len(points) == 32"
    "len(summaries) == 18"
    "all(p['verified'] == True for p in points)"
    "all(r['transport'] == 'shmem' for r in recs)"
    ARGS swap --transport shmem --protocols all --sizes 8,4M --reps 2 --warmup 1 --timeout 120)
  pst_records_test(swap.shmem.np4.idle_ranks 4 CHECKS
    "all(r['bench'] == 'swap' for r in recs)"
    "len(points) == 8"
    "all(p['pair'] == '1,3' for p in points)"
    "all(r['transport'] == 'shmem' for r in recs)"
    ARGS swap --transport=shmem --pairs 1,3 --protocols 0,0,1,1,2,2,3,3 --sizes 8,1M --reps 2 --timeout 60)
  pst_bad_input_test(swap.shmem.bad.size 2 2 "--sizes: 0 is out of range"
    swap --transport shmem --sizes 0 --out ${PST_TEST_OUT})
else()
  pst_bad_input_test(swap.shmem.bad.not_built 2 2 "--transport: unknown transport 'shmem' \\(allowed: mpi, rma\\)"
    swap --transport shmem --out ${PST_TEST_OUT})
endif()
