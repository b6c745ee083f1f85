# libFuzzer targets (tests/fuzz/). Needs clang:
#   CC=clang cmake -S . -B build-fuzz -DUTURN_FUZZ=ON -DUTURN_BUILD_TESTS=OFF \
#     -DUTURN_BUILD_EXAMPLES=OFF -DUTURN_BUILD_BENCH=OFF
# scripts/fuzz builds and runs them. Each target compiles the library
# sources itself with -fsanitize=fuzzer,address,undefined, so coverage
# reaches library code and every sanitizer check applies to it. Asserts stay
# on whatever the build type.
#
# Included from the root CMakeLists.txt after the uturn targets. It also
# works as -DCMAKE_PROJECT_INCLUDE=<this file>: the targets are then defined
# at the end of the top-level directory, once UTURN_SOURCES exists.
include_guard(GLOBAL)

option(UTURN_FUZZ "Build the libFuzzer targets in tests/fuzz (clang only)" OFF)

function(uturn_fuzz_targets)
  if(NOT UTURN_FUZZ)
    return()
  endif()
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "UTURN_FUZZ needs clang (libFuzzer): configure a "
                        "separate build directory with CC=clang")
  endif()
  if(NOT UTURN_SOURCES)
    message(FATAL_ERROR "tests/fuzz/fuzz.cmake: UTURN_SOURCES is not set")
  endif()
  set(flags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
            -fno-omit-frame-pointer -UNDEBUG)
  set(sources)
  foreach(s ${UTURN_SOURCES})
    list(APPEND sources ${PROJECT_SOURCE_DIR}/${s})
  endforeach()
  foreach(name fuzz_planfile fuzz_planner)
    add_executable(${name} ${PROJECT_SOURCE_DIR}/tests/fuzz/${name}.c
                           ${sources})
    target_include_directories(${name} PRIVATE
      ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include
      ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/schedules)
    target_compile_definitions(${name} PRIVATE UTURN_STATIC_DEFINE)
    target_compile_options(${name} PRIVATE ${flags})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(${name} PRIVATE m ${CMAKE_DL_LIBS})
    if(COMMAND uturn_warnings)
      uturn_warnings(${name})
    endif()
    # Regression: every committed seed runs once (ctest in the fuzz build).
    string(REPLACE "fuzz_" "" corpus ${name})
    add_test(NAME ${name}_corpus
             COMMAND ${name} -runs=0 -rss_limit_mb=2048
                     ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus/${corpus})
  endforeach()
  # And every input the fuzzers found a bug with, once it is fixed:
  # plan text (*.plan) for fuzz_planfile, problems (*.bin) for fuzz_planner.
  foreach(pair "fuzz_planfile;plan" "fuzz_planner;bin")
    list(GET pair 0 name)
    list(GET pair 1 ext)
    file(GLOB found ${PROJECT_SOURCE_DIR}/tests/fuzz/crashes/*.${ext})
    if(found)
      add_test(NAME ${name}_crashes
               COMMAND ${name} -runs=1 -timeout=20 -rss_limit_mb=2048
                       ${found})
      # Without the skips the fuzzers use to keep their pace.
      set_tests_properties(${name}_crashes PROPERTIES
                           ENVIRONMENT FUZZ_SLOW=1)
    endif()
  endforeach()
endfunction()

if(DEFINED UTURN_SOURCES)
  uturn_fuzz_targets()
else()
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR}
                 CALL uturn_fuzz_targets)
endif()
