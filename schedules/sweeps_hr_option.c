/*
 * The family of sweeps_hr.c as an option of the levels planner
 * (sweeps_levels.c): whether it is tried, hrevolve's tables for the
 * problem's levels, the best level for the bases, and taking it.
 */
#include "hrevolve.h"
#include "sweeps.h"

#include <stdio.h>
#include <string.h>

/* Tried within hrevolve's own limits (uturn.h), so that wherever hrevolve
 * plans one sweep on these levels, several sweeps plan with its segments
 * too: at most UTURN_HREVOLVE_WORK split evaluations for the build (an
 * upper bound: 10^4 steps over 5 + 50 slots is 2.5 * 10^9, built in about
 * half a second; the bound itself is minutes, which the problem's
 * progress callback hears about and can stop) in UTURN_HREVOLVE_TABLE_BYTES. */
#define SW_HR_WORK  UTURN_HREVOLVE_WORK
#define SW_HR_BYTES UTURN_HREVOLVE_TABLE_BYTES

/* Level k as hrevolve's messages name it: its index, and its name. */
static void level_name(const uturn_plan_t *plan, uint64_t k, char *out,
                       size_t cap)
{
    const char *name = plan->levels[k].name;
    snprintf(out, cap, "level %llu%s%s%s", (unsigned long long)k,
             name != NULL ? " (" : "", name != NULL ? name : "",
             name != NULL ? ")" : "");
}

/* Whether a cost stops the family (hrevolve's rule): which level and
 * why, into why. */
static bool cost_stops(const uturn_plan_t *plan, char *why, size_t cap)
{
    uint64_t k = 0;
    const enum uturn__hr_costs broken =
        uturn__hr_costs_rule(plan->levels, plan->level_count, &k);
    if (broken == UTURN__HR_COSTS_OK)
        return false;
    char a[96], b[96];
    level_name(plan, k, a, sizeof a);
    if (broken == UTURN__HR_COSTS_WRITE_PAST ||
        broken == UTURN__HR_COSTS_READ_PAST)
        snprintf(why, cap, "%s's %s cost is past 2^24", a,
                 broken == UTURN__HR_COSTS_WRITE_PAST ? "write" : "read");
    else {
        level_name(plan, k - 1, b, sizeof b);
        snprintf(why, cap, "%s is cheaper to %s than %s", a,
                 broken == UTURN__HR_COSTS_WRITE_LESS ? "write" : "read", b);
    }
    return true;
}

/* Why the family is not tried (into why), or NULL when it is. */
static const char *not_tried(const uturn_plan_t *plan,
                             const struct uturn__hr_level *lv, char *why,
                             size_t cap)
{
    if (cost_stops(plan, why, cap))
        return why;
    struct uturn__hr_need need;
    uturn__hr_need(plan->problem.steps, lv, (size_t)plan->level_count, &need);
    if (plan->problem.steps > UTURN__HR_MAX_STEPS || need.work > SW_HR_WORK ||
        need.bytes > SW_HR_BYTES)
        return "hrevolve's tables for these steps and slots are past its "
               "limits (10^11 split evaluations, 2^30 bytes, 2^28 steps)";
    return NULL;
}

/* The tables for the plan's levels, or NULL with *status set (OK: the
 * family is not tried on two levels, where the others remain; else the
 * refusal, on three or more). */
static struct uturn__hr_tables *
tables(uturn_plan_t *plan, uturn_status_t *status, uturn_error_t *error)
{
    struct uturn__hr_level lv[UTURN__MAX_LEVELS];
    for (uint64_t k = 0; k < plan->level_count; k++)
        lv[k] = (struct uturn__hr_level){plan->levels[k].slots,
                                         plan->levels[k].write_cost,
                                         plan->levels[k].read_cost};
    *status = UTURN_OK;
    char reason[256];
    const char *why = not_tried(plan, lv, reason, sizeof reason);
    if (why != NULL && plan->level_count > 2)
        *status = uturn__fail(error, UTURN_E_UNSUPPORTED,
                              "several sweeps on %llu levels are planned "
                              "with hrevolve's segments, not here: %s",
                              (unsigned long long)plan->level_count, why);
    struct uturn__hr_tables *t = NULL;
    if (why != NULL)
        return NULL;
    struct uturn__hr_need need;
    uturn__hr_need(plan->problem.steps, lv, (size_t)plan->level_count, &need);
    struct uturn__hr_watch watch = {.progress = plan->problem.progress,
                                    .user     = plan->problem.progress_user,
                                    .total    = need.work};
    const uturn_status_t st      = uturn__hr_build_watched(
             &plan->alloc, plan->problem.steps, lv, (size_t)plan->level_count,
             UTURN_HREVOLVE_EVALS, watch.progress != NULL ? &watch : NULL, &t);
    if (st == UTURN_E_NOMEM)
        *status = uturn__fail(error, st,
                              "out of memory for hrevolve's "
                              "tables");
    if (st == UTURN_E_CALLBACK)
        *status = uturn__fail(error, st,
                              "the progress callback stopped the planning "
                              "of several sweeps on levels");
    else if (st != UTURN_OK && st != UTURN_E_NOMEM && plan->level_count > 2)
        *status = uturn__fail(error, UTURN_E_UNSUPPORTED,
                              "several sweeps on %llu levels are planned "
                              "with hrevolve's segments, whose tables "
                              "stopped after 2^36 evaluations of their "
                              "split search (hrevolve's limit)",
                              (unsigned long long)plan->level_count);
    return st == UTURN_OK ? t : NULL;
}

/* The layout for bases on level q (its lengths in x->L); its whole cost,
 * or for an unbounded plan the cost of each further sweep (what it is
 * placed for, and what the families are compared by). */
static uint64_t place(const uturn_plan_t *plan,
                      const struct uturn__hr_tables *t, size_t q,
                      struct uturn__sw_layout *x, uint64_t *scratch)
{
    const uturn_level_t *lv = &plan->levels[q];
    const uint64_t n        = plan->problem.steps;
    x->s                    = lv->slots < n + 1 ? lv->slots : n + 1;
    if (x->s == 0)
        return UINT64_MAX;
    const uturn__u128 cost =
        uturn__sw_hr_place(t, q, lv->write_cost, lv->read_cost, x, scratch);
    return cost > UINT64_MAX ? UINT64_MAX : (uint64_t)cost;
}

uturn_status_t uturn__sw_hr_try(uturn_plan_t *plan, struct uturn__sw_layout *x,
                                uint64_t *scratch, uint64_t *lengths,
                                uint64_t *cost, size_t *q, uturn_error_t *error)
{
    uturn_status_t st;
    struct uturn__hr_tables *t = tables(plan, &st, error);
    *q                         = 0;
    if (t == NULL)
        return st;
    struct uturn__sw_layout y = *x;
    y.L = lengths, y.c_fixed = 0;
    uint64_t best = *cost;
    for (size_t k = 1; k < plan->level_count; k++) {
        const uint64_t c = place(plan, t, k, &y, scratch);
        if (c < best)
            best = c, *q = k;
    }
    if (*q == 0) {
        uturn__hr_free(&plan->alloc, t);
        return UTURN_OK;
    }
    if (*q + 1 != plan->level_count) /* y holds the last level's lengths */
        place(plan, t, *q, &y, scratch);
    y.base_slot              = t->base[*q];
    y.scratch_slot           = y.base_slot + y.m;
    *x                       = y;
    *cost                    = best;
    struct uturn__sw_data *d = plan->data;
    d->hr                    = t;
    return UTURN_OK;
}

uturn_status_t uturn__sw_hr_take(uturn_plan_t *plan,
                                 const struct uturn__sw_layout *x, size_t q,
                                 uturn_error_t *error)
{
    struct uturn__sw_data *d = plan->data;
    uint64_t *lengths        = d->x.L;
    d->x                     = *x;
    d->x.L                   = lengths;
    d->hr_level              = q;
    memcpy(lengths, x->L, (size_t)x->m * sizeof *lengths);
    d->p[0] = 0;
    for (uint64_t i = 1; i < x->m; i++)
        d->p[i] = d->p[i - 1] + x->L[i - 1];
    const uturn_status_t st = uturn__sw_hr_counts(plan, d->hr, q, &d->x);
    if (st == UTURN_E_NOMEM)
        return uturn__fail(error, st, "out of memory counting the plan");
    if (st != UTURN_OK)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "the counts of %llu sweeps over %llu steps do "
                           "not fit in 64 bits",
                           (unsigned long long)x->k, (unsigned long long)x->n);
    plan->stats.slots      = plan->problem.slots;
    plan->stats.sweeps     = plan->problem.sweeps;
    plan->stats.persistent = x->m;
    plan->slot_span        = d->hr->base[q] + x->s;
    return UTURN_OK;
}
