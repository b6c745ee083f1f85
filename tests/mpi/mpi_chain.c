/* The distributed chain of mpi_chain.h. */
#include "mpi_chain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define H 0.01
#define K 0.3

bool chain_init(chain_t *c, MPI_Comm comm, uint64_t m0, uint64_t m,
                uint64_t steps)
{
    memset(c, 0, sizeof *c);
    c->comm = comm;
    MPI_Comm_rank(comm, &c->rank);
    MPI_Comm_size(comm, &c->size);
    c->steps   = steps;
    c->m       = m;
    c->talk    = true;
    c->fail_at = UINT64_MAX;
    c->len     = calloc(steps + 1, sizeof *c->len);
    c->x       = calloc(m, sizeof *c->x);
    c->xbar    = calloc(m, sizeof *c->xbar);
    c->tmp     = calloc(m, sizeof *c->tmp);
    for (uint64_t i = 0; c->len != NULL && i <= steps; i++)
        c->len[i] = m0 + (m - m0) * i / steps;
    chain_reset(c);
    return c->len != NULL && c->x != NULL && c->xbar != NULL && c->tmp != NULL;
}

void chain_free(chain_t *c)
{
    free(c->len);
    free(c->x);
    free(c->xbar);
    free(c->tmp);
}

void chain_reset(chain_t *c)
{
    for (uint64_t j = 0; c->x != NULL && j < c->m; j++)
        c->x[j] = 0.25 + 0.5 * sin(0.1 * (double)j + (double)c->rank);
}

uint64_t chain_bytes(const chain_t *c, uint64_t step)
{
    return c->len[step] * sizeof(double);
}

/* Send @p mine to @p to, receive from @p from (the ring's halo). */
static double exchange(const chain_t *c, double mine, int to, int from)
{
    double theirs = 0;
    if (!c->talk)
        return 0;
    MPI_Sendrecv(&mine, 1, MPI_DOUBLE, to, 7, &theirs, 1, MPI_DOUBLE, from, 7,
                 c->comm, MPI_STATUS_IGNORE);
    return theirs;
}

static void step_forward(chain_t *c, double *x, uint64_t i)
{
    const int left    = (c->rank + c->size - 1) % c->size;
    const int right   = (c->rank + 1) % c->size;
    const double next = exchange(c, x[0], left, right);
    const uint64_t L = c->len[i], L1 = c->len[i + 1];
    for (uint64_t j = 0; j < L; j++) {
        const double after = j + 1 < L ? x[j + 1] : next;
        c->tmp[j]          = x[j] + H * sin(x[j]) + H * K * after;
    }
    for (uint64_t j = L; j < L1; j++)
        c->tmp[j] = 0.5;
    memcpy(x, c->tmp, L1 * sizeof *x);
}

/* x holds x_i, xbar holds xbar_{i+1}: xbar becomes xbar_i. */
static void step_adjoint(chain_t *c, const double *x, uint64_t i)
{
    const int left      = (c->rank + c->size - 1) % c->size;
    const int right     = (c->rank + 1) % c->size;
    const uint64_t L    = c->len[i];
    const double before = exchange(c, c->xbar[L - 1], right, left);
    for (uint64_t j = 0; j < L; j++) {
        const double prev = j > 0 ? c->xbar[j - 1] : before;
        c->tmp[j]         = c->xbar[j] * (1 + H * cos(x[j])) + H * K * prev;
    }
    memcpy(c->xbar, c->tmp, L * sizeof *c->xbar);
    for (uint64_t j = L; j < c->m; j++)
        c->xbar[j] = 0;
}

static void seed(chain_t *c, const double *x)
{
    const uint64_t L = c->len[c->steps];
    c->J             = 0;
    for (uint64_t j = 0; j < L; j++) {
        c->J += 0.5 * x[j] * x[j];
        c->xbar[j] = x[j];
    }
}

static int cb_forward(void *user, uint64_t step)
{
    chain_t *c = user;
    c->calls++;
    if (step == c->fail_at)
        return 1;
    step_forward(c, c->x, step);
    return 0;
}

static int cb_turn(void *user)
{
    chain_t *c = user;
    c->calls++;
    seed(c, c->x);
    return 0;
}

static int cb_adjoint(void *user, uint64_t step)
{
    chain_t *c = user;
    c->calls++;
    step_adjoint(c, c->x, step);
    return 0;
}

static int cb_save(void *user, uint64_t step, void *dst, uint64_t bytes)
{
    chain_t *c = user;
    (void)step;
    c->calls++;
    memcpy(dst, c->x, bytes);
    return 0;
}

static int cb_load(void *user, uint64_t step, const void *src, uint64_t bytes)
{
    chain_t *c = user;
    (void)step;
    c->calls++;
    memcpy(c->x, src, bytes);
    return 0;
}

void chain_model(chain_t *c, bool saveload, uturn_model_t *model)
{
    uturn_model_init(model);
    model->user        = c;
    model->forward     = cb_forward;
    model->turn        = cb_turn;
    model->adjoint     = cb_adjoint;
    model->state_bytes = c->m * sizeof(double);
    if (saveload) {
        model->save = cb_save;
        model->load = cb_load;
    } else {
        model->state = c->x;
    }
}

bool chain_reference(chain_t *c, double *grad)
{
    const uint64_t n = c->steps, m = c->m;
    double *all = malloc((n + 1) * m * sizeof *all);
    if (all == NULL)
        return false;
    chain_reset(c);
    memcpy(all, c->x, m * sizeof *all);
    for (uint64_t i = 0; i < n; i++) {
        memcpy(all + (i + 1) * m, all + i * m, m * sizeof *all);
        step_forward(c, all + (i + 1) * m, i);
    }
    seed(c, all + n * m);
    for (uint64_t i = n; i-- > 0;)
        step_adjoint(c, all + i * m, i);
    memcpy(grad, c->xbar, c->len[0] * sizeof *grad);
    free(all);
    chain_reset(c);
    return true;
}
