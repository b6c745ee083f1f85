#!/bin/sh
# Compile the installed Fortran modules (uturn, uturn_mpi) with
# examples/mpi_heat1d.f90 using the MPI Fortran wrapper ($MPIFC), link
# against the uturn installed in $PREFIX (its libraries in $LIBDIR), then
# run it on two ranks with $MPIEXEC (and $MPIEXEC_FLAGS).
set -eu
FFLAGS="-std=f2018 -Wall -Wextra -Werror -pedantic"
fortran=$PREFIX/share/uturn/fortran
${MPIFC:-mpif90} $FFLAGS -c "$fortran/uturn.f90" "$fortran/uturn_mpi.f90"
${MPIFC:-mpif90} $FFLAGS mpi_heat1d.f90 uturn_mpi.o uturn.o -o mpi_heat1d \
    -L"$LIBDIR" -luturn_mpi -luturn -Wl,-rpath,"$LIBDIR"
${MPIEXEC:-mpiexec} -n 2 ${MPIEXEC_FLAGS:-} ./mpi_heat1d
