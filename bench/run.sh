#!/usr/bin/env bash
# The benchmark harness: builds Release, runs the C micro-benchmarks
# (revolve plan generation, executor overhead and copy throughput) and
# hyperfine on whole `uturn sweep --run` commands (each planner at a few
# budgets on the Burgers model, side by side), then regenerates
# bench/RESULTS.md with the machine description and the exact commands.
# Figures are ratios measured side by side in one run: the machines here
# are shared and noisy. Never a test, never a CI gate.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps >/dev/null
build=build-bench
cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DUTURN_BUILD_TESTS=OFF \
  -DUTURN_BUILD_EXAMPLES=OFF >/dev/null
cmake --build $build -j"$(nproc)" >/dev/null
out=bench/out
mkdir -p $out
uturn=$build/tools/uturn

echo "== revolve plan generation (static, then shared library)"
{ echo "static libuturn.a:"; $build/bench/bench_revolve
  echo "shared libuturn.so:"; $build/bench/bench_revolve_shared; } | tee $out/revolve.txt
if [ -x $build/bench/bench_executor ]; then
  echo "== executor"
  $build/bench/bench_executor | tee $out/executor.txt
fi

echo "== dp: plan creation time, and how much nesting costs"
$build/bench/bench_dp exact 1 1 100 200 500 | tee $out/dp.txt
$build/bench/dp_search | tee $out/dp_search.txt

echo "== hrevolve: plan creation time over memory and disk"
{ echo "# load average at start: $(cut -d" " -f1-3 /proc/loadavg)"; $build/bench/bench_hrevolve 3; } | tee $out/hrevolve.txt

echo "== online with levels (periodic disk) against hrevolve for the realised n"
$build/bench/bench_online_disk | tee $out/online_disk.txt

echo "== storage levels: hrevolve's costs, and overlapped I/O"
bench/levels_costs.sh $uturn | tee $out/levels_costs.txt
for i in 1 2 3; do
  echo "# run $i, load average at start: $(cut -d" " -f1 /proc/loadavg)"
  $build/bench/bench_levels 7
done | tee $out/levels.txt

echo "== online: ratios to the offline optimum, decision cost, sizes vs dp"
{ $build/bench/bench_online ratios 2 3 4 5 10 20
  $build/bench/bench_online ratios 50 | tail -n +3; } | tee $out/online_ratios.txt
$build/bench/bench_online decide | tee $out/online_decide.txt
$build/bench/bench_online bytes | tee $out/online_bytes.txt

echo "== hyperfine: uturn sweep --run, one planner and budget per command"
# Burgers, 4096 points x 2000 steps: a state is 32 KiB, store-all 62.5 MiB
# (large enough that the runs, not process start-up, are what is timed).
hyperfine --warmup 3 --runs 10 --style basic \
  --export-json $out/planners.json --export-markdown $out/planners.md \
  -L planner store-all,periodic,sqrt,revolve -L budget 2MiB,8MiB,64MiB \
  "$uturn sweep --run --grid 4096 --planners {planner} --budgets {budget} --format csv" \
  | tee $out/hyperfine.txt

# The dp-at-scale section comes from bench/dp_scale.sh, run by hand (it
# takes half an hour or more): write-results.sh picks up its
# bench/out/dp_scale.txt when it is there.
bench/write-results.sh "$build" > bench/RESULTS.md
echo "bench/RESULTS.md regenerated"
