# C unit tests: one executable per tests/unit/test_*.c, linked against the whole library stack.
file(GLOB unit_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${unit_sources})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE pst_bench)
  add_test(NAME unit.${name} COMMAND ${PSTRUN} -n 1 $<TARGET_FILE:${name}>)
  set_tests_properties(unit.${name} PROPERTIES TIMEOUT 120)
endforeach()
