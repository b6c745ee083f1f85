/*
 * revolve with several sweeps on two storage levels (memory, then a
 * further level with write and read costs): the family of sweeps.h with
 * its m persistent checkpoints on the further level and every segment
 * reversed in every sweep by revolve with its base there and the c0
 * memory slots (c = c0 + 1), against the same family on memory alone (the
 * further level unused). For each m the lengths are the fewest forward
 * steps (sweeps_place.c, exact); m and the choice between the two are by
 * the plan's whole cost: forward steps plus every write and read.
 */
#include "sweeps.h"

#include <string.h>

struct option {
    uint64_t cost, m, base_restores;
    bool levels; /* bases on level 1 */
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

/* The whole cost of x as it stands (m and lengths set). */
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
    return io_cost(plan->levels, &s, m, *base_restores);
}

/* The best m with the bases on level 1 (at most c1 of them). */
static struct option on_level_one(const uturn_plan_t *plan,
                                  struct uturn__sw_layout *x, uint64_t mmax)
{
    struct option best = {UINT64_MAX, 1, 0, true};
    for (uint64_t m = 1; m <= mmax; m++) {
        x->m = m;
        if (uturn__sw_place(x) == UINT64_MAX)
            continue;
        uint64_t restores   = 0;
        const uint64_t cost = cost_of(plan, x, true, &restores);
        if (cost < best.cost)
            best = (struct option){cost, m, restores, true};
    }
    return best;
}

/* The same family on memory alone (level 1 unused): its lengths into
 * x->L, its whole cost. */
static struct option on_memory(const uturn_plan_t *plan,
                               struct uturn__sw_layout *x, uint64_t *scratch)
{
    if (x->s == 0)
        return (struct option){UINT64_MAX, 1, 0, false};
    if (uturn__sw_best(x, scratch) == UINT64_MAX)
        return (struct option){UINT64_MAX, 1, 0, false};
    uint64_t restores   = 0;
    const uint64_t cost = cost_of(plan, x, false, &restores);
    return (struct option){cost, x->m, 0, false};
}

/* Each level's stores, restores and peak from the plan's counts. */
static uturn_status_t level_counts(uturn_plan_t *plan, const struct option *o)
{
    uturn_stats_t *s            = &plan->stats;
    const uint64_t m            = o->levels ? o->m : 0;
    const uint64_t counts[2][3] = {
        {s->stores - m, s->restores - o->base_restores, s->peak_slots - m},
        {m, o->base_restores, m}};
    for (int k = 0; k < 2; k++) {
        uturn_level_stats_t *ls = &plan->level_stats[k];
        ls->stores              = counts[k][0];
        ls->restores            = counts[k][1];
        ls->peak_slots          = counts[k][2];
        if (uturn__mul_u64(ls->peak_slots, plan->problem.slot_bytes,
                           &ls->peak_bytes) != UTURN_OK)
            return UTURN_E_OVERFLOW;
    }
    return UTURN_OK;
}

/* The chosen option's layout in the plan's data, then its counts. */
static uturn_status_t take(uturn_plan_t *plan, const struct option *o,
                           uint64_t c0, uturn_error_t *error)
{
    struct uturn__sw_data *d = plan->data;
    d->x.m                   = o->m;
    if (o->levels) {
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

uturn_status_t uturn__sw_prepare_levels(uturn_plan_t *plan,
                                        uturn_error_t *error)
{
    const uturn_level_t *lv = plan->levels;
    if (plan->level_count != 2)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "several sweeps are planned on one level or two "
                           "(memory, then one further level); %llu given",
                           (unsigned long long)plan->level_count);
    const uint64_t n = plan->problem.steps, c0 = lv[0].slots;
    uint64_t s         = 0;
    uturn_status_t st  = uturn__sw_check(plan, plan->problem.slots, &s, error);
    const uint64_t s0  = c0 < s ? c0 : s; /* memory alone */
    const uint64_t s1  = lv[1].slots < n + 1 ? lv[1].slots : n + 1;
    const uint64_t cap = s0 > s1 ? s0 : s1;
    if (st == UTURN_OK)
        st = uturn__sw_data_new(plan, cap == 0 ? 1 : cap, error);
    uint64_t *scratch =
        st == UTURN_OK ? uturn__alloc_zeroed(&plan->alloc, cap + 1, 8) : NULL;
    if (st == UTURN_OK && scratch == NULL)
        st = uturn__fail(error, UTURN_E_NOMEM, "out of memory planning");
    if (st != UTURN_OK)
        return st;
    struct uturn__sw_data *d = plan->data;
    uint64_t *lengths        = d->x.L;
    memset(&d->x, 0, sizeof d->x);
    d->x.n                    = n;
    d->x.s                    = s0;
    d->x.k                    = plan->problem.sweeps;
    d->x.m                    = 1;
    d->x.L                    = lengths;
    d->x.steady               = plan->problem.sweeps == UTURN_SWEEPS_UNBOUNDED;
    const struct option mem   = on_memory(plan, &d->x, scratch);
    struct uturn__sw_layout y = d->x;
    y.L = scratch, y.s = s1, y.c_fixed = c0 + 1, y.base_slot = c0;
    const struct option two = on_level_one(plan, &y, s1);
    uturn__free(&plan->alloc, scratch, (size_t)(cap + 1) * 8);
    if (mem.cost == UINT64_MAX && two.cost == UINT64_MAX)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "the cost of %llu sweeps over %llu steps does "
                           "not fit in 64 bits",
                           (unsigned long long)plan->problem.sweeps,
                           (unsigned long long)n);
    d->x.s = two.cost < mem.cost ? s1 : s0;
    return take(plan, two.cost < mem.cost ? &two : &mem, c0, error);
}
