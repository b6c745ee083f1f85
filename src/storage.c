/* Slot storage backends; see storage.h. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "storage.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* jemalloc's flag encodings (jemalloc.h, stable since 4.0). */
#define JE_TCACHE_NONE (1 << 8)
#define JE_ARENA(a)    ((int)(((unsigned)(a) + 1) << 20))

/* Find jemalloc's non-standard entry points in the running process. */
static bool find_jemalloc(struct uturn__jemalloc *je)
{
    void *const syms[] = {
        dlsym(RTLD_DEFAULT, "mallocx"), dlsym(RTLD_DEFAULT, "dallocx"),
        dlsym(RTLD_DEFAULT, "nallocx"), dlsym(RTLD_DEFAULT, "mallctl")};
    for (size_t i = 0; i < 4; i++)
        if (syms[i] == NULL)
            return false;
    /* POSIX guarantees dlsym's object pointers convert to functions. */
    memcpy(&je->mallocx, &syms[0], sizeof je->mallocx);
    memcpy(&je->dallocx, &syms[1], sizeof je->dallocx);
    memcpy(&je->nallocx, &syms[2], sizeof je->nallocx);
    memcpy(&je->mallctl, &syms[3], sizeof je->mallctl);
    bool stats = false;
    size_t len = sizeof stats;
    return je->mallctl("config.stats", &stats, &len, NULL, 0) == 0 && stats;
}

/* An arena of the executor's own, asked never to purge freed pages (decay
 * -1), so that per-step slots freed in one run are reused without page
 * faults in the next (measured with 1 MiB blocks; jemalloc 5.3 still
 * returns 64 KiB extents, which is why uniform slots are kept in the
 * executor's pool instead, slot_pool.c). The pages go back when the
 * executor, and with it the arena, is freed; the "allocated" statistic that
 * measures a run counts only live blocks either way. */
static bool open_arena(struct uturn__jemalloc *je)
{
    unsigned arena = 0;
    size_t len     = sizeof arena;
    if (je->mallctl("arenas.create", &arena, &len, NULL, 0) != 0)
        return false;
    je->arena                 = arena;
    je->flags                 = JE_ARENA(arena) | JE_TCACHE_NONE;
    const char *const knobs[] = {"dirty_decay_ms", "muzzy_decay_ms"};
    for (size_t i = 0; i < 2; i++) {
        char name[64];
        ssize_t never = -1;
        snprintf(name, sizeof name, "arena.%u.%s", arena, knobs[i]);
        je->mallctl(name, NULL, NULL, &never, sizeof never);
    }
    return true;
}

uturn_status_t uturn__storage_open(struct uturn__storage *st,
                                   const uturn_allocator_t *alloc)
{
    memset(st, 0, sizeof *st);
    uturn__alloc_resolve(alloc, &st->alloc);
    if (!uturn__alloc_is_default(alloc)) {
        st->kind = UTURN__STORAGE_CUSTOM;
        return UTURN_OK;
    }
    st->kind = UTURN__STORAGE_MALLOC;
    if (find_jemalloc(&st->je) && open_arena(&st->je))
        st->kind = UTURN__STORAGE_JEMALLOC;
    return UTURN_OK;
}

void uturn__storage_close(struct uturn__storage *st)
{
    if (st->kind != UTURN__STORAGE_JEMALLOC)
        return;
    char name[64];
    snprintf(name, sizeof name, "arena.%u.destroy", st->je.arena);
    st->je.mallctl(name, NULL, NULL, NULL, 0);
    st->kind = UTURN__STORAGE_MALLOC;
}

uturn_status_t uturn__storage_cost(const struct uturn__storage *st,
                                   uint64_t bytes, uint64_t *cost)
{
    if (bytes > SIZE_MAX / 2)
        return UTURN_E_OVERFLOW;
    if (st->kind == UTURN__STORAGE_CUSTOM) {
        *cost = bytes;
        return UTURN_OK;
    }
    if (st->kind == UTURN__STORAGE_JEMALLOC) {
        const size_t real = st->je.nallocx((size_t)bytes, st->je.flags);
        *cost             = real != 0 ? real : bytes;
        return real != 0 ? UTURN_OK : UTURN_E_OVERFLOW;
    }
    /* malloc has no size-class query: ask it with a probe block. */
    uturn_allocator_t plain;
    uturn__alloc_resolve(NULL, &plain);
    void *probe = uturn__alloc(&plain, (size_t)bytes);
    if (probe == NULL)
        return UTURN_E_NOMEM;
    *cost = uturn__malloc_usable(probe);
    uturn__free(&plain, probe, (size_t)bytes);
    return UTURN_OK;
}

void *uturn__storage_alloc(struct uturn__storage *st, uint64_t bytes)
{
    if (bytes > SIZE_MAX / 2)
        return NULL;
    if (st->kind == UTURN__STORAGE_JEMALLOC)
        return st->je.mallocx(bytes == 0 ? 1 : (size_t)bytes, st->je.flags);
    void *ptr = uturn__alloc(&st->alloc, (size_t)bytes);
    if (ptr != NULL)
        st->held_bytes += st->kind == UTURN__STORAGE_MALLOC
                              ? uturn__malloc_usable(ptr)
                              : bytes;
    return ptr;
}

uint64_t uturn__storage_block_cost(const struct uturn__storage *st, void *ptr,
                                   uint64_t bytes)
{
    if (st->kind == UTURN__STORAGE_JEMALLOC)
        return st->je.nallocx((size_t)bytes, st->je.flags);
    if (st->kind == UTURN__STORAGE_MALLOC)
        return uturn__malloc_usable(ptr);
    return bytes;
}

void uturn__storage_free(struct uturn__storage *st, void *ptr, uint64_t bytes)
{
    if (ptr == NULL)
        return;
    if (st->kind == UTURN__STORAGE_JEMALLOC) {
        st->je.dallocx(ptr, st->je.flags);
        return;
    }
    st->held_bytes -=
        st->kind == UTURN__STORAGE_MALLOC ? uturn__malloc_usable(ptr) : bytes;
    uturn__free(&st->alloc, ptr, (size_t)bytes);
}

uint64_t uturn__storage_measure(struct uturn__storage *st)
{
    if (st->kind != UTURN__STORAGE_JEMALLOC)
        return st->held_bytes;
    uint64_t epoch = 1;
    size_t len     = sizeof epoch;
    st->je.mallctl("epoch", &epoch, &len, &epoch, len);
    uint64_t total            = 0;
    const char *const kinds[] = {"small", "large"};
    for (size_t i = 0; i < 2; i++) {
        char name[64];
        size_t value = 0;
        len          = sizeof value;
        snprintf(name, sizeof name, "stats.arenas.%u.%s.allocated",
                 st->je.arena, kinds[i]);
        if (st->je.mallctl(name, &value, &len, NULL, 0) == 0)
            total += value;
    }
    return total;
}
