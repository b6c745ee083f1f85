#!/bin/sh
# Build the C++ consumers against the uturn installed in $PREFIX (its
# libraries in $LIBDIR), then run them: main.cpp uses <uturn.h> as it is,
# consumer_hpp.cpp the C++ layer <uturn.hpp>.
set -eu
for prog in main consumer_hpp; do
    ${CXX:-g++} -std=c++17 -Wall -Wextra -Werror -pedantic "$prog.cpp" \
        -o "$prog" -I"$PREFIX/include" -L"$LIBDIR" -luturn \
        -Wl,-rpath,"$LIBDIR"
    "./$prog"
done
