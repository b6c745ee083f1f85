# uturn_mpi_test(NAME RANKS [TIMEOUT SECONDS] [WRAP CMD...] COMMAND CMD...)
# adds ctest NAME: CMD under the MPI launcher with RANKS ranks (WRAP, if
# given, runs the launcher). Every MPI test has a TIMEOUT (default 120 s),
# and the launcher gets a time limit 10 s under it (MPIEXEC_TIMEOUT, read
# by Open MPI's and MPICH's launchers), so that a hang ends the job and
# its ranks. Open MPI gets --oversubscribe (this machine may have fewer
# cores than ranks), waiting ranks yield instead of spinning, and root may
# launch (CI containers run as root). Without the MPI layer (no MPI, or
# UTURN_MPI off) the test is still defined, and skips.
if(TARGET uturn_mpi AND NOT DEFINED UTURN_MPIEXEC_FLAGS)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version
    OUTPUT_VARIABLE _uturn_mpiexec_version ERROR_QUIET)
  set(UTURN_MPIEXEC_FLAGS ${MPIEXEC_PREFLAGS})
  if(_uturn_mpiexec_version MATCHES "Open MPI|OpenRTE")
    list(PREPEND UTURN_MPIEXEC_FLAGS --oversubscribe)
  endif()
endif()

function(uturn_mpi_test name np)
  cmake_parse_arguments(T "" "TIMEOUT" "WRAP;COMMAND" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  if(NOT TARGET uturn_mpi)
    add_test(NAME ${name} COMMAND sh -c
      "echo 'skipped: the MPI layer is not built (no MPI found, or UTURN_MPI off)'; exit 77")
    set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 10)
    return()
  endif()
  math(EXPR limit "${T_TIMEOUT} - 10")
  add_test(NAME ${name}
    COMMAND ${T_WRAP} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np}
            ${UTURN_MPIEXEC_FLAGS} ${T_COMMAND} ${MPIEXEC_POSTFLAGS})
  # Sanitizer builds: Open MPI's allocations live until exit, which
  # LeakSanitizer would report as leaks of ours.
  set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "OMPI_MCA_mpi_yield_when_idle=1;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;MPIEXEC_TIMEOUT=${limit};ASAN_OPTIONS=detect_leaks=0:abort_on_error=1"
    FAIL_REGULAR_EXPRESSION "FAIL|Sanitizer|runtime error")
endfunction()
