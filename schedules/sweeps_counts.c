/*
 * The counts of a several-sweeps plan (sweeps.h), predicted without
 * generating it: the first forward, then each sweep's segment walks, each
 * a revolve plan for its segment (revolve_stats.c) less the store of its
 * base, plus a restore of the base when the walk does not start from it
 * live, less the base's free in every sweep but the last. An unbounded
 * plan's stream is the first forward, sweep 1 and a free of each base.
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

enum pass { FIRST, MIDDLE, LAST };

/* `times` sweeps of one kind: sweep 1 (its top segment starts from the
 * live state), a middle one, or the last (which frees each base). */
static uturn_status_t one_kind(const struct uturn__sw_layout *x, enum pass pass,
                               uint64_t times, struct sum *s)
{
    const uint64_t m = x->m, c = uturn__sw_c(x), top = m - 1;
    /* only one level's last sweep frees bases early for more slots */
    const bool last = pass == LAST, bonus = last && x->c_fixed == 0;
    struct walk w;
    if (walk_counts(x->L[top], c, pass == FIRST, !last, &w) != UTURN_OK)
        return UTURN_E_OVERFLOW;
    add(s, &w, times, m - 1);
    for (uint64_t i = 0; i < top; i++) {
        const uint64_t slots = bonus ? x->s - i : c;
        if (walk_counts(x->L[i], slots, false, !last, &w) != UTURN_OK)
            return UTURN_E_OVERFLOW;
        add(s, &w, times, bonus ? i : m - 1);
    }
    return UTURN_OK;
}

/* Sweep 1, then the middle sweeps (k - 2) and the last; an unbounded
 * plan's stream ends after sweep 1 with a free of each base. */
static uturn_status_t sweeps(const struct uturn__sw_layout *x, struct sum *s)
{
    if (one_kind(x, FIRST, 1, s) != UTURN_OK)
        return UTURN_E_OVERFLOW;
    if (x->steady) {
        s->frees += x->m;
        s->actions += x->m;
        return UTURN_OK;
    }
    if (one_kind(x, MIDDLE, x->k - 2, s) != UTURN_OK)
        return UTURN_E_OVERFLOW;
    return one_kind(x, LAST, 1, s);
}

uturn_status_t uturn__sw_counts(const struct uturn__sw_layout *x,
                                uturn_stats_t *out)
{
    struct sum s = {0, x->m, 0, 0, 3 * (u128)x->m - 1, x->m};
    for (uint64_t i = 0; i + 1 < x->m; i++)
        s.forward += x->L[i]; /* the first forward */
    struct sum middle = {0, 0, 0, 0, 0, 0};
    if (sweeps(x, &s) != UTURN_OK ||
        one_kind(x, MIDDLE, 1, &middle) != UTURN_OK)
        return UTURN_E_OVERFLOW;
    const u128 reverses = (u128)(x->steady ? 1 : x->k) * x->n;
    if (s.forward > UINT64_MAX || s.stores > UINT64_MAX ||
        s.restores > UINT64_MAX || s.frees > UINT64_MAX ||
        s.actions > UINT64_MAX || reverses > UINT64_MAX ||
        middle.forward > UINT64_MAX)
        return UTURN_E_OVERFLOW;
    /* with two sweeps no sweep after the first keeps them: none to give */
    out->sweep_forward_steps =
        x->steady || x->k > 2 ? (uint64_t)middle.forward : 0;
    out->forward_steps = (uint64_t)s.forward;
    out->stores        = (uint64_t)s.stores;
    out->restores      = (uint64_t)s.restores;
    out->frees         = (uint64_t)s.frees;
    out->actions       = (uint64_t)s.actions;
    out->peak_slots    = s.peak;
    out->reverse_steps = (uint64_t)reverses;
    return UTURN_OK;
}

/* The restores of a walk's base: one before each split of the chain of
 * left parts that keeps it (none before the first when the walk starts
 * from the live base), and one before its last leaf. */
static uint64_t walk_base_restores(uint64_t l, uint64_t c, bool live)
{
    struct uturn__rv_node n = uturn__rv_node_of(0, l, c), left, right;
    uint64_t count          = live ? 0 : 1;
    if (n.c == 1) /* one slot: the base is restored for each state */
        return count + (l - 1);
    while (n.l > 1) { /* at most r splits: each lowers the repetitions */
        uturn__rv_split(&n, &left, &right);
        n = left;
        count += 1;
    }
    return count;
}

uint64_t uturn__sw_base_restores(const struct uturn__sw_layout *x)
{
    const uint64_t c = uturn__sw_c(x);
    /* sweep 1, then the k - 1 others (an unbounded stream: sweep 1) */
    const u128 later = x->steady ? 0 : x->k - 1;
    u128 total       = 0;
    for (uint64_t i = 0; i < x->m; i++) {
        const bool top = i == x->m - 1;
        total += walk_base_restores(x->L[i], c, top);
        total += later * walk_base_restores(x->L[i], c, false);
    }
    return total > UINT64_MAX ? UINT64_MAX : (uint64_t)total;
}

uturn_status_t uturn__sw_middle_counts(const struct uturn__sw_layout *x,
                                       uturn_stats_t *out,
                                       uint64_t *base_restores)
{
    struct sum middle = {0, 0, 0, 0, 0, 0};
    if (one_kind(x, MIDDLE, 1, &middle) != UTURN_OK ||
        middle.forward > UINT64_MAX || middle.stores > UINT64_MAX ||
        middle.restores > UINT64_MAX)
        return UTURN_E_OVERFLOW;
    out->forward_steps = (uint64_t)middle.forward;
    out->stores        = (uint64_t)middle.stores;
    out->restores      = (uint64_t)middle.restores;
    const uint64_t c   = uturn__sw_c(x);
    u128 total         = 0;
    for (uint64_t i = 0; i < x->m; i++)
        total += walk_base_restores(x->L[i], c, false);
    *base_restores = total > UINT64_MAX ? UINT64_MAX : (uint64_t)total;
    return UTURN_OK;
}
