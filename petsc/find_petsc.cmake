# Look for PETSc for the PETSc layer (included by the root CMakeLists.txt
# when UTURN_PETSC is ON). Sets UTURN_PETSC_FOUND and, when true, the
# imported target PkgConfig::UTURN_PETSC_PC (Debian's petsc-dev through
# pkg-config module PETSc).
#
# The layer includes PETSc's private TS header (petsc/private/tsimpl.h):
# the structs it reaches into change between PETSc releases. So a PETSc
# other than the release it is tested with (UTURN_PETSC_TESTED) is
# refused here with a message, and the layer is not built, rather than
# compiled against a layout it was never checked with. uturn_petsc.h
# refuses it again at compile time.
set(UTURN_PETSC_FOUND FALSE)
set(UTURN_PETSC_TESTED "3.18")
if(NOT TARGET uturn_mpi)
  message(STATUS "uturn: the PETSc layer needs the MPI layer: not built")
  return()
endif()
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(UTURN_PETSC_PC QUIET IMPORTED_TARGET PETSc)
endif()
if(NOT UTURN_PETSC_PC_FOUND)
  message(STATUS "uturn: no PETSc found through pkg-config (module PETSc): "
                 "the PETSc layer (petsc/) is not built and its tests are "
                 "not defined (scripts/install-deps installs petsc-dev)")
  return()
endif()
string(REGEX MATCH "^[0-9]+\\.[0-9]+" _uturn_petsc_minor
       "${UTURN_PETSC_PC_VERSION}")
if(NOT _uturn_petsc_minor STREQUAL UTURN_PETSC_TESTED)
  message(WARNING "uturn: PETSc ${UTURN_PETSC_PC_VERSION} found, but the "
                  "PETSc layer reaches into PETSc's private TS structs and "
                  "is tested with PETSc ${UTURN_PETSC_TESTED}.x only: it is "
                  "not built (configure with -DUTURN_PETSC=OFF to silence "
                  "this)")
  return()
endif()
find_file(UTURN_PETSC_TSIMPL petsc/private/tsimpl.h
          PATHS ${UTURN_PETSC_PC_INCLUDE_DIRS} NO_DEFAULT_PATH)
if(NOT UTURN_PETSC_TSIMPL)
  message(WARNING "uturn: PETSc ${UTURN_PETSC_PC_VERSION} has no private "
                  "header petsc/private/tsimpl.h in "
                  "${UTURN_PETSC_PC_INCLUDE_DIRS}: the PETSc layer is not "
                  "built")
  return()
endif()
message(STATUS "uturn: PETSc ${UTURN_PETSC_PC_VERSION}: the PETSc layer "
               "(petsc/) is built")
set(UTURN_PETSC_FOUND TRUE)
