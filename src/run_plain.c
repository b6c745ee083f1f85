/*
 * The plain loop: the fast loop's run (see run_fast.c) when no progress
 * callback is set, which is most runs. With 64-byte states an action costs
 * a few nanoseconds, so everything that need not happen per action is
 * hoisted out of it:
 *  - no work-progress threshold: the cost of an advance is added once
 *    (from the plan's step costs when it has them), not per step;
 *  - no action index: it is the batch's first index plus the position;
 *  - no sample countdown per action: the actions before the next timed
 *    one run as one untimed span;
 *  - frees follow from the slots held at the end (stores - held);
 *  - the copy size is a constant for common small states, so the copy is
 *    a few moves inline instead of a call into memcpy.
 * The counts, the report and every failure are the fast loop's.
 */
#include "executor.h"

#include <string.h>

/* The loop is instantiated per copy size (see above). */
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

/* The loop's working set: a local of the run, never passed out of line,
 * so the compiler keeps it in registers and spill slots. */
struct plain {
    unsigned char *base;
    void *state;
    size_t bytes;
    uint64_t stride;
    const uint64_t *costs;
    int (*forward)(void *, uint64_t);
    int (*adjoint)(void *, uint64_t);
    int (*turn)(void *);
    void *user;
    uint64_t forward_steps, cost, stores, restores, held, peak, reversed;
    /* A failed action: its callback's name (NULL: an unknown op), the
     * step and the callback's value. */
    const char *which;
    uint64_t step;
    int rc;
};

/* Steps step .. end-1 of the plan's cost (1 each without step costs). */
static uint64_t cost_of(const uint64_t *costs, uint64_t step, uint64_t end)
{
    if (costs == NULL)
        return end - step;
    uint64_t sum = 0;
    for (uint64_t i = step; i < end; i++)
        sum += costs[i];
    return sum;
}

HOT bool plain_advance(struct plain *p, const uturn_action_t *a)
{
    for (uint64_t i = a->step; i < a->step_end; i++) {
        const int rc = p->forward(p->user, i);
        if (rc != 0) {
            p->forward_steps += i - a->step;
            p->cost += cost_of(p->costs, a->step, i);
            p->which = "forward", p->step = i, p->rc = rc;
            return false;
        }
    }
    p->forward_steps += a->step_end - a->step;
    p->cost += p->costs == NULL ? a->step_end - a->step
                                : cost_of(p->costs, a->step, a->step_end);
    return true;
}

HOT bool plain_call(struct plain *p, int rc, const char *which, uint64_t step)
{
    if (rc == 0)
        return true;
    p->which = which, p->step = step, p->rc = rc;
    return false;
}

/* One action; false when it failed (p says how). bytes is p->bytes,
 * a constant where the loop is instantiated for one. */
HOT bool plain_one(struct plain *p, const uturn_action_t *a, size_t bytes)
{
    switch (a->op) {
    case UTURN_OP_ADVANCE:
        return plain_advance(p, a);
    case UTURN_OP_STORE:
        memcpy(p->base + a->slot * p->stride, p->state, bytes);
        p->stores += 1;
        p->held += 1;
        p->peak = p->held > p->peak ? p->held : p->peak;
        return true;
    case UTURN_OP_RESTORE:
        memcpy(p->state, p->base + a->slot * p->stride, bytes);
        p->restores += 1;
        return true;
    case UTURN_OP_FREE:
        p->held -= 1;
        return true;
    case UTURN_OP_TURN:
        return plain_call(p, p->turn(p->user), "turn", UTURN_NONE);
    case UTURN_OP_REVERSE: {
        const int rc = p->adjoint(p->user, a->step);
        p->reversed += rc == 0;
        return plain_call(p, rc, "adjoint", a->step);
    }
    case UTURN_OP_PERSIST:
        return true;
    }
    p->which = NULL, p->rc = (int)a->op;
    return false;
}

/* Up to n untimed actions; returns how many succeeded. */
HOT size_t plain_span(struct plain *p, const uturn_action_t *a, size_t n,
                      size_t bytes)
{
    for (size_t i = 0; i < n; i++)
        if (!plain_one(p, &a[i], bytes))
            return i;
    return n;
}

/* One timed action (its turn in the sample has come). */
HOT bool plain_timed(struct uturn__run *run, struct plain *p,
                     const uturn_action_t *a, size_t bytes)
{
    const double t0 = uturn__now();
    const bool ok   = plain_one(p, a, bytes);
    uturn__run_sampled(run, a->op, uturn__now() - t0);
    return ok;
}

/* One batch; false at a failed action, whose index is then run->index. */
HOT bool plain_batch(struct uturn__run *run, struct plain *p,
                     const uturn_action_t *batch, size_t count, size_t bytes)
{
    size_t i = 0;
    while (i < count) {
        const size_t room  = count - i;
        const uint64_t gap = run->countdown - 1; /* untimed before one */
        const size_t n     = gap < room ? (size_t)gap : room;
        const size_t done  = plain_span(p, batch + i, n, bytes);
        run->countdown -= done;
        i += done;
        if (done < n || i == count)
            break;
        run->countdown -= 1;
        if (!plain_timed(run, p, &batch[i], bytes))
            break;
        i += 1;
    }
    run->index += i;
    return i == count;
}

HOT void load_plain(const struct uturn__run *run, struct plain *p)
{
    *p = (struct plain){
        .base    = run->base,
        .state   = run->model.state,
        .bytes   = (size_t)run->state_bytes,
        .stride  = run->stride,
        .costs   = run->plan->step_costs,
        .forward = run->model.forward,
        .adjoint = run->model.adjoint,
        .turn    = run->model.turn,
        .user    = run->model.user,
    };
}

/* The counts so far back into the run, and the failure if any. */
HOT uturn_status_t save_plain(struct uturn__run *run, const struct plain *p,
                              bool ok)
{
    uturn_stats_t *s = &run->seen;
    s->forward_steps = p->forward_steps;
    s->stores        = p->stores;
    s->restores      = p->restores;
    s->frees         = p->stores - p->held;
    s->reverse_steps = p->reversed;
    s->peak_slots    = p->peak;
    s->peak_bytes    = p->peak * run->plan->stats.slot_bytes;
    run->work_done += p->cost + p->reversed;
    if (ok)
        return UTURN_OK;
    if (p->which != NULL)
        return uturn__run_callback_failed(
            run, p->which, p->step == UTURN_NONE ? run->steps : p->step, p->rc);
    return uturn__fail_at(run->error, UTURN_E_INVALID_PLAN, run->index, 0,
                          UTURN_NONE, "unknown op %d (action %llu)", p->rc,
                          (unsigned long long)run->index);
}

/* The whole run for states of `bytes` (a constant in each instance). */
HOT uturn_status_t plain_run(struct uturn__run *run, size_t bytes)
{
    const struct uturn__planner *g = run->plan->planner;
    uturn_action_t *batch          = run->ex->batch;
    struct plain p;
    load_plain(run, &p);
    size_t count = 0;
    bool ok      = true;
    while (ok && (count = g->fill(run->ex->gen, batch, UTURN__BATCH)) != 0)
        ok = plain_batch(run, &p, batch, count, bytes);
    return save_plain(run, &p, ok);
}

bool uturn__run_plain_applies(const struct uturn__run *run)
{
    return uturn__run_fast_applies(run) && run->options.progress == NULL &&
           run->options.on_progress == NULL;
}

uturn_status_t uturn__run_plain(struct uturn__run *run)
{
    switch (run->state_bytes) {
    case 16:
        return plain_run(run, 16);
    case 32:
        return plain_run(run, 32);
    case 64:
        return plain_run(run, 64);
    case 128:
        return plain_run(run, 128);
    default:
        return plain_run(run, (size_t)run->state_bytes);
    }
}
