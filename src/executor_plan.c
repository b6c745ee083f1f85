/*
 * uturn_executor_plan(): plans whose counts are what a run will hold. Slot
 * sizes become the storage's strides and the budget the part of it the
 * storage can use, so the planner plans with the real cost and the plan's
 * peak_bytes is exactly the run's (before the storage rounds it up).
 */
#include "executor.h"

#include <stdio.h>
#include <string.h>

/* Every size as its stride, in a copy the caller frees. */
static uturn_status_t stride_sizes(const uturn_executor_t *ex,
                                   const uint64_t *sizes, uint64_t n,
                                   uint64_t **out, uturn_error_t *error)
{
    uint64_t *strides =
        uturn__alloc_zeroed(&ex->alloc, (size_t)n, sizeof *strides);
    if (strides == NULL)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory for %llu slot sizes",
                           (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++) {
        if (sizes[i] == 0 || !uturn__stride(sizes[i], &strides[i])) {
            uturn__free(&ex->alloc, strides, (size_t)n * sizeof *strides);
            return uturn__fail(
                error, sizes[i] == 0 ? UTURN_E_INVALID_ARG : UTURN_E_OVERFLOW,
                "step_bytes[%llu] = %llu cannot be a slot",
                (unsigned long long)i, (unsigned long long)sizes[i]);
        }
    }
    *out = strides;
    return UTURN_OK;
}

/* The budget the storage can use: the most bytes a region may hold
 * within it. */
static uturn_status_t usable_budget(const uturn_executor_t *ex,
                                    uturn_problem_t *real, uint64_t first,
                                    uturn_error_t *error)
{
    const struct uturn__storage *st = &ex->storage;
    const uint64_t b                = real->budget_bytes;
    if (b == 0)
        return UTURN_OK;
    real->budget_bytes = st->ops->usable(st, b);
    if (real->budget_bytes >= first)
        return UTURN_OK;
    uint64_t least = first;
    uturn__storage_round(st, first, &least);
    return uturn__fail_infeasible(error, 1, least,
                                  "a budget of %llu bytes holds no slot of "
                                  "%llu bytes here (the least is %llu bytes)",
                                  (unsigned long long)b,
                                  (unsigned long long)first,
                                  (unsigned long long)least);
}

/* An infeasible plan names its least capacity; the least budget is what
 * that capacity's region costs here. */
static void real_minimum(const uturn_executor_t *ex,
                         const uturn_problem_t *real, uturn_error_t *error)
{
    if (error == NULL || error->minimum_bytes == 0)
        return;
    uint64_t raw = error->minimum_bytes;
    if (real->step_bytes == NULL && error->minimum_slots != 0 &&
        uturn__mul_u64(error->minimum_slots, real->slot_bytes, &raw) !=
            UTURN_OK)
        return;
    uturn__storage_round(&ex->storage, raw, &error->minimum_bytes);
}

/* Level k's capacity at the storage's real cost: level 0's bytes hold its
 * slots and the I/O buffers, a further level's bytes whole strides. */
static uturn_status_t real_level(const uturn_executor_t *ex,
                                 const uturn_problem_t *real, uint64_t k,
                                 uturn_level_t *lv, uturn_error_t *error)
{
    if (lv->slots != 0 || lv->bytes == 0 || real->slot_bytes == 0)
        return UTURN_OK; /* uturn_plan_create() names what is missing */
    const uint64_t buffers =
        k == 0 ? uturn__level_buffers_for(ex, real->level_count) : 0;
    const uint64_t usable =
        k == 0 ? ex->storage.ops->usable(&ex->storage, lv->bytes) : lv->bytes;
    const uint64_t fit = usable / real->slot_bytes;
    if (fit <= buffers) {
        uint64_t least = 0;
        uturn__mul_u64(buffers + 1, real->slot_bytes, &least);
        if (k == 0)
            uturn__storage_round(&ex->storage, least, &least);
        return uturn__fail_infeasible(
            error, 1, least,
            "level %llu (%llu bytes) holds no slot of %llu bytes%s (the "
            "least is %llu bytes)",
            (unsigned long long)k, (unsigned long long)lv->bytes,
            (unsigned long long)real->slot_bytes,
            buffers != 0 ? " beside the I/O buffers" : "",
            (unsigned long long)least);
    }
    lv->slots = fit - buffers;
    lv->bytes = 0;
    return UTURN_OK;
}

/* The problem's levels with slot counts, in levels[]. */
static uturn_status_t real_levels(const uturn_executor_t *ex,
                                  uturn_problem_t *real,
                                  uturn_level_t levels[UTURN__MAX_LEVELS],
                                  uturn_error_t *error)
{
    if (real->levels == NULL || real->level_count == 0)
        return UTURN_OK;
    if (real->level_count > UTURN__MAX_LEVELS)
        return uturn__fail(
            error, UTURN_E_INVALID_ARG, "%llu levels: at most %d",
            (unsigned long long)real->level_count, UTURN__MAX_LEVELS);
    for (uint64_t k = 0; k < real->level_count; k++) {
        const uturn_level_t *in = &real->levels[k];
        uturn_level_init(&levels[k]);
        memcpy(&levels[k], in,
               in->size != 0 && in->size < sizeof *in ? in->size : sizeof *in);
        levels[k].size          = sizeof levels[k];
        const uturn_status_t st = real_level(ex, real, k, &levels[k], error);
        if (st != UTURN_OK)
            return st;
    }
    real->levels = levels;
    return UTURN_OK;
}

/* The message speaks of the usable budget, in slots at the storage's
 * real cost: say what the caller gave beside it. */
static void name_given_budget(const uturn_problem_t *given,
                              const uturn_problem_t *real, uturn_error_t *error)
{
    if (error == NULL || given->budget_bytes == real->budget_bytes)
        return;
    const size_t used = strlen(error->message);
    snprintf(error->message + used, sizeof error->message - used,
             " (of the %llu bytes given, %llu hold slots here: a %llu-byte "
             "state takes a %llu-byte slot)",
             (unsigned long long)given->budget_bytes,
             (unsigned long long)real->budget_bytes,
             (unsigned long long)given->slot_bytes,
             (unsigned long long)real->slot_bytes);
}

uturn_status_t uturn_executor_plan(const uturn_executor_t *executor,
                                   const uturn_problem_t *problem,
                                   uturn_plan_t **out, uturn_error_t *error)
{
    if (out != NULL)
        *out = NULL;
    if (executor == NULL || problem == NULL || out == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "executor, problem and out must not be NULL");
    uturn_problem_t real;
    uturn__problem_copy(problem, &real);
    if (real.slot_bytes == 0 && real.step_bytes == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "slot_bytes (or step_bytes) must give the size of "
                           "a state");
    if (real.slot_bytes != 0 &&
        !uturn__stride(real.slot_bytes, &real.slot_bytes))
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "a slot of %llu bytes cannot be sized",
                           (unsigned long long)problem->slot_bytes);
    uint64_t *strides = NULL;
    uturn_status_t st = UTURN_OK;
    if (real.step_bytes != NULL && real.steps != 0)
        st = stride_sizes(executor, real.step_bytes, real.steps, &strides,
                          error);
    real.step_bytes = strides != NULL ? strides : real.step_bytes;
    uturn_level_t levels[UTURN__MAX_LEVELS];
    if (st == UTURN_OK)
        st = real_levels(executor, &real, levels, error);
    if (st == UTURN_OK)
        st = usable_budget(executor, &real,
                           strides != NULL ? strides[0] : real.slot_bytes,
                           error);
    if (st == UTURN_OK)
        st = uturn_plan_create(&real, &executor->alloc, out, error);
    if (st == UTURN_E_INFEASIBLE)
        real_minimum(executor, &real, error);
    if (st == UTURN_E_INFEASIBLE)
        name_given_budget(problem, &real, error);
    uturn__free(&executor->alloc, strides,
                (size_t)real.steps * sizeof *strides);
    return st;
}

uturn_status_t uturn_executor_level_slots(const uturn_executor_t *executor,
                                          const uturn_problem_t *problem,
                                          uint64_t level, uint64_t *slots,
                                          uturn_error_t *error)
{
    if (executor == NULL || problem == NULL || slots == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "executor, problem and slots must not be NULL");
    uturn_problem_t real;
    uturn__problem_copy(problem, &real);
    if (level >= real.level_count || real.levels == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "level %llu: the problem has %llu levels",
                           (unsigned long long)level,
                           (unsigned long long)real.level_count);
    if (real.slot_bytes != 0 &&
        !uturn__stride(real.slot_bytes, &real.slot_bytes))
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "a slot of %llu bytes cannot be sized",
                           (unsigned long long)problem->slot_bytes);
    uturn_level_t levels[UTURN__MAX_LEVELS];
    const uturn_status_t st = real_levels(executor, &real, levels, error);
    if (st != UTURN_OK)
        return st;
    if (levels[level].slots == 0)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "level %llu has no capacity: give slots, or bytes "
                           "and slot_bytes",
                           (unsigned long long)level);
    *slots = levels[level].slots;
    return UTURN_OK;
}
