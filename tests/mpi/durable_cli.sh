#!/bin/bash
# uturn durable on the directory of a durable run across MPI ranks (its
# commit record and a part per rank), against what the run left:
#
#   durable_cli.sh UTURN LAUNCHER... PROGRAM
#
# runs LAUNCHER... PROGRAM DIR RANK AT (tests/mpi/mpi_durable.c) whole
# once, then a job killed late on rank 0, which leaves a committed point;
# `uturn durable show` must give that point (the record's own text), the
# number of ranks and one part per rank; a damaged record fails, named;
# `remove` takes the record and every part, and a new job then starts
# afresh and completes.
set -u
uturn=$1
shift
ranks=$(printf '%s\n' "$@" | grep -A1 -E '^(-n|-np)$' | tail -1)
top=$(mktemp -d)
dir=$top/run
trap 'rm -rf "$top"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
out=$("$@" "$dir" -1 0 2>&1)
calls=$(printf '%s\n' "$out" | sed -n 's/^ok calls \([0-9]*\) .*/\1/p')
[ -n "$calls" ] || { printf '%s\n' "$out"; fail "the whole run did not say ok"; }
"$@" "$dir" 0 $((calls * 9 / 10)) >/dev/null 2>&1 && fail "the killed job ended normally"
[ -e "$dir/commit" ] || fail "the killed job left no commit record"
point=$(sed -n 's/^point \([0-9]*\)$/\1/p' "$dir/commit")
shown=$("$uturn" durable show "$dir" 2>&1) || { printf '%s\n' "$shown"; fail "show"; }
printf '%s\n' "$shown"
printf '%s\n' "$shown" | grep -qx "commit         point $point of $ranks ranks" ||
  fail "show does not give the committed point $point of $ranks ranks"
parts=$(printf '%s\n' "$shown" | grep -c "^rank .* in_use no, point [0-9]")
[ "$parts" -eq "$ranks" ] || fail "show gives $parts parts with a point, not $ranks"
cp -r "$dir" "$top/damaged"
sed -i 's/^point /paint /' "$top/damaged/commit"
bad=$("$uturn" durable show "$top/damaged" 2>&1) && fail "a damaged record was shown"
printf '%s\n' "$bad" | grep -q "commit, the commit record .* is damaged" ||
  { printf '%s\n' "$bad"; fail "the damaged record is not named"; }
"$uturn" durable remove "$top/damaged" || fail "remove of the damaged copy"
[ ! -e "$top/damaged" ] || fail "remove left $top/damaged"
"$uturn" durable remove "$dir" || fail "remove"
[ ! -e "$dir" ] || fail "remove left $dir"
out=$("$@" "$dir" -1 0 2>&1)
printf '%s\n' "$out" | grep -q "^ok calls $calls " ||
  { printf '%s\n' "$out"; fail "the run after remove did not start afresh"; }
echo "durable_cli: show and remove on $ranks ranks"
