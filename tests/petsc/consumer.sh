#!/bin/sh
# Build examples/petsc_adjoint.c against the installed PETSc layer (through
# pkg-config uturn-petsc and through find_package(uturn_petsc)), then run
# example.sh with the installed libuturn_petsc.so: nothing comes from the
# build tree. Usage: consumer.sh EXAMPLE_C EXAMPLE_SH WORK, with PREFIX,
# LIBDIR, CC, MPIEXEC and MPIEXEC_FLAGS in the environment.
set -eu
src=$1
script=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
unset LD_LIBRARY_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
cp "$src" petsc_adjoint.c
# shellcheck disable=SC2046
"$CC" -std=c11 -Wall -Wextra -Werror -o petsc_adjoint petsc_adjoint.c \
    $(pkg-config --cflags --libs uturn-petsc) -lm
cat > CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(uturn_petsc_consumer LANGUAGES C)
find_package(uturn_petsc 0.3 CONFIG REQUIRED)
add_executable(petsc_adjoint_cmake petsc_adjoint.c)
target_link_libraries(petsc_adjoint_cmake PRIVATE uturn::uturn_petsc m)
CMAKE
cmake -S . -B build -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_COMPILER="$CC" \
    > cmake.log 2>&1 || { cat cmake.log; echo "FAIL: cmake"; exit 1; }
cmake --build build > build.log 2>&1 || { cat build.log; echo "FAIL: build"; exit 1; }
sh "$script" ./petsc_adjoint "$LIBDIR/libuturn_petsc.so"
sh "$script" ./build/petsc_adjoint_cmake "$LIBDIR/libuturn_petsc.so"
