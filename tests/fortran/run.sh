#!/bin/sh
# Build the Fortran module from the source tree with one program of
# tests/fortran/ against the build tree's libuturn, in WORK, and run it
# (ctests fortran_*). With LAYOUT (tests/python/struct_layout.c, built),
# the program prints its mirrors' layouts, and compare_layout.sh checks
# that they are the C compiler's.
# Usage: run.sh FC MODULE_SOURCE TEST_SOURCE LIBRARY WORK [LAYOUT]
set -eu
fc=$1 module=$2 test=$3 library=$4 work=$5 layout=${6:-}
here=$(cd "$(dirname "$0")" && pwd)
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
exec sh "$here/compare_layout.sh" "$layout" "./$name"
