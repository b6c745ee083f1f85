#!/usr/bin/env bash
# Several sweeps on two storage levels (memory, then a disk level with
# write and read costs w = r): the plan's whole cost (forward steps plus
# every write and read) against the same sweeps on memory alone, and,
# with free I/O, its forward steps against the plan of one level holding
# all the slots. Counts, not times. An optional second binary (an older
# build) adds its cost as a column, for a before-and-after comparison.
# usage: bench/sweeps_levels.sh UTURN_BINARY [OLDER_UTURN_BINARY]
set -euo pipefail
uturn=$1
older=${2:-}
field() { awk -v k="$1" '$1 == k {print $2}'; }
levels() { # n ram disk io k [binary]
  "${6:-$uturn}" stats revolve --steps "$1" --sweeps "$5" \
    --levels "mem:$2,disk:$3:w=$4:r=$4"
}
head='| n | RAM + disk | w = r | K | cost | on memory alone | / memory alone |'
rule='| --- | --- | --- | --- | --- | --- | --- |'
if [ -n "$older" ]; then
  head="$head older build | / older |"
  rule="$rule --- | --- |"
fi
echo "$head"
echo "$rule"
for n in 1000 10000; do
  for ram in 5 10 20; do
    for disk in 10 20 50; do
      for io in 1 4; do
        for k in 2 10; do
          ours=$(levels $n $ram $disk $io $k | field cost)
          mem=$("$uturn" stats revolve --steps $n --slots $ram --sweeps $k |
            field cost)
          row="| $n | $ram + $disk | $io | $k | $ours | $mem | $(awk -v a="$ours" -v b="$mem" 'BEGIN {printf "%.3f", a / b}') |"
          if [ -n "$older" ]; then
            old=$(levels $n $ram $disk $io $k "$older" | field cost)
            row="$row $old | $(awk -v a="$ours" -v b="$old" 'BEGIN {printf "%.3f", a / b}') |"
          fi
          echo "$row"
        done
      done
    done
  done
done
