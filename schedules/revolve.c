/*
 * revolve: binomial checkpointing (Griewank & Walther 2000), optimal:
 * t(n+1, s) forward steps with s slots, x_0's included. The generator walks
 * the recursion of revolve_node.h from the root (revolve_walk.c): at most
 * min(s, n) frames.
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
    struct uturn__rv_walker w = {st->cur, st->stack, st->depth, st->s,
                                 st->n,   NULL,      st->live,  false,
                                 false};
    count += uturn__rv_walk_fill(&w, out + count, capacity - count);
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
