/*
 * hrevolve: the planner (checks, limits, counts into the plan). The
 * recurrences are in hrevolve.h, the tables in hrevolve_table.c, the
 * counts in hrevolve_counts.c and the generator in hrevolve_gen.c.
 */
#include "hrevolve.h"

#include <stdio.h>

/* ---- the generator (hrevolve_gen.c), over the whole chain */

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    return uturn__hr_gen_size(plan->data, bytes);
}

/* The root: n steps at the top level with all its slots, x_0 live and in
 * no slot (the plan chooses the level x_0 is stored in). */
static void start(const uturn_plan_t *plan, void *state)
{
    const struct uturn__hr_tables *t     = plan->data;
    const struct uturn__hr_segment whole = {
        .a = 0, .l = t->n, .n = t->n, .m = t->cap[t->levels - 1]};
    uturn__hr_gen_start(t, state, &whole);
}

/* ---- prepare */

static void tables_free(uturn_plan_t *plan)
{
    uturn__hr_free(&plan->alloc, plan->data);
    plan->data = NULL;
}

/* "1234", or "over 2^64" for a saturated figure. */
static void count_text(uint64_t x, char out[32])
{
    if (x == UINT64_MAX)
        snprintf(out, 32, "over 2^64");
    else
        snprintf(out, 32, "%llu", (unsigned long long)x);
}

/* The message spells the limits out; it must stay below 256 bytes. */
_Static_assert(UTURN_HREVOLVE_TABLE_BYTES == (uint64_t)1 << 30 &&
                   UTURN_HREVOLVE_WORK == 100000000000ull &&
                   UTURN__HR_MAX_STEPS == (uint64_t)1 << 28,
               "the limits message says 2^30 bytes, 10^11 and 2^28 steps");
_Static_assert(UTURN_HREVOLVE_EVALS == (uint64_t)1 << 36,
               "the message of a stopped search says 2^36");

/* The limits, decided from the steps and levels alone: no allocation. */
static uturn_status_t check_limits(const uturn_plan_t *plan,
                                   const struct uturn__hr_level *levels,
                                   uturn_error_t *error)
{
    const uint64_t n = plan->problem.steps;
    struct uturn__hr_need need;
    uturn__hr_need(n, levels, (size_t)plan->level_count, &need);
    if (n <= UTURN__HR_MAX_STEPS && need.bytes <= UTURN_HREVOLVE_TABLE_BYTES &&
        need.work <= UTURN_HREVOLVE_WORK)
        return UTURN_OK;
    char bytes[32], work[32];
    count_text(need.bytes, bytes);
    count_text(need.work, work);
    return uturn__fail(error, UTURN_E_UNSUPPORTED,
                       "hrevolve for %llu steps needs %s bytes of tables and "
                       "%s split evaluations at worst (limits 2^30, 10^11 "
                       "and 2^28 steps): plan fewer steps or slots; for very "
                       "long chains, the online planner's periodic disk "
                       "schedule",
                       (unsigned long long)n, bytes, work);
}

/* The nested plans are optimal only when no level is cheaper to write or
 * to read than a faster one; an exhaustive search finds plans up to 30%
 * cheaper otherwise, so such levels are refused rather than planned. */
enum uturn__hr_costs uturn__hr_costs_rule(const uturn_level_t *lv,
                                          uint64_t count, uint64_t *level)
{
    for (uint64_t k = 0; k < count; k++) {
        *level = k;
        if (lv[k].write_cost > UTURN__HR_MAX_IO_COST)
            return UTURN__HR_COSTS_WRITE_PAST;
        if (lv[k].read_cost > UTURN__HR_MAX_IO_COST)
            return UTURN__HR_COSTS_READ_PAST;
        if (k > 0 && lv[k].write_cost < lv[k - 1].write_cost)
            return UTURN__HR_COSTS_WRITE_LESS;
        if (k > 0 && lv[k].read_cost < lv[k - 1].read_cost)
            return UTURN__HR_COSTS_READ_LESS;
    }
    return UTURN__HR_COSTS_OK;
}

static uturn_status_t check_costs(const uturn_plan_t *plan,
                                  uturn_error_t *error)
{
    const uturn_level_t *lv = plan->levels;
    uint64_t k              = 0;
    const enum uturn__hr_costs broken =
        uturn__hr_costs_rule(lv, plan->level_count, &k);
    if (broken == UTURN__HR_COSTS_WRITE_PAST ||
        broken == UTURN__HR_COSTS_READ_PAST)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "level %llu (%s): hrevolve takes write and "
                           "read costs up to 2^24",
                           (unsigned long long)k, lv[k].name);
    if (broken != UTURN__HR_COSTS_OK)
        return uturn__fail(
            error, UTURN_E_UNSUPPORTED,
            "level %llu (%s) is cheaper to %s than level %llu: "
            "hrevolve's optimum is not guaranteed when costs decrease "
            "with the level",
            (unsigned long long)k, lv[k].name,
            broken == UTURN__HR_COSTS_WRITE_LESS ? "write" : "read",
            (unsigned long long)(k - 1));
    return UTURN_OK;
}

static uturn_status_t check_problem(const uturn_plan_t *plan,
                                    uturn_error_t *error)
{
    const uturn_problem_t *p = &plan->problem;
    if (!plan->has_capacity)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "hrevolve needs a capacity: levels, slots, or a "
                           "byte budget and slot_bytes");
    if (plan->step_bytes != NULL || plan->step_costs != NULL)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "hrevolve plans uniform states and unit step "
                           "costs this round");
    if (p->slots == 0) {
        char given[128];
        uturn__capacity_text(p, given, sizeof given);
        return uturn__fail_infeasible(error, 1, p->slot_bytes,
                                      "hrevolve needs at least 1 slot (%llu "
                                      "bytes) to hold x_0; %s",
                                      (unsigned long long)p->slot_bytes, given);
    }
    return check_costs(plan, error);
}

/* The counts into plan->stats and plan->level_stats; slot_span from each
 * level's peak, since a level's slots are used from its first. */
static uturn_status_t take_counts(uturn_plan_t *plan,
                                  const struct uturn__hr_counts *c,
                                  uturn_error_t *error)
{
    const struct uturn__hr_tables *t = plan->data;
    uturn_stats_t *s                 = &plan->stats;
    s->forward_steps                 = c->forward_steps;
    s->reverse_steps                 = plan->problem.steps;
    s->actions                       = c->actions;
    s->peak_slots                    = c->peak_slots;
    s->slots                         = plan->problem.slots;
    plan->slot_span                  = 0;
    for (size_t k = 0; k < t->levels; k++) {
        uturn_level_stats_t *ls = &plan->level_stats[k];
        ls->stores              = c->stores[k];
        ls->restores            = c->restores[k];
        ls->peak_slots          = c->peak[k];
        if (uturn__mul_u64(c->peak[k], plan->problem.slot_bytes,
                           &ls->peak_bytes) != UTURN_OK)
            return uturn__fail(error, UTURN_E_OVERFLOW,
                               "level %llu's peak bytes do not fit in 64 "
                               "bits",
                               (unsigned long long)k);
        s->stores += c->stores[k];
        s->restores += c->restores[k];
        if (c->peak[k] != 0)
            plan->slot_span = t->base[k] + c->peak[k];
    }
    s->frees = s->stores; /* every slot stored is freed once */
    return UTURN_OK;
}

/* The tables, watched by the problem's progress callback and stopped at
 * UTURN_HREVOLVE_EVALS evaluations of the pruned search. */
static uturn_status_t build(uturn_plan_t *plan,
                            const struct uturn__hr_level *levels,
                            struct uturn__hr_tables **t, uturn_error_t *error)
{
    const uint64_t n = plan->problem.steps;
    struct uturn__hr_need need;
    uturn__hr_need(n, levels, (size_t)plan->level_count, &need);
    struct uturn__hr_watch watch = {.progress = plan->problem.progress,
                                    .user     = plan->problem.progress_user,
                                    .total    = need.work};
    const uturn_status_t st      = uturn__hr_build_watched(
             &plan->alloc, n, levels, (size_t)plan->level_count,
             UTURN_HREVOLVE_EVALS, watch.progress != NULL ? &watch : NULL, t);
    if (st == UTURN_E_INFEASIBLE)
        return uturn__fail_infeasible(error, 1, plan->problem.slot_bytes,
                                      "hrevolve finds no plan for these "
                                      "levels");
    if (st == UTURN_E_UNSUPPORTED)
        return uturn__fail(error, st,
                           "hrevolve for %llu steps stopped after 2^36 "
                           "evaluations of its split search (its limit, "
                           "minutes of planning): plan fewer steps or "
                           "slots; for very long chains, the online "
                           "planner's periodic disk schedule",
                           (unsigned long long)n);
    if (st == UTURN_E_CALLBACK)
        return uturn__fail(error, st,
                           "the progress callback stopped hrevolve's "
                           "planning");
    if (st != UTURN_OK)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory for hrevolve's tables");
    return UTURN_OK;
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    uturn_status_t st = check_problem(plan, error);
    if (st != UTURN_OK)
        return st;
    struct uturn__hr_level levels[UTURN__MAX_LEVELS];
    for (uint64_t k = 0; k < plan->level_count; k++)
        levels[k] = (struct uturn__hr_level){plan->levels[k].slots,
                                             plan->levels[k].write_cost,
                                             plan->levels[k].read_cost};
    st = check_limits(plan, levels, error);
    if (st != UTURN_OK)
        return st;
    struct uturn__hr_tables *t = NULL;
    st                         = build(plan, levels, &t, error);
    if (st != UTURN_OK)
        return st;
    plan->data      = t;
    plan->data_free = tables_free;
    struct uturn__hr_counts counts;
    if (uturn__hr_count(&plan->alloc, t, &counts) != UTURN_OK)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory for hrevolve's counts");
    return take_counts(plan, &counts, error);
}

/* The stream follows from the steps and every level's slots (which number
 * the slots above it) and costs. */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    uturn__hash_u64(h, plan->problem.steps);
    uturn__hash_u64(h, plan->level_count);
    for (uint64_t k = 0; k < plan->level_count; k++) {
        uturn__hash_u64(h, plan->levels[k].slots);
        uturn__hash_u64(h, plan->levels[k].write_cost);
        uturn__hash_u64(h, plan->levels[k].read_cost);
    }
}

const struct uturn__planner uturn__hrevolve = {
    .id          = UTURN_PLANNER_HREVOLVE,
    .name        = "hrevolve",
    .prepare     = prepare,
    .state_size  = state_size,
    .start       = start,
    .fill        = uturn__hr_gen_fill,
    .fingerprint = fingerprint,
    .levels      = true,
};
