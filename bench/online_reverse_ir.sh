#!/usr/bin/env bash
# Instructions per action of an online plan's reversal against revolve's
# whole plan for the same n and s, counted by callgrind in the reads alone
# (bench_online_reverse ir; --toggle-collect=measured_reads). A count of
# instructions is the same on an idle machine and a loaded one, so it
# settles what the timings (bench_online_reverse time) leave in their
# noise; it does not see cache misses or mispredicted branches, which the
# timings do.
#   bench/online_reverse_ir.sh BENCH_ONLINE_REVERSE
set -euo pipefail
bin=${1:?usage: online_reverse_ir.sh BENCH_ONLINE_REVERSE}
command -v valgrind >/dev/null ||
  { echo "online_reverse_ir.sh: valgrind is missing (scripts/install-deps)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions and actions of one run: "IR ACTIONS".
count() {
  local out=$tmp/cg.out actions
  actions=$(valgrind --tool=callgrind --toggle-collect=measured_reads \
    --callgrind-out-file="$out" "$bin" ir "$@" 2>/dev/null | awk '{print $2}')
  echo "$(awk '/^summary:/ {print $2}' "$out") $actions"
}

echo "| s | n | online reversal: instructions / actions | per action | revolve's plan: instructions / actions | per action | online / revolve |"
echo "|---|---|---|---|---|---|---|"
for c in "5 1000000" "20 1000000" "256 1000000" "1000 10000000" "100000 10000000"; do
  set -- $c
  read -r oi oa < <(count online "$1" "$2")
  read -r ri ra < <(count revolve "$1" "$2")
  awk -v s="$1" -v n="$2" -v oi="$oi" -v oa="$oa" -v ri="$ri" -v ra="$ra" 'BEGIN {
    printf "| %s | %s | %d / %d | %.2f | %d / %d | %.2f | %.3f |\n",
      s, n, oi, oa, oi / oa, ri, ra, ri / ra, (oi / oa) / (ri / ra) }'
done
