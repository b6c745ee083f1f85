/* The strip model of rd2d_model.h: steps, halo exchange, callbacks. */
#include "rd2d_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LAMBDA 0.2
#define KAPPA  0.002
#define PI     3.14159265358979323846

bool rd2d_init(rd2d_t *m, MPI_Comm comm, uint64_t nx, uint64_t ny,
               uint64_t row0, uint64_t rows, uint64_t steps)
{
    memset(m, 0, sizeof *m);
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    m->comm  = comm;
    m->up    = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    m->down  = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    m->nx    = nx;
    m->ny    = ny;
    m->row0  = row0;
    m->rows  = rows;
    m->steps = steps;
    /* calloc: the ghost rows at the grid's edges stay zero for good. */
    m->u   = calloc((rows + 2) * nx, sizeof *m->u);
    m->ub  = calloc((rows + 2) * nx, sizeof *m->ub);
    m->tmp = calloc(rows * nx, sizeof *m->tmp);
    return m->u != NULL && m->ub != NULL && m->tmp != NULL;
}

void rd2d_free(rd2d_t *m)
{
    free(m->u);
    free(m->ub);
    free(m->tmp);
}

uint64_t rd2d_points(const rd2d_t *m)
{
    return m->rows * m->nx;
}

double *rd2d_state(const rd2d_t *m)
{
    return m->u + m->nx;
}

const double *rd2d_gradient(const rd2d_t *m)
{
    return m->ub + m->nx;
}

/* u_0: smooth, inside (0, 1). */
static double initial(const rd2d_t *m, uint64_t row, uint64_t col)
{
    const double x = (double)(col + 1) / (double)(m->nx + 1);
    const double y = (double)(row + 1) / (double)(m->ny + 1);
    return 0.5 + 0.3 * sin(3 * PI * x) * sin(2 * PI * y) +
           0.1 * cos(5 * PI * x * y);
}

void rd2d_start(rd2d_t *m, const double *d, double eps)
{
    double *s = rd2d_state(m);
    for (uint64_t i = 0; i < m->rows; i++)
        for (uint64_t j = 0; j < m->nx; j++) {
            const uint64_t k = i * m->nx + j;
            s[k] = initial(m, m->row0 + i, j) + (d != NULL ? eps * d[k] : 0);
        }
}

void rd2d_direction(const rd2d_t *m, double *d)
{
    for (uint64_t k = 0; k < rd2d_points(m); k++) {
        uint64_t z = m->row0 * m->nx + k + 0x9e3779b97f4a7c15ull;
        z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        d[k] = (double)(z >> 11) / 4503599627370496.0 - 1.0; /* 2^52 */
    }
}

/* Fill the ghost rows of @p f (a strip with its ghosts) from the
 * neighbours: our first row goes up and theirs comes back below, our
 * last row goes down and theirs comes back above. */
static void exchange(const rd2d_t *m, double *f)
{
    const int n   = (int)m->nx;
    double *first = f + m->nx, *last = f + m->rows * m->nx;
    double *above = f, *below = f + (m->rows + 1) * m->nx;
    MPI_Sendrecv(first, n, MPI_DOUBLE, m->up, 1, below, n, MPI_DOUBLE, m->down,
                 1, m->comm, MPI_STATUS_IGNORE);
    MPI_Sendrecv(last, n, MPI_DOUBLE, m->down, 2, above, n, MPI_DOUBLE, m->up,
                 2, m->comm, MPI_STATUS_IGNORE);
}

/* One point of either step: f + lambda (N + S + W + E - 4 f) + r f,
 * always in this order, so that every split computes it the same way.
 * The forward step has r = kappa (1 - u), the adjoint r = kappa (1 - 2u). */
static inline double point(double n, double s, double w, double e, double f,
                           double r)
{
    return f + LAMBDA * (n + s + w + e - 4.0 * f) + r * f;
}

/* Row @p i of a strip with ghosts @p f into @p out; @p u is the forward
 * state's row (the reaction's coefficient), @p twice 2 for the adjoint
 * and 1 for the forward step. The edges are apart, so that the inner
 * loop has no branch and vectorizes. */
static void row(const rd2d_t *m, const double *f, const double *u, double twice,
                uint64_t i, double *out)
{
    const uint64_t nx = m->nx;
    const double *c = f + (i + 1) * nx, *n = c - nx, *s = c + nx;
    if (nx == 1) {
        out[0] = point(n[0], s[0], 0.0, 0.0, c[0], KAPPA * (1 - twice * u[0]));
        return;
    }
    out[0] = point(n[0], s[0], 0.0, c[1], c[0], KAPPA * (1 - twice * u[0]));
    for (uint64_t j = 1; j + 1 < nx; j++)
        out[j] = point(n[j], s[j], c[j - 1], c[j + 1], c[j],
                       KAPPA * (1 - twice * u[j]));
    out[nx - 1] = point(n[nx - 1], s[nx - 1], c[nx - 2], 0.0, c[nx - 1],
                        KAPPA * (1 - twice * u[nx - 1]));
}

static void forward_step(rd2d_t *m)
{
    exchange(m, m->u);
    const double *u = rd2d_state(m);
    for (uint64_t i = 0; i < m->rows; i++)
        row(m, m->u, u + i * m->nx, 1.0, i, m->tmp + i * m->nx);
    memcpy(rd2d_state(m), m->tmp, rd2d_points(m) * sizeof *m->tmp);
}

/* The live state is x_i; ub goes from ub_{i+1} to ub_i. */
static void adjoint_step(rd2d_t *m)
{
    exchange(m, m->ub);
    const double *u = rd2d_state(m);
    for (uint64_t i = 0; i < m->rows; i++)
        row(m, m->ub, u + i * m->nx, 2.0, i, m->tmp + i * m->nx);
    memcpy(m->ub + m->nx, m->tmp, rd2d_points(m) * sizeof *m->tmp);
}

/* J over the whole grid, and the seed ub_n = h^2 u_n. */
static void turn(rd2d_t *m)
{
    const double h  = 1.0 / (double)(m->nx + 1);
    const double *u = rd2d_state(m);
    double local    = 0;
    for (uint64_t k = 0; k < rd2d_points(m); k++) {
        local += 0.5 * h * h * u[k] * u[k];
        m->ub[m->nx + k] = h * h * u[k];
    }
    MPI_Allreduce(&local, &m->J, 1, MPI_DOUBLE, MPI_SUM, m->comm);
}

double rd2d_objective(rd2d_t *m, const double *d, double eps)
{
    rd2d_start(m, d, eps);
    for (uint64_t i = 0; i < m->steps; i++)
        forward_step(m);
    turn(m);
    return m->J;
}

static int cb_forward(void *user, uint64_t step)
{
    (void)step;
    forward_step(user);
    return 0;
}

static int cb_turn(void *user)
{
    turn(user);
    return 0;
}

static int cb_adjoint(void *user, uint64_t step)
{
    (void)step;
    adjoint_step(user);
    return 0;
}

void rd2d_model(rd2d_t *m, uturn_model_t *model)
{
    uturn_model_init(model);
    model->user        = m;
    model->forward     = cb_forward;
    model->turn        = cb_turn;
    model->adjoint     = cb_adjoint;
    model->state       = rd2d_state(m);
    model->state_bytes = rd2d_points(m) * sizeof(double);
}
