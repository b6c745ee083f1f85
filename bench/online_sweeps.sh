#!/usr/bin/env bash
# Online plans of several sweeps (docs/model.md, "Several reverse sweeps"):
# the online plan with S slots and K sweeps, the end told at N (`uturn
# stats online --steps N`), against revolve's plan of K sweeps made knowing
# N, and against K separate runs of the online plan of one sweep (what a
# code without persistent checkpoints would do). Counts, not times.
# usage: bench/online_sweeps.sh UTURN_BINARY
set -euo pipefail
uturn=$1
field() { sed -n "s/^$1 *//p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
echo "| n | slots | K | online, K sweeps | revolve, K sweeps (n known) | online / revolve | K online runs of one sweep | online / K runs |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for n in 1000 10000; do
  for s in 10 30 100; do
    one=$("$uturn" stats online --steps $n --slots $s | field forward_steps)
    for k in 2 5 10; do
      on=$("$uturn" stats online --steps $n --slots $s --sweeps $k |
        field forward_steps)
      rv=$("$uturn" stats revolve --steps $n --slots $s --sweeps $k |
        field forward_steps)
      printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' $n $s $k "$on" \
        "$rv" "$(ratio "$on" "$rv")" $((k * one)) \
        "$(ratio "$on" $((k * one)))"
    done
  done
done
