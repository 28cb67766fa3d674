# Ranks x threads placement (scripts/pstrun, docs/howto-ranks-threads.md): a pstswm --threads T
# gives each rank T cores of its own and the OMP_ settings, recorded in the run header; ranks x T
# above the host's cores binds nothing and is flagged.  The record checks need a host of two or
# more cores; the --print tests check the commands pstrun builds for every launcher.
pst_kind(mpi)
include(ProcessorCount)
ProcessorCount(PLACEMENT_CORES)
set(PLACEMENT_ARGS model --case 2 --trunc 21 --levels 2 --steps 2)
# Each rank's threads on distinct CPUs, and the ranks on distinct CPUs: no two threads share one.
set(PLACEMENT_SPREAD "len([c for b in header['binding'] for c in b['thread_cpus'].split(',')]) == len({c for b in header['binding'] for c in b['thread_cpus'].split(',')})")
set(PLACEMENT_BOUND "header['omp_proc_bind'] == 'close' and header['omp_places'] == 'cores' and not header['oversubscribed']")
if(PLACEMENT_CORES GREATER_EQUAL 2)
  foreach(split 1x2 2x1)
    string(REPLACE "x" ";" rt ${split})
    list(GET rt 0 ranks)
    list(GET rt 1 threads)
    pst_records_test(placement.threads.${split} ${ranks} CHECKS ${PLACEMENT_BOUND} ${PLACEMENT_SPREAD}
      "len(header['binding']) == ${ranks} and all(b['threads'] == ${threads} for b in header['binding'])"
      "header['threads'] == ${threads} and header['threads_source'] == '--threads'"
      ARGS ${PLACEMENT_ARGS} --threads ${threads})
    set_tests_properties(placement.threads.${split} PROPERTIES PROCESSORS 2)
  endforeach()
endif()
# More threads than cores: nothing bound (OMP_PROC_BIND false), the run flagged oversubscribed.
math(EXPR PLACEMENT_OVER "${PLACEMENT_CORES} / 2 + 1")
pst_records_test(placement.threads.oversubscribed 2 CHECKS
  "header['oversubscribed'] and header['omp_proc_bind'] == 'false'"
  "all(b['threads'] == ${PLACEMENT_OVER} for b in header['binding'])"
  ARGS ${PLACEMENT_ARGS} --threads ${PLACEMENT_OVER})
add_test(NAME placement.threads.oversubscribed.says COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh
  "^pstrun: 2 ranks x ${PLACEMENT_OVER} threads > [0-9]+ cores: nothing bound, oversubscribed"
  -- ${PSTRUN} --print -n 2 $<TARGET_FILE:pstswm> model --threads ${PLACEMENT_OVER})

# The command pstrun builds (--print): the MPIs' placement options, srun's -c, pstrun's own --threads.
set(PSTRUN_BARE ${CMAKE_SOURCE_DIR}/scripts/pstrun)
set(placement_print_openmpi "^OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores mpiexec.openmpi -n 1 --map-by slot:pe=2 --bind-to core -x OMP_NUM_THREADS")
set(placement_print_mpich "^OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores mpiexec.mpich -n 1 -bind-to core:2 -genv OMP_NUM_THREADS 2")
if(PLACEMENT_CORES GREATER_EQUAL 2)
  foreach(mpi openmpi mpich)
    add_test(NAME placement.print.${mpi} COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh "${placement_print_${mpi}}"
      -- ${PSTRUN_BARE} --mpi ${mpi} --print -n 1 $<TARGET_FILE:pstswm> model --threads=2)
  endforeach()
  add_test(NAME placement.print.own-threads COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh
    "^OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores mpiexec.openmpi -n 1 --map-by slot:pe=2 .* model $"
    -- ${PSTRUN_BARE} --mpi openmpi -c 2 --print -n 1 $<TARGET_FILE:pstswm> model)
endif()
add_test(NAME placement.print.srun COMMAND env SLURM_CONF=/dev/null PSTSWM_CLUSTER_DIR=/nonexistent
  ${CMAKE_SOURCE_DIR}/tests/expect-output.sh "^OMP_NUM_THREADS=4 OMP_PROC_BIND=close OMP_PLACES=cores srun --mpi=pmix -n 8 -c 4 "
  -- ${PSTRUN_BARE} --mpi openmpi --launcher srun --print -n 8 $<TARGET_FILE:pstswm> model --threads 4)
add_test(NAME placement.print.srun-template COMMAND env SLURM_CONF=/dev/null PSTSWM_CLUSTER_DIR=/nonexistent
  ${CMAKE_SOURCE_DIR}/tests/expect-output.sh "srun --mpi=pmi2 -N 2 -n 8 --cpus-per-task=4 [^ ]+ model --threads 4 $"
  -- ${PSTRUN_BARE} --mpi mpich --launcher "srun -N 2 -n {n} --cpus-per-task=4" --print -n 8 $<TARGET_FILE:pstswm> model --threads 4)
add_test(NAME placement.print.no-threads COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh "^mpiexec.openmpi -n 1 [^ ]*pstswm model $"
  -- ${PSTRUN_BARE} --mpi openmpi --print -n 1 $<TARGET_FILE:pstswm> model)

# Bad input: exit 2 and one line.
add_test(NAME placement.bad.threads COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "^pstrun: --threads needs a positive thread count per rank \\(got '0'\\)$" -
  -- ${PSTRUN_BARE} --print -c 0 -n 1 $<TARGET_FILE:pstswm> model)
add_test(NAME placement.bad.disagree COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "^pstrun: --threads 3, but the program asks for --threads 2$" -
  -- ${PSTRUN_BARE} --threads 3 --print -n 1 $<TARGET_FILE:pstswm> model --threads=2)
set_tests_properties(placement.threads.oversubscribed.says PROPERTIES TIMEOUT 60)
