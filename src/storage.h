/*
 * Slot storage: the backends behind one interface. A backend holds one
 * region (the executor's slab) and says what a number of bytes of it
 * costs; where each slot lives inside the region is the slot space's job
 * (slot_space.c), the same for every backend. One backend per file
 * (storage_pages.c, storage_alloc.c), one table (storage.c).
 *
 * Costs are computed, never probed: a region holding x bytes (k uniform
 * slots of b bytes: x = k * stride(b), stride(b) = round_up(b, 16)) costs
 * a pure function of x, the backend and the page size. So the same
 * request gives the same capacity in every process, whatever it allocated
 * before, which is what lets MPI ranks agree on a plan.
 */
#ifndef UTURN_STORAGE_H_INCLUDED
#define UTURN_STORAGE_H_INCLUDED

#include "internal.h"

/* Every slot starts at a multiple of this: what malloc guarantees, so a
 * save callback may write any C type into its buffer. */
#define UTURN__SLOT_ALIGNMENT 16

/* Regions of at least this many bytes ask for transparent huge pages. */
#define UTURN__HUGE_REGION ((uint64_t)4 << 20)

enum uturn__backend { UTURN__BACKEND_PAGES, UTURN__BACKEND_ALLOCATOR };

struct uturn__storage;

struct uturn__storage_ops {
    const char *name;
    /* The unit the region's cost is rounded to (report and messages):
     * see cost(). */
    uint64_t (*granule)(const struct uturn__storage *st);
    /* What a region holding `bytes` costs (>= bytes); false on overflow.
     * Monotone in bytes. */
    bool (*cost)(const struct uturn__storage *st, uint64_t bytes,
                 uint64_t *out);
    /* The most bytes a region may hold within a budget: the largest x
     * with cost(x) <= budget. */
    uint64_t (*usable)(const struct uturn__storage *st, uint64_t budget);
    /* Make the region exactly `bytes` long (a multiple of the granule; 0
     * gives it back). Contents are not kept: every slot is empty between
     * runs. Pages already touched are kept where the backend can. */
    uturn_status_t (*resize)(struct uturn__storage *st, uint64_t bytes);
    void (*close)(struct uturn__storage *st);
};

struct uturn__storage {
    const struct uturn__storage_ops *ops;
    enum uturn__backend kind;
    uturn_allocator_t alloc; /* ALLOCATOR: where the region comes from */
    uint64_t page;           /* the system's page size */
    unsigned char *base;     /* the region, or NULL */
    uint64_t bytes;          /* its length (what it costs) */
    bool mapped;             /* PAGES: base is a mapping, else a block */
};

/* The backend for a slot allocator (NULL or malloc/free: mapped pages). */
void uturn__storage_open(struct uturn__storage *st,
                         const uturn_allocator_t *slot_alloc);
void uturn__storage_close(struct uturn__storage *st);

/* state_bytes rounded up to the slot alignment; false on overflow. */
bool uturn__stride(uint64_t state_bytes, uint64_t *stride);
/* What a region holding bytes costs; false on overflow. */
bool uturn__storage_round(const struct uturn__storage *st, uint64_t bytes,
                          uint64_t *out);
/* The cost of everything held at once, for the report and the budget. */
void uturn__storage_cost(const struct uturn__storage *st, uint64_t state_bytes,
                         uturn_slot_cost_t *out);

/* storage_pages.c, storage_alloc.c */
extern const struct uturn__storage_ops uturn__storage_pages;
extern const struct uturn__storage_ops uturn__storage_alloc;

#endif
