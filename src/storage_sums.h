/*
 * Checksums of the states a level beyond memory holds, one per slot id:
 * XXH3-64 of the bytes, seeded with the step, kept in memory (never with
 * the state: what damaged the state could damage a checksum beside it).
 * A state read back is checked against the one written, so a level that
 * returns other bytes (a damaged file, a user level's short or stale
 * get) is an error naming the step, never a wrong gradient. The table is
 * kept from run to run and only grows.
 */
#ifndef UTURN_STORAGE_SUMS_H_INCLUDED
#define UTURN_STORAGE_SUMS_H_INCLUDED

#include "internal.h"

/* What a slot id holds: the checksum of its state and which state. */
struct uturn__sum {
    uint64_t sum;   /* XXH3-64 of the bytes, seeded with the step */
    uint64_t step;  /* x_step */
    uint64_t bytes; /* the state's length */
    bool held;
};

struct uturn__sums {
    struct uturn__sum *at; /* per id */
    uint64_t cap;          /* entries allocated */
};

/* How a state read back compares with what the id holds. */
enum uturn__sum_verdict {
    UTURN__SUM_SAME,   /* the bytes written for x_step */
    UTURN__SUM_EMPTY,  /* the id holds no state */
    UTURN__SUM_OTHER,  /* it holds another step or length */
    UTURN__SUM_CHANGED /* the bytes differ */
};

/* Room for ids 0 .. id (at most @p limit entries); false: out of memory. */
bool uturn__sums_reserve(struct uturn__sums *s, const uturn_allocator_t *a,
                         uint64_t id, uint64_t limit);
/* The id now holds these bytes of x_step (id is reserved). */
void uturn__sums_record(struct uturn__sums *s, uint64_t id, const void *src,
                        uint64_t bytes, uint64_t step);
/* What the id holds, before it is read (no checksum computed). */
enum uturn__sum_verdict uturn__sums_held(const struct uturn__sums *s,
                                         uint64_t id, uint64_t bytes,
                                         uint64_t step);
/* The bytes read back for x_step against what the id holds. */
enum uturn__sum_verdict uturn__sums_check(const struct uturn__sums *s,
                                          uint64_t id, const void *dst,
                                          uint64_t bytes, uint64_t step);
/* The id (every id) holds nothing. */
void uturn__sums_drop(struct uturn__sums *s, uint64_t id);
void uturn__sums_forget(struct uturn__sums *s);
void uturn__sums_free(struct uturn__sums *s, const uturn_allocator_t *a);

#endif
