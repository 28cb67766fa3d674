# The parallel model reproduces the serial one (tests/mpi/test_model_parallel.c) on every grid.
# Two-sided: FFT algorithm x Legendre algorithm x overlap, protocols rotating through the
# catalogue, cases 2 and 6.  MPICH busy-polls when oversubscribed: above 2 ranks it runs the
# protocol subset, and above 4 only case 6 with each protocol once, the runs cycling through every
# algorithm of each stage (once: 15 runs instead of the 45 pairs, which took 55-100 s per grid
# there; every pair runs on MPICH's 2x2 grid with case 6 and on Open MPI's 6- and 8-rank grids).
# MPICH's 2x2 runs cases 2 and 5 once (29 and 32 s with every pair).
# One-sided (issue 8): every protocol of rma (and of shmem where built), case 6; MPICH above 2
# ranks runs each protocol once (all 80 runs took 136 s at 2x2 and over 300 s at 4x2 there), and
# only up to 4 ranks: its oversubscribed 6- and 8-rank grids took 66-129 s each even so (a third of
# the CI budget's margin); Open MPI runs them, and comm.rma.np8 keeps MPICH's one-sided transport
# tested at 8 ranks.
pst_kind(model-matrix)
add_executable(test_model_parallel ${CMAKE_SOURCE_DIR}/tests/mpi/test_model_parallel.c)
target_link_libraries(test_model_parallel PRIVATE pst_model)
set(one_sided rma)
if(PST_HAVE_SHMEM)
  list(APPEND one_sided shmem)
endif()
foreach(grid 1x1 2x1 1x2 2x2 4x2 2x4 3x2)
  string(REPLACE "x" ";" dims ${grid})
  list(GET dims 0 px)
  list(GET dims 1 py)
  math(EXPR n "${px} * ${py}")
  set(mode all)
  set(one_sided_mode all)
  set(cases 2 6)
  if(n GREATER 2 AND NOT PST_MPI STREQUAL "openmpi")
    set(mode subset)
    set(one_sided_mode once)
  endif()
  if(n GREATER 4 AND NOT PST_MPI STREQUAL "openmpi")
    set(mode once)
    set(cases 6)
  endif()
  foreach(case ${cases})
    set(case_mode ${mode})
    if(n GREATER 2 AND case EQUAL 2 AND NOT PST_MPI STREQUAL "openmpi")
      set(case_mode once)
    endif()
    pst_output_test(model.parallel.${grid}.case${case} ${n} ": ok$"
      $<TARGET_FILE:test_model_parallel> ${grid} ${case} 10 2 3 ${case_mode})
  endforeach()
  if(n GREATER 4 AND NOT PST_MPI STREQUAL "openmpi")
    continue()
  endif()
  foreach(transport ${one_sided})
    pst_output_test(model.parallel.${transport}.${grid}.case6 ${n} ": ok$"
      $<TARGET_FILE:test_model_parallel> ${grid} 6 10 2 3 ${one_sided_mode} ${transport})
  endforeach()
endforeach()

pst_kind(mpi)
# Every rank runs rank 0's FFTW plans (model/transforms/fft.h: pst_fft_init_agreed), also with a rank that has
# no lines and one whose shape rank 0 did not plan.
add_executable(test_fft_agreed ${CMAKE_SOURCE_DIR}/tests/mpi/test_fft_agreed.c)
target_link_libraries(test_fft_agreed PRIVATE pst_model)
foreach(n 1 2 3 4)
  pst_output_test(model.fft_agreed.np${n} ${n} "fft_agreed: ok$" $<TARGET_FILE:test_fft_agreed>)
endforeach()

pst_kind(model-matrix)
# ringpipe's just-in-time blocks smaller than a wavenumber (step_forward_legendre.c): T10 on a
# column of 8 gives each rank 5 or 6 wavenumbers and 8 blocks of 3 to 5 coefficients, cut inside
# the wavenumbers' parity blocks, as T85 on 16x16 does (16 ranks: Open MPI, as pst_mpi_test).
if(PST_MPI STREQUAL "openmpi")
  pst_output_test(model.parallel.2x8.case6 16 ": ok$" $<TARGET_FILE:test_model_parallel> 2x8 6 10 2 3 all)
endif()

# The mountain of case 5 (surface geopotential, each rank holding its own points of it) split
# over longitudes and latitudes.
set(case5_mode subset)
if(NOT PST_MPI STREQUAL "openmpi")
  set(case5_mode once)
endif()
pst_output_test(model.parallel.2x2.case5 4 ": ok$" $<TARGET_FILE:test_model_parallel> 2x2 5 10 2 3 ${case5_mode})

pst_kind(mpi)
# Threads change no bit of the model (tests/mpi/test_model_threads.c, pst_threads_bitwise_test in
# model.cmake): 1, 2 and 3 threads per rank on every small grid.
add_executable(test_model_threads ${CMAKE_SOURCE_DIR}/tests/mpi/test_model_threads.c)
target_link_libraries(test_model_threads PRIVATE pst_model)
foreach(grid 1x1 1x2 2x1 2x2)
  pst_threads_bitwise_test(model.threads.bitwise.${grid} ${grid} "${grid}: ok$" 2)
endforeach()
