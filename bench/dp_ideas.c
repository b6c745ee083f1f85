/*
 * What each of dp's speed-ups gives, counted (min-plus updates, table
 * bytes) and timed. A bench build: this program is linked against copies
 * of the library compiled with one speed-up after another turned off
 * (bench/CMakeLists.txt, macros UTURN_DP_BENCH_*), and reads the work
 * counters of the plan through schedules/dp.h, which is why it is not a
 * black-box program like the others here.
 *
 * The chain is the issue's: random sizes 1..8 bytes and costs 1..10
 * (fixed seed n), budget half of store-all's need, unit 1 byte.
 * usage: dp_ideas_VARIANT N [REPEATS [THREADS]]
 */
#define _POSIX_C_SOURCE 200809L
#include "dp.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* dp's exact problem on a random chain of n steps (sizes 1 to 8, costs 1
 * to 10, half the bytes of every state as the budget). */
static void make_problem(uturn_problem_t *p, uint64_t n, uint64_t thr,
                         uint64_t *bytes, uint64_t *costs)
{
    uint64_t rng = n, all = 0;
    for (uint64_t i = 0; i < n; i++) {
        bytes[i] = 1 + next_random(&rng) % 8;
        costs[i] = 1 + next_random(&rng) % 10;
        all += bytes[i];
    }
    uturn_problem_init(p);
    p->planner      = UTURN_PLANNER_DP;
    p->steps        = n;
    p->slot_bytes   = 8;
    p->budget_bytes = all / 2;
    p->step_bytes   = bytes;
    p->step_costs   = costs;
    p->unit_bytes   = 1;
    p->threads      = thr;
    p->dp_mode      = UTURN_DP_EXACT;
    p->table_bytes  = (uint64_t)64 << 30;
}

int main(int argc, char **argv)
{
    const uint64_t n   = argc > 1 ? strtoull(argv[1], NULL, 10) : 500;
    const int repeats  = argc > 2 ? atoi(argv[2]) : 1;
    const uint64_t thr = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    uint64_t *bytes = malloc(n * sizeof *bytes), *costs = malloc(n * 8);
    double *seconds = malloc((size_t)repeats * sizeof *seconds);
    if (bytes == NULL || costs == NULL || seconds == NULL || repeats < 1)
        return 2;
    uturn_problem_t p;
    make_problem(&p, n, thr, bytes, costs);
    struct uturn__dp_work work = {0};
    uint64_t cost = 0, M = 0;
    for (int r = 0; r < repeats; r++) {
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        uturn_error_init(&err);
        const double start = now();
        if (uturn_plan_create(&p, NULL, &plan, &err) != UTURN_OK) {
            fprintf(stderr, "dp_ideas: %s\n", err.message);
            return 1;
        }
        seconds[r]                 = now() - start;
        const struct uturn__dp *dp = plan->data;
        work                       = dp->work;
        M                          = dp->top.m;
        uturn_stats_t s;
        uturn_stats_init(&s);
        uturn_plan_stats(plan, &s);
        cost = s.forward_cost;
        uturn_plan_free(plan);
    }
    qsort(seconds, (size_t)repeats, sizeof *seconds, by_value);
    const double full = (double)n * (double)n * (double)n * (double)M / 6;
    printf("%-10s n=%llu M=%llu threads=%llu cost=%llu  updates %.4g + tests "
           "%.4g = %.3f of n^3M/6  table %.1f MB  seconds median %.2f "
           "[%.2f, %.2f] of %d\n",
           UTURN_DP_BENCH_NAME, (unsigned long long)n, (unsigned long long)M,
           (unsigned long long)thr, (unsigned long long)cost,
           (double)work.cells, (double)work.tests,
           ((double)work.cells + (double)work.tests) / full,
           (double)work.table_bytes / 1e6, seconds[repeats / 2], seconds[0],
           seconds[repeats - 1], repeats);
    free(bytes);
    free(costs);
    free(seconds);
    return 0;
}
