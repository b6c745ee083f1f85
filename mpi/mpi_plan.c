/* The MPI plan object: made by uturn_mpi_plan_create() or
 * uturn_mpi_plan_adopt(), freed collectively, read locally. */
#include "mpi_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

uturn_mpi_plan_t *uturn__mpi_plan_new(const uturn_allocator_t *alloc)
{
    uturn_mpi_plan_t *mp = uturn__mpi_alloc(alloc, sizeof *mp);
    if (mp == NULL)
        return NULL;
    memset(mp, 0, sizeof *mp);
    uturn__mpi_alloc_init(&mp->alloc, alloc);
    return mp;
}

void uturn__mpi_plan_delete(uturn_mpi_plan_t *mp)
{
    if (mp == NULL)
        return;
    const uturn_allocator_t base = mp->alloc.base;
    uturn__mpi_free(&base, mp->step_bytes,
                    (size_t)mp->steps * sizeof *mp->step_bytes);
    uturn__mpi_free(&base, mp, sizeof *mp);
}

const uturn_plan_t *uturn__mpi_plan_of(const uturn_mpi_plan_t *mp)
{
    return mp->plan != NULL ? mp->plan : mp->borrowed;
}

void uturn__mpi_plan_text(const uturn_plan_t *plan, uint64_t fp, char *buf,
                          size_t cap)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    if (plan == NULL || uturn_plan_stats(plan, &s) != UTURN_OK) {
        snprintf(buf, cap, "no plan");
        return;
    }
    uturn_problem_t p;
    uturn_problem_init(&p);
    uturn_plan_problem(plan, &p);
    const char *name = uturn_planner_name(p.planner);
    snprintf(buf, cap,
             "fingerprint %016" PRIx64 ", planner %s, steps %" PRIu64
             ", slots %" PRIu64 ", forward_steps %" PRIu64,
             fp, name != NULL ? name : "?", s.steps, s.slots, s.forward_steps);
}

void uturn_mpi_plan_free(uturn_mpi_plan_t *plan)
{
    if (plan == NULL)
        return;
    uturn_plan_free(plan->plan);
    plan->plan                  = NULL;
    struct uturn__mpi_comm comm = plan->comm;
    uturn__mpi_plan_delete(plan);
    uturn__mpi_comm_close(&comm);
}

const uturn_plan_t *uturn_mpi_plan_core(const uturn_mpi_plan_t *plan)
{
    return plan != NULL ? uturn__mpi_plan_of(plan) : NULL;
}

uturn_status_t uturn_mpi_plan_info(const uturn_mpi_plan_t *plan,
                                   uturn_mpi_plan_info_t *out)
{
    if (plan == NULL || out == NULL)
        return UTURN_E_INVALID_ARG;
    uturn__mpi_export(out, &plan->info, sizeof plan->info);
    return UTURN_OK;
}
