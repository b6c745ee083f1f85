/*
 * A 1D viscous Burgers model for uturn, with its hand-derived discrete
 * adjoint.
 *
 *   u_t + (u^2 / 2)_x = nu u_xx   on [0, 2 pi), periodic
 *
 * on `grid` points, dx = 2 pi / grid, advanced by `steps` explicit Euler
 * steps of the conservative central scheme
 *
 *   u'_i = u_i - dt/(4 dx) (u_{i+1}^2 - u_{i-1}^2)
 *              + nu dt/dx^2 (u_{i+1} - 2 u_i + u_{i-1}).
 *
 * nu = max(0.05, 0.8 dx) and dt = dx^2 / (4 nu) keep every coefficient of
 * the update non-negative while |u| <= 1.5 (the initial condition's bound),
 * so the scheme obeys a maximum principle and is stable for any grid and
 * any number of steps. The objective is J = 0.5 ||u_n - u_target||^2 and
 * the adjoint is the exact transpose of the step's Jacobian, so the gradient
 * dJ/du_0 is that of the discrete scheme (a Taylor test shows it).
 *
 * The initial condition u_0 = sin x + 0.5 sin(2x + 0.3) and the target
 * 0.5 sin(x - 1) + 0.2 cos 3x are fixed, so every run is deterministic.
 * A model object is not thread-safe; different objects are independent.
 * Only <uturn.h> and libc/libm are used.
 */
#ifndef UTURN_BURGERS_MODEL_H_INCLUDED
#define UTURN_BURGERS_MODEL_H_INCLUDED

#include <stddef.h>
#include <stdint.h>
#include <uturn.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A Burgers problem: grid, initial condition, target, live and adjoint
 *  state. Opaque. */
typedef struct burgers burgers_t;

/**
 * Make a problem of @p grid points and @p steps time steps, with the live
 * state at u_0 (as after burgers_reset()).
 * @param[out] out  The new problem; set to NULL on failure.
 * @return 0; EINVAL if out is NULL, grid < 4 or steps is 0; ENOMEM if
 *         memory runs out (or grid is too large to allocate).
 */
int burgers_create(size_t grid, uint64_t steps, burgers_t **out);

/** Free @p b and everything it owns. NULL is a no-op. */
void burgers_free(burgers_t *b);

/** The number of grid points. */
size_t burgers_grid(const burgers_t *b);

/** The number of time steps, n. */
uint64_t burgers_steps(const burgers_t *b);

/** The scheme's grid spacing, time step and viscosity (any may be NULL). */
void burgers_scales(const burgers_t *b, double *dx, double *dt, double *nu);

/**
 * Describe @p b as a uturn model: its callbacks, `user` = b, and the live
 * grid as the contiguous state (grid doubles); is_last says x_n is the
 * last state, for online plans, which are not told n; save_adjoint and
 * load_adjoint keep the adjoint grid and J, for durable runs. The model stays
 * valid until burgers_free(); call burgers_reset() before each run.
 */
void burgers_model(burgers_t *b, uturn_model_t *model);

/** Make the live state u_0, zero the adjoint and the objective. */
void burgers_reset(burgers_t *b);

/** The initial condition u_0 (grid doubles), owned by @p b. */
const double *burgers_initial(const burgers_t *b);

/** Replace u_0 with the grid doubles at @p u0 and reset (burgers_reset()). */
void burgers_set_initial(burgers_t *b, const double *u0);

/**
 * Replace u_target with the grid doubles at @p target: the objective
 * J = 0.5 ||u_n - u_target||^2 of every later turn (another functional of
 * the same forward run; nothing is reset).
 */
void burgers_set_target(burgers_t *b, const double *target);

/**
 * Reset, run all steps forward without an adjoint and return J. The live
 * state is u_n afterwards; the adjoint is left zeroed.
 */
double burgers_evaluate(burgers_t *b);

/** J after the turn of the last run (0 before it). */
double burgers_objective(const burgers_t *b);

/**
 * dJ/du_0 (grid doubles, owned by @p b) after a complete run, i.e. once
 * adjoint step 0 has been taken; zero after burgers_reset().
 */
const double *burgers_gradient(const burgers_t *b);

#ifdef __cplusplus
}
#endif

#endif
