/*
 * set(): the first sweep. TSSolve() calls it with x_0 (k = 0, which
 * begins a run) and after every accepted step. The plan's first sweep is
 * stores and frees of the state just reached, then one advance that PETSc
 * takes step by step; at the advance's end the next batch is read. The
 * run's last step is the one set() sees with the TS's reason set (a
 * maximum step count or time reached, an event that ends the solve): an
 * online plan is told the end there (uturn_cursor_end()); an offline plan
 * was made for the step count predicted before the solve, and a solve
 * that ends elsewhere is an error.
 */
#include "petsc_internal.h"

/* The next action of the first sweep; its end here means an online plan
 * with a disk level went past its reach. */
static PetscErrorCode next_action(struct uturn__petsc *u, uint64_t k,
                                  uturn_action_t *a)
{
    PetscFunctionBegin;
    PetscCheck(uturn_cursor_next(u->cursor, a), u->comm,
               PETSC_ERR_ARG_OUTOFRANGE,
               "uturn: the plan's first sweep ended at step %llu: an online "
               "plan with a disk level reaches its disk slots times its "
               "period without a bound on the steps (give -ts_max_steps, or "
               "more disk)",
               (unsigned long long)k);
    PetscFunctionReturn(0);
}

/* Perform the first sweep's actions for x_k (in @p x) up to the next
 * advance, and remember where that advance ends. */
static PetscErrorCode first_sweep(struct uturn__petsc *u, TS ts, Vec x,
                                  uint64_t k)
{
    PetscFunctionBegin;
    char text[64];
    for (;;) {
        uturn_action_t a;
        PetscCall(next_action(u, k, &a));
        if (a.op == UTURN_OP_ADVANCE) {
            PetscCheck(a.step == k && a.step_end > k, u->comm, PETSC_ERR_PLIB,
                       "uturn: '%s' at step %llu",
                       uturn__petsc_action_text(&a, text, sizeof text),
                       (unsigned long long)k);
            u->target = a.step_end;
            PetscCall(uturn__petsc_done(u, &a));
            PetscFunctionReturn(0);
        }
        PetscCheck(a.op == UTURN_OP_STORE || a.op == UTURN_OP_FREE, u->comm,
                   PETSC_ERR_PLIB, "uturn: '%s' in the first sweep",
                   uturn__petsc_action_text(&a, text, sizeof text));
        PetscCall(uturn__petsc_slot_action(u, ts, x, &a));
    }
}

/* x_k is the last state: tell an online plan, check an offline one. */
static PetscErrorCode end_forward(struct uturn__petsc *u, uint64_t k)
{
    PetscFunctionBegin;
    if (u->online) {
        PetscCheck(uturn_cursor_end(u->cursor) == UTURN_OK, u->comm,
                   PETSC_ERR_PLIB,
                   "uturn: the online plan refused its end "
                   "at step %llu",
                   (unsigned long long)k);
        uturn_error_t err;
        uturn_error_init(&err);
        PetscCheck(u->validator == NULL ||
                       uturn_validator_set_steps(u->validator, k, &err) ==
                           UTURN_OK,
                   u->comm, PETSC_ERR_PLIB, "uturn: %s", err.message);
        u->steps = k;
    }
    u->phase          = UTURN__PETSC_ENDED;
    u->wrap.recording = false;
    PetscFunctionReturn(0);
}

/* Record t_k and the size of the step that reached it. */
static PetscErrorCode record(struct uturn__petsc *u, TS ts, uint64_t k,
                             PetscReal time)
{
    PetscFunctionBegin;
    PetscCheck(u->phase != UTURN__PETSC_ENDED, u->comm, PETSC_ERR_ARG_INCOMP,
               "uturn: the solve went on past step %llu, the step count "
               "predicted before it (fixed step size, max_steps, max_time) "
               "that the plan was made for: use -ts_trajectory_uturn_planner "
               "online",
               (unsigned long long)u->steps);
    PetscCheck(u->phase == UTURN__PETSC_FORWARD && k == u->rec.count, u->comm,
               PETSC_ERR_ARG_WRONGSTATE,
               "uturn: TSTrajectorySet() at step %llu out of order; a uturn "
               "trajectory follows TSSolve() from step 0",
               (unsigned long long)k);
    (void)ts;
    PetscCall(uturn__petsc_step_done(u, k, u->rec.time[k - 1], time));
    PetscCall(uturn__petsc_records_time(&u->rec, k, time));
    u->count.forward_steps++;
    u->live          = k;
    u->ts_stage_step = k;
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_set(TSTrajectory tj, TS ts, PetscInt stepnum,
                                PetscReal time, Vec x)
{
    PetscFunctionBegin;
    struct uturn__petsc *u = uturn__petsc_of(tj);
    PetscCheck(u != NULL && ts != NULL, PetscObjectComm((PetscObject)tj),
               PETSC_ERR_ARG_WRONG, "uturn: set() needs the TS");
    const uint64_t k = (uint64_t)stepnum;
    if (stepnum == 0) {
        PetscCall(uturn__petsc_run_begin(u, ts, x));
        PetscCall(uturn__petsc_records_time(&u->rec, 0, time));
        PetscCall(first_sweep(u, ts, x, 0));
        PetscFunctionReturn(0);
    }
    PetscCall(record(u, ts, k, time));
    const bool last = ts->reason != TS_CONVERGED_ITERATING;
    PetscCheck(!last || k >= u->target, u->comm, PETSC_ERR_ARG_INCOMP,
               "uturn: the solve ended at step %llu, but the plan was made "
               "for the %llu steps predicted before it (fixed step size, "
               "max_steps %d, max_time %g): use "
               "-ts_trajectory_uturn_planner online",
               (unsigned long long)k, (unsigned long long)u->steps,
               (int)ts->max_steps, (double)ts->max_time);
    if (k < u->target)
        PetscFunctionReturn(0);
    if (last || (!u->online && k == u->steps))
        PetscCall(end_forward(u, k));
    else
        PetscCall(first_sweep(u, ts, x, k));
    PetscFunctionReturn(0);
}
