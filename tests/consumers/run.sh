#!/bin/sh
# Run one consumer the way a user would: copy its directory (main program
# and build.sh) and any FILE given (a program of examples/) into a fresh
# WORK directory and run build.sh there.
# Usage: run.sh SRC_DIR WORK_DIR [FILE...], with PREFIX and LIBDIR (and
# optionally CC, CXX, FC, MPIFC, PYTHON) in the environment. A missing TOOL (named in
# UTURN_MISSING_TOOL) is a skip: exit 77.
set -eu
src=$1
work=$2
shift 2
if [ -n "${UTURN_MISSING_TOOL:-}" ]; then
    echo "skipped: $UTURN_MISSING_TOOL not found (scripts/install-deps installs it)"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work"
cp -R "$src"/. "$work"
for file in "$@"; do
    cp "$file" "$work"
done
cd "$work"
# Nothing may come from the build tree: only what PREFIX holds.
unset LD_LIBRARY_PATH PKG_CONFIG_PATH PYTHONPATH CMAKE_PREFIX_PATH UTURN_LIBRARY
exec sh ./build.sh
