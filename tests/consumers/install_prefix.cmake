# Fixture setup for the consumer tests: install the build tree into a fresh
# temporary prefix inside the build tree. Usage:
#   cmake -DBUILD=<build dir> -DPREFIX=<prefix> -P install_prefix.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var BUILD PREFIX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install_prefix: -D${var}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD}"
                        --prefix "${PREFIX}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install_prefix: cmake --install failed (${rc})")
endif()
