#!/usr/bin/env bash
# dp at the sizes real chains have (issue 12): the figures of the
# "dp at the sizes real chains have" section of bench/RESULTS.md, printed
# to standard output; `bench/run.sh dp_scale` keeps them in
# bench/results/dp_scale.txt. It takes half an hour or more, and the
# machine is shared, so every heavy run is niced and repeated (median and
# range are reported).
#   bench/dp_scale.sh [REPEATS [quick]]  (default 3)
# quick: only the figures RESULTS.md needs (the shipped code's work at
# n = 500, then the timings, the n = 1000 runs last), for a loaded machine.
# Builds Release in build-bench/ (as bench/run.sh does) and the code before
# the issue (commit b2ed60a) in build-bench-old/, for the "before" column.
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
quick=${2:-}
build=build-bench
old=build-bench-old
cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DUTURN_BUILD_TESTS=OFF \
  -DUTURN_BUILD_EXAMPLES=OFF -DUTURN_BENCH_DP_IDEAS=ON >/dev/null
cmake --build $build -j"${JOBS:-2}" >/dev/null

# The code before this issue, with a driver for the same chains (the old
# bench_dp used a fixed 1000-byte budget).
if [ ! -x $old/driver ]; then
  rm -rf $old && mkdir -p $old/src
  git archive b2ed60a | tar -x -C $old/src
  cmake -S $old/src -B $old -DCMAKE_BUILD_TYPE=Release -DUTURN_BUILD_TESTS=OFF \
    -DUTURN_BUILD_EXAMPLES=OFF -DUTURN_BUILD_BENCH=OFF -DUTURN_INSTALL=OFF >/dev/null
  cmake --build $old -j"${JOBS:-2}" --target uturn_static >/dev/null
  cat >$old/driver.c <<'C'
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <uturn.h>
static unsigned long long next_random(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
int main(int argc, char **argv)
{
    const uint64_t n = strtoull(argv[1], NULL, 10);
    uint64_t *b = malloc(n * 8), *c = malloc(n * 8), all = 0;
    unsigned long long seed = 0;
    for (uint64_t i = 0; i < n; i++) {
        b[i] = 1 + next_random(&seed) % 8;
        c[i] = 1 + next_random(&seed) % 10;
        all += b[i];
    }
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_DP;
    p.steps = n;
    p.slot_bytes = 8;
    p.budget_bytes = argc > 2 ? strtoull(argv[2], NULL, 10) : all / 2;
    p.step_bytes = argc > 2 ? NULL : b;
    p.step_costs = argc > 2 ? NULL : c;
    p.unit_bytes = argc > 2 ? 0 : 1; /* the generous case: automatic unit */
    if (argc > 2)
        p.slot_bytes = 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    int rc = uturn_plan_create(&p, NULL, &plan, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    printf("before     n=%llu  seconds %.3f  cost %llu%s%s\n",
           (unsigned long long)n,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
           (unsigned long long)s.forward_cost, rc ? "  " : "", rc ? err.message : "");
    return 0;
}
C
  cc -O2 -I$old/src/include -I$old/include $old/driver.c $old/libuturn.a -lm \
    -o $old/driver
fi

# A control for the thread figures: the same fixed CPU work on 1 and 2
# threads. On a shared machine the second core is not always there.
if [ ! -x $old/spin ]; then
  cat >$old/spin.c <<'C'
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static void *work(void *n)
{
    volatile unsigned long x = 0;
    for (unsigned long i = 0; i < (unsigned long)n; i++)
        x += i * i;
    return NULL;
}
int main(int argc, char **argv)
{
    const int t = atoi(argv[1]);
    pthread_t id[2];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < t; i++)
        pthread_create(&id[i], NULL, work, (void *)(2000000000ul / t));
    for (int i = 0; i < t; i++)
        pthread_join(id[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("control: fixed CPU work on %d thread(s): %.2f s\n", t,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return 0;
}
C
  cc -O1 -pthread $old/spin.c -o $old/spin
fi

run() { echo "\$ $*"; nice "$@"; }
control() { run $old/spin 1; run $old/spin 2; uptime; }
ideas() { # N REPEATS VARIANTS...
  local n=$1 r=$2; shift 2
  for v in "$@"; do run $build/bench/dp_ideas_$v "$n" "$r"; done
}
before() { echo "== before this issue (commit b2ed60a), same chains"
  for n in "$@"; do run $old/driver "$n"; done; }
exact_small() { echo "== exact, unit 1 byte, half of store-all"
  control
  run $build/bench/bench_dp exact "$repeats" 1 200 500
  run $build/bench/bench_dp exact "$repeats" 2 200 500; }
exact_big() { echo "== exact, n = 1000 (table limit raised), $1 thread(s)"
  control
  run $build/bench/bench_dp exact 1 "$1" 1000; }
approx() { echo "== approximate, n = 10,000"
  control
  run $build/bench/bench_dp approx "$repeats" 1 10000
  run $build/bench/bench_dp approx "$repeats" 2 10000; }
quality() { echo "== approximate against exact, 20 chains of 300 steps"
  run $build/bench/bench_dp quality 20 300; }
generous() { echo "== generous budget and absurd step counts"
  run $build/bench/bench_dp generous
  echo "   before this issue: 200 one-byte states, 1 MiB"
  run $old/driver 200 1048576; }
{
  control
  if [ "$quick" = quick ]; then
    echo "== quick: the required figures, shortest first; the work of the"
    echo "   shipped code at n = 500 (the counts are exact)"
    ideas 500 1 bounds
    approx; quality; generous; exact_small; before 200 300
    exact_big 1; exact_big 2
  else
    echo "== work and time of each speed-up, n = 500 (one run each: the counts"
    echo "   are exact; plain and clip take minutes)"
    ideas 500 1 plain clip adesc tiles bounds
    echo "== the same at n = 300, $repeats runs each"
    ideas 300 "$repeats" plain clip adesc tiles bounds
    run $build/bench/dp_ideas_bounds 300 "$repeats" 2
    before 200 300 500; exact_small; exact_big 1; exact_big 2
    approx; quality; generous
  fi
  control
} 2>&1
