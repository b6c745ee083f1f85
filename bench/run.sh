#!/usr/bin/env bash
# The benchmark harness. Each part runs its benchmarks and writes their raw
# output to bench/results/PART.txt (committed): the commands as `$ ...`
# lines, each framed by `uptime`, under a header of `#| key: value` lines
# giving the date, the commit, the machine and the load average before and
# after. Then bench/write_results.py writes the whole of bench/RESULTS.md
# from the files in bench/results/, rerunning nothing.
#
#   bench/run.sh              every part below, in order (an hour or more:
#                             dp_scale is the long one)
#   bench/run.sh PART...      those parts only, then RESULTS.md
#   bench/run.sh --list       the parts, and the raw files moved in by hand
#                             from earlier runs
#   bench/run.sh --write      RESULTS.md alone, from bench/results/
#
# A part that fails leaves its earlier file as it was. Figures are ratios
# measured side by side in one run: the machine is shared and noisy, so
# read each with the load beside it. Never a test, never a CI gate.
# Environment: JOBS (build parallelism, default 2), EXECUTOR_RUNS (outputs
# of bench_executor in the executor part, default 9), DP_SCALE_ARGS
# (default "2 quick"), NOTE (a line kept in the raw file's header and shown
# under its section in RESULTS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
build="build-bench"
results=bench/results
out=bench/out # scratch, not committed
uturn=$build/tools/uturn

# The parts, in the order they run (bench/write_results.py orders the
# sections). Adding one: a part_NAME function here, its name in this list,
# and a section function in bench/write_results.py (see bench/README.md).
parts=(revolve executor dp_exact dp_approx dp_search hrevolve levels_costs
  levels_io online_ratios online_decide online_reverse online_reverse_ir
  online_bytes
  online_wide online_disk planners sweeps sweeps_bound sweeps_remake
  sweeps_exact sweeps_levels
  online_sweeps durable petsc dp_scale)

part_revolve() {
  run $build/bench/bench_revolve
  run $build/bench/bench_revolve_shared
}

part_executor() {
  local files=() i
  for i in $(seq "${EXECUTOR_RUNS:-9}"); do
    run_to "$out/executor-$i.txt" $build/bench/bench_executor
    files+=("$out/executor-$i.txt")
  done
  run bench/executor_targets.py "${files[@]}"
}

part_dp_exact() {
  run $build/bench/bench_dp exact 3 1 200 500
  run $build/bench/bench_dp exact 3 2 200 500
  run $build/bench/bench_dp exact 3 1 1000
  run $build/bench/bench_dp exact 1 2 1000
}

part_dp_approx() {
  run $build/bench/bench_dp approx 3 1 10000
  run $build/bench/bench_dp quality 20 300
}

part_dp_search() { run $build/bench/dp_search; }

part_hrevolve() { run $build/bench/bench_hrevolve 3; }

part_levels_costs() { run bench/levels_costs.sh $uturn; }

# Several sweeps against TwoLevelCheckpointSchedule: counts (seconds).
part_sweeps() { run bench/sweeps_grid.sh $uturn; }

# How far any plan of several sweeps could go on the same grid: lower
# bounds beside uturn's plan and TwoLevel (counts, a few seconds).
part_sweeps_bound() { run $build/bench/sweeps_bound; }

# What freeing a persistent checkpoint and making it again could buy in
# the sweeps between the first and the last (counts, a few seconds).
part_sweeps_remake() { run $build/bench/sweeps_remake; }

# The true optimum of several sweeps, by search over every action
# sequence, beside uturn's plan on short chains (counts, about 50 min).
part_sweeps_exact() { run $build/bench/sweeps_exact; }

# Several sweeps on two storage levels with I/O costs, against memory
# alone; UTURN_OLDER (an older build's uturn) adds its costs as a column
# (counts, about 15 s).
part_sweeps_levels() {
  # shellcheck disable=SC2086 # empty when unset
  run bench/sweeps_levels.sh $uturn ${UTURN_OLDER:-}
}

# Online plans of several sweeps against revolve knowing n and against
# reruns (counts, a second).
part_online_sweeps() { run bench/online_sweeps.sh $uturn; }

part_levels_io() {
  local i
  for i in 1 2 3; do run $build/bench/bench_levels 7; done
}

# The default list of s, 2 to 10^5, n to 10^7 (about 20 s here).
part_online_ratios() { run $build/bench/bench_online ratios; }

part_online_decide() { run $build/bench/bench_online decide; }

# Three runs (each seven interleaved pairs): the spread between runs is
# the noise. Then the cases of n = 10^6 in 101 pairs each (a few seconds
# each), which settle a difference of a percent or two. The same cases
# counted in instructions (callgrind, about two minutes), which the
# machine's load does not change, are the next part.
part_online_reverse() {
  local i s
  for i in 1 2 3; do run $build/bench/bench_online_reverse time; done
  for s in 5 20 256; do
    run $build/bench/bench_online_reverse time $s 1000000 101
  done
}

part_online_reverse_ir() {
  run bench/online_reverse_ir.sh $build/bench/bench_online_reverse
}

part_online_bytes() { run $build/bench/bench_online bytes; }

# Byte budgets of 10^3 to 10^5 states, sizes alike or growing (about a
# minute).
part_online_wide() { run $build/bench/bench_online wide; }

part_online_disk() { run $build/bench/bench_online_disk; }

# Durable runs killed with SIGKILL at 100 random points per configuration
# and resumed in a new process (counts); then the MPI ring chain on 2 and 4
# ranks, 100 kills each, every one resumed in a new job (about 10 minutes).
part_durable() {
  run $build/bench/bench_durable 100
  [ -x $build/bench/bench_mpi_durable ] || {
    echo "bench/run.sh: no $build/bench/bench_mpi_durable (the MPI layer)" >&2
    return 1
  }
  local np
  for np in 2 4; do
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      OMPI_MCA_mpi_yield_when_idle=1 \
      run bash tests/mpi/durable_kills.sh 100 ${np}4242 \
      mpiexec -n $np --oversubscribe $build/bench/bench_mpi_durable
  done
}

# Burgers, 4096 points x 2000 steps: a state is 32 KiB, store-all 62.5 MiB
# (large enough that the runs, not process start-up, are what is timed).
part_planners() {
  run hyperfine --warmup 3 --runs 10 --style basic \
    --export-markdown $out/planners.md \
    -L planner store-all,periodic,sqrt,revolve -L budget 2MiB,8MiB,64MiB \
    "$uturn sweep --run --grid 4096 --planners {planner} --budgets {budget} --format csv"
  echo "#| block: markdown"
  cat $out/planners.md
}

# PETSc's TSAdjoint on Gray-Scott, 64 x 64, RK4, 200 steps: the memory
# trajectory against uturn's, 9 round-robin repeats, five runs (about 3
# minutes; a run's times move by a quarter from one run to the next here,
# so the summary takes the median run). Needs the PETSc layer (built when
# PETSc is found).
part_petsc() {
  [ -x $build/bench/petsc_bench ] || {
    echo "bench/run.sh: no $build/bench/petsc_bench (the PETSc layer is" \
      "not built: petsc-dev and the MPI layer)" >&2
    return 1
  }
  local i
  for i in 1 2 3 4 5; do
    run $build/bench/petsc_bench -bench_grid 64 -bench_repeat 9 \
      -bench_percent 2
  done
}

# bench/dp_scale.sh prints its own commands and load lines.
part_dp_scale() {
  # shellcheck disable=SC2086 # two words by default
  bench/dp_scale.sh ${DP_SCALE_ARGS:-2 quick}
}

# --- plumbing -------------------------------------------------------------

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# The command line as typed: words with blanks in double quotes.
line() {
  local a out=""
  for a; do
    case $a in
    *[[:space:]]*) out+=" \"$a\"" ;;
    *) out+=" $a" ;;
    esac
  done
  echo "\$$out"
}

# One command: its line, then its output, framed by uptime.
run() {
  uptime
  line "$@"
  nice "$@"
  uptime
}

# As run, keeping a copy of the output in FILE as well.
run_to() {
  local file=$1
  shift
  uptime
  line "$@"
  nice "$@" | tee "$file"
  uptime
}

# HEAD, and the files changed since that the figures can depend on.
commit() {
  local head changed others
  local figures='^(src|schedules|include|tools|bench|cmake|mpi|petsc|tests/petsc)/|^CMakeLists.txt$'
  head=$(git rev-parse --short HEAD 2>/dev/null) || {
    echo unknown
    return
  }
  # The path, or a rename's new path ($NF); none when the tree is clean
  # (grep -c would count the empty line). Outputs are not inputs: the raw
  # files an earlier part of the same run rewrote, and RESULTS.md.
  changed=$(git --no-optional-locks status --porcelain --untracked-files=no |
    awk '{print $NF}' | grep -vE '^bench/(results/|RESULTS\.md$)' || true)
  [ -n "$changed" ] || {
    echo "$head"
    return
  }
  others=$(grep -cvE "$figures" <<<"$changed" || true)
  changed=$(grep -E "$figures" <<<"$changed" | tr '\n' ' ' || true)
  changed=${changed% }
  echo -n "$head, with uncommitted changes to ${changed:-no file}"
  [ "${others:-0}" -eq 0 ] || echo -n " (and $others other files outside" \
    "src, schedules, include, tools, bench, cmake, mpi, petsc, tests/petsc)"
  echo
}

machine() {
  local cpu
  cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
  echo "$cpu, $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB," \
    "$(uname -sr), $(gcc --version | head -1)"
}

# Run part $1 into bench/results/$1.txt; if it fails, keep the old file
# and add the part to $failed.
record() {
  local part=$1 tmp status
  tmp=$(mktemp)
  echo "== $part"
  set +e
  (
    set -e
    echo "#| part: $part"
    echo "#| date: $(date -u '+%Y-%m-%d %H:%M') UTC"
    echo "#| commit: $(commit)"
    echo "#| machine: $(machine)"
    echo "#| build: $build, Release (jemalloc linked into the programs when found)"
    [ -z "${NOTE:-}" ] || echo "#| note: $NOTE"
    echo "#| load before: $(loadavg)"
    "part_$part"
    echo "#| load after: $(loadavg)"
  ) 2>&1 | tee "$tmp"
  status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    rm -f "$tmp"
    echo "bench/run.sh: part $part failed; $results/$part.txt left as it was" >&2
    failed+=("$part")
    return 0
  fi
  chmod 644 "$tmp" # mktemp's file is private
  mv "$tmp" $results/"$part".txt
}

configure_and_build() {
  scripts/install-deps >/dev/null
  cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DUTURN_BUILD_TESTS=OFF \
    -DUTURN_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build $build -j"${JOBS:-2}" >/dev/null
}

write() {
  python3 bench/write_results.py bench/RESULTS.md
  echo "bench/RESULTS.md written from $results/"
}

known() {
  local p
  for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done
  return 1
}

case "${1:-}" in
--list)
  echo "parts: ${parts[*]}"
  python3 bench/write_results.py --recorded
  exit 0
  ;;
--write)
  write
  exit 0
  ;;
esac
todo=("$@")
[ $# -gt 0 ] || todo=("${parts[@]}")
for p in "${todo[@]}"; do
  known "$p" || {
    echo "bench/run.sh: no part '$p' (bench/run.sh --list)" >&2
    exit 1
  }
done
mkdir -p $out $results
configure_and_build
failed=()
for p in "${todo[@]}"; do record "$p"; done # not under ||: set -e must hold
write
[ ${#failed[@]} -eq 0 ] || {
  echo "bench/run.sh: failed: ${failed[*]}" >&2
  exit 1
}
