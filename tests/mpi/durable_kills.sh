#!/bin/bash
# Kill a durable MPI run at random points and resume it, each time in a
# new job (tests/mpi/mpi_durable.c checks the gradient and the forward
# steps of every run that completes).
#
#   durable_kills.sh POINTS SEED LAUNCHER... PROGRAM
#
# runs LAUNCHER... PROGRAM DIR RANK AT: first once whole (its callback
# count bounds the kill points), then POINTS times a job whose rank RANK
# raises SIGKILL at its AT-th callback (random, from SEED), which must end
# abnormally, followed by a job that resumes and must print "ok".
set -u
points=$1
seed=$2
shift 2
RANDOM=$seed
ranks=$(printf '%s\n' "$@" | grep -A1 -E '^(-n|-np)$' | tail -1)
dir=$(mktemp -d)/run
trap 'rm -rf "$(dirname "$dir")"' EXIT
out=$("$@" "$dir" -1 0 2>&1)
printf '%s\n' "$out"
calls=$(printf '%s\n' "$out" | sed -n 's/^ok calls \([0-9]*\) .*/\1/p')
[ -n "$calls" ] || { echo "FAIL: the whole run did not say ok"; exit 1; }
for k in $(seq 1 "$points"); do
  rank=$((RANDOM % ranks))
  at=$((1 + (RANDOM * 32768 + RANDOM) % calls))
  echo "kill $k: rank $rank at callback $at of $calls"
  "$@" "$dir" "$rank" "$at" >/dev/null 2>&1
  status=$?
  if [ "$status" -eq 0 ]; then
    echo "FAIL: the job killed at $at ended normally"; exit 1
  fi
  if [ "$k" -eq 1 ] && [ -e "$dir/commit" ]; then
    # on another number of ranks: refused, the point kept
    other=(); prev=""
    for a in "$@"; do
      case $prev in -n|-np) a=$((ranks + 1)) ;; esac
      other+=("$a"); prev=$a
    done
    out=$("${other[@]}" "$dir" -1 0 2>&1)
    printf '%s\n' "$out" | grep -q "holds a run of $ranks ranks; this one has $((ranks + 1))" || {
      printf '%s\n' "$out"; echo "FAIL: a resume on $((ranks + 1)) ranks was not refused"; exit 1; }
    echo "a resume on $((ranks + 1)) ranks is refused"
    if [ "$ranks" -ge 2 ]; then
      # ranks 0 and 1's parts swapped, in a copy: refused (each part is
      # made with its rank in its tag), not resumed to a wrong gradient
      swapped=$(dirname "$dir")/swapped
      cp -a "$dir" "$swapped"
      mv "$swapped/rank-0" "$swapped/t" && mv "$swapped/rank-1" "$swapped/rank-0" &&
        mv "$swapped/t" "$swapped/rank-1"
      out=$("$@" "$swapped" -1 0 2>&1)
      rm -rf "$swapped"
      printf '%s\n' "$out" | grep -q "rank-0 holds point .* of another model (durable_tag)" || {
        printf '%s\n' "$out"; echo "FAIL: swapped rank parts were not refused"; exit 1; }
      echo "swapped rank parts are refused"
    fi
  fi
  out=$("$@" "$dir" -1 0 2>&1)
  printf '%s\n' "$out" | grep -E "^(ok|FAIL)"
  printf '%s\n' "$out" | grep -q "^ok " || {
    printf '%s\n' "$out"; echo "FAIL: the resume after kill $k"; exit 1; }
  [ ! -e "$dir" ] || { echo "FAIL: a complete run left $dir"; exit 1; }
done
echo "durable_kills: $points kills on $ranks ranks, every resume ok"
