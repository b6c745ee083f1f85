/*
 * What dp builds: store-all (a budget that holds every state), the exact
 * table (when it fits table_bytes, unless the caller asks for the
 * approximate planner), else the approximate planner; see dp_admit.c for
 * the checks that come first and dp_band.c for the approximate planner.
 */
#include "dp_admit.h"

/* The unit the message of a too fine unit suggests: the finest multiple
 * of the given one whose exact table fits (binary search: a coarser unit
 * never needs more cells). 0 when none does. */
static uint64_t unit_that_fits(const uturn_plan_t *plan, uint64_t unit,
                               uint64_t budget, struct uturn__dp_work *work)
{
    uint64_t lo = unit, hi = budget + 1;
    while (hi - lo > 1) {
        const uint64_t mid       = lo + (hi - lo) / 2;
        struct uturn__dp_chain c = {0};
        if (uturn__dp_chain_build(plan, mid, &c, work) != UTURN_OK)
            break;
        const uint64_t bytes = uturn__dp_exact_bytes(plan, &c, budget);
        uturn__dp_chain_free(&c, &plan->alloc);
        if (bytes == UINT64_MAX)
            lo = mid;
        else
            hi = mid;
    }
    return hi <= budget ? hi : 0;
}

static uturn_status_t too_fine(const uturn_plan_t *plan,
                               const struct uturn__dp_plan_input *in,
                               struct uturn__dp_work *work,
                               uturn_error_t *error)
{
    const uint64_t limit = uturn__dp_limit(plan);
    const uint64_t fit   = unit_that_fits(plan, in->unit, in->budget, work);
    if (fit == 0)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "dp's table for %llu steps needs more than its "
                           "limit of %llu bytes at any resolution",
                           (unsigned long long)plan->problem.steps,
                           (unsigned long long)limit);
    if (plan->problem.unit_bytes == 0)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "dp's exact table at the gcd unit of %llu bytes "
                           "would pass table_bytes (%llu bytes); a unit of "
                           "%llu bytes fits, or raise table_bytes",
                           (unsigned long long)in->unit,
                           (unsigned long long)limit, (unsigned long long)fit);
    return uturn__fail(error, UTURN_E_UNSUPPORTED,
                       "dp's table at a unit of %llu bytes would pass its "
                       "limit of %llu bytes; a unit of %llu bytes (%llu "
                       "units) fits",
                       (unsigned long long)in->unit, (unsigned long long)limit,
                       (unsigned long long)fit,
                       (unsigned long long)(in->budget / fit));
}

/* The exact table, filled. */
static uturn_status_t build_exact(uturn_plan_t *plan, struct uturn__dp *dp,
                                  uint64_t M, uint64_t bytes)
{
    uturn_status_t status = uturn__dp_table_alloc(
        &dp->table, &dp->chain, dp->chain.n + 1, M, &plan->alloc);
    if (status != UTURN_OK)
        return status;
    dp->work.table_bytes = bytes;
    dp->top =
        (struct uturn__dp_node){0, dp->chain.n + 1, M, 0, UTURN__DP_TABLE};
    return uturn__dp_table_solve(&dp->table, &dp->chain, plan->problem.threads,
                                 &plan->alloc, &dp->work);
}

static uturn_status_t nomem(uturn_status_t status, uint64_t bytes,
                            uturn_error_t *error)
{
    if (status != UTURN_E_NOMEM)
        return status;
    return uturn__fail(error, UTURN_E_NOMEM,
                       "out of memory for dp's tables (%llu bytes)",
                       (unsigned long long)bytes);
}

/* Exact, store-all or refused: the cases that need no approximation. */
static uturn_status_t try_exact(uturn_plan_t *plan, struct uturn__dp *dp,
                                const struct uturn__dp_plan_input *in,
                                bool *done, uturn_error_t *error)
{
    const struct uturn__dp_chain *c = &dp->chain;
    const uint64_t top_units        = uturn__dp_interior(c, 0, c->n + 1);
    *done                           = true;
    dp->exact                       = in->exact_unit;
    if (in->free_units >= top_units) {
        dp->exact = true; /* one sweep: nothing costs less */
        dp->top   = (struct uturn__dp_node){0, c->n + 1, top_units, 0,
                                            UTURN__DP_STORE_ALL};
        return UTURN_OK;
    }
    const uturn_dp_mode_t mode = plan->problem.dp_mode;
    if (mode != UTURN_DP_APPROXIMATE) {
        const uint64_t bytes = uturn__dp_exact_bytes(plan, c, in->budget);
        if (bytes != UINT64_MAX)
            return nomem(build_exact(plan, dp, in->free_units, bytes), bytes,
                         error);
        if (mode == UTURN_DP_EXACT || plan->problem.unit_bytes != 0)
            return too_fine(plan, in, &dp->work, error);
    }
    *done = false;
    return UTURN_OK;
}

uturn_status_t uturn__dp_build(uturn_plan_t *plan, struct uturn__dp *dp,
                               uturn_error_t *error)
{
    struct uturn__dp_plan_input in;
    uturn_status_t status = uturn__dp_admit(plan, dp, &in, error);
    if (status != UTURN_OK)
        return status;
    bool done = false;
    status    = try_exact(plan, dp, &in, &done, error);
    if (status != UTURN_OK || done) {
        /* Exact plans are their own bound (dp_count.c); a coarse unit
         * given by the caller gets a certified one. */
        if (status == UTURN_OK && !dp->exact &&
            uturn__dp_lower_bound(plan, in.budget, &dp->lower_bound) !=
                UTURN_OK)
            return uturn__fail(error, UTURN_E_NOMEM,
                               "out of memory for dp's lower bound");
        return status;
    }
    dp->exact = false;
    return uturn__dp_build_approx(plan, dp, &in, error);
}
