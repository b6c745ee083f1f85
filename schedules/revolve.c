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
    if (p->slots == UINT64_MAX)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "revolve needs a capacity: slots, or a byte "
                           "budget and slot_bytes");
    if (p->slots == 0) {
        uturn__error_minimum(error, 1, p->slot_bytes);
        return uturn__fail(error, UTURN_E_INFEASIBLE,
                           "revolve needs at least 1 slot (%llu bytes) to "
                           "hold x_0; the capacity is 0",
                           (unsigned long long)p->slot_bytes);
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
    if (frames > (SIZE_MAX - sizeof(struct state)) /
                     sizeof(struct uturn__rv_node))
        return UTURN_E_NOMEM;
    *bytes = sizeof(struct state) +
             (size_t)frames * sizeof(struct uturn__rv_node);
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

static void put(uturn_action_t *out, uturn_op_t op, uint64_t step,
                uint64_t step_end, uint64_t slot)
{
    out->op       = op;
    out->step     = step;
    out->step_end = step_end;
    out->slot     = slot;
}

/* Reverse x_i, which is live: the turn for x_n, an adjoint step otherwise. */
static void put_reverse(const struct state *st, uturn_action_t *out,
                        uint64_t i)
{
    put(out, i == st->n ? UTURN_OP_TURN : UTURN_OP_REVERSE,
        i == st->n ? 0 : i, 0, 0);
}

/* A single state: restore it, reverse it, then free the slot of the right
 * part it ends and resume that part's pending left part. */
static size_t leaf(struct state *st, uturn_action_t *out)
{
    size_t count      = 0;
    const uint64_t a  = st->cur.a;
    const uint64_t sl = st->s - st->cur.c;
    if (!st->live)
        put(out + count++, UTURN_OP_RESTORE, a, 0, sl);
    put_reverse(st, out + count++, a);
    if (st->depth == 0) {
        put(out + count++, UTURN_OP_FREE, 0, 0, 0);
        st->phase = 2;
        return count;
    }
    st->cur = st->stack[--st->depth];
    put(out + count++, UTURN_OP_FREE, 0, 0, st->s - st->cur.c + 1);
    st->live = false;
    return count;
}

/* Split the current node: advance to x_{a+j}, then either reverse it at
 * once (a one-state right part) or store it and work on the right part. */
static size_t split(struct state *st, uturn_action_t *out)
{
    struct uturn__rv_node left, right;
    const uint64_t j  = uturn__rv_split(&st->cur, &left, &right);
    const uint64_t a  = st->cur.a;
    const uint64_t sl = st->s - st->cur.c;
    size_t count      = 0;
    if (!st->live)
        put(out + count++, UTURN_OP_RESTORE, a, 0, sl);
    put(out + count++, UTURN_OP_ADVANCE, a, a + j, 0);
    if (right.l == 1) {
        put_reverse(st, out + count++, a + j);
        st->cur  = left;
        st->live = false;
        return count;
    }
    put(out + count++, UTURN_OP_STORE, a + j, 0, sl + 1);
    st->stack[st->depth++] = left;
    st->cur                = right;
    st->live               = true;
    return count;
}

static size_t fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct state *st = state;
    size_t count     = 0;
    if (st->phase == 0 && capacity > 0) {
        put(out + count++, UTURN_OP_STORE, 0, 0, 0);
        st->phase = 1;
    }
    while (st->phase == 1 && count + 3 <= capacity)
        count += st->cur.l == 1 ? leaf(st, out + count)
                                : split(st, out + count);
    return count;
}

const struct uturn__planner uturn__revolve = {
    .id         = UTURN_PLANNER_REVOLVE,
    .name       = "revolve",
    .prepare    = prepare,
    .state_size = state_size,
    .start      = start,
    .fill       = fill,
};
