/* The durable runs' model (tests/support/durable_sim.h, bench/
 * bench_durable.c): a nonlinear map of DIM doubles with a step size an
 * adaptive controller could have chosen, its exact adjoint, and the
 * independent truth: every state kept, reversed by hand. Header-only,
 * without Criterion. */
#ifndef UTURN_DURABLE_MODEL_H_INCLUDED
#define UTURN_DURABLE_MODEL_H_INCLUDED

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef DIM
#define DIM 24
#endif

/* The step's size: what an adaptive controller would choose. */
static inline double step_size(uint64_t i)
{
    return 0.02 * (1.0 + (double)(i % 3));
}

static inline void step_with(const double *in, double *out, double h)
{
    for (int j = 0; j < DIM; j++)
        out[j] = in[j] + h * sin(in[(j + 1) % DIM]) * in[j];
}

static inline void step(const double *in, double *out, uint64_t i)
{
    step_with(in, out, step_size(i));
}

/* (dF_i/dx)^T obar. */
static inline void step_bar(const double *in, const double *obar, double *ibar,
                            uint64_t i)
{
    const double h = step_size(i);
    for (int j = 0; j < DIM; j++)
        ibar[j] = obar[j] * (1.0 + h * sin(in[(j + 1) % DIM]));
    for (int j = 0; j < DIM; j++) {
        const int k = (j + 1) % DIM;
        ibar[k] += obar[j] * h * cos(in[k]) * in[j];
    }
}

static inline void start(double *x)
{
    for (int j = 0; j < DIM; j++)
        x[j] = 0.4 + 0.013 * j;
}

/* dJ/dx_0 for J = |x_n|^2 / 2 with every state kept; false: no memory. */
static inline bool model_reference(uint64_t n, double grad[DIM])
{
    double(*xs)[DIM] = calloc(n + 1, sizeof *xs);
    if (xs == NULL)
        return false;
    start(xs[0]);
    for (uint64_t i = 0; i < n; i++)
        step(xs[i], xs[i + 1], i);
    double bar[DIM], prev[DIM];
    memcpy(bar, xs[n], sizeof bar);
    for (uint64_t i = n; i-- > 0;) {
        step_bar(xs[i], bar, prev, i);
        memcpy(bar, prev, sizeof bar);
    }
    memcpy(grad, bar, sizeof bar);
    free(xs);
    return true;
}

#endif
