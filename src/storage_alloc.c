/*
 * The allocator backend: the region comes from the caller's allocator, and
 * costs exactly what is asked of it (granule 1), so a counting allocator
 * sees the executor hold exactly the planned bytes.
 */
#include "storage.h"

static uint64_t granule(const struct uturn__storage *st)
{
    (void)st;
    return 1;
}

static bool cost(const struct uturn__storage *st, uint64_t bytes,
                 uint64_t *out)
{
    (void)st;
    *out = bytes;
    return true;
}

static uint64_t usable(const struct uturn__storage *st, uint64_t budget)
{
    (void)st;
    return budget;
}

/* A new region replaces the old one: the old is given back first, so the
 * two are never held together (that would break the budget while the
 * region grows). */
static uturn_status_t resize(struct uturn__storage *st, uint64_t bytes)
{
    if (bytes == st->bytes)
        return UTURN_OK;
    uturn__free(&st->alloc, st->base, (size_t)st->bytes);
    st->base  = NULL;
    st->bytes = 0;
    if (bytes == 0)
        return UTURN_OK;
    if (bytes > SIZE_MAX / 2)
        return UTURN_E_NOMEM;
    st->base = uturn__alloc(&st->alloc, (size_t)bytes);
    if (st->base == NULL)
        return UTURN_E_NOMEM;
    st->bytes = bytes;
    return UTURN_OK;
}

static void close_alloc(struct uturn__storage *st)
{
    resize(st, 0);
}

const struct uturn__storage_ops uturn__storage_alloc = {
    .name    = "allocator",
    .granule = granule,
    .cost    = cost,
    .usable  = usable,
    .resize  = resize,
    .close   = close_alloc,
};
