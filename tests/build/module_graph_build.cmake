# A must-fail build of the module graph (tests/CMakeLists.txt), which must fail on the include it
# plants and on nothing else:
#   cmake -DBUILD_DIR=<build> -DSOURCE_DIR=<project> -DTARGET=<object library of the planted file>
#         -DCONTROL=<object library of the same file without that include> -DSOURCE=<planted file>
#         -DHEADER=<the planted include> -P module_graph_build.cmake
# The planted header exists (in include/ or src/), the control builds, and the planted build fails
# with a compiler error, at the planted file, that names the header.
foreach(root include src)
  if(EXISTS ${SOURCE_DIR}/${root}/${HEADER})
    set(found ${root}/${HEADER})
  endif()
endforeach()
if(NOT found)
  message(FATAL_ERROR "the planted header ${HEADER} is in neither include/ nor src/: the build would "
                      "fail for that alone (plant a header that exists)")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${CONTROL}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} without its planted include does not build either, so its failure "
                      "would prove nothing:\n${out}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} builds: its include of ${HEADER} (${found}) was let through")
endif()
get_filename_component(name ${SOURCE} NAME)
string(REPLACE "." "\\." name_pattern ${name})
string(REPLACE "." "\\." header_pattern ${HEADER})
# gcc: "x.cpp:4:10: fatal error: h.hpp: No such file or directory"; clang: "'h.hpp' file not found".
if(NOT out MATCHES "${name_pattern}:[0-9]+:[0-9]+: (fatal )?error: [^\n]*${header_pattern}")
  message(FATAL_ERROR "${SOURCE} failed to build, but not on its include of ${HEADER}:\n${out}")
endif()
message(STATUS "${name} fails on its include of ${HEADER}, and builds without it")
