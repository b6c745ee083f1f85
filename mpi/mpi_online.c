/*
 * Online plans whose states' sizes arrive as the run goes. No rank knows
 * a size before the run, so the ranks agree on a plan in units: its
 * budget is U = UTURN_MPI_ONLINE_UNITS, the same everywhere, and during
 * the run each state takes the largest share ceil(U s / A) over the ranks
 * (s a rank's stride of it, A the bytes its budget holds), agreed in the
 * gate's per-step call (mpi_gate.c). Whatever the plan holds is then at
 * most U units, hence at most A bytes on every rank. Here: the checks a
 * rank can make alone, and the plan.
 */
#include "mpi_internal.h"

bool uturn__mpi_online_sized(const uturn_problem_t *p)
{
    return p->planner == UTURN_PLANNER_ONLINE && p->slot_bytes == 0 &&
           p->step_bytes == NULL;
}

void uturn__mpi_online_prepare(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    uint64_t cells           = 0; /* 16-byte slots its budget holds */
    uturn_executor_capacity(mk->ex, 16, p->budget_bytes, &cells);
    mk->usable = cells * 16;
    if (mk->usable == 0)
        uturn__mpi_making_failf(mk, UTURN_E_INFEASIBLE, 0, 0,
                                "its budget of %llu bytes holds no state "
                                "at all here",
                                (unsigned long long)p->budget_bytes);
}

void uturn__mpi_make_online(struct uturn__mpi_making *mk)
{
    uturn_problem_t a;
    uturn_problem_init(&a);
    a.planner        = UTURN_PLANNER_ONLINE;
    a.budget_bytes   = UTURN_MPI_ONLINE_UNITS;
    a.max_steps      = mk->problem.max_steps;
    a.sweeps         = mk->problem.sweeps; /* refused, as in the core */
    mk->agreed_units = UTURN_MPI_ONLINE_UNITS;
    uturn__mpi_make_plan(mk, &a);
}
