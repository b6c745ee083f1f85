/*
 * A run: from set(0) to the end of the adjoint. It owns the cursor over
 * the plan, the validator, the slots and the per-step records; the plan
 * itself (and the MPI layer's communicator) outlives runs.
 */
#include "petsc_internal.h"

#include <string.h>

/* A validator for the plan's problem as it was resolved: its capacity in
 * slots, per level; the step count unknown for an online plan. */
static PetscErrorCode open_validator(struct uturn__petsc *u)
{
    PetscFunctionBegin;
    if (!u->opt.validate)
        PetscFunctionReturn(0);
    uturn_problem_t p;
    uturn_problem_init(&p);
    uturn_plan_problem(uturn_mpi_plan_core(u->plan), &p);
    p.budget_bytes = 0;
    if (p.level_count > 0)
        p.slots = 0;
    if (u->online)
        p.steps = 0;
    uturn_error_t err;
    uturn_error_init(&err);
    PetscCheck(uturn_validator_create(&p, NULL, &u->validator, &err) ==
                   UTURN_OK,
               PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "uturn: no validator for the plan: %s", err.message);
    PetscFunctionReturn(0);
}

/* Theta's extrapolated initial guess depends on the step before, which a
 * step recomputed after a restore does not have, and it changes the
 * gradient without changing the times the layer checks: refused, when
 * the options database asks for it (PETSc has no getter for it). */
static PetscErrorCode refuse_extrapolation(TS ts)
{
    PetscFunctionBegin;
    PetscBool theta = PETSC_FALSE, on = PETSC_FALSE, set = PETSC_FALSE;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)ts, &theta, TSTHETA, TSCN,
                                        TSBEULER, ""));
    if (theta)
        PetscCall(PetscOptionsGetBool(
            ((PetscObject)ts)->options, ((PetscObject)ts)->prefix,
            "-ts_theta_initial_guess_extrapolate", &on, &set));
    PetscCheck(!(set && on), PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP,
               "uturn: -ts_theta_initial_guess_extrapolate is not supported: "
               "a step recomputed from a checkpoint has no step before it "
               "to extrapolate from, so its gradient would differ from the "
               "first sweep's (docs/petsc.md)");
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_run_begin(struct uturn__petsc *u, TS ts, Vec x)
{
    PetscFunctionBegin;
    PetscCall(refuse_extrapolation(ts));
    PetscCall(uturn__petsc_run_drop(u));
    PetscCall(uturn__petsc_stage_needs(ts, x, &u->fsal, &u->staged));
    PetscCall(uturn__petsc_plan_begin(u, ts, x));
    PetscCheck(uturn_cursor_create(uturn_mpi_plan_core(u->plan), NULL,
                                   &u->cursor) == UTURN_OK,
               PETSC_COMM_SELF, PETSC_ERR_MEM, "uturn: out of memory");
    PetscCall(open_validator(u));
    PetscInt local = 0;
    PetscCall(VecGetLocalSize(x, &local));
    PetscCall(uturn__petsc_slots_open(&u->slots, u->plan_slots,
                                      u->plan_disk_slots, local, u->staged,
                                      u->opt.disk_dir, u->comm));
    PetscCall(uturn__petsc_step_wrap(u, ts));
    PetscCall(uturn__petsc_adapt_wrap(u, ts));
    u->wrap.chose     = false;
    u->wrap.recording = true;
    u->wrap.have_dt   = false;
    u->last_step      = UTURN_NONE;
    u->ts_stage_step  = UTURN_NONE;
    u->stage_step     = UTURN_NONE;
    u->phase          = UTURN__PETSC_FORWARD;
    u->steps          = u->request.steps > 0 ? u->request.steps : UTURN_NONE;
    u->target         = 0;
    u->live           = 0;
    u->turned         = false;
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_run_drop(struct uturn__petsc *u)
{
    PetscFunctionBegin;
    uturn_cursor_free(u->cursor);
    uturn_validator_free(u->validator);
    u->cursor    = NULL;
    u->validator = NULL;
    PetscCall(uturn__petsc_slots_close(&u->slots));
    PetscCall(uturn__petsc_records_free(&u->rec));
    memset(&u->count, 0, sizeof u->count);
    u->wrap.recording = false;
    u->phase          = UTURN__PETSC_IDLE;
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_drop_all(struct uturn__petsc *u)
{
    PetscFunctionBegin;
    PetscCall(uturn__petsc_run_drop(u));
    PetscCall(VecDestroy(&u->work));
    PetscCall(VecDestroy(&u->stage));
    uturn_mpi_plan_free(u->plan);
    uturn_executor_free(u->executor);
    u->plan     = NULL;
    u->executor = NULL;
    PetscFunctionReturn(0);
}
