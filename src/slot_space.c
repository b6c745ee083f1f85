/* Where held slots live in the region; see slot_space.h. */
#include "slot_space.h"

#include <assert.h>
#include <string.h>

/* Indices up to this many times the peak (plus a constant) get a table;
 * sparser ones a hash map. */
#define TABLE_FACTOR 4
#define TABLE_EXTRA  4096
/* Sized: per-id arrays past this many ids are grown as stores need them,
 * from this many (16 bytes an id). */
#define SIZED_DIRECT ((uint64_t)1 << 16)

/* Grow *array to at least n entries of size bytes each. The contents are
 * not kept: every table is laid out again at the start of a run. */
static bool reserve(const uturn_allocator_t *a, void **array, uint64_t *cap,
                    uint64_t n, size_t size)
{
    if (n <= *cap)
        return true;
    if (n > SIZE_MAX / size)
        return false;
    void *grown = uturn__alloc(a, (size_t)n * size);
    if (grown == NULL)
        return false;
    uturn__free(a, *array, (size_t)*cap * size);
    *array = grown;
    *cap   = n;
    return true;
}

/* The most slot indices a table serves for a plan holding peak slots. */
static uint64_t table_limit(uint64_t peak)
{
    return peak <= (UINT64_MAX - TABLE_EXTRA) / TABLE_FACTOR
               ? peak * TABLE_FACTOR + TABLE_EXTRA
               : UINT64_MAX;
}

/* The free ids: every id, lowest on top. */
static bool fill_free_ids(struct uturn__space *sp, const uturn_allocator_t *a)
{
    if (!reserve(a, (void **)&sp->free_ids, &sp->free_ids_cap, sp->ids,
                 sizeof *sp->free_ids))
        return false;
    for (uint64_t i = 0; i < sp->ids; i++)
        sp->free_ids[i] = sp->ids - 1 - i;
    sp->free_count = sp->ids;
    return true;
}

static bool begin_remap(struct uturn__space *sp, const uturn_allocator_t *a,
                        uint64_t span)
{
    if (sp->remap == UTURN__REMAP_NONE)
        return true;
    if (!fill_free_ids(sp, a))
        return false;
    if (sp->remap == UTURN__REMAP_MAP) {
        uturn__slot_map_clear(&sp->map);
        return true;
    }
    if (!reserve(a, (void **)&sp->id_of, &sp->id_of_cap, span,
                 sizeof *sp->id_of))
        return false;
    memset(sp->id_of, 0, (size_t)span * sizeof *sp->id_of);
    return true;
}

/* Sized: per-id offsets and sizes (one capacity for both), and a block
 * list that starts empty (the whole region above the top is free). */
static bool begin_sized(struct uturn__space *sp, const uturn_allocator_t *a)
{
    sp->block_count = 0;
    if (sp->ids <= sp->per_id_cap)
        return true;
    if (sp->ids > SIZE_MAX / sizeof(uint64_t))
        return false;
    const size_t bytes = (size_t)sp->ids * sizeof(uint64_t);
    uint64_t *offset = uturn__alloc(a, bytes), *sizes = uturn__alloc(a, bytes);
    if (offset == NULL || sizes == NULL) {
        uturn__free(a, offset, bytes);
        uturn__free(a, sizes, bytes);
        return false;
    }
    const size_t old = (size_t)sp->per_id_cap * sizeof(uint64_t);
    uturn__free(a, sp->offset, old);
    uturn__free(a, sp->step, old);
    sp->offset     = offset;
    sp->step      = sizes;
    sp->per_id_cap = sp->ids;
    return true;
}

uturn_status_t uturn__space_begin(struct uturn__space *sp,
                                  const uturn_allocator_t *a,
                                  const struct uturn__space_plan *plan)
{
    sp->sized       = plan->sized;
    sp->stride      = plan->stride;
    sp->region      = plan->region;
    sp->moved_bytes = 0;
    /* Slots the region holds (uniform), or ids a per-id array may serve
     * directly (sized). */
    const uint64_t positions = plan->sized ? 0 : plan->region / plan->stride;
    const uint64_t fits =
        plan->sized ? (plan->span <= table_limit(plan->peak) ? plan->span : 0)
                    : positions;
    if (plan->span <= fits && (!plan->sized || plan->span <= SIZED_DIRECT))
        sp->remap = UTURN__REMAP_NONE;
    else if (!plan->sized && plan->span <= table_limit(plan->peak))
        sp->remap = UTURN__REMAP_TABLE;
    else
        sp->remap = UTURN__REMAP_MAP;
    if (sp->remap == UTURN__REMAP_NONE)
        sp->ids = plan->span;
    else
        sp->ids = plan->sized ? plan->peak : positions;
    sp->ids_max = sp->ids;
    if (plan->sized && sp->ids > SIZED_DIRECT)
        sp->ids = SIZED_DIRECT;
    if (!begin_remap(sp, a, plan->span))
        return UTURN_E_NOMEM;
    if (plan->sized && !begin_sized(sp, a))
        return UTURN_E_NOMEM;
    return UTURN_OK;
}

/* Sized, every id in use: twice as many (up to ids_max), the new ones
 * free, the per-id offsets and steps kept. */
static bool more_ids(struct uturn__space *sp, const uturn_allocator_t *a)
{
    const uint64_t n = sp->ids > sp->ids_max / 2 ? sp->ids_max : 2 * sp->ids;
    if (n <= sp->ids || n > SIZE_MAX / sizeof(uint64_t))
        return false;
    const size_t bytes = (size_t)n * sizeof(uint64_t);
    uint64_t *ids = uturn__alloc(a, bytes), *offset = uturn__alloc(a, bytes),
             *step = uturn__alloc(a, bytes);
    if (ids == NULL || offset == NULL || step == NULL) {
        uturn__free(a, ids, bytes);
        uturn__free(a, offset, bytes);
        uturn__free(a, step, bytes);
        return false;
    }
    memcpy(offset, sp->offset, (size_t)sp->ids * sizeof *offset);
    memcpy(step, sp->step, (size_t)sp->ids * sizeof *step);
    uturn__free(a, sp->free_ids,
                (size_t)sp->free_ids_cap * sizeof *sp->free_ids);
    uturn__free(a, sp->offset, (size_t)sp->per_id_cap * sizeof *offset);
    uturn__free(a, sp->step, (size_t)sp->per_id_cap * sizeof *step);
    sp->free_ids = ids;
    sp->offset   = offset;
    sp->step     = step;
    sp->free_ids_cap = sp->per_id_cap = n;
    for (uint64_t i = n; i-- > sp->ids;)
        sp->free_ids[sp->free_count++] = i;
    sp->ids = n;
    return true;
}

bool uturn__space_take_id(struct uturn__space *sp, const uturn_allocator_t *a,
                          uint64_t slot, uint64_t *id)
{
    if (sp->remap == UTURN__REMAP_NONE) {
        *id = slot;
        return true;
    }
    if (sp->free_count == 0 && !(sp->sized && more_ids(sp, a)))
        return false;
    *id = sp->free_ids[--sp->free_count];
    if (sp->remap == UTURN__REMAP_TABLE) {
        sp->id_of[slot] = *id + 1;
        return true;
    }
    if (uturn__slot_map_put(&sp->map, a, slot, *id + 1) == UTURN_OK)
        return true;
    sp->free_count += 1;
    return false;
}

void uturn__space_drop_id(struct uturn__space *sp, uint64_t slot, uint64_t id)
{
    if (sp->remap == UTURN__REMAP_NONE)
        return;
    if (sp->remap == UTURN__REMAP_TABLE)
        sp->id_of[slot] = 0;
    else
        uturn__slot_map_erase(&sp->map, slot);
    sp->free_ids[sp->free_count++] = id;
}

/* ---- sized: blocks in offset order -------------------------------------- */

static uint64_t top_of(const struct uturn__space *sp)
{
    if (sp->block_count == 0)
        return 0;
    const struct uturn__block *b = &sp->blocks[sp->block_count - 1];
    return b->offset + b->bytes;
}

/* Insert a block at index i (shifting the rest up). */
static bool insert_block(struct uturn__space *sp, const uturn_allocator_t *a,
                         uint64_t i, struct uturn__block block)
{
    if (sp->block_count == sp->block_cap) {
        const uint64_t cap = sp->block_cap < 16 ? 16 : sp->block_cap * 2;
        struct uturn__block *grown =
            uturn__alloc(a, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return false;
        if (sp->block_count != 0)
            memcpy(grown, sp->blocks,
                   (size_t)sp->block_count * sizeof *grown);
        uturn__free(a, sp->blocks, (size_t)sp->block_cap * sizeof *grown);
        sp->blocks    = grown;
        sp->block_cap = cap;
    }
    memmove(sp->blocks + i + 1, sp->blocks + i,
            (size_t)(sp->block_count - i) * sizeof *sp->blocks);
    sp->blocks[i] = block;
    sp->block_count += 1;
    return true;
}

static void remove_block(struct uturn__space *sp, uint64_t i)
{
    memmove(sp->blocks + i, sp->blocks + i + 1,
            (size_t)(sp->block_count - i - 1) * sizeof *sp->blocks);
    sp->block_count -= 1;
}

/* Put id into hole i, splitting off what it does not need. */
static bool fill_hole(struct uturn__space *sp, const uturn_allocator_t *a,
                      uint64_t i, uint64_t id, uint64_t bytes)
{
    struct uturn__block *h = &sp->blocks[i];
    const uint64_t rest    = h->bytes - bytes;
    if (rest != 0 && !insert_block(sp, a, i + 1,
                                   (struct uturn__block){h->offset + bytes,
                                                         rest, UTURN_NONE}))
        return false;
    h              = &sp->blocks[i];
    h->bytes       = bytes;
    h->id          = id;
    sp->offset[id] = h->offset;
    return true;
}

/* Move every held block down so that the free bytes are all on top. */
static void compact(struct uturn__space *sp, uturn__mover move, void *context)
{
    uint64_t to = 0, kept = 0;
    for (uint64_t i = 0; i < sp->block_count; i++) {
        struct uturn__block b = sp->blocks[i];
        if (b.id == UTURN_NONE)
            continue;
        if (b.offset != to) {
            move(context, to, b.offset, b.bytes);
            sp->moved_bytes += b.bytes;
        }
        b.offset           = to;
        sp->offset[b.id]   = to;
        sp->blocks[kept++] = b;
        to += b.bytes;
    }
    sp->block_count = kept;
}

bool uturn__space_place(struct uturn__space *sp, const uturn_allocator_t *a,
                        uint64_t id, uint64_t bytes, uturn__mover move,
                        void *context)
{
    for (uint64_t i = 0; i < sp->block_count; i++)
        if (sp->blocks[i].id == UTURN_NONE && sp->blocks[i].bytes >= bytes)
            return fill_hole(sp, a, i, id, bytes);
    uint64_t top = top_of(sp);
    if (sp->region - top < bytes) {
        compact(sp, move, context);
        top = top_of(sp);
        if (sp->region - top < bytes)
            return false;
    }
    if (!insert_block(sp, a, sp->block_count,
                      (struct uturn__block){top, bytes, id}))
        return false;
    sp->offset[id] = top;
    return true;
}

/* The index of the block at offset (blocks are in offset order). */
static uint64_t find_block(const struct uturn__space *sp, uint64_t offset)
{
    uint64_t lo = 0, hi = sp->block_count;
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (sp->blocks[mid].offset <= offset)
            lo = mid;
        else
            hi = mid;
    }
    assert(lo < sp->block_count && sp->blocks[lo].offset == offset);
    return lo;
}

void uturn__space_unplace(struct uturn__space *sp, uint64_t id)
{
    uint64_t i = find_block(sp, sp->offset[id]);
    sp->blocks[i].id = UTURN_NONE;
    /* Merge with the holes beside it, and drop holes at the top. */
    if (i + 1 < sp->block_count && sp->blocks[i + 1].id == UTURN_NONE) {
        sp->blocks[i].bytes += sp->blocks[i + 1].bytes;
        remove_block(sp, i + 1);
    }
    if (i > 0 && sp->blocks[i - 1].id == UTURN_NONE) {
        sp->blocks[i - 1].bytes += sp->blocks[i].bytes;
        remove_block(sp, i);
        i -= 1;
    }
    if (i + 1 == sp->block_count)
        sp->block_count -= 1;
}

uint64_t uturn__space_table_bytes(const struct uturn__space *sp)
{
    return sp->id_of_cap * sizeof *sp->id_of +
           sp->free_ids_cap * sizeof *sp->free_ids +
           2 * sp->per_id_cap * sizeof(uint64_t) +
           sp->block_cap * sizeof *sp->blocks +
           (uint64_t)sp->map.cap * 2 * sizeof(uint64_t);
}

void uturn__space_free(struct uturn__space *sp, const uturn_allocator_t *a)
{
    uturn__free(a, sp->id_of, (size_t)sp->id_of_cap * sizeof *sp->id_of);
    uturn__free(a, sp->free_ids,
                (size_t)sp->free_ids_cap * sizeof *sp->free_ids);
    uturn__free(a, sp->offset, (size_t)sp->per_id_cap * sizeof *sp->offset);
    uturn__free(a, sp->step, (size_t)sp->per_id_cap * sizeof *sp->step);
    uturn__free(a, sp->blocks, (size_t)sp->block_cap * sizeof *sp->blocks);
    uturn__slot_map_free(&sp->map, a);
    memset(sp, 0, sizeof *sp);
}
