# The site directory the install puts the Python package in
# (cmake/python_site_dir.py) is one the interpreter imports from: for the
# interpreter's own prefix, and for /usr/local when that prefix is /usr
# (Debian's python3), PREFIX/DIR is one of site.getsitepackages().
# Usage: cmake -DPYTHON= -DSCRIPT=cmake/python_site_dir.py -P site_dir.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT PYTHON)
  message("skipped: python3 not found")
  cmake_language(EXIT 77)
endif()
execute_process(COMMAND "${PYTHON}" -c
  "import site, sys; print(sys.prefix); print(*site.getsitepackages(), sep='\\n')"
  OUTPUT_VARIABLE out OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "site_dir: ${PYTHON} failed (${rc})")
endif()
string(REPLACE "\n" ";" lines "${out}")
list(POP_FRONT lines own_prefix)
set(prefixes "${own_prefix}")
if(own_prefix STREQUAL "/usr")
  list(APPEND prefixes /usr/local)
endif()
set(errors "")
foreach(prefix IN LISTS prefixes)
  execute_process(COMMAND "${PYTHON}" "${SCRIPT}" "${prefix}"
    OUTPUT_VARIABLE dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT "${prefix}/${dir}" IN_LIST lines)
    string(APPEND errors "  prefix ${prefix}: ${prefix}/${dir} is not one "
                         "of ${PYTHON}'s site directories (${lines})\n")
  else()
    message(STATUS "site_dir: ${prefix} -> ${dir}")
  endif()
endforeach()
if(errors)
  message(FATAL_ERROR "site_dir: FAIL\n${errors}")
endif()
