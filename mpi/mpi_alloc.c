/*
 * Allocation for the MPI layer: the only file that calls malloc and free.
 * Every block goes through a uturn_allocator_t (the caller's or malloc's),
 * and the counted form keeps the bytes live, so that an MPI plan can say
 * how much memory its plan holds on each rank (docs/mpi.md gives the
 * figures).
 */
#include "mpi_internal.h"

#include <stdlib.h>

static void *plain_alloc(void *user, size_t bytes)
{
    (void)user;
    return malloc(bytes);
}

static void plain_free(void *user, void *p, size_t bytes)
{
    (void)user;
    (void)bytes;
    free(p);
}

static void *counted_alloc(void *user, size_t bytes)
{
    struct uturn__mpi_alloc *a = user;
    void *p                    = a->base.alloc(a->base.user, bytes);
    if (p != NULL)
        a->live += bytes;
    return p;
}

static void counted_free(void *user, void *p, size_t bytes)
{
    struct uturn__mpi_alloc *a = user;
    if (p == NULL)
        return;
    a->live -= bytes;
    a->base.free(a->base.user, p, bytes);
}

void uturn__mpi_alloc_init(struct uturn__mpi_alloc *a,
                           const uturn_allocator_t *base)
{
    if (base != NULL && base->alloc != NULL && base->free != NULL)
        a->base = *base;
    else
        a->base = (uturn_allocator_t){plain_alloc, plain_free, NULL};
    a->counted = (uturn_allocator_t){counted_alloc, counted_free, a};
    a->live    = 0;
}

void *uturn__mpi_alloc(const uturn_allocator_t *a, size_t bytes)
{
    if (a == NULL)
        return malloc(bytes);
    return a->alloc(a->user, bytes);
}

void uturn__mpi_free(const uturn_allocator_t *a, void *p, size_t bytes)
{
    if (p == NULL)
        return;
    if (a == NULL)
        free(p);
    else
        a->free(a->user, p, bytes);
}
