#!/bin/sh
# Build the Fortran module from the source tree with
# tests/fortran/fortran_binding.f90 against the build tree's libuturn, in
# WORK, and run it (ctest fortran_binding).
# Usage: run.sh FC MODULE_SOURCE TEST_SOURCE LIBRARY WORK
set -eu
fc=$1 module=$2 test=$3 library=$4 work=$5
FFLAGS="-std=f2018 -Wall -Wextra -Werror -pedantic"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$fc" $FFLAGS -c "$module"
"$fc" $FFLAGS "$test" uturn.o -o fortran_binding "$library" \
    -Wl,-rpath,"$(dirname "$library")"
./fortran_binding
