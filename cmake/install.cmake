# Install rules (STYLE.md 7): the header and its two generated companions,
# both libraries, the `uturn` CLI, the CMake package (uturn::uturn,
# uturn::uturn_static), uturn.pc, and the Fortran and Python bindings.
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
  ${PROJECT_BINARY_DIR}/include/uturn_export.h
  ${PROJECT_BINARY_DIR}/include/uturn_version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

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
# compatible; from 1.0 on this becomes SameMajorVersion (STYLE.md 4).
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
set(_uturn_pc_libs_private "-lm -pthread") # dp's thread pool
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
# Bindings: Fortran interfaces (source: .mod files are compiler-specific)
# and the ctypes module, which is told where the library sits relative to
# itself so that the installed tree can be moved as a whole.

install(FILES ${PROJECT_SOURCE_DIR}/bindings/fortran/uturn.f90
  DESTINATION ${UTURN_INSTALL_BINDINGSDIR}/fortran)

if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR
   IS_ABSOLUTE "${CMAKE_INSTALL_DATADIR}")
  set(UTURN_PYTHON_LIBRARY "${CMAKE_INSTALL_FULL_LIBDIR}")
else()
  file(RELATIVE_PATH UTURN_PYTHON_LIBRARY
       /prefix/${UTURN_INSTALL_BINDINGSDIR}/python
       /prefix/${CMAKE_INSTALL_LIBDIR})
endif()
string(APPEND UTURN_PYTHON_LIBRARY "/$<TARGET_SONAME_FILE_NAME:uturn>")
configure_file(${PROJECT_SOURCE_DIR}/bindings/python/uturn.py
               ${PROJECT_BINARY_DIR}/bindings/python/uturn.py.genex @ONLY)
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/bindings/python/uturn.py
     INPUT ${PROJECT_BINARY_DIR}/bindings/python/uturn.py.genex)
install(FILES ${PROJECT_BINARY_DIR}/bindings/python/uturn.py
  DESTINATION ${UTURN_INSTALL_BINDINGSDIR}/python)

# ---------------------------------------------------------------------------

if(UTURN_BUILD_TESTS)
  include(${PROJECT_SOURCE_DIR}/tests/consumers/consumers.cmake)
endif()
