# The emulated Slurm cluster (scripts/cluster, docs/cluster.md): launches across nodes with this
# build's MPI, and faults only a cluster shows. The fixture brings the cluster up before the
# first of these tests and takes it down after the last, also when one fails; every test asks
# for it again (`up` is idempotent), since the fault tests take it down. Where the cluster
# cannot run (no root or namespaces) the tests skip with scripts/cluster's line, except under
# CI=true, where that is a failure.
#
# Order: the time-limit job is submitted first and waits out its minute while the launch tests
# and locality tests, one after the other, share the nodes with it (each takes one CPU per node, as
# does the job); the tests that take the cluster down come after it, one at a time.
pst_kind(cluster)
set(CLUSTER ${CMAKE_SOURCE_DIR}/tests/cluster)
set(CLUSTER_OUT ${CMAKE_CURRENT_BINARY_DIR}/cluster)
add_test(NAME cluster.up COMMAND ${CLUSTER}/fixture.sh up)
add_test(NAME cluster.down COMMAND ${CLUSTER}/fixture.sh down)
set_tests_properties(cluster.up PROPERTIES FIXTURES_SETUP cluster)
set_tests_properties(cluster.down PROPERTIES FIXTURES_CLEANUP cluster)
add_test(NAME cluster.unavailable COMMAND ${CLUSTER}/unavailable.sh)

set(cluster_args ${PST_MPI} $<TARGET_FILE:pstswm>)
add_test(NAME cluster.time-limit.submit COMMAND ${CLUSTER}/time-limit.sh submit ${cluster_args} ${CLUSTER_OUT}/time-limit)
add_test(NAME cluster.launch COMMAND ${CLUSTER}/launch.sh ${cluster_args} ${CLUSTER_OUT}/launch)
add_test(NAME cluster.locality COMMAND ${CLUSTER}/locality.sh ${cluster_args} ${CLUSTER_OUT}/locality)
add_test(NAME cluster.time-limit.resume COMMAND ${CLUSTER}/time-limit.sh resume ${cluster_args} ${CLUSTER_OUT}/time-limit)
set(cluster_shared cluster.time-limit.submit cluster.launch cluster.locality)
set_tests_properties(cluster.launch PROPERTIES DEPENDS cluster.time-limit.submit)
set_tests_properties(cluster.locality PROPERTIES DEPENDS cluster.launch)
set_tests_properties(cluster.time-limit.resume PROPERTIES DEPENDS "${cluster_shared}")

foreach(nodes 2 3)
  add_test(NAME cluster.lifecycle.${nodes} COMMAND ${CLUSTER}/lifecycle.sh ${nodes})
  list(APPEND cluster_whole cluster.lifecycle.${nodes})
endforeach()
add_test(NAME cluster.link-down COMMAND ${CLUSTER}/link-down.sh ${cluster_args} ${CLUSTER_OUT}/link-down)
add_test(NAME cluster.slurmd-killed COMMAND ${CLUSTER}/slurmd-killed.sh ${cluster_args} ${CLUSTER_OUT}/slurmd-killed)
# Ranks per node x threads takes both CPUs of each node: after the time-limit job has gone.
add_test(NAME cluster.hybrid COMMAND ${CLUSTER}/hybrid.sh ${cluster_args} ${CLUSTER_OUT}/hybrid)
# pstlab killed during srun launches and resumed (tests/crash-resume.py).
add_test(NAME cluster.crash COMMAND ${CLUSTER}/crash.sh ${cluster_args} ${CLUSTER_OUT}/crash)
# pstswm's ReFrame library on the cluster (tests/reframe/library.sh): ReFrame's squeue scheduler and
# srun launcher, 2 nodes; timed, so it takes the cluster alone.
add_test(NAME cluster.reframe COMMAND ${CMAKE_SOURCE_DIR}/tests/reframe/library.sh cluster ${cluster_args} ${CLUSTER_OUT}/reframe)
list(APPEND cluster_whole cluster.link-down cluster.slurmd-killed cluster.hybrid cluster.crash cluster.reframe)
set_tests_properties(${cluster_whole} PROPERTIES DEPENDS "${cluster_shared};cluster.time-limit.resume" RESOURCE_LOCK cluster-whole)

set_tests_properties(${cluster_shared} cluster.time-limit.resume ${cluster_whole} PROPERTIES
  FIXTURES_REQUIRED cluster SKIP_RETURN_CODE 77 TIMEOUT 300 PROCESSORS 1)
set_tests_properties(cluster.up cluster.down PROPERTIES SKIP_RETURN_CODE 77)
set_tests_properties(cluster.reframe PROPERTIES PROCESSORS 2 TIMEOUT 600)
