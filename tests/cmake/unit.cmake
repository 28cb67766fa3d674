# C unit tests: one executable per tests/unit/test_*.c, each linked against the highest layer its
# includes name (PST_LAYERS runs upward): the lowest layer that holds what it tests.
pst_kind(unit)
file(GLOB unit_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${unit_sources})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  file(STRINGS ${src} unit_includes REGEX "^#include \"[a-z]+/")
  set(unit_layer core)
  foreach(layer ${PST_LAYERS})
    if(unit_includes MATCHES "#include \"${layer}/")
      set(unit_layer ${layer})
    endif()
  endforeach()
  target_link_libraries(${name} PRIVATE pst_${unit_layer})
  # The layout test counts the bytes the project's code allocates: its calls to the allocators
  # go through the test's wrappers.
  if(name STREQUAL "test_model_layout")
    target_link_options(${name} PRIVATE "LINKER:--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free"
      "LINKER:--wrap=fftw_alloc_real,--wrap=fftw_alloc_complex,--wrap=fftw_malloc,--wrap=fftw_free")
  endif()
  add_test(NAME unit.${name} COMMAND ${PST_LAUNCH1} $<TARGET_FILE:${name}>)
  pst_singleton(unit.${name})
  # Its area is the word after test_ (test_model_cases: area:model), for `make check AREA=model`.
  string(REGEX REPLACE "^test_([a-z]+).*" "\\1" unit_area ${name})
  set_tests_properties(unit.${name} PROPERTIES TIMEOUT 120 LABELS area:${unit_area})
endforeach()
