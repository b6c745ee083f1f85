/*
 * get(): the reversal. TSAdjointSolve() asks for step k before adjoint
 * step k-1 (k = n first). The layer performs the plan's actions up to
 * `reverse k-1` (the turn, restores, advances by TSStep() with the
 * recorded times and step sizes, stores, frees), then replays step k-1
 * once: the TS holds x_k and the stages of step k-1, with ptime t_k and
 * time_step t_{k-1} - t_k, which is what PETSc's memory trajectory leaves
 * for the adjoint step.
 */
#include "petsc_internal.h"

/* The first get(): the forward must have ended where the plan expects. */
static PetscErrorCode begin_reverse(struct uturn__petsc *u, TS ts, uint64_t k)
{
    PetscFunctionBegin;
    /* a method PETSc has no adjoint for: its words, not a wrong guess */
    PetscCheck(ts->ops->adjointstep != NULL, u->comm, PETSC_ERR_SUP,
               "uturn: PETSc has no adjoint step (TSAdjointStep) for TS type "
               "%s",
               ((PetscObject)ts)->type_name);
    PetscCheck(u->phase != UTURN__PETSC_FORWARD || !u->online, u->comm,
               PETSC_ERR_SUP,
               "uturn: the adjoint began, but the solve never said its last "
               "step to TSTrajectorySet() (it ended in a post-step or a "
               "monitor, after step %llu was recorded): an online plan needs "
               "the end known when the step is recorded (max_steps, "
               "max_time, or an event that ends the solve)",
               (unsigned long long)(u->rec.count - 1));
    PetscCheck(u->phase == UTURN__PETSC_ENDED, u->comm,
               PETSC_ERR_ARG_WRONGSTATE,
               "uturn: TSAdjointSolve() without a complete TSSolve() before "
               "it");
    PetscCheck(k == u->steps, u->comm, PETSC_ERR_ARG_WRONGSTATE,
               "uturn: the adjoint begins at step %llu, the solve took %llu",
               (unsigned long long)k, (unsigned long long)u->steps);
    u->phase = UTURN__PETSC_REVERSE;
    PetscFunctionReturn(0);
}

static PetscErrorCode turn(struct uturn__petsc *u, const uturn_action_t *a)
{
    PetscFunctionBegin;
    PetscCheck(!u->turned && u->live == u->steps, u->comm, PETSC_ERR_PLIB,
               "uturn: a turn with the live state at step %llu",
               (unsigned long long)u->live);
    u->turned = true;
    PetscCall(uturn__petsc_done(u, a));
    PetscFunctionReturn(0);
}

static PetscErrorCode advance(struct uturn__petsc *u, TS ts,
                              const uturn_action_t *a)
{
    PetscFunctionBegin;
    PetscCheck(u->live == a->step && a->step_end <= u->steps, u->comm,
               PETSC_ERR_PLIB,
               "uturn: advance %llu %llu with the live state "
               "at step %llu",
               (unsigned long long)a->step, (unsigned long long)a->step_end,
               (unsigned long long)u->live);
    for (uint64_t j = a->step; j < a->step_end; j++)
        PetscCall(uturn__petsc_replay(u, ts, j, true));
    u->live = a->step_end;
    PetscCall(uturn__petsc_done(u, a));
    PetscFunctionReturn(0);
}

/* Perform actions up to and including `reverse i`. */
static PetscErrorCode up_to_reverse(struct uturn__petsc *u, TS ts, uint64_t i)
{
    PetscFunctionBegin;
    char text[64];
    for (;;) {
        uturn_action_t a;
        PetscCall(uturn__petsc_take(u, &a));
        if (a.op == UTURN_OP_REVERSE) {
            PetscCheck(a.step == i && u->live == i && u->turned, u->comm,
                       PETSC_ERR_PLIB,
                       "uturn: '%s' where adjoint step %llu comes (live state "
                       "at step %llu)",
                       uturn__petsc_action_text(&a, text, sizeof text),
                       (unsigned long long)i, (unsigned long long)u->live);
            PetscCall(uturn__petsc_done(u, &a));
            PetscFunctionReturn(0);
        }
        if (a.op == UTURN_OP_TURN)
            PetscCall(turn(u, &a));
        else if (a.op == UTURN_OP_ADVANCE)
            PetscCall(advance(u, ts, &a));
        else
            PetscCall(uturn__petsc_slot_action(u, ts, ts->vec_sol, &a));
    }
}

PetscErrorCode uturn__petsc_get(TSTrajectory tj, TS ts, PetscInt stepnum,
                                PetscReal *time)
{
    PetscFunctionBegin;
    struct uturn__petsc *u = uturn__petsc_of(tj);
    PetscCheck(u != NULL, PetscObjectComm((PetscObject)tj), PETSC_ERR_ARG_WRONG,
               "uturn: not a uturn trajectory");
    /* TSAdjointSolve() asks once more after its last step: nothing to do. */
    if (ts->reason != TS_CONVERGED_ITERATING)
        PetscFunctionReturn(0);
    const uint64_t k = (uint64_t)stepnum;
    if (u->phase != UTURN__PETSC_REVERSE)
        PetscCall(begin_reverse(u, ts, k));
    PetscCheck(k >= 1 && k <= u->steps, u->comm, PETSC_ERR_ARG_OUTOFRANGE,
               "uturn: the adjoint asks for step %llu", (unsigned long long)k);
    PetscCall(up_to_reverse(u, ts, k - 1));
    PetscCall(uturn__petsc_replay(u, ts, k - 1, false));
    uturn__petsc_turn_back(u, ts, k);
    u->live = UTURN_NONE;
    *time   = u->rec.time[k];
    /* PETSc's own view lines count these. */
    tj->recomps =
        (PetscInt)(u->count.forward_steps - u->steps + u->count.replays);
    tj->diskreads  = (PetscInt)u->count.disk_restores;
    tj->diskwrites = (PetscInt)u->count.disk_stores;
    if (k == 1)
        PetscCall(uturn__petsc_finish(u));
    PetscFunctionReturn(0);
}
