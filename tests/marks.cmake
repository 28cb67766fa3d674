# The marks of tests/helpers.cmake, given after every module has registered its tests.

# sanitize: what scripts/dev/test-sanitize.sh runs in the sanitizer build: every unit test and
# fuzzer, every bad-input test (each parser and file reader) and a 1-2 rank subset of the runs.
# One alternative a line (CMake's regular expressions take at most 9 groups).
set(PST_SANITIZE_SUBSET
  "^unit\\." "\\.bad\\." "^errors\\." "^outfile\\." "watchdog" "^fuzz\\."
  "^algo\\.[a-z]+\\.np[12]$" "^comm\\.(protocols|rma)\\.np2$" "^swap\\.np2\\.(all_protocols|verdict|volume_caches)$"
  "^pingpong\\.(modes|fit)\\.2$" "^coll\\.all-ops\\.2$" "^kernel\\.np2\\.all_protocols$" "^match\\.all-modes$"
  "^model\\.(case5\\.t21|reference\\.(write|use)|grid\\.1x2\\.(ringpipe|tuned_string)|grid\\.2x1\\.dfft_ringpipe)$"
  "^model\\.threads\\.bitwise\\.1x[12]$" "^model\\.threads\\.bitwise\\.2x1$" "^model\\.threads\\.comm_threads_2x1$"
  "^kernel\\.threads\\.sums$" "^threads\\.pingpong\\.multiple\\.2$" "^threads\\.swap\\.multiple\\.2$"
  "^model\\.parallel\\.(1x1|1x2|2x1)\\.case6$" "^model\\.blas\\.(blis|blis_sup|auto|auto_without_blis)$"
  "^header\\.np1\\.machine$" "^model\\.legendre_kernel\\.recurrence\\.np[12]$")
get_property(pst_all_tests DIRECTORY PROPERTY TESTS)
foreach(t ${pst_all_tests})
  foreach(re ${PST_SANITIZE_SUBSET})
    if(t MATCHES "${re}")
      pst_mark(sanitize ${t})
      break()
    endif()
  endforeach()
endforeach()

# smoke: `make check`'s 2-rank run of each subcommand (a few seconds each on 2 cores).
pst_mark(smoke swap.np2.all_protocols pingpong.modes.2 coll.all-ops.2 match.all-modes
  kernel.np2.all_protocols model.grid.1x2.ringpipe schema.np2)

# slow: over 60 s on this 2-core host under load (the last make test's log); OPTIONAL: not every
# build registers them (install.easybuild and install.pstlab only with Open MPI, cluster where
# Slurm is installed).
pst_mark(slow OPTIONAL install.easybuild install.pstlab reframe.local cluster.reframe crash.kill)
