/*
 * What dp builds for a problem, and the checks before it.
 *
 * Fast refusals. Everything dp keeps grows at least linearly in the steps
 * (the smallest tables it can make, the approximate planner's short rows,
 * take more than MIN_ROW_BYTES per step), so a request whose steps times
 * that passes table_bytes is refused in O(1), before any loop over the
 * steps or any allocation that grows with them. Loops over the steps come
 * only after that check, and every table is sized (in time bounded by
 * table_bytes, not by the steps) before it is allocated.
 *
 * The budget is cut to store-all's need before anything is sized: a
 * budget that holds every state gets the store-all plan (one sweep, the
 * least any plan can cost) and no table at all; any other budget is below
 * store-all's need, so no table is larger than store-all's would be.
 *
 * The unit is the gcd of the sizes unless the caller gives one: then every
 * size and the budget are exact multiples of it, and nothing is lost to
 * rounding.
 */
#include "dp_admit.h"

#include "dp_band.h"

/* Per step, the least the approximate planner keeps: the short rows of
 * its narrowest band (three per step, one chunk each) and the chain. */
#define MIN_ROW_BYTES (80u * 3u + 21u)

/* Bytes of x_i: per step, or the uniform slot (1 when only slots given). */
static uint64_t bytes_of(const uturn_plan_t *plan, uint64_t i)
{
    if (plan->step_bytes != NULL)
        return plan->step_bytes[i];
    return plan->problem.slot_bytes != 0 ? plan->problem.slot_bytes : 1;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        const uint64_t t = a % b;
        a                = b;
        b                = t;
    }
    return a;
}

uint64_t uturn__dp_limit(const uturn_plan_t *plan)
{
    return plan->problem.table_bytes != 0 ? plan->problem.table_bytes
                                          : UTURN_DP_TABLE_BYTES;
}

/* The budget in bytes: given, or the slot capacity at the uniform size. */
static uturn_status_t budget_of(const uturn_plan_t *plan, uint64_t *out)
{
    if (plan->problem.budget_bytes != 0) {
        *out = plan->problem.budget_bytes;
        return UTURN_OK;
    }
    return uturn__mul_u64(plan->problem.slots, bytes_of(plan, 0), out);
}

/* Uniform states asked for the exact table (dp_mode exact, or a unit
 * given): when the budget is below store-all's need and the table's rows
 * alone pass table_bytes, no unit can help. O(1): uniform sizes need no
 * look at the steps (with step_bytes, the caller's array bounds n). */
static bool exact_out_of_reach(const uturn_plan_t *plan)
{
    const uturn_problem_t *p = &plan->problem;
    if (plan->step_bytes != NULL || p->dp_mode == UTURN_DP_APPROXIMATE ||
        (p->dp_mode == UTURN_DP_AUTO && p->unit_bytes == 0))
        return false;
    const uint64_t size = bytes_of(plan, 0);
    const uint64_t unit = p->unit_bytes != 0 ? p->unit_bytes : size;
    uint64_t budget = 0, rounded = 0, need = 0;
    const uint64_t rows = uturn__dp_table_rows(p->steps, p->steps + 1);
    if (budget_of(plan, &budget) != UTURN_OK ||
        uturn__mul_u64(uturn__ceil_div(size, unit), unit, &rounded) !=
            UTURN_OK ||
        uturn__mul_u64(p->steps, rounded, &need) != UTURN_OK || budget >= need)
        return false;
    return rows == 0 || rows > uturn__dp_limit(plan) / UTURN__DP_ROW_BYTES;
}

/* Checks that cost O(1): none of them looks at a step. */
static uturn_status_t admit(const uturn_plan_t *plan, uturn_error_t *error)
{
    const uturn_problem_t *p = &plan->problem;
    if ((unsigned)p->dp_mode > (unsigned)UTURN_DP_APPROXIMATE)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "dp_mode %d is not a uturn_dp_mode_t",
                           (int)p->dp_mode);
    if (p->threads > UTURN_DP_MAX_THREADS)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "threads is %llu: dp fills its tables with at "
                           "most %u threads",
                           (unsigned long long)p->threads,
                           (unsigned)UTURN_DP_MAX_THREADS);
    if (!plan->has_capacity)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "dp needs a capacity: budget_bytes (or slots for "
                           "uniform states)");
    if (plan->step_bytes != NULL && p->budget_bytes == 0)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "with step_bytes, dp needs budget_bytes");
    uint64_t least = 0;
    if (uturn__mul_u64(p->steps, MIN_ROW_BYTES, &least) != UTURN_OK ||
        least > uturn__dp_limit(plan))
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "dp's tables for %llu steps need more than "
                           "table_bytes (%llu bytes), even approximate ones",
                           (unsigned long long)p->steps,
                           (unsigned long long)uturn__dp_limit(plan));
    if (exact_out_of_reach(plan))
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "dp's exact table for %llu steps needs more than "
                           "table_bytes (%llu bytes) at any resolution",
                           (unsigned long long)p->steps,
                           (unsigned long long)uturn__dp_limit(plan));
    return UTURN_OK;
}

/* Sizes and costs of 0, and costs the 32-bit cells cannot hold: the worst
 * plan (x_0 only) costs at most steps times the sum of the costs. */
static uturn_status_t check_steps(const uturn_plan_t *plan,
                                  struct uturn__dp_work *work,
                                  uturn_error_t *error)
{
    const uint64_t n = plan->problem.steps;
    uint64_t total   = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (plan->step_bytes != NULL && plan->step_bytes[i] == 0)
            return uturn__fail(error, UTURN_E_INVALID_ARG,
                               "step_bytes[%llu] is 0: every state has a "
                               "size",
                               (unsigned long long)i);
        const uint64_t c = plan->step_costs ? plan->step_costs[i] : 1;
        if (c == 0)
            return uturn__fail(error, UTURN_E_INVALID_ARG,
                               "step_costs[%llu] is 0: every step costs at "
                               "least 1",
                               (unsigned long long)i);
        total = total + c < total ? UINT64_MAX : total + c;
    }
    work->step_loops += n;
    uint64_t worst = 0;
    if (uturn__mul_u64(total, n, &worst) != UTURN_OK || worst >= UTURN__DP_INF)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "dp counts costs in 32 bits: steps times the sum "
                           "of the costs must stay below %u",
                           UTURN__DP_INF);
    return UTURN_OK;
}

/* The gcd of the sizes (O(1) for uniform states). */
static uint64_t sizes_gcd(const uturn_plan_t *plan, struct uturn__dp_work *w)
{
    if (plan->step_bytes == NULL)
        return bytes_of(plan, 0);
    uint64_t g = 0;
    for (uint64_t i = 0; i < plan->problem.steps; i++)
        g = gcd(g, plan->step_bytes[i]);
    w->step_loops += plan->problem.steps;
    return g;
}

void uturn__dp_chain_free(struct uturn__dp_chain *c, const uturn_allocator_t *a)
{
    uturn__free(a, c->units, (size_t)c->n * sizeof *c->units);
    uturn__free(a, c->prefix, (size_t)(c->n + 1) * sizeof *c->prefix);
    uturn__free(a, c->uprefix, (size_t)(c->n + 1) * sizeof *c->uprefix);
    c->units   = NULL;
    c->prefix  = NULL;
    c->uprefix = NULL;
}

/* Units, cost and unit prefix sums at `unit` bytes per unit. */
uturn_status_t uturn__dp_chain_build(const uturn_plan_t *plan, uint64_t unit,
                                     struct uturn__dp_chain *c,
                                     struct uturn__dp_work *work)
{
    const uturn_allocator_t *a = &plan->alloc;
    const uint64_t n           = plan->problem.steps;
    uturn__dp_chain_free(c, a);
    *c         = (struct uturn__dp_chain){.n = n, .unit = unit};
    c->units   = uturn__alloc(a, (size_t)n * sizeof *c->units);
    c->prefix  = uturn__alloc(a, (size_t)(n + 1) * sizeof *c->prefix);
    c->uprefix = uturn__alloc(a, (size_t)(n + 1) * sizeof *c->uprefix);
    if (c->units == NULL || c->prefix == NULL || c->uprefix == NULL)
        return UTURN_E_NOMEM;
    c->prefix[0] = c->uprefix[0] = 0;
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t u  = uturn__ceil_div(bytes_of(plan, i), unit);
        c->units[i]       = u < UINT32_MAX ? (uint32_t)u : UINT32_MAX;
        c->uprefix[i + 1] = c->uprefix[i] + c->units[i];
        c->prefix[i + 1] =
            c->prefix[i] + (plan->step_costs ? plan->step_costs[i] : 1);
    }
    work->step_loops += n;
    return UTURN_OK;
}

void uturn__dp_release(struct uturn__dp *dp, const uturn_allocator_t *alloc)
{
    if (dp->band != NULL) {
        uturn__dp_band_free(dp->band, alloc);
        uturn__free(alloc, dp->band, sizeof *dp->band);
        dp->band = NULL;
    }
    uturn__dp_table_free(&dp->table, alloc);
    uturn__dp_chain_free(&dp->chain, alloc);
}

uint64_t uturn__dp_free_units(const struct uturn__dp_chain *c, uint64_t budget)
{
    const uint64_t units = budget / c->unit;
    return c->units[0] <= units ? units - c->units[0] : UINT64_MAX;
}

uint64_t uturn__dp_exact_bytes(const uturn_plan_t *plan,
                               const struct uturn__dp_chain *c, uint64_t budget)
{
    const uint64_t free_units = uturn__dp_free_units(c, budget);
    const uint64_t top        = uturn__dp_interior(c, 0, c->n + 1);
    if (free_units == UINT64_MAX || free_units >= top)
        return 0;
    return uturn__dp_table_bytes(c, c->n + 1, free_units,
                                 uturn__dp_limit(plan));
}

static uturn_status_t x0_fits(const uturn_plan_t *plan,
                              const struct uturn__dp_chain *c, uint64_t budget,
                              uturn_error_t *error)
{
    if (uturn__dp_free_units(c, budget) != UINT64_MAX)
        return UTURN_OK;
    const uturn__u128 wide = (uturn__u128)c->units[0] * c->unit;
    const uint64_t first   = wide > UINT64_MAX ? UINT64_MAX : (uint64_t)wide;
    return uturn__fail_infeasible(
        error, 1, first,
        "dp needs at least %llu bytes to hold x_0 (%llu bytes in units "
        "of %llu); the budget is %llu bytes",
        (unsigned long long)first, (unsigned long long)bytes_of(plan, 0),
        (unsigned long long)c->unit, (unsigned long long)budget);
}

/* dp counts a state's units in 32 bits: one past them would be counted
 * smaller than it is (and a plan could pass its budget in bytes). */
static uturn_status_t units_fit(const uturn_plan_t *plan, uint64_t unit,
                                uturn_error_t *error)
{
    for (uint64_t i = 0; i < plan->problem.steps; i++) {
        if (uturn__ceil_div(bytes_of(plan, i), unit) < UINT32_MAX)
            continue;
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "dp counts a state's size in 32-bit units: x_%llu "
                           "(%llu bytes) is %llu units of %llu bytes; give "
                           "a coarser unit_bytes",
                           (unsigned long long)i,
                           (unsigned long long)bytes_of(plan, i),
                           (unsigned long long)uturn__ceil_div(
                               bytes_of(plan, i), unit),
                           (unsigned long long)unit);
    }
    return UTURN_OK;
}

uturn_status_t uturn__dp_admit(uturn_plan_t *plan, struct uturn__dp *dp,
                               struct uturn__dp_plan_input *in,
                               uturn_error_t *error)
{
    uturn_status_t status = admit(plan, error);
    if (status != UTURN_OK)
        return status;
    if (budget_of(plan, &in->budget) != UTURN_OK)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "the budget does not fit in 64 bits");
    status = check_steps(plan, &dp->work, error);
    if (status != UTURN_OK)
        return status;
    /* Every size is at least 1 (check_steps), so the gcd is too. */
    const uint64_t g = sizes_gcd(plan, &dp->work);
    in->unit         = plan->problem.unit_bytes != 0 ? plan->problem.unit_bytes
                                                     : (g > 0 ? g : 1);
    in->exact_unit   = g % in->unit == 0;
    status           = units_fit(plan, in->unit, error);
    if (status != UTURN_OK)
        return status;
    if (uturn__dp_chain_build(plan, in->unit, &dp->chain, &dp->work) !=
        UTURN_OK)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory for dp's per-step arrays");
    status = x0_fits(plan, &dp->chain, in->budget, error);
    if (status == UTURN_OK)
        in->free_units = uturn__dp_free_units(&dp->chain, in->budget);
    return status;
}
