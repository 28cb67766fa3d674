# Checks over the whole tracked tree.  Works are cited by author, title and year
# (docs/references.md), never by the internal names of the project's source documents.
pst_kind(tree)
add_test(NAME tree.references COMMAND ${CMAKE_SOURCE_DIR}/tests/check-references.py ${CMAKE_SOURCE_DIR})
set_tests_properties(tree.references PROPERTIES TIMEOUT 60)
# The layers of src/ (core < stats < runtime < comm < algo < model < cmd < main.c): no include runs upward.
add_test(NAME tree.layers COMMAND ${CMAKE_SOURCE_DIR}/tests/check-layers.py ${CMAKE_SOURCE_DIR}/src)
set_tests_properties(tree.layers PROPERTIES TIMEOUT 60)
# No circle of files inside a folder of src/ (a calls b, b calls a back): such files are one
# module cut in two.  Read from the objects' symbols, as the link sees them.
set(layer_objects "")
foreach(layer ${PST_LAYERS})
  list(APPEND layer_objects $<TARGET_OBJECTS:pst_${layer}>)
endforeach()
add_test(NAME tree.file_cycles COMMAND ${CMAKE_SOURCE_DIR}/tests/check-file-cycles.py ${CMAKE_SOURCE_DIR}/src
  ${layer_objects})
set_tests_properties(tree.file_cycles PROPERTIES TIMEOUT 60)
# The same at link time: a layer's library calls only what its layer and those below define.
set(layer_libraries "")
foreach(layer ${PST_LAYERS})
  list(APPEND layer_libraries $<TARGET_FILE:pst_${layer}>)
endforeach()
add_test(NAME tree.layer_links COMMAND ${CMAKE_SOURCE_DIR}/tests/check-layer-links.py ${layer_libraries})
set_tests_properties(tree.layer_links PROPERTIES TIMEOUT 60)
# The size rules everywhere: C functions <= 80 lines, Python functions <= 60, C/Python/shell files <= 600.
add_test(NAME tree.function_length COMMAND ${CMAKE_SOURCE_DIR}/tests/check-function-length.py ${CMAKE_SOURCE_DIR})
set_tests_properties(tree.function_length PROPERTIES TIMEOUT 60)
# No C line of src/ or tests/unit/ over 120 characters (scripts/dev/rewrap.sh rewraps them).
add_test(NAME tree.line_length COMMAND ${CMAKE_SOURCE_DIR}/tests/check-line-length.py ${CMAKE_SOURCE_DIR})
set_tests_properties(tree.line_length PROPERTIES TIMEOUT 60)
# The algorithm registry: pstlab's fallback and the docs' table agree with the binary's list.
add_test(NAME tree.registry COMMAND ${CMAKE_SOURCE_DIR}/tests/check-registry.py ${CMAKE_SOURCE_DIR} $<TARGET_FILE:pstswm>)
set_tests_properties(tree.registry PROPERTIES TIMEOUT 60)
# The record schema: docs/records.md and pstlab's copy (python/pstlab/io/schema.json) are the binary's.
add_test(NAME tree.schema COMMAND ${CMAKE_SOURCE_DIR}/tests/check-schema.py ${CMAKE_SOURCE_DIR} $<TARGET_FILE:pstswm>)
set_tests_properties(tree.schema PROPERTIES TIMEOUT 60)
# The docs: links and anchors, code fences, README length, no dates or commit ids outside
# docs/notes/, and the protocol and alternative counts they state against this build.
add_test(NAME tree.docs COMMAND ${CMAKE_SOURCE_DIR}/tests/check-docs.py ${CMAKE_SOURCE_DIR}
  --pstrun ${PSTRUN} --pstswm $<TARGET_FILE:pstswm> --mpi ${PST_MPI})
set_tests_properties(tree.docs PROPERTIES TIMEOUT 120 PROCESSORS 2)
# The lanes: every test has one kind label and one area label (tests/helpers.cmake: pst_kind).
add_test(NAME tree.lanes COMMAND ${CMAKE_SOURCE_DIR}/tests/check-lanes.py ${CMAKE_SOURCE_DIR}/tests/helpers.cmake
  ${CMAKE_BINARY_DIR})
set_tests_properties(tree.lanes PROPERTIES TIMEOUT 60)
# shellcheck over scripts/ (skipped, and said so, where shellcheck is not installed).
add_test(NAME tree.shellcheck COMMAND ${CMAKE_SOURCE_DIR}/tests/shellcheck.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(tree.shellcheck PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
