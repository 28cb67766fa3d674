# pstswm model on processor grids: the issue's command, every preset, uneven and 8-rank grids,
# records (grid, algorithms, protocols, per-stage communication time, errors of case 2 at
# round-off), and bad input.  That every grid and algorithm reproduces the serial model is
# tests/cmake/model_parallel.cmake.
pst_kind(mpi)
set(GRID_FAST --trunc 21 --levels 2 --steps 6 --warmup 1 --fftw-plan estimate)
set(GRID_CHECKS
  "all(r['bench'] == 'model' for r in recs)"
  "len(points) == 1"
  "points[0]['h_l2'] < 1e-12 and points[0]['v_l2'] < 1e-12"
  "points[0]['comm_s'] == points[0]['fft_comm_s'] + points[0]['legendre_comm_s']")

pst_records_test(model.grid.2x1.dfft_ringpipe 2 CHECKS ${GRID_CHECKS}
  "points[0]['grid'] == '2x1' and points[0]['fft'] == 'dfft' and points[0]['legendre'] == 'serial'"
  "points[0]['preset'] is None"
  "points[0]['fft_protocol'] == '3,1' and points[0]['fft_overlap'] is True and points[0]['fft_comm_s'] > 0"
  ARGS model --grid 2x1 --fft dfft --legendre ringpipe --protocol 3,1 ${GRID_FAST})
pst_records_test(model.grid.1x2.ringpipe 2 CHECKS ${GRID_CHECKS}
  "points[0]['legendre'] == 'ringpipe' and points[0]['legendre_protocol'] == '1,3' and points[0]['legendre_comm_s'] > 0"
  "points[0]['fft'] == 'serial' and points[0]['fft_comm_s'] == 0"
  "points[0]['spectral_update'] == 'partitioned'"
  ARGS model --grid 1x2 --legendre ringpipe --protocol 1,3 ${GRID_FAST})
# The spectral update partitioned over the column (the default, where the vector sum gathers) or
# replicated; the MPI collective's sum and one rank per column have no choice.
pst_records_test(model.grid.1x2.replicated 2 CHECKS ${GRID_CHECKS} "points[0]['spectral_update'] == 'replicated'"
  ARGS model --grid 1x2 --spectral-update replicated ${GRID_FAST})
pst_bad_input_test(model.bad.spectral_update 2 2 "--spectral-update: unknown value 'sideways' \\(allowed: partitioned, replicated\\)"
  model --spectral-update sideways --out ${PST_TEST_OUT})
# Without --grid: near-square with more rows than columns (fewer bytes per step than the other
# way round, src/cmd/model/model_algos.c); T1's one latitude pair takes 2x1 instead of 1x2.
foreach(default 1:1x1 2:1x2 4:2x2 8:2x4)
  string(REPLACE ":" ";" default ${default})
  list(GET default 0 ranks)
  list(GET default 1 grid)
  pst_records_test(model.grid.default.np${ranks} ${ranks} CHECKS ${GRID_CHECKS} "points[0]['grid'] == '${grid}'"
    "points[0]['spectral_update'] == (None if '${grid}'.endswith('x1') else 'partitioned')"
    ARGS model ${GRID_FAST})
endforeach()
pst_records_test(model.grid.default.t1 2 CHECKS "points[0]['grid'] == '2x1' and points[0]['trunc'] == 1"
  ARGS model --trunc 1 --steps 2 --fftw-plan estimate)
pst_records_test(model.grid.2x2.gen 4 CHECKS ${GRID_CHECKS}
  "points[0]['preset'] == 'gen' and points[0]['fft'] == 'srtrans' and points[0]['legendre'] == 'halfsum'"
  "points[0]['fft_protocol'] == '0,6' == points[0]['legendre_protocol'] and points[0]['fft_overlap'] is False"
  ARGS model --grid 2x2 ${GRID_FAST})
pst_records_test(model.grid.2x2.coll 4 CHECKS ${GRID_CHECKS}
  "points[0]['fft'] == 'alltoallv' and points[0]['legendre'] == 'allreduce'"
  "points[0]['fft_protocol'] == 'coll' == points[0]['legendre_protocol']"
  "points[0]['spectral_update'] == 'replicated'"
  ARGS model --grid 2x2 --preset coll ${GRID_FAST})
pst_records_test(model.grid.2x2.DTH 4 CHECKS ${GRID_CHECKS}
  "points[0]['fft'] == 'swtrans' and points[0]['legendre'] == 'halfsum' and points[0]['legendre_overlap'] is True"
  ARGS model --grid 2x2 --preset DTH --fft swtrans --overlap ${GRID_FAST})
pst_records_test(model.grid.2x2.DR 4 CHECKS ${GRID_CHECKS}
  "points[0]['fft'] == 'dfft' and points[0]['legendre'] == 'ringpipe' and points[0]['legendre_protocol'] == '2,2'"
  ARGS model --grid 2x2 --preset DR --legendre-protocol 2,2 ${GRID_FAST})
# --chunks whole: one chunk per level block (T42L16 on 2x2: 16 local pairs, where the cache's
# chunks hold 8), case 2 at round-off as every grid.
pst_records_test(model.grid.2x2.chunks_whole 4 CHECKS ${GRID_CHECKS}
  "points[0]['chunks'] == 'whole' and points[0]['pair_chunk'] == 16 and points[0]['chain_levels'] == points[0]['level_block'] == 4"
  ARGS model --grid 2x2 --chunks whole --trunc 42 --levels 16 --steps 3 --warmup 1 --fftw-plan estimate)
pst_records_test(model.grid.2x2.chunks_cache 4 CHECKS ${GRID_CHECKS}
  "points[0]['chunks'] == 'cache' and points[0]['pair_chunk'] == 8 and points[0]['chain_levels'] == 4"
  ARGS model --grid 2x2 --trunc 42 --levels 16 --steps 3 --warmup 1 --fftw-plan estimate)
# Persistent protocols in both stages: each plan prepares its transfers in the warm-up and restarts
# them every step (case 2 at round-off, as every grid).
pst_records_test(model.grid.2x2.persistent 4 CHECKS ${GRID_CHECKS}
  "points[0]['fft'] == 'srtrans' and points[0]['fft_protocol'] == '5,3' and points[0]['legendre_protocol'] == '4,4'"
  ARGS model --grid 2x2 --fft srtrans --legendre ringsum --fft-protocol 5,3 --legendre-protocol unordered.rsend.persistent ${GRID_FAST})
if(PST_HAVE_MPI_ISENDRECV)
  pst_records_test(model.grid.2x2.isendrecv 4 CHECKS ${GRID_CHECKS}
    "points[0]['fft_protocol'] == '0,7' and points[0]['legendre_protocol'] == '2,7'"
    ARGS model --grid 2x2 --fft logtrans --legendre halfsum --fft-protocol 0,7 --legendre-protocol 2,7 ${GRID_FAST})
endif()
if(PST_HAVE_MPI_PARTITIONED)
  # ringpipe's blocks and logtrans's stages as partitioned messages, chunks as partitions (2,8).
  pst_records_test(model.grid.2x2.partitioned 4 CHECKS ${GRID_CHECKS}
    "points[0]['fft_protocol'] == '2,8' == points[0]['legendre_protocol'] and points[0]['legendre'] == 'ringpipe'"
    ARGS model --grid 2x2 --fft logtrans --legendre ringpipe --protocol 2,8 ${GRID_FAST})
else()
  pst_bad_input_test(model.bad.partitioned 2 2 "--legendre-protocol: protocol 2,8 \\(unordered.partitioned.overlap\\) needs MPI_Psend_init"
    model --grid 1x2 --legendre ringpipe --legendre-protocol 2,8 --out ${PST_TEST_OUT})
endif()
if(NOT PST_HAVE_MPI_ISENDRECV)
  pst_bad_input_test(model.bad.isendrecv 2 2 "--fft-protocol: protocol 0,7 \\(unordered.isendrecv\\) needs MPI_Isendrecv"
    model --grid 2x1 --fft-protocol 0,7 --out ${PST_TEST_OUT})
endif()
pst_records_test(model.grid.2x2.opt 4 CHECKS ${GRID_CHECKS}
  "points[0]['preset'] == 'opt' and points[0]['fft'] == 'logtrans' and points[0]['fft_protocol'] == '1,3'"
  "points[0]['fft_overlap'] is True and points[0]['legendre'] == 'ringpipe' and points[0]['legendre_protocol'] == '3,1'"
  ARGS model --grid 2x2 --preset opt --tuned ${CMAKE_SOURCE_DIR}/tests/data/opt-T21L2-2x2.toml ${GRID_FAST})
# pstlab tune on 1x2 has no FFT stage to time and writes only [legendre] (a real tune file);
# the model runs it, and refuses it on a grid that splits longitudes.
pst_records_test(model.grid.1x2.opt_legendre_only 2 CHECKS ${GRID_CHECKS}
  "points[0]['preset'] == 'opt' and points[0]['fft'] == 'serial' and points[0]['legendre'] == 'ringsum'"
  "points[0]['legendre_protocol'] == '0,6' and points[0]['legendre_overlap'] is False"
  ARGS model --grid 1x2 --preset opt --tuned ${CMAKE_SOURCE_DIR}/tests/data/opt-T21L2-1x2.toml ${GRID_FAST})
pst_bad_input_test(model.bad.tuned_no_fft 2 2 "--tuned: .*opt-T21L2-1x2.toml has no \\[fft\\] algorithm"
  model --grid 2x1 --preset opt --tuned ${CMAKE_SOURCE_DIR}/tests/data/opt-T21L2-1x2.toml --out ${PST_TEST_OUT})
pst_records_test(model.grid.3x2.uneven 6 CHECKS ${GRID_CHECKS}
  "points[0]['grid'] == '3x2' and points[0]['fft'] == 'logtrans' and points[0]['legendre'] == 'srtrans'"
  ARGS model --grid 3x2 --fft logtrans --legendre srtrans --protocol 1,1 --case 2 ${GRID_FAST})
if(PST_MPI STREQUAL "openmpi")
  pst_records_test(model.grid.4x2.case6 8 CHECKS
    "points[0]['grid'] == '4x2' and points[0]['fft'] == 'dfft' and abs(points[0]['mass_rel']) < 1e-12"
    ARGS model --grid 4x2 --case 6 --preset DR --protocol 3,3 --trunc 21 --levels 2 --steps 6 --fftw-plan estimate)
endif()

pst_bad_input_test(model.bad.grid_syntax 2 2 "--grid: '2by1' is not PXxPY \\(e.g. 4x2\\)" model --grid 2by1 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.grid_ranks 3 2 "--grid 2x2 needs 4 ranks \\(running on 3\\)" model --grid 2x2 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.grid_fit 4 2
  "--grid 1x4 does not fit T2 on 4 x 8: 4 processor rows need at least 4 north/south latitude pairs. 4 latitudes have 2"
  model --grid 1x4 --trunc 2 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.dfft_ranks 3 2 "--grid 3x1 does not fit T42 on 64 x 128: dfft needs a power-of-two number of ranks \\(got 3\\)"
  model --grid 3x1 --fft dfft --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.fft 2 2 "--fft: unknown FFT algorithm 'fftw' \\(allowed: srtrans, swtrans, .*dfft, coll\\)"
  model --fft fftw --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.legendre 2 2 "--legendre: unknown Legendre algorithm 'sum' \\(allowed: srtrans, swtrans, .*exchsum, halfsum, ringsum, ringpipe, allreduce, .*allreduce_init, coll\\)"
  model --legendre sum --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.preset 2 2 "--preset: unknown value 'fast' \\(allowed: gen, coll, opt, DTH, DR\\)"
  model --preset fast --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.protocol 2 2 "--protocol: unknown protocol '7,7'" model --protocol 7,7 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.fft_protocol 2 2 "--fft-protocol: unknown protocol '9,1'" model --fft-protocol 9,1 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.opt_untuned 2 2 "--preset opt needs --tuned FILE \\(written by pstlab tune\\)"
  model --preset opt --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.tuned_preset 2 2 "--tuned: the file is read by --preset opt only"
  model --tuned ${CMAKE_SOURCE_DIR}/tests/data/opt-T21L2-2x2.toml --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.tuned_missing 2 2 "--tuned: /nonexistent/opt.toml: No such file or directory$"
  model --preset opt --tuned /nonexistent/opt.toml --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.tuned_incomplete 2 2 "--tuned: .*opt-no-protocol.toml has no protocol line for \\[fft\\] algorithm dfft"
  model --preset opt --tuned ${CMAKE_SOURCE_DIR}/tests/data/opt-no-protocol.toml --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.dth_fft 2 2 "--preset DTH is a double transpose: --fft must be one of srtrans, swtrans, .*alltoallv, ialltoallv, neighbor, alltoallv_init, coll \\(got 'dfft'\\)"
  model --preset DTH --fft dfft --out ${PST_TEST_OUT})

# One-sided transports: the model's algorithms on rma (and shmem where built); the transport is
# recorded once, in the header and every record (it used to say mpi in the header and appear twice
# in each model record: check-records.py refuses a key written twice); a two-sided protocol is
# refused on rma.
pst_records_test(model.grid.2x2.rma 4 CHECKS ${GRID_CHECKS}
  "points[0]['transport'] == 'rma' and points[0]['fft'] == 'dfft' and points[0]['legendre_protocol'] == '1,1'"
  "all(r['transport'] == 'rma' for r in recs) and header['transport'] == 'rma'"
  ARGS model --grid 2x2 --transport rma --preset DR --protocol 1,1 ${GRID_FAST})
if(PST_HAVE_SHMEM)
  pst_records_test(model.grid.2x2.shmem 4 CHECKS ${GRID_CHECKS}
    "points[0]['transport'] == 'shmem' and points[0]['fft'] == 'logtrans'"
    ARGS model --grid 2x2 --transport shmem --fft logtrans --legendre exchsum --protocol 3,1 ${GRID_FAST})
else()
  pst_bad_input_test(model.bad.shmem_not_built 2 2 "--transport: unknown transport 'shmem' \\(allowed: mpi, rma\\)"
    model --transport shmem --out ${PST_TEST_OUT})
endif()
pst_bad_input_test(model.bad.rma_protocol 2 2 "--protocol: unknown protocol '0,6' for transport rma"
  model --grid 2x1 --transport rma --protocol 0,6 --out ${PST_TEST_OUT})

# --write-fields from a 2x2 run (gathered collectively, written by rank 0) is the serial run's
# state to round-off: the serial run of the same configuration measured against it.
set(GRID_REF ${CMAKE_CURRENT_BINARY_DIR}/model-grid-2x2-ref.nc)
add_test(NAME model.grid.write_fields COMMAND ${PSTRUN} -n 4 $<TARGET_FILE:pstswm> model --grid 2x2 --preset DR
  --case 6 --trunc 21 --days 0.25 --dt 900 --write-fields ${GRID_REF} --fftw-plan estimate)
set_tests_properties(model.grid.write_fields PROPERTIES TIMEOUT 120 FIXTURES_SETUP grid_ref PROCESSORS 4)
pst_output_test(model.grid.reference_serial 1 "errors \\(vs reference\\)  h: l1 [0-9.]+e-1[2-9]"
  $<TARGET_FILE:pstswm> model --case 6 --trunc 21 --days 0.25 --dt 900 --reference ${GRID_REF} --fftw-plan estimate)
set_tests_properties(model.grid.reference_serial PROPERTIES TIMEOUT 120 FIXTURES_REQUIRED grid_ref)
# Grid numbers past int are refused, not wrapped (4294967297x1 was read as 1x1).
pst_bad_input_test(model.bad.grid_overflow 2 2 "--grid: '4294967297x1' is not PXxPY" model --grid 4294967297x1 --out ${PST_TEST_OUT})
# The tuned file is TOML, read by a real parser on every rank (it split lines at 1023 bytes,
# matched "overlap = true" inside strings and accepted a directory).
pst_records_test(model.grid.1x2.tuned_string 2 CHECKS
  "points[0]['legendre'] == 'ringsum' and points[0]['legendre_protocol'] == '0,6' and not points[0]['legendre_overlap']"
  ARGS model --grid 1x2 --preset opt --tuned ${CMAKE_SOURCE_DIR}/tests/data/opt-overlap-in-string.toml ${GRID_FAST})
pst_bad_input_test(model.bad.tuned_duplicate 2 2 "--tuned: .*opt-duplicate.toml:4: duplicate key 'ringsum' \\(first defined on line 3\\)"
  model --grid 1x2 --preset opt --tuned ${CMAKE_SOURCE_DIR}/tests/data/opt-duplicate.toml --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.tuned_directory 2 2 "--tuned: .*/tests/data: not a regular file"
  model --grid 1x2 --preset opt --tuned ${CMAKE_SOURCE_DIR}/tests/data --out ${PST_TEST_OUT})
# --level-pipeline: each level block's sum in flight while the next block is computed.
pst_records_test(model.grid.1x2.level_pipeline 2 CHECKS ${GRID_CHECKS}
  "points[0]['level_pipeline'] is True and points[0]['legendre'] == 'allreduce' and points[0]['legendre_comm_s'] > 0"
  ARGS model --grid 1x2 --legendre allreduce --level-pipeline --trunc 21 --levels 4 --level-block 1 --steps 6 --warmup 1
       --fftw-plan estimate)
# --sync-wait: a timed barrier before each communication of a stage; without it the fields are null.
# local_stages: each rank's own sum of the stages without communication, so the slowest rank's
# lies between the per-stage events' fastest and slowest sums; one rank has none.
set(LOCAL_SUM "sum(e[{}] for e in points[0]['events'] if e['name'] in ('fourier', 'grid', 'spectral'))")
string(REPLACE "{}" "'slowest_s'" LOCAL_SLOWEST "${LOCAL_SUM}")
string(REPLACE "{}" "'fastest_s'" LOCAL_FASTEST "${LOCAL_SUM}")
set(LOCAL_FAST_S "points[0]['local_stages']['fastest_s']")
pst_records_test(model.grid.2x2.sync_wait 4 CHECKS ${GRID_CHECKS}
  "points[0]['fft_wait_s'] > 0 and points[0]['legendre_wait_s'] > 0"
  "points[0]['fft_wait_s'] < points[0]['fft_s'] and points[0]['legendre_wait_s'] < points[0]['legendre_s']"
  "0 <= points[0]['local_stages']['slowest_rank'] < 4 and 0 <= points[0]['local_stages']['fastest_rank'] < 4"
  "0 < points[0]['local_stages']['fastest_s'] <= points[0]['local_stages']['slowest_s']"
  "points[0]['local_stages']['slowest_s'] <= 1.000001 * ${LOCAL_SLOWEST}"
  "points[0]['local_stages']['fastest_s'] >= 0.999999 * ${LOCAL_FASTEST}"
  "abs(points[0]['local_stages']['imbalance'] - points[0]['local_stages']['slowest_s'] / ${LOCAL_FAST_S}) < 1e-12"
  ARGS model --grid 2x2 --sync-wait ${GRID_FAST})
pst_records_test(model.grid.1x2.sync_wait_off 2 CHECKS ${GRID_CHECKS}
  "points[0]['fft_wait_s'] is None and points[0]['legendre_wait_s'] is None"
  ARGS model --grid 1x2 ${GRID_FAST})
pst_records_test(model.grid.1x1.sync_wait 1 CHECKS ${GRID_CHECKS}
  "points[0]['fft_wait_s'] == 0 and points[0]['legendre_wait_s'] == 0" "'local_stages' not in points[0]"
  ARGS model --sync-wait ${GRID_FAST})
# The summary names the rank the others wait for and where it ran.
pst_output_test(model.grid.1x2.imbalance_line 2
  "imbalance       stages without communication \\(fourier, grid, spectral\\): rank [01] \\(CPUs [0-9,-]+ on [^)]+\\) [0-9.]+x rank [01] "
  $<TARGET_FILE:pstswm> model --grid 1x2 ${GRID_FAST})
pst_bad_input_test(model.bad.sync_wait_pipeline 2 2
  "--sync-wait times a wait before each sum, which the level pipeline overlaps: give one of them"
  model --grid 1x2 --legendre allreduce --level-pipeline --sync-wait ${GRID_FAST} --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.level_pipeline_grid 2 2
  "--level-pipeline: the grid 2x1 has no Legendre stage across ranks \\(needs PY > 1\\)"
  model --grid 2x1 --level-pipeline ${GRID_FAST} --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.level_pipeline_algorithm 2 2
  "--level-pipeline: needs a nonblocking vector sum as the Legendre algorithm \\(--legendre allreduce or iallreduce\\), not ringsum"
  model --grid 1x2 --legendre ringsum --level-pipeline ${GRID_FAST} --out ${PST_TEST_OUT})
# The stages' timer events: one per stage in pst_stage's order, the stage times the slowest
# rank's, the fastest no slower than the mean, ranks on the grid, an imbalance of at least 1, and
# calls per timed step (5) of each stage: the chain's stages once per chunk, the update once.
pst_records_test(model.grid.2x2.events 4 CHECKS ${GRID_CHECKS}
  "[e['name'] for e in points[0]['events']] == ['fft', 'legendre', 'fourier', 'grid', 'spectral']"
  "[e['slowest_s'] for e in points[0]['events']] == [points[0]['fft_s'], points[0]['legendre_s'], points[0]['fourier_s'], points[0]['grid_s'], points[0]['spectral_s']]"
  "all(e['fastest_s'] <= e['mean_s'] <= e['slowest_s'] and e['imbalance'] >= 1 for e in points[0]['events'])"
  "all(0 <= e['slowest_rank'] < 4 and 0 <= e['fastest_rank'] < 4 for e in points[0]['events'])"
  "all(e['calls'] > 0 and e['calls'] % 5 == 0 for e in points[0]['events'])"
  ARGS model --grid 2x2 ${GRID_FAST})
