/*
 * The peak of a run whose states differ in size, at the storage's real
 * cost: the most that the strides of the states held together ever add up
 * to. A plan whose step_bytes are already strides (uturn_executor_plan()
 * made them so) carries it in its counts. Otherwise the plan's stores are
 * simulated once; for sizes the plan holds, the result is kept in the
 * executor (keyed by the plan and its fingerprint), so a repeated run does
 * not walk the plan again.
 */
#include "executor.h"

#include <string.h>

/* The bytes of x_step as this run stores it: the stride of the plan's
 * size, else of the model's. */
static bool stride_of(const struct uturn__run *run, uint64_t step,
                      uint64_t *stride)
{
    const uturn_model_t *m = &run->model;
    const uint64_t bytes   = run->sizes != NULL && step < run->steps
                                 ? run->sizes[step]
                                 : m->state_size(m->user, step);
    return uturn__stride(bytes, stride);
}

static bool sizes_are_strides(const struct uturn__run *run)
{
    for (uint64_t i = 0; i < run->steps; i++)
        if (run->sizes[i] % UTURN__SLOT_ALIGNMENT != 0)
            return false;
    return true;
}

/* One store or free of the simulation; held maps slot -> stride + 1. */
static uturn_status_t simulate_one(struct uturn__run *run,
                                   struct uturn__slot_map *held,
                                   const uturn_action_t *a, uint64_t *now,
                                   uint64_t *peak)
{
    if (a->op == UTURN_OP_STORE) {
        uint64_t s = 0;
        if (!stride_of(run, a->step, &s) ||
            uturn__add_u64(*now, s, now) != UTURN_OK)
            return UTURN_E_OVERFLOW;
        *peak = *now > *peak ? *now : *peak;
        return uturn__slot_map_put(held, &run->ex->alloc, a->slot, s + 1);
    }
    if (a->op == UTURN_OP_FREE) {
        *now -= uturn__slot_map_get(held, a->slot) - 1;
        uturn__slot_map_erase(held, a->slot);
    }
    return UTURN_OK;
}

static uturn_status_t simulate(struct uturn__run *run, uint64_t *peak)
{
    uturn_cursor_t *cursor = NULL;
    struct uturn__slot_map held;
    memset(&held, 0, sizeof held);
    uturn_status_t st = uturn_cursor_create(run->plan, &run->ex->alloc, &cursor);
    uint64_t now      = 0;
    *peak             = 0;
    uturn_action_t a;
    while (st == UTURN_OK && uturn_cursor_next(cursor, &a))
        st = simulate_one(run, &held, &a, &now, peak);
    uturn_cursor_free(cursor);
    uturn__slot_map_free(&held, &run->ex->alloc);
    if (st == UTURN_E_OVERFLOW)
        return uturn__fail(run->error, st,
                           "the plan's slots hold more than 2^64 bytes");
    if (st != UTURN_OK)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory sizing the plan's slots");
    return UTURN_OK;
}

uturn_status_t uturn__run_sized_need(struct uturn__run *run, uint64_t *need)
{
    uturn_executor_t *ex = run->ex;
    const uturn_plan_t *p = run->plan;
    /* The plan's own sizes: its counts or the kept result may serve. */
    const bool own = run->sizes != NULL && run->sizes == p->step_bytes;
    if (own && sizes_are_strides(run)) {
        *need = p->stats.peak_bytes;
        return UTURN_OK;
    }
    const bool cacheable = own;
    if (cacheable && ex->peak_plan == p &&
        ex->peak_fingerprint == p->stats.fingerprint) {
        *need = ex->peak_bytes;
        return UTURN_OK;
    }
    const uturn_status_t st = simulate(run, need);
    if (st == UTURN_OK && cacheable) {
        ex->peak_plan        = p;
        ex->peak_fingerprint = p->stats.fingerprint;
        ex->peak_bytes       = *need;
    }
    return st;
}
