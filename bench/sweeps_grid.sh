#!/usr/bin/env bash
# Several reverse sweeps: uturn's plan (revolve --sweeps K with RAM + disk
# slots) against checkpoint_schedules' TwoLevelCheckpointSchedule with the
# same RAM and disk slots, on the grid of the issue: n = 1,000 and 10,000;
# RAM 5, 10, 20; disk 10, 20, 50; K = 1, 2, 5, 10, and an open number of
# sweeps (each further sweep against one of TwoLevel's). Counts, not times.
#
# TwoLevel in uturn's count (docs/model.md, "Several reverse sweeps"): its
# first forward runs all n + 1 of its steps, a disk checkpoint every
# P = ceil((n + 1) / disk) states, and every sweep reverses each period
# of L states by revolve with RAM + 1 snapshots, t(L, RAM + 1) forward
# steps, which is what `uturn stats revolve --steps L-1 --slots RAM+1`
# reports. So TwoLevel = n + 1 + K * sum over periods of t(L, RAM + 1).
# usage: bench/sweeps_grid.sh UTURN_BINARY
set -euo pipefail
uturn=$1
field() { sed -n "s/^$1 *//p"; }
t() { # states slots: revolve's forward steps for states - 1 steps
  if [ "$1" -le 1 ]; then echo 0; return; fi
  "$uturn" stats revolve --steps $(($1 - 1)) --slots "$2" | field forward_steps
}
twolevel_sweep() { # n ram disk: one sweep's forward steps
  local n=$1 ram=$2 disk=$3 P a sum=0 L
  P=$(((n + 1 + disk - 1) / disk))
  for ((a = 0; a < n + 1; a += P)); do
    L=$((a + P <= n + 1 ? P : n + 1 - a))
    sum=$((sum + $(t "$L" $((ram + 1)))))
  done
  echo "$sum"
}
echo "| n | RAM + disk | K | TwoLevel | uturn | uturn / TwoLevel | persistent |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for n in 1000 10000; do
  for ram in 5 10 20; do
    for disk in 10 20 50; do
      sweep=$(twolevel_sweep $n $ram $disk)
      # unbounded: each further sweep against one of TwoLevel's sweeps
      out=$("$uturn" stats revolve --steps $n --slots $((ram + disk)) \
        --sweeps unbounded)
      ours=$(field sweep_forward_steps <<<"$out")
      printf '| %s | %s + %s | unbounded, per further sweep | %s | %s | %s | %s |\n' \
        $n $ram $disk "$sweep" "$ours" \
        "$(awk -v a="$ours" -v b="$sweep" 'BEGIN {printf "%.3f", a / b}')" \
        "$(field persistent <<<"$out")"
      for k in 1 2 5 10; do
        theirs=$((n + 1 + k * sweep))
        out=$("$uturn" stats revolve --steps $n --slots $((ram + disk)) \
          --sweeps $k)
        ours=$(field forward_steps <<<"$out")
        kept=$(field persistent <<<"$out")
        printf '| %s | %s + %s | %s | %s | %s | %s | %s |\n' $n $ram $disk \
          $k "$theirs" "$ours" \
          "$(awk -v a="$ours" -v b="$theirs" 'BEGIN {printf "%.3f", a / b}')" \
          "${kept:-1}"
      done
    done
  done
done
