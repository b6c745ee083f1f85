# Install rules of the PETSc layer (included by cmake/install.cmake when
# the layer was built, after the core's rules, whose pkg-config variables
# it reuses): libuturn_petsc (its RUNPATH $ORIGIN, so that PETSc can
# dlopen it for -dll_append from any prefix and find libuturn_mpi and
# libuturn beside it), uturn_petsc.h and its export header, docs/petsc.md,
# the CMake package uturn_petsc (uturn::uturn_petsc) and uturn-petsc.pc.
set(UTURN_PC_PETSC_MODULE PETSc)
set_target_properties(uturn_petsc PROPERTIES INSTALL_RPATH "$ORIGIN")
install(TARGETS uturn_petsc EXPORT uturnPetscTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/petsc/uturn_petsc.h
  ${PROJECT_BINARY_DIR}/include/uturn_petsc_export.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/docs/petsc.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(_uturn_petsc_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/uturn_petsc)
install(EXPORT uturnPetscTargets NAMESPACE uturn::
  FILE uturn_petscTargets.cmake DESTINATION ${_uturn_petsc_cmakedir})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/uturn_petscConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/uturn_petscConfig.cmake
  INSTALL_DESTINATION ${_uturn_petsc_cmakedir})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/uturn_petscConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${_uturn_compat})
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/uturn_petscConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/uturn_petscConfigVersion.cmake
  DESTINATION ${_uturn_petsc_cmakedir})

# uturn-petsc.pc, written at install time like uturn.pc (its prefix is the
# one installed to).
set(_uturn_pc_petsc_code "")
string(APPEND _uturn_pc_petsc_code
  "set(PROJECT_VERSION [==[${PROJECT_VERSION}]==])\n"
  "set(UTURN_PC_LIBDIR [==[${_uturn_pc_libdir}]==])\n"
  "set(UTURN_PC_INCLUDEDIR [==[${_uturn_pc_includedir}]==])\n"
  "set(UTURN_PC_PETSC_MODULE [==[${UTURN_PC_PETSC_MODULE}]==])\n"
  "set(UTURN_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")\n"
  "configure_file([==[${CMAKE_CURRENT_LIST_DIR}/uturn-petsc.pc.in]==]\n"
  "  [==[${PROJECT_BINARY_DIR}/pkgconfig/uturn-petsc.pc]==] @ONLY)\n"
  "file(INSTALL DESTINATION \"${_uturn_pc_dest}\" TYPE FILE\n"
  "  FILES [==[${PROJECT_BINARY_DIR}/pkgconfig/uturn-petsc.pc]==])\n")
install(CODE "${_uturn_pc_petsc_code}")
