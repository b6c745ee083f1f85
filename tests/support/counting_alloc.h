/* A uturn_allocator_t that counts live blocks and bytes, and can be told to
 * fail the Nth allocation: the tests' leak and out-of-memory checks. */
#ifndef UTURN_COUNTING_ALLOC_H_INCLUDED
#define UTURN_COUNTING_ALLOC_H_INCLUDED

#include <stddef.h>
#include <stdint.h>
#include <uturn.h>

typedef struct counting_alloc {
    uint64_t live_blocks;
    uint64_t live_bytes;
    uint64_t total_allocs;
    uint64_t
        fail_at; /* fail the allocation with this 1-based index; 0: never */
    uint64_t size_mismatches; /* frees whose size differs from the alloc's */
    uint64_t peak_bytes;      /* most live_bytes at once */
    uint64_t largest_block;   /* the largest single allocation asked for */
    /* Called after every allocation that succeeded, or NULL. */
    void (*on_alloc)(void *context, const struct counting_alloc *counts);
    void *context;
} counting_alloc_t;

/* An allocator that counts into *counts (zero it first). */
uturn_allocator_t counting_allocator(counting_alloc_t *counts);

#endif
