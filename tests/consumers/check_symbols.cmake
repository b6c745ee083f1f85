# Only the public API may be exported from the shared library: every
# dynamic symbol it defines must start with uturn_, and must be one of the
# functions <uturn.h> declares UTURN_EXPORT; every such function must be
# exported. Usage:
#   cmake -DNM=nm -DLIB=libuturn.so -DHEADER=include/uturn.h -P check_symbols.cmake
# For another library and header, -DMACRO= names their export macro
# (libuturn_mpi.so, mpi/uturn_mpi.h: UTURN_MPI_EXPORT).
cmake_minimum_required(VERSION 3.25)
foreach(var NM LIB HEADER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_symbols: -D${var}= is required")
  endif()
endforeach()

execute_process(COMMAND "${NM}" -D --defined-only "${LIB}"
  OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_symbols: ${NM} failed on ${LIB}: ${err}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(exported "")
foreach(line IN LISTS lines)
  # "ADDRESS TYPE NAME[@VERSION]"; weak undefined and absolute symbols too.
  if(line MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([^ @]+)")
    list(APPEND exported "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(SORT exported)
if(NOT DEFINED MACRO)
  set(MACRO UTURN_EXPORT)
endif()

file(READ "${HEADER}" text)
string(REGEX MATCHALL "${MACRO}[^;(]*[ *\n]uturn_[a-z0-9_]+\\(" decls
       "${text}")
set(declared "")
foreach(decl IN LISTS decls)
  string(REGEX MATCH "uturn_[a-z0-9_]+\\($" name "${decl}")
  string(REPLACE "(" "" name "${name}")
  list(APPEND declared "${name}")
endforeach()
list(SORT declared)

set(bad "")
foreach(sym IN LISTS exported)
  if(NOT sym MATCHES "^uturn_")
    string(APPEND bad "  exported without the uturn_ prefix: ${sym}\n")
  elseif(NOT sym IN_LIST declared)
    string(APPEND bad "  exported but not declared ${MACRO} in ${HEADER}: ${sym}\n")
  endif()
endforeach()
foreach(sym IN LISTS declared)
  if(NOT sym IN_LIST exported)
    string(APPEND bad "  declared ${MACRO} but not exported: ${sym}\n")
  endif()
endforeach()
list(LENGTH exported n)
list(LENGTH declared m)
if(bad OR n EQUAL 0)
  message(FATAL_ERROR "check_symbols: FAIL (${LIB})\n${bad}")
endif()
message(STATUS "check_symbols: ok, ${n} symbols exported, ${m} declared, "
               "all uturn_ and all public")
