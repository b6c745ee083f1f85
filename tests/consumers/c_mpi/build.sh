#!/bin/sh
# Build with CMake (find_package(uturn COMPONENTS mpi)) and with
# pkg-config (uturn-mpi) against the uturn installed in $PREFIX, then run
# each on two ranks with $MPIEXEC (and $MPIEXEC_FLAGS).
set -eu
cmake -S . -B build -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_FLAGS=-Werror
cmake --build build
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror main.c -o consumer_pc \
    $(pkg-config --cflags --libs uturn-mpi) -lm -Wl,-rpath,"$LIBDIR"
for program in build/consumer build/consumer_static ./consumer_pc; do
    $MPIEXEC -n 2 $MPIEXEC_FLAGS "$program"
done
