/* store-all: keep x_0 .. x_{n-1}, one sweep, no recomputation. */
#include "planner.h"

#include <assert.h>

struct state {
    uint64_t n;
    uint64_t next; /* forward: next state to store; reverse: next to undo */
    int phase;     /* 0 forward, 1 turn, 2 reverse, 3 done */
};

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    const uint64_t n   = plan->problem.steps;
    uturn_stats_t *out = &plan->stats;
    if (plan->problem.slots < n) {
        char given[128];
        uturn__capacity_text(&plan->problem, given, sizeof given);
        return uturn__fail_infeasible(error, n, plan->problem.slot_bytes,
                                      "store-all needs %llu slots for %llu "
                                      "steps; %s",
                                      (unsigned long long)n,
                                      (unsigned long long)n, given);
    }
    out->slots         = plan->has_capacity ? plan->problem.slots : n;
    out->forward_steps = n;
    out->reverse_steps = n;
    out->stores        = n;
    out->restores      = n;
    out->frees         = n;
    out->peak_slots    = n;
    plan->slot_span    = n;
    /* n stores, advances, restores, reverses and frees, plus the turn. */
    if (uturn__mul_u64(n, 5, &out->actions) != UTURN_OK ||
        uturn__add_u64(out->actions, 1, &out->actions) != UTURN_OK)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "the action count of %llu steps does not fit in "
                           "64 bits",
                           (unsigned long long)n);
    return UTURN_OK;
}

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    (void)plan;
    *bytes = sizeof(struct state);
    return UTURN_OK;
}

static void start(const uturn_plan_t *plan, void *state)
{
    struct state *s = state;
    s->n            = plan->problem.steps;
    s->next         = 0;
    s->phase        = 0;
}

/* Each phase in a loop of its own, with the generator's state in locals
 * that the actions written cannot alias: with 64-byte states generating
 * is a good part of what an action costs. Every call makes progress when
 * capacity >= 3, as before. */
static size_t fill(void *state, uturn_action_t *restrict out, size_t capacity)
{
    struct state *s  = state;
    const uint64_t n = s->n;
    uint64_t i       = s->next;
    int phase        = s->phase;
    size_t count     = 0;
    for (; phase == 0 && count + 3 <= capacity; i++) {
        count += uturn__put(out + count, UTURN_OP_STORE, i, 0, i);
        count += uturn__put(out + count, UTURN_OP_ADVANCE, i, i + 1, 0);
        phase = i + 1 == n ? 1 : 0;
    }
    if (phase == 1 && count + 3 <= capacity) {
        count += uturn__put(out + count, UTURN_OP_TURN, 0, 0, 0);
        phase = 2;
    }
    for (; phase == 2 && count + 3 <= capacity; i--) {
        assert(i > 0);
        count += uturn__put(out + count, UTURN_OP_RESTORE, i - 1, 0, i - 1);
        count += uturn__put(out + count, UTURN_OP_REVERSE, i - 1, 0, 0);
        count += uturn__put(out + count, UTURN_OP_FREE, 0, 0, i - 1);
        phase = i == 1 ? 3 : 2;
    }
    s->next  = i;
    s->phase = phase;
    return count;
}

/* The stream is the same for every capacity that holds it. */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    uturn__hash_u64(h, plan->problem.steps);
}

const struct uturn__planner uturn__store_all = {
    .id         = UTURN_PLANNER_STORE_ALL,
    .name       = "store-all",
    .prepare    = prepare,
    .state_size = state_size,
    .start      = start,
    .fill       = fill,
    .fingerprint = fingerprint,
};
