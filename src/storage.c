/* Slot storage: the table of backends and the cost rules they share. */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "storage.h"

#include <string.h>
#include <unistd.h>

/* The only table of backends: storage reaches them through it alone. */
static const struct uturn__storage_ops *const backends[] = {
    [UTURN__BACKEND_PAGES]     = &uturn__storage_pages,
    [UTURN__BACKEND_ALLOCATOR] = &uturn__storage_alloc,
    [UTURN__BACKEND_FILE]      = &uturn__storage_file,
    [UTURN__BACKEND_USER]      = &uturn__storage_user,
};

static uint64_t page_size(void)
{
    const long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (uint64_t)page : 4096;
}

void uturn__storage_open(struct uturn__storage *st,
                         const uturn_allocator_t *slot_alloc)
{
    memset(st, 0, sizeof *st);
    st->page = page_size();
    st->kind = uturn__alloc_is_default(slot_alloc) ? UTURN__BACKEND_PAGES
                                                   : UTURN__BACKEND_ALLOCATOR;
    st->ops  = backends[st->kind];
    uturn__alloc_resolve(slot_alloc, &st->alloc);
}

void uturn_storage_init_size(uturn_storage_t *storage, size_t size)
{
    uturn_storage_t d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    d.kind = UTURN_STORAGE_FILE;
    uturn__init_sized(storage, size, &d, sizeof d);
}

uturn_status_t uturn__storage_open_level(struct uturn__storage *st,
                                         const uturn_storage_t *desc,
                                         const uturn_allocator_t *alloc)
{
    memset(st, 0, sizeof *st);
    st->page = page_size();
    uturn__alloc_resolve(alloc, &st->alloc);
    if (desc->kind == UTURN_STORAGE_FILE) {
        st->kind = UTURN__BACKEND_FILE;
        st->ops  = backends[st->kind];
        return uturn__storage_file_open(st, desc->directory,
                                        desc->synchronous);
    }
    if (desc->kind == UTURN_STORAGE_USER && desc->callbacks != NULL) {
        st->kind = UTURN__BACKEND_USER;
        st->ops  = backends[st->kind];
        return uturn__storage_user_open(st, desc->callbacks);
    }
    return UTURN_E_INVALID_ARG;
}

void uturn__storage_close(struct uturn__storage *st)
{
    st->ops->close(st);
}

bool uturn__stride(uint64_t state_bytes, uint64_t *stride)
{
    const uint64_t a = UTURN__SLOT_ALIGNMENT;
    if (state_bytes > UINT64_MAX - (a - 1))
        return false;
    *stride = (state_bytes + a - 1) / a * a;
    return true;
}

bool uturn__storage_round(const struct uturn__storage *st, uint64_t bytes,
                          uint64_t *out)
{
    return st->ops->cost(st, bytes, out);
}

void uturn__storage_cost(const struct uturn__storage *st, uint64_t state_bytes,
                         uturn_slot_cost_t *out)
{
    out->state_bytes = state_bytes;
    if (!uturn__stride(state_bytes, &out->stride))
        out->stride = 0;
    out->alignment = UTURN__SLOT_ALIGNMENT;
    out->granule   = st->ops->granule(st);
    out->backend   = st->ops->name;
}
