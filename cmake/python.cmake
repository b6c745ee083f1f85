# The Python the binding is installed for and tested with: Debian's
# /usr/bin/python3 where it exists (python3-numpy is Debian's), else the
# one find_package(Python3) finds. Sets UTURN_PYTHON (empty without one)
# and the cache variable UTURN_INSTALL_PYTHONDIR: where the `uturn`
# package goes, relative to the prefix (or absolute), by default the site
# directory UTURN_PYTHON imports from for CMAKE_INSTALL_PREFIX
# (cmake/python_site_dir.py: lib/python3/dist-packages for /usr on
# Debian, lib/python3.X/dist-packages for /usr/local there). Included by
# tests/CMakeLists.txt and cmake/install.cmake, each in its own scope.

find_program(UTURN_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH
  DOC "The Python the binding is installed for and tested with")
set(UTURN_PYTHON "${UTURN_PYTHON3}")
if(NOT UTURN_PYTHON)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  set(UTURN_PYTHON "${Python3_EXECUTABLE}")
endif()

# uturn_python_site_dir(PREFIX OUT): the site directory of UTURN_PYTHON for
# packages installed under PREFIX, relative to PREFIX.
function(uturn_python_site_dir prefix out)
  set(dir "lib/python3/dist-packages")
  if(UTURN_PYTHON)
    execute_process(
      COMMAND "${UTURN_PYTHON}" "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/python_site_dir.py" "${prefix}"
      OUTPUT_VARIABLE found OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND found)
      set(dir "${found}")
    endif()
  endif()
  set(${out} "${dir}" PARENT_SCOPE)
endfunction()

# The default follows CMAKE_INSTALL_PREFIX when that changes, unless the
# directory was set by hand.
if(NOT DEFINED UTURN_INSTALL_PYTHONDIR OR
   (UTURN_INSTALL_PYTHONDIR STREQUAL "${_UTURN_PYTHONDIR_DEFAULT}" AND
    NOT _UTURN_PYTHONDIR_PREFIX STREQUAL CMAKE_INSTALL_PREFIX))
  uturn_python_site_dir("${CMAKE_INSTALL_PREFIX}" _uturn_site)
  set(UTURN_INSTALL_PYTHONDIR "${_uturn_site}" CACHE STRING
    "Where the Python package uturn goes, relative to the prefix (or absolute)"
    FORCE)
  set(_UTURN_PYTHONDIR_DEFAULT "${_uturn_site}" CACHE INTERNAL "")
  set(_UTURN_PYTHONDIR_PREFIX "${CMAKE_INSTALL_PREFIX}" CACHE INTERNAL "")
endif()
