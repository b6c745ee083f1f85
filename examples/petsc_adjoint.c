/*
 * A PETSc adjoint program that knows nothing of uturn: Fisher-KPP
 * reaction-diffusion on a periodic 1-D DMDA,
 *   u_t = D u_xx + r u (1 - u),
 * with J = sum(u(T)^2) / 2, its gradient with respect to u(0) (lambda)
 * and to r (mu). It saves its trajectory and runs TSAdjointSolve() like
 * any TSAdjoint code; the trajectory type comes from the options.
 *
 *   mpirun -np 2 ./petsc_adjoint -ts_trajectory_type memory
 *   mpirun -np 2 ./petsc_adjoint -dll_append <libdir>/libuturn_petsc.so \
 *       -ts_trajectory_type uturn -ts_trajectory_uturn_budget 40KB \
 *       -ts_trajectory_view
 *
 * It prints J and a digest of every bit of lambda and mu (the same digest means the same gradient, bit for
 * bit), so that two runs with different trajectory types can be compared.
 * Options: -n N grid points (default 400), and the TS's own (-ts_type,
 * -ts_dt, -ts_max_steps, ...).
 */
#include <petscdmda.h>
#include <petscts.h>
#include <stdint.h>

typedef struct {
    DM da;
    PetscReal d, r, h2;
} model;

static PetscErrorCode rhs(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
    model *m = ctx;
    Vec local;
    const PetscScalar *u;
    PetscScalar *f;
    PetscInt xs, xm;

    PetscFunctionBeginUser;
    (void)ts;
    (void)t;
    PetscCall(DMGetLocalVector(m->da, &local));
    PetscCall(DMGlobalToLocal(m->da, U, INSERT_VALUES, local));
    PetscCall(DMDAVecGetArrayRead(m->da, local, &u));
    PetscCall(DMDAVecGetArray(m->da, F, &f));
    PetscCall(DMDAGetCorners(m->da, &xs, NULL, NULL, &xm, NULL, NULL));
    for (PetscInt i = xs; i < xs + xm; i++)
        f[i] = m->d * (u[i - 1] - 2 * u[i] + u[i + 1]) / m->h2 +
               m->r * u[i] * (1 - u[i]);
    PetscCall(DMDAVecRestoreArrayRead(m->da, local, &u));
    PetscCall(DMDAVecRestoreArray(m->da, F, &f));
    PetscCall(DMRestoreLocalVector(m->da, &local));
    PetscFunctionReturn(0);
}

static PetscErrorCode jacobian(TS ts, PetscReal t, Vec U, Mat A, Mat B,
                               void *ctx)
{
    model *m = ctx;
    const PetscScalar *u;
    PetscInt xs, xm;

    PetscFunctionBeginUser;
    (void)ts;
    (void)t;
    PetscCall(DMDAVecGetArrayRead(m->da, U, &u));
    PetscCall(DMDAGetCorners(m->da, &xs, NULL, NULL, &xm, NULL, NULL));
    for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil row    = {.i = i},
                   col[3] = {{.i = i - 1}, {.i = i}, {.i = i + 1}};
        PetscScalar v[3]  = {m->d / m->h2,
                             -2 * m->d / m->h2 + m->r * (1 - 2 * u[i]),
                             m->d / m->h2};
        PetscCall(MatSetValuesStencil(B, 1, &row, 3, col, v, INSERT_VALUES));
    }
    PetscCall(DMDAVecRestoreArrayRead(m->da, U, &u));
    PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
    if (A != B) {
        PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
        PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    }
    PetscFunctionReturn(0);
}

/* df/dr = u (1 - u), one column. */
static PetscErrorCode jacobian_p(TS ts, PetscReal t, Vec U, Mat A, void *ctx)
{
    const PetscScalar *u;
    PetscInt lo, hi, col = 0;

    PetscFunctionBeginUser;
    (void)ts;
    (void)t;
    (void)ctx;
    PetscCall(VecGetOwnershipRange(U, &lo, &hi));
    PetscCall(VecGetArrayRead(U, &u));
    for (PetscInt i = lo; i < hi; i++) {
        PetscScalar v = u[i - lo] * (1 - u[i - lo]);
        PetscCall(MatSetValues(A, 1, &i, 1, &col, &v, INSERT_VALUES));
    }
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
}

/* A digest of every bit of v, the same for the same vector on the same
 * number of ranks (FNV-1a per rank, combined in rank order). */
static PetscErrorCode digest(Vec v, uint64_t *out)
{
    const PetscScalar *x;
    PetscInt n;
    uint64_t h = 1469598103934665603ull;
    PetscMPIInt size;

    PetscFunctionBeginUser;
    PetscCall(VecGetLocalSize(v, &n));
    PetscCall(VecGetArrayRead(v, &x));
    for (size_t i = 0; i < (size_t)n * sizeof *x; i++)
        h = (h ^ ((const unsigned char *)x)[i]) * 1099511628211ull;
    PetscCall(VecRestoreArrayRead(v, &x));
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
    uint64_t all[64] = {0};
    PetscCheck(size <= 64, PETSC_COMM_WORLD, PETSC_ERR_SUP, "64 ranks at most");
    PetscCallMPI(MPI_Allgather(&h, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T,
                               PetscObjectComm((PetscObject)v)));
    *out = 1469598103934665603ull;
    for (PetscMPIInt r = 0; r < size; r++)
        *out = (*out ^ all[r]) * 1099511628211ull;
    PetscFunctionReturn(0);
}

static PetscErrorCode initial(model *m, Vec U)
{
    PetscScalar *u;
    PetscInt xs, xm, n;

    PetscFunctionBeginUser;
    PetscCall(DMDAGetInfo(m->da, NULL, &n, NULL, NULL, NULL, NULL, NULL, NULL,
                          NULL, NULL, NULL, NULL, NULL));
    PetscCall(DMDAGetCorners(m->da, &xs, NULL, NULL, &xm, NULL, NULL));
    PetscCall(DMDAVecGetArray(m->da, U, &u));
    for (PetscInt i = xs; i < xs + xm; i++) {
        PetscReal x = (PetscReal)i / n;
        u[i]        = PetscExpReal(-200 * (x - 0.5) * (x - 0.5));
    }
    PetscCall(DMDAVecRestoreArray(m->da, U, &u));
    PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
    model m    = {.d = 1e-4, .r = 1};
    PetscInt n = 400;
    TS ts;
    Vec U, lambda, mu;
    Mat J, Jp;
    PetscReal cost;
    uint64_t dl, dm;

    PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
    m.h2 = 1.0 / ((PetscReal)n * (PetscReal)n);
    PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_PERIODIC, n, 1, 1,
                           NULL, &m.da));
    PetscCall(DMSetUp(m.da));
    PetscCall(DMCreateGlobalVector(m.da, &U));
    PetscCall(DMCreateMatrix(m.da, &J));
    PetscCall(MatCreateDense(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, 1,
                             NULL, &Jp));

    PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
    PetscCall(TSSetDM(ts, m.da));
    PetscCall(TSSetType(ts, TSRK));
    PetscCall(TSSetRHSFunction(ts, NULL, rhs, &m));
    PetscCall(TSSetRHSJacobian(ts, J, J, jacobian, &m));
    PetscCall(TSSetRHSJacobianP(ts, Jp, jacobian_p, &m));
    PetscCall(TSSetTimeStep(ts, 0.01));
    PetscCall(TSSetMaxTime(ts, 2.0));
    PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
    PetscCall(TSSetSaveTrajectory(ts)); /* the type: -ts_trajectory_type */
    PetscCall(TSSetFromOptions(ts));

    PetscCall(initial(&m, U));
    PetscCall(TSSolve(ts, U));
    PetscCall(VecDot(U, U, &cost));
    PetscCall(VecDuplicate(U, &lambda));
    PetscCall(VecCopy(U, lambda)); /* dJ/du(T) = u(T) */
    PetscCall(MatCreateVecs(Jp, &mu, NULL));
    PetscCall(VecSet(mu, 0));
    PetscCall(TSSetCostGradients(ts, 1, &lambda, &mu));
    PetscCall(TSAdjointSolve(ts));

    PetscCall(digest(lambda, &dl));
    PetscCall(digest(mu, &dm));
    PetscCall(PetscPrintf(
        PETSC_COMM_WORLD, "J = %.15g; gradient digest %016llx %016llx\n",
        (double)cost / 2, (unsigned long long)dl, (unsigned long long)dm));

    PetscCall(VecDestroy(&U));
    PetscCall(VecDestroy(&lambda));
    PetscCall(VecDestroy(&mu));
    PetscCall(MatDestroy(&J));
    PetscCall(MatDestroy(&Jp));
    PetscCall(TSDestroy(&ts));
    PetscCall(DMDestroy(&m.da));
    PetscCall(PetscFinalize());
    return 0;
}
