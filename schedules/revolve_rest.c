/*
 * What the rest of a walk of revolve's recursion writes, from closed forms
 * (revolve_node.h), so that the online planner's reversal need count no
 * action: a segment's counts so far are its counts in all less what its
 * walk has still to write.
 *
 * A node of l states with c slots, reversed from its first state (live or
 * in its slot), writes: t(l, c) forward steps in l - 1 advances (each
 * state but the first is reached by one); l reverses; l - 1 restores,
 * and one more when its first state is not live; as many stores as
 * revolve's walk of it less its first state's, and as many frees (each
 * store's slot is freed within the node). A pending left part of l >= 2
 * states adds that node's counts, its first state in its slot, and the
 * free of the right part's slot that ends before it; a run of U singles
 * adds, for each, that free, a restore and a reverse. The root's own slot
 * is freed last, unless the walk keeps it.
 */
#include "revolve_node.h"

/* Add a node's counts (above) to *t. */
static void add_node(struct uturn__rv_tally *t, const struct uturn__rv_node *x,
                     bool live)
{
    const uint64_t stores = x->l <= 2 ? 0 : uturn__rv_node_stores(x) - 1;
    t->forward = uturn__sat_add(t->forward, uturn__bin_t(x->l, x->c));
    t->reverses += x->l;
    t->advances += x->l - 1;
    t->restores += x->l - 1 + (live ? 0 : 1);
    t->stores = uturn__sat_add(t->stores, stores);
    t->frees  = uturn__sat_add(t->frees, stores);
}

struct uturn__rv_tally uturn__rv_walk_rest(const struct uturn__rv_walker *w,
                                           const struct uturn__rv_node *stack)
{
    struct uturn__rv_tally t = {0, 0, 0, 0, 0, 0, 0, 0};
    assert(w->n == UINT64_MAX);
    if (w->done)
        return t;
    add_node(&t, &w->cur, w->live);
    for (uint64_t d = w->depth; d-- > 0;) {
        const struct uturn__rv_node *f = &stack[d];
        if (f->l == 1) { /* a run of U singles */
            t.frees += f->U;
            t.restores += f->U;
            t.reverses += f->U;
        } else {
            t.frees += 1;
            add_node(&t, f, false);
        }
    }
    t.frees += w->keep_root ? 0 : 1;
    return t;
}
