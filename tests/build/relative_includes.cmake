# No relative include across modules (tests/CMakeLists.txt). The per-module include roots of
# src/CMakeLists.txt cannot stop `#include "../planar/x.hpp"`: a quoted include is looked up
# first next to the including file, in the source tree. So this scan refuses, in the C++ files of
# src/, include/, apps/, python/ and bench/, every include with a `..` (or an absolute path)
# that leaves the including file's module folder: src/<module>, include/linkdyn/<module>,
# apps/<app>, python, bench. Within a folder (`../structure.hpp` from src/planar/groups/) is fine.
#   cmake -DSOURCE_DIR=<project> -DWORK_DIR=<scratch> -P relative_includes.cmake
# It first scans a tree it plants in WORK_DIR, which must give exactly the planted refusals (the
# scan's own check), then the project.

# The module folder of a file given relative to the root: "" when the scan does not cover it.
function(module_folder file out)
  if(file MATCHES "^(include/linkdyn/[^/]+)/")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  elseif(file MATCHES "^((src|apps)/[^/]+)/")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  elseif(file MATCHES "^(python|bench)/")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# The refusals, one "<file>:<line>: ..." per element, of the tree under root.
function(scan root out)
  get_filename_component(root ${root} ABSOLUTE)
  set(refused "")
  file(GLOB_RECURSE files RELATIVE ${root} LIST_DIRECTORIES false
       ${root}/src/* ${root}/include/* ${root}/apps/* ${root}/python/* ${root}/bench/*)
  list(FILTER files INCLUDE REGEX "\\.(cpp|hpp|h|ipp|inl|hpp\\.in)$")
  foreach(file IN LISTS files)
    module_folder(${file} folder)
    if(folder STREQUAL "")
      continue()
    endif()
    get_filename_component(dir ${root}/${file} DIRECTORY)
    file(STRINGS ${root}/${file} lines)
    set(number 0)
    foreach(line IN LISTS lines)
      math(EXPR number "${number} + 1")
      if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]*)[\">]")
        continue()
      endif()
      set(path ${CMAKE_MATCH_1})
      if(IS_ABSOLUTE "${path}")
        list(APPEND refused "${file}:${number}: #include \"${path}\" is an absolute path")
      elseif(path MATCHES "[^./][^/]*/\\.\\.(/|$)")  # a folder then `..`: from an include root
        list(APPEND refused "${file}:${number}: #include \"${path}\" climbs back out of a folder")
      elseif(path MATCHES "(^|/)\\.\\.(/|$)")
        # Leading `..` only: next to the including file, `..` removed lexically.
        get_filename_component(target ${dir}/${path} ABSOLUTE)
        string(FIND "${target}" "${root}/${folder}/" at)
        if(NOT at EQUAL 0)
          list(APPEND refused "${file}:${number}: #include \"${path}\" climbs out of ${folder}/")
        endif()
      endif()
    endforeach()
  endforeach()
  set(${out} "${refused}" PARENT_SCOPE)
endfunction()

# The scan's own check: planted crossings are refused, an include within a folder is not.
set(planted ${WORK_DIR}/planted)
file(REMOVE_RECURSE ${planted})
file(WRITE ${planted}/src/dynamics/kane.cpp "#include \"../planar/structure.hpp\"\n")
file(WRITE ${planted}/include/linkdyn/planar/kinematics.hpp "#include \"../dynamics/reduced.hpp\"\n")
file(WRITE ${planted}/apps/linkdyn/main.cpp
     "#include \"../../src/planar/structure.hpp\"\n#include \"/usr/include/stdio.h\"\n")
file(WRITE ${planted}/python/bindings/planar.cpp "#include \"linkdyn/planar/../../../src/planar/structure.hpp\"\n")
file(WRITE ${planted}/src/planar/groups/dyad.cpp "#include \"../structure.hpp\"\n#include <vector>\n")
file(WRITE ${planted}/src/planar/structure.hpp "#pragma once\n")
scan(${planted} refused)
set(expected
  "apps/linkdyn/main.cpp:1: #include \"../../src/planar/structure.hpp\" climbs out of apps/linkdyn/"
  "apps/linkdyn/main.cpp:2: #include \"/usr/include/stdio.h\" is an absolute path"
  "include/linkdyn/planar/kinematics.hpp:1: #include \"../dynamics/reduced.hpp\" climbs out of include/linkdyn/planar/"
  "python/bindings/planar.cpp:1: #include \"linkdyn/planar/../../../src/planar/structure.hpp\" climbs back out of a folder"
  "src/dynamics/kane.cpp:1: #include \"../planar/structure.hpp\" climbs out of src/dynamics/")
list(SORT refused)
if(NOT refused STREQUAL expected)
  string(REPLACE ";" "\n  " refused "${refused}")
  message(FATAL_ERROR "the scan's own check failed: on the planted tree it refused\n  ${refused}")
endif()

scan(${SOURCE_DIR} refused)
if(refused)
  string(REPLACE ";" "\n  " refused "${refused}")
  message(FATAL_ERROR "relative includes across modules (include another module's header by its "
                      "module path, e.g. \"linkdyn/planar/x.hpp\", and only down the module graph):\n  ${refused}")
endif()
message(STATUS "no relative include across modules in src/, include/, apps/, python/, bench/")
