/*
 * Taking a step again, bit for bit as the first sweep took it. The step
 * starts from the recorded time with the size the first sweep's step
 * began with (never a size recomputed from times), and the adapt decides
 * as it did then: a step that was rejected and retried is rejected and
 * retried again, from the same rolled-back state. A step that follows the
 * TS's last step (the replay of step j-1 left x_j) continues as the first
 * sweep did. A step after a restore starts afresh: it restarts
 * (ts->steprestart), so that a first-same-as-last RK method does not take
 * a stage of whatever step the TS took last; for such a method it is
 * first primed from the last stage kept with x_j (prime() below), so that
 * it takes the first sweep's first stage.
 * No monitor, pre-step or post-step runs: a recomputation is not a new
 * step.
 */
#include "petsc_internal.h"

/* The time the replayed step reached must be the one recorded. */
static PetscErrorCode check_reached(struct uturn__petsc *u, TS ts, uint64_t j)
{
    PetscFunctionBegin;
    PetscCheck(ts->reason >= 0, u->comm, PETSC_ERR_NOT_CONVERGED,
               "uturn: recomputing step %llu failed (%s)",
               (unsigned long long)j, TSConvergedReasons[ts->reason]);
    PetscCheck(ts->ptime == u->rec.time[j + 1], u->comm, PETSC_ERR_PLIB,
               "uturn: recomputing step %llu reached t = %.17g, not the "
               "recorded %.17g: the step is not a function of the state, "
               "the time and the step size alone",
               (unsigned long long)j, (double)ts->ptime,
               (double)u->rec.time[j + 1]);
    PetscFunctionReturn(0);
}

/* One TSStep() from x_j in the TS's solution. A cost integral computed
 * in the forward solve is the first sweep's: a recomputed step adds
 * nothing to it, and neither may a rejected attempt's rollback take its
 * share away (TSRollBack_RK does while costintegralfwd is set). */
static PetscErrorCode take(struct uturn__petsc *u, TS ts, uint64_t j,
                           PetscReal dt, PetscBool restart)
{
    PetscFunctionBegin;
    ts->ptime                = u->rec.time[j];
    ts->ptime_prev           = j > 0 ? u->rec.time[j - 1] : u->rec.time[0];
    ts->time_step            = dt;
    ts->steps                = (PetscInt)j;
    ts->steprestart          = restart;
    ts->steprollback         = PETSC_FALSE;
    ts->reason               = TS_CONVERGED_ITERATING;
    const PetscBool integral = ts->costintegralfwd;
    ts->costintegralfwd      = PETSC_FALSE;
    const PetscErrorCode err = TSStep(ts);
    ts->costintegralfwd      = integral;
    PetscCall(err);
    PetscFunctionReturn(0);
}

/* A step of size 0 from Y_s, the last stage of the first sweep's step
 * j-1 (kept with x_j, or x_j itself when this PETSc computes them equal:
 * petsc_stage.c): every stage is Y_s, so the step leaves f(t_j, Y_s) in
 * its last stage, where the first sweep's step j-1 left it (t_{j-1} +
 * h c_s is t_j: c_s = 1 for these methods), and a rejected attempt is
 * retried with the same stage as the first time. It is accepted whatever
 * the adapt says; then x_j again, from a copy made before (one state
 * outside the budget, like the TS's own vectors). Y_s + 0 y may turn a -0
 * into +0: exact unless the right-hand side tells -0 from +0. */
static PetscErrorCode prime(struct uturn__petsc *u, TS ts, uint64_t j)
{
    PetscFunctionBegin;
    PetscCheck(!u->staged || u->stage_step == j, u->comm, PETSC_ERR_PLIB,
               "uturn: x_%llu was restored without the last stage of the "
               "step that reached it",
               (unsigned long long)j);
    if (u->work == NULL)
        PetscCall(VecDuplicate(ts->vec_sol, &u->work));
    PetscCall(VecCopy(ts->vec_sol, u->work));
    if (u->staged)
        PetscCall(VecCopy(u->stage, ts->vec_sol));
    TSAdapt adapt = NULL;
    PetscCall(TSGetAdapt(ts, &adapt));
    const PetscBool accept = adapt->always_accept;
    adapt->always_accept   = PETSC_TRUE;
    PetscCall(take(u, ts, j, 0, PETSC_TRUE));
    adapt->always_accept = accept;
    PetscCall(VecCopy(u->work, ts->vec_sol));
    u->count.primes++;
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_replay(struct uturn__petsc *u, TS ts, uint64_t j,
                                   bool counted)
{
    PetscFunctionBegin;
    PetscCheck(j + 1 < u->rec.count, u->comm, PETSC_ERR_PLIB,
               "uturn: step %llu was never taken", (unsigned long long)j);
    const bool follows = u->last_step != UTURN_NONE && u->last_step + 1 == j;
    const bool primed  = !follows && j > 0 && u->fsal;
    if (primed)
        PetscCall(prime(u, ts, j));
    const bool restart          = !follows && !primed;
    struct uturn__petsc_wrap *w = &u->wrap;
    w->attempts = uturn__petsc_records_step(&u->rec, j, &w->sizes);
    w->next     = 0;
    w->forcing  = !u->rec.plain[j];
    const PetscErrorCode err =
        take(u, ts, j, w->sizes[0], restart ? PETSC_TRUE : PETSC_FALSE);
    w->forcing = false;
    PetscCall(err);
    PetscCheck(u->rec.plain[j] || w->next == w->attempts, u->comm,
               PETSC_ERR_PLIB,
               "uturn: recomputing step %llu made %llu attempts, the first "
               "sweep %llu",
               (unsigned long long)j, (unsigned long long)w->next,
               (unsigned long long)w->attempts);
    PetscCall(check_reached(u, ts, j));
    ts->reason       = TS_CONVERGED_ITERATING;
    u->last_step     = j;
    u->ts_stage_step = j + 1;
    if (counted)
        u->count.forward_steps++;
    else
        u->count.replays++;
    PetscFunctionReturn(0);
}

void uturn__petsc_turn_back(struct uturn__petsc *u, TS ts, uint64_t k)
{
    ts->ptime      = u->rec.time[k];
    ts->ptime_prev = u->rec.time[k - 1];
    ts->time_step  = u->rec.time[k - 1] - u->rec.time[k];
    ts->steps      = (PetscInt)k;
    ts->reason     = TS_CONVERGED_ITERATING;
}
