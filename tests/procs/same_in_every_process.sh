#!/usr/bin/env bash
# Slot costs are computed, never probed: the probe prints the same slot
# costs, capacities and plan fingerprints in every process, whatever it
# allocated before (--churn), whatever glibc's mmap threshold is set to,
# and whether the process's allocator is glibc's or jemalloc.
# usage: same_in_every_process.sh PROBE [JEMALLOC_SO]
set -u
probe=$1
jemalloc=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # name, then the command
  local name=$1; shift
  "$@" >"$tmp/$name" 2>&1 || { echo "FAIL $name: exit $?"; cat "$tmp/$name"; exit 1; }
}
run plain "$probe"
run churn "$probe" --churn
run threshold env MALLOC_MMAP_THRESHOLD_=4096 "$probe"
run threshold_churn env MALLOC_MMAP_THRESHOLD_=1000000 "$probe" --churn
names=(churn threshold threshold_churn)
if [ -n "$jemalloc" ] && [ -e "$jemalloc" ]; then
  run jemalloc env LD_PRELOAD="$jemalloc" "$probe"
  run jemalloc_churn env LD_PRELOAD="$jemalloc" "$probe" --churn
  names+=(jemalloc jemalloc_churn)
  # The preload must really have happened for the comparison to mean it.
  env LD_PRELOAD="$jemalloc" MALLOC_CONF=stats_print:true "$probe" 2>&1 |
    grep -q "jemalloc statistics" ||
    { echo "FAIL: jemalloc was not the allocator of the preloaded run"; exit 1; }
fi
fail=0
for n in "${names[@]}"; do
  if ! cmp -s "$tmp/plain" "$tmp/$n"; then
    echo "FAIL: $n differs from plain:"; diff "$tmp/plain" "$tmp/$n"; fail=1
  fi
done
[ "$(wc -l <"$tmp/plain")" -ge 18 ] || { echo "FAIL: short output"; fail=1; }
echo "$((${#names[@]} + 1)) processes agree:"
cat "$tmp/plain"
exit $fail
