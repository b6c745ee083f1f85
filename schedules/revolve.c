/*
 * revolve: binomial checkpointing (Griewank & Walther 2000), optimal:
 * t(n+1, s) forward steps with s slots, x_0's included. The generator walks
 * the recursion of revolve_node.h with an explicit stack of pending left
 * parts: at most min(s, n) frames, one division per split, O(1) amortised
 * work per action.
 */
#include "revolve_node.h"

struct state {
    struct uturn__rv_node cur; /* node being worked on */
    uint64_t n, s;             /* steps, effective slots */
    uint64_t depth;            /* frames on the stack */
    bool live;                 /* the live state is x_{cur.a} */
    int phase;                 /* 0 start, 1 running, 2 done */
    struct uturn__rv_node stack[];
};

static uint64_t effective_slots(const uturn_plan_t *plan)
{
    const uint64_t n = plan->problem.steps, s = plan->problem.slots;
    return s < n ? s : n;
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    const uturn_problem_t *p = &plan->problem;
    if (!plan->has_capacity)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "revolve needs a capacity: slots, or a byte "
                           "budget and slot_bytes");
    if (p->slots == 0) {
        char given[128];
        uturn__capacity_text(p, given, sizeof given);
        return uturn__fail_infeasible(error, 1, p->slot_bytes,
                                      "revolve needs at least 1 slot (%llu "
                                      "bytes) to hold x_0; %s",
                                      (unsigned long long)p->slot_bytes, given);
    }
    if (p->steps >= UINT64_MAX - 1)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "revolve plans at most 2^64 - 3 steps");
    if (uturn__revolve_counts(p->steps, p->slots, &plan->stats) != UTURN_OK)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "revolve's counts for %llu steps and %llu slots "
                           "do not fit in 64 bits",
                           (unsigned long long)p->steps,
                           (unsigned long long)p->slots);
    plan->stats.slots = p->slots;
    plan->slot_span   = effective_slots(plan);
    return UTURN_OK;
}

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    const uint64_t frames = effective_slots(plan);
    if (frames >
        (SIZE_MAX - sizeof(struct state)) / sizeof(struct uturn__rv_node))
        return UTURN_E_NOMEM;
    *bytes =
        sizeof(struct state) + (size_t)frames * sizeof(struct uturn__rv_node);
    return UTURN_OK;
}

static void start(const uturn_plan_t *plan, void *state)
{
    struct state *st = state;
    st->n            = plan->problem.steps;
    st->s            = effective_slots(plan);
    st->depth        = 0;
    st->live         = true;
    st->phase        = 0;
    uturn__rv_root(st->n, st->s, &st->cur);
}

/* The generator's working copy, held in locals while fill() runs so that
 * writing actions cannot be taken to change it (both are uint64_t). */
struct walker {
    struct uturn__rv_node cur;
    struct uturn__rv_node *stack;
    uint64_t depth, s, n;
    bool live, done;
};

/* Pending single-state left parts come in runs: with many slots a node
 * peels off x_a, then x_{a+1} with one slot less, and so on, and each
 * would be a frame of its own. A frame with l = 1 (whose U, r and V are
 * never read) is instead a run of U singles x_a, x_{a+1}, .. with c, c-1,
 * .. slots: one frame however long the run, so the stack stays small and
 * in cache. */
static inline void push_left(struct walker *w, const struct uturn__rv_node *n)
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
static inline void pop_left(struct walker *w)
{
    struct uturn__rv_node *top = &w->stack[w->depth - 1];
    if (top->l == 1 && top->U > 1) {
        top->U -= 1;
        w->cur   = (struct uturn__rv_node){top->a + top->U, 1, 0, 0,
                                         top->c - top->U, 0};
        return;
    }
    w->cur = *top;
    w->depth -= 1;
}

/* A single state: restore it, reverse it, then free the slot of the right
 * part it ends and resume that part's pending left part. */
static inline size_t leaf(struct walker *w, uturn_action_t *out)
{
    size_t count     = 0;
    const uint64_t a = w->cur.a;
    if (!w->live)
        uturn__put(out + count++, UTURN_OP_RESTORE, a, 0, w->s - w->cur.c);
    uturn__put_reverse(out + count++, a, w->n);
    if (w->depth == 0) {
        uturn__put(out + count++, UTURN_OP_FREE, 0, 0, 0);
        w->done = true;
        return count;
    }
    pop_left(w);
    uturn__put(out + count++, UTURN_OP_FREE, 0, 0, w->s - w->cur.c + 1);
    w->live = false;
    return count;
}

/* Leaves whose pending left part is a run of singles (see push_left),
 * while the run lasts: what leaf() does, with the run's frame and the
 * current single in locals. With many slots most of the reverse sweep is
 * such runs. */
static inline size_t leaf_run(struct walker *w, uturn_action_t *out,
                              size_t capacity)
{
    struct uturn__rv_node *top = &w->stack[w->depth - 1];
    const uint64_t ta = top->a, tc = top->c, s = w->s, n = w->n;
    uint64_t a = w->cur.a, c = w->cur.c, U = top->U;
    bool live    = w->live;
    size_t count = 0;
    while (U > 1 && count + 3 <= capacity) {
        if (!live)
            uturn__put(out + count++, UTURN_OP_RESTORE, a, 0, s - c);
        uturn__put_reverse(out + count++, a, n);
        U -= 1;
        a = ta + U;
        c = tc - U;
        uturn__put(out + count++, UTURN_OP_FREE, 0, 0, s - c + 1);
        live = false;
    }
    top->U  = U;
    w->cur  = (struct uturn__rv_node){a, 1, 0, 0, c, 0};
    w->live = live;
    return count;
}

/* True when leaf_run() applies: a single whose pending part is a run. */
static inline bool in_run(const struct walker *w)
{
    if (w->cur.l != 1 || w->depth == 0)
        return false;
    const struct uturn__rv_node *top = &w->stack[w->depth - 1];
    return top->l == 1 && top->U > 1;
}

/* True when node p is one peel() takes: one or two repetitions, a split
 * that takes one state (j = 1), a right part that is neither a single
 * state nor a full binomial block, V exact. */
static inline bool peels_node(const struct uturn__rv_node *p)
{
    return (p->r == 1 || p->r == 2) && p->l > 2 && p->V != UTURN__RV_SAT &&
           p->l <= p->V + 1 && p->l - 1 != p->U - (p->r - 1);
}

static inline bool peels(const struct walker *w)
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
static inline size_t peel(struct walker *w, uturn_action_t *out,
                          size_t capacity)
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
        const uint64_t sl   = s - p.c;
        const uint64_t rest = p.U - w1;
        if (!live)
            uturn__put(out + count++, UTURN_OP_RESTORE, p.a, 0, sl);
        uturn__put(out + count++, UTURN_OP_ADVANCE, p.a, p.a + 1, 0);
        uturn__put(out + count++, UTURN_OP_STORE, p.a + 1, 0, sl + 1);
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
    w->cur  = p;
    w->live = live;
    return count;
}

/* Split the current node: advance to x_{a+j}, then either reverse it at
 * once (a one-state right part) or store it and work on the right part. */
static inline size_t split(struct walker *w, uturn_action_t *out)
{
    struct uturn__rv_node left, right;
    const uint64_t j  = uturn__rv_split(&w->cur, &left, &right);
    const uint64_t a  = w->cur.a;
    const uint64_t sl = w->s - w->cur.c;
    size_t count      = 0;
    if (!w->live)
        uturn__put(out + count++, UTURN_OP_RESTORE, a, 0, sl);
    uturn__put(out + count++, UTURN_OP_ADVANCE, a, a + j, 0);
    if (right.l == 1) {
        uturn__put_reverse(out + count++, a + j, w->n);
        w->cur  = left;
        w->live = false;
        return count;
    }
    uturn__put(out + count++, UTURN_OP_STORE, a + j, 0, sl + 1);
    push_left(w, &left);
    w->cur  = right;
    w->live = true;
    return count;
}

static size_t fill(void *state, uturn_action_t *restrict out, size_t capacity)
{
    struct state *st = state;
    size_t count     = 0;
    if (st->phase == 0 && capacity > 0) {
        uturn__put(out + count++, UTURN_OP_STORE, 0, 0, 0);
        st->phase = 1;
    }
    if (st->phase != 1)
        return count;
    struct walker w = {st->cur, st->stack, st->depth, st->s,
                       st->n,   st->live,  false};
    while (!w.done && count + 3 <= capacity) {
        if (in_run(&w))
            count += leaf_run(&w, out + count, capacity - count);
        else if (peels(&w))
            count += peel(&w, out + count, capacity - count);
        if (count + 3 > capacity)
            break;
        count += w.cur.l == 1 ? leaf(&w, out + count) : split(&w, out + count);
    }
    st->cur   = w.cur;
    st->depth = w.depth;
    st->live  = w.live;
    st->phase = w.done ? 2 : 1;
    return count;
}

/* Slots beyond the steps change nothing (the generator uses min(s, n)). */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    uturn__hash_u64(h, plan->problem.steps);
    uturn__hash_u64(h, effective_slots(plan));
}

const struct uturn__planner uturn__revolve = {
    .id         = UTURN_PLANNER_REVOLVE,
    .name       = "revolve",
    .prepare    = prepare,
    .state_size = state_size,
    .start      = start,
    .fill       = fill,
    .fingerprint = fingerprint,
};
