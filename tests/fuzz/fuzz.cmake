# libFuzzer targets (tests/fuzz/). Needs clang:
#   CC=clang cmake -S . -B build-fuzz -DUTURN_FUZZ=ON -DUTURN_BUILD_TESTS=OFF \
#     -DUTURN_BUILD_EXAMPLES=OFF -DUTURN_BUILD_BENCH=OFF
# scripts/fuzz builds and runs them. The library sources are compiled once
# (uturn_fuzz_support, with the harnesses' shared code) with
# -fsanitize=fuzzer,address,undefined, so coverage reaches library code and
# every sanitizer check applies to it. Asserts stay on whatever the build
# type. Crash inputs in tests/fuzz/crashes/ go to a target by their suffix:
# .plan fuzz_planfile, .bin fuzz_planner, .run fuzz_online.
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
  set(dir ${PROJECT_SOURCE_DIR}/tests/fuzz)
  # The library and the harnesses' shared code, compiled once for every
  # target (instrumented like them; the fuzzer's main comes at link time).
  set(sources ${dir}/fuzz_common.c ${dir}/fuzz_optimum.c)
  foreach(s ${UTURN_SOURCES})
    list(APPEND sources ${PROJECT_SOURCE_DIR}/${s})
  endforeach()
  add_library(uturn_fuzz_support STATIC ${sources})
  # Each target: its sources, its seed corpus, its crash inputs' suffix.
  set(fuzz_planfile_sources fuzz_planfile.c)
  set(fuzz_planfile_suffix plan)
  set(fuzz_planner_sources fuzz_planner.c fuzz_planner_uniform.c
                           fuzz_planner_dp.c fuzz_planner_levels.c
                           fuzz_planner_sweeps.c fuzz_planner_sweeps_levels.c)
  set(fuzz_planner_suffix bin)
  set(fuzz_online_sources fuzz_online.c fuzz_online_drive.c)
  set(fuzz_online_suffix run)
  foreach(name uturn_fuzz_support fuzz_planfile fuzz_planner fuzz_online)
    if(NOT name STREQUAL "uturn_fuzz_support")
      list(TRANSFORM ${name}_sources PREPEND ${dir}/)
      add_executable(${name} ${${name}_sources})
      target_link_libraries(${name} PRIVATE uturn_fuzz_support m
                                            ${CMAKE_DL_LIBS} Threads::Threads)
      target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    endif()
    target_include_directories(${name} PRIVATE
      ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include
      ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/schedules ${dir})
    target_compile_definitions(${name} PRIVATE UTURN_STATIC_DEFINE)
    target_compile_options(${name} PRIVATE ${flags})
    if(COMMAND uturn_warnings)
      uturn_warnings(${name})
    endif()
  endforeach()
  foreach(name fuzz_planfile fuzz_planner fuzz_online)
    # Regression: every committed seed runs once (ctest in the fuzz build).
    string(REPLACE "fuzz_" "" corpus ${name})
    add_test(NAME ${name}_corpus
             COMMAND ${name} -runs=0 -rss_limit_mb=2048 ${dir}/corpus/${corpus})
    set_tests_properties(${name}_corpus PROPERTIES TIMEOUT 600)
    # And every input a fuzzer found a bug with, once it is fixed.
    file(GLOB found ${dir}/crashes/*.${${name}_suffix})
    if(found)
      add_test(NAME ${name}_crashes
               COMMAND ${name} -runs=1 -timeout=20 -rss_limit_mb=2048
                       ${found})
      # Without the skips the fuzzers use to keep their pace.
      set_tests_properties(${name}_crashes PROPERTIES
                           ENVIRONMENT FUZZ_SLOW=1 TIMEOUT 300)
    endif()
  endforeach()
endfunction()

if(DEFINED UTURN_SOURCES)
  uturn_fuzz_targets()
else()
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR}
                 CALL uturn_fuzz_targets)
endif()
