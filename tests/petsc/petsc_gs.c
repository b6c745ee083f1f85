/*
 * The Gray-Scott test (gs_model.c) on any number of ranks: the grid is
 * -test_grid N points a side (default 16), -test_implicit for the
 * implicit form. See petsc_driver.c for the test's options.
 */
#include "gs_model.h"

int main(int argc, char **argv)
{
    PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
    gs_t g     = {.d1 = 8e-5, .d2 = 4e-5, .gamma = 0.024, .kappa = 0.06};
    PetscInt n = 16;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-test_grid", &n, NULL));
    PetscBool implicit = PETSC_FALSE;
    PetscCall(
        PetscOptionsGetBool(NULL, NULL, "-test_implicit", &implicit, NULL));
    PetscCall(gs_create(&g, n, implicit));
    problem_t p;
    gs_problem(&g, &p);
    bool ok = false;
    PetscCall(driver_run(&p, &ok));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, ok ? "ok\n" : "FAIL\n"));
    PetscCall(gs_destroy(&g));
    PetscCall(PetscFinalize());
    return ok ? 0 : 1;
}
