# cmake --install BUILD --prefix P (GNUInstallDirs' layout):
#   P/bin/pstswm, P/bin/pstrun            the program and its launcher
#   P/libexec/pstswm/mpi-env.sh           what pstrun sources (per-MPI command names)
#   P/share/pstswm/{suites,platforms}/    pstlab's suites and the simulated platforms (*.toml)
#   P/share/pstswm/schema.json            the record schema
#   P/share/pstswm/reframe/               the ReFrame library: checks, their suite, a configuration
#   P/share/doc/pstswm/                   README.md and docs/
#   P/share/man/man1/pstswm.1             from --help and --version by help2man (else the --help
#                                         text as P/share/doc/pstswm/pstswm-help.txt)
# The first install rule checks that every directory it writes can be written (cmake/
# install-check.cmake), so an install into a prefix that is not writable stops before any file
# is copied.  The tests' programs and pst_yardstick are not installed.
set(PST_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/pstswm)
set(PST_INSTALL_LIBEXECDIR ${CMAKE_INSTALL_LIBEXECDIR}/pstswm)
set(pst_install_dirs ${CMAKE_INSTALL_BINDIR} ${PST_INSTALL_LIBEXECDIR} ${PST_INSTALL_DATADIR} ${CMAKE_INSTALL_DOCDIR})

# The man page (or --help text) comes from running pstswm once as a singleton at build time;
# the SMPI build cannot run that way, and a sanitizer build would report the MPI's leaks.
set(pst_man_default ON)
if(PST_MPI STREQUAL "smpi" OR PST_SANITIZE)
  set(pst_man_default OFF)
endif()
option(PST_MAN_PAGE "build the man page (help2man) or --help text by running pstswm at build time" ${pst_man_default})
find_program(PST_HELP2MAN help2man)
if(PST_MAN_PAGE AND PST_HELP2MAN)
  list(APPEND pst_install_dirs ${CMAKE_INSTALL_MANDIR}/man1)
endif()

install(CODE "set(pst_install_dirs \"${pst_install_dirs}\")\ninclude(\"${CMAKE_CURRENT_LIST_DIR}/install-check.cmake\")")

install(TARGETS pstswm RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The installed pstrun: its helpers in the libexec directory, and no --mpi means the MPI this
# pstswm was built for.  The checkout's copy keeps its own two lines (helpers beside it, openmpi).
file(READ ${CMAKE_SOURCE_DIR}/scripts/pstrun pst_pstrun)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/scripts/pstrun)
file(RELATIVE_PATH pst_libexec_rel /P/${CMAKE_INSTALL_BINDIR} /P/${PST_INSTALL_LIBEXECDIR})
if(IS_ABSOLUTE "${PST_INSTALL_LIBEXECDIR}")
  set(pst_libexec "${PST_INSTALL_LIBEXECDIR}")
else()
  set(pst_libexec "$here/${pst_libexec_rel}")
endif()
set(pst_lines "lib=$here/lib\n" "default_mpi=openmpi\n")
foreach(line ${pst_lines})
  string(FIND "${pst_pstrun}" "\n${line}" pst_at)
  if(pst_at EQUAL -1)
    message(FATAL_ERROR "scripts/pstrun has no line '${line}' for the installed copy to replace (cmake/install.cmake)")
  endif()
endforeach()
string(REPLACE "\nlib=$here/lib\n" "\nlib=${pst_libexec}\n" pst_pstrun "${pst_pstrun}")
string(REPLACE "\ndefault_mpi=openmpi\n" "\ndefault_mpi=${PST_MPI}\n" pst_pstrun "${pst_pstrun}")
set(pst_old "")
if(EXISTS ${CMAKE_BINARY_DIR}/install/pstrun)
  file(READ ${CMAKE_BINARY_DIR}/install/pstrun pst_old)
endif()
if(NOT pst_old STREQUAL pst_pstrun)
  file(WRITE ${CMAKE_BINARY_DIR}/install/pstrun "${pst_pstrun}")
endif()
install(PROGRAMS ${CMAKE_BINARY_DIR}/install/pstrun DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/scripts/lib/mpi-env.sh DESTINATION ${PST_INSTALL_LIBEXECDIR})

install(DIRECTORY ${CMAKE_SOURCE_DIR}/suites ${CMAKE_SOURCE_DIR}/platforms DESTINATION ${PST_INSTALL_DATADIR}
  FILES_MATCHING PATTERN "*.toml")
install(FILES ${CMAKE_SOURCE_DIR}/python/pstlab/io/schema.json DESTINATION ${PST_INSTALL_DATADIR})
# The ReFrame library (docs/howto-reframe.md): its tests, their suite and an example configuration.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/reframe/pstswm_checks.py ${CMAKE_SOURCE_DIR}/packaging/reframe/pstswm.toml
  ${CMAKE_SOURCE_DIR}/packaging/reframe/settings.py DESTINATION ${PST_INSTALL_DATADIR}/reframe)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs DESTINATION ${CMAKE_INSTALL_DOCDIR})

if(NOT PST_MAN_PAGE)
  message(STATUS "man page: not built (PST_MAN_PAGE=OFF)")
elseif(PST_HELP2MAN)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/install/pstswm.1
    COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${PST_HELP2MAN} -DPSTSWM=$<TARGET_FILE:pstswm>
      -DOUT=${CMAKE_BINARY_DIR}/install/pstswm.1 -P ${CMAKE_CURRENT_LIST_DIR}/man-page.cmake
    DEPENDS pstswm ${CMAKE_CURRENT_LIST_DIR}/man-page.cmake COMMENT "Generating the man page (help2man)")
  add_custom_target(pstswm_man ALL DEPENDS ${CMAKE_BINARY_DIR}/install/pstswm.1)
  install(FILES ${CMAKE_BINARY_DIR}/install/pstswm.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(NOTICE "-- man page: NOT built: help2man not found (Debian/RHEL/Rocky: help2man); "
    "installing the --help text as ${CMAKE_INSTALL_DOCDIR}/pstswm-help.txt instead")
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/install/pstswm-help.txt
    COMMAND $<TARGET_FILE:pstswm> --help > ${CMAKE_BINARY_DIR}/install/pstswm-help.txt
    DEPENDS pstswm COMMENT "Writing the --help text")
  add_custom_target(pstswm_help ALL DEPENDS ${CMAKE_BINARY_DIR}/install/pstswm-help.txt)
  install(FILES ${CMAKE_BINARY_DIR}/install/pstswm-help.txt DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()
