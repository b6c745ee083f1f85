/*
 * What an online walk of revolve's recursion (revolve_node.h) has written
 * so far, without a count of each action: the walker counts its stores
 * and forward steps, which only splits and peels write (a few of the
 * actions), and the rest follows from its position.
 *
 * From a root of l states whose first state is in its slot, a walk writes
 * l reverses and l restores (each state is reversed once, and restored
 * before unless it is live: the root's first state is not, and every
 * other state is live exactly when the split that reached it left it so,
 * once for each restore it saved). What it has still to reverse and
 * restore: the current node's l states (l - 1 restores when its first
 * state is live), and each pending left part's, a run of U singles
 * counting U. Each pending part also holds one slot: the first state of
 * the right part stored at its split, freed when the part resumes; so
 * frees so far are the stores less the slots those parts hold, and the
 * root's own slot is freed last unless the walk keeps it.
 */
#include "revolve_node.h"

struct uturn__rv_tally uturn__rv_walk_so_far(const struct uturn__rv_walker *w,
                                             const struct uturn__rv_node *stack,
                                             uint64_t l)
{
    struct uturn__rv_tally t = {w->forward, w->stores, l, 0, l, 0, 0};
    if (w->done) {
        t.frees = w->stores + (w->keep_root ? 0 : 1);
        return t;
    }
    uint64_t states = w->cur.l, held = 0;
    for (uint64_t d = 0; d < w->depth; d++) {
        const struct uturn__rv_node *f = &stack[d];
        states += f->l == 1 ? f->U : f->l;
        held += f->l == 1 ? f->U : 1;
    }
    t.reverses -= states;
    t.restores -= states - (w->live ? 1 : 0);
    t.frees = w->stores - held;
    return t;
}
