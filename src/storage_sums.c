/* Checksums of the states a level holds (storage_sums.h). */
#include "storage_sums.h"

#define XXH_INLINE_ALL
#include <string.h>
#include <xxhash.h>

/* The table starts at this many entries and doubles. */
#define MIN_SUMS 16

bool uturn__sums_reserve(struct uturn__sums *s, const uturn_allocator_t *a,
                         uint64_t id, uint64_t limit)
{
    if (id < s->cap)
        return true;
    uint64_t cap = s->cap < MIN_SUMS ? MIN_SUMS : s->cap;
    while (cap <= id)
        cap = cap > UINT64_MAX / 2 ? UINT64_MAX : cap * 2;
    cap = cap > limit ? limit : cap;
    struct uturn__sum *grown =
        cap <= id || cap > SIZE_MAX / sizeof *grown
            ? NULL
            : uturn__alloc_zeroed(a, (size_t)cap, sizeof *grown);
    if (grown == NULL)
        return false;
    if (s->cap != 0)
        memcpy(grown, s->at, (size_t)s->cap * sizeof *grown);
    uturn__free(a, s->at, (size_t)s->cap * sizeof *s->at);
    s->at  = grown;
    s->cap = cap;
    return true;
}

static uint64_t checksum(const void *p, uint64_t bytes, uint64_t step)
{
    return XXH3_64bits_withSeed(p, (size_t)bytes, step);
}

void uturn__sums_record(struct uturn__sums *s, uint64_t id, const void *src,
                        uint64_t bytes, uint64_t step)
{
    s->at[id] = (struct uturn__sum){.sum   = checksum(src, bytes, step),
                                    .step  = step,
                                    .bytes = bytes,
                                    .held  = true};
}

enum uturn__sum_verdict uturn__sums_held(const struct uturn__sums *s,
                                         uint64_t id, uint64_t bytes,
                                         uint64_t step)
{
    const struct uturn__sum *e = id < s->cap ? &s->at[id] : NULL;
    if (e == NULL || !e->held)
        return UTURN__SUM_EMPTY;
    return e->step == step && e->bytes == bytes ? UTURN__SUM_SAME
                                                : UTURN__SUM_OTHER;
}

enum uturn__sum_verdict uturn__sums_check(const struct uturn__sums *s,
                                          uint64_t id, const void *dst,
                                          uint64_t bytes, uint64_t step)
{
    const enum uturn__sum_verdict v = uturn__sums_held(s, id, bytes, step);
    if (v != UTURN__SUM_SAME)
        return v;
    return checksum(dst, bytes, step) == s->at[id].sum ? UTURN__SUM_SAME
                                                       : UTURN__SUM_CHANGED;
}

void uturn__sums_drop(struct uturn__sums *s, uint64_t id)
{
    if (id < s->cap)
        s->at[id].held = false;
}

void uturn__sums_forget(struct uturn__sums *s)
{
    if (s->cap != 0)
        memset(s->at, 0, (size_t)s->cap * sizeof *s->at);
}

void uturn__sums_free(struct uturn__sums *s, const uturn_allocator_t *a)
{
    uturn__free(a, s->at, (size_t)s->cap * sizeof *s->at);
    s->at  = NULL;
    s->cap = 0;
}
