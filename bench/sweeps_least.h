/*
 * Shared by the several-sweeps bench programs (sweeps_bound.c,
 * sweeps_exact.c): revolve's t(l, c) from src/internal.h, and B, the
 * lower bound on one sweep from any s stored states (docs/model.md
 * section 13, "How far any plan could go"): the least sum of t(L_i, s - i)
 * over every m and every split of the n + 1 states into m segments.
 * t(l, c) is convex in l, so each least sum for a given m is found
 * exactly by adding states one at a time where t grows least. And the
 * counts of uturn's own plan for n steps, s slots and some sweeps.
 */
#ifndef UTURN_BENCH_SWEEPS_LEAST_H
#define UTURN_BENCH_SWEEPS_LEAST_H

#include "internal.h"

#include <stdlib.h>
#include <uturn.h>

static inline uint64_t t_of(uint64_t l, uint64_t c)
{
    return l <= 1 ? 0 : uturn__bin_t(l, c);
}

/* The least sum over m segments of n + 1 states, segment i with s - i
 * slots. L has room for m. */
static inline uint64_t least_sum(uint64_t n, uint64_t s, uint64_t m,
                                 uint64_t *L)
{
    for (uint64_t i = 0; i < m; i++)
        L[i] = 1;
    for (uint64_t left = n + 1 - m; left > 0; left--) {
        uint64_t at = 0, grow = UINT64_MAX;
        for (uint64_t i = 0; i < m; i++) {
            const uint64_t d = t_of(L[i] + 1, s - i) - t_of(L[i], s - i);
            if (d < grow)
                grow = d, at = i;
        }
        L[at] += 1;
    }
    uint64_t sum = 0;
    for (uint64_t i = 0; i < m; i++)
        sum += t_of(L[i], s - i);
    return sum;
}

/* B: the cheapest sweep from any s stored states, freed as it goes. */
static inline uint64_t least_sweep(uint64_t n, uint64_t s)
{
    uint64_t *L = malloc((size_t)s * sizeof *L), best = UINT64_MAX;
    if (L == NULL)
        abort();
    for (uint64_t m = 1; m <= s && m <= n + 1; m++) {
        const uint64_t v = least_sum(n, s, m, L);
        best             = v < best ? v : best;
    }
    free(L);
    return best;
}

/* The counts of uturn's plan: n steps, s slots, `sweeps` sweeps (0: one;
 * UTURN_SWEEPS_UNBOUNDED: sweep_forward_steps is each further sweep's). */
static inline uturn_stats_t plan_counts(uint64_t n, uint64_t s, uint64_t sweeps)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = n;
    p.slots            = s;
    p.sweeps           = sweeps;
    uturn_plan_t *plan = NULL;
    if (uturn_plan_create(&p, NULL, &plan, NULL) != UTURN_OK)
        abort();
    uturn_stats_t st;
    uturn_stats_init(&st);
    uturn_plan_stats(plan, &st);
    uturn_plan_free(plan);
    return st;
}

#endif
