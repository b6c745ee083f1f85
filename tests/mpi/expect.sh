#!/bin/sh
# Run a job that must not end normally, and check how it ends.
# Usage: expect.sh abort RANKS COMMAND...   the job ends at once (within
#          30 s) with a non-zero status, and its output names the last
#          rank, the failing step and says it called MPI_Abort.
# (Before 0.3 a "hang" mode checked that a failure without
# abort_on_failure hung until the launcher's time limit; a hang is no
# longer the default.)
set -u
mode=$1
shift
ranks=$1
shift
last=$((ranks - 1))
start=$(date +%s)
out=$("$@" 2>&1)
status=$?
elapsed=$(( $(date +%s) - start ))
printf '%s\n' "$out"
echo "expect.sh: status $status after $elapsed s"
if [ "$status" -eq 0 ]; then
    echo "FAIL: the job ended normally"
    exit 1
fi
case $mode in
abort)
    if [ "$elapsed" -gt 30 ]; then
        echo "FAIL: the abort took $elapsed s"; exit 1
    fi
    printf '%s\n' "$out" | grep -q "uturn_mpi: rank $last of $ranks: UTURN_E_CALLBACK: .*at step [0-9].*calling MPI_Abort" || {
        echo "FAIL: no message naming rank $last and the step"; exit 1; }
    ;;
*)
    echo "FAIL: unknown mode $mode"; exit 1 ;;
esac
echo "expected: $mode"
