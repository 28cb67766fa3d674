# One-sided transport (rma): every protocol as SWAP and SENDRECV, verified, at 2/3/4/8 ranks
# (MPICH oversubscribed with the quick shift set 1, 2, P-1, at 8 ranks one size per protocol in
# turn: it busy-polls, so each blocking step can cost a time slice; 90 s with every size), the rma
# catalogue and self-transfers
# (tests/unit/test_comm_rma.c), and pstswm swap, pingpong and kernel --transport rma.
pst_kind(mpi)
foreach(n 2 3 4 8)
  set(mode full)
  if(n GREATER 2 AND NOT PST_MPI STREQUAL "openmpi")
    set(mode quick)
  endif()
  if(n GREATER 4 AND NOT PST_MPI STREQUAL "openmpi")
    set(mode sample)
  endif()
  pst_output_test(comm.rma.np${n} ${n} "transport rma: 16 protocols on ${n} ranks: 0 corrupted transfers"
    $<TARGET_FILE:test_mpi_comm> rma ${mode})
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
  "all(p['win_model'] is None for p in points)"
  ARGS swap --protocols 0,6 --sizes 64 --reps 2 --timeout 60)

pst_bad_input_test(swap.rma.bad.transport_list 2 2 "--transport: unknown transport 'bogus' \\(allowed: mpi, rma"
  swap --transport bogus --out ${PST_TEST_OUT})
pst_bad_input_test(swap.rma.bad.mpi_only_protocol 2 2 "--protocols: unknown protocol '0,6' \\(codes 0,0-0,3, 1,0-1,3"
  swap --transport rma --protocols 0,6 --out ${PST_TEST_OUT})
pst_bad_input_test(swap.rma.bad.mpi_slug 2 2 "--protocols: unknown protocol 'ordered.sync'"
  swap --transport rma --protocols ordered.sync --out ${PST_TEST_OUT})

# pstswm pingpong --transport rma: the transport's ordered protocols as ping-pongs (default
# modes: all four), window set up once before timing, payloads verified; MPI send modes,
# unordered codes and bidirectional runs refused.
set(PPRMA pingpong --transport rma --reps 2 --iters 4 --warmup 1)
# 4 modes x 4 sizes (0 B added) = 16 points, 4 latency/bandwidth summaries.
pst_records_test(pingpong.rma.np2.modes 2 CHECKS
  "all(r['transport'] == 'rma' for r in recs)"
  "len(points) == 16 and len(latbw) == 4"
  "[s['mode'] for s in latbw] == ['1,0', '1,1', '1,2', '1,3']"
  "[s['slug'] for s in latbw] == ['ordered.put', 'ordered.put-nb', 'ordered.get', 'ordered.get-nb']"
  "all(p['protocol'] == p['mode'] and p['win_model'] == 'unified' and p['verified'] for p in points)"
  "all(p['t_min'] > 0 and p['iters'] == 4 and p['bytes'] in (0, 8, 4096, 1048576) for p in points)"
  ARGS ${PPRMA} --sizes 8,4K,1M)
pst_records_test(pingpong.rma.np4.pairs_all 4 CHECKS
  "all(r['transport'] == 'rma' for r in recs)"
  "len(points) == 6 and {p['slug'] for p in points} == {'ordered.put', 'ordered.get'}"
  "all(p['npairs'] == 2 and len(p['pair_t_min']) == 2 and p['verified'] for p in points)"
  ARGS ${PPRMA} --pairs all --modes ordered.put,1,2 --sizes 8,64K)
# Idle ranks 0 and 2 take part in the collective set-up.
pst_records_test(pingpong.rma.np4.idle_ranks 4 CHECKS
  "len(points) == 2 and all(p['pair'] == '3,1' and p['mode'] == '1,3' and p['verified'] for p in points)"
  ARGS ${PPRMA} --pairs 3,1 --modes 1,3 --sizes 1001)
if(PST_MPI STREQUAL "openmpi")
  pst_records_test(pingpong.rma.np8.pairs_all 8 CHECKS
    "len(points) == 3 and all(p['npairs'] == 4 and p['verified'] for p in points)"
    ARGS ${PPRMA} --pairs all --modes 1,1 --sizes 8,64K)
endif()

pst_bad_input_test(pingpong.rma.bad.transport 2 2 "--transport: unknown transport 'bogus' \\(allowed: mpi, rma"
  pingpong --transport bogus --out ${PST_TEST_OUT})
pst_bad_input_test(pingpong.rma.bad.send_mode 2 2
  "--modes: 'ssend' is an MPI send mode, measured with --transport mpi. --transport rma offers its ordered protocols as modes: 1,0 \\(ordered.put\\), 1,1 \\(ordered.put-nb\\), 1,2 \\(ordered.get\\), 1,3 \\(ordered.get-nb\\)"
  pingpong --transport rma --modes 1,0,ssend --out ${PST_TEST_OUT})
pst_bad_input_test(pingpong.rma.bad.default_modes_bi 2 2
  "--direction bi: bidirectional runs use the MPI send modes of --transport mpi"
  pingpong --transport rma --direction uni,bi --out ${PST_TEST_OUT})
pst_bad_input_test(pingpong.rma.bad.mpi_protocol 2 2
  "--modes: unknown mode '1,6' \\(allowed: ordered, or an ordered protocol of transport rma by code 1,0-1,3 or slug"
  pingpong --transport rma --modes 1,6 --out ${PST_TEST_OUT})
pst_bad_input_test(pingpong.rma.bad.unordered 2 2 "--modes: protocol 0,2 \\(unordered.get\\) is not a ping-pong"
  pingpong --transport rma --modes 0,2 --out ${PST_TEST_OUT})

# pstswm kernel --transport rma: every algorithm on row/column sub-communicators, each point's
# plans setting up the window (over all processes) and the point releasing it, every result
# checked against the MPI collective.  Every protocol (16 codes x overlap: 24 alternatives per
# algorithm) on 2 ranks: today 11 x 24 + 3 = 267 points, 11 + 11 summaries.
pst_records_test(kernel.rma.np2.all_protocols 2 CHECKS
  "all(r['transport'] == 'rma' for r in recs)"
  "len(points) == 24 * ${KERNEL_PAIRS} + ${KERNEL_COLLS} and ${KERNEL_SUMS} == 2 * ${KERNEL_PAIRS} + ${KERNEL_LIBS}"
  "{p['protocol'] for p in points} == {'%d,%d' % (c, v) for c in range(4) for v in range(4)} | {'coll'}"
  "all(p['verified'] for p in points)"
  "all(p['win_model'] == ('unified' if p['protocol'] != 'coll' else None) for p in points)"
  "all(s['win_model'] == ('unified' if s['best_protocol'] != 'coll' else None) for s in summaries if s['summary'] != 'family')"
  "all(s['gen_protocol'] is None for s in summaries if s['summary'] == 'generic')"
  ARGS kernel --transport rma --trunc 5 --levels 1 --fields 1 --reps 1 --warmup 0 --timeout 200)
# 3 ranks (odd: excess ranks folded, swtrans idle rounds), overlapped batches with several
# partners: 3,1 (put-nb) deadlocked here before side B's send waited for its own turn.
# Today FFT stage 3 x 2 + 1 (dfft skipped), Legendre stage 7 x 2 + 2 = 23.
pst_records_test(kernel.rma.np3.batches 3 CHECKS
  "all(r['transport'] == 'rma' for r in recs)"
  "len(points) == 2 * ${KERNEL_PAIRS_ANY} + ${KERNEL_COLLS} and all(p['verified'] for p in points)"
  "{p['protocol'] for p in points} == {'3,1', '2,2', 'coll'}"
  ARGS kernel --transport rma --trunc 10 --levels 2 --protocols 3,1,2,2 --reps 1 --warmup 0 --timeout 120)
# A 2-D grid: each stage on 2 concurrent sub-communicators (sibling windows of one split).
# Today FFT stage 4 x 2 + 1, Legendre stage 7 x 2 + 2 = 25.
pst_records_test(kernel.rma.np4.grid2x2 4 CHECKS
  "all(r['transport'] == 'rma' for r in recs)"
  "len(points) == 2 * ${KERNEL_PAIRS} + ${KERNEL_COLLS} and all(p['verified'] for p in points)"
  "all(p['comms'] == 2 and p['comm_size'] == 2 for p in points)"
  ARGS kernel --transport rma --grid 2x2 --trunc 10 --levels 2 --protocols 1,3,3,0 --overlap off --reps 1 --warmup 0
  --timeout 120)
if(PST_MPI STREQUAL "openmpi")
  # Rows of 4 and columns of 2 at once: FFT stage 4 x 2 + 1, Legendre stage 7 x 2 + 2.
  pst_records_test(kernel.rma.np8.grid4x2 8 CHECKS
    "len(points) == 2 * ${KERNEL_PAIRS} + ${KERNEL_COLLS} and all(p['verified'] for p in points)"
    "{(p['comm_size'], p['comms']) for p in points} == {(4, 2), (2, 4)}"
    ARGS kernel --transport rma --grid 4x2 --trunc 10 --levels 2 --protocols 1,0,2,3 --overlap off --reps 1 --warmup 0
    --timeout 200)
endif()
pst_bad_input_test(kernel.rma.bad.transport 2 2 "--transport: unknown transport 'bogus' \\(allowed: mpi, rma"
  kernel --transport bogus --out ${PST_TEST_OUT})
pst_bad_input_test(kernel.rma.bad.mpi_protocol 2 2 "--protocols: unknown protocol '0,6' \\(codes 0,0-0,3, 1,0-1,3"
  kernel --transport rma --protocols 1,0,0,6 --out ${PST_TEST_OUT})

# OpenSHMEM transport (built when configure found Open MPI's oshmem): the same protocols on
# the symmetric heap.  Without it, asking for it is a usage error, never a fallback.
if(PST_HAVE_SHMEM)
  foreach(n 2 3 4 8)
    pst_output_test(comm.shmem.np${n} ${n} "transport shmem: 16 protocols on ${n} ranks: 0 corrupted transfers"
      $<TARGET_FILE:test_mpi_comm> shmem)
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
  # pingpong: 4 modes x 3 sizes; no MPI window, so no memory model.
  pst_records_test(pingpong.shmem.np2.modes 2 CHECKS
    "all(r['transport'] == 'shmem' for r in recs)"
    "len(points) == 12 and [s['slug'] for s in latbw] == ['ordered.put', 'ordered.put-nb', 'ordered.get', 'ordered.get-nb']"
    "all(p['win_model'] is None and p['verified'] for p in points)"
    ARGS pingpong --transport shmem --sizes 8,64K --reps 2 --iters 4 --warmup 1)
  # Idle ranks take part in the symmetric allocation.
  pst_records_test(pingpong.shmem.np4.idle_ranks 4 CHECKS
    "len(points) == 2 and all(p['pair'] == '2,3' and p['verified'] for p in points)"
    ARGS pingpong --transport shmem --pairs 2,3 --modes 1,1 --sizes 4K --reps 2 --iters 4 --warmup 1)
  # kernel on sub-communicators of a 2x2 grid (symmetric heap over all PEs, ranks mapped):
  # 16 alternatives per algorithm, today (4 + 7) x 16 + 3 = 179 points.
  pst_records_test(kernel.shmem.np4.grid2x2 4 CHECKS
    "all(r['transport'] == 'shmem' for r in recs)"
    "len(points) == 16 * ${KERNEL_PAIRS} + ${KERNEL_COLLS} and all(p['verified'] for p in points)"
    "all(p['comms'] == 2 and p['win_model'] is None for p in points)"
    ARGS kernel --transport shmem --grid 2x2 --trunc 10 --levels 2 --protocols all --overlap off --reps 1 --warmup 0
    --timeout 200)
else()
  pst_bad_input_test(swap.shmem.bad.not_built 2 2 "--transport: unknown transport 'shmem' \\(allowed: mpi, rma\\)"
    swap --transport shmem --out ${PST_TEST_OUT})
  pst_bad_input_test(pingpong.shmem.bad.not_built 2 2 "--transport: unknown transport 'shmem' \\(allowed: mpi, rma\\)"
    pingpong --transport shmem --out ${PST_TEST_OUT})
  pst_bad_input_test(kernel.shmem.bad.not_built 2 2 "--transport: unknown transport 'shmem' \\(allowed: mpi, rma\\)"
    kernel --transport shmem --out ${PST_TEST_OUT})
endif()
