#!/usr/bin/env bash
# uturn sweep --levels: every hrevolve row's cost is what `uturn stats`
# gives with memory's slots written out (planning only), and with --run on
# a file level every feasible row's gradient equals store-all's bit for
# bit and the level's directory is left empty; a directory on tmpfs is
# warned about.
# usage: sweep_levels.sh UTURN_BINARY
set -u
uturn=$1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

csv=$("$uturn" sweep --model none --steps 200 --state-bytes 1KiB \
      --levels mem,disk:60:w=5:r=5 --budgets 1KiB,2KiB,5KiB,16KiB,64KiB \
      --planners hrevolve --format csv) || bad "sweep exit status"
while IFS=, read -r planner budget feasible slots forward factor peak cost status; do
  [ "$planner" = planner ] && continue
  mem=$((budget / 1024))
  stats=$("$uturn" stats hrevolve --steps 200 \
          --levels "mem:$mem,disk:60:w=5:r=5" --format json)
  [[ $stats =~ \"cost\":\ $cost, ]] && [[ $stats =~ \"forward_steps\":\ $forward, ]] &&
    ok || bad "hrevolve at $budget: sweep cost $cost, stats: $stats"
done <<<"$csv"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
csv=$("$uturn" sweep --steps 300 --grid 64 --levels mem,disk:100:w=5:r=5 \
      --run --level-dir "$dir" --format csv 2>/dev/null) || bad "sweep --run exit status"
rows=0
while IFS=, read -r planner budget feasible slots forward factor peak cost wall measured matches status; do
  [ "$planner" = planner ] && continue
  [ "$feasible" = true ] || continue
  rows=$((rows + 1))
  [ "$matches" = true ] && ok || bad "$planner at $budget: gradient_matches $matches"
  [ "$measured" -le "$budget" ] && ok || bad "$planner at $budget: measured $measured"
done <<<"$csv"
[ $rows -ge 10 ] && ok || bad "only $rows feasible --run rows"
[ -z "$(ls -A "$dir")" ] && ok || bad "files left in the level directory: $(ls -A "$dir")"
# A level directory on tmpfs is memory: the run says so.
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
  shm=$(mktemp -d /dev/shm/uturn-test-XXXXXX)
  err=$("$uturn" sweep --steps 50 --grid 16 --levels mem,disk:20:w=5:r=5 --run \
        --level-dir "$shm" --budgets 1KiB 2>&1 >/dev/null)
  [[ $err == *"is on tmpfs: its files are memory, not disk"* ]] && ok ||
    bad "no tmpfs warning: $err"
  rmdir "$shm" || bad "files left in $shm"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
