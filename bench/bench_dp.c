/*
 * dp plan creation time at 1000 memory units: the table (steps^2/2 rows of
 * units+1 cells) and its fill (about steps^3 * units / 6) dominate. Two
 * chains per n, best of REPEATS runs of uturn_plan_create():
 *   uniform  no step_bytes, slot_bytes 1, budget_bytes 1000 (1000 slots),
 *            unit costs;
 *   sizes    step_bytes random 1..8, costs random 1..10 (fixed seed),
 *            budget_bytes 1000 at unit_bytes 1.
 * When the table would pass UTURN_DP_TABLE_BYTES, an explicit unit is
 * UTURN_E_UNSUPPORTED (the message names the unit that fits): that row is
 * printed, and the automatic unit (unit_bytes 0) is timed instead.
 * usage: bench_dp [REPEATS [STEPS...]]   (default: 3  100 200 500 1000)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <uturn.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Best of `repeats` creations; the last plan's stats in *st. */
static uturn_status_t best_of(const uturn_problem_t *p, int repeats,
                              double *best, uturn_stats_t *st,
                              uturn_error_t *err)
{
    *best = 1e300;
    for (int r = 0; r < repeats; r++) {
        uturn_plan_t *plan = NULL;
        uturn_error_init(err);
        const double start      = now();
        const uturn_status_t rc = uturn_plan_create(p, NULL, &plan, err);
        const double spent      = now() - start;
        if (rc != UTURN_OK)
            return rc;
        *best = spent < *best ? spent : *best;
        uturn_stats_init(st);
        uturn_plan_stats(plan, st);
        uturn_plan_free(plan);
    }
    return UTURN_OK;
}

static void row(const char *chain, uturn_problem_t *p, int repeats)
{
    double best = 0;
    uturn_stats_t st;
    uturn_error_t err;
    uturn_status_t rc = best_of(p, repeats, &best, &st, &err);
    const char *unit  = p->unit_bytes ? "1" : "auto";
    if (rc == UTURN_E_UNSUPPORTED && p->unit_bytes != 0) {
        printf("%6llu  %-8s %-5s %-20s  -  (%s)\n",
               (unsigned long long)p->steps, chain, unit, uturn_status_name(rc),
               err.message);
        p->unit_bytes = 0;
        unit          = "auto";
        rc            = best_of(p, repeats, &best, &st, &err);
    }
    if (rc != UTURN_OK) {
        printf("%6llu  %-8s %-5s %-20s  -  (%s)\n",
               (unsigned long long)p->steps, chain, unit, uturn_status_name(rc),
               err.message);
        return;
    }
    printf("%6llu  %-8s %-5s %10.4f  %12llu %10llu %6llu\n",
           (unsigned long long)p->steps, chain, unit, best,
           (unsigned long long)st.forward_cost,
           (unsigned long long)st.peak_bytes,
           (unsigned long long)st.peak_slots);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const int repeats                = argc > 1 ? atoi(argv[1]) : 3;
    static const uint64_t defaults[] = {100, 200, 500, 1000};
    const int count                  = argc > 2 ? argc - 2 : 4;
    printf("dp plan creation, best of %d; budget 1000 bytes = 1000 units "
           "(unit 1 byte) unless noted\n",
           repeats);
    printf("%6s  %-8s %-5s %10s  %12s %10s %6s\n", "steps", "chain", "unit",
           "seconds", "forward_cost", "peak_bytes", "peak_slots");
    for (int k = 0; k < count; k++) {
        const uint64_t n =
            argc > 2 ? strtoull(argv[k + 2], NULL, 10) : defaults[k];
        uturn_problem_t p;
        uturn_problem_init(&p);
        p.planner      = UTURN_PLANNER_DP;
        p.steps        = n;
        p.slot_bytes   = 1;
        p.budget_bytes = 1000;
        p.unit_bytes   = 1;
        row("uniform", &p, repeats);
        uint64_t *bytes = malloc(n * sizeof *bytes);
        uint64_t *costs = malloc(n * sizeof *costs);
        if (bytes == NULL || costs == NULL)
            return 2;
        uint64_t rng = n;
        for (uint64_t i = 0; i < n; i++) {
            bytes[i] = 1 + next_random(&rng) % 8;
            costs[i] = 1 + next_random(&rng) % 10;
        }
        p.step_bytes = bytes;
        p.step_costs = costs;
        p.unit_bytes = 1;
        row("sizes", &p, repeats);
        free(bytes);
        free(costs);
    }
    return 0;
}
