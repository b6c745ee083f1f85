/*
 * Building dp's approximate planner (dp_band.c says what it computes):
 * pick the band's width and the unit so that its tables fit table_bytes,
 * fill the short rows and the banded suffix, and add the coarse grid when
 * the band is infeasible or visibly above the lower bound and the grid is
 * affordable. Every choice depends on the problem only, never on the
 * thread count or the clock, so the plan is reproducible.
 */
#include "dp_admit.h"
#include "dp_band.h"

#define BAND_WIDTH 16u /* W: 16..32 matched the optimum on random chains */
#define MIN_WIDTH  4u
/* The grid's work cap (candidate chunks) and when it is worth trying. */
#define COARSE_WORK        ((uint64_t)400 * 1000 * 1000)
#define COARSE_TRIGGER_NUM 1002u /* band > bound * 1.002 */
#define COARSE_TRIGGER_DEN 1000u

/* Bytes of the short rows and the band at width W, or UINT64_MAX. */
static uint64_t approx_bytes(const uturn_plan_t *plan,
                             const struct uturn__dp_chain *c, uint64_t W,
                             uint64_t M)
{
    const uint64_t limit = uturn__dp_limit(plan);
    const uint64_t rows  = uturn__dp_table_bytes(c, W, M, limit);
    if (rows == UINT64_MAX)
        return UINT64_MAX;
    const uint64_t band = uturn__dp_band_bytes(c, W, M, limit - rows);
    return band == UINT64_MAX ? UINT64_MAX : rows + band;
}

/* Width, unit and free units that fit: halve the width down to MIN_WIDTH,
 * then (unit not given) double the unit. */
static uturn_status_t fit(uturn_plan_t *plan, struct uturn__dp *dp,
                          const struct uturn__dp_plan_input *in, uint64_t *W,
                          uint64_t *M, uint64_t *bytes, uturn_error_t *error)
{
    const uint64_t n = dp->chain.n;
    for (uint64_t unit = in->unit;;) {
        *M = uturn__dp_free_units(&dp->chain, in->budget);
        for (*W = BAND_WIDTH < n + 1 ? BAND_WIDTH : n + 1;
             *M != UINT64_MAX && *W >= 2; *W /= 2) {
            *bytes = approx_bytes(plan, &dp->chain, *W, *M);
            if (*bytes != UINT64_MAX)
                return UTURN_OK;
            if (*W <= MIN_WIDTH)
                break;
        }
        if (plan->problem.unit_bytes != 0 || unit > in->budget / 2)
            break;
        unit *= 2;
        if (uturn__dp_chain_build(plan, unit, &dp->chain, &dp->work) !=
            UTURN_OK)
            return uturn__fail(error, UTURN_E_NOMEM,
                               "out of memory for dp's per-step arrays");
    }
    return uturn__fail(error, UTURN_E_UNSUPPORTED,
                       "dp's approximate tables for %llu steps pass "
                       "table_bytes (%llu bytes) at every width and unit",
                       (unsigned long long)n,
                       (unsigned long long)uturn__dp_limit(plan));
}

/* The coarse grid, when worth it and affordable (false: skipped). */
static uturn_status_t maybe_coarse(uturn_plan_t *plan, struct uturn__dp *dp,
                                   uint64_t room, bool *built)
{
    struct uturn__dp_band *b = dp->band;
    *built                   = false;
    const uint64_t bound     = dp->lower_bound;
    const bool worth         = b->band_value >= UTURN__DP_INF ||
                       (uint64_t)b->band_value * COARSE_TRIGGER_DEN >
                           bound * COARSE_TRIGGER_NUM;
    if (!worth || b->K < 2)
        return UTURN_OK;
    const uint64_t bytes = uturn__dp_coarse_bytes(b, room);
    if (bytes == UINT64_MAX ||
        uturn__dp_coarse_work(b, COARSE_WORK) > COARSE_WORK)
        return UTURN_OK;
    dp->work.table_bytes += bytes;
    *built = true;
    return uturn__dp_coarse_solve(b, &plan->alloc, &dp->work);
}

/* Short rows, band (keeping the rows at the grid's boundaries when the
 * grid may follow) and the grid. */
static uturn_status_t solve(uturn_plan_t *plan, struct uturn__dp *dp,
                            uint64_t W, uint64_t M, uint64_t bytes,
                            const struct uturn__dp_plan_input *in)
{
    const uturn_allocator_t *a = &plan->alloc;
    uturn_status_t status =
        uturn__dp_table_alloc(&dp->table, &dp->chain, W, M, a);
    if (status == UTURN_OK)
        status = uturn__dp_table_solve(&dp->table, &dp->chain,
                                       plan->problem.threads, a, &dp->work);
    struct uturn__dp_band *b = dp->band;
    *b                       = (struct uturn__dp_band){
                              .chain = &dp->chain, .rows = &dp->table, .W = W, .M = M};
    const uint64_t limit = uturn__dp_limit(plan);
    if (status == UTURN_OK)
        status = uturn__dp_coarse_bounds(b, a);
    if (status == UTURN_OK &&
        uturn__dp_coarse_bytes(b, limit - bytes) != UINT64_MAX)
        status = uturn__dp_coarse_keep(b, a);
    if (status == UTURN_OK)
        status = uturn__dp_band_solve(b, plan->problem.threads, a, &dp->work);
    if (status != UTURN_OK)
        return status;
    dp->work.table_bytes = bytes;
    status = uturn__dp_lower_bound(plan, in->budget, &dp->lower_bound);
    if (status != UTURN_OK)
        return status;
    bool coarse = false;
    if (b->keep_index != NULL)
        status = maybe_coarse(plan, dp, limit - bytes, &coarse);
    const uint32_t best = coarse ? b->coarse_value : b->band_value;
    const uint64_t kind = coarse ? UTURN__DP_COARSE : UTURN__DP_BAND;
    dp->top =
        (struct uturn__dp_node){0, dp->chain.n + 1, M, 0,
                                best < UTURN__DP_INF ? kind : UTURN__DP_SWEEP};
    return status;
}

uturn_status_t uturn__dp_build_approx(uturn_plan_t *plan, struct uturn__dp *dp,
                                      const struct uturn__dp_plan_input *in,
                                      uturn_error_t *error)
{
    uint64_t W = 0, M = 0, bytes = 0;
    uturn_status_t status = fit(plan, dp, in, &W, &M, &bytes, error);
    if (status != UTURN_OK)
        return status;
    dp->band = uturn__alloc_zeroed(&plan->alloc, 1, sizeof *dp->band);
    if (dp->band != NULL)
        status = solve(plan, dp, W, M, bytes, in);
    if (dp->band == NULL || status == UTURN_E_NOMEM)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory for dp's approximate tables (%llu "
                           "bytes)",
                           (unsigned long long)bytes);
    return status;
}
