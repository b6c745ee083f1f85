/*
 * dp's checks and sizing (dp_admit.c), shared with the builders
 * (dp_build.c: store-all and exact; dp_approx.c: the approximate planner).
 */
#ifndef UTURN_DP_ADMIT_H_INCLUDED
#define UTURN_DP_ADMIT_H_INCLUDED

#include "dp.h"

/* What the checks resolved. */
struct uturn__dp_plan_input {
    uint64_t budget;     /* bytes */
    uint64_t unit;       /* bytes per unit (dp->chain is in it) */
    uint64_t free_units; /* budget / unit - u_0 */
    bool exact_unit;     /* the unit divides every size */
};

/* The checks, then the unit and the chain in it (dp->chain); refuses in
 * O(1) what cannot fit, before any loop over the steps. */
uturn_status_t uturn__dp_admit(uturn_plan_t *plan, struct uturn__dp *dp,
                               struct uturn__dp_plan_input *in,
                               uturn_error_t *error);
/* table_bytes, or its default. */
uint64_t uturn__dp_limit(const uturn_plan_t *plan);
/* The chain at `unit` bytes per unit (frees what c held). */
uturn_status_t uturn__dp_chain_build(const uturn_plan_t *plan, uint64_t unit,
                                     struct uturn__dp_chain *c,
                                     struct uturn__dp_work *work);
void uturn__dp_chain_free(struct uturn__dp_chain *c,
                          const uturn_allocator_t *alloc);
/* Free units after x_0 in the chain's unit, or UINT64_MAX when x_0 does
 * not fit the budget. */
uint64_t uturn__dp_free_units(const struct uturn__dp_chain *c, uint64_t budget);
/* Bytes of the exact table for the chain (budget cut to store-all's
 * need; 0 when no table is needed), UINT64_MAX past table_bytes. */
uint64_t uturn__dp_exact_bytes(const uturn_plan_t *plan,
                               const struct uturn__dp_chain *c,
                               uint64_t budget);
/* The approximate planner: tables, plan and lower bound (dp_approx.c). */
uturn_status_t uturn__dp_build_approx(uturn_plan_t *plan, struct uturn__dp *dp,
                                      const struct uturn__dp_plan_input *in,
                                      uturn_error_t *error);

#endif
