#!/bin/sh
# Run the Python consumer with the ctypes module installed in $PREFIX.
set -eu
PYTHONPATH="$PREFIX/share/uturn/python" ${PYTHON:-python3} main.py
