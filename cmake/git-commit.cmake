# Writes OUT with the commit the sources are at, run on every build (not only at configure time),
# so a binary built after `git pull` or a commit does not report the commit it was configured at.
# "-dirty" marks tracked files changed since that commit: such a binary matches no commit.
# The file is rewritten only when its text changes, so an unchanged commit recompiles nothing.
#   cmake -DSRC=<source dir> -DOUT=<header> -P git-commit.cmake
# Outside git (a source tarball) the commit is the first line of SRC/COMMIT, else "unknown".
execute_process(COMMAND git -C ${SRC} rev-parse --short=12 HEAD
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT commit)
  # A source tarball (scripts/dev/dist.sh) names its commit in COMMIT.
  if(EXISTS ${SRC}/COMMIT)
    file(STRINGS ${SRC}/COMMIT commit LIMIT_COUNT 1)
  else()
    set(commit "unknown")
  endif()
else()
  # `git diff`, not `diff-index`: it compares contents, so a file only touched (a checkout, a
  # stash popped) does not make a clean tree look dirty.
  execute_process(COMMAND git -C ${SRC} diff --quiet HEAD --
    RESULT_VARIABLE dirty OUTPUT_QUIET ERROR_QUIET)
  if(dirty EQUAL 1)
    string(APPEND commit "-dirty")
  endif()
endif()
set(text "#define PST_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
