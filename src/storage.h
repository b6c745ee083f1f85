/*
 * Where the executor keeps slots: the caller's allocator, a jemalloc arena
 * of the executor's own (when jemalloc is the process's allocator: found at
 * run time, never linked), or malloc. Each backend says what a block really
 * costs and how many bytes it holds, so budgets are checked at real cost.
 */
#ifndef UTURN_STORAGE_H_INCLUDED
#define UTURN_STORAGE_H_INCLUDED

#include "internal.h"

enum uturn__storage_kind {
    UTURN__STORAGE_CUSTOM,
    UTURN__STORAGE_JEMALLOC,
    UTURN__STORAGE_MALLOC
};

struct uturn__jemalloc {
    void *(*mallocx)(size_t size, int flags);
    void (*dallocx)(void *ptr, int flags);
    size_t (*nallocx)(size_t size, int flags);
    int (*mallctl)(const char *name, void *oldp, size_t *oldlenp, void *newp,
                   size_t newlen);
    unsigned arena;
    int flags;
};

struct uturn__storage {
    enum uturn__storage_kind kind;
    uturn_allocator_t alloc; /* CUSTOM */
    struct uturn__jemalloc je;
    uint64_t held_bytes; /* real bytes held now (CUSTOM and MALLOC) */
};

/* Pick the backend: custom when alloc is not malloc/free, else jemalloc
 * when present (creating an arena), else malloc. */
uturn_status_t uturn__storage_open(struct uturn__storage *st,
                                   const uturn_allocator_t *alloc);
void uturn__storage_close(struct uturn__storage *st);
/* What a block of bytes really costs (>= bytes). */
uturn_status_t uturn__storage_cost(const struct uturn__storage *st,
                                   uint64_t bytes, uint64_t *cost);
void *uturn__storage_alloc(struct uturn__storage *st, uint64_t bytes);
/* What the block ptr (of bytes, from uturn__storage_alloc) really costs:
 * like uturn__storage_cost, without a probe allocation. */
uint64_t uturn__storage_block_cost(const struct uturn__storage *st, void *ptr,
                                   uint64_t bytes);
void uturn__storage_free(struct uturn__storage *st, void *ptr, uint64_t bytes);
/* Bytes the backend reports holding now: jemalloc's arena statistics
 * (refreshed; about 12 us), or the executor's usable-size accounting. */
uint64_t uturn__storage_measure(struct uturn__storage *st);

#endif
