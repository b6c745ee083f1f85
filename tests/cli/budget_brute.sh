#!/usr/bin/env bash
# uturn budget against brute force. For small chains every capacity from
# 1 up to the most a plan can use is planned with `uturn stats`, and the
# least budget that meets a bound is found by looking at each capacity in
# turn, with no assumption that a bound once met stays met. `uturn budget`
# must give exactly that budget, print exactly what `uturn stats` prints at
# it (with --levels, budget_bytes is memory's), and exit 2 when no capacity
# meets the bound. Bounds: recompute factors (compared exactly, in
# hundredths), every cost and every factor (rounded up to hundredths) the
# table holds, and one below each.
# usage: budget_brute.sh UTURN_BINARY
set -u
uturn=$1
here=$(cd "$(dirname "$0")" && pwd)
cases=$here/cases
pass=0 fail=0

field() { # KEY JSON
  local re="\"$1\": ([0-9]+)"
  [[ $2 =~ $re ]] && echo "${BASH_REMATCH[1]}"
}

# stats_at C: the JSON of `uturn stats` at capacity C (units of $unit), or
# empty when it refuses. Uses $planner, $n, $common, $levels_of.
stats_at() {
  local c=$1 bytes=$(($1 * unit))
  if [ -n "$levels_of" ]; then
    "$uturn" stats "$planner" -n "$n" $common -l "$(printf "$levels_of" "$c")" -j 2>/dev/null |
      sed -E "s/\"budget_bytes\": 0/\"budget_bytes\": $bytes/"
  else
    "$uturn" stats "$planner" -n "$n" $common -b "$bytes" -j 2>/dev/null
  fi
}

# check PLANNER N UNIT HI "COMMON ARGS" LEVELS_FORMAT
# (LEVELS_FORMAT: a printf format for --levels of stats with %s the memory
# capacity in slots, or empty; then budget gets it with memory left open)
check() {
  planner=$1 n=$2 unit=$3 hi=$4 common=$5 levels_of=${6:-}
  local -a table forward cost
  local c
  for ((c = 1; c <= hi; c++)); do
    table[c]=$(stats_at "$c")
    forward[c]=$(field forward_steps "${table[c]}")
    cost[c]=$(field cost "${table[c]}")
  done
  local budget_levels=()
  [ -n "$levels_of" ] && budget_levels=(-l "$(printf "$levels_of" "" | sed 's/^mem:/mem/')")
  local bounds=() f
  for f in 100 101 150 200 300 1000; do bounds+=("F $f"); done
  for ((c = 1; c <= hi; c++)); do
    [ -z "${cost[c]}" ] && continue
    f=$(((forward[c] * 100 + n - 1) / n)) # its factor, up to hundredths
    bounds+=("C ${cost[c]}" "C $((cost[c] - 1))" "F $f")
    ((f > 100)) && bounds+=("F $((f - 1))") # below 1 is refused (exit 1)
  done
  local seen="" bound kind value want got code arg
  for bound in "${bounds[@]}"; do
    case " $seen " in *" $bound "*) continue ;; esac
    seen="$seen $bound"
    read -r kind value <<<"$bound"
    want=""
    for ((c = 1; c <= hi; c++)); do
      [ -z "${forward[c]}" ] && continue
      if [ "$kind" = F ]; then
        ((forward[c] * 100 <= value * n)) && { want=$c; break; }
      else
        ((cost[c] <= value)) && { want=$c; break; }
      fi
    done
    if [ "$kind" = F ]; then
      arg=(-F "$((value / 100)).$(printf %02d $((value % 100)))")
    else
      arg=(--cost "$value")
    fi
    got=$("$uturn" budget "$planner" -n "$n" $common "${budget_levels[@]}" "${arg[@]}" -j 2>/dev/null)
    code=$?
    if [ -z "$want" ]; then
      if [ $code -eq 2 ] && [ -z "$got" ]; then pass=$((pass + 1)); else
        echo "FAIL $planner n=$n $common ${arg[*]}: want exit 2, got $code: $got"
        fail=$((fail + 1))
      fi
    elif [ $code -eq 0 ] && [ "$got" = "${table[want]}" ]; then
      pass=$((pass + 1))
    else
      echo "FAIL $planner n=$n $common ${arg[*]}: want $((want * unit)) bytes"
      echo "  stats:  ${table[want]}"
      echo "  budget: $got (exit $code)"
      fail=$((fail + 1))
    fi
  done
}

for n in 1 2 7 20; do
  check revolve $n 3 $n "-B 3"
  check periodic $n 3 $n "-B 3"
  check sqrt $n 3 $n "-B 3"
done
check revolve 40 3 40 "-B 3"
check store-all 7 5 7 "-B 5"
check store-all 20 5 20 "-B 5"
check periodic 40 1 40 "-B 1 -k 4"
check revolve 30 1024 30 "-B 1000 --slot-bytes 1024"
for n in 7 20; do
  check dp $n 5 $n "-B 5"
done
# dp with step costs: --cost is what it minimises, --factor is not.
check dp 7 5 7 "-B 5 --costs $cases/costs7.txt"
# dp with sizes counts in their gcd (1 byte here): 43 units hold them all.
check dp 7 1 43 "--sizes $cases/sizes7.txt"
check dp 7 1 43 "--sizes $cases/sizes7.txt --costs $cases/costs7.txt"
# hrevolve minimises the cost; its forward steps need not fall (n = 60:
# 126 at 4 slots, 113 at 5, 115 at 6, so a bisection misses 5 for 1.89).
check hrevolve 20 8 20 "-B 8" "mem:%s,disk:10:w=3:r=3"
check hrevolve 30 8 30 "-B 8" "mem:%s,disk:20:w=3:r=3"
check hrevolve 60 8 60 "-B 8" "mem:%s,disk:20:w=3:r=3"
check hrevolve 20 8 20 "-B 8" "mem:%s:w=1:r=1,disk:8:w=2:r=2"
# revolve counts forward steps; with memory's own costs the cost need not
# fall.
check revolve 10 8 10 "-B 8" "mem:%s:w=1:r=1"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
