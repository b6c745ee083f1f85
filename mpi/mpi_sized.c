/*
 * Per-step sizes: the ranks agree on units. With s_i the stride of this
 * rank's part of x_i and A the bytes its budget can use (both at real
 * cost), x_i takes u_i = ceil(U s_i / A) of U units here; the largest u_i
 * over the ranks is what x_i takes in the agreed plan. Any set of states
 * the plan holds at once is at most U units, so at most A bytes on every
 * rank: sum(s_i) <= A sum(u_i) / U <= A. dp then plans those units in a
 * budget of U, and every rank runs that plan with its own sizes, the
 * executor checking its own budget in them.
 */
#include "mpi_internal.h"

#include <string.h>

/* Allocate @p n values for @p out from the making's allocator. */
static bool grab(struct uturn__mpi_making *mk, uint64_t n, uint64_t **out)
{
    if (n > SIZE_MAX / sizeof **out / 2)
        return false;
    *out = uturn__mpi_alloc(mk->options.alloc, (size_t)n * sizeof **out);
    return *out != NULL;
}

static void strides_of(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    for (uint64_t i = 0; i < p->steps && mk->status == UTURN_OK; i++)
        if (uturn_executor_slot_bytes(mk->ex, p->step_bytes[i],
                                      &mk->strides[i]) != UTURN_OK)
            uturn__mpi_making_failf(
                mk,
                p->step_bytes[i] == 0 ? UTURN_E_INVALID_ARG : UTURN_E_OVERFLOW,
                0, 0, "step_bytes[%llu] = %llu cannot be a slot",
                (unsigned long long)i, (unsigned long long)p->step_bytes[i]);
}

/* The bytes this rank's budget can use: 16 times the most 16-byte slots
 * it holds, since every stride is a multiple of 16. */
static void usable_of(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    uint64_t k               = 0;
    uturn_executor_capacity(mk->ex, 16, p->budget_bytes, &k);
    mk->usable = k * 16;
    if (mk->status != UTURN_OK || mk->usable >= mk->strides[0])
        return;
    uint64_t least = 0;
    uturn_executor_budget(mk->ex, p->step_bytes[0], 1, &least);
    uturn__mpi_making_failf(mk, UTURN_E_INFEASIBLE, 1, least,
                            "its budget of %llu bytes holds no x_0 of %llu "
                            "bytes here (the least is %llu bytes)",
                            (unsigned long long)p->budget_bytes,
                            (unsigned long long)p->step_bytes[0],
                            (unsigned long long)least);
}

void uturn__mpi_sized_prepare(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    const uint64_t n         = p->steps;
    const bool mine          = grab(mk, n, &mk->mp->step_bytes);
    if (mine)
        mk->mp->steps = n; /* what uturn__mpi_plan_delete() frees */
    if (!mine || !grab(mk, n, &mk->strides) || !grab(mk, 2 * n, &mk->units)) {
        uturn__mpi_making_failf(mk, UTURN_E_NOMEM, 0, 0,
                                "out of memory for the sizes of %llu steps",
                                (unsigned long long)n);
        return;
    }
    memcpy(mk->mp->step_bytes, p->step_bytes,
           (size_t)n * sizeof *p->step_bytes);
    strides_of(mk);
    usable_of(mk);
}

/* U: as asked, else the most up to UTURN_MPI_UNITS whose table (n(n+1)/2
 * rows of U + 1 four-byte costs, as dp lays it out) fits the limit. 0
 * when not even one unit fits. The same on every rank: it depends only on
 * the steps and the options, which the first vote compared. */
static uint64_t units_for(const struct uturn__mpi_making *mk)
{
    if (mk->options.units != 0)
        return mk->options.units;
    const uint64_t n     = mk->problem.steps;
    const uint64_t limit = mk->options.table_bytes != 0
                               ? mk->options.table_bytes
                               : UTURN_MPI_TABLE_BYTES;
    if (n >= (1ull << 31))
        return 0;
    const uint64_t row = (n + 1) * n / 2 * 4;
    const uint64_t fit = limit / row;
    if (fit < 2)
        return 0;
    return fit - 1 < UTURN_MPI_UNITS ? fit - 1 : UTURN_MPI_UNITS;
}

/* This rank's u_i into units[0 .. n-1], its costs after them. */
static void my_units(struct uturn__mpi_making *mk, uint64_t U)
{
    const uturn_problem_t *p = &mk->problem;
    const uint64_t n         = p->steps;
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t s = mk->strides[i];
        if (s > UINT64_MAX / U) {
            mk->units[i] = 0;
            uturn__mpi_making_failf(mk, UTURN_E_OVERFLOW, 0, 0,
                                    "%llu units of a %llu-byte state do "
                                    "not fit in 64 bits",
                                    (unsigned long long)U,
                                    (unsigned long long)s);
            continue;
        }
        mk->units[i]     = (U * s + mk->usable - 1) / mk->usable;
        mk->units[n + i] = p->step_costs != NULL ? p->step_costs[i] : 0;
    }
}

/* What this rank would plan alone: dp on its own sizes and budget, at
 * the same resolution (a unit of A / U bytes) and with the agreed costs,
 * so that the two forward costs compare. */
static void compare(struct uturn__mpi_making *mk, uint64_t U,
                    const uint64_t *costs)
{
    uturn_problem_t own = mk->problem;
    own.unit_bytes      = (mk->usable + U - 1) / U;
    own.step_costs      = costs;
    uturn_plan_t *plan  = NULL;
    uturn_stats_t s;
    uturn_stats_init(&s);
    if (uturn_executor_plan(mk->ex, &own, &plan, NULL) == UTURN_OK &&
        uturn_plan_stats(plan, &s) == UTURN_OK)
        mk->own_cost = s.forward_cost;
    uturn_plan_free(plan);
}

void uturn__mpi_make_sized(struct uturn__mpi_making *mk)
{
    const uint64_t n = mk->problem.steps;
    const uint64_t U = units_for(mk);
    mk->agreed_units = U;
    if (U == 0) {
        uturn__mpi_making_failf(mk, UTURN_E_UNSUPPORTED, 0, 0,
                                "dp's table for %llu steps does not fit "
                                "options.table_bytes at any resolution",
                                (unsigned long long)n);
        return;
    }
    const bool costs = mk->problem.step_costs != NULL;
    my_units(mk, U);
    uturn__mpi_max_u64(&mk->comm, mk->units, costs ? 2 * n : n);
    if (mk->status != UTURN_OK)
        return;
    uturn_problem_t a;
    uturn_problem_init(&a);
    a.planner      = UTURN_PLANNER_DP;
    a.steps        = n;
    a.step_bytes   = mk->units;
    a.step_costs   = costs ? mk->units + n : NULL;
    a.budget_bytes = U;
    a.unit_bytes   = 1;
    a.threads     = mk->problem.threads; /* this rank's: the plan is the same */
    a.table_bytes = mk->problem.table_bytes; /* agreed by the first vote */
    a.dp_mode     = mk->problem.dp_mode;     /* likewise */
    a.sweeps      = mk->problem.sweeps;      /* refused by dp, as in the core */
    if (uturn__mpi_make_plan(mk, &a) && mk->options.compare)
        compare(mk, U, a.step_costs);
}
