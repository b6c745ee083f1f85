# Install rules: the header, the header-only C++ layer (uturn.hpp) beside
# it, the two generated companions,
# both libraries, the `uturn` CLI, the CMake package (uturn::uturn,
# uturn::uturn_static), uturn.pc, and the Fortran and Python bindings;
# with the MPI layer, also uturn_mpi.h, libuturn_mpi, the package's mpi
# component (uturn::uturn_mpi, uturn::uturn_mpi_static), uturn-mpi.pc and
# the Fortran module for it.
# With UTURN_BUILD_TESTS, also the tests that check the exported symbols and
# build consumers in every supported language against an installed tree
# (tests/consumers/consumers.cmake).
# The root CMakeLists.txt includes this file when UTURN_INSTALL is ON.
include(CMakePackageConfigHelpers)

set(UTURN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/uturn CACHE STRING
    "Where the CMake package files go, relative to the prefix")
set(UTURN_INSTALL_BINDINGSDIR ${CMAKE_INSTALL_DATADIR}/uturn)

# ---------------------------------------------------------------------------
# Libraries, headers, CLI

install(TARGETS uturn uturn_static EXPORT uturnTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES
  ${PROJECT_SOURCE_DIR}/include/uturn.h
  ${PROJECT_SOURCE_DIR}/include/uturn.hpp
  ${PROJECT_SOURCE_DIR}/include/uturn_model_plugin.h
  ${PROJECT_BINARY_DIR}/include/uturn_export.h
  ${PROJECT_BINARY_DIR}/include/uturn_version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The model, the table of bad inputs, the guides for revolve users and
# for building against the library: the header and README point here.
install(FILES ${PROJECT_SOURCE_DIR}/docs/model.md
  ${PROJECT_SOURCE_DIR}/docs/bad-input.md
  ${PROJECT_SOURCE_DIR}/docs/migrating-from-revolve.md
  ${PROJECT_SOURCE_DIR}/docs/consumers.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The installed CLI finds the installed libuturn wherever the prefix ends up.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_uturn_cli_rpath "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH _uturn_bin_to_lib
       /prefix/${CMAKE_INSTALL_BINDIR} /prefix/${CMAKE_INSTALL_LIBDIR})
  set(_uturn_cli_rpath "$ORIGIN/${_uturn_bin_to_lib}")
endif()
set_target_properties(uturn_cli PROPERTIES INSTALL_RPATH "${_uturn_cli_rpath}")
install(TARGETS uturn_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# ---------------------------------------------------------------------------
# CMake package: find_package(uturn 0.1 CONFIG)

install(EXPORT uturnTargets NAMESPACE uturn::
  FILE uturnTargets.cmake DESTINATION ${UTURN_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/uturnConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/uturnConfig.cmake
  INSTALL_DESTINATION ${UTURN_INSTALL_CMAKEDIR})
# 0.x: SOVERSION is MAJOR.MINOR, so only the same minor version is
# compatible; from 1.0 on this becomes SameMajorVersion.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_uturn_compat SameMinorVersion)
else()
  set(_uturn_compat SameMajorVersion)
endif()
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/uturnConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${_uturn_compat})
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/uturnConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/uturnConfigVersion.cmake
  DESTINATION ${UTURN_INSTALL_CMAKEDIR})

# ---------------------------------------------------------------------------
# pkg-config: uturn.pc is written at install time, so that its prefix is the
# one actually installed to (cmake --install --prefix P gives P, not the
# configure-time CMAKE_INSTALL_PREFIX).

if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_uturn_pc_libdir "${CMAKE_INSTALL_LIBDIR}")
  set(_uturn_pc_dest "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
else()
  set(_uturn_pc_libdir "\${exec_prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(_uturn_pc_dest "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(_uturn_pc_includedir "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(_uturn_pc_includedir "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
set(_uturn_pc_libs_private "-lm -pthread") # dp's pool, levels' I/O
foreach(lib IN LISTS CMAKE_DL_LIBS)
  string(APPEND _uturn_pc_libs_private " -l${lib}")
endforeach()
set(_uturn_pc_code "")
string(APPEND _uturn_pc_code
  "set(PROJECT_VERSION [==[${PROJECT_VERSION}]==])\n"
  "set(UTURN_PC_LIBS_PRIVATE [==[${_uturn_pc_libs_private}]==])\n"
  "set(UTURN_PC_LIBDIR [==[${_uturn_pc_libdir}]==])\n"
  "set(UTURN_PC_INCLUDEDIR [==[${_uturn_pc_includedir}]==])\n"
  "set(UTURN_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")\n"
  "configure_file([==[${CMAKE_CURRENT_LIST_DIR}/uturn.pc.in]==]\n"
  "  [==[${PROJECT_BINARY_DIR}/pkgconfig/uturn.pc]==] @ONLY)\n"
  "file(INSTALL DESTINATION \"${_uturn_pc_dest}\" TYPE FILE\n"
  "  FILES [==[${PROJECT_BINARY_DIR}/pkgconfig/uturn.pc]==])\n")
install(CODE "${_uturn_pc_code}")

# ---------------------------------------------------------------------------
# The MPI layer, when it was built: its own export set, so that the core's
# targets file never names MPI, and a pkg-config file that brings MPI's
# flags (the MPI's own pkg-config module when it has one, else what
# FindMPI found).

if(TARGET uturn_mpi)
  install(TARGETS uturn_mpi uturn_mpi_static EXPORT uturnMpiTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/mpi/uturn_mpi.h
    ${PROJECT_BINARY_DIR}/include/uturn_mpi_export.h
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT uturnMpiTargets NAMESPACE uturn::
    FILE uturnMpiTargets.cmake DESTINATION ${UTURN_INSTALL_CMAKEDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/docs/mpi.md
    DESTINATION ${CMAKE_INSTALL_DOCDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/bindings/fortran/uturn_mpi.f90
    DESTINATION ${UTURN_INSTALL_BINDINGSDIR}/fortran)

  find_package(PkgConfig QUIET)
  set(_uturn_pc_mpi_requires "")
  set(_uturn_pc_mpi_cflags "")
  set(_uturn_pc_mpi_libs "")
  if(PKG_CONFIG_FOUND)
    pkg_search_module(UTURN_MPI_PC QUIET mpi-c ompi-c mpich)
  endif()
  if(UTURN_MPI_PC_FOUND)
    set(_uturn_pc_mpi_requires "${UTURN_MPI_PC_MODULE_NAME}")
  else()
    foreach(dir IN LISTS MPI_C_INCLUDE_DIRS)
      string(APPEND _uturn_pc_mpi_cflags " -I${dir}")
    endforeach()
    foreach(lib IN LISTS MPI_C_LIBRARIES)
      string(APPEND _uturn_pc_mpi_libs " ${lib}")
    endforeach()
  endif()
  set(_uturn_pc_mpi_code "")
  string(APPEND _uturn_pc_mpi_code
    "set(PROJECT_VERSION [==[${PROJECT_VERSION}]==])\n"
    "set(UTURN_PC_LIBDIR [==[${_uturn_pc_libdir}]==])\n"
    "set(UTURN_PC_INCLUDEDIR [==[${_uturn_pc_includedir}]==])\n"
    "set(UTURN_PC_MPI_REQUIRES [==[${_uturn_pc_mpi_requires}]==])\n"
    "set(UTURN_PC_MPI_CFLAGS [==[${_uturn_pc_mpi_cflags}]==])\n"
    "set(UTURN_PC_MPI_LIBS [==[${_uturn_pc_mpi_libs}]==])\n"
    "set(UTURN_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")\n"
    "configure_file([==[${CMAKE_CURRENT_LIST_DIR}/uturn-mpi.pc.in]==]\n"
    "  [==[${PROJECT_BINARY_DIR}/pkgconfig/uturn-mpi.pc]==] @ONLY)\n"
    "file(INSTALL DESTINATION \"${_uturn_pc_dest}\" TYPE FILE\n"
    "  FILES [==[${PROJECT_BINARY_DIR}/pkgconfig/uturn-mpi.pc]==])\n")
  install(CODE "${_uturn_pc_mpi_code}")
endif()

# ---------------------------------------------------------------------------
# The PETSc layer, when it was built: its own CMake package (uturn_petsc)
# and uturn-petsc.pc (petsc/install_petsc.cmake).

if(TARGET uturn_petsc)
  include(${PROJECT_SOURCE_DIR}/petsc/install_petsc.cmake)
endif()

# ---------------------------------------------------------------------------
# Bindings: Fortran interfaces (source: .mod files are compiler-specific)
# and the Python package `uturn`, in the site directory of the Python it
# was configured for (UTURN_INSTALL_PYTHONDIR, cmake/python.cmake), so that
# `python3 -c "import uturn"` works after an install to /usr or /usr/local.
# The install writes uturn/_installed.py, the library's path relative to
# the package (so the installed tree can be moved as a whole), or
# absolute when either directory is absolute.

install(FILES ${PROJECT_SOURCE_DIR}/bindings/fortran/uturn.f90
  DESTINATION ${UTURN_INSTALL_BINDINGSDIR}/fortran)

include(${CMAKE_CURRENT_LIST_DIR}/python.cmake)
set(_uturn_pydest ${UTURN_INSTALL_PYTHONDIR}/uturn)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/bindings/python/uturn/
  DESTINATION ${_uturn_pydest}
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_uturn_pylib_code "set(_uturn_lib [==[${CMAKE_INSTALL_LIBDIR}]==])")
elseif(IS_ABSOLUTE "${UTURN_INSTALL_PYTHONDIR}")
  set(_uturn_pylib_code
      "set(_uturn_lib \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}\")")
else()
  file(RELATIVE_PATH _uturn_pylib
       /prefix/${_uturn_pydest} /prefix/${CMAKE_INSTALL_LIBDIR})
  string(REGEX REPLACE "/$" "" _uturn_pylib "${_uturn_pylib}")
  set(_uturn_pylib_code "set(_uturn_lib [==[${_uturn_pylib}]==])")
endif()
if(IS_ABSOLUTE "${_uturn_pydest}")
  set(_uturn_pydest_code "${_uturn_pydest}")
else()
  set(_uturn_pydest_code "\${CMAKE_INSTALL_PREFIX}/${_uturn_pydest}")
endif()
set(_uturn_installed_py ${PROJECT_BINARY_DIR}/bindings/python/_installed.py)
set(_uturn_py_code "")
string(APPEND _uturn_py_code
  "${_uturn_pylib_code}\n"
  "file(WRITE [==[${_uturn_installed_py}]==]\n"
  "  \"# Written by cmake --install: the libuturn this package loads,\\n\"\n"
  "  \"# relative to the package unless absolute (see _load.py).\\n\"\n"
  "  \"LIBRARY = \\\"\${_uturn_lib}/$<TARGET_SONAME_FILE_NAME:uturn>\\\"\\n\")\n"
  "file(INSTALL DESTINATION \"${_uturn_pydest_code}\" TYPE FILE\n"
  "  FILES [==[${_uturn_installed_py}]==])\n")
install(CODE "${_uturn_py_code}")

# ---------------------------------------------------------------------------

if(UTURN_BUILD_TESTS)
  include(${PROJECT_SOURCE_DIR}/tests/consumers/consumers.cmake)
endif()
