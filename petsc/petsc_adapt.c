/*
 * Every attempt of every step. TSAdaptChoose() asks the TS's adapt about
 * each attempt of a step, with its size; all but the last of a step are
 * rejected. The layer wraps the adapt's choose operation (PETSc's private
 * TSAdapt struct): in the first sweep it records each attempt's size; in a
 * recomputation it lets the adapt compute as usual, then makes the same
 * decisions as the first time (reject and retry with the next recorded
 * size, accept the last), so that a step whose error estimate depends on
 * earlier steps (theta's) is recomputed exactly too. The wrapper is
 * removed when the trajectory is reset or destroyed; the adapt is
 * referenced meanwhile.
 */
#include "petsc_internal.h"

/* A recomputation's decision for the attempt of size @p h. */
static PetscErrorCode force(struct uturn__petsc *u, PetscReal h,
                            PetscReal *next_h, PetscBool *accept)
{
    PetscFunctionBegin;
    struct uturn__petsc_wrap *w = &u->wrap;
    PetscCheck(
        w->next < w->attempts && h == w->sizes[w->next], u->comm,
        PETSC_ERR_PLIB,
        "uturn: a recomputed step tried size %.17g where the first "
        "sweep tried %.17g (attempt %llu of %llu)",
        (double)h, (double)(w->next < w->attempts ? w->sizes[w->next] : 0),
        (unsigned long long)(w->next + 1), (unsigned long long)w->attempts);
    const bool last = w->next + 1 == w->attempts;
    *accept         = last ? PETSC_TRUE : PETSC_FALSE;
    if (!last)
        *next_h = w->sizes[w->next + 1];
    w->next++;
    PetscFunctionReturn(0);
}

static PetscErrorCode wrapped_choose(TSAdapt adapt, TS ts, PetscReal h,
                                     PetscInt *next_sc, PetscReal *next_h,
                                     PetscBool *accept, PetscReal *wlte,
                                     PetscReal *wltea, PetscReal *wlter)
{
    PetscFunctionBegin;
    struct uturn__petsc *u = uturn__petsc_of(ts->trajectory);
    PetscCheck(u != NULL && u->wrap.adapt == adapt, PETSC_COMM_SELF,
               PETSC_ERR_PLIB, "uturn: a wrapped adapt lost its trajectory");
    PetscCall(u->wrap.choose(adapt, ts, h, next_sc, next_h, accept, wlte, wltea,
                             wlter));
    if (u->wrap.recording) {
        PetscCall(uturn__petsc_records_attempt(&u->rec, h, false));
        u->wrap.chose = true;
    } else if (u->wrap.forcing) {
        PetscCall(force(u, h, next_h, accept));
    }
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_adapt_wrap(struct uturn__petsc *u, TS ts)
{
    PetscFunctionBegin;
    TSAdapt adapt = NULL;
    PetscCall(TSGetAdapt(ts, &adapt));
    if (u->wrap.adapt == adapt && adapt->ops->choose == wrapped_choose)
        PetscFunctionReturn(0);
    PetscCall(uturn__petsc_adapt_unwrap(u));
    PetscCheck(adapt->ops->choose != NULL, u->comm, PETSC_ERR_SUP,
               "uturn: the TS's adapt has no choose operation");
    PetscCall(PetscObjectReference((PetscObject)adapt));
    u->wrap.adapt      = adapt;
    u->wrap.choose     = adapt->ops->choose;
    adapt->ops->choose = wrapped_choose;
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_adapt_unwrap(struct uturn__petsc *u)
{
    PetscFunctionBegin;
    TSAdapt adapt = u->wrap.adapt;
    if (adapt == NULL)
        PetscFunctionReturn(0);
    if (adapt->ops->choose == wrapped_choose)
        adapt->ops->choose = u->wrap.choose;
    u->wrap.adapt  = NULL;
    u->wrap.choose = NULL;
    PetscCall(TSAdaptDestroy(&adapt));
    PetscFunctionReturn(0);
}
