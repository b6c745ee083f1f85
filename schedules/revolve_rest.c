/*
 * What the rest of a walk of revolve's recursion writes, from closed forms
 * (revolve_node.h), so that the online planner's reversal need not tally
 * each action: its counts so far are what its segments will write in all
 * less what their walks have still to write.
 *
 * A node of l states with c slots, reversed from its first state (live or
 * in its slot), writes: t(l, c) forward steps; l reverses; l - 1 restores,
 * and one more when its first state is not live; as many stores as revolve
 * for l - 1 steps and min(c, l - 1) slots less its first state's, and as
 * many frees (each store's slot is freed within the node). A pending left
 * part of l >= 2 states adds that node's counts, its first state in its
 * slot, and the free of the right part's slot that ends before it; a run
 * of U singles adds, for each, that free, a restore and a reverse. The
 * root's own slot is freed last, unless the walk keeps it.
 */
#include "revolve_node.h"

/* Stores of a node of l states with c slots, its first state's left out. */
static uint64_t node_stores(uint64_t l, uint64_t c)
{
    if (l <= 2)
        return 0;
    uturn_stats_t st;
    st.size = sizeof st;
    if (uturn__revolve_counts(l - 1, c < l - 1 ? c : l - 1, &st) != UTURN_OK)
        return UINT64_MAX; /* past 2^64: the plan's overflow says so */
    return st.stores - 1;
}

/* Add a node's counts (above) to *t. */
static void add_node(struct uturn__rv_tally *t, uint64_t l, uint64_t c,
                     bool live)
{
    const uint64_t stores = node_stores(l, c);
    t->forward            = uturn__sat_add(t->forward, uturn__bin_t(l, c));
    t->reverses += l;
    t->restores += l - 1 + (live ? 0 : 1);
    t->stores = uturn__sat_add(t->stores, stores);
    t->frees  = uturn__sat_add(t->frees, stores);
}

struct uturn__rv_tally uturn__rv_walk_rest(const struct uturn__rv_walker *w,
                                           const struct uturn__rv_node *stack)
{
    struct uturn__rv_tally t = {0, 0, 0, 0, 0, 0, 0};
    assert(w->n == UINT64_MAX);
    if (w->done)
        return t;
    add_node(&t, w->cur.l, w->cur.c, w->live);
    for (uint64_t d = w->depth; d-- > 0;) {
        const struct uturn__rv_node *f = &stack[d];
        if (f->l == 1) { /* a run of U singles */
            t.frees += f->U;
            t.restores += f->U;
            t.reverses += f->U;
        } else {
            t.frees += 1;
            add_node(&t, f->l, f->c, false);
        }
    }
    t.frees += w->keep_root ? 0 : 1;
    return t;
}
