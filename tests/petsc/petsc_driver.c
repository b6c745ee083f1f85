/*
 * The test driver (see petsc_driver.h). Options:
 *   -test_states LIST     budgets as a count of this rank's states, e.g.
 *                         1,2,5,all ("all": no budget); default 1,2,all
 *   -test_disk_states N   a disk level of N states per rank (default 0)
 *   -test_planner NAME    -ts_trajectory_uturn_planner (default auto)
 *   -test_expect KIND     offline: forward steps are revolve's t(n+1, s)
 *                         (hrevolve's plan count with a disk); online:
 *                         within the online plan's documented ratio
 *   -test_uneven          rank r's budget is r states more than rank 0's
 *   -test_twice           solve and differentiate twice on one TS
 *   -test_last_stage B    checkpoints keep the RK method's last stage
 *                         (true) or not (false)
 *   -test_solution_only   also print PETSc's memory trajectory in its
 *                         solution-only mode against its store-all (the
 *                         figures docs/petsc.md quotes)
 * Everything else (-ts_type, -ts_rk_type, -ts_dt, -ts_max_steps, ...) is
 * the TS's own options, the same for the reference and for uturn.
 */
#include "petsc_driver.h"

#include "petsc_check.h"

#include <string.h>
#include <uturn_petsc.h>

/* A cost integral computed in the forward solve: a copy of it (NULL when
 * the problem has none). */
static PetscErrorCode forward_integral(TS ts, Vec *copy)
{
    PetscFunctionBeginUser;
    TS quad       = NULL;
    PetscBool fwd = PETSC_FALSE;
    Vec v         = NULL;
    *copy         = NULL;
    PetscCall(TSGetQuadratureTS(ts, &fwd, &quad));
    if (quad == NULL || !fwd)
        PetscFunctionReturn(0);
    PetscCall(TSGetCostIntegral(ts, &v));
    PetscCall(VecDuplicate(v, copy));
    PetscCall(VecCopy(v, *copy));
    PetscFunctionReturn(0);
}

/* The adjoint leaves the cost integral the forward solve computed. */
static PetscErrorCode integral_kept(TS ts, Vec *before)
{
    PetscFunctionBeginUser;
    if (*before == NULL)
        PetscFunctionReturn(0);
    Vec after = NULL;
    bool same = false;
    PetscCall(TSGetCostIntegral(ts, &after));
    PetscCall(check_bitwise(*before, after, &same));
    PetscCheck(same, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
               "the cost integral after TSAdjointSolve is not the one "
               "TSSolve computed");
    PetscCall(VecDestroy(before));
    PetscFunctionReturn(0);
}

/* A solve and its adjoint on @p ts from x_0 (at the TS's start time,
 * step 0, with its first step size): new gradient vectors. */
static PetscErrorCode solve_once(const problem_t *p, TS ts, PetscReal t0,
                                 PetscReal dt0, Vec **lambda, Vec **mu)
{
    PetscFunctionBeginUser;
    Vec u, integral;
    PetscCall(TSSetTime(ts, t0));
    PetscCall(TSSetStepNumber(ts, 0));
    PetscCall(TSSetTimeStep(ts, dt0));
    PetscCall(p->initial(p->ctx, &u));
    PetscCall(TSSolve(ts, u));
    PetscCall(forward_integral(ts, &integral));
    PetscCall(PetscCalloc1(p->numcost, lambda));
    PetscCall(PetscCalloc1(p->numcost, mu));
    PetscCall(p->seed(p->ctx, u, *lambda, p->with_mu ? *mu : NULL));
    PetscCall(
        TSSetCostGradients(ts, p->numcost, *lambda, p->with_mu ? *mu : NULL));
    PetscCall(TSAdjointSolve(ts));
    PetscCall(integral_kept(ts, &integral));
    PetscCall(VecDestroy(&u));
    PetscFunctionReturn(0);
}

/* Solves and adjoints with trajectory type @p type (@p times of them on
 * one TS); the last gradients are left in new vectors *lambda and *mu,
 * the report in @p report. */
PetscErrorCode driver_solve(const problem_t *p, const char *type, int times,
                            Vec **lambda, Vec **mu,
                            uturn_petsc_report_t *report)
{
    PetscFunctionBeginUser;
    TS ts;
    TSTrajectory tj;
    PetscReal t0 = 0, dt0 = 0;
    PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
    PetscCall(p->setup(p->ctx, ts));
    PetscCall(TSSetSaveTrajectory(ts));
    PetscCall(TSSetFromOptions(ts));
    PetscCall(TSGetTrajectory(ts, &tj));
    PetscCall(TSTrajectorySetType(tj, ts, type));
    PetscCall(TSTrajectorySetFromOptions(tj, ts));
    PetscCall(TSGetTime(ts, &t0));
    PetscCall(TSGetTimeStep(ts, &dt0));
    for (int i = 0; i < times; i++) {
        if (i > 0)
            PetscCall(driver_free_gradients(p, lambda, mu));
        PetscCall(solve_once(p, ts, t0, dt0, lambda, mu));
    }
    if (report != NULL)
        PetscCall(uturn_petsc_trajectory_report(tj, report));
    PetscCall(TSDestroy(&ts));
    PetscFunctionReturn(0);
}

PetscErrorCode driver_free_gradients(const problem_t *p, Vec **lambda, Vec **mu)
{
    PetscFunctionBeginUser;
    for (PetscInt i = 0; i < p->numcost; i++) {
        PetscCall(VecDestroy(&(*lambda)[i]));
        if (*mu != NULL)
            PetscCall(VecDestroy(&(*mu)[i]));
    }
    PetscCall(PetscFree(*lambda));
    PetscCall(PetscFree(*mu));
    PetscFunctionReturn(0);
}

/* Every gradient equal to the reference's, bit for bit, on every rank. */
static PetscErrorCode same_gradients(const problem_t *p, Vec *l0, Vec *m0,
                                     Vec *l1, Vec *m1, bool *same)
{
    PetscFunctionBeginUser;
    bool all = true;
    for (PetscInt i = 0; i < p->numcost; i++) {
        bool s = false;
        PetscCall(check_bitwise(l0[i], l1[i], &s));
        all = all && s;
        if (p->with_mu) {
            PetscCall(check_bitwise(m0[i], m1[i], &s));
            all = all && s;
        }
    }
    *same = all;
    PetscFunctionReturn(0);
}

/* PETSc's memory trajectory, solution-only against store-all: its
 * largest difference in lambda[0] and mu[0], printed for the docs. */
static PetscErrorCode solution_only_figures(const problem_t *p, Vec *l0,
                                            Vec *m0)
{
    PetscFunctionBeginUser;
    Vec *l1 = NULL, *m1 = NULL;
    PetscCall(PetscOptionsSetValue(NULL, "-ts_trajectory_solution_only", "1"));
    PetscCall(driver_solve(p, TSTRAJECTORYMEMORY, 1, &l1, &m1, NULL));
    PetscCall(PetscOptionsClearValue(NULL, "-ts_trajectory_solution_only"));
    PetscCall(print_difference("memory solution-only vs store-all: lambda[0]",
                               l0[0], l1[0]));
    if (p->with_mu)
        PetscCall(print_difference("memory solution-only vs store-all: mu[0]",
                                   m0[0], m1[0]));
    PetscCall(driver_free_gradients(p, &l1, &m1));
    PetscFunctionReturn(0);
}

/* One uturn run at a budget of @p states states (0: none) against the
 * reference gradients. */
static PetscErrorCode one_budget(const problem_t *p, const test_options_t *o,
                                 uint64_t states, Vec *l0, Vec *m0, bool *ok)
{
    PetscFunctionBeginUser;
    Vec *l1 = NULL, *m1 = NULL, u = NULL;
    PetscInt local = 0;
    uturn_petsc_report_t r;
    uturn_petsc_report_init(&r);
    PetscCall(p->initial(p->ctx, &u));
    PetscCall(VecGetLocalSize(u, &local));
    PetscCall(VecDestroy(&u));
    PetscCall(
        set_budget_options(o, states, (uint64_t)local * sizeof(PetscScalar)));
    if (o->twice)
        PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                              "one TS, two solves and "
                              "adjoints: the second's gradients\n"));
    PetscCall(
        driver_solve(p, TSTRAJECTORYUTURN, o->twice ? 2 : 1, &l1, &m1, &r));
    bool same = false;
    PetscCall(same_gradients(p, l0, m0, l1, m1, &same));
    PetscCall(check_run(o, states, (uint64_t)local * sizeof(PetscScalar), &r,
                        same, ok));
    PetscCall(driver_free_gradients(p, &l1, &m1));
    PetscFunctionReturn(0);
}

PetscErrorCode driver_run(const problem_t *p, bool *ok)
{
    PetscFunctionBeginUser;
    test_options_t o;
    PetscCall(read_test_options(&o));
    PetscCall(uturn_petsc_register());
    Vec *l0 = NULL, *m0 = NULL;
    PetscCall(driver_solve(p, TSTRAJECTORYMEMORY, 1, &l0, &m0, NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "%s: reference gradients from "
                          "TSTrajectory memory (store-all)\n",
                          p->name));
    if (o.solution_only)
        PetscCall(solution_only_figures(p, l0, m0));
    *ok = true;
    for (size_t i = 0; i < o.count; i++) {
        bool run_ok = false;
        PetscCall(one_budget(p, &o, o.states[i], l0, m0, &run_ok));
        *ok = *ok && run_ok;
    }
    PetscCall(driver_free_gradients(p, &l0, &m0));
    PetscFunctionReturn(0);
}
