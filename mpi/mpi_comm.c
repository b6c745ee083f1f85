/*
 * The layer's own communicator: a duplicate of the caller's, so that the
 * layer's collectives can never be matched with the program's (a rank
 * that fails and reaches the layer's vote while another rank computes a
 * norm with MPI_Allreduce would otherwise pair the two, and both would
 * read garbage instead of waiting). It aborts on MPI errors: a failed
 * collective leaves ranks that disagree on what happened, which no status
 * can repair.
 */
#include "mpi_internal.h"

bool uturn__mpi_usable(MPI_Comm comm)
{
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized && !finalized && comm != MPI_COMM_NULL;
}

void uturn__mpi_comm_open(struct uturn__mpi_comm *c, MPI_Comm user)
{
    const double started = MPI_Wtime();
    MPI_Comm_dup(user, &c->comm);
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_rank(c->comm, &c->rank);
    MPI_Comm_size(c->comm, &c->size);
    MPI_Type_contiguous((int)sizeof(struct uturn__mpi_vote), MPI_BYTE,
                        &c->vote_type);
    MPI_Type_commit(&c->vote_type);
    uturn__mpi_vote_op(&c->vote_op);
    c->collectives = 1;
    c->seconds     = MPI_Wtime() - started;
}

void uturn__mpi_comm_close(struct uturn__mpi_comm *c)
{
    MPI_Op_free(&c->vote_op);
    MPI_Type_free(&c->vote_type);
    MPI_Comm_free(&c->comm);
}

void uturn__mpi_bcast(struct uturn__mpi_comm *c, void *buf, size_t bytes,
                      int root)
{
    const double started = MPI_Wtime();
    MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, c->comm);
    c->collectives += 1;
    c->seconds += MPI_Wtime() - started;
}

void uturn__mpi_max_u64(struct uturn__mpi_comm *c, uint64_t *values,
                        uint64_t count)
{
    const double started = MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, values, (int)count, MPI_UINT64_T, MPI_MAX,
                  c->comm);
    c->collectives += 1;
    c->seconds += MPI_Wtime() - started;
}

