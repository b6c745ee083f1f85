/* The online planner for any slot count: the end of its first sweep and
 * its reversal, segment by segment from the top (online_slots.h). */
#include "online_slots.h"

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
        total = uturn__sat_add(total, uturn__bin_t(end - v->e[j].pos, h->s - j));
    }
    h->overflow  = total == UINT64_MAX;
    h->predicted = total;
    h->seg       = h->k;
    h->turned    = 0;
    h->walking   = 0;
    h->phase     = OS_REVERSE;
}

/* Start the next segment down, from its checkpoint. */
static void next_segment(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h = v->h;
    const uint64_t j        = --h->seg;
    const uint64_t end      = j + 1 < h->k ? v->e[j + 1].pos : h->n;
    uturn__walk_begin(&h->walk, v->e[j].pos, end - v->e[j].pos, h->s - j,
                      v->e[j].slot, false);
    h->walking = 1;
}

size_t uturn__os_reverse_step(struct uturn__os_view *v, uturn_action_t *out)
{
    struct uturn__os_hdr *h = v->h;
    if (!h->turned) {
        h->turned = 1;
        return uturn__put(out, UTURN_OP_TURN, 0, 0, 0);
    }
    if (!h->walking)
        next_segment(v);
    const struct uturn__walk_mem mem = {v->stack, v->free_slots, &h->nfree};
    bool done                        = false;
    const size_t count = uturn__walk_step(&h->walk, &mem, out, &done);
    if (done) {
        h->walking = 0;
        if (h->seg == 0)
            h->phase = OS_DONE;
    }
    return count;
}
