/*
 * The Gray-Scott model of the PETSc layer's tests (petsc_gs.c) and
 * benchmark (bench/petsc_bench.c): see gs_model.c.
 */
#ifndef UTURN_GS_MODEL_H_INCLUDED
#define UTURN_GS_MODEL_H_INCLUDED

#include "petsc_driver.h"

#include <petscdm.h>

typedef struct gs {
    DM da;
    PetscReal d1, d2, gamma, kappa, hx2, hy2;
    PetscBool implicit;
    Mat J, Jp;
} gs_t;

/* The grid (n points a side), its matrices; @p g's coefficients are the
 * caller's. */
PetscErrorCode gs_create(gs_t *g, PetscInt n, PetscBool implicit);
/* The problem for the driver. */
void gs_problem(gs_t *g, problem_t *p);
PetscErrorCode gs_destroy(gs_t *g);

#endif
