#!/bin/sh
# Build, in WORK, with the Fortran modules from the source tree against the
# build tree's libuturn_mpi and libuturn (ctest mpi_fortran_build, the
# fixture of mpi_fortran_np*, mpi_fortran_layout and
# mpi_example_heat1d_np*): fortran_mpi (tests/mpi/fortran_mpi_chains.f90
# and fortran_mpi.f90), fortran_mpi_layout (fortran_mpi_layout.f90) and
# mpi_heat1d (EXAMPLE, examples/mpi_heat1d.f90).
# Usage: fortran_build.sh MPIFC BINDINGS_DIR TESTS_DIR EXAMPLE LIBUTURN_MPI
#        LIBUTURN WORK
set -eu
fc=$1 bindings=$2 tests=$3 example=$4 libmpi=$5 libcore=$6 work=$7
FFLAGS="-std=f2018 -Wall -Wextra -Werror -pedantic"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$fc" $FFLAGS -c "$bindings/uturn.f90" "$bindings/uturn_mpi.f90"
program() {
    out=$1
    shift
    "$fc" $FFLAGS "$@" uturn_mpi.o uturn.o -o "$out" "$libmpi" "$libcore" \
        -Wl,-rpath,"$(dirname "$libmpi"):$(dirname "$libcore")"
    echo "built $work/$out"
}
program fortran_mpi "$tests/fortran_mpi_chains.f90" "$tests/fortran_mpi.f90"
program fortran_mpi_layout "$tests/fortran_mpi_layout.f90"
program mpi_heat1d "$example"
