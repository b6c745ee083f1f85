#!/bin/sh
# The Fortran mirrors are laid out as C lays out the structs: C_PRINTER and
# FORTRAN_PRINTER each print "TYPE FIELD OFFSET SIZE" per field and "TYPE
# sizeof SIZE" per type, and the lines must be the same, in any order
# (ctests fortran_layout and mpi_fortran_layout). Writes c.txt and
# fortran.txt in the current directory.
# Usage: compare_layout.sh C_PRINTER FORTRAN_PRINTER
set -eu
"$1" | sort >c.txt
"$2" | sort >fortran.txt
if ! diff -u c.txt fortran.txt; then
    echo "FAIL: the Fortran mirrors differ from the C header (- C, + Fortran)"
    exit 1
fi
echo "ok: $(grep -c sizeof fortran.txt) types, $(grep -vc sizeof fortran.txt) fields as C lays them out"
