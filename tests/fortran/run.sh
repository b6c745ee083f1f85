#!/bin/sh
# Build the Fortran module from the source tree with one program of
# tests/fortran/ against the build tree's libuturn, in WORK, and run it
# (ctests fortran_*). With LAYOUT (tests/python/struct_layout.c, built),
# the program prints its mirrors' layouts, and they must be the C
# compiler's: the same lines, in any order.
# Usage: run.sh FC MODULE_SOURCE TEST_SOURCE LIBRARY WORK [LAYOUT]
set -eu
fc=$1 module=$2 test=$3 library=$4 work=$5 layout=${6:-}
FFLAGS="-std=f2018 -Wall -Wextra -Werror -pedantic"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
name=$(basename "$test" .f90)
"$fc" $FFLAGS -c "$module"
"$fc" $FFLAGS "$test" uturn.o -o "$name" "$library" \
    -Wl,-rpath,"$(dirname "$library")"
if [ -z "$layout" ]; then
    exec "./$name"
fi
"./$name" | sort >fortran.txt
"$layout" | sort >c.txt
if ! diff -u c.txt fortran.txt; then
    echo "FAIL: the Fortran mirrors differ from <uturn.h> (- C, + Fortran)"
    exit 1
fi
echo "ok: $(grep -c sizeof fortran.txt) types, $(grep -vc sizeof fortran.txt) fields as C lays them out"
