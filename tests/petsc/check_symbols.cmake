# libuturn_petsc.so exports its public API and nothing else: every
# function uturn_petsc.h declares UTURN_PETSC_EXPORT, PETSc's entry point
# PetscDLLibraryRegister_uturn_petsc, and the linker's own markers. Usage:
#   cmake -DNM=nm -DLIB=libuturn_petsc.so -DHEADER=uturn_petsc.h -P check_symbols.cmake
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND "${NM}" -D --defined-only "${LIB}"
  OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "FAIL: ${NM} failed on ${LIB}: ${err}")
endif()
string(REGEX MATCHALL "[A-Za-z] [^ @\n]+" entries "${out}")
set(exported "")
foreach(entry IN LISTS entries)
  string(REGEX REPLACE "^[A-Za-z] " "" name "${entry}")
  if(NOT name MATCHES "^(__bss_start|_edata|_end|_init|_fini)$")
    list(APPEND exported "${name}")
  endif()
endforeach()
file(READ "${HEADER}" text)
string(REGEX MATCHALL "UTURN_PETSC_EXPORT[^;(]*[ *\n]([A-Za-z_][A-Za-z0-9_]*)\\("
       decls "${text}")
set(declared "")
foreach(decl IN LISTS decls)
  string(REGEX MATCH "[A-Za-z_][A-Za-z0-9_]*\\($" name "${decl}")
  string(REPLACE "(" "" name "${name}")
  list(APPEND declared "${name}")
endforeach()
list(SORT exported)
list(SORT declared)
if(NOT exported STREQUAL declared)
  message(FATAL_ERROR "FAIL: exported (${exported}) differ from declared "
                      "(${declared})")
endif()
message(STATUS "ok: ${exported}")
