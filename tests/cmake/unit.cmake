# C unit tests: one executable per tests/unit/test_*.c, each linked against the lowest layer that
# holds what it tests (a test that reaches above its layer does not link): test_comm_* the
# protocol layer, test_model_* and test_fields_io the model, test_match_model the drivers' model
# module, the rest the core.
file(GLOB unit_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${unit_sources})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  if(name MATCHES "^test_comm_")
    set(unit_layer pst_comm)
  elseif(name MATCHES "^test_model_|^test_fields_io$")
    set(unit_layer pst_model)
  elseif(name STREQUAL "test_match_model")
    set(unit_layer pst_bench)
  else()
    set(unit_layer pst_core)
  endif()
  target_link_libraries(${name} PRIVATE ${unit_layer})
  # The layout test counts the bytes the project's code allocates: its calls to the allocators
  # go through the test's wrappers.
  if(name STREQUAL "test_model_layout")
    target_link_options(${name} PRIVATE "LINKER:--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free"
      "LINKER:--wrap=fftw_alloc_real,--wrap=fftw_alloc_complex,--wrap=fftw_malloc,--wrap=fftw_free")
  endif()
  add_test(NAME unit.${name} COMMAND ${PSTRUN} -n 1 $<TARGET_FILE:${name}>)
  set_tests_properties(unit.${name} PROPERTIES TIMEOUT 120)
endforeach()
