/* Every field of two uturn_stats_t, compared one by one with Criterion:
 * a run's observed counts against its plan's predicted ones. Compares
 * the fields the run makes too (cost, levels, forward_cost, fingerprint),
 * which a check of a few counts once let drift (cost and levels came back
 * 0 after every run). Header-only; include after <criterion/criterion.h>. */
#ifndef UTURN_STATS_EQUAL_H_INCLUDED
#define UTURN_STATS_EQUAL_H_INCLUDED

#include <uturn.h>

#define STATS_FIELD(a, b, f, what)                                             \
    cr_assert_eq((a)->f, (b)->f, "%s: %s is %llu, not %llu", what, #f,         \
                 (unsigned long long)(a)->f, (unsigned long long)(b)->f)

static inline void stats_expect_equal(const uturn_stats_t *a,
                                      const uturn_stats_t *b, const char *what)
{
    STATS_FIELD(a, b, steps, what);
    STATS_FIELD(a, b, forward_steps, what);
    STATS_FIELD(a, b, recomputed_steps, what);
    STATS_FIELD(a, b, reverse_steps, what);
    STATS_FIELD(a, b, stores, what);
    STATS_FIELD(a, b, restores, what);
    STATS_FIELD(a, b, frees, what);
    STATS_FIELD(a, b, peak_slots, what);
    STATS_FIELD(a, b, peak_bytes, what);
    STATS_FIELD(a, b, actions, what);
    STATS_FIELD(a, b, slots, what);
    STATS_FIELD(a, b, slot_bytes, what);
    STATS_FIELD(a, b, budget_bytes, what);
    STATS_FIELD(a, b, forward_cost, what);
    STATS_FIELD(a, b, recompute_cost, what);
    STATS_FIELD(a, b, fingerprint, what);
    STATS_FIELD(a, b, cost, what);
    STATS_FIELD(a, b, levels, what);
    STATS_FIELD(a, b, online, what);
    STATS_FIELD(a, b, exact, what);
    STATS_FIELD(a, b, unit_bytes, what);
    STATS_FIELD(a, b, lower_bound_cost, what);
    STATS_FIELD(a, b, sweeps, what);
    STATS_FIELD(a, b, persistent, what);
    cr_assert(a->recompute_factor == b->recompute_factor,
              "%s: recompute_factor %.17g, not %.17g", what,
              a->recompute_factor, b->recompute_factor);
}

#endif
