/*
 * The counts of a several-sweeps plan (sweeps.h), predicted without
 * generating it: the first forward, then each sweep's segment walks, each
 * a revolve plan for its segment (revolve_stats.c) less the store of its
 * base, plus a restore of the base when the walk does not start from it
 * live, less the base's free in every sweep but the last.
 */
#include "revolve_node.h"
#include "sweeps.h"

typedef uturn__u128 u128;

struct sum {
    u128 forward, stores, restores, frees, actions;
    uint64_t peak;
};

struct walk {
    uint64_t forward, stores, restores, frees, actions, peak;
};

/* A walk of l states with c slots from a stored base; live: it starts
 * from the live base; keep: the base stays. */
static uturn_status_t walk_counts(uint64_t l, uint64_t c, bool live, bool keep,
                                  struct walk *w)
{
    if (l == 1) {
        *w = (struct walk){0, 0, !live, !keep, (uint64_t)!live + 1 + !keep, 1};
        return UTURN_OK;
    }
    uturn_stats_t r;
    uturn_stats_init(&r);
    if (uturn__revolve_counts(l - 1, c, &r) != UTURN_OK)
        return UTURN_E_OVERFLOW;
    *w = (struct walk){r.forward_steps,
                       r.stores - 1,
                       r.restores + !live,
                       r.frees - keep,
                       r.actions - 1 + !live - keep,
                       r.peak_slots};
    return UTURN_OK;
}

/* Add `times` copies of walk w, below which `held` other slots are held. */
static void add(struct sum *s, const struct walk *w, uint64_t times,
                uint64_t held)
{
    s->forward += (u128)w->forward * times;
    s->stores += (u128)w->stores * times;
    s->restores += (u128)w->restores * times;
    s->frees += (u128)w->frees * times;
    s->actions += (u128)w->actions * times;
    if (times != 0 && held + w->peak > s->peak)
        s->peak = held + w->peak;
}

/* Sweep 1, the middle sweeps (k - 2 of them) and the last. */
static uturn_status_t sweeps(const struct uturn__sw_layout *x, struct sum *s)
{
    const uint64_t m = x->m, c = x->s - m + 1, top = m - 1;
    struct walk w;
    for (int pass = 0; pass < 3; pass++) {
        const uint64_t times = pass == 1 ? x->k - 2 : 1;
        const bool last      = pass == 2;
        if (walk_counts(x->L[top], c, pass == 0, !last, &w) != UTURN_OK)
            return UTURN_E_OVERFLOW;
        add(s, &w, times, m - 1);
        for (uint64_t i = 0; i < top; i++) {
            const uint64_t slots = last ? x->s - i : c;
            if (walk_counts(x->L[i], slots, false, !last, &w) != UTURN_OK)
                return UTURN_E_OVERFLOW;
            add(s, &w, times, last ? i : m - 1);
        }
    }
    return UTURN_OK;
}

uturn_status_t uturn__sw_counts(const struct uturn__sw_layout *x,
                                uturn_stats_t *out)
{
    struct sum s = {0, x->m, 0, 0, 3 * (u128)x->m - 1, x->m};
    for (uint64_t i = 0; i + 1 < x->m; i++)
        s.forward += x->L[i]; /* the first forward */
    if (sweeps(x, &s) != UTURN_OK)
        return UTURN_E_OVERFLOW;
    const u128 reverses = (u128)x->k * x->n;
    if (s.forward > UINT64_MAX || s.stores > UINT64_MAX ||
        s.restores > UINT64_MAX || s.frees > UINT64_MAX ||
        s.actions > UINT64_MAX || reverses > UINT64_MAX)
        return UTURN_E_OVERFLOW;
    out->forward_steps = (uint64_t)s.forward;
    out->stores        = (uint64_t)s.stores;
    out->restores      = (uint64_t)s.restores;
    out->frees         = (uint64_t)s.frees;
    out->actions       = (uint64_t)s.actions;
    out->peak_slots    = s.peak;
    out->reverse_steps = (uint64_t)reverses;
    return UTURN_OK;
}
