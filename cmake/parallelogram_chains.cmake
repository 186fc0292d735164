# Models of chains of N parallelogram four-bars (2N + 1 moving bodies) for the scaling tests and
# benchmarks, written at configure time by the example's generator
# (examples/tools/parallelogram_chain.py). Sets FOUND_VAR to TRUE when Python is there.
function(linkdyn_parallelogram_chains dir found_var)
  find_package(Python3 COMPONENTS Interpreter)
  if(NOT Python3_Interpreter_FOUND)
    set(${found_var} FALSE PARENT_SCOPE)
    return()
  endif()
  file(MAKE_DIRECTORY ${dir})
  foreach(n ${ARGN})
    execute_process(COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/examples/tools/parallelogram_chain.py ${n}
                            -o ${dir}/parallelogram-chain-${n}.yaml
                    RESULT_VARIABLE chain_result)
    if(NOT chain_result EQUAL 0)
      message(FATAL_ERROR "examples/tools/parallelogram_chain.py ${n} failed")
    endif()
  endforeach()
  set(${found_var} TRUE PARENT_SCOPE)
endfunction()
