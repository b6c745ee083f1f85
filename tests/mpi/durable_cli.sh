#!/bin/bash
# uturn durable on the directory of a durable run across MPI ranks (its
# commit record and a part per rank), against what the run left:
#
#   durable_cli.sh UTURN LAUNCHER... PROGRAM
#
# runs LAUNCHER... PROGRAM DIR RANK AT (tests/mpi/mpi_durable.c) whole
# once, then a job killed late on rank 0, which leaves a committed point;
# `uturn durable show` must give that point (the record's own text), the
# number of ranks and one part per rank; a damaged record, or a part
# without the committed point, fails, named; a part that is a symbolic
# link is refused before anything is removed; a removal cut short is
# finished by the next; a plain directory with a user's file named commit
# stays plain; `remove` takes the record and every part, and a new job
# then starts afresh and completes.
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
# a committed point missing from a part: show fails, naming it
cp -r "$dir" "$top/lacking"
rm "$top/lacking/rank-$((ranks - 1))/manifest-$point"
bad=$("$uturn" durable show "$top/lacking" 2>&1) && fail "a part without the committed point was shown"
printf '%s\n' "$bad" | grep -q "rank-$((ranks - 1)) does not hold point $point" ||
  { printf '%s\n' "$bad"; fail "the part without the point is not named"; }
# a part that is a symbolic link: remove refuses before anything goes
cp -r "$dir" "$top/linked"
cp -r "$dir" "$top/elsewhere"
rm -r "$top/linked/rank-0"
ln -s "$top/elsewhere/rank-0" "$top/linked/rank-0"
bad=$("$uturn" durable remove "$top/linked" 2>&1) && fail "a symbolic link was taken for a part"
printf '%s\n' "$bad" | grep -q "rank-0 is a symbolic link" || { printf '%s\n' "$bad"; fail "the link is not named"; }
[ -e "$top/linked/commit" ] && [ -e "$top/elsewhere/rank-0/manifest-$point" ] ||
  fail "a refused remove removed something"
# a removal cut short (the record and rank-0 gone) and a part the record
# does not name: remove takes every part there
cp -r "$dir" "$top/cut"
rm "$top/cut/commit"
rm -r "$top/cut/rank-0"
cp -r "$top/cut/rank-1" "$top/cut/rank-$((ranks + 3))"
"$uturn" durable show "$top/cut" | grep -q "^commit         none" || fail "show of a cut removal"
"$uturn" durable remove "$top/cut" || fail "remove of a cut removal"
[ ! -e "$top/cut" ] || { ls -R "$top/cut"; fail "remove left parts of a cut removal"; }
# a single-process directory (a part of its own) holding a user's file
# named commit is not a run across ranks: its remove leaves that file
cp -r "$dir/rank-0" "$top/plain"
echo notes > "$top/plain/commit"
"$uturn" durable show "$top/plain" | grep -q "^layout" && fail "a plain directory was taken for one across ranks"
"$uturn" durable remove "$top/plain" || fail "remove of the plain directory"
[ "$(cat "$top/plain/commit")" = notes ] || fail "remove took the user's file"
"$uturn" durable remove "$dir" || fail "remove"
[ ! -e "$dir" ] || fail "remove left $dir"
out=$("$@" "$dir" -1 0 2>&1)
printf '%s\n' "$out" | grep -q "^ok calls $calls " ||
  { printf '%s\n' "$out"; fail "the run after remove did not start afresh"; }
echo "durable_cli: show and remove on $ranks ranks"
