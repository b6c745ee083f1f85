/*
 * Where each held slot lives inside the storage region, the same for every
 * backend. Two layers:
 *
 * - a plan's slot index becomes an id below the slots the region holds:
 *   itself when the plan's indices already fit (every built-in planner),
 *   else an id taken from a free list, through a table (indices up to a
 *   few times the peak) or a hash map (sparse indices of a parsed plan,
 *   which may name slot 10^12 while holding three);
 * - an id becomes an offset: id * stride for uniform slots; for states of
 *   different sizes, a block packed into the region. Blocks sit in offset
 *   order; a store goes on top, or into a hole left by a free, and when
 *   neither has room but the free bytes suffice, the held blocks are moved
 *   down (compacted). So states whose strides sum to at most the region
 *   always fit, whatever order they come and go in; a nested plan, whose
 *   frees come in reverse order of its stores, never moves a byte.
 *
 * Every table is kept from run to run and only grows, so a repeated plan
 * allocates nothing. Sized plans whose peak is only a bound (an online
 * plan on a byte budget may name up to 2^30 slots) start with few ids
 * and double them as stores need, up to the peak.
 */
#ifndef UTURN_SLOT_SPACE_H_INCLUDED
#define UTURN_SLOT_SPACE_H_INCLUDED

#include "internal.h"

enum uturn__remap { UTURN__REMAP_NONE, UTURN__REMAP_TABLE, UTURN__REMAP_MAP };

struct uturn__block {
    uint64_t offset, bytes;
    uint64_t id; /* UTURN_NONE: a hole */
};

/* Moves bytes inside the region (compaction): to < from. */
typedef void (*uturn__mover)(void *context, uint64_t to, uint64_t from,
                             uint64_t bytes);

struct uturn__space {
    enum uturn__remap remap;
    bool sized;
    uint64_t ids;     /* ids 0 .. ids-1 exist */
    uint64_t ids_max; /* sized: ids grow up to this many as stores need */
    uint64_t stride; /* uniform */
    uint64_t region; /* sized: bytes of the region */
    /* slot -> id + 1 (0: not held) for TABLE, or the map for MAP */
    uint64_t *id_of;
    uint64_t id_of_cap;
    struct uturn__slot_map map;
    uint64_t *free_ids; /* a stack of ids not in use */
    uint64_t free_ids_cap, free_count;
    /* sized: per id, its offset and the step of the state it holds (the
     * caller's to set); the blocks in offset order */
    uint64_t *offset, *step;
    uint64_t per_id_cap;
    struct uturn__block *blocks;
    uint64_t block_count, block_cap;
    uint64_t moved_bytes; /* bytes compaction moved in this run */
};

struct uturn__space_plan {
    bool sized;
    uint64_t span;     /* highest slot index used, plus one */
    uint64_t peak;     /* most slots held at once */
    uint64_t stride;   /* uniform */
    uint64_t region;   /* bytes of the region */
};

/* Lay the space out for a run (all slots empty). */
uturn_status_t uturn__space_begin(struct uturn__space *sp,
                                  const uturn_allocator_t *a,
                                  const struct uturn__space_plan *plan);
/* Take an id for a slot being stored; false if the plan breaks its own
 * peak (more slots held than it declared), or (sized) no memory for more
 * ids. */
bool uturn__space_take_id(struct uturn__space *sp, const uturn_allocator_t *a,
                          uint64_t slot, uint64_t *id);
/* The id of a held slot. */
static inline uint64_t uturn__space_id(const struct uturn__space *sp,
                                       uint64_t slot)
{
    if (sp->remap == UTURN__REMAP_NONE)
        return slot;
    if (sp->remap == UTURN__REMAP_TABLE)
        return sp->id_of[slot] - 1;
    return uturn__slot_map_get(&sp->map, slot) - 1;
}
/* Give a slot's id back. */
void uturn__space_drop_id(struct uturn__space *sp, uint64_t slot, uint64_t id);
/* Sized: room for bytes (a stride) for id; its offset. false when the
 * region cannot hold it even after compaction. */
bool uturn__space_place(struct uturn__space *sp, const uturn_allocator_t *a,
                        uint64_t id, uint64_t bytes, uturn__mover move,
                        void *context);
/* Sized: id's block becomes a hole. */
void uturn__space_unplace(struct uturn__space *sp, uint64_t id);
/* Bytes of the tables, for the report. */
uint64_t uturn__space_table_bytes(const struct uturn__space *sp);
/* Give every table back. */
void uturn__space_free(struct uturn__space *sp, const uturn_allocator_t *a);

#endif
