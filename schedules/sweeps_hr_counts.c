/*
 * The counts of a several-sweeps plan whose segments hrevolve reverses
 * (sweeps_hr.c), predicted without generating it: the first forward,
 * then each kind of segment walk counted once by hrevolve's counts
 * (uturn__hr_count_held) and taken as many times as the plan walks it,
 * plus a read of the base when the walk does not start from it live, less
 * the base's free while it persists. Per level, and in total.
 */
#include "hrevolve.h"
#include "sweeps.h"

#include <string.h>

typedef uturn__u128 u128;

struct sum {
    size_t levels, q;
    u128 forward, actions;
    u128 stores[UTURN__MAX_LEVELS], restores[UTURN__MAX_LEVELS];
    uint64_t peak_total, peak[UTURN__MAX_LEVELS];
};

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* A kept base stays in its slot while the walk works one level down,
 * which the counts of a B node (whose D branch frees it first) leave out
 * of the total peak: follow the base's chain of left parts to its end,
 * and if that is a D branch, count its work with the base held. */
static uturn_status_t kept_peak(const uturn_allocator_t *a,
                                const struct uturn__hr_tables *t, size_t q,
                                uint64_t l, uint64_t m,
                                struct uturn__hr_counts *c)
{
    uint64_t j = 0;
    while (l > 0 && (j = uturn__hr_split(t, q, l, m)) != 0)
        l = j - 1;
    if (l == 0)
        return UTURN_OK;
    struct uturn__hr_counts down;
    const uturn_status_t st =
        uturn__hr_count_node(a, t, q - 1, l, t->cap[q - 1], false, &down);
    if (st == UTURN_OK)
        c->peak_slots = max_u64(c->peak_slots, down.peak_slots + 1);
    return st;
}

/* `times` walks of a segment of L states with j level-q slots, above
 * `held` other bases on level q; cold: its base is read first; keep: the
 * base stays. */
static uturn_status_t add_walk(const uturn_allocator_t *a,
                               const struct uturn__hr_tables *t, struct sum *s,
                               uint64_t L, uint64_t j, uint64_t times,
                               uint64_t held, bool cold, bool keep)
{
    if (times == 0)
        return UTURN_OK;
    struct uturn__hr_counts c;
    const uint64_t slots = j < t->cap[s->q] ? j : t->cap[s->q];
    uturn_status_t st =
        uturn__hr_count_node(a, t, s->q, L - 1, slots, true, &c);
    if (st == UTURN_OK && keep)
        st = kept_peak(a, t, s->q, L - 1, slots, &c);
    if (st != UTURN_OK)
        return st;
    c.restores[s->q] += cold;
    s->forward += (u128)c.forward_steps * times;
    s->actions += (u128)(c.actions + cold - keep) * times;
    for (size_t k = 0; k < s->levels; k++) {
        s->stores[k] += (u128)c.stores[k] * times;
        s->restores[k] += (u128)c.restores[k] * times;
        s->peak[k] = max_u64(s->peak[k], c.peak[k] + (k == s->q ? held : 0));
    }
    s->peak_total = max_u64(s->peak_total, c.peak_slots + held);
    return UTURN_OK;
}

/* Every walk of the plan: the top segment first (from its live base in
 * sweep 1), then each segment below; the last sweep frees each base and
 * gives segment i the s - i slots of level q the bases above it left. */
static uturn_status_t add_walks(const uturn_allocator_t *a,
                                const struct uturn__hr_tables *t,
                                const struct uturn__sw_layout *x, struct sum *s)
{
    const uint64_t m = x->m, top = m - 1, c = uturn__sw_c(x);
    const uint64_t k = x->steady ? 1 : x->k, last = !x->steady;
    uturn_status_t st = add_walk(a, t, s, x->L[top], c, 1, top, false, true);
    if (st == UTURN_OK)
        st = add_walk(a, t, s, x->L[top], c, k - 1 - last, top, true, true);
    if (st == UTURN_OK)
        st = add_walk(a, t, s, x->L[top], c, last, top, true, false);
    for (uint64_t i = 0; i < top && st == UTURN_OK; i++) {
        st = add_walk(a, t, s, x->L[i], c, k - last, top, true, true);
        if (st == UTURN_OK)
            st = add_walk(a, t, s, x->L[i], x->s - i, last, i, true, false);
    }
    return st;
}

/* The forward steps of one sweep between the first and the last (each
 * further sweep of an unbounded plan): every segment from its read base,
 * which stays. */
static uturn_status_t middle_sweep(const uturn_allocator_t *a,
                                   const struct uturn__hr_tables *t, size_t q,
                                   const struct uturn__sw_layout *x,
                                   uint64_t *out)
{
    const uint64_t c = uturn__sw_c(x);
    const uint64_t j = c < t->cap[q] ? c : t->cap[q];
    u128 sum         = 0;
    for (uint64_t i = 0; i < x->m; i++) {
        struct uturn__hr_counts h;
        const uturn_status_t st =
            uturn__hr_count_node(a, t, q, x->L[i] - 1, j, true, &h);
        if (st != UTURN_OK)
            return st;
        sum += h.forward_steps;
    }
    if (sum > UINT64_MAX)
        return UTURN_E_OVERFLOW;
    *out = (uint64_t)sum;
    return UTURN_OK;
}

/* The sums into the plan's counts and each level's. */
static uturn_status_t take(uturn_plan_t *plan, const struct sum *s)
{
    uturn_stats_t *st = &plan->stats;
    u128 stores = 0, restores = 0;
    for (size_t k = 0; k < s->levels; k++) {
        stores += s->stores[k];
        restores += s->restores[k];
    }
    if (s->forward > UINT64_MAX || s->actions > UINT64_MAX ||
        stores > UINT64_MAX || restores > UINT64_MAX)
        return UTURN_E_OVERFLOW;
    st->forward_steps = (uint64_t)s->forward;
    st->actions       = (uint64_t)s->actions;
    st->stores        = (uint64_t)stores;
    st->frees         = (uint64_t)stores; /* every store is freed once */
    st->restores      = (uint64_t)restores;
    st->peak_slots    = s->peak_total;
    for (size_t k = 0; k < s->levels; k++) {
        uturn_level_stats_t *ls = &plan->level_stats[k];
        ls->stores              = (uint64_t)s->stores[k];
        ls->restores            = (uint64_t)s->restores[k];
        ls->peak_slots          = s->peak[k];
        if (uturn__mul_u64(ls->peak_slots, plan->problem.slot_bytes,
                           &ls->peak_bytes) != UTURN_OK)
            return UTURN_E_OVERFLOW;
    }
    return UTURN_OK;
}

uturn_status_t uturn__sw_hr_counts(uturn_plan_t *plan,
                                   const struct uturn__hr_tables *t, size_t q,
                                   const struct uturn__sw_layout *x)
{
    struct sum s;
    memset(&s, 0, sizeof s);
    s.levels = t->levels;
    s.q      = q;
    /* the first forward: each base stored and marked, advances between */
    for (uint64_t i = 0; i + 1 < x->m; i++)
        s.forward += x->L[i];
    s.actions         = 3 * (u128)x->m - 1 + (x->steady ? x->m : 0);
    s.stores[q]       = x->m;
    uturn_status_t st = add_walks(&plan->alloc, t, x, &s);
    if (st == UTURN_OK)
        st = middle_sweep(&plan->alloc, t, q, x,
                          &plan->stats.sweep_forward_steps);
    if (st != UTURN_OK)
        return st;
    if (!x->steady && x->k == 2) /* no sweep after the first keeps them */
        plan->stats.sweep_forward_steps = 0;
    const u128 reverses = (u128)(x->steady ? 1 : x->k) * x->n;
    if (reverses > UINT64_MAX)
        return UTURN_E_OVERFLOW;
    plan->stats.reverse_steps = (uint64_t)reverses;
    return take(plan, &s);
}
