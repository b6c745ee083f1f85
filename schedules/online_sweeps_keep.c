/* Online plans of several sweeps: the choice at the end between a fresh
 * layout and one kept from sweep 1's checkpoints, and sweep 1's reversal
 * when it keeps them (online_sweeps.h). */
#include "online_sweeps.h"

#include <string.h>

static uint64_t *words(void *state, int part)
{
    return uturn__ow_part(state, part);
}

/* The held checkpoints e[0 .. k-1] at or below each of the m positions
 * the layout L places (the highest one not yet taken), x_0 first: their
 * indices in e[] into chosen; returns how many. */
static uint64_t snap(const struct uturn__os_view *v, uint64_t k,
                     const uint64_t *L, uint64_t m, uint64_t *chosen)
{
    uint64_t count = 1, j = 0, pos = 0;
    chosen[0] = 0;
    for (uint64_t i = 1; i < m; i++) {
        pos += L[i - 1];
        while (j + 1 < k && v->e[j + 1].pos <= pos)
            j++;
        if (j > chosen[count - 1])
            chosen[count++] = j;
    }
    return count;
}

/* Sweep 1's reversal keeping the chosen: the range from held checkpoint
 * j has s - j slots less one for each chosen above it (x_n among them,
 * when chosen: index k, no range of its own). */
static uturn__u128 first_cost(const struct uturn__os_view *v,
                              const uint64_t *chosen, uint64_t count)
{
    const struct uturn__os_hdr *h = v->h;
    uturn__u128 total             = h->n;
    uint64_t above = 0, q = count;
    for (uint64_t j = h->k; j-- > 0;) {
        while (q > 0 && chosen[q - 1] > j) {
            q--;
            above++;
        }
        const uint64_t end = uturn__os_seg_end(v, j);
        total += uturn__bin_t(end - v->e[j].pos, h->s - j - above);
    }
    return total;
}

/* The layout whose persistent checkpoints are the chosen (lengths into
 * y->L), and the forward steps of its sweeps: the family's, less the
 * first forward it needs no more. */
static uturn__u128 rest_cost(const struct uturn__os_view *v,
                             const uint64_t *chosen, uint64_t count,
                             struct uturn__sw_layout *y)
{
    y->m = count;
    for (uint64_t i = 0; i < count; i++) {
        const uint64_t next =
            i + 1 < count ? v->e[chosen[i + 1]].pos : y->n + 1;
        y->L[i] = next - v->e[chosen[i]].pos;
    }
    const uint64_t cost = uturn__sw_cost(y);
    if (cost == UINT64_MAX)
        return (uturn__u128)UINT64_MAX + 1;
    return cost - (y->n + 1 - y->L[count - 1]); /* the first forward */
}

/* The kept choice with the fewest forward steps over every m: its
 * chosen into best (count returned), its cost into *cost. */
static uint64_t best_kept(struct ow *o, void *state,
                          const struct uturn__os_view *v, uturn__u128 *cost)
{
    uint64_t *best = words(state, OW_KEPT), *chosen = words(state, OW_MAP);
    struct uturn__sw_layout y = o->d.x, z = o->d.x; /* n, s, k set */
    y.L              = words(state, OW_SCRATCH);
    z.L              = words(state, OW_LABEL);
    y.lambda         = 0;
    uint64_t count   = 0;
    *cost            = (uturn__u128)UINT64_MAX + 1;
    const uint64_t K = v->h->k + (uint64_t)o->xn;
    for (uint64_t m = 1; m <= K && m <= y.s; m++) {
        y.m = m;
        if (uturn__sw_place(&y) == UINT64_MAX)
            continue;
        const uint64_t got = snap(v, K, y.L, m, chosen);
        const uturn__u128 c =
            first_cost(v, chosen, got) + rest_cost(v, chosen, got, &z);
        if (c < *cost) {
            *cost = c;
            count = got;
            memcpy(best, chosen, (size_t)got * sizeof *best);
        }
    }
    return count;
}

/* The slots free at the end into out[q ..], but x_n's when it is kept;
 * returns the new q. */
static uint64_t add_free(const struct ow *o, const struct uturn__os_view *v,
                         uint64_t *out, uint64_t q)
{
    const uint64_t nfree = v->h->nfree - (uint64_t)o->xn_kept;
    for (uint64_t i = 0; i < nfree; i++)
        out[q++] = v->free_slots[v->h->k + i];
    return q;
}

/* Take the kept choice: the layout, the kept flags, the labels. */
static void take_kept(struct ow *o, void *state, const struct uturn__os_view *v,
                      uint64_t count)
{
    uint64_t *kept = words(state, OW_KEPT), *list = words(state, OW_MAP);
    uint64_t *label = words(state, OW_LABEL);
    memcpy(list, kept, (size_t)count * sizeof *list);
    memset(kept, 0, (size_t)(v->h->k + (uint64_t)o->xn) * sizeof *kept);
    uint64_t q = count;
    for (uint64_t i = 0; i < count; i++) {
        kept[list[i]] = 1;
        label[i]      = v->e[list[i]].slot;
        o->d.p[i]     = v->e[list[i]].pos;
    }
    o->xn_kept = o->xn && kept[v->h->k];
    for (uint64_t j = 0; j < v->h->k; j++)
        if (!kept[j])
            label[q++] = v->e[j].slot;
    q = add_free(o, v, label, q);
    rest_cost(v, list, count, &o->d.x); /* the lengths into d.x.L */
    o->d.x.scratch_slot = count;
    o->d.label          = label;
    o->d.cold           = true;
    uturn__sw_gen_start(uturn__ow_part(state, OW_GEN), &o->d, count);
}

uint64_t uturn__ow_choose(struct ow *o, void *state)
{
    const struct uturn__os_view v =
        uturn__os_view(uturn__ow_part(state, OW_OS));
    struct uturn__sw_layout *x = &o->d.x;
    const uint64_t fresh       = uturn__sw_best(x, words(state, OW_SCRATCH));
    const uturn__u128 fresh_total =
        fresh == UINT64_MAX ? (uturn__u128)UINT64_MAX + 1
        : x->steady         ? (uturn__u128)v.h->predicted
                            : (uturn__u128)v.h->predicted + fresh;
    uturn__u128 kept_total = (uturn__u128)UINT64_MAX + 1;
    /* x_n, live at the end, may be kept too when a slot is free: as
     * e[k] in the last free slot (stored before the turn) */
    o->xn      = !x->steady && v.h->nfree > 0;
    o->xn_kept = 0;
    if (o->xn) {
        v.e[v.h->k].pos  = v.h->n;
        v.e[v.h->k].slot = v.free_slots[v.h->k + v.h->nfree - 1];
    }
    const uint64_t count = x->steady ? 0 : best_kept(o, state, &v, &kept_total);
    if (count != 0 && kept_total < fresh_total) {
        take_kept(o, state, &v, count);
        o->phase    = OW_KEEP;
        o->restored = 1; /* no x_0 to restore: the layout is held */
        return kept_total > UINT64_MAX ? UINT64_MAX : (uint64_t)kept_total;
    }
    x->scratch_slot = x->m;
    o->d.p[0]       = 0;
    for (uint64_t i = 1; i < x->m; i++)
        o->d.p[i] = o->d.p[i - 1] + x->L[i - 1];
    uturn__sw_gen_start(uturn__ow_part(state, OW_GEN), &o->d, 1);
    return fresh_total > UINT64_MAX ? UINT64_MAX : (uint64_t)fresh_total;
}

/* The walk of sweep 1's next range down: its base, the slots of the
 * ranges above it not kept, and those free at the end. */
static void begin(struct ow *o, void *state, const struct uturn__os_view *v)
{
    const uint64_t j = --o->seg, k = v->h->k;
    const uint64_t *kept = words(state, OW_KEPT);
    uint64_t *map        = words(state, OW_MAP);
    uint64_t q           = 1;
    map[0]               = v->e[j].slot;
    for (uint64_t i = j + 1; i < k; i++)
        if (!kept[i])
            map[q++] = v->e[i].slot;
    q                  = add_free(o, v, map, q);
    const uint64_t end = uturn__os_seg_end(v, j);
    o->cur             = uturn__rv_node_of(v->e[j].pos, end - v->e[j].pos, q);
    o->ws              = o->cur.c;
    o->depth           = 0;
    o->live            = 0;
    o->walking         = 1;
}

/* The persist actions of the kept (but x_0, marked at its store); x_n,
 * when kept, stored first. */
static size_t persist(struct ow *o, void *state, const struct uturn__os_view *v,
                      uturn_action_t *out, size_t capacity)
{
    const uint64_t *kept = words(state, OW_KEPT);
    const uint64_t K     = v->h->k + (uint64_t)o->xn_kept;
    size_t count         = 0;
    while (o->persisted < K && count + 2 <= capacity) {
        const uint64_t j = o->persisted++;
        if (j == v->h->k) /* x_n, live */
            count += uturn__put(out + count, UTURN_OP_STORE, v->h->n, 0,
                                v->e[j].slot);
        if (j != 0 && kept[j])
            count +=
                uturn__put(out + count, UTURN_OP_PERSIST, 0, 0, v->e[j].slot);
    }
    return count;
}

size_t uturn__ow_keep_fill(struct ow *o, void *state, uturn_action_t *out,
                           size_t capacity)
{
    const struct uturn__os_view v =
        uturn__os_view(uturn__ow_part(state, OW_OS));
    size_t count = persist(o, state, &v, out, capacity);
    if (o->persisted < v.h->k + (uint64_t)o->xn_kept || count == capacity)
        return count;
    if (!o->turned) {
        o->turned = 1;
        o->seg    = v.h->k;
        count += uturn__put(out + count, UTURN_OP_TURN, 0, 0, 0);
    }
    const uint64_t *kept = words(state, OW_KEPT);
    while (count + 3 <= capacity && (o->walking || o->seg != 0)) {
        if (!o->walking)
            begin(o, state, &v);
        struct uturn__rv_walker w = {
            o->cur,       v.stack,    o->depth,
            o->ws,        UINT64_MAX, words(state, OW_MAP),
            o->live != 0, false,      kept[o->seg] != 0};
        count += uturn__rv_walk_fill_mapped(&w, out + count, capacity - count);
        o->cur     = w.cur;
        o->depth   = w.depth;
        o->live    = w.live;
        o->walking = !w.done;
    }
    return count;
}
