#!/usr/bin/env bash
# An adjoint run across batch jobs, one part per job: each "job" here is
# burgers_durable with a time limit, after which it is sent SIGUSR1 (as
# `sbatch --signal=USR1@60` does) and stops at a durable point; every
# third job is killed outright instead (SIGKILL: a node lost), and
# resumes from its last periodic point. The loop resubmits until the
# run says done.
#
#   examples/durable_jobs.sh BURGERS_DURABLE [SECONDS_PER_JOB] [ARGS...]
#
# With a scheduler, the job script is just the middle line:
#   burgers_durable "$SCRATCH/adjoint" --every 600 || exit 1   # resubmit
set -uo pipefail
prog=${1:?usage: durable_jobs.sh BURGERS_DURABLE [SECONDS_PER_JOB] [ARGS...]}
limit=${2:-0.4}
shift 2 2>/dev/null || shift $#
dir=$(mktemp -d)/adjoint
for job in $(seq 1 50); do
  if (( job % 3 == 0 )); then signal=KILL; else signal=USR1; fi
  echo "job $job (ends with SIG$signal after ${limit}s)"
  # --preserve-status: the program's own exit (3: stopped), 137 killed;
  # --foreground: timeout signals the program alone and waits for it to
  # end (else it signals its whole group, itself included, and a killed
  # program may still hold the directory when the next job starts)
  timeout --foreground --preserve-status -s "$signal" "$limit" "$prog" \
    "$dir" --every 0.05 "$@" 2>&1
  rc=$?
  case $rc in
    0) echo "the adjoint finished in job $job"; rmdir "$(dirname "$dir")"
       exit 0 ;;
    3|137) ;; # stopped at a point, or killed: resubmit
    *) echo "job $job failed (exit $rc)"; exit 1 ;;
  esac
done
echo "not done after 50 jobs"
exit 1
