/*
 * The binomial recursion behind revolve, shared by its generator, its
 * counts and the online planner for many slots (which reverses each
 * segment of its first sweep by it).
 *
 * A node is a segment of l states x_a .. x_{a+l-1} whose first state sits in
 * a slot, with c slots (that one included) to reverse it. beta(c, r) =
 * C(c + r, c) states can be reversed while running no step more than r
 * times; r is the least such for l, so beta(c, r-1) < l <= beta(c, r).
 * A node keeps U = beta(c, r-1) < l and V = beta(c-1, r); V can pass 2^64
 * when c is huge, and is then UTURN__RV_SAT (which is >= every l), to be
 * recomputed exactly if a part ever needs it.
 *
 * The split advances to x_{a+j}: the left part (j states, c slots) and the
 * right part (l - j states, c - 1 more slots) then run at most r-1 and r
 * times each. Any j with beta(c, r-2) <= j <= beta(c, r-1) and
 * beta(c-1, r-1) <= l - j <= beta(c-1, r) gives the optimal
 * t(l, c) = r*l - beta(c+1, r-1) forward steps; we take the smallest,
 * j = max(1, beta(c, r-2), l - beta(c-1, r)), which makes one part a full
 * binomial block beta(., .) and keeps the other in range.
 */
#ifndef UTURN_REVOLVE_NODE_H_INCLUDED
#define UTURN_REVOLVE_NODE_H_INCLUDED

#include "planner.h"

#include <assert.h>

#define UTURN__RV_SAT UINT64_MAX

struct uturn__rv_node {
    uint64_t a; /* first state */
    uint64_t l; /* states, l >= 1 */
    uint64_t U; /* beta(c, r-1), 0 when r = 0 */
    uint64_t r; /* repetitions */
    uint64_t c; /* slots, c >= 1 */
    uint64_t V; /* beta(c-1, r), or UTURN__RV_SAT */
};

/* beta(c, r) = C(c + r, c), or UTURN__RV_SAT when it does not fit. */
static inline uint64_t uturn__rv_beta(uint64_t c, uint64_t r)
{
    const uturn__u128 b = uturn__binomial_capped(c, r, UTURN__RV_SAT);
    return b >= UTURN__RV_SAT ? UTURN__RV_SAT : (uint64_t)b;
}

/* beta(c, r-1) from U = beta(c, r) = C(c + r, c): U * r / (c + r). The
 * low repetition numbers, common with many slots, need no division:
 * beta(c, 0) = 1 and beta(c, -1) = 0. */
static inline uint64_t uturn__rv_down(uint64_t U, uint64_t r, uint64_t c)
{
    if (r <= 1)
        return r; /* r = 0: beta(c, -1) = 0; r = 1: beta(c, 0) = 1 */
    return uturn__muldiv_exact(U, r, c + r);
}

/* Split a node with l >= 2 into its parts; returns j. */
static inline uint64_t uturn__rv_split(const struct uturn__rv_node *p,
                                       struct uturn__rv_node *left,
                                       struct uturn__rv_node *right)
{
    assert(p->l >= 2 && p->r >= 1 && p->c >= 1);
    const uint64_t W       = uturn__rv_down(p->U, p->r - 1, p->c);
    uint64_t j             = p->l > p->V ? p->l - p->V : 0;
    j                      = j > W ? j : W;
    j                      = j > 0 ? j : 1;
    const uint64_t rest    = p->U - W; /* beta(c-1, r-1) */
    const uint64_t right_V = p->V != UTURN__RV_SAT ? p->V - rest
                             : p->c >= 2 ? uturn__rv_beta(p->c - 2, p->r)
                                         : 0;
    *left  = (struct uturn__rv_node){p->a, j, W, p->r - 1, p->c, p->U - W};
    *right = (struct uturn__rv_node){p->a + j, p->l - j, rest,
                                     p->r,     p->c - 1, right_V};
    if (j == W) { /* left is the full block beta(c, r-2) */
        left->r = p->r - 2;
        left->U = uturn__rv_down(W, p->r - 2, p->c);
        left->V = W - left->U;
    }
    if (right->l == rest && right->l > 1) { /* full block beta(c-1, r-1) */
        right->r = p->r - 1;
        right->U = uturn__rv_down(rest, p->r - 1, p->c - 1);
        right->V = rest - right->U;
    }
    return j;
}

/* A walk of revolve's recursion (revolve_walk.c). A node with c slots
 * keeps its first state in slot s - c and stores its split in s - c + 1
 * (revolve's numbers; mapped walks name them through map[]); reversing
 * state n is the turn. The walker's position is plain data; stack holds
 * at least c frames. */
/* What a counted walk wrote: forward steps, stores, restores, frees,
 * reverses, the slots held (from what the caller says at the start) and
 * their peak, and advances. */
struct uturn__rv_tally {
    uint64_t forward, stores, restores, frees, reverses, held, peak;
    uint64_t advances;
};

struct uturn__rv_walker {
    /* the node being worked on, and the pending left parts */
    struct uturn__rv_node cur;
    struct uturn__rv_node *stack;
    uint64_t depth, s, n;
    const uint64_t *map; /* mapped walks: how slots are named */
    bool live, done;
    bool keep_root; /* the root's slot is not freed (a persistent base) */
};

/* The next actions (at most capacity, which is at least 3), until done:
 * the node's last leaf, its first state, reversed and its slot freed. */
size_t uturn__rv_walk_fill(struct uturn__rv_walker *restrict w,
                           uturn_action_t *restrict out, size_t capacity);
/* The same with slot k = s - c as w->map[k]; w->n may be x_n (the root's
 * last state is then reversed by the turn) or UINT64_MAX. The
 * several-sweeps planners' segments. */
size_t uturn__rv_walk_fill_mapped(struct uturn__rv_walker *restrict w,
                                  uturn_action_t *restrict out,
                                  size_t capacity);
/* The online planner's segments: the slot of a node with c slots is
 * w->map[c] (a map reversed and offset by the caller), and the node's
 * last state is not x_n (w->n is UINT64_MAX: no turn). */
size_t uturn__rv_walk_fill_online(struct uturn__rv_walker *restrict w,
                                  uturn_action_t *restrict out,
                                  size_t capacity);
/* The same, adding what it writes to *tally (byte budgets, whose peak the
 * reversal may raise). */
size_t uturn__rv_walk_fill_tallied(struct uturn__rv_walker *restrict w,
                                   uturn_action_t *restrict out,
                                   size_t capacity,
                                   struct uturn__rv_tally *restrict tally);
/* What a walk with no turn (w->n is UINT64_MAX) has still to write from
 * w's position until it is done: forward steps, stores, restores, frees,
 * reverses and advances (held and peak 0), from closed forms; stack is w's
 * (w->stack is not read; NULL at depth 0). O(depth) closed forms
 * (revolve_rest.c). */
struct uturn__rv_tally uturn__rv_walk_rest(const struct uturn__rv_walker *w,
                                           const struct uturn__rv_node *stack);

/* The node for states [a, a + l), l >= 1, reversed with c >= 1 slots
 * (c = min(c, l - 1): more change nothing; a single state keeps c = 1). */
struct uturn__rv_node uturn__rv_node_of(uint64_t a, uint64_t l, uint64_t c);

/* The root for n steps and s >= 1 slots: l = n + 1 states, c = min(s, n)
 * (more slots than steps change nothing). Needs n < 2^64 - 1. */
void uturn__rv_root(uint64_t n, uint64_t s, struct uturn__rv_node *root);

/* The stores revolve's walk of node x makes, its first state's included
 * (revolve_stats.c), without the search for the root's repetitions that
 * uturn__revolve_counts makes; UINT64_MAX past 2^64. */
uint64_t uturn__rv_node_stores(const struct uturn__rv_node *x);

/* Predicted counts of revolve for n steps and s >= 1 slots
 * (revolve_stats.c); UTURN_E_OVERFLOW when one passes 64 bits. */
uturn_status_t uturn__revolve_counts(uint64_t n, uint64_t s,
                                     uturn_stats_t *out);

#endif
