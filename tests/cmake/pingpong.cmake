# pstswm pingpong: every mode (send modes and ordered protocols), both directions, one pair and all
# pairs, at 2, 4 and 8 ranks with payload verification; record contents; bad input.
# Small sizes and fixed iteration counts: MPICH busy-polls when oversubscribed.
pst_kind(mpi)
set(PP pingpong --reps 2 --iters 4 --warmup 1)

pst_records_test(pingpong.modes.2 2 CHECKS
  "len(points) == 7 * 4"
  "all(p['verified'] and p['t_min'] > 0 and p['t_min'] <= p['t_med'] <= p['t_max'] for p in points)"
  "{p['mode'] for p in points} == {'send','ssend','isend','bsend','1,3','1,4','1,6'}"
  "all(p['bytes'] in (0, 8, 4096, 131072) and p['reps'] == 2 and p['iters'] == 4 for p in points)"
  "[p['protocol'] for p in points if p['bytes'] == 0][:2] == ['1,0', '1,10']"
  "len(latbw) == 7 and all(s['latency0_s'] > 0 for s in latbw)"
  "[s['slug'] for s in latbw] == [None] * 4 + ['ordered.isend-irecv', 'ordered.rsend', 'ordered.sync']"
  "all(r['transport'] == 'mpi' for r in recs) and all(p['win_model'] is None for p in points)"
  ARGS ${PP} --modes send,ssend,isend,bsend,1,3,ordered.rsend,1,6 --sizes 8,4K,128K)

# Persistent ping-pongs (5,x): the requests made once, restarted for every round trip, payloads checked.
pst_records_test(pingpong.persistent.2 2 CHECKS
  "{p['mode'] for p in points} == {'1,3', '5,3', '5,4'} and all(p['verified'] for p in points)"
  "[s['slug'] for s in latbw] == ['ordered.isend-irecv', 'ordered.isend-irecv.persistent', 'ordered.rsend.persistent']"
  ARGS ${PP} --modes 1,3,5,3,ordered.rsend.persistent --sizes 8,4K,128K)
pst_bad_input_test(pingpong.bad.persistent_unordered 2 2 "--modes: protocol 4,3 \\(unordered.isend-irecv.persistent\\) is not a ping-pong"
  pingpong --modes 4,3 --out ${PST_TEST_OUT})

# Fit window: three sizes in 1-2 MiB, residuals per point; auto iteration count.  No timing
# assertions: on a loaded machine even the slope's sign is noise.
pst_records_test(pingpong.fit.2 2 CHECKS
  "len(summaries) == 1 and summaries[0]['fit_npoints'] == 3 and len(summaries[0]['fit_residuals_s']) == 3"
  "summaries[0]['t_s_s_per_byte'] is not None and summaries[0]['r2'] is not None"
  "sum('fit_residual_s' in p for p in points) == 3"
  "summaries[0]['peak_bytes'] > 0 and points[0]['bytes'] == 0"
  "all(len(p['samples']) == 3 for p in points)"
  ARGS pingpong --modes send --sizes 64K,1M:2M:+512K --reps 3 --samples)

pst_records_test(pingpong.bidir.2 2 CHECKS
  "{p['direction'] for p in points} == {'uni','bi'}"
  "all(p['verified'] for p in points)"
  ARGS ${PP} --modes send,isend,bsend,ssend --sizes 8,128K --direction uni,bi)

pst_records_test(pingpong.pairs-all.4 4 CHECKS
  "all(p['npairs'] == 2 and len(p['pair_t_min']) == 2 and len(p['pair_mbytes_per_s']) == 2 for p in points)"
  "all(p['bytes'] == 0 or abs(p['mbytes_per_s_aggregate'] - p['bytes'] * 2 * (2 if p['direction'] == 'bi' else 1) / p['t_min'] / 1e6) < 1e-6 * p['mbytes_per_s_aggregate'] for p in points)"
  ARGS ${PP} --pairs all --modes send,bsend --sizes 8,128K --direction uni,bi)

# A pair without rank 0: results still reach rank 0; the idle ranks wait without hanging.
pst_records_test(pingpong.pair-idle.4 4 CHECKS
  "len(points) == 2 and all(p['pair'] == '3,2' and p['verified'] for p in points)"
  ARGS ${PP} --pairs 3,2 --modes 1,0 --sizes 64K)

pst_records_test(pingpong.pairs-all.8 8 CHECKS
  "len(points) == 2 * 3 * 2 and all(p['verified'] and p['npairs'] == 4 and len(p['pair_t_min']) == 4 for p in points)"
  "{(p['mode'], p['direction']) for p in points} == {(m, d) for m in ('send', 'isend') for d in ('uni', 'bi')}"
  ARGS ${PP} --pairs all --modes send,isend --sizes 8,64K --direction uni,bi)
pst_records_test(pingpong.pair.8 8 CHECKS
  "len(points) == 2 and all(p['pair'] == '0,7' and p['mode'] == 'ssend' and p['verified'] for p in points)"
  "sorted(p['bytes'] for p in points) == [0, 131072]"
  ARGS ${PP} --pairs 0,7 --modes ssend --sizes 128K)

set(PPBAD ${PST_TEST_OUT})
pst_bad_input_test(pingpong.bad.mode 2 2 "--modes: unknown mode 'fast' \\(allowed: send, ssend, isend, bsend"
  pingpong --modes send,fast --out ${PPBAD})
pst_bad_input_test(pingpong.bad.unordered 2 2 "--modes: protocol 0,3 \\(unordered.isend-irecv\\) is not a ping-pong"
  pingpong --modes 0,3 --out ${PPBAD})
pst_bad_input_test(pingpong.bad.overlap 2 2 "--modes: protocol 3,1 .* runs a single round trip exactly as 1,x"
  pingpong --modes 3,1 --out ${PPBAD})
pst_bad_input_test(pingpong.bad.half-code 2 2 "--modes: '1' is not a protocol code"
  pingpong --modes send,1 --out ${PPBAD})
pst_bad_input_test(pingpong.bad.bidir-protocol 2 2 "--direction bi: mode 1,3 is an ordered protocol"
  pingpong --modes 1,3 --direction bi --out ${PPBAD})
pst_bad_input_test(pingpong.bad.direction 2 2 "--direction: unknown value 'sideways' \\(allowed: uni, bi\\)"
  pingpong --direction sideways --out ${PPBAD})
pst_bad_input_test(pingpong.bad.one-rank 1 2 "pingpong needs at least 2 ranks"
  pingpong --out ${PPBAD})
pst_bad_input_test(pingpong.bad.odd-all 3 2 "--pairs all pairs rank i with i\\+P/2 and needs an even rank count \\(running on 3\\)"
  pingpong --pairs all --out ${PPBAD})
pst_bad_input_test(pingpong.bad.pair 2 2 "--pairs: ranks 0,5 must be distinct and in 0...1"
  pingpong --pairs 0,5 --out ${PPBAD})
pst_bad_input_test(pingpong.bad.window 2 2 "--fit-from 2097152 is above --fit-to 1048576"
  pingpong --fit-from 2M --fit-to 1M --out ${PPBAD})
pst_bad_input_test(pingpong.bad.size 2 2 "--sizes: 1073741824 is out of range \\(allowed: 0 ... 536870912\\)"
  pingpong --sizes 8,1G --out ${PPBAD})
pst_bad_input_test(pingpong.bad.size-text 2 2 "--sizes: 'big' is not a size in bytes"
  pingpong --sizes big --out ${PPBAD})
pst_bad_input_test(pingpong.bad.reps 2 2 "--reps: 0 is out of range \\(allowed: 1 ... 1000000\\)"
  pingpong --reps 0 --out ${PPBAD})
pst_bad_input_test(pingpong.bad.out 2 2 "--out: cannot write '/nonexistent/pp.jsonl'"
  pingpong --sizes 8 --out /nonexistent/pp.jsonl)
pst_bad_input_test(pingpong.bad.option 2 2 "unknown option '--mode' \\(see 'pstswm pingpong --help'\\)"
  pingpong --mode send --out ${PPBAD})

# Verdicts: the modes of each size in interleaved rounds; one 'modes' summary per size.
pst_records_test(pingpong.np2.verdict 2 CHECKS
  "len([s for s in summaries if s['summary'] == 'modes']) == 3"
  "all(set(s['best_set']) <= {'send', 'ssend', 'isend'} and s['nalternatives'] == 3 for s in summaries if s['summary'] == 'modes')"
  "all(p['rounds'] == 10 and len(p['round_s']) == 10 and p['stat'] == 't_med' for p in points)"
  ARGS pingpong --modes send,ssend,isend --sizes 8,1K --reps 10 --iters 20)
# Constructed verdicts: Open MPI's buffered send copies a 4 MB message through the attached buffer
# before it moves, while its plain send goes single-copy (1.4-3.4x slower in every run tried), so
# the modes' verdict must be decided and bsend excluded.  MPICH's bsend and send tie at 4 MB on
# this kind of host (the gap came and went between runs), so there is no structural gap to test.
# 40 rounds and alone, as swap's constructed verdicts.
if(PST_MPI STREQUAL "openmpi")
  pst_records_test(pingpong.np2.verdict.decided 2 CHECKS
    "len([s for s in summaries if s['summary'] == 'modes' and s['bytes'] == 4194304]) == 1"
    "all(s['best_set'] == ['send'] and s['decided'] is True for s in summaries if s['summary'] == 'modes' and s['bytes'] == 4194304)"
    ARGS pingpong --modes send,bsend --sizes 4M --reps 40 --timeout 120)
  pst_records_test(pingpong.np2.verdict.excludes 2 CHECKS
    "len([s for s in summaries if s['summary'] == 'modes' and s['bytes'] == 4194304]) == 1"
    "all('bsend' not in s['best_set'] and s['nalternatives'] == 3 for s in summaries if s['summary'] == 'modes' and s['bytes'] == 4194304)"
    ARGS pingpong --modes send,isend,bsend --sizes 4M --reps 40 --timeout 120)
  set_tests_properties(pingpong.np2.verdict.decided pingpong.np2.verdict.excludes PROPERTIES RUN_SERIAL TRUE)
endif()
# Repeated list items are measured once: 0 B (always added) and 8 B, one direction.
pst_records_test(pingpong.np2.dedup 2 CHECKS
  "len(points) == 2 and sorted(p['bytes'] for p in points) == [0, 8]"
  ARGS pingpong --modes send,send --direction uni,uni --sizes 8,8 --reps 2 --iters 4)

# LogGP by the PRTT method: every parameter with an interval; the overheads are times spent in
# calls, so positive; G is positive over sizes up to 64 KiB.
# 15 repetitions: with 5, one stalled repetition on a loaded host could turn a median parameter negative.
pst_records_test(pingpong.np2.loggp 2 CHECKS
  "len([s for s in summaries if s['summary'] == 'loggp']) == 1"
  "[s for s in summaries if s['summary'] == 'loggp'][0]['method'] == 'prtt'"
  "all(len(s[k + '_ci']) == 2 for s in summaries if s['summary'] == 'loggp' for k in ('L_s', 'o_s_s', 'o_r_s', 'g_s', 'G_s_per_byte'))"
  "all(s['o_s_s'] > 0 and s['o_r_s'] > 0 and s['G_s_per_byte'] > 0 and s['bytes_range'] == [8, 65536] for s in summaries if s['summary'] == 'loggp')"
  ARGS pingpong --modes send --sizes 8,512,4K,64K --reps 15 --loggp --loggp-n 8)
pst_bad_input_test(pingpong.bad.loggp_n 2 2 "--loggp-n: 1 is out of range \\(allowed: 2 ... 1000000\\)"
  pingpong --loggp --loggp-n 1 --out ${PST_TEST_OUT})
pst_bad_input_test(pingpong.bad.loggp_pairs 4 2 "--loggp measures one pair with MPI_Send/MPI_Recv"
  pingpong --loggp --pairs all --out ${PST_TEST_OUT})
