/*
 * revolve with several sweeps on storage levels (memory, then further
 * levels with write and read costs). Three families, the cheapest by the
 * plan's whole cost (forward steps plus every write and read):
 * - on memory alone (the further levels unused), sweeps.h's family;
 * - on two levels, its m persistent checkpoints on the further level and
 *   every segment reversed in every sweep by revolve with its base there
 *   and the c0 memory slots (c = c0 + 1), the lengths the fewest forward
 *   steps for each m (sweeps_place.c, exact);
 * - for each level q >= 1, the persistent checkpoints on level q and every
 *   segment reversed by hrevolve over the other slots of level q and all
 *   of every level below (sweeps_hr.c), when hrevolve's tables are small
 *   enough (sweeps_hr_option.c) and the costs do not decrease with the
 *   level (on three or more levels it must be tried: it is the only
 *   family that uses them).
 */
#include "hrevolve.h"
#include "sweeps.h"

#include <string.h>

enum family { ON_MEMORY, BASES_ON_LEVEL_1 };

struct option {
    uint64_t cost, m, base_restores;
    enum family family;
    size_t q; /* 0, or hrevolve segments' (sweeps_hr.c) level of the bases */
};

/* Level costs: stores and restores on level 0 and level 1. */
static uint64_t io_cost(const uturn_level_t *lv, const uturn_stats_t *s,
                        uint64_t m, uint64_t base_restores)
{
    const uturn__u128 cost =
        (uturn__u128)(s->stores - m) * lv[0].write_cost +
        (uturn__u128)(s->restores - base_restores) * lv[0].read_cost +
        (uturn__u128)m * lv[1].write_cost +
        (uturn__u128)base_restores * lv[1].read_cost + s->forward_steps;
    return cost > UINT64_MAX ? UINT64_MAX : (uint64_t)cost;
}

/* What the families are compared by, for x as it stands (m and lengths
 * set): the whole cost of the plan, or for an unbounded one the cost of
 * each further sweep, which is what it is placed for. *base_restores:
 * the plan's restores of its bases (on_levels; else 0). */
static uint64_t cost_of(const uturn_plan_t *plan, struct uturn__sw_layout *x,
                        bool on_levels, uint64_t *base_restores)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    if (uturn__sw_counts(x, &s) != UTURN_OK)
        return UINT64_MAX;
    *base_restores   = on_levels ? uturn__sw_base_restores(x) : 0;
    const uint64_t m = on_levels ? x->m : 0;
    if (*base_restores == UINT64_MAX)
        return UINT64_MAX;
    if (!x->steady)
        return io_cost(plan->levels, &s, m, *base_restores);
    uint64_t sweep_bases = 0;
    if (uturn__sw_middle_counts(x, &s, &sweep_bases) != UTURN_OK ||
        sweep_bases == UINT64_MAX)
        return UINT64_MAX;
    return io_cost(plan->levels, &s, 0, on_levels ? sweep_bases : 0);
}

/* The best m with the bases on level 1 (at most c1 of them). */
static struct option on_level_one(const uturn_plan_t *plan,
                                  struct uturn__sw_layout *x, uint64_t mmax)
{
    struct option best = {UINT64_MAX, 1, 0, BASES_ON_LEVEL_1, 0};
    for (uint64_t m = 1; m <= mmax; m++) {
        x->m = m;
        if (uturn__sw_place(x) == UINT64_MAX)
            continue;
        uint64_t restores   = 0;
        const uint64_t cost = cost_of(plan, x, true, &restores);
        if (cost < best.cost)
            best = (struct option){cost, m, restores, BASES_ON_LEVEL_1, 0};
    }
    return best;
}

/* The same family on memory alone (level 1 unused): its lengths into
 * x->L, its whole cost. */
static struct option on_memory(const uturn_plan_t *plan,
                               struct uturn__sw_layout *x, uint64_t *scratch)
{
    if (x->s == 0)
        return (struct option){UINT64_MAX, 1, 0, ON_MEMORY, 0};
    if (uturn__sw_best(x, scratch) == UINT64_MAX)
        return (struct option){UINT64_MAX, 1, 0, ON_MEMORY, 0};
    uint64_t restores   = 0;
    const uint64_t cost = cost_of(plan, x, false, &restores);
    return (struct option){cost, x->m, 0, ON_MEMORY, 0};
}

/* Each level's stores, restores and peak from the plan's counts (the
 * families on memory alone or with bases on level 1). */
static uturn_status_t level_counts(uturn_plan_t *plan, const struct option *o)
{
    uturn_stats_t *s            = &plan->stats;
    const uint64_t m            = o->family == BASES_ON_LEVEL_1 ? o->m : 0;
    const uint64_t counts[2][3] = {
        {s->stores - m, s->restores - o->base_restores, s->peak_slots - m},
        {m, o->base_restores, m}};
    for (uint64_t k = 0; k < plan->level_count; k++) {
        uturn_level_stats_t *ls = &plan->level_stats[k];
        ls->stores              = k < 2 ? counts[k][0] : 0;
        ls->restores            = k < 2 ? counts[k][1] : 0;
        ls->peak_slots          = k < 2 ? counts[k][2] : 0;
        if (uturn__mul_u64(ls->peak_slots, plan->problem.slot_bytes,
                           &ls->peak_bytes) != UTURN_OK)
            return UTURN_E_OVERFLOW;
    }
    return UTURN_OK;
}

/* The chosen option's layout (in x) into the plan's data, then its
 * counts. */
static uturn_status_t take(uturn_plan_t *plan, const struct option *o,
                           const struct uturn__sw_layout *x,
                           uturn_error_t *error)
{
    struct uturn__sw_data *d = plan->data;
    const uint64_t c0        = plan->levels[0].slots;
    uint64_t *lengths        = d->x.L;
    d->x                     = *x;
    d->x.L                   = lengths;
    memcpy(lengths, x->L, (size_t)o->m * sizeof *lengths);
    d->x.m = o->m;
    if (o->family == BASES_ON_LEVEL_1) { /* x->L: the last m it tried */
        d->x.c_fixed      = c0 + 1;
        d->x.base_slot    = c0;
        d->x.scratch_slot = 0;
        uturn__sw_place(&d->x);
        plan->slot_span = c0 + o->m;
    } else {
        d->x.scratch_slot = o->m;
        plan->slot_span   = d->x.s;
    }
    const uturn_status_t st = uturn__sw_finish(plan, o->cost, error);
    if (st != UTURN_OK)
        return st;
    if (level_counts(plan, o) != UTURN_OK)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "a level's peak bytes do not fit in 64 bits");
    return UTURN_OK;
}

/* The families of two levels and of memory alone: the cheaper into *best
 * and its layout into *x (whose L has room for cap lengths; scratch too). */
static void classic(const uturn_plan_t *plan, uint64_t s,
                    struct uturn__sw_layout *x, uint64_t *scratch,
                    uint64_t *spare, struct option *best)
{
    const uturn_level_t *lv = plan->levels;
    const uint64_t n = plan->problem.steps, c0 = lv[0].slots;
    x->s  = c0 < s ? c0 : s;
    *best = on_memory(plan, x, scratch);
    if (plan->level_count != 2)
        return;
    struct uturn__sw_layout y = *x;
    y.L = spare, y.c_fixed = c0 + 1, y.base_slot = c0;
    y.s                     = lv[1].slots < n + 1 ? lv[1].slots : n + 1;
    const struct option two = on_level_one(plan, &y, y.s);
    if (two.cost < best->cost) {
        *best = two;
        *x    = y;
    }
}

uturn_status_t uturn__sw_prepare_levels(uturn_plan_t *plan,
                                        uturn_error_t *error)
{
    const uturn_level_t *lv = plan->levels;
    const uint64_t n        = plan->problem.steps;
    uint64_t s = 0, cap = 1;
    uturn_status_t st = uturn__sw_check(plan, plan->problem.slots, &s, error);
    for (uint64_t k = 0; k < plan->level_count; k++)
        cap = lv[k].slots > cap ? lv[k].slots : cap;
    cap = cap < n + 1 ? cap : n + 1;
    if (st == UTURN_OK)
        st = uturn__sw_data_new(plan, cap, error);
    /* 3 cap for placing, then three sets of lengths */
    const size_t words = (size_t)(6 * cap);
    uint64_t *scratch =
        st == UTURN_OK ? uturn__alloc_zeroed(&plan->alloc, words, 8) : NULL;
    if (st == UTURN_OK && scratch == NULL)
        st = uturn__fail(error, UTURN_E_NOMEM, "out of memory planning");
    if (st != UTURN_OK)
        return st;
    struct uturn__sw_layout x = {.n = n, .k = plan->problem.sweeps, .m = 1};
    x.steady                  = plan->problem.sweeps == UTURN_SWEEPS_UNBOUNDED;
    x.L                       = scratch + 3 * cap;
    struct option best;
    classic(plan, s, &x, scratch, scratch + 4 * cap, &best);
    st = uturn__sw_hr_try(plan, &x, scratch, scratch + 5 * cap, &best.cost,
                          &best.q, error);
    if (st == UTURN_OK && best.cost == UINT64_MAX)
        st = uturn__fail(error, UTURN_E_OVERFLOW,
                         "the cost of %llu sweeps over %llu steps does "
                         "not fit in 64 bits",
                         (unsigned long long)plan->problem.sweeps,
                         (unsigned long long)n);
    if (st == UTURN_OK)
        st = best.q != 0 ? uturn__sw_hr_take(plan, &x, best.q, error)
                         : take(plan, &best, &x, error);
    uturn__free(&plan->alloc, scratch, words * 8);
    return st;
}
