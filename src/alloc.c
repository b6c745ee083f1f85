/* Allocator plumbing: the only place that calls malloc and free. */
#define _GNU_SOURCE /* MADV_HUGEPAGE */
#include "internal.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void *default_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void default_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

void uturn__alloc_resolve(const uturn_allocator_t *alloc,
                          uturn_allocator_t *out)
{
    if (alloc != NULL && alloc->alloc != NULL && alloc->free != NULL) {
        *out = *alloc;
        return;
    }
    out->alloc = default_alloc;
    out->free  = default_free;
    out->user  = NULL;
}

void *uturn__alloc(const uturn_allocator_t *alloc, size_t size)
{
    if (size == 0)
        size = 1;
    return alloc->alloc(alloc->user, size);
}

void *uturn__alloc_zeroed(const uturn_allocator_t *alloc, size_t count,
                          size_t size)
{
    size_t total = 0;
    if (__builtin_mul_overflow(count, size, &total))
        return NULL;
    void *ptr = uturn__alloc(alloc, total);
    if (ptr != NULL)
        memset(ptr, 0, total);
    return ptr;
}

void uturn__free(const uturn_allocator_t *alloc, void *ptr, size_t size)
{
    if (ptr == NULL)
        return;
    alloc->free(alloc->user, ptr, size == 0 ? 1 : size);
}

size_t uturn__malloc_usable(void *ptr)
{
    return malloc_usable_size(ptr);
}

bool uturn__alloc_is_default(const uturn_allocator_t *alloc)
{
    return alloc == NULL || alloc->alloc == NULL || alloc->free == NULL ||
           alloc->alloc == default_alloc;
}

void uturn__advise_huge(void *ptr, uint64_t bytes)
{
#ifdef MADV_HUGEPAGE
    const long page = sysconf(_SC_PAGESIZE);
    if (ptr == NULL || bytes < UTURN__HUGE_REGION || page <= 0)
        return;
    const uintptr_t p  = (uintptr_t)page;
    const uintptr_t lo = ((uintptr_t)ptr + p - 1) / p * p;
    const uintptr_t hi = ((uintptr_t)ptr + (uintptr_t)bytes) / p * p;
    if (hi > lo)
        (void)madvise((void *)lo, (size_t)(hi - lo), MADV_HUGEPAGE);
#else
    (void)ptr;
    (void)bytes;
#endif
}
