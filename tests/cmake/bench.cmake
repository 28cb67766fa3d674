# The bench scripts (bench/, docs/design.md "Bench scripts"): each uses the harness, is listed in
# docs/design.md, answers --help with exit 0 and a bad option with exit 2 and one line.
add_test(NAME tree.bench_harness COMMAND ${CMAKE_SOURCE_DIR}/tests/check-bench.py ${CMAKE_SOURCE_DIR})
set_tests_properties(tree.bench_harness PROPERTIES LABELS tree TIMEOUT 120)
# shellcheck over bench/ (its bench/.shellcheckrc finds the sourced files); skipped, and said so,
# where shellcheck (Debian package shellcheck) is not installed.
add_test(NAME tree.bench_shellcheck COMMAND ${CMAKE_SOURCE_DIR}/tests/shellcheck-bench.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(tree.bench_shellcheck PROPERTIES LABELS tree TIMEOUT 120 SKIP_RETURN_CODE 77)
