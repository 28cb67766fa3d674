# The SMPI build (scripts/dev/build.sh smpi; docs/predict.md): pstswm on a simulated platform under
# smpirun.  Included only by that build (tests/CMakeLists.txt): its programs are shared objects
# only smpirun starts.  Ranks are simulated one at a time in one process, so 16 ranks cost one core.
pst_kind(smpi)
set(PSTRUN ${CMAKE_SOURCE_DIR}/scripts/pstrun --mpi smpi --platform ${CMAKE_SOURCE_DIR}/platforms/t3e-900.toml)
set(PST_SMPI_REFERENCE ${CMAKE_BINARY_DIR}/../openmpi/pstswm)

# The run header tells the truth: simulated, SimGrid's version, the platform file and its SHA-256
# (the file as it was when the run started, so a record names its platform), every --cfg,
# and the feature table with what SMPI declares but does not run counted as absent.  MPI_Isendrecv
# is there from SimGrid 4 (scripts/install-simgrid.sh), not in Debian's 3.32.
string(REGEX REPLACE "^SimGrid version " "" smpi_version "${pst_simgrid_version}")
if(PST_HAVE_MPI_ISENDRECV)
  set(smpi_isendrecv True)
else()
  set(smpi_isendrecv False)
endif()
pst_records_test(smpi.header 2 CHECKS
  "header['simulated'] is True and header['mpi_build'] == 'smpi'"
  "header['simulation']['engine'].startswith('SimGrid ${smpi_version}.')"
  "header['simulation']['platform'].endswith('platforms/t3e-900.toml')"
  "header['simulation']['platform_sha256'] == __import__('hashlib').sha256(open(header['simulation']['platform'], 'rb').read()).hexdigest()"
  "'smpi/bw-factor:131072:0.482;8192:0.4985;0:0.1377' in header['simulation']['cfg']"
  "'smpi/coll-selector:mpich' in header['simulation']['cfg']"
  "{f['name']: f['available'] for f in header['mpi_features']} == {'nonblocking_collectives': False, 'neighborhood_collectives': False, 'persistent_collectives': False, 'isendrecv': ${smpi_isendrecv}, 'partitioned': False, 'mpi_t': False, 'rma_window_sync': False}"
  "header['noise'] is None"
  "all(p['verified'] is True for p in points)"
  ARGS swap --sizes 8192,131072 --protocols 0,2,1,0 --reps 2)

# The T3E platforms give back the swaps they were written from (Worley 1998 Table 3, unordered, at
# 8 KB, 128 KB and 2 MB: MPI 66, 245, 286 MB/s; SHMEM 258, 494, 543 MB/s) within 1 %, and a 64 KB
# swap costs less than a 128 KB one.
foreach(library mpi shmem)
  if(library STREQUAL mpi)
    set(table3 "{8192: 66e6, 131072: 245e6, 2097152: 286e6}")
    set(platform_file t3e-900.toml)
  else()
    set(table3 "{8192: 258e6, 131072: 494e6, 2097152: 543e6}")
    set(platform_file t3e-900-shmem.toml)
  endif()
  # The network's description alone: this host's time between the MPI calls (scaled into the
  # simulation by default) would make a swap as slow as the host's stalls on a loaded machine.
  set(PSTRUN ${CMAKE_SOURCE_DIR}/scripts/pstrun --mpi smpi --platform ${CMAKE_SOURCE_DIR}/platforms/${platform_file}
      --cfg smpi/simulate-computation:no)
  pst_records_test(smpi.t3e_table3.${library} 2 CHECKS
    "all(abs(p['bytes'] / p['t_min'] / ${table3}[p['bytes']] - 1) < 0.01 for p in points if p['bytes'] != 65536)"
    "max(p['t_min'] for p in points if p['bytes'] == 65536) < min(p['t_min'] for p in points if p['bytes'] == 131072)"
    ARGS swap --sizes 8192,65536,131072,2097152 --protocols 0,2 --reps 2)
endforeach()
set(PSTRUN ${CMAKE_SOURCE_DIR}/scripts/pstrun --mpi smpi --platform ${CMAKE_SOURCE_DIR}/platforms/t3e-900.toml)

# The rank-to-node mapping is selectable and recorded: on two nodes of two cores (the T3E file as
# a switched cluster), block puts ranks 0 and 1 on one node, cyclic on two.
file(READ ${CMAKE_SOURCE_DIR}/platforms/t3e-900.toml t3e)
string(REPLACE "count = 512" "count = 2" two_nodes "${t3e}")
string(REPLACE "cores_per_node = 1" "cores_per_node = 2" two_nodes "${two_nodes}")
string(REGEX REPLACE "kind = \"torus\"[^\n]*\ntorus_dims[^\n]*" "kind = \"cluster\"" two_nodes "${two_nodes}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/two-nodes.toml "${two_nodes}")
set(PSTRUN_T3E ${PSTRUN})
set(node_of_rank_block "0, 0")
set(node_of_rank_cyclic "0, 1")
foreach(mapping block cyclic)
  set(PSTRUN ${CMAKE_SOURCE_DIR}/scripts/pstrun --mpi smpi --platform ${CMAKE_CURRENT_BINARY_DIR}/two-nodes.toml --mapping ${mapping})
  pst_records_test(smpi.mapping.${mapping} 2 CHECKS
    "header['simulation']['mapping'] == '${mapping}' and header['locality']['node_of_rank'] == [${node_of_rank_${mapping}}]"
    ARGS swap --sizes 8 --protocols 0,6 --reps 2)
endforeach()
set(PSTRUN ${PSTRUN_T3E})
# pstrun --cfg: a SimGrid setting after the platform's, recorded with them, and acting (every
# message at 1 % of the link's bandwidth: the 2 MB swap far slower); not KEY:VALUE: exit 2.
set(PSTRUN ${PSTRUN_T3E} --cfg smpi/bw-factor:0:0.01)
pst_records_test(smpi.cfg_extra 2 CHECKS
  "header['simulation']['cfg'][-1] == 'smpi/bw-factor:0:0.01'"
  "points[0]['bytes'] / points[0]['t_min'] < 0.2 * 286e6"
  ARGS swap --sizes 2097152 --protocols 0,2 --reps 2)
set(PSTRUN ${PSTRUN_T3E})
add_test(NAME smpi.bad.cfg COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2 "pstrun: --cfg needs KEY:VALUE \\(got 'fast'\\)"
  ${PST_TEST_OUT} -- ${PSTRUN} --cfg fast -n 2 $<TARGET_FILE:pstswm> swap --out ${PST_TEST_OUT})
set(smpi_bad_mapping "--mapping: unknown mapping 'round' \\(allowed: block, cyclic\\)")
add_test(NAME smpi.bad.mapping COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2 ${smpi_bad_mapping} ${PST_TEST_OUT}
  -- ${PSTRUN} --mapping round -n 2 $<TARGET_FILE:pstswm> swap --out ${PST_TEST_OUT})

# Every alternative that needs what SMPI lacks is refused by name with exit 2.
set(smpi_lacks "does not have")
pst_bad_input_test(smpi.bad.neighbor 2 2 "--algorithms neighbor: needs MPI_Dist_graph_create_adjacent.*${smpi_lacks}"
  kernel --algorithms neighbor --trunc 10 --levels 2 --out ${PST_TEST_OUT})
pst_bad_input_test(smpi.bad.iallreduce 2 2 "--algorithms iallreduce: needs MPI_Ialltoallv, MPI_Iallreduce.*${smpi_lacks}"
  kernel --algorithms iallreduce --trunc 10 --levels 2 --out ${PST_TEST_OUT})
pst_bad_input_test(smpi.bad.persistent_collectives 2 2 "--algorithms alltoallv_init: needs MPI_Alltoallv_init.*${smpi_lacks}"
  kernel --algorithms alltoallv_init --trunc 10 --levels 2 --out ${PST_TEST_OUT})
pst_bad_input_test(smpi.bad.legendre_neighbor 2 2 "--legendre neighbor: needs MPI_Dist_graph_create_adjacent.*${smpi_lacks}"
  model --grid 1x2 --trunc 10 --levels 2 --legendre neighbor --out ${PST_TEST_OUT})
if(NOT PST_HAVE_MPI_ISENDRECV)
  pst_bad_input_test(smpi.bad.isendrecv 2 2 "protocol 0,7 \\(unordered.isendrecv\\) needs MPI_Isendrecv.*${smpi_lacks}"
    swap --protocols 0,7 --out ${PST_TEST_OUT})
endif()
pst_bad_input_test(smpi.bad.partitioned 2 2 "\\(unordered.partitioned\\) needs MPI_Psend_init.*${smpi_lacks}"
  swap --protocols unordered.partitioned --out ${PST_TEST_OUT})
pst_bad_input_test(smpi.bad.rma 2 2 "--transport rma: needs MPI_Win_get_attr\\(MPI_WIN_MODEL\\), MPI_Win_sync.*${smpi_lacks}"
  swap --transport rma --out ${PST_TEST_OUT})
pst_bad_input_test(smpi.bad.mpi_t 2 2 "--mpi-t: needs MPI_T_init_thread.*${smpi_lacks}"
  match --mpi-t --out ${PST_TEST_OUT})
pst_bad_input_test(smpi.bad.shmem 2 2 "--transport: unknown transport 'shmem' \\(allowed: mpi, rma\\)"
  swap --transport shmem --out ${PST_TEST_OUT})

# Same numbers, simulated: the model's error norms as the Open MPI build's (<= 1e-12 relative).
foreach(grid 1x2 2x2 4x4)
  add_test(NAME smpi.model.${grid} COMMAND ${CMAKE_SOURCE_DIR}/tests/smpi-model-norms.sh ${grid}
    ${PST_SMPI_REFERENCE} $<TARGET_FILE:pstswm> ${CMAKE_SOURCE_DIR}/platforms/t3e-900.toml)
  set_tests_properties(smpi.model.${grid} PROPERTIES TIMEOUT 300 PASS_REGULAR_EXPRESSION "as Open MPI's.*: ok")
endforeach()

# The kernels verify their payloads as they do on a real machine (a wrong one exits 3).
pst_records_test(smpi.kernel.np4 4 CHECKS
  "len(points) > 0 and all(p['verified'] is True for p in points)"
  ARGS kernel --grid 2x2 --trunc 10 --levels 2 --protocols 0,6,1,3 --reps 2)
pst_records_test(smpi.kernel.np2 2 CHECKS
  "len(points) > 0 and all(p['verified'] is True for p in points)"
  ARGS kernel --trunc 10 --levels 2 --protocols 0,6,1,1 --reps 2)

# The watchdog does not arm in simulation: a timeout far below the run's real time passes.
pst_mpi_test(smpi.watchdog_unarmed 2 model --grid 1x2 --trunc 21 --levels 4 --steps 200 --fftw-plan estimate --timeout 0.001)

# Skeleton mode: each stage's arithmetic skipped, its analytic flops injected at the platform's
# rate.  Against the real mode on the same platform (their step times' ratio, and on one rank the
# platform's rate exactly); its records say so, with null error norms.
add_test(NAME smpi.skeleton.2x2 COMMAND ${CMAKE_SOURCE_DIR}/tests/smpi-skeleton.sh 2x2 $<TARGET_FILE:pstswm>
  ${CMAKE_SOURCE_DIR}/platforms/t3e-900.toml)
set_tests_properties(smpi.skeleton.2x2 PROPERTIES TIMEOUT 300 PASS_REGULAR_EXPRESSION "smpi skeleton 2x2: .*: ok")
# A platform's per-stage rates: each stage injected at its own, recorded in the header; a broken
# PSTSWM_SMPI_STAGE_MFLOPS is refused by name with exit 2.
add_test(NAME smpi.skeleton.stage_rates COMMAND ${CMAKE_SOURCE_DIR}/tests/smpi-stage-rates.sh $<TARGET_FILE:pstswm>
  ${CMAKE_SOURCE_DIR}/platforms/t3e-900.toml)
set_tests_properties(smpi.skeleton.stage_rates PROPERTIES TIMEOUT 180 PASS_REGULAR_EXPRESSION "smpi stage rates refused: ok")
# The transposes' copies charged at PSTSWM_SMPI_COPY_BYTES_PER_S (a platform's [node]
# copy_bytes_per_s): the FFT stage's communication time grows by bytes / rate, the header records
# the rate; anything but a positive number is refused by name.
add_test(NAME smpi.skeleton.copy_charge COMMAND ${CMAKE_SOURCE_DIR}/tests/smpi-copy-charge.sh $<TARGET_FILE:pstswm>
  ${CMAKE_SOURCE_DIR}/platforms/t3e-900.toml)
set_tests_properties(smpi.skeleton.copy_charge PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION "smpi copy charge: .*: ok")
pst_bad_input_test(smpi.bad.copy_rate 2 2 "PSTSWM_SMPI_COPY_BYTES_PER_S='abc': expected a positive number of bytes/s"
  model --grid 1x2 --trunc 10 --levels 2 --compute skeleton --out ${PST_TEST_OUT})
set_tests_properties(smpi.bad.copy_rate PROPERTIES ENVIRONMENT "PSTSWM_SMPI_COPY_BYTES_PER_S=abc")
pst_records_test(smpi.skeleton.records 4 CHECKS
  "header['compute'] == 'skeleton' and header['simulated'] is True"
  "len(points) == 1 and all(p[k] is None for p in points for k in ('h_l1', 'h_l2', 'v_linf', 'mass_rel', 'error_ref'))"
  "all(p['step_s'] > 0 and p['fft_comm_s'] > 0 and p['legendre_comm_s'] > 0 for p in points)"
  ARGS model --grid 2x2 --trunc 21 --levels 4 --steps 3 --warmup 1 --fftw-plan estimate --compute skeleton)
# The kernels' payloads are not computed in skeleton mode: their verification is skipped, by name.
pst_records_test(smpi.skeleton.kernel 4 CHECKS
  "header['compute'] == 'skeleton'"
  "len(points) > 0 and all(p['verified'] is False for p in points)"
  ARGS kernel --grid 2x2 --trunc 10 --levels 2 --protocols 0,6 --reps 2 --compute skeleton)
# What reads the state is refused in skeleton mode, and a real build refuses the mode by name.
pst_bad_input_test(smpi.bad.skeleton_diag 2 2 "--compute skeleton computes no state: --diag-every, --write-fields and --reference need --compute real"
  model --grid 1x2 --trunc 10 --levels 2 --compute skeleton --diag-every 1 --out ${PST_TEST_OUT})
add_test(NAME smpi.bad.skeleton_openmpi COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "--compute skeleton: only the SMPI build has it \\(scripts/dev/build.sh smpi; docs/predict.md\\).*this is the openmpi build" ${PST_TEST_OUT}
  -- ${CMAKE_SOURCE_DIR}/scripts/pstrun --mpi openmpi -n 2 ${PST_SMPI_REFERENCE} model --grid 1x2 --trunc 10 --levels 2 --compute skeleton --out ${PST_TEST_OUT})
set_tests_properties(smpi.bad.skeleton_openmpi PROPERTIES TIMEOUT 60)
# SMPI simulates ranks, not threads: --threads above 1 is refused by name (pstrun leaves it to pstswm).
pst_bad_input_test(smpi.bad.threads 1 2 "--threads 2: SimGrid's SMPI simulates ranks, not threads"
  model --trunc 10 --levels 2 --steps 1 --threads 2 --out ${PST_TEST_OUT})
