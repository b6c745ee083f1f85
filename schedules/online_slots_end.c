/* The online planner for any slot count: the end of its first sweep and
 * its reversal, segment by segment from the top, each by revolve's
 * generator (online_slots.h). */
#include "online_slots.h"

#include <assert.h>
#include <string.h>

/* The held set, in order, into e[0 .. k-1] (pos and slot). */
static void collect(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h = v->h;
    if (h->phase == OS_MERGE) {
        v->e[h->k - 1].pos  = h->top_pos;
        v->e[h->k - 1].slot = h->top_slot;
        return;
    }
    uint64_t j = 0;
    for (uint32_t i = h->head; i != UTURN__OS_NIL; i = v->nodes[i].next, j++) {
        v->e[j].pos  = v->nodes[i].pos;
        v->e[j].slot = v->nodes[i].slot;
    }
}

void uturn__os_end_sweep(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h = v->h;
    h->n                    = h->m;
    collect(v);
    uint64_t total = h->n;
    for (uint64_t j = 0; j < h->k; j++) {
        const uint64_t end = uturn__os_seg_end(v, j);
        total =
            uturn__sat_add(total, uturn__bin_t(end - v->e[j].pos, h->s - j));
    }
    /* The slot map: the free slots at k .. s - 1 (map[j] is set as
     * segment j starts); a byte budget's plan whose s fell has more free
     * than it uses. */
    assert(h->nfree >= h->s - h->k);
    memmove(v->free_slots + h->k, v->free_slots,
            (size_t)h->nfree * sizeof *v->free_slots);
    h->overflow  = total == UINT64_MAX;
    h->predicted = total;
    h->seg       = h->k;
    h->turned    = 0;
    h->walking   = 0;
    h->phase     = OS_REVERSE;
}

/* The turn: the slot map reversed, R[i] = map[cap - i], so that segment
 * j's slot for a node with c slots, map[ws - c], is (R + cap - ws)[c]. */
static size_t turn(struct uturn__os_view *v, uturn_action_t *out)
{
    uint64_t *map = v->free_slots;
    for (uint64_t i = 0, k = v->h->cap; i < k; i++, k--) {
        const uint64_t x = map[i];
        map[i]           = map[k];
        map[k]           = x;
    }
    v->h->turned = 1;
    return uturn__put(out, UTURN_OP_TURN, 0, 0, 0);
}

static void add_tally(struct uturn__rv_tally *t,
                      const struct uturn__rv_tally *a)
{
    t->forward  = uturn__sat_add(t->forward, a->forward);
    t->stores   = uturn__sat_add(t->stores, a->stores);
    t->restores = uturn__sat_add(t->restores, a->restores);
    t->frees    = uturn__sat_add(t->frees, a->frees);
    t->reverses = uturn__sat_add(t->reverses, a->reverses);
    t->advances = uturn__sat_add(t->advances, a->advances);
}

/* Start the next segment down, from its checkpoint: revolve's node for
 * it, numbered so that its base is slot j. */
static void next_segment(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h = v->h;
    const uint64_t j        = --h->seg;
    const uint64_t pos      = v->e[j].pos;
    const uint64_t end      = uturn__os_seg_end(v, j);
    const struct uturn__rv_node node =
        uturn__rv_node_of(pos, end - pos, h->s - j);
    const uint64_t ws         = j + node.c;
    v->free_slots[h->cap - j] = v->e[j].slot;
    unsigned char *base       = (unsigned char *)h;
    h->stack_off              = (uint64_t)((unsigned char *)v->stack - base);
    h->map_off =
        (uint64_t)((unsigned char *)(v->free_slots + (h->cap - ws)) - base);
    h->wk      = (struct uturn__rv_walker){.cur       = node,
                                           .s         = ws,
                                           .n         = UINT64_MAX,
                                           .keep_root = h->keep_x0 && j == 0};
    h->all     = uturn__rv_walk_rest(&h->wk, NULL);
    h->walking = 1;
}

/* The next segment down when it holds one or two states (most of them
 * with many slots), with no walk: what the walk writes, in its order
 * (restore, [advance, reverse x_{a+1}, restore,] reverse x_a, free), at
 * most 6 actions; its counts go to reversed, and to *tally unless it is
 * NULL. 0 when the segment is longer. */
static size_t short_segment(struct uturn__os_view *v, uturn_action_t *out,
                            struct uturn__rv_tally *tally)
{
    struct uturn__os_hdr *h = v->h;
    const uint64_t j = h->seg - 1, a = v->e[j].pos, slot = v->e[j].slot;
    const uint64_t l = uturn__os_seg_end(v, j) - a;
    if (l > 2)
        return 0;
    const bool keep = h->keep_x0 && j == 0;
    size_t count    = uturn__put(out, UTURN_OP_RESTORE, a, 0, slot);
    if (l == 2) {
        count += uturn__put(out + count, UTURN_OP_ADVANCE, a, a + 1, 0);
        count += uturn__put(out + count, UTURN_OP_REVERSE, a + 1, 0, 0);
        count += uturn__put(out + count, UTURN_OP_RESTORE, a, 0, slot);
    }
    count += uturn__put(out + count, UTURN_OP_REVERSE, a, 0, 0);
    if (!keep)
        count += uturn__put(out + count, UTURN_OP_FREE, 0, 0, slot);
    const struct uturn__rv_tally t = {l - 1, 0, l, keep ? 0 : 1,
                                      l,     0, 0, l - 1};
    add_tally(&h->reversed, &t);
    if (tally != NULL) {
        add_tally(tally, &t);
        tally->held -= t.frees;
    }
    v->free_slots[h->cap - j] = slot; /* the segments below may use it */
    h->seg                    = j;
    h->phase                  = j == 0 ? OS_DONE : OS_REVERSE;
    return count;
}

/* Once the walk is done, its counts go to reversed. */
static void after_walk(struct uturn__os_hdr *h)
{
    if (h->wk.done) {
        add_tally(&h->reversed, &h->all);
        h->walking = 0;
        h->phase   = h->seg == 0 ? OS_DONE : OS_REVERSE;
    }
}

/* The reversal's next actions; tallied into *tally unless it is NULL. */
static size_t reverse(struct uturn__os_view *v, uturn_action_t *out,
                      size_t capacity, struct uturn__rv_tally *tally)
{
    struct uturn__os_hdr *h = v->h;
    size_t count            = 0;
    if (h->phase == OS_REVERSE && !h->turned)
        count += turn(v, out);
    while (h->phase == OS_REVERSE && count + 3 <= capacity) {
        if (!h->walking && count + 6 <= capacity) {
            const size_t got = short_segment(v, out + count, tally);
            count += got;
            if (got != 0)
                continue;
        }
        if (!h->walking)
            next_segment(v);
        struct uturn__rv_walker *w = uturn__os_walker(h);
        count +=
            tally != NULL
                ? uturn__rv_walk_fill_tallied(w, out + count, capacity - count,
                                              tally)
                : uturn__rv_walk_fill_online(w, out + count, capacity - count);
        after_walk(h);
    }
    return count;
}

size_t uturn__os_reverse_next(void *state, uturn_action_t *out, size_t capacity)
{
    struct uturn__os_hdr *h = state;
    if (h->walking && h->wk.done)
        after_walk(h);
    struct uturn__os_view v = uturn__os_view(state);
    return reverse(&v, out, capacity, NULL);
}

size_t uturn__os_reverse_counted(struct uturn__os_view *v, uturn_action_t *out,
                                 size_t capacity, uturn_stats_t *counted,
                                 uint64_t *held)
{
    struct uturn__rv_tally t = {0, 0, 0, 0, 0, *held, counted->peak_slots, 0};
    const size_t count       = reverse(v, out, capacity, &t);
    counted->actions += count;
    counted->forward_steps += t.forward;
    counted->stores += t.stores;
    counted->restores += t.restores;
    counted->frees += t.frees;
    counted->reverse_steps += t.reverses;
    counted->peak_slots = t.peak;
    *held               = t.held;
    return count;
}

void uturn__os_reversal_counts(const void *state, uturn_stats_t *s)
{
    const struct uturn__os_hdr *h = state;
    if (h->phase < OS_REVERSE)
        return;
    struct uturn__rv_tally so_far = h->reversed;
    if (h->walking) { /* the current walk's in all, less its rest */
        const void *stack = (const unsigned char *)h + h->stack_off;
        const struct uturn__rv_tally rest = uturn__rv_walk_rest(&h->wk, stack);
        add_tally(&so_far, &h->all);
        so_far.forward -= rest.forward;
        so_far.stores -= rest.stores;
        so_far.restores -= rest.restores;
        so_far.frees -= rest.frees;
        so_far.reverses -= rest.reverses;
        so_far.advances -= rest.advances;
    }
    /* every action of the reversal is one of these, or the turn */
    s->actions += (h->turned ? 1 : 0) + so_far.stores + so_far.restores +
                  so_far.frees + so_far.reverses + so_far.advances;
    s->forward_steps += so_far.forward;
    s->stores += so_far.stores;
    s->restores += so_far.restores;
    s->frees += so_far.frees;
    s->reverse_steps += so_far.reverses;
}
