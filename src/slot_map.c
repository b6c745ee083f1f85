/*
 * A map from slot index to a non-zero value, for slot indices too sparse
 * for an array: the validator's far slots and the executor's sparse
 * plans. An open-addressing hash map, so that a plan naming slot 10^13
 * (legal when its capacity says so) costs memory for the slots it holds,
 * not for the index (the fuzzer found a 10^13-entry array being asked
 * for).
 * Linear probing with backward-shift deletion; load at most one half.
 */
#include "internal.h"

#include <string.h>

static size_t home(uint64_t key, size_t mask)
{
    return (size_t)((key * 0x9e3779b97f4a7c15u) >> 17) & mask;
}

uint64_t uturn__slot_map_get(const struct uturn__slot_map *m, uint64_t slot)
{
    if (m->cap == 0)
        return 0;
    for (size_t i = home(slot, m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (m->vals[i] == 0)
            return 0;
        if (m->keys[i] == slot)
            return m->vals[i];
    }
}

static uturn_status_t grow(struct uturn__slot_map *m,
                           const uturn_allocator_t *a)
{
    const size_t cap            = m->cap == 0 ? 16 : m->cap * 2;
    struct uturn__slot_map next = {
        uturn__alloc_zeroed(a, cap, sizeof(uint64_t)),
        uturn__alloc_zeroed(a, cap, sizeof(uint64_t)), cap, 0};
    if (next.keys == NULL || next.vals == NULL) {
        uturn__free(a, next.keys, cap * sizeof(uint64_t));
        uturn__free(a, next.vals, cap * sizeof(uint64_t));
        return UTURN_E_NOMEM;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->vals[i] != 0)
            uturn__slot_map_put(&next, a, m->keys[i], m->vals[i]);
    uturn__slot_map_free(m, a);
    *m = next;
    return UTURN_OK;
}

uturn_status_t uturn__slot_map_put(struct uturn__slot_map *m,
                                   const uturn_allocator_t *a, uint64_t slot,
                                   uint64_t value)
{
    if (2 * (m->count + 1) > m->cap && grow(m, a) != UTURN_OK)
        return UTURN_E_NOMEM;
    size_t i = home(slot, m->cap - 1);
    while (m->vals[i] != 0 && m->keys[i] != slot)
        i = (i + 1) & (m->cap - 1);
    m->count += m->vals[i] == 0;
    m->keys[i] = slot;
    m->vals[i] = value;
    return UTURN_OK;
}

void uturn__slot_map_erase(struct uturn__slot_map *m, uint64_t slot)
{
    if (m->cap == 0)
        return;
    const size_t mask = m->cap - 1;
    size_t i          = home(slot, mask);
    while (m->vals[i] != 0 && m->keys[i] != slot)
        i = (i + 1) & mask;
    if (m->vals[i] == 0)
        return;
    /* Backward shift: pull later entries of the run into the hole. */
    for (size_t j = (i + 1) & mask; m->vals[j] != 0; j = (j + 1) & mask) {
        const size_t h = home(m->keys[j], mask);
        if (((j - h) & mask) >= ((j - i) & mask)) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            i          = j;
        }
    }
    m->vals[i] = 0;
    m->count -= 1;
}

void uturn__slot_map_clear(struct uturn__slot_map *m)
{
    if (m->cap != 0)
        memset(m->vals, 0, m->cap * sizeof(uint64_t));
    m->count = 0;
}

void uturn__slot_map_free(struct uturn__slot_map *m, const uturn_allocator_t *a)
{
    uturn__free(a, m->keys, m->cap * sizeof(uint64_t));
    uturn__free(a, m->vals, m->cap * sizeof(uint64_t));
    memset(m, 0, sizeof *m);
}

/* The lowest far slot that holds a state, or UTURN_NONE. */
uint64_t uturn__slot_map_first(const struct uturn__slot_map *m)
{
    uint64_t best = UTURN_NONE;
    for (size_t i = 0; i < m->cap; i++)
        if (m->vals[i] != 0 && m->keys[i] < best)
            best = m->keys[i];
    return best;
}
