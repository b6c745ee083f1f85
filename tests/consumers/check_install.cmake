# Check the tree install_prefix.cmake made: every file is where it should
# be, the installed CLI runs from there, uturn.pc and the CMake version file
# say what they should. Usage: cmake -DPREFIX= -DLIBDIR= -DINCLUDEDIR=
#   -DBINDIR= -DCMAKEDIR= -DDATADIR= -DVERSION= -DSOVERSION= -DSONAME=
#   -DPYTHONDIR= (relative to the prefix)
#   -DPYSOURCE= (the package's source directory: each of its modules must
#   be installed)
#   -DPKG_CONFIG= (may be empty) -DMPI= (1: the MPI layer was built)
#   -P check_install.cmake
cmake_minimum_required(VERSION 3.25)
set(errors "")
macro(fail text)
  string(APPEND errors "  ${text}\n")
endmacro()

set(expected
  ${INCLUDEDIR}/uturn.h ${INCLUDEDIR}/uturn.hpp ${INCLUDEDIR}/uturn_export.h
  ${INCLUDEDIR}/uturn_version.h ${INCLUDEDIR}/uturn_model_plugin.h
  ${LIBDIR}/libuturn.a ${LIBDIR}/libuturn.so ${LIBDIR}/${SONAME}
  ${LIBDIR}/libuturn.so.${VERSION}
  ${LIBDIR}/pkgconfig/uturn.pc
  ${CMAKEDIR}/uturnConfig.cmake ${CMAKEDIR}/uturnConfigVersion.cmake
  ${CMAKEDIR}/uturnTargets.cmake
  ${DATADIR}/uturn/fortran/uturn.f90
  ${PYTHONDIR}/uturn/__init__.py ${PYTHONDIR}/uturn/_installed.py
  ${DATADIR}/doc/uturn/model.md ${DATADIR}/doc/uturn/bad-input.md
  ${DATADIR}/doc/uturn/migrating-from-revolve.md
  ${BINDIR}/uturn)
# Every module of the package, so that a new one cannot be left out of
# the install (`import uturn` would fail only where it is imported).
file(GLOB _uturn_modules RELATIVE "${PYSOURCE}" "${PYSOURCE}/*.py")
if(NOT _uturn_modules)
  fail("no Python modules in PYSOURCE \"${PYSOURCE}\"")
endif()
foreach(m IN LISTS _uturn_modules)
  list(APPEND expected ${PYTHONDIR}/uturn/${m})
endforeach()
if(MPI)
  list(APPEND expected
    ${INCLUDEDIR}/uturn_mpi.h ${INCLUDEDIR}/uturn_mpi_export.h
    ${LIBDIR}/libuturn_mpi.a ${LIBDIR}/libuturn_mpi.so
    ${LIBDIR}/pkgconfig/uturn-mpi.pc ${CMAKEDIR}/uturnMpiTargets.cmake
    ${DATADIR}/uturn/fortran/uturn_mpi.f90 ${DATADIR}/doc/uturn/mpi.md)
endif()
foreach(f IN LISTS expected)
  if(NOT EXISTS "${PREFIX}/${f}")
    fail("missing: ${f}")
  endif()
endforeach()
foreach(link libuturn.so ${SONAME})
  if(NOT IS_SYMLINK "${PREFIX}/${LIBDIR}/${link}")
    fail("not a symlink: ${LIBDIR}/${link}")
  endif()
endforeach()

# The CLI must find the installed library by itself (its RUNPATH).
set(ENV{LD_LIBRARY_PATH} "")
execute_process(COMMAND "${PREFIX}/${BINDIR}/uturn" --version
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "uturn ${VERSION}\n")
  fail("${BINDIR}/uturn --version: exit ${rc}, \"${out}${err}\"")
endif()

# uturn.pc names the prefix installed to, not the configure-time one.
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} "${PREFIX}/${LIBDIR}/pkgconfig")
  foreach(q "--modversion;${VERSION}"
            "--variable=prefix;${PREFIX}"
            "--cflags;-I${PREFIX}/${INCLUDEDIR}"
            "--libs;-L${PREFIX}/${LIBDIR} -luturn"
            "--libs --static;-L${PREFIX}/${LIBDIR} -luturn -lm -pthread -ldl")
    list(GET q 0 args)
    list(GET q 1 want)
    separate_arguments(args)
    execute_process(COMMAND "${PKG_CONFIG}" ${args} uturn
      OUTPUT_VARIABLE out OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0 OR NOT out STREQUAL want)
      fail("pkg-config ${args} uturn: \"${out}\", want \"${want}\"")
    endif()
  endforeach()
endif()

# uturn-mpi.pc: the layer, and uturn and MPI through Requires.
if(PKG_CONFIG AND MPI)
  execute_process(COMMAND "${PKG_CONFIG}" --libs --cflags uturn-mpi
    OUTPUT_VARIABLE out OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "-I${PREFIX}/${INCLUDEDIR}" OR
     NOT out MATCHES "-luturn_mpi" OR NOT out MATCHES "-luturn( |$)")
    fail("pkg-config --libs --cflags uturn-mpi: \"${out}\"")
  endif()
endif()

# While on 0.x only the same MAJOR.MINOR is compatible (SameMinorVersion).
foreach(q "0.3;TRUE" "0.3.0;TRUE" "${VERSION};TRUE" "0.2;FALSE"
          "0.4;FALSE" "1.0;FALSE")
  list(GET q 0 want_version)
  list(GET q 1 want)
  string(REPLACE "." ";" parts "${want_version}.0.0")
  list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
  list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
  list(GET parts 2 PACKAGE_FIND_VERSION_PATCH)
  set(PACKAGE_FIND_VERSION "${want_version}")
  set(PACKAGE_FIND_VERSION_RANGE FALSE)
  set(CMAKE_SIZEOF_VOID_P 8)
  unset(PACKAGE_VERSION_COMPATIBLE)
  include("${PREFIX}/${CMAKEDIR}/uturnConfigVersion.cmake")
  if(NOT PACKAGE_VERSION_COMPATIBLE STREQUAL want)
    fail("find_package(uturn ${want_version}): compatible "
         "\"${PACKAGE_VERSION_COMPATIBLE}\", want ${want}")
  endif()
endforeach()

if(errors)
  message(FATAL_ERROR "check_install: FAIL in ${PREFIX}\n${errors}")
endif()
message(STATUS "check_install: ok (${PREFIX})")
