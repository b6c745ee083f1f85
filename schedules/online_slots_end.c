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
        const uint64_t end = j + 1 < h->k ? v->e[j + 1].pos : h->n;
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

/* Start the next segment down, from its checkpoint: revolve's node for
 * it, numbered so that its base is slot j. */
static void next_segment(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h = v->h;
    const uint64_t j        = --h->seg;
    const uint64_t pos      = v->e[j].pos;
    const uint64_t end      = j + 1 < h->k ? v->e[j + 1].pos : h->n;
    v->free_slots[j]        = v->e[j].slot;
    h->cur                  = uturn__rv_node_of(pos, end - pos, h->s - j);
    h->ws                   = j + h->cur.c;
    h->depth                = 0;
    h->live                 = 0;
    h->walking              = 1;
}

/* One walk of the current segment, tallied. */
static size_t walk(struct uturn__os_view *v, uturn_action_t *out,
                   size_t capacity, struct uturn__rv_tally *tally)
{
    struct uturn__os_hdr *h = v->h;
    if (!h->walking)
        next_segment(v);
    const bool keep           = h->keep_x0 && h->seg == 0;
    struct uturn__rv_walker w = {h->cur,       v->stack,   h->depth,
                                 h->ws,        UINT64_MAX, v->free_slots,
                                 h->live != 0, false,      keep};
    const size_t count = uturn__rv_walk_fill_online(&w, out, capacity, tally);
    h->cur             = w.cur;
    h->depth           = w.depth;
    h->live            = w.live;
    if (w.done) {
        h->walking = 0;
        h->phase   = h->seg == 0 ? OS_DONE : OS_REVERSE;
    }
    return count;
}

static size_t reverse(struct uturn__os_view *v, uturn_action_t *out,
                      size_t capacity, struct uturn__rv_tally *tally)
{
    struct uturn__os_hdr *h = v->h;
    size_t count            = 0;
    if (h->phase == OS_REVERSE && !h->turned) {
        h->turned = 1;
        count += uturn__put(out, UTURN_OP_TURN, 0, 0, 0);
    }
    while (h->phase == OS_REVERSE && count + 3 <= capacity)
        count += walk(v, out + count, capacity - count, tally);
    return count;
}

size_t uturn__os_reverse(struct uturn__os_view *v, uturn_action_t *out,
                         size_t capacity)
{
    struct uturn__rv_tally ignored = {0, 0, 0, 0, 0, 0, 0};
    return reverse(v, out, capacity, &ignored);
}

size_t uturn__os_reverse_counted(struct uturn__os_view *v, uturn_action_t *out,
                                 size_t capacity, uturn_stats_t *counted,
                                 uint64_t *held)
{
    struct uturn__rv_tally t = {0, 0, 0, 0, 0, *held, counted->peak_slots};
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
