# Writes OUTPUT (a header for the command line's --version) with the commit of SOURCE_DIR and
# the dependencies' versions given as -D variables; rewritten only when its text changes, so a
# build after a new commit recompiles one file. Run by the linkdyn_build_info target.
execute_process(COMMAND git -C ${SOURCE_DIR} describe --always --dirty --abbrev=10
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_result)
if(NOT git_result EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown (not built from a git checkout)")
endif()
set(text "#pragma once\n// Written by cmake/build_info.cmake at build time.\n")
string(APPEND text "#define LINKDYN_BUILD_COMMIT \"${commit}\"\n")
string(APPEND text "#define LINKDYN_BUILD_DEPENDENCIES \"${DEPENDENCIES}\"\n")
file(WRITE ${OUTPUT}.new "${text}")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
