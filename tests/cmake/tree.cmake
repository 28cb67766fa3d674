# Checks over the whole tracked tree.  Works are cited by author, title and year
# (docs/references.md), never by the internal names of the project's source documents.
add_test(NAME tree.references COMMAND ${CMAKE_SOURCE_DIR}/tests/check-references.py ${CMAKE_SOURCE_DIR})
set_tests_properties(tree.references PROPERTIES TIMEOUT 60)
