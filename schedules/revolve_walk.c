/*
 * revolve's recursion as a generator (revolve_node.h): the walker emits the
 * actions that reverse a node from the checkpoint of its first state, with
 * an explicit stack of pending left parts: at most c frames, one division
 * per split, O(1) amortised work per action. The revolve planner walks its
 * root with it; the online planner for many slots walks each segment its
 * first sweep left (online_slots_end.c).
 */
#include "internal.h"
#include "revolve_node.h"

#include <assert.h>

/* Inlined into every walk, so that `m` and `counted`, constants in each,
 * leave no trace where they are off. */
#define HOT static inline __attribute__((always_inline))

/* How a walk names the slot of a node with c slots: revolve's own number
 * s - c; map[s - c] (a mapped walk); or map[c] (an online walk, whose map
 * its caller keeps reversed and offset, so that one load replaces the
 * subtraction and the load). */
enum slots { OWN, MAP_K, MAP_C };

/* Reverse x_i: the turn when i is the walk's n, which an online walk's
 * never is (its n is UINT64_MAX), so it writes the reverse outright. */
HOT size_t put_reverse(uturn_action_t *out, uint64_t i, uint64_t n,
                       const enum slots m)
{
    if (m == MAP_C)
        return uturn__put(out, UTURN_OP_REVERSE, i, 0, 0);
    return uturn__put_reverse(out, i, n);
}

HOT uint64_t slot_at(const struct uturn__rv_walker *w, uint64_t s, uint64_t c,
                     const enum slots m)
{
    return m == MAP_C ? w->map[c] : m == MAP_K ? w->map[s - c] : s - c;
}

/* Pending single-state left parts come in runs: with many slots a node
 * peels off x_a, then x_{a+1} with one slot less, and so on, and each
 * would be a frame of its own. A frame with l = 1 (whose U, r and V are
 * never read) is instead a run of U singles x_a, x_{a+1}, .. with c, c-1,
 * .. slots: one frame however long the run, so the stack stays small and
 * in cache. */
HOT void push_left(struct uturn__rv_walker *w, const struct uturn__rv_node *n)
{
    if (n->l == 1 && w->depth != 0) {
        struct uturn__rv_node *top = &w->stack[w->depth - 1];
        if (top->l == 1 && top->a + top->U == n->a && top->c == n->c + top->U) {
            top->U += 1;
            return;
        }
    }
    w->stack[w->depth] = *n;
    if (n->l == 1)
        w->stack[w->depth].U = 1;
    w->depth += 1;
}

/* The last pending part: a run's last single, or a whole frame. */
HOT void pop_left(struct uturn__rv_walker *w)
{
    struct uturn__rv_node *top = &w->stack[w->depth - 1];
    if (top->l == 1 && top->U > 1) {
        top->U -= 1;
        w->cur = (struct uturn__rv_node){top->a + top->U, 1, 0, 0,
                                         top->c - top->U, 0};
        return;
    }
    w->cur = *top;
    w->depth -= 1;
}

/* A single state: restore it, reverse it, then free the slot of the right
 * part it ends and resume that part's pending left part. */
HOT size_t leaf(struct uturn__rv_walker *w, uturn_action_t *out,
                const enum slots m, const bool counted,
                struct uturn__rv_tally *tl)
{
    size_t count     = 0;
    const uint64_t a = w->cur.a;
    if (!w->live)
        uturn__put(out + count++, UTURN_OP_RESTORE, a, 0,
                   slot_at(w, w->s, w->cur.c, m));
    put_reverse(out + count++, a, w->n, m);
    if (counted) {
        tl->restores += !w->live;
        tl->reverses += 1;
        tl->frees += 1;
        tl->held -= 1;
    }
    if (w->depth == 0) {
        /* The root's slot: its leftmost leaf keeps the root's c. */
        if (!w->keep_root)
            uturn__put(out + count++, UTURN_OP_FREE, 0, 0,
                       slot_at(w, w->s, w->cur.c, m));
        w->done = true;
        return count;
    }
    pop_left(w);
    uturn__put(out + count++, UTURN_OP_FREE, 0, 0,
               slot_at(w, w->s, w->cur.c - 1, m));
    w->live = false;
    return count;
}

/* Leaves whose pending left part is a run of singles (see push_left),
 * while the run lasts: what leaf() does, with the run's frame and the
 * current single in locals. With many slots most of the reverse sweep is
 * such runs. */
HOT size_t leaf_run(struct uturn__rv_walker *w, uturn_action_t *out,
                    size_t capacity, const enum slots m, const bool counted,
                    struct uturn__rv_tally *tl)
{
    struct uturn__rv_node *top = &w->stack[w->depth - 1];
    const uint64_t ta = top->a, tc = top->c, s = w->s, n = w->n;
    uint64_t a = w->cur.a, c = w->cur.c, U = top->U;
    bool live    = w->live;
    size_t count = 0;
    while (U > 1 && count + 3 <= capacity) {
        if (!live)
            uturn__put(out + count++, UTURN_OP_RESTORE, a, 0,
                       slot_at(w, s, c, m));
        put_reverse(out + count++, a, n, m);
        U -= 1;
        a = ta + U;
        c = tc - U;
        uturn__put(out + count++, UTURN_OP_FREE, 0, 0, slot_at(w, s, c - 1, m));
        live = false;
    }
    if (counted && U != top->U) { /* top->U - U leaves */
        const uint64_t leaves = top->U - U;
        tl->restores += leaves - w->live;
        tl->reverses += leaves;
        tl->frees += leaves;
        tl->held -= leaves;
    }
    top->U  = U;
    w->cur  = (struct uturn__rv_node){a, 1, 0, 0, c, 0};
    w->live = live;
    return count;
}

/* True when leaf_run() applies: a single whose pending part is a run. */
HOT bool in_run(const struct uturn__rv_walker *w)
{
    if (w->cur.l != 1 || w->depth == 0)
        return false;
    const struct uturn__rv_node *top = &w->stack[w->depth - 1];
    return top->l == 1 && top->U > 1;
}

/* True when node p is one peel() takes: one or two repetitions, a split
 * that takes one state (j = 1), a right part that is neither a single
 * state nor a full binomial block, V exact. */
HOT bool peels_node(const struct uturn__rv_node *p)
{
    return (p->r == 1 || p->r == 2) && p->l > 2 && p->V != UTURN__RV_SAT &&
           p->l <= p->V + 1 && p->l - 1 != p->U - (p->r - 1);
}

HOT bool peels(const struct uturn__rv_walker *w)
{
    return peels_node(&w->cur);
}

/* Splits that peel off the node's first state, while they last: what
 * split() and push_left() do for them, in locals. With r <= 2,
 * W = beta(c, r-2) = r - 1 and l <= V + 1 make j = 1: the left part is
 * the single x_a with c slots (for r = 2, j = W makes it the full block
 * beta(c, 0): U = 0, V = 1), the right part keeps r, with c - 1 slots,
 * U - W and V - (U - W). With many slots most of the first sweep is such
 * peels (advance one step, store). The singles peeled, x_a, x_{a+1}, ..
 * with c, c - 1, .. slots, are one run (see push_left): the first is
 * pushed, which starts a run or extends the one on top, and each later
 * one extends it, so the loop counts them and the run grows once. */
HOT size_t peel(struct uturn__rv_walker *w, uturn_action_t *out,
                size_t capacity, const enum slots m, const bool counted,
                struct uturn__rv_tally *tl)
{
    struct uturn__rv_node p           = w->cur;
    const struct uturn__rv_node first = {p.a, 1, 0, 0, p.c, p.r == 1 ? p.U : 1};
    const uint64_t s                  = w->s;
    bool live                         = w->live;
    const uint64_t w1                 = p.r - 1; /* W, r constant */
    uint64_t singles                  = 0;
    size_t count                      = 0;
    /* Of what the test reads, only l, U and V change after the first
     * test, and V only falls (V - rest, rest >= 0): r and V != SAT
     * still hold. */
    bool more = peels_node(&p);
    while (more && count + 3 <= capacity) {
        const uint64_t rest = p.U - w1;
        if (!live)
            uturn__put(out + count++, UTURN_OP_RESTORE, p.a, 0,
                       slot_at(w, s, p.c, m));
        uturn__put(out + count++, UTURN_OP_ADVANCE, p.a, p.a + 1, 0);
        uturn__put(out + count++, UTURN_OP_STORE, p.a + 1, 0,
                   slot_at(w, s, p.c - 1, m));
        p    = (struct uturn__rv_node){p.a + 1, p.l - 1, rest,
                                       p.r,     p.c - 1, p.V - rest};
        live = true;
        singles += 1;
        more = p.l > 2 && p.l <= p.V + 1 && p.l - 1 != p.U - w1;
    }
    if (singles != 0) {
        push_left(w, &first);
        w->stack[w->depth - 1].U += singles - 1;
    }
    if (counted && singles != 0) {
        struct uturn__rv_tally *t = tl;
        t->restores += !w->live;
        t->forward += singles;
        t->advances += singles;
        t->stores += singles;
        t->held += singles;
        t->peak = t->held > t->peak ? t->held : t->peak;
    }
    w->cur  = p;
    w->live = live;
    return count;
}

/* Split the current node: advance to x_{a+j}, then either reverse it at
 * once (a one-state right part) or store it and work on the right part. */
HOT size_t split(struct uturn__rv_walker *w, uturn_action_t *out,
                 const enum slots m, const bool counted,
                 struct uturn__rv_tally *tl)
{
    struct uturn__rv_node left, right;
    /* Split a copy in locals: gcc -O3 keeps its fields in registers, where
     * from w->cur they were reloaded and spilled around the actions'
     * stores (at s = 5, 37.8 instructions per action became 34.5 online
     * and 36.2 for revolve's own plan). */
    const struct uturn__rv_node p = w->cur;
    const uint64_t j              = uturn__rv_split(&p, &left, &right);
    const uint64_t a              = p.a;
    const uint64_t c              = p.c;
    size_t count                  = 0;
    if (!w->live)
        uturn__put(out + count++, UTURN_OP_RESTORE, a, 0,
                   slot_at(w, w->s, c, m));
    uturn__put(out + count++, UTURN_OP_ADVANCE, a, a + j, 0);
    if (counted) {
        tl->restores += !w->live;
        tl->forward += j;
        tl->advances += 1;
    }
    if (right.l == 1) {
        put_reverse(out + count++, a + j, w->n, m);
        if (counted)
            tl->reverses += 1;
        w->cur  = left;
        w->live = false;
        return count;
    }
    uturn__put(out + count++, UTURN_OP_STORE, a + j, 0,
               slot_at(w, w->s, c - 1, m));
    if (counted) {
        struct uturn__rv_tally *t = tl;
        t->stores += 1;
        t->held += 1;
        t->peak = t->held > t->peak ? t->held : t->peak;
    }
    push_left(w, &left);
    w->cur  = right;
    w->live = true;
    return count;
}

struct uturn__rv_node uturn__rv_node_of(uint64_t a, uint64_t l, uint64_t c)
{
    if (l == 1)
        return (struct uturn__rv_node){a, 1, 0, 0, 1, 0};
    c                   = c < l - 1 ? c : l - 1;
    const uint64_t r    = uturn__bin_rep(l, c);                  /* >= 1 */
    const uint64_t U    = uturn__bin_beta(c, r - 1, UINT64_MAX); /* < l */
    const uturn__u128 V = (uturn__u128)U * (c + r) / r - U;
    return (struct uturn__rv_node){
        a, l, U, r, c, V >= UTURN__RV_SAT ? UTURN__RV_SAT : (uint64_t)V};
}

/* The walk, naming slots by m and, when counted, adding what it writes to
 * *tally (both constants in each caller). */
HOT size_t walk(struct uturn__rv_walker *restrict walker,
                uturn_action_t *restrict out, size_t capacity,
                const enum slots m, const bool counted,
                struct uturn__rv_tally *restrict tally)
{
    /* Working copies in locals, so that writing actions cannot be taken
     * to change them (all are uint64_t). */
    struct uturn__rv_walker copy = *walker, *w = &copy;
    struct uturn__rv_tally t = {0, 0, 0, 0, 0, 0, 0, 0};
    if (counted)
        t = *tally;
    size_t count = 0;
    while (!w->done && count + 3 <= capacity) {
        if (in_run(w))
            count += leaf_run(w, out + count, capacity - count, m, counted, &t);
        else if (peels(w))
            count += peel(w, out + count, capacity - count, m, counted, &t);
        if (count + 3 > capacity)
            break;
        count += w->cur.l == 1 ? leaf(w, out + count, m, counted, &t)
                               : split(w, out + count, m, counted, &t);
    }
    *walker = copy;
    if (counted)
        *tally = t;
    return count;
}

size_t uturn__rv_walk_fill(struct uturn__rv_walker *restrict w,
                           uturn_action_t *restrict out, size_t capacity)
{
    return walk(w, out, capacity, OWN, false, NULL);
}

size_t uturn__rv_walk_fill_mapped(struct uturn__rv_walker *restrict w,
                                  uturn_action_t *restrict out, size_t capacity)
{
    return walk(w, out, capacity, MAP_K, false, NULL);
}

size_t uturn__rv_walk_fill_online(struct uturn__rv_walker *restrict w,
                                  uturn_action_t *restrict out, size_t capacity)
{
    assert(w->n == UINT64_MAX); /* no turn: every leaf is a reverse */
    return walk(w, out, capacity, MAP_C, false, NULL);
}

size_t uturn__rv_walk_fill_tallied(struct uturn__rv_walker *restrict w,
                                   uturn_action_t *restrict out,
                                   size_t capacity,
                                   struct uturn__rv_tally *restrict tally)
{
    assert(w->n == UINT64_MAX);
    return walk(w, out, capacity, MAP_C, true, tally);
}
