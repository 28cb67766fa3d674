# The build itself: the commit a binary reports is taken at every build (tests/git-commit-test.sh).
pst_kind(tree)
add_test(NAME build.git_commit COMMAND ${CMAKE_SOURCE_DIR}/tests/git-commit-test.sh ${CMAKE_SOURCE_DIR}
  ${PSTRUN} -n 1 $<TARGET_FILE:pstswm>)
set_tests_properties(build.git_commit PROPERTIES TIMEOUT 60)
