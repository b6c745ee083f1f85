#!/bin/sh
# Build with pkg-config against the uturn installed in $PREFIX (its
# libraries in $LIBDIR), then run.
set -eu
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror main.c -o consumer \
    $(pkg-config --cflags --libs uturn) -lm -Wl,-rpath,"$LIBDIR"
./consumer
