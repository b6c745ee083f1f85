/* The executor's preflight: model checks, the budget at real cost, and the
 * slot storage, all before the first callback. */
#include "executor.h"

#include <string.h>

static uturn_status_t check_model(const struct uturn__run *run)
{
    const uturn_model_t *m = &run->model;
    if (m->forward == NULL || m->turn == NULL || m->adjoint == NULL)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "the model needs forward, turn and adjoint "
                           "callbacks");
    if (m->state != NULL && m->state_bytes == 0)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "state_bytes must be the size of the state");
    if (m->state == NULL && (m->save == NULL || m->load == NULL))
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "the model needs a state buffer, or save and "
                           "load callbacks");
    if (m->state == NULL && m->state_bytes == 0 && m->state_size == NULL)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "with save/load the model needs state_bytes or "
                           "a state_size callback");
    return UTURN_OK;
}

static uint64_t budget_of(const struct uturn__run *run)
{
    return run->options.budget_bytes != 0 ? run->options.budget_bytes
                                          : run->plan->stats.budget_bytes;
}

static uturn_status_t over_budget(const struct uturn__run *run, uint64_t peak,
                                  uint64_t budget)
{
    const uturn_status_t status = uturn__fail_infeasible(
        run->error, run->plan->stats.peak_slots, 0,
        "the plan needs %llu bytes of slots here (%llu slots at %llu bytes "
        "each, the allocator's real cost), above the budget of %llu bytes; "
        "plan with uturn_executor_plan() to fit it",
        (unsigned long long)peak,
        (unsigned long long)run->plan->stats.peak_slots,
        (unsigned long long)run->slot_cost, (unsigned long long)budget);
    if (run->error != NULL)
        run->error->minimum_bytes = peak;
    return status;
}

/* Uniform states: the peak is the plan's peak slots at real cost. */
static uturn_status_t check_uniform(struct uturn__run *run)
{
    const uint64_t bytes = run->model.state_bytes;
    uturn_status_t status =
        uturn__storage_cost(&run->ex->storage, bytes, &run->slot_cost);
    uint64_t peak = 0;
    if (status == UTURN_OK)
        status =
            uturn__mul_u64(run->plan->stats.peak_slots, run->slot_cost, &peak);
    if (status != UTURN_OK)
        return uturn__fail(run->error, status,
                           "slots of %llu bytes cannot be sized",
                           (unsigned long long)bytes);
    run->report.slot_bytes         = run->slot_cost;
    run->report.planned_peak_bytes = peak;
    const uint64_t budget          = budget_of(run);
    if (budget != 0 && peak > budget)
        return over_budget(run, peak, budget);
    return UTURN_OK;
}

/* Per-step sizes: simulate the plan to find its peak at real cost. This
 * walks every action once, since the peak depends on which states are
 * held together. */
static uturn_status_t check_per_step(struct uturn__run *run)
{
    const uturn_model_t *m = &run->model;
    const uint64_t span    = run->plan->slot_span;
    uint64_t *held = uturn__alloc_zeroed(&run->ex->alloc, span, sizeof *held);
    uturn_cursor_t *cursor = NULL;
    uturn_status_t status  = held == NULL ? UTURN_E_NOMEM : UTURN_OK;
    if (status == UTURN_OK)
        status = uturn_cursor_create(run->plan, &run->ex->alloc, &cursor);
    uint64_t now = 0, peak = 0;
    uturn_action_t a;
    while (status == UTURN_OK && uturn_cursor_next(cursor, &a)) {
        if (a.op == UTURN_OP_STORE) {
            status = uturn__storage_cost(&run->ex->storage,
                                         m->state_size(m->user, a.step),
                                         &held[a.slot]);
            now += held[a.slot];
            peak = now > peak ? now : peak;
        } else if (a.op == UTURN_OP_FREE) {
            now -= held[a.slot];
        }
    }
    uturn_cursor_free(cursor);
    uturn__free(&run->ex->alloc, held, (size_t)span * sizeof *held);
    if (status != UTURN_OK)
        return uturn__fail(run->error, status, "cannot size the plan's slots");
    run->report.planned_peak_bytes = peak;
    const uint64_t budget          = budget_of(run);
    return budget != 0 && peak > budget ? over_budget(run, peak, budget)
                                        : UTURN_OK;
}

static uturn_status_t allocate(struct uturn__run *run)
{
    const uturn_allocator_t *a = &run->ex->alloc;
    const uint64_t span        = run->plan->slot_span;
    const uint64_t n           = run->steps;
    run->slot = uturn__alloc_zeroed(a, span, sizeof *run->slot);
    if (run->slot == NULL)
        return UTURN_E_NOMEM;
    if (run->options.verify) {
        run->hashes = uturn__alloc_zeroed(a, n + 1, sizeof *run->hashes);
        if (run->hashes == NULL)
            return UTURN_E_NOMEM;
        run->report.verify_bytes = (n + 1) * sizeof *run->hashes;
    }
    if (run->per_step) {
        run->slot_bytes = uturn__alloc_zeroed(a, span, sizeof *run->slot_bytes);
        return run->slot_bytes == NULL ? UTURN_E_NOMEM : UTURN_OK;
    }
    const uint64_t count = run->plan->stats.peak_slots;
    if (uturn__pool_fit(run->ex, count, run->model.state_bytes) != UTURN_OK)
        return UTURN_E_NOMEM;
    run->pool                       = run->ex->pool;
    run->pool_size                  = count;
    run->pool_free                  = count;
    run->report.measured_peak_bytes = uturn__storage_measure(&run->ex->storage);
    return UTURN_OK;
}

uturn_status_t uturn__run_prepare(struct uturn__run *run)
{
    uturn_status_t status = check_model(run);
    if (status != UTURN_OK)
        return status;
    run->steps    = run->plan->stats.steps;
    run->per_step = run->model.state == NULL && run->model.state_size != NULL;
    status        = run->per_step ? check_per_step(run) : check_uniform(run);
    if (status != UTURN_OK)
        return status;
    uturn_stats_init(&run->seen);
    run->seen.steps        = run->steps;
    run->seen.slots        = run->plan->stats.slots;
    run->seen.slot_bytes   = run->plan->stats.slot_bytes;
    run->seen.budget_bytes = budget_of(run);
    status                 = allocate(run);
    if (status != UTURN_OK)
        return uturn__fail(run->error, status,
                           "out of memory for %llu slots of %llu bytes",
                           (unsigned long long)run->plan->stats.peak_slots,
                           (unsigned long long)run->slot_cost);
    return UTURN_OK;
}

void uturn__run_release(struct uturn__run *run)
{
    const uturn_allocator_t *a = &run->ex->alloc;
    const uint64_t span        = run->plan->slot_span;
    for (uint64_t k = 0; run->slot_bytes != NULL && k < span; k++)
        uturn__storage_free(&run->ex->storage, run->slot[k],
                            run->slot_bytes[k]);
    /* Slots a failed run still holds go back to the executor's pool. */
    for (uint64_t k = 0; run->pool != NULL && run->slot != NULL && k < span;
         k++)
        if (run->slot[k] != NULL)
            run->pool[run->pool_free++] = run->slot[k];
    uturn__free(a, run->slot, (size_t)span * sizeof *run->slot);
    uturn__free(a, run->slot_bytes, (size_t)span * sizeof *run->slot_bytes);
    uturn__free(a, run->hashes, (size_t)(run->steps + 1) * sizeof *run->hashes);
    run->pool = NULL;
    run->slot = NULL;
}
