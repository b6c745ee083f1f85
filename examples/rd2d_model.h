/*
 * A 2-D reaction-diffusion model (Fisher-KPP) split into strips of rows
 * across MPI ranks, with its discrete adjoint derived by hand.
 *
 * On an nx x ny grid with zero (Dirichlet) values outside it, one explicit
 * Euler step is, at every point,
 *   u' = u + lambda (u_N + u_S + u_W + u_E - 4 u) + kappa u (1 - u)
 * with lambda = D dt / h^2 = 0.2 and kappa = k dt = 0.002, and the
 * objective is J = h^2 / 2 * sum u_n^2 (h = 1 / (nx + 1)). The step's
 * Jacobian is I + lambda L + kappa diag(1 - 2u), and L (the 5-point
 * Laplacian with zero boundary values) is symmetric, so the adjoint step
 * is, at every point,
 *   ub' = ub + lambda (ub_N + ub_S + ub_W + ub_E - 4 ub)
 *            + kappa (1 - 2 u) ub
 * with u the forward state x_i the executor hands back, seeded with
 * ub_n = h^2 u_n; dJ/du_0 is the final ub.
 *
 * Rank r holds rows [row0, row0 + rows) between two ghost rows; before
 * each step it swaps its first and last rows with the ranks above and
 * below (MPI_Sendrecv; MPI_PROC_NULL at the edges, whose ghost rows stay
 * zero). The checkpointed state x_i is the rank's own rows only, one
 * contiguous block. Every point's update reads the same values in the
 * same order whatever the split, so the gradient field is bit for bit
 * the single-rank one; J and any dot product are sums over the grid whose
 * order depends on the split, and agree to round-off.
 */
#ifndef UTURN_RD2D_MODEL_H_INCLUDED
#define UTURN_RD2D_MODEL_H_INCLUDED

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <uturn.h>

typedef struct rd2d {
    MPI_Comm comm;
    int up, down;        /* the neighbouring ranks, or MPI_PROC_NULL */
    uint64_t nx, ny;     /* the whole grid */
    uint64_t row0, rows; /* this rank's strip */
    uint64_t steps;
    double *u;   /* (rows + 2) * nx: ghost row, the strip, ghost row */
    double *ub;  /* the same for the adjoint */
    double *tmp; /* rows * nx */
    double J;    /* the whole grid's objective, after the turn */
} rd2d_t;

/* This rank's strip of an nx x ny grid: rows [row0, row0 + rows), the
 * ranks of @p comm holding the strips in order from the top. Returns
 * false when out of memory. */
bool rd2d_init(rd2d_t *m, MPI_Comm comm, uint64_t nx, uint64_t ny,
               uint64_t row0, uint64_t rows, uint64_t steps);
void rd2d_free(rd2d_t *m);
/* The strip's points and the state the executor copies. */
uint64_t rd2d_points(const rd2d_t *m);
double *rd2d_state(const rd2d_t *m);
/* The live state to u_0 + eps d (d: this strip's values, or NULL). */
void rd2d_start(rd2d_t *m, const double *d, double eps);
/* A random direction, the same values at each grid point whatever the
 * split (from a hash of the point's global index), in [-1, 1]. */
void rd2d_direction(const rd2d_t *m, double *d);
/* J(u_0 + eps d) by a plain forward sweep (collective over the comm). */
double rd2d_objective(rd2d_t *m, const double *d, double eps);
/* The executor's model: callbacks on the live strip. The turn callback
 * sums J over the communicator (MPI_Allreduce). */
void rd2d_model(rd2d_t *m, uturn_model_t *model);
/* dJ/du_0 on this strip after a run: rd2d_points() values. */
const double *rd2d_gradient(const rd2d_t *m);

#endif
