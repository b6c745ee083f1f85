#!/bin/sh
# Build with CMake against the uturn installed in $PREFIX, then run the
# program linked to the shared library and the one linked statically.
set -eu
cmake -S . -B build -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_FLAGS=-Werror
cmake --build build
./build/consumer
./build/consumer_static
