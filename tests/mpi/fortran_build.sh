#!/bin/sh
# Build tests/mpi/fortran_mpi.f90 with the Fortran modules from the source
# tree against the build tree's libuturn_mpi and libuturn, in WORK (ctest
# mpi_fortran_build, the fixture of mpi_fortran_np*).
# Usage: fortran_build.sh MPIFC BINDINGS_DIR TEST_SOURCE LIBUTURN_MPI
#        LIBUTURN WORK
set -eu
fc=$1 bindings=$2 test=$3 libmpi=$4 libcore=$5 work=$6
FFLAGS="-std=f2018 -Wall -Wextra -Werror -pedantic"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$fc" $FFLAGS -c "$bindings/uturn.f90" "$bindings/uturn_mpi.f90"
"$fc" $FFLAGS "$test" uturn_mpi.o uturn.o -o fortran_mpi "$libmpi" \
    "$libcore" -Wl,-rpath,"$(dirname "$libmpi"):$(dirname "$libcore")"
echo "built $work/fortran_mpi"
