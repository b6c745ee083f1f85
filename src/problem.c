/* Problem and stats structs: defaults, size-aware copies, shared checks. */
#include "internal.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

void uturn__init_sized(void *p, size_t size, const void *defaults,
                       size_t full)
{
    if (p == NULL || size < sizeof(size_t))
        return;
    const size_t n = size < full ? size : full;
    memcpy(p, defaults, n);
    memcpy(p, &n, sizeof n);
}

void uturn_problem_init_size(uturn_problem_t *problem, size_t size)
{
    uturn_problem_t d;
    memset(&d, 0, sizeof d);
    d.size        = sizeof d;
    d.planner     = UTURN_PLANNER_REVOLVE;
    d.threads     = 1;
    d.table_bytes = UTURN_DP_TABLE_BYTES;
    d.dp_mode     = UTURN_DP_AUTO;
    uturn__init_sized(problem, size, &d, sizeof d);
}

void uturn_stats_init_size(uturn_stats_t *stats, size_t size)
{
    uturn_stats_t d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    uturn__init_sized(stats, size, &d, sizeof d);
}

/* The plain functions, for programs built against older headers: they
 * write the struct as it was in 0.1. */
#undef uturn_problem_init
#undef uturn_stats_init

void uturn_problem_init(uturn_problem_t *problem)
{
    uturn_problem_init_size(problem,
                            UTURN__SIZE_THROUGH(uturn_problem_t, unit_bytes));
}

void uturn_stats_init(uturn_stats_t *stats)
{
    uturn_stats_init_size(stats,
                          UTURN__SIZE_THROUGH(uturn_stats_t, recompute_factor));
}

/* Internal callers pass their whole struct. */
#define uturn_problem_init(p) uturn_problem_init_size((p), sizeof *(p))
#define uturn_stats_init(p)   uturn_stats_init_size((p), sizeof *(p))

/* Bytes of a caller's struct that the library may touch: its recorded
 * size, capped at what this library knows. A zero size (the caller skipped
 * _init) is read as the current size. */
static size_t usable_size(size_t recorded, size_t known)
{
    if (recorded == 0 || recorded > known)
        return known;
    return recorded;
}

void uturn__problem_copy(const uturn_problem_t *in, uturn_problem_t *out)
{
    uturn_problem_init(out);
    const size_t n = usable_size(in->size, sizeof *in);
    memcpy(out, in, n);
    out->size = sizeof *out;
}

void uturn__stats_export(const uturn_stats_t *in, uturn_stats_t *out)
{
    const size_t n = usable_size(out->size, sizeof *out);
    memcpy(out, in, n);
    out->size = n;
}

static uturn_status_t resolve_capacity(uturn_problem_t *p, bool *has_capacity,
                                       uturn_error_t *error)
{
    if (p->slots != 0 && p->budget_bytes != 0)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "give either slots or budget_bytes, not both");
    /* online alone takes a budget without a state size: each state's
     * size is then given as it is reached. */
    const bool sized_online =
        p->planner == UTURN_PLANNER_ONLINE && p->budget_bytes != 0 &&
        p->slot_bytes == 0;
    if (p->budget_bytes != 0 && p->slot_bytes == 0 && !sized_online)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "budget_bytes needs slot_bytes (the size of one "
                           "stored state)");
    *has_capacity = p->slots != 0 || p->budget_bytes != 0;
    if (sized_online)
        return UTURN_OK;
    if (p->slots == 0)
        p->slots =
            p->budget_bytes != 0 ? p->budget_bytes / p->slot_bytes : UINT64_MAX;
    return UTURN_OK;
}

uturn_status_t uturn__problem_resolve(const uturn_problem_t *in,
                                      uturn_problem_t *out, bool *has_capacity,
                                      uturn_error_t *error)
{
    uturn__problem_copy(in, out);
    if (out->steps == 0 && out->planner != UTURN_PLANNER_ONLINE)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "steps must be at least 1 (0, the step count "
                           "unknown, is for the online planner)");
    if (out->steps != 0 && out->planner == UTURN_PLANNER_ONLINE)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "the online planner does not know the steps: give "
                           "steps 0 (and max_steps for a bound)");
    if (out->max_steps != 0 && out->planner != UTURN_PLANNER_ONLINE)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "max_steps is for the online planner");
    if (out->stride != 0 && out->planner != UTURN_PLANNER_PERIODIC)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "a stride applies to the periodic planner only");
    if (out->stride > out->steps)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "stride %llu is above the %llu steps (valid "
                           "strides are 1..%llu)",
                           (unsigned long long)out->stride,
                           (unsigned long long)out->steps,
                           (unsigned long long)out->steps);
    /* With per-step sizes, slot_bytes is the largest state (what a planner
     * for uniform states would have to count every slot as). */
    for (uint64_t i = 0; out->step_bytes != NULL && i < out->steps; i++)
        if (out->step_bytes[i] > out->slot_bytes)
            out->slot_bytes = out->step_bytes[i];
    return resolve_capacity(out, has_capacity, error);
}

uturn_status_t uturn__stats_finish(uturn_stats_t *stats,
                                   const uturn_problem_t *problem,
                                   uturn_error_t *error)
{
    stats->size         = sizeof *stats;
    stats->steps        = problem->steps;
    stats->slot_bytes   = problem->slot_bytes;
    stats->budget_bytes = problem->budget_bytes;
    if (stats->slots == 0)
        stats->slots = problem->slots;
    if (stats->sweeps == 0)
        stats->sweeps = 1;
    if (stats->online) { /* n and the counts come once the run ends */
        stats->steps = UTURN_NONE;
        return uturn__mul_u64(stats->peak_slots, problem->slot_bytes,
                              &stats->peak_bytes) == UTURN_OK
                   ? UTURN_OK
                   : uturn__fail(error, UTURN_E_OVERFLOW,
                                 "%llu slots of %llu bytes pass 2^64",
                                 (unsigned long long)stats->peak_slots,
                                 (unsigned long long)problem->slot_bytes);
    }
    stats->recomputed_steps = stats->forward_steps - stats->steps;
    stats->recompute_factor =
        (double)stats->forward_steps / (double)stats->steps;
    if (stats->forward_cost != 0)
        return UTURN_OK; /* the planner counted costs and bytes itself */
    if (uturn__mul_u64(stats->peak_slots, problem->slot_bytes,
                       &stats->peak_bytes) != UTURN_OK)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "peak bytes (%llu slots of %llu bytes) do not fit "
                           "in 64 bits",
                           (unsigned long long)stats->peak_slots,
                           (unsigned long long)problem->slot_bytes);
    stats->forward_cost   = stats->forward_steps;
    stats->recompute_cost = stats->recomputed_steps;
    return UTURN_OK;
}

void uturn__capacity_text(const uturn_problem_t *p, char *out, size_t cap)
{
    if (p->budget_bytes != 0)
        snprintf(out, cap,
                 "a budget of %llu bytes holds %llu slot%s of %llu "
                 "bytes",
                 (unsigned long long)p->budget_bytes,
                 (unsigned long long)p->slots, p->slots == 1 ? "" : "s",
                 (unsigned long long)p->slot_bytes);
    else
        snprintf(out, cap, "the capacity given is %llu slot%s",
                 (unsigned long long)p->slots, p->slots == 1 ? "" : "s");
}
