# Tests of what `cmake --install` ships (included by cmake/install.cmake
# when UTURN_BUILD_TESTS is on):
#   symbols_exported   libuturn.so exports exactly the UTURN_EXPORT functions
#   install_prefix     fixture: install into <build>/consumers/prefix
#   install_tree       the installed files, CLI, uturn.pc, version file
#   consumer_*         programs in C (find_package, pkg-config), C++ (the
#                      C header as it is, and uturn.hpp), Fortran and
#                      Python built and run against that prefix
#                      (Python: `python3 -c "import uturn; ..."` with
#                      PYTHONPATH at the prefix's site directory, then a
#                      pendulum and a numpy model)
#   consumer_docs      docs/consumers.md shows the consumer files verbatim
#   symbols_exported_mpi, consumer_mpi, consumer_mpi_docs
#                      the same for the MPI layer, when it is built: its
#                      exports, a C program built with find_package(uturn
#                      COMPONENTS mpi) and with pkg-config uturn-mpi and run
#                      on two ranks, and docs/mpi.md and README.md showing
#                      that program verbatim
#   consumer_fortran_mpi examples/mpi_heat1d.f90 built with the MPI Fortran
#                      wrapper against the installed Fortran modules and
#                      run on two ranks (a skip without the layer or the
#                      wrapper)
# Everything they write stays under <build>/consumers.
set(_uturn_cdir ${CMAKE_CURRENT_LIST_DIR})
set(_uturn_cwork ${PROJECT_BINARY_DIR}/consumers)
set(_uturn_prefix ${_uturn_cwork}/prefix)
if(CMAKE_NM)
  set(UTURN_NM ${CMAKE_NM})
else()
  find_program(UTURN_NM NAMES nm)
endif()
add_test(NAME symbols_exported
  COMMAND ${CMAKE_COMMAND} -DNM=${UTURN_NM} -DLIB=$<TARGET_FILE:uturn>
          -DHEADER=${PROJECT_SOURCE_DIR}/include/uturn.h
          -P ${_uturn_cdir}/check_symbols.cmake)
set_tests_properties(symbols_exported PROPERTIES TIMEOUT 60)
if(TARGET uturn_mpi)
  add_test(NAME symbols_exported_mpi
    COMMAND ${CMAKE_COMMAND} -DNM=${UTURN_NM} -DLIB=$<TARGET_FILE:uturn_mpi>
            -DHEADER=${PROJECT_SOURCE_DIR}/mpi/uturn_mpi.h
            -DMACRO=UTURN_MPI_EXPORT -P ${_uturn_cdir}/check_symbols.cmake)
  set_tests_properties(symbols_exported_mpi PROPERTIES TIMEOUT 60)
endif()

if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  message(STATUS "uturn: absolute CMAKE_INSTALL_LIBDIR, install tests off")
  return()
endif()
set(_uturn_libdir ${_uturn_prefix}/${CMAKE_INSTALL_LIBDIR})

add_test(NAME install_prefix
  COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR}
          -DPREFIX=${_uturn_prefix} -P ${_uturn_cdir}/install_prefix.cmake)
set_tests_properties(install_prefix PROPERTIES
  FIXTURES_SETUP uturn_installed TIMEOUT 60)

find_program(UTURN_PKG_CONFIG NAMES pkg-config pkgconf)
add_test(NAME install_tree
  COMMAND ${CMAKE_COMMAND} -DPREFIX=${_uturn_prefix}
          -DLIBDIR=${CMAKE_INSTALL_LIBDIR}
          -DINCLUDEDIR=${CMAKE_INSTALL_INCLUDEDIR}
          -DBINDIR=${CMAKE_INSTALL_BINDIR} -DDATADIR=${CMAKE_INSTALL_DATADIR}
          -DCMAKEDIR=${UTURN_INSTALL_CMAKEDIR} -DVERSION=${PROJECT_VERSION}
          -DPYTHONDIR=${UTURN_INSTALL_PYTHONDIR}
          -DPYSOURCE=${PROJECT_SOURCE_DIR}/bindings/python/uturn
          -DSONAME=$<TARGET_SONAME_FILE_NAME:uturn>
          -DPKG_CONFIG=${UTURN_PKG_CONFIG}
          -DMPI=$<TARGET_EXISTS:uturn_mpi>
          -P ${_uturn_cdir}/check_install.cmake)
set_tests_properties(install_tree PROPERTIES
  FIXTURES_REQUIRED uturn_installed TIMEOUT 60)

# The consumers: name (= directory), the files docs/consumers.md shows, the
# tool it needs (a variable) and that tool's name. A consumer whose tool is
# missing is skipped. A sanitizer build installs an instrumented library
# that plain programs (and Python) cannot load: none run there.
set(_uturn_consumers
  "c_find_package|CMakeLists.txt main.c build.sh|CMAKE_COMMAND|cmake"
  "c_pkgconfig|main.c build.sh|UTURN_PKG_CONFIG|pkg-config"
  "cxx|main.cpp consumer_hpp.cpp build.sh|UTURN_CXX|g++"
  "fortran|main.f90 build.sh|UTURN_FC|gfortran"
  "python|main.py numpy_model.py build.sh|UTURN_PYTHON|python3")
find_program(UTURN_CXX NAMES g++ c++)
find_program(UTURN_FC NAMES gfortran)
get_filename_component(_uturn_cmake_bin ${CMAKE_COMMAND} DIRECTORY)
set(_uturn_consumer_files "")
foreach(entry IN LISTS _uturn_consumers)
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 name)
  list(GET entry 1 files)
  list(GET entry 2 tool)
  list(GET entry 3 tool_name)
  separate_arguments(files)
  foreach(f IN LISTS files)
    list(APPEND _uturn_consumer_files tests/consumers/${name}/${f})
  endforeach()
  if(UTURN_SANITIZE)
    continue()
  endif()
  set(missing "")
  if(NOT ${tool})
    set(missing ${tool_name})
  endif()
  add_test(NAME consumer_${name}
    COMMAND ${CMAKE_COMMAND} -E env
            PREFIX=${_uturn_prefix} LIBDIR=${_uturn_libdir}
            CC=${CMAKE_C_COMPILER} CXX=${UTURN_CXX} FC=${UTURN_FC}
            PYTHON=${UTURN_PYTHON} PYTHONDIR=${UTURN_INSTALL_PYTHONDIR}
            CMAKE_GENERATOR=${CMAKE_GENERATOR}
            UTURN_MISSING_TOOL=${missing}
            sh ${_uturn_cdir}/run.sh ${_uturn_cdir}/${name}
               ${_uturn_cwork}/${name})
  set_tests_properties(consumer_${name} PROPERTIES
    FIXTURES_REQUIRED uturn_installed
    ENVIRONMENT_MODIFICATION "PATH=path_list_prepend:${_uturn_cmake_bin}"
    SKIP_RETURN_CODE 77 TIMEOUT 60
    FAIL_REGULAR_EXPRESSION "FAIL|Sanitizer|runtime error")
endforeach()

# The MPI consumer, on two ranks (uturn_mpi_test's launcher settings).
if(TARGET uturn_mpi AND NOT UTURN_SANITIZE)
  add_test(NAME consumer_mpi
    COMMAND ${CMAKE_COMMAND} -E env
            PREFIX=${_uturn_prefix} LIBDIR=${_uturn_libdir}
            CC=${CMAKE_C_COMPILER} CMAKE_GENERATOR=${CMAKE_GENERATOR}
            MPIEXEC=${MPIEXEC_EXECUTABLE}
            "MPIEXEC_FLAGS=${UTURN_MPIEXEC_FLAGS}"
            sh ${_uturn_cdir}/run.sh ${_uturn_cdir}/c_mpi
               ${_uturn_cwork}/c_mpi)
  set_tests_properties(consumer_mpi PROPERTIES
    FIXTURES_REQUIRED uturn_installed
    ENVIRONMENT "OMPI_MCA_mpi_yield_when_idle=1;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;MPIEXEC_TIMEOUT=110"
    ENVIRONMENT_MODIFICATION "PATH=path_list_prepend:${_uturn_cmake_bin}"
    TIMEOUT 120 FAIL_REGULAR_EXPRESSION "FAIL|Sanitizer|runtime error")
endif()
# The Fortran example of the MPI layer, on two ranks.
find_program(UTURN_MPIFC NAMES mpif90 mpifort)
# A sanitizer build makes an instrumented library a plain Fortran program
# cannot load: the test is not defined there (as tests/mpi/'s Fortran
# tests); without the MPI layer it is a skip, which scripts/test fails.
if(UTURN_SANITIZE)
elseif(NOT TARGET uturn_mpi)
  add_test(NAME consumer_fortran_mpi COMMAND sh -c
    "echo 'skipped: the MPI layer is not built (no MPI found)'; exit 77")
  set_tests_properties(consumer_fortran_mpi PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT 10)
else()
  set(_uturn_mpifc_missing "")
  if(NOT UTURN_MPIFC)
    set(_uturn_mpifc_missing "mpif90")
  endif()
  add_test(NAME consumer_fortran_mpi
    COMMAND ${CMAKE_COMMAND} -E env
            PREFIX=${_uturn_prefix} LIBDIR=${_uturn_libdir}
            MPIFC=${UTURN_MPIFC} MPIEXEC=${MPIEXEC_EXECUTABLE}
            "MPIEXEC_FLAGS=${UTURN_MPIEXEC_FLAGS}"
            UTURN_MISSING_TOOL=${_uturn_mpifc_missing}
            sh ${_uturn_cdir}/run.sh ${_uturn_cdir}/fortran_mpi
               ${_uturn_cwork}/fortran_mpi
               ${PROJECT_SOURCE_DIR}/examples/mpi_heat1d.f90)
  set_tests_properties(consumer_fortran_mpi PROPERTIES
    FIXTURES_REQUIRED uturn_installed
    ENVIRONMENT "OMPI_MCA_mpi_yield_when_idle=1;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;MPIEXEC_TIMEOUT=110"
    SKIP_RETURN_CODE 77 TIMEOUT 120
    FAIL_REGULAR_EXPRESSION "FAIL|Sanitizer|runtime error")
endif()
add_test(NAME consumer_mpi_docs
  COMMAND sh -c "sh '${_uturn_cdir}/check_docs.sh' '${PROJECT_SOURCE_DIR}/docs/mpi.md' '${PROJECT_SOURCE_DIR}' tests/consumers/c_mpi/main.c tests/consumers/c_mpi/CMakeLists.txt && sh '${_uturn_cdir}/check_docs.sh' '${PROJECT_SOURCE_DIR}/README.md' '${PROJECT_SOURCE_DIR}' tests/consumers/c_mpi/main.c"
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
set_tests_properties(consumer_mpi_docs PROPERTIES TIMEOUT 60)

add_test(NAME consumer_docs
  COMMAND sh ${_uturn_cdir}/check_docs.sh
          ${PROJECT_SOURCE_DIR}/docs/consumers.md ${PROJECT_SOURCE_DIR}
          ${_uturn_consumer_files}
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
add_test(NAME consumer_readme
  COMMAND sh ${_uturn_cdir}/check_docs.sh
          ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}
          tests/consumers/c_find_package/CMakeLists.txt
          tests/consumers/c_find_package/main.c tests/consumers/cxx/consumer_hpp.cpp
          tests/consumers/fortran/main.f90 tests/consumers/python/main.py
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
set_tests_properties(consumer_docs consumer_readme PROPERTIES TIMEOUT 60)
