# The SMPI flavour (PST_MPI=smpi): pstswm built with SimGrid's smpicc runs unmodified on a
# simulated platform under smpirun (docs/predict.md).  Included after the MPI feature checks.
#
# SMPI declares calls it does not implement: they compile and link, then abort the run or print
# "Not yet implemented" and return.  A feature that only compiled is therefore run here, on two
# simulated ranks (cmake/smpi_probe.c, a fraction of a second each), and counts as absent unless
# it works, so the alternatives that need it are refused by name (src/runtime/mpi_features.c).
if(NOT CMAKE_C_COMPILER MATCHES "smpicc$")
  message(FATAL_ERROR "PST_MPI=smpi needs -DCMAKE_C_COMPILER=smpicc (scripts/dev/build.sh smpi does that)")
endif()
find_program(PST_SMPIRUN smpirun REQUIRED)
execute_process(COMMAND ${PST_SMPIRUN} -version OUTPUT_VARIABLE pst_simgrid_version OUTPUT_STRIP_TRAILING_WHITESPACE)
message(STATUS "SMPI: ${pst_simgrid_version} (${PST_SMPIRUN})")

set(pst_probe_dir ${CMAKE_BINARY_DIR}/smpi_probe)
file(MAKE_DIRECTORY ${pst_probe_dir})
file(WRITE ${pst_probe_dir}/two_hosts.xml "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
  "<platform version=\"4.1\"><cluster id=\"probe\" prefix=\"probe\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/></platform>\n")
# The probe must be a real SMPI program run by a real smpirun: SMPI_PRETEND_CC (set for configure)
# makes smpicc build ordinary executables and smpirun return 0 without running anything.
# A probe whose calls this SMPI does not even declare is left out (it would not link).
set(pst_probe_defs "")
if(PST_HAVE_MPI_PARTITIONED)
  list(APPEND pst_probe_defs -DPST_HAVE_MPI_PARTITIONED)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=SMPI_PRETEND_CC
                  ${CMAKE_C_COMPILER} -O1 ${pst_probe_defs} ${CMAKE_CURRENT_LIST_DIR}/smpi_probe.c -o ${pst_probe_dir}/smpi_probe
                RESULT_VARIABLE pst_rc OUTPUT_QUIET ERROR_VARIABLE pst_err)
if(pst_rc)
  message(FATAL_ERROR "SMPI: the feature probe does not build: ${pst_err}")
endif()
foreach(pair "PST_HAVE_MPI_NBC=nonblocking_collectives" "PST_HAVE_MPI_NEIGHBOR=neighborhood_collectives"
             "PST_HAVE_MPI_RMA_SYNC=rma_window_sync" "PST_HAVE_MPI_PARTITIONED=partitioned")
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 var)
  list(GET pair 1 feature)
  if(NOT ${var})
    continue()
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=SMPI_PRETEND_CC ${PST_SMPIRUN} -np 2 -platform ${pst_probe_dir}/two_hosts.xml ${pst_probe_dir}/smpi_probe ${feature}
                  WORKING_DIRECTORY ${pst_probe_dir} RESULT_VARIABLE pst_rc OUTPUT_VARIABLE pst_out ERROR_VARIABLE pst_out
                  TIMEOUT 60)
  if(pst_rc OR pst_out MATCHES "Not yet implemented")
    set(${var} OFF CACHE INTERNAL "${feature}: declared by SMPI but does not work (configure-time probe)" FORCE)
    string(REGEX MATCH "Not yet implemented: [A-Za-z_]+" pst_why "${pst_out}")
    message(STATUS "SMPI: ${feature} counts as absent (probe exit ${pst_rc}${pst_why})")
  endif()
endforeach()

# SMPI has no OpenSHMEM, and FindMPI gives it no library directory to look in.
set(PST_SHMEM off CACHE STRING "" FORCE)
