/*
 * Votes: what every rank contributes to a decision, combined in one
 * MPI_Allreduce by a reduction of our own (each field has its fixed rule:
 * sum, min or max), so that "did any rank fail, which is the lowest, do
 * the keys agree, what is the least capacity" costs one collective call
 * and not one per question. The vote travels as one element of a
 * contiguous byte type, so MPI never splits it between two calls of the
 * reduction.
 */
#include "mpi_internal.h"

#include <string.h>

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static double max_double(double a, double b)
{
    return a > b ? a : b;
}

static void combine(const struct uturn__mpi_vote *a, struct uturn__mpi_vote *b)
{
    b->failed += a->failed;
    b->failed_rank = min_u64(a->failed_rank, b->failed_rank);
    b->key_min     = min_u64(a->key_min, b->key_min);
    b->key_max     = max_u64(a->key_max, b->key_max);
    for (int i = 0; i < UTURN__MPI_FIGURES; i++) {
        b->low[i]  = min_u64(a->low[i], b->low[i]);
        b->high[i] = max_u64(a->high[i], b->high[i]);
        b->total[i] += a->total[i];
        b->seconds_sum[i] += a->seconds_sum[i];
    }
    for (int i = 0; i < UTURN__MPI_FIGURES * 2; i++)
        b->seconds_max[i] = max_double(a->seconds_max[i], b->seconds_max[i]);
}

/* The buffers MPI hands a reduction need not be aligned for our struct:
 * copy in and out. */
static void reduce(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    unsigned char *src = in, *dst = inout;
    for (int i = 0; i < *len; i++) {
        struct uturn__mpi_vote a, b;
        memcpy(&a, src + (size_t)i * sizeof a, sizeof a);
        memcpy(&b, dst + (size_t)i * sizeof b, sizeof b);
        combine(&a, &b);
        memcpy(dst + (size_t)i * sizeof b, &b, sizeof b);
    }
}

void uturn__mpi_vote_op(MPI_Op *op)
{
    MPI_Op_create(reduce, 1, op);
}

void uturn__mpi_vote_init(struct uturn__mpi_vote *v)
{
    memset(v, 0, sizeof *v);
    v->failed_rank = UINT64_MAX;
    v->key_min     = UINT64_MAX;
    for (int i = 0; i < UTURN__MPI_FIGURES; i++)
        v->low[i] = UINT64_MAX;
}

void uturn__mpi_vote_key(struct uturn__mpi_vote *v, uint64_t key)
{
    v->key_min = key;
    v->key_max = key;
}

void uturn__mpi_vote_fail(struct uturn__mpi_vote *v,
                          const struct uturn__mpi_comm *c)
{
    v->failed      = 1;
    v->failed_rank = (uint64_t)c->rank;
}

void uturn__mpi_vote(struct uturn__mpi_comm *c, struct uturn__mpi_vote *v)
{
    const double started = MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, v, 1, c->vote_type, c->vote_op, c->comm);
    c->collectives += 1;
    c->seconds += MPI_Wtime() - started;
}
