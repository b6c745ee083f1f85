#!/usr/bin/env bash
# uturn budget against brute force. For small chains every capacity from
# 1 up to the most a plan can use is planned with `uturn stats`, and the
# least budget that meets a bound is found by looking at each capacity in
# turn, with no assumption that a bound once met stays met. `uturn budget`
# must give exactly that budget, print exactly what `uturn stats` prints at
# it (with --levels, budget_bytes is memory's), and exit 2 when no capacity
# meets the bound. Bounds: recompute factors (compared exactly, in
# hundredths), every cost and every factor (rounded up to hundredths) the
# table holds, and one below each; of bounds that hold at exactly the same
# capacities only the first is asked (below).
# Each uturn call is a process of its own, slow to start under the
# sanitizers (about 13 ms with ASan and LeakSanitizer, 3 ms in a plain
# build), so nothing else here starts one: no sed, no subshell but the
# uturn call's.
# usage: budget_brute.sh UTURN_BINARY
set -u
uturn=$1
here=$(cd "$(dirname "$0")" && pwd)
cases=$here/cases
pass=0 fail=0 calls=0

# run ARGS...: out=the JSON uturn prints (dp's planning_seconds, which
# varies from run to run, masked as "*"), code=its exit status.
mask_re='("planning_seconds": )[0-9]+\.[0-9]+'
run() {
  out=$("$uturn" "$@" -j 2>/dev/null)
  code=$?
  calls=$((calls + 1))
  if [[ $out =~ $mask_re ]]; then
    out=${out/"${BASH_REMATCH[0]}"/"${BASH_REMATCH[1]}*"}
  fi
}

# stats_at C: table[C], forward[C], cost[C]: what `uturn stats` prints at
# capacity C (units of $unit), empty when it refuses. Uses $planner, $n,
# $common, $levels_of.
stats_at() {
  local c=$1 bytes=$(($1 * unit)) levels
  if [ -n "$levels_of" ]; then
    # shellcheck disable=SC2059 # the format is the caller's
    printf -v levels "$levels_of" "$c"
    run stats "$planner" -n "$n" $common -l "$levels"
    out=${out/\"budget_bytes\": 0/\"budget_bytes\": $bytes}
  else
    run stats "$planner" -n "$n" $common -b "$bytes"
  fi
  table[c]=$out forward[c]="" cost[c]=""
  [[ $out =~ \"forward_steps\":\ ([0-9]+) ]] && forward[c]=${BASH_REMATCH[1]}
  [[ $out =~ \"cost\":\ ([0-9]+) ]] && cost[c]=${BASH_REMATCH[1]}
}

# check PLANNER N UNIT HI "COMMON ARGS" LEVELS_FORMAT
# (LEVELS_FORMAT: a printf format for --levels of stats with %s the memory
# capacity in slots, or empty; then budget gets it with memory left open)
check() {
  planner=$1 n=$2 unit=$3 hi=$4 common=$5 levels_of=${6:-}
  local -a table forward cost
  local c
  for ((c = 1; c <= hi; c++)); do
    stats_at "$c"
  done
  local budget_levels=() mem
  if [ -n "$levels_of" ]; then
    # shellcheck disable=SC2059
    printf -v mem "$levels_of" ""
    budget_levels=(-l "${mem/#mem:/mem}")
  fi
  # Each capacity's cost and factor (up to hundredths) met with nothing to
  # spare, then one below each, then six fixed factors.
  local bounds=() below=() f
  for ((c = 1; c <= hi; c++)); do
    [ -z "${cost[c]}" ] && continue
    f=$(((forward[c] * 100 + n - 1) / n)) # its factor, up to hundredths
    bounds+=("C ${cost[c]}" "F $f")
    below+=("C $((cost[c] - 1))")
    ((f > 100)) && below+=("F $((f - 1))") # below 1 is refused (exit 1)
  done
  bounds+=("${below[@]}" "F 100" "F 101" "F 150" "F 200" "F 300" "F 1000")
  # Two bounds that hold at exactly the same capacities are one question to
  # any search that decides by comparing the bound with capacities' counts
  # (gallop and bisection, a scan one by one, a bisection wrongly forced on
  # hrevolve alike): only the first is asked, which is met with nothing to
  # spare where a capacity's count equals a bound. Where the count never
  # rises with the capacity that leaves one bound per answer; where it
  # rises (hrevolve's forward steps) more.
  local -A asked=()
  local bound kind value want holds arg factor
  for bound in "${bounds[@]}"; do
    kind=${bound%% *} value=${bound#* }
    want="" holds=""
    for ((c = 1; c <= hi; c++)); do
      if [ -z "${forward[c]}" ]; then
        holds+=-
        continue
      fi
      if { [ "$kind" = F ] && ((forward[c] * 100 <= value * n)); } ||
        { [ "$kind" = C ] && ((cost[c] <= value)); }; then
        holds+=1 want=${want:-$c}
      else
        holds+=0
      fi
    done
    [ -n "${asked[$kind $holds]:-}" ] && continue
    asked[$kind $holds]=1
    if [ "$kind" = F ]; then
      printf -v factor '%d.%02d' $((value / 100)) $((value % 100))
      arg=(-F "$factor")
    else
      arg=(--cost "$value")
    fi
    run budget "$planner" -n "$n" $common "${budget_levels[@]}" "${arg[@]}"
    if [ -z "$want" ]; then
      if [ $code -eq 2 ] && [ -z "$out" ]; then pass=$((pass + 1)); else
        echo "FAIL $planner n=$n $common ${arg[*]}: want exit 2, got $code: $out"
        fail=$((fail + 1))
      fi
    elif [ $code -eq 0 ] && [ "$out" = "${table[want]}" ]; then
      pass=$((pass + 1))
    else
      echo "FAIL $planner n=$n $common ${arg[*]}: want $((want * unit)) bytes"
      echo "  stats:  ${table[want]}"
      echo "  budget: $out (exit $code)"
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
echo "$pass passed, $fail failed ($calls uturn calls)"
[ $fail -eq 0 ]
