/*
 * The TSTrajectory type "uturn": its registration (by a call, or by
 * PETSc's dynamic-library entry point for -dll_append), its constructor,
 * and what ends its life (reset and destroy).
 */
#include "petsc_internal.h"

#include <string.h>

static PetscErrorCode uturn_reset(TSTrajectory tj)
{
    PetscFunctionBegin;
    struct uturn__petsc *u = uturn__petsc_of(tj);
    if (u != NULL) {
        uturn__petsc_step_unwrap(u);
        PetscCall(uturn__petsc_adapt_unwrap(u));
        PetscCall(uturn__petsc_run_drop(u));
        u->phase = UTURN__PETSC_IDLE;
    }
    PetscFunctionReturn(0);
}

static PetscErrorCode uturn_destroy(TSTrajectory tj)
{
    PetscFunctionBegin;
    struct uturn__petsc *u = uturn__petsc_of(tj);
    if (u != NULL) {
        uturn__petsc_step_unwrap(u);
        PetscCall(uturn__petsc_adapt_unwrap(u));
        PetscCall(uturn__petsc_drop_all(u));
        PetscCall(PetscFree(u));
        tj->data = NULL;
    }
    PetscFunctionReturn(0);
}

static void default_options(struct uturn__petsc_options *o)
{
    memset(o, 0, sizeof *o);
    strcpy(o->planner, "auto");
    o->disk_write_cost = 1;
    o->disk_read_cost  = 1;
    o->validate        = true;
}

/* The constructor TSTrajectorySetType() calls. */
static PetscErrorCode uturn_create(TSTrajectory tj, TS ts)
{
    PetscFunctionBegin;
    (void)ts;
    struct uturn__petsc *u = NULL;
    PetscCall(PetscCalloc1(1, &u));
    default_options(&u->opt);
    u->comm                 = PetscObjectComm((PetscObject)tj);
    u->phase                = UTURN__PETSC_IDLE;
    u->steps                = UTURN_NONE;
    u->live                 = UTURN_NONE;
    u->slots.disk.fd        = -1;
    tj->data                = u;
    tj->ops->set            = uturn__petsc_set;
    tj->ops->get            = uturn__petsc_get;
    tj->ops->setfromoptions = uturn__petsc_setfromoptions;
    tj->ops->view           = uturn__petsc_view;
    tj->ops->reset          = uturn_reset;
    tj->ops->destroy        = uturn_destroy;
    /* Checkpoints are solutions only: stages come from replaying a step. */
    tj->solution_only = PETSC_TRUE;
    PetscFunctionReturn(0);
}

struct uturn__petsc *uturn__petsc_of(TSTrajectory tj)
{
    if (tj == NULL || tj->ops->set != uturn__petsc_set)
        return NULL;
    return tj->data;
}

PetscErrorCode uturn_petsc_register(void)
{
    PetscFunctionBegin;
    PetscCall(TSTrajectoryRegister(TSTRAJECTORYUTURN, uturn_create));
    PetscFunctionReturn(0);
}

PetscErrorCode PetscDLLibraryRegister_uturn_petsc(void)
{
    PetscFunctionBegin;
    PetscCall(uturn_petsc_register());
    PetscFunctionReturn(0);
}
