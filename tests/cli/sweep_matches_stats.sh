#!/usr/bin/env bash
# Every feasible row of a planning-only sweep has the counts that
# `uturn stats` gives for the same problem, and every infeasible row is one
# that `uturn stats` refuses with exit 2 (infeasible), while the sweep
# itself exits 0.
# usage: sweep_matches_stats.sh UTURN_BINARY
set -u
uturn=$1
pass=0 fail=0
check() { # steps state_bytes budgets
  local csv
  csv=$("$uturn" sweep --steps "$1" --state-bytes "$2" --budgets "$3" --format csv)
  [ $? -eq 0 ] || { echo "FAIL sweep exit status"; fail=$((fail + 1)); return; }
  while IFS=, read -r planner budget feasible slots forward factor peak status; do
    [ "$planner" = planner ] && continue
    stats=$("$uturn" stats "$planner" --steps "$1" --budget "$budget" \
            --state-bytes "$2" --format json 2>/dev/null)
    code=$?
    if [ "$feasible" = false ]; then
      [ $code -eq 2 ] && [ "$status" = infeasible ] && pass=$((pass + 1)) ||
        { echo "FAIL $planner $budget: sweep infeasible, stats exit $code"; fail=$((fail + 1)); }
      continue
    fi
    want="\"forward_steps\": $forward,.*\"peak_bytes\": $peak,.*\"slots\": $slots,"
    if [ $code -eq 0 ] && [ "$status" = ok ] && [[ $stats =~ $want ]]; then
      pass=$((pass + 1))
    else
      echo "FAIL $planner $budget: sweep $slots/$forward/$peak, stats: $stats"
      fail=$((fail + 1))
    fi
  done <<<"$csv"
}
# --sweeps K: each row's forward steps are `stats --sweeps K`'s, and its
# reruns K times those of one sweep.
field() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p"; }
check_sweeps() { # steps state_bytes budgets K [planners]
  local csv row
  csv=$("$uturn" sweep --steps "$1" --state-bytes "$2" --budgets "$3" \
        --planners "${5:-revolve}" --sweeps "$4" --format csv)
  [ $? -eq 0 ] || { echo "FAIL sweep --sweeps exit status"; fail=$((fail + 1)); return; }
  while IFS=, read -r planner budget feasible slots forward factor peak reruns status; do
    [ "$planner" = planner ] || [ "$feasible" = false ] && continue
    row=("$planner" --steps "$1" --budget "$budget" --state-bytes "$2" -j)
    k=$("$uturn" stats "${row[@]}" --sweeps "$4" | field forward_steps)
    one=$("$uturn" stats "${row[@]}" | field forward_steps)
    if [ "$forward" = "$k" ] && [ "$reruns" = $((one * $4)) ] &&
       [ "$forward" -le "$reruns" ]; then
      pass=$((pass + 1))
    else
      echo "FAIL --sweeps $4 at $budget: $forward/$reruns, stats $k, one $one"
      fail=$((fail + 1))
    fi
  done <<<"$csv"
}
check_sweeps 1000 8 8,16,100,500,8000 3
check_sweeps 77 5 5,10,25 2
check_sweeps 300 8 40,80,800 3 online
# An online plan of several sweeps, as text, is one `uturn check` takes,
# with the counts of `uturn stats`.
for k in 2 3 unbounded; do
  got=$("$uturn" plan online --steps 100 --slots 5 --sweeps "$k" |
        "$uturn" check - --json)
  want=$("$uturn" stats online --steps 100 --slots 5 --sweeps "$k" --json)
  if [ -n "$got" ] &&
     [ "$(field forward_steps <<<"$got")" = "$(field forward_steps <<<"$want")" ] &&
     [ "$(field persistent <<<"$got")" = "$(field persistent <<<"$want")" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL plan online --sweeps $k | check -: $got, stats $want"
    fail=$((fail + 1))
  fi
done
# With --levels, revolve's rows plan every level: their cost is `stats
# revolve --levels ... --sweeps K`'s (memory's slots from the budget), and
# their reruns K times the forward steps of hrevolve's one-sweep plan.
check_levels() { # steps budgets(slots of 8 bytes) K
  local csv
  csv=$("$uturn" sweep --steps "$1" --state-bytes 8 --budgets "$2" \
        --planners revolve --sweeps "$3" --levels mem,disk:20:w=3:r=3 \
        --format csv)
  [ $? -eq 0 ] || { echo "FAIL sweep --levels --sweeps exit status"; fail=$((fail + 1)); return; }
  while IFS=, read -r planner budget feasible slots forward factor peak cost reruns status; do
    [ "$planner" = planner ] || [ "$feasible" = false ] && continue
    lv="mem:$((budget / 8)),disk:20:w=3:r=3"
    k=$("$uturn" stats revolve --steps "$1" --levels "$lv" --sweeps "$3" -j)
    one=$("$uturn" stats hrevolve --steps "$1" --levels "$lv" -j | field forward_steps)
    if [ "$cost" = "$(field cost <<<"$k" | tail -1)" ] &&
       [ "$forward" = "$(field forward_steps <<<"$k")" ] &&
       [ "$reruns" = $((one * $3)) ]; then
      pass=$((pass + 1))
    else
      echo "FAIL --levels --sweeps $3 at $budget: $forward/$cost/$reruns, stats $k, one $one"
      fail=$((fail + 1))
    fi
  done <<<"$csv"
}
check_levels 300 16,64,400 3
# With --run every sweep's gradient is store-all's, bit for bit.
run=$("$uturn" sweep --run --steps 200 --grid 32 --planners revolve \
      --budgets 1KiB,2KiB,8KiB --sweeps 3 --format csv)
if [ $? -eq 0 ] && [ "$(grep -c ',true,ok$' <<<"$run")" -eq 3 ]; then
  pass=$((pass + 1))
else
  echo "FAIL sweep --run --sweeps 3: $run"
  fail=$((fail + 1))
fi
check 100 1024 1KiB,3KiB,10KiB,19KiB,20KiB,50KiB,100KiB,1MiB
check 1000 8 8,16,100,500,1000,8000
check 7 3 3,9,21,30
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
