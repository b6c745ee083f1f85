/*
 * Reversing one range of states from a checkpoint by revolve's recursion,
 * one step at a time (segwalk.h): the online planners reverse the ranges
 * their first sweep left, each with the slots free at that time.
 */
#include "segwalk.h"

void uturn__walk_begin(struct uturn__walk *w, uint64_t start, uint64_t length,
                       uint64_t slots, uint64_t slot, bool live)
{
    w->a     = start;
    w->l     = length;
    w->c     = slots;
    w->slot  = slot;
    w->depth = 0;
    w->live  = live;
}

/* A single state: reverse it, free its node's slot and go back to the
 * pending left part (or end the range). */
static size_t leaf(struct uturn__walk *w, const struct uturn__walk_mem *mem,
                   uturn_action_t *out, bool *done)
{
    size_t count = 0;
    if (!w->live)
        count += uturn__put(out, UTURN_OP_RESTORE, w->a, 0, w->slot);
    count += uturn__put(out + count, UTURN_OP_REVERSE, w->a, 0, 0);
    count += uturn__put(out + count, UTURN_OP_FREE, 0, 0, w->slot);
    mem->free_slots[(*mem->nfree)++] = w->slot;
    w->live                          = false;
    if (w->depth == 0) {
        *done = true;
        return count;
    }
    const uint64_t *f = mem->stack + 4 * --w->depth;
    w->a              = f[0];
    w->l              = f[1];
    w->c              = f[2];
    w->slot           = f[3];
    return count;
}

/* Split the current node: advance to revolve's split point, then reverse
 * that state at once or store it and work on the right part. */
static size_t split(struct uturn__walk *w, const struct uturn__walk_mem *mem,
                    uturn_action_t *out)
{
    const uint64_t j = uturn__bin_split(w->l, w->c), a = w->a;
    size_t count = 0;
    if (!w->live)
        count += uturn__put(out, UTURN_OP_RESTORE, a, 0, w->slot);
    count += uturn__put(out + count, UTURN_OP_ADVANCE, a, a + j, 0);
    if (w->l - j == 1) {
        count += uturn__put(out + count, UTURN_OP_REVERSE, a + j, 0, 0);
        w->l    = j;
        w->live = false;
        return count;
    }
    const uint64_t ns = mem->free_slots[--(*mem->nfree)];
    count += uturn__put(out + count, UTURN_OP_STORE, a + j, 0, ns);
    uint64_t *f = mem->stack + 4 * w->depth++;
    f[0]        = a;
    f[1]        = j;
    f[2]        = w->c;
    f[3]        = w->slot;
    w->a        = a + j;
    w->l        = w->l - j;
    w->c        = w->c - 1;
    w->slot     = ns;
    w->live     = true;
    return count;
}

size_t uturn__walk_step(struct uturn__walk *w,
                        const struct uturn__walk_mem *mem, uturn_action_t *out,
                        bool *done)
{
    *done = false;
    return w->l == 1 ? leaf(w, mem, out, done) : split(w, mem, out);
}
