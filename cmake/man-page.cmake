# Build-time script: the man page of pstswm by help2man, from `pstswm --help` and `--version`
# (run once each, as a singleton).  The page's version is the program's; the whole --version text
# (commit, compiler, libraries, CPU target) is its BUILT WITH section.
#   cmake -DHELP2MAN=... -DPSTSWM=... -DOUT=pstswm.1 -P man-page.cmake
execute_process(COMMAND ${PSTSWM} --version OUTPUT_VARIABLE version RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "man page: '${PSTSWM} --version' failed (exit ${rc}); configure with -DPST_MAN_PAGE=OFF "
    "where the MPI cannot start a program without its launcher")
endif()
string(REGEX MATCH "^pstswm [^ \n]+" first "${version}")
string(REPLACE "\\" "\\e" version "${version}")  # a backslash is troff's escape
file(WRITE ${OUT}.include "[BUILT WITH]\n.nf\n${version}.fi\n")
execute_process(COMMAND ${HELP2MAN} --no-info --section=1 --output=${OUT} --include=${OUT}.include
    "--version-string=${first}" "--name=message-passing benchmarks and the spectral transform shallow water model"
    ${PSTSWM}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "man page: help2man failed (exit ${rc})")
endif()
