/*
 * The size each step of the first sweep began with. A step PETSc rejects
 * is rolled back and retried with a smaller size; the rollback subtracts
 * the rejected update again (TSRollBack_RK), which need not give the
 * starting state back bit for bit, and the retry starts from there. So a
 * recomputation that is to match the first sweep bit for bit must take
 * the rejected attempts too: it starts with the size the step began with
 * and lets the adapt decide as it did. PETSc keeps only the next proposed
 * size after a step, so the layer wraps the TS type's step operation
 * (PETSc's private TS struct) and notes ts->time_step as each step
 * begins. The wrapper is removed when the trajectory is reset or
 * destroyed.
 */
#include "petsc_internal.h"

static PetscErrorCode wrapped_step(TS ts)
{
    PetscFunctionBegin;
    struct uturn__petsc *u = uturn__petsc_of(ts->trajectory);
    PetscCheck(u != NULL && u->wrap.ts == ts, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "uturn: a wrapped TS lost its trajectory");
    if (u->wrap.recording) {
        u->wrap.first_dt = ts->time_step;
        u->wrap.have_dt  = true;
    }
    PetscCall(u->wrap.step(ts));
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_step_wrap(struct uturn__petsc *u, TS ts)
{
    PetscFunctionBegin;
    if (u->wrap.ts == ts && ts->ops->step == wrapped_step)
        PetscFunctionReturn(0);
    uturn__petsc_step_unwrap(u);
    PetscCheck(ts->ops->step != NULL, u->comm, PETSC_ERR_SUP,
               "uturn: the TS type has no step operation");
    u->wrap.ts    = ts;
    u->wrap.step  = ts->ops->step;
    ts->ops->step = wrapped_step;
    PetscFunctionReturn(0);
}

void uturn__petsc_step_unwrap(struct uturn__petsc *u)
{
    if (u->wrap.ts != NULL && u->wrap.ts->ops->step == wrapped_step)
        u->wrap.ts->ops->step = u->wrap.step;
    u->wrap.ts   = NULL;
    u->wrap.step = NULL;
}

/* x_k exists at @p t_now: step k-1's attempts are complete. A step the
 * adapt never saw (a TS type without one) gets the size it began with;
 * without that either, the difference of the times, counted as inexact. */
PetscErrorCode uturn__petsc_step_done(struct uturn__petsc *u, uint64_t k,
                                      PetscReal t_prev, PetscReal t_now)
{
    PetscFunctionBegin;
    (void)k;
    if (!u->wrap.chose) {
        const bool have = u->wrap.have_dt;
        if (!have)
            u->count.inexact_steps++;
        PetscCall(uturn__petsc_records_attempt(
            &u->rec, have ? u->wrap.first_dt : t_now - t_prev, true));
    }
    u->wrap.chose   = false;
    u->wrap.have_dt = false;
    PetscFunctionReturn(0);
}
