/*
 * A distributed chain for the MPI layer's tests. Rank r holds a vector
 * whose active length L_i may grow with the step; its last entry is
 * coupled to the next rank's first (a ring), so every forward and adjoint
 * step exchanges one value with each neighbour (MPI_Sendrecv): ranks that
 * performed different actions would wait for each other forever, as a
 * halo exchange does. Forward:
 *   x_{i+1}[j] = x_i[j] + h sin(x_i[j]) + h k x_i[j+1]   (j < L_i - 1)
 *   x_{i+1}[L_i - 1] uses the next rank's x_i[0] as x_i[L_i]
 *   x_{i+1}[j] = 1/2 for L_i <= j < L_{i+1} (entries that appear)
 * and J = sum over every rank of |x_n|^2 / 2. The reference is a plain
 * store-all sweep with the same exchanges, so a uturn run's gradient must
 * equal it bit for bit.
 */
#ifndef UTURN_MPI_CHAIN_H_INCLUDED
#define UTURN_MPI_CHAIN_H_INCLUDED

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <uturn.h>

typedef struct chain {
    MPI_Comm comm;
    int rank, size;
    uint64_t steps;
    uint64_t m;    /* the buffer's length: the largest L_i */
    uint64_t *len; /* L_0 .. L_steps */
    double *x, *xbar, *tmp;
    double J;         /* this rank's part of J */
    bool talk;        /* exchange with the neighbours (default true) */
    uint64_t fail_at; /* forward(fail_at) returns 1 (UINT64_MAX: never) */
    uint64_t calls;   /* model callbacks that ran */
} chain_t;

/* @p m0 entries at step 0 growing to @p m at step @p steps (m0 == m:
 * uniform). Returns false when out of memory. */
bool chain_init(chain_t *c, MPI_Comm comm, uint64_t m0, uint64_t m,
                uint64_t steps);
void chain_free(chain_t *c);
/* The live state back to x_0. */
void chain_reset(chain_t *c);
/* The executor's model: contiguous, or through save/load. */
void chain_model(chain_t *c, bool saveload, uturn_model_t *model);
/* Bytes of x_i on this rank. */
uint64_t chain_bytes(const chain_t *c, uint64_t step);
/* The gradient dJ/dx_0 by a plain store-all sweep, into @p grad (L_0
 * values). Returns false when out of memory. */
bool chain_reference(chain_t *c, double *grad);

#endif
