#!/bin/sh
# Run a job that must not end normally, and check how it ends.
# Usage: expect.sh abort RANKS COMMAND...   the job ends at once (within
#          30 s) with a non-zero status, and its output names the last
#          rank and says it called MPI_Abort;
#        expect.sh hang SECONDS RANKS COMMAND...   with the launcher's time
#          limit set to SECONDS (MPIEXEC_TIMEOUT), the job is still running
#          when the limit ends it: a non-zero status after at least
#          SECONDS, and no "ok" from the program. This is the hang that
#          abort_on_failure exists for, caught by the time limit.
set -u
mode=$1
shift
if [ "$mode" = hang ]; then
    MPIEXEC_TIMEOUT=$1
    export MPIEXEC_TIMEOUT
    shift
fi
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
    printf '%s\n' "$out" | grep -q "uturn_mpi: rank $last of $ranks: UTURN_E_CALLBACK: .*calling MPI_Abort" || {
        echo "FAIL: no message naming rank $last"; exit 1; }
    ;;
hang)
    if [ "$elapsed" -lt "$MPIEXEC_TIMEOUT" ]; then
        echo "FAIL: ended after $elapsed s, before the time limit"; exit 1
    fi
    if printf '%s\n' "$out" | grep -q "^ok "; then
        echo "FAIL: the program reported success"; exit 1
    fi
    ;;
*)
    echo "FAIL: unknown mode $mode"; exit 1 ;;
esac
echo "expected: $mode"
