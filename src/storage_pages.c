/*
 * The pages backend (the default): the region is a private anonymous
 * mapping of the executor's own, whose cost is whole pages, known before
 * anything is mapped and the same whatever malloc did before (glibc's
 * malloc moves its mmap threshold after each free, which once made the
 * same request cost 1,052,656 bytes in one process and 1,048,584 in
 * another). Growing and shrinking go through mremap, so pages already
 * touched stay touched: a later run that needs no more than was kept
 * faults no page twice. A region smaller than one page is a block from
 * malloc instead, costed at its size in 16-byte units, so that a budget of
 * a few small states holds what it says (three 1 KiB slots in 3 KiB, not
 * none); malloc serves such blocks from its heap with a 16-byte header
 * that, as with every allocator's own bookkeeping, is not counted.
 */
#define _GNU_SOURCE /* mremap */
#include "storage.h"

#include <sys/mman.h>

static uint64_t granule(const struct uturn__storage *st)
{
    return st->page;
}

static bool cost(const struct uturn__storage *st, uint64_t bytes,
                 uint64_t *out)
{
    const uint64_t unit = bytes < st->page ? UTURN__SLOT_ALIGNMENT : st->page;
    if (bytes > UINT64_MAX - (unit - 1))
        return false;
    *out = (bytes + unit - 1) / unit * unit;
    return true;
}

static uint64_t usable(const struct uturn__storage *st, uint64_t budget)
{
    if (budget >= st->page)
        return budget / st->page * st->page;
    return budget / UTURN__SLOT_ALIGNMENT * UTURN__SLOT_ALIGNMENT;
}

static void release(struct uturn__storage *st)
{
    if (st->mapped)
        munmap(st->base, (size_t)st->bytes);
    else
        uturn__free(&st->alloc, st->base, (size_t)st->bytes);
    st->base   = NULL;
    st->bytes  = 0;
    st->mapped = false;
}

static uturn_status_t map_new(struct uturn__storage *st, uint64_t bytes)
{
    void *at = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (at == MAP_FAILED)
        return UTURN_E_NOMEM;
    st->base   = at;
    st->bytes  = bytes;
    st->mapped = true;
    uturn__advise_huge(st->base, bytes);
    return UTURN_OK;
}

static uturn_status_t remap(struct uturn__storage *st, uint64_t bytes)
{
    void *at =
        mremap(st->base, (size_t)st->bytes, (size_t)bytes, MREMAP_MAYMOVE);
    if (at == MAP_FAILED)
        return UTURN_E_NOMEM;
    st->base  = at;
    st->bytes = bytes;
    uturn__advise_huge(st->base, bytes);
    return UTURN_OK;
}

/* bytes is a cost: a multiple of the page, or below one page. */
static uturn_status_t resize(struct uturn__storage *st, uint64_t bytes)
{
    if (bytes == st->bytes)
        return UTURN_OK;
    if (bytes > SIZE_MAX / 2)
        return UTURN_E_NOMEM;
    if (bytes >= st->page && st->mapped)
        return remap(st, bytes);
    release(st);
    if (bytes == 0)
        return UTURN_OK;
    if (bytes >= st->page)
        return map_new(st, bytes);
    st->base = uturn__alloc(&st->alloc, (size_t)bytes);
    if (st->base == NULL)
        return UTURN_E_NOMEM;
    st->bytes = bytes;
    return UTURN_OK;
}

static void close_pages(struct uturn__storage *st)
{
    release(st);
}

const struct uturn__storage_ops uturn__storage_pages = {
    .name    = "pages",
    .granule = granule,
    .cost    = cost,
    .usable  = usable,
    .resize  = resize,
    .close   = close_pages,
};
