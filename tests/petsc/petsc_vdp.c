/*
 * The van der Pol oscillator with its parameter mu, on one rank:
 *   u0' = u1,   u1' = mu ((1 - u0^2) u1 - u0),
 * cost functions J_i = u_i(T) (i = 0, 1), gradients with respect to the
 * initial state (lambda) and to mu. Explicit form (RHS function) by
 * default; -test_implicit gives the implicit form (IFunction), for theta,
 * Crank-Nicolson and backward Euler. -test_quad adds the cost integrals
 * of r_i = u_i^2 over the run to J_i, computed in the forward solve (a
 * quadrature TS), which the adjoint must leave as the solve left them.
 * See petsc_driver.c for the other options.
 */
#include "petsc_driver.h"

typedef struct vdp {
    PetscReal mu;
    PetscBool implicit, quad;
    Mat J, Jp, drdu, drdp; /* drdu, drdp: the integrands' (-test_quad) */
} vdp_t;

static PetscErrorCode rhs(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
    PetscFunctionBeginUser;
    const vdp_t *v = ctx;
    const PetscScalar *u;
    PetscScalar *f;
    (void)ts;
    (void)t;
    PetscCall(VecGetArrayRead(U, &u));
    PetscCall(VecGetArray(F, &f));
    f[0] = u[1];
    f[1] = v->mu * ((1 - u[0] * u[0]) * u[1] - u[0]);
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(VecRestoreArray(F, &f));
    PetscFunctionReturn(0);
}

/* a * df/du + shift * I into B (and A). */
static PetscErrorCode jac(const vdp_t *v, Vec U, PetscReal a, PetscReal shift,
                          Mat A, Mat B)
{
    PetscFunctionBeginUser;
    const PetscScalar *u;
    const PetscInt rows[2] = {0, 1};
    PetscScalar J[4];
    PetscCall(VecGetArrayRead(U, &u));
    J[0] = shift;
    J[1] = a;
    J[2] = a * (-2 * v->mu * u[0] * u[1] - v->mu);
    J[3] = a * v->mu * (1 - u[0] * u[0]) + shift;
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(MatSetValues(B, 2, rows, 2, rows, J, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
    if (A != B) {
        PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
        PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    }
    PetscFunctionReturn(0);
}

static PetscErrorCode rhs_jac(TS ts, PetscReal t, Vec U, Mat A, Mat B,
                              void *ctx)
{
    (void)ts;
    (void)t;
    return jac(ctx, U, 1, 0, A, B);
}

/* a * df/dmu into A. */
static PetscErrorCode jacp(const vdp_t *v, Vec U, PetscReal a, Mat A)
{
    PetscFunctionBeginUser;
    const PetscScalar *u;
    const PetscInt rows[2] = {0, 1}, col = 0;
    PetscScalar J[2];
    (void)v;
    PetscCall(VecGetArrayRead(U, &u));
    J[0] = 0;
    J[1] = a * ((1 - u[0] * u[0]) * u[1] - u[0]);
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(MatSetValues(A, 2, rows, 1, &col, J, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
}

static PetscErrorCode rhs_jacp(TS ts, PetscReal t, Vec U, Mat A, void *ctx)
{
    (void)ts;
    (void)t;
    return jacp(ctx, U, 1, A);
}

/* F = udot - f(u). */
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
    return jacp(ctx, U, -1, A);
}

/* The integrands r_i = u_i^2 (-test_quad). */
static PetscErrorCode quad_rhs(TS ts, PetscReal t, Vec U, Vec R, void *ctx)
{
    PetscFunctionBeginUser;
    const PetscScalar *u;
    PetscScalar *r;
    (void)ts, (void)t, (void)ctx;
    PetscCall(VecGetArrayRead(U, &u));
    PetscCall(VecGetArray(R, &r));
    r[0] = u[0] * u[0];
    r[1] = u[1] * u[1];
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(VecRestoreArray(R, &r));
    PetscFunctionReturn(0);
}

/* dr/du: row i is 2 u_i e_i. */
static PetscErrorCode quad_jac(TS ts, PetscReal t, Vec U, Mat A, Mat B,
                               void *ctx)
{
    PetscFunctionBeginUser;
    const PetscScalar *u;
    const PetscInt rows[2] = {0, 1};
    PetscScalar J[4]       = {0, 0, 0, 0};
    (void)ts, (void)t, (void)ctx, (void)A;
    PetscCall(VecGetArrayRead(U, &u));
    J[0] = 2 * u[0];
    J[3] = 2 * u[1];
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(MatSetValues(B, 2, rows, 2, rows, J, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
}

/* dr/dmu = 0. */
static PetscErrorCode quad_jacp(TS ts, PetscReal t, Vec U, Mat A, void *ctx)
{
    PetscFunctionBeginUser;
    (void)ts, (void)t, (void)U, (void)ctx;
    PetscCall(MatZeroEntries(A));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
}

static PetscErrorCode setup_quad(vdp_t *v, TS ts)
{
    PetscFunctionBeginUser;
    TS quad;
    PetscCall(TSCreateQuadratureTS(ts, PETSC_TRUE, &quad));
    PetscCall(TSSetRHSFunction(quad, NULL, quad_rhs, v));
    PetscCall(TSSetRHSJacobian(quad, v->drdu, v->drdu, quad_jac, v));
    PetscCall(TSSetRHSJacobianP(quad, v->drdp, quad_jacp, v));
    PetscFunctionReturn(0);
}

static PetscErrorCode setup(void *ctx, TS ts)
{
    PetscFunctionBeginUser;
    vdp_t *v = ctx;
    PetscCall(TSSetProblemType(ts, TS_NONLINEAR));
    if (v->implicit) {
        PetscCall(TSSetIFunction(ts, NULL, ifunction, v));
        PetscCall(TSSetIJacobian(ts, v->J, v->J, ijac, v));
        PetscCall(TSSetIJacobianP(ts, v->Jp, ijacp, v));
    } else {
        PetscCall(TSSetRHSFunction(ts, NULL, rhs, v));
        PetscCall(TSSetRHSJacobian(ts, v->J, v->J, rhs_jac, v));
        PetscCall(TSSetRHSJacobianP(ts, v->Jp, rhs_jacp, v));
    }
    if (v->quad)
        PetscCall(setup_quad(v, ts));
    PetscCall(TSSetMaxTime(ts, 0.5));
    PetscCall(TSSetTimeStep(ts, 0.001));
    PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
    PetscFunctionReturn(0);
}

static PetscErrorCode initial(void *ctx, Vec *u)
{
    PetscFunctionBeginUser;
    vdp_t *v = ctx;
    PetscScalar *x;
    PetscCall(MatCreateVecs(v->J, u, NULL));
    PetscCall(VecGetArray(*u, &x));
    x[0] = 2;
    x[1] = -2.0 / 3.0 + 10.0 / (81.0 * v->mu);
    PetscCall(VecRestoreArray(*u, &x));
    PetscFunctionReturn(0);
}

static PetscErrorCode seed(void *ctx, Vec u, Vec *lambda, Vec *mu)
{
    PetscFunctionBeginUser;
    vdp_t *v = ctx;
    (void)u;
    for (PetscInt i = 0; i < 2; i++) {
        PetscCall(MatCreateVecs(v->J, &lambda[i], NULL));
        PetscCall(VecSet(lambda[i], 0));
        PetscCall(VecSetValue(lambda[i], i, 1.0, INSERT_VALUES));
        PetscCall(VecAssemblyBegin(lambda[i]));
        PetscCall(VecAssemblyEnd(lambda[i]));
        if (mu != NULL) {
            PetscCall(MatCreateVecs(v->Jp, &mu[i], NULL));
            PetscCall(VecSet(mu[i], 0));
        }
    }
    PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
    PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
    vdp_t v = {.mu = 10, .implicit = PETSC_FALSE, .quad = PETSC_FALSE};
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-test_mu", &v.mu, NULL));
    PetscCall(
        PetscOptionsGetBool(NULL, NULL, "-test_implicit", &v.implicit, NULL));
    PetscCall(MatCreateDense(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 2, 2,
                             NULL, &v.J));
    PetscCall(MatCreateDense(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 2, 1,
                             NULL, &v.Jp));
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-test_quad", &v.quad, NULL));
    PetscCall(MatCreateDense(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 2, 2,
                             NULL, &v.drdu));
    PetscCall(MatCreateDense(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 2, 1,
                             NULL, &v.drdp));
    const problem_t p = {.name    = "van der Pol",
                         .ctx     = &v,
                         .numcost = 2,
                         .with_mu = true,
                         .setup   = setup,
                         .initial = initial,
                         .seed    = seed};
    bool ok           = false;
    PetscCall(driver_run(&p, &ok));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, ok ? "ok\n" : "FAIL\n"));
    PetscCall(MatDestroy(&v.J));
    PetscCall(MatDestroy(&v.Jp));
    PetscCall(MatDestroy(&v.drdu));
    PetscCall(MatDestroy(&v.drdp));
    PetscCall(PetscFinalize());
    return ok ? 0 : 1;
}
