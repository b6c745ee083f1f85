/*
 * The Gray-Scott model of the PETSc layer's tests and benchmark: a
 * reaction-diffusion system on a periodic 2-D DMDA, on any number of
 * ranks:
 *   u_t = D1 lap(u) - u v^2 + gamma (1 - u)
 *   v_t = D2 lap(v) + u v^2 - (gamma + kappa) v,
 * with J = sum(u(T)^2 + v(T)^2) / 2, so lambda(T) = U(T), and gradients
 * with respect to the initial state and to (gamma, kappa). Explicit form
 * (RHS function), or the implicit form (IFunction).
 */
#include "gs_model.h"

#include <petscdmda.h>

typedef struct field {
    PetscScalar u, v;
} field_t;

static PetscErrorCode rhs(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
    PetscFunctionBeginUser;
    const gs_t *g = ctx;
    Vec local;
    const field_t **x;
    field_t **f;
    PetscInt xs, ys, xm, ym;
    (void)ts;
    (void)t;
    PetscCall(DMGetLocalVector(g->da, &local));
    PetscCall(DMGlobalToLocal(g->da, U, INSERT_VALUES, local));
    PetscCall(DMDAVecGetArrayRead(g->da, local, &x));
    PetscCall(DMDAVecGetArray(g->da, F, &f));
    PetscCall(DMDAGetCorners(g->da, &xs, &ys, NULL, &xm, &ym, NULL));
    for (PetscInt j = ys; j < ys + ym; j++)
        for (PetscInt i = xs; i < xs + xm; i++) {
            const field_t c       = x[j][i];
            const PetscScalar uv2 = c.u * c.v * c.v;
            const PetscScalar lu =
                (x[j][i - 1].u + x[j][i + 1].u - 2 * c.u) / g->hx2 +
                (x[j - 1][i].u + x[j + 1][i].u - 2 * c.u) / g->hy2;
            const PetscScalar lv =
                (x[j][i - 1].v + x[j][i + 1].v - 2 * c.v) / g->hx2 +
                (x[j - 1][i].v + x[j + 1][i].v - 2 * c.v) / g->hy2;
            f[j][i].u = g->d1 * lu - uv2 + g->gamma * (1 - c.u);
            f[j][i].v = g->d2 * lv + uv2 - (g->gamma + g->kappa) * c.v;
        }
    PetscCall(DMDAVecRestoreArrayRead(g->da, local, &x));
    PetscCall(DMDAVecRestoreArray(g->da, F, &f));
    PetscCall(DMRestoreLocalVector(g->da, &local));
    PetscFunctionReturn(0);
}

/* One row of a * df/dU + shift * I: component c at (i, j). */
static PetscErrorCode jac_row(const gs_t *g, Mat B, field_t p, PetscInt i,
                              PetscInt j, PetscInt c, PetscReal a,
                              PetscReal shift)
{
    PetscFunctionBeginUser;
    const PetscReal d = c == 0 ? g->d1 : g->d2;
    MatStencil row    = {.i = i, .j = j, .c = c}, col[6];
    PetscScalar val[6];
    const PetscInt di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
    for (int k = 0; k < 4; k++) {
        col[k] = (MatStencil){.i = i + di[k], .j = j + dj[k], .c = c};
        val[k] = a * d / (k < 2 ? g->hx2 : g->hy2);
    }
    const PetscScalar lap = -2 * d * (1 / g->hx2 + 1 / g->hy2);
    col[4]                = (MatStencil){.i = i, .j = j, .c = 0};
    col[5]                = (MatStencil){.i = i, .j = j, .c = 1};
    if (c == 0) {
        val[4] = a * (lap - p.v * p.v - g->gamma) + shift;
        val[5] = a * (-2 * p.u * p.v);
    } else {
        val[4] = a * (p.v * p.v);
        val[5] = a * (lap + 2 * p.u * p.v - (g->gamma + g->kappa)) + shift;
    }
    PetscCall(MatSetValuesStencil(B, 1, &row, 6, col, val, INSERT_VALUES));
    PetscFunctionReturn(0);
}

static PetscErrorCode jac(const gs_t *g, Vec U, PetscReal a, PetscReal shift,
                          Mat A, Mat B)
{
    PetscFunctionBeginUser;
    const field_t **x;
    PetscInt xs, ys, xm, ym;
    PetscCall(DMDAVecGetArrayRead(g->da, U, &x));
    PetscCall(DMDAGetCorners(g->da, &xs, &ys, NULL, &xm, &ym, NULL));
    for (PetscInt j = ys; j < ys + ym; j++)
        for (PetscInt i = xs; i < xs + xm; i++)
            for (PetscInt c = 0; c < 2; c++)
                PetscCall(jac_row(g, B, x[j][i], i, j, c, a, shift));
    PetscCall(DMDAVecRestoreArrayRead(g->da, U, &x));
    PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
    if (A != B) {
        PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
        PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    }
    PetscFunctionReturn(0);
}

/* a * df/d(gamma, kappa) into A (dense, one row per unknown). */
static PetscErrorCode jacp(Vec U, PetscReal a, Mat A)
{
    PetscFunctionBeginUser;
    const PetscScalar *x;
    PetscInt lo, hi;
    const PetscInt cols[2] = {0, 1};
    PetscCall(VecGetOwnershipRange(U, &lo, &hi));
    PetscCall(VecGetArrayRead(U, &x));
    for (PetscInt r = lo; r < hi; r += 2) {
        const PetscScalar u = x[r - lo], v = x[r - lo + 1];
        const PetscScalar du[2] = {a * (1 - u), 0}, dv[2] = {-a * v, -a * v};
        PetscCall(MatSetValues(A, 1, &r, 2, cols, du, INSERT_VALUES));
        const PetscInt r1 = r + 1;
        PetscCall(MatSetValues(A, 1, &r1, 2, cols, dv, INSERT_VALUES));
    }
    PetscCall(VecRestoreArrayRead(U, &x));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
}

static PetscErrorCode rhs_jac(TS ts, PetscReal t, Vec U, Mat A, Mat B,
                              void *ctx)
{
    (void)ts;
    (void)t;
    return jac(ctx, U, 1, 0, A, B);
}

static PetscErrorCode rhs_jacp(TS ts, PetscReal t, Vec U, Mat A, void *ctx)
{
    (void)ts;
    (void)t;
    (void)ctx;
    return jacp(U, 1, A);
}

static PetscErrorCode ifunction(TS ts, PetscReal t, Vec U, Vec Udot, Vec F,
                                void *ctx)
{
    PetscFunctionBeginUser;
    PetscCall(rhs(ts, t, U, F, ctx));
    PetscCall(VecAYPX(F, -1.0, Udot));
    PetscFunctionReturn(0);
}

static PetscErrorCode ijac(TS ts, PetscReal t, Vec U, Vec Udot, PetscReal shift,
                           Mat A, Mat B, void *ctx)
{
    (void)ts;
    (void)t;
    (void)Udot;
    return jac(ctx, U, -1, shift, A, B);
}

static PetscErrorCode ijacp(TS ts, PetscReal t, Vec U, Vec Udot,
                            PetscReal shift, Mat A, void *ctx)
{
    (void)ts;
    (void)t;
    (void)Udot;
    (void)shift;
    (void)ctx;
    return jacp(U, -1, A);
}

static PetscErrorCode setup(void *ctx, TS ts)
{
    PetscFunctionBeginUser;
    gs_t *g = ctx;
    PetscCall(TSSetDM(ts, g->da));
    PetscCall(TSSetProblemType(ts, TS_NONLINEAR));
    if (g->implicit) {
        PetscCall(TSSetIFunction(ts, NULL, ifunction, g));
        PetscCall(TSSetIJacobian(ts, g->J, g->J, ijac, g));
        PetscCall(TSSetIJacobianP(ts, g->Jp, ijacp, g));
    } else {
        PetscCall(TSSetRHSFunction(ts, NULL, rhs, g));
        PetscCall(TSSetRHSJacobian(ts, g->J, g->J, rhs_jac, g));
        PetscCall(TSSetRHSJacobianP(ts, g->Jp, rhs_jacp, g));
    }
    PetscCall(TSSetMaxTime(ts, 1e6));
    PetscCall(TSSetTimeStep(ts, 0.5));
    PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
    PetscFunctionReturn(0);
}

/* u = 1 - 2 v, v a bump in the middle of the square [0, 2.5]^2. */
static PetscErrorCode initial(void *ctx, Vec *U)
{
    PetscFunctionBeginUser;
    gs_t *g = ctx;
    field_t **x;
    PetscInt xs, ys, xm, ym, mx, my;
    PetscCall(DMCreateGlobalVector(g->da, U));
    PetscCall(DMDAGetInfo(g->da, NULL, &mx, &my, NULL, NULL, NULL, NULL, NULL,
                          NULL, NULL, NULL, NULL, NULL));
    PetscCall(DMDAGetCorners(g->da, &xs, &ys, NULL, &xm, &ym, NULL));
    PetscCall(DMDAVecGetArray(g->da, *U, &x));
    for (PetscInt j = ys; j < ys + ym; j++)
        for (PetscInt i = xs; i < xs + xm; i++) {
            const PetscReal px = 2.5 * i / mx, py = 2.5 * j / my;
            const PetscReal s = PetscSinReal(4 * PETSC_PI * px) *
                                PetscSinReal(4 * PETSC_PI * py);
            const bool in = px >= 1 && px <= 1.5 && py >= 1 && py <= 1.5;
            x[j][i].v     = in ? 0.25 * s * s : 0;
            x[j][i].u     = 1 - 2 * x[j][i].v;
        }
    PetscCall(DMDAVecRestoreArray(g->da, *U, &x));
    PetscFunctionReturn(0);
}

static PetscErrorCode seed(void *ctx, Vec U, Vec *lambda, Vec *mu)
{
    PetscFunctionBeginUser;
    gs_t *g = ctx;
    PetscCall(VecDuplicate(U, &lambda[0]));
    PetscCall(VecCopy(U, lambda[0]));
    if (mu != NULL) {
        PetscCall(MatCreateVecs(g->Jp, &mu[0], NULL));
        PetscCall(VecSet(mu[0], 0));
    }
    PetscFunctionReturn(0);
}

PetscErrorCode gs_create(gs_t *g, PetscInt n, PetscBool implicit)
{
    PetscFunctionBeginUser;
    PetscInt local = 0;
    Vec U;
    PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_PERIODIC,
                           DM_BOUNDARY_PERIODIC, DMDA_STENCIL_STAR, n, n,
                           PETSC_DECIDE, PETSC_DECIDE, 2, 1, NULL, NULL,
                           &g->da));
    PetscCall(DMSetFromOptions(g->da));
    PetscCall(DMSetUp(g->da));
    PetscCall(DMCreateMatrix(g->da, &g->J));
    PetscCall(DMCreateGlobalVector(g->da, &U));
    PetscCall(VecGetLocalSize(U, &local));
    PetscCall(MatCreateDense(PETSC_COMM_WORLD, local, PETSC_DECIDE,
                             PETSC_DETERMINE, 2, NULL, &g->Jp));
    PetscCall(VecDestroy(&U));
    g->hx2      = (2.5 / n) * (2.5 / n);
    g->hy2      = g->hx2;
    g->implicit = implicit;
    PetscFunctionReturn(0);
}

void gs_problem(gs_t *g, problem_t *p)
{
    *p = (problem_t){.name    = "Gray-Scott",
                     .ctx     = g,
                     .numcost = 1,
                     .with_mu = true,
                     .setup   = setup,
                     .initial = initial,
                     .seed    = seed};
}

PetscErrorCode gs_destroy(gs_t *g)
{
    PetscFunctionBeginUser;
    PetscCall(MatDestroy(&g->J));
    PetscCall(MatDestroy(&g->Jp));
    PetscCall(DMDestroy(&g->da));
    PetscFunctionReturn(0);
}
