/* sqrt: periodic with stride ceil(sqrt(n)) (Chen et al. 2016). */
#include "planner.h"

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    const uint64_t n    = plan->problem.steps;
    const uint64_t root = uturn__isqrt(n);
    const uint64_t k    = root * root == n ? root : root + 1;
    const uturn_status_t status =
        uturn__periodic_prepare_stride(plan, k, error);
    plan->problem.stride = 0; /* sqrt takes no stride from the caller */
    if (status == UTURN_OK)
        plan->problem.stride = k;
    return status;
}

const struct uturn__planner uturn__sqrt = {
    .id         = UTURN_PLANNER_SQRT,
    .name       = "sqrt",
    .prepare    = prepare,
    .state_size = uturn__periodic_state_size,
    .start      = uturn__periodic_start,
    .fill       = uturn__periodic_fill,
    .fingerprint = uturn__periodic_fingerprint,
};
