/* dp's counts come from walking its own generator (O(n^2) for the exact
 * table: each split looks its best j up again; O(n * W) with the band),
 * with sizes and costs counted exactly. */
#include "dp.h"

static uint64_t bytes_of(const uturn_plan_t *plan, uint64_t i)
{
    if (plan->step_bytes != NULL)
        return plan->step_bytes[i];
    return plan->problem.slot_bytes != 0 ? plan->problem.slot_bytes : 1;
}

struct tally {
    uint64_t *held; /* bytes in slot k */
    uint64_t bytes, slots;
};

/* Count one action into the plan's stats. */
static void count_action(uturn_plan_t *plan, const uturn_action_t *a,
                         struct tally *t)
{
    const struct uturn__dp *dp = plan->data;
    uturn_stats_t *s           = &plan->stats;
    s->actions += 1;
    if (a->op == UTURN_OP_ADVANCE) {
        s->forward_steps += a->step_end - a->step;
        s->forward_cost += uturn__dp_cost(&dp->chain, a->step, a->step_end);
    } else if (a->op == UTURN_OP_STORE) {
        t->held[a->slot] = bytes_of(plan, a->step);
        t->bytes += t->held[a->slot];
        t->slots += 1;
        s->stores += 1;
        s->peak_slots = t->slots > s->peak_slots ? t->slots : s->peak_slots;
        s->peak_bytes = t->bytes > s->peak_bytes ? t->bytes : s->peak_bytes;
    } else if (a->op == UTURN_OP_FREE) {
        t->bytes -= t->held[a->slot];
        t->slots -= 1;
        s->frees += 1;
    } else if (a->op == UTURN_OP_RESTORE) {
        s->restores += 1;
    } else if (a->op == UTURN_OP_REVERSE) {
        s->reverse_steps += 1;
    }
}

static uturn_status_t walk(uturn_plan_t *plan)
{
    const uturn_allocator_t *a = &plan->alloc;
    const uint64_t n           = plan->problem.steps;
    size_t bytes               = 0;
    if (uturn__dp_state_size(plan, &bytes) != UTURN_OK)
        return UTURN_E_NOMEM;
    void *st       = uturn__alloc(a, bytes);
    struct tally t = {uturn__alloc_zeroed(a, n + 1, sizeof *t.held), 0, 0};
    if (st != NULL && t.held != NULL) {
        uturn__dp_start(plan, st);
        uturn_action_t buf[64];
        for (size_t got; (got = uturn__dp_fill(st, buf, 64)) != 0;)
            for (size_t i = 0; i < got; i++)
                count_action(plan, &buf[i], &t);
    }
    const bool ok = st != NULL && t.held != NULL;
    uturn__free(a, st, bytes);
    uturn__free(a, t.held, (size_t)(n + 1) * sizeof *t.held);
    return ok ? UTURN_OK : UTURN_E_NOMEM;
}

uturn_status_t uturn__dp_count(uturn_plan_t *plan, uturn_error_t *error)
{
    if (walk(plan) != UTURN_OK)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory walking dp's plan");
    const struct uturn__dp *dp = plan->data;
    uturn_stats_t *s           = &plan->stats;
    s->recompute_cost = s->forward_cost - dp->chain.prefix[plan->problem.steps];
    /* Uniform slots have a capacity (docs/model.md: not the peak); slots of
     * different sizes have a byte budget instead, and use 0 .. peak-1. */
    s->slots = plan->step_bytes == NULL ? plan->problem.slots : s->peak_slots;
    plan->slot_span     = s->peak_slots;
    s->exact            = dp->exact;
    s->unit_bytes       = dp->chain.unit;
    s->lower_bound_cost = dp->exact ? s->forward_cost : dp->lower_bound;
    if (plan->step_bytes == NULL && plan->problem.slot_bytes == 0)
        s->peak_bytes = 0; /* slots only: bytes unknown */
    return UTURN_OK;
}
