# Install-time check, run before any file is copied (the first rule of cmake/install.cmake):
# every directory the install writes (pst_install_dirs, relative to the prefix unless absolute)
# must be a directory that can be written, or the nearest part of its path that exists must be,
# so the install stops here with one line and nothing written.  scripts/install.sh turns this
# error into exit 2.
foreach(pst_dir ${pst_install_dirs})
  if(NOT IS_ABSOLUTE "${pst_dir}")
    set(pst_dir "${CMAKE_INSTALL_PREFIX}/${pst_dir}")
  endif()
  set(pst_dir "$ENV{DESTDIR}${pst_dir}")
  while(NOT EXISTS "${pst_dir}")
    get_filename_component(pst_dir "${pst_dir}" DIRECTORY)
  endwhile()
  # A file made and removed there, not the permission bits: root passes `test -w` on /proc and on
  # a read-only mount, where the install would then fail half-way.
  execute_process(COMMAND sh -c "test -d \"$1\" && t=$(mktemp -p \"$1\" .pstswm-install-probe.XXXXXX 2>/dev/null) && rm -f \"$t\""
    sh "${pst_dir}" RESULT_VARIABLE pst_rc)
  if(NOT pst_rc EQUAL 0)
    # NOTICE prints the line as it is (FATAL_ERROR would wrap it), for scripts/install.sh to pass on.
    message(NOTICE "pstswm: install prefix '$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}' is not writable ('${pst_dir}' cannot be written)")
    message(FATAL_ERROR "pstswm: nothing installed")
  endif()
endforeach()
