#!/bin/sh
# Options of the uturn type that cannot be honoured are refused, naming
# the option (and the rank short of a budget), never dropped or clamped;
# and a method it cannot recompute bit for bit is said so in the view:
# examples/petsc_adjoint on two ranks with each bad option must fail with
# the message given. Usage: refusals.sh EXE LIB, with MPIEXEC and
# MPIEXEC_FLAGS in the environment.
set -u
exe=$1
lib=$2
fails=0
refused() { # message, then the options
    want=$1
    shift
    # shellcheck disable=SC2086
    out=$("$MPIEXEC" -n 2 $MPIEXEC_FLAGS "$exe" -ts_max_time 1 \
          -dll_append "$lib" -ts_trajectory_type uturn "$@" 2>&1)
    status=$?
    if [ $status -eq 0 ] || ! printf '%s' "$out" | grep -qF -- "$want"; then
        echo "FAIL: $* (exit $status) did not say: $want"
        printf '%s\n' "$out" | head -5
        fails=$((fails + 1))
    else
        echo "ok: $* -> $want"
    fi
}
refused "-ts_trajectory_uturn_disk_dir needs a disk level" \
    -ts_trajectory_uturn_budget 8KB -ts_trajectory_uturn_disk_dir /tmp
refused "-ts_trajectory_uturn_disk_write_cost needs a disk level" \
    -ts_trajectory_uturn_budget 8KB -ts_trajectory_uturn_disk_write_cost 5
refused "-ts_trajectory_uturn_disk_read_cost: 'foo' is not a whole number" \
    -ts_trajectory_uturn_budget 8KB -ts_trajectory_uturn_disk 1MB \
    -ts_trajectory_uturn_disk_read_cost foo
refused "-ts_trajectory_uturn_disk_write_cost: '-1' is not a whole number" \
    -ts_trajectory_uturn_budget 8KB -ts_trajectory_uturn_disk 1MB \
    -ts_trajectory_uturn_disk_write_cost -1
refused "-ts_trajectory_uturn_disk_dir: no directory given" \
    -ts_trajectory_uturn_budget 8KB -ts_trajectory_uturn_disk 1MB \
    -ts_trajectory_uturn_disk_dir ""
refused "-ts_trajectory_uturn_disk_write_cost: 16777217 is past 2^24" \
    -ts_trajectory_uturn_budget 8KB -ts_trajectory_uturn_disk 1MB \
    -ts_trajectory_uturn_disk_write_cost 16777217
refused "rank 0's -ts_trajectory_uturn_disk (100 bytes) holds no checkpoint" \
    -ts_trajectory_uturn_budget 8KB -ts_trajectory_uturn_disk 100
refused "rank 0's -ts_trajectory_uturn_budget (100 bytes) holds no checkpoint" \
    -ts_trajectory_uturn_budget 100
# a budget of one state (1600 bytes on rank 0), where RK 5dp's checkpoint
# is the state and its last stage
refused "at least its part of a state and its last stage (this RK method reuses it) (3200 bytes on rank 0)" \
    -ts_type rk -ts_rk_type 5dp -ts_trajectory_uturn_budget 1600
refused "-ts_theta_initial_guess_extrapolate" \
    -ts_type cn -ts_theta_initial_guess_extrapolate \
    -ts_trajectory_uturn_budget 8KB
# in slots, not in bytes at a cost this layer does not use
refused "store-all needs 100 slots for 100 steps; the capacity given is 1 slot" \
    -ts_adapt_type none -ts_trajectory_uturn_budget 2048 \
    -ts_trajectory_uturn_planner store-all
# a value longer than the option takes: refused, not cut short (a budget
# of 1024 KiB written with 200 leading zeros)
refused "-ts_trajectory_uturn_budget: the value is longer than the 126 characters" \
    -ts_trajectory_uturn_budget "$(printf '%0200d' 0)1024KiB"
# a bad value on one rank only (budgets may differ between ranks): that
# rank names it (a check on the options' communicator printed nothing)
# shellcheck disable=SC2086
out=$("$MPIEXEC" $MPIEXEC_FLAGS -n 1 "$exe" -ts_max_time 1 -dll_append "$lib" \
      -ts_trajectory_type uturn -ts_trajectory_uturn_budget 8KB : \
      -n 1 "$exe" -ts_max_time 1 -dll_append "$lib" -ts_trajectory_type uturn \
      -ts_trajectory_uturn_budget abc 2>&1)
status=$?
if [ $status -eq 0 ] ||
   ! printf '%s' "$out" | grep -qF -- "[1]PETSC ERROR: -ts_trajectory_uturn_budget: 'abc' is not a size"; then
    echo "FAIL: a bad budget on rank 1 alone (exit $status) was not named"
    printf '%s\n' "$out" | head -5
    fails=$((fails + 1))
else
    echo "ok: a bad budget on rank 1 alone -> named by rank 1"
fi
# a method PETSc cannot differentiate: said so, not blamed on the solve
refused "PETSc has no adjoint step (TSAdjointStep) for TS type glle" \
    -ts_type glle -ts_adapt_type none -ts_trajectory_uturn_budget 8KB
# RK 5dp reuses its last stage, which is not its result bit for bit: each
# checkpoint keeps it, and the view says so with the checkpoint's bytes
# shellcheck disable=SC2086
out=$("$MPIEXEC" -n 2 $MPIEXEC_FLAGS "$exe" -ts_max_time 1 -dll_append "$lib" \
      -ts_trajectory_type uturn -ts_type rk -ts_rk_type 5dp \
      -ts_trajectory_uturn_budget 8KB -ts_trajectory_view 2>&1)
if printf '%s' "$out" | grep -q "each checkpoint keeps it too"; then
    echo "ok: RK 5dp's view says its checkpoints keep the last stage"
else
    echo "FAIL: RK 5dp's view lacks the last stage's line"
    printf '%s\n' "$out" | tail -5
    fails=$((fails + 1))
fi
[ $fails -eq 0 ]
