/* A plan's stats, and its stream through a validator of the same problem
 * (storage levels and sweeps included): every action valid, and the
 * counts, the cost and each level's counts as the plan predicted, each
 * level's peak within its slots. Header-only; include after
 * <criterion/criterion.h>. */
#ifndef UTURN_PLAN_WALK_H_INCLUDED
#define UTURN_PLAN_WALK_H_INCLUDED

#include <uturn.h>

/* The stats of the plan for p (which must plan). */
static inline uturn_stats_t plan_stats_of(const uturn_problem_t *p)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_plan_create(p, NULL, &plan, &e), UTURN_OK, "%s",
                 e.message);
    uturn_stats_t st;
    uturn_stats_init(&st);
    uturn_plan_stats(plan, &st);
    uturn_plan_free(plan);
    return st;
}

static inline void plan_walk_levels(const uturn_plan_t *plan,
                                    const uturn_validator_t *v,
                                    const uturn_problem_t *p)
{
    for (uint64_t k = 0; k < p->level_count; k++) {
        uturn_level_stats_t got, planned;
        uturn_level_stats_init(&got);
        uturn_level_stats_init(&planned);
        uturn_validator_level_stats(v, k, &got);
        uturn_plan_level_stats(plan, k, &planned);
        cr_assert(got.stores == planned.stores &&
                      got.restores == planned.restores &&
                      got.peak_slots == planned.peak_slots,
                  "n=%llu level %llu", (unsigned long long)p->steps,
                  (unsigned long long)k);
        cr_assert_leq(got.peak_slots, p->levels[k].slots);
    }
}

static inline void plan_walk_as_planned(const uturn_problem_t *p)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_plan_create(p, NULL, &plan, &e), UTURN_OK, "%s",
                 e.message);
    uturn_validator_t *v = NULL;
    cr_assert_eq(uturn_validator_create(p, NULL, &v, NULL), UTURN_OK);
    uturn_cursor_t *c = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t a;
    while (uturn_cursor_next(c, &a))
        cr_assert_eq(uturn_validator_push(v, &a, &e), UTURN_OK, "n=%llu: %s",
                     (unsigned long long)p->steps, e.message);
    uturn_stats_t want, seen;
    uturn_stats_init(&want);
    uturn_stats_init(&seen);
    uturn_plan_stats(plan, &want);
    cr_assert_eq(uturn_validator_finish(v, &seen, &e), UTURN_OK, "%s",
                 e.message);
    cr_assert(seen.forward_steps == want.forward_steps &&
                  seen.cost == want.cost && seen.stores == want.stores &&
                  seen.restores == want.restores &&
                  seen.actions == want.actions &&
                  seen.peak_slots == want.peak_slots &&
                  seen.persistent == want.persistent,
              "n=%llu", (unsigned long long)p->steps);
    plan_walk_levels(plan, v, p);
    uturn_cursor_free(c);
    uturn_validator_free(v);
    uturn_plan_free(plan);
}

#endif
