#!/bin/sh
# Compile the installed Fortran interfaces with the program, link against
# the uturn installed in $PREFIX (its libraries in $LIBDIR), then run.
set -eu
FFLAGS="-std=f2018 -Wall -Wextra -Werror -pedantic"
${FC:-gfortran} $FFLAGS -c "$PREFIX/share/uturn/fortran/uturn.f90"
${FC:-gfortran} $FFLAGS main.f90 uturn.o -o consumer \
    -L"$LIBDIR" -luturn -Wl,-rpath,"$LIBDIR"
./consumer
