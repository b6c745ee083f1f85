/*
 * The executor's pool of uniform slot buffers, kept from one run to the
 * next: a run frees its slots, but the buffers stay with the executor so
 * that the next run does not fault in and zero fresh pages (with 64 KiB
 * states jemalloc returns freed extents to the kernel even with decay off,
 * which made a run 3x a hand-written loop that preallocates once).
 * uturn_executor_trim() and uturn_executor_free() give the memory back.
 */
#include "executor.h"

#include <string.h>

static void drop_last(uturn_executor_t *ex)
{
    ex->pool_count -= 1;
    uturn__storage_free(&ex->storage, ex->pool[ex->pool_count], ex->pool_bytes);
    ex->pool[ex->pool_count] = NULL;
}

void uturn__pool_trim(uturn_executor_t *ex)
{
    while (ex->pool_count != 0)
        drop_last(ex);
    uturn__free(&ex->alloc, ex->pool,
                (size_t)ex->pool_capacity * sizeof *ex->pool);
    ex->pool          = NULL;
    ex->pool_capacity = 0;
    ex->pool_bytes    = 0;
}

static uturn_status_t reserve(uturn_executor_t *ex, uint64_t count)
{
    if (count <= ex->pool_capacity)
        return UTURN_OK;
    void **grown = uturn__alloc_zeroed(&ex->alloc, count, sizeof *grown);
    if (grown == NULL)
        return UTURN_E_NOMEM;
    if (ex->pool_count != 0)
        memcpy(grown, ex->pool, (size_t)ex->pool_count * sizeof *grown);
    uturn__free(&ex->alloc, ex->pool,
                (size_t)ex->pool_capacity * sizeof *ex->pool);
    ex->pool          = grown;
    ex->pool_capacity = count;
    return UTURN_OK;
}

/* Exactly `count` buffers of `bytes` each: reuse, free extras, add the
 * rest. Never more than count, so the allocator's figure for the run is
 * the planned peak. On failure the pool keeps what it has. */
uturn_status_t uturn__pool_fit(uturn_executor_t *ex, uint64_t count,
                               uint64_t bytes)
{
    if (ex->pool_bytes != bytes)
        uturn__pool_trim(ex);
    while (ex->pool_count > count)
        drop_last(ex);
    if (reserve(ex, count) != UTURN_OK)
        return UTURN_E_NOMEM;
    ex->pool_bytes = bytes;
    while (ex->pool_count < count) {
        void *buf = uturn__storage_alloc(&ex->storage, bytes);
        if (buf == NULL)
            return UTURN_E_NOMEM;
        ex->pool[ex->pool_count++] = buf;
    }
    return UTURN_OK;
}

void uturn_executor_trim(uturn_executor_t *executor)
{
    if (executor != NULL)
        uturn__pool_trim(executor);
}
