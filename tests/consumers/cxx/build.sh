#!/bin/sh
# Build the C++ consumer against the uturn installed in $PREFIX (its
# libraries in $LIBDIR), then run.
set -eu
${CXX:-g++} -std=c++17 -Wall -Wextra -Werror -pedantic main.cpp -o consumer \
    -I"$PREFIX/include" -L"$LIBDIR" -luturn -Wl,-rpath,"$LIBDIR"
./consumer
