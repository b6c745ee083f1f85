#!/bin/sh
# Run examples/petsc_adjoint (a PETSc program that knows nothing of uturn)
# on two ranks with PETSc's memory trajectory, then with the "uturn" type
# loaded by -dll_append from LIB; the two gradient digests must be equal
# (every bit of lambda and mu) and the view line printed.
# Usage: example.sh EXE LIB, with MPIEXEC and MPIEXEC_FLAGS in the
# environment.
set -eu
exe=$1
lib=$2
run() {
    # shellcheck disable=SC2086
    "$MPIEXEC" -n 2 $MPIEXEC_FLAGS "$exe" -ts_max_time 20 "$@"
}
ref=$(run -ts_trajectory_type memory)
echo "memory: $ref"
out=$(run -dll_append "$lib" -ts_trajectory_type uturn \
      -ts_trajectory_uturn_budget 8KB -ts_trajectory_view)
echo "uturn, -dll_append $lib:"
echo "$out"
want=$(echo "$ref" | grep digest)
got=$(echo "$out" | grep digest)
if [ "$want" != "$got" ]; then
    echo "FAIL: the gradients differ"
    exit 1
fi
echo "$out" | grep -q "uturn: planner online" || {
    echo "FAIL: no view line from the uturn type"
    exit 1
}
echo "ok: bitwise the same gradient"
