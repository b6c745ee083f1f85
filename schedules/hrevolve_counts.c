/*
 * hrevolve's predicted counts, without generating the plan. A node of the
 * plan's split structure is (type A or B, level, l, m), and its counts
 * follow from its children's, so a memoised post-order walk over the
 * distinct nodes gives every count. It visits at most two nodes per table
 * entry and in practice a few thousand at most (1509 for 10^4 steps over
 * 20 + 500 slots). The walk keeps its own stack, since left parts nest as
 * deep as n; the memo is freed before returning.
 */
#include "hrevolve.h"

#include <string.h>

enum node_type { NODE_A = 0, NODE_B = 1 };

struct tally {
    uint64_t forward, actions, peak_total;
    uint64_t stores[UTURN__MAX_LEVELS], restores[UTURN__MAX_LEVELS];
    uint64_t peak[UTURN__MAX_LEVELS];
};

/* An open-addressing map from node keys to tallies, and the walk's stack.
 * Each array's capacity is in elements. */
struct memo {
    const uturn_allocator_t *alloc;
    uint64_t *keys; /* 0 marks an empty cell */
    uint32_t *index;
    size_t cells, used;
    struct tally *tallies;
    size_t tallies_cap;
    uint64_t *stack;
    size_t depth, stack_cap;
};

#define FIELD_BITS 29
#define FIELD_MASK (((uint64_t)1 << FIELD_BITS) - 1)

/* type: bit 62, level: bits 58-61, l and m: 29 bits each; plus 1, so that
 * no key is 0. l and m are at most UTURN__HR_MAX_STEPS = 2^28. */
static uint64_t node_key(enum node_type type, size_t k, uint64_t l, uint64_t m)
{
    return ((uint64_t)type << 62 | (uint64_t)k << 58 | l << FIELD_BITS | m) + 1;
}

struct node {
    enum node_type type;
    size_t k;
    uint64_t l, m;
};

static struct node node_of(uint64_t key)
{
    const uint64_t v = key - 1;
    return (struct node){(enum node_type)(v >> 62), (size_t)(v >> 58 & 15),
                         v >> FIELD_BITS & FIELD_MASK, v & FIELD_MASK};
}

static size_t hash_of(uint64_t key, size_t cells)
{
    uint64_t x = key * 0x9E3779B97F4A7C15u;
    x ^= x >> 29;
    return (size_t)(x & (cells - 1));
}

/* The tally of key, or NULL when it is not computed yet. */
static const struct tally *memo_find(const struct memo *mo, uint64_t key)
{
    for (size_t i = hash_of(key, mo->cells);; i = (i + 1) & (mo->cells - 1)) {
        if (mo->keys[i] == 0)
            return NULL;
        if (mo->keys[i] == key)
            return &mo->tallies[mo->index[i]];
    }
}

/* Double an array of *cap elements of elem bytes, keeping its contents. */
static bool grow(const uturn_allocator_t *a, void **array, size_t *cap,
                 size_t elem)
{
    size_t bytes = 0;
    if (__builtin_mul_overflow(*cap, 2 * elem, &bytes))
        return false;
    void *bigger = uturn__alloc(a, bytes);
    if (bigger == NULL)
        return false;
    memcpy(bigger, *array, *cap * elem);
    uturn__free(a, *array, *cap * elem);
    *array = bigger;
    *cap *= 2;
    return true;
}

/* Rehash into twice the cells. */
static bool memo_rehash(struct memo *mo)
{
    const size_t cells = mo->cells * 2;
    uint64_t *keys     = uturn__alloc_zeroed(mo->alloc, cells, sizeof *keys);
    uint32_t *index    = uturn__alloc_zeroed(mo->alloc, cells, sizeof *index);
    if (keys == NULL || index == NULL) {
        uturn__free(mo->alloc, keys, cells * sizeof *keys);
        uturn__free(mo->alloc, index, cells * sizeof *index);
        return false;
    }
    for (size_t i = 0; i < mo->cells; i++) {
        if (mo->keys[i] == 0)
            continue;
        size_t c = hash_of(mo->keys[i], cells);
        while (keys[c] != 0)
            c = (c + 1) & (cells - 1);
        keys[c]  = mo->keys[i];
        index[c] = mo->index[i];
    }
    uturn__free(mo->alloc, mo->keys, mo->cells * sizeof *mo->keys);
    uturn__free(mo->alloc, mo->index, mo->cells * sizeof *mo->index);
    mo->keys  = keys;
    mo->index = index;
    mo->cells = cells;
    return true;
}

static bool memo_insert(struct memo *mo, uint64_t key, const struct tally *v)
{
    if (mo->used == mo->tallies_cap &&
        (mo->tallies_cap >= UINT32_MAX ||
         !grow(mo->alloc, (void **)&mo->tallies, &mo->tallies_cap,
               sizeof *mo->tallies)))
        return false;
    /* At most half full, so a probe always ends. */
    if (2 * (mo->used + 1) > mo->cells && !memo_rehash(mo))
        return false;
    size_t i = hash_of(key, mo->cells);
    while (mo->keys[i] != 0)
        i = (i + 1) & (mo->cells - 1);
    mo->keys[i]             = key;
    mo->index[i]            = (uint32_t)mo->used;
    mo->tallies[mo->used++] = *v;
    return true;
}

static bool memo_push(struct memo *mo, uint64_t key)
{
    if (mo->depth == mo->stack_cap && !grow(mo->alloc, (void **)&mo->stack,
                                            &mo->stack_cap, sizeof *mo->stack))
        return false;
    mo->stack[mo->depth++] = key;
    return true;
}

/* A node's children in the plan, at most two keys; returns how many. */
static size_t node_children(const struct uturn__hr_tables *t, uint64_t key,
                            uint64_t child[2])
{
    const struct node x = node_of(key);
    if (x.l == 0)
        return 0;
    const bool down = x.type == NODE_A ? uturn__hr_a_goes_down(t, x.k, x.l, x.m)
                                       : uturn__hr_split(t, x.k, x.l, x.m) == 0;
    if (down) {
        child[0] = node_key(NODE_A, x.k - 1, x.l, t->cap[x.k - 1]);
        return 1;
    }
    if (x.type == NODE_A) {
        child[0] = node_key(NODE_B, x.k, x.l, x.m);
        return 1;
    }
    const uint64_t j = uturn__hr_split(t, x.k, x.l, x.m);
    child[0]         = node_key(NODE_A, x.k, x.l - j, x.m - 1); /* right */
    child[1]         = node_key(NODE_B, x.k, j - 1, x.m);       /* left */
    return 2;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* A split: advance j, the right part while x_0 holds a level-k slot, one
 * restore of x_0, then the left part (whose peak counts x_0's slot). */
static void tally_split(size_t levels, size_t k, uint64_t j,
                        const struct tally *right, const struct tally *left,
                        struct tally *out)
{
    out->forward    = j + right->forward + left->forward;
    out->actions    = 2 + right->actions + left->actions;
    out->peak_total = max_u64(right->peak_total + 1, left->peak_total);
    for (size_t q = 0; q < levels; q++) {
        out->stores[q]   = right->stores[q] + left->stores[q];
        out->restores[q] = right->restores[q] + left->restores[q];
        out->peak[q]     = max_u64(right->peak[q] + (q == k), left->peak[q]);
    }
    out->restores[k]++;
}

/* The tally of a node whose children are all in the memo. */
static void tally_node(const struct uturn__hr_tables *t, const struct memo *mo,
                       uint64_t key, struct tally *out)
{
    const struct node x = node_of(key);
    uint64_t child[2]   = {0, 0};
    const size_t kids   = node_children(t, key, child);
    memset(out, 0, sizeof *out);
    if (kids == 0) { /* l = 0: reverse, and free x_0's slot for B */
        out->actions = x.type == NODE_B ? 2 : 1;
        if (x.type == NODE_B)
            out->peak[x.k] = out->peak_total = 1;
        return;
    }
    const struct tally *first = memo_find(mo, child[0]);
    if (kids == 2) {
        tally_split(t->levels, x.k, uturn__hr_split(t, x.k, x.l, x.m), first,
                    memo_find(mo, child[1]), out);
        return;
    }
    *out = *first;
    if (x.type == NODE_B) { /* free x_0's slot, then work one level down */
        out->actions++;
        out->peak[x.k]  = max_u64(out->peak[x.k], 1);
        out->peak_total = max_u64(out->peak_total, 1);
    } else if (node_of(child[0]).type == NODE_B) {
        out->actions++; /* the store of x_0 at level k */
        out->stores[x.k]++;
    }
}

static uturn_status_t memo_walk(const struct uturn__hr_tables *t,
                                struct memo *mo, uint64_t root)
{
    if (!memo_push(mo, root))
        return UTURN_E_NOMEM;
    while (mo->depth > 0) {
        const uint64_t key = mo->stack[mo->depth - 1];
        if (memo_find(mo, key) != NULL) {
            mo->depth--;
            continue;
        }
        uint64_t child[2];
        const size_t kids = node_children(t, key, child);
        bool ready        = true;
        for (size_t i = 0; i < kids; i++) {
            if (memo_find(mo, child[i]) != NULL)
                continue;
            ready = false;
            if (!memo_push(mo, child[i]))
                return UTURN_E_NOMEM;
        }
        if (!ready)
            continue;
        struct tally v;
        tally_node(t, mo, key, &v);
        if (!memo_insert(mo, key, &v))
            return UTURN_E_NOMEM;
        mo->depth--;
    }
    return UTURN_OK;
}

static void counts_from(size_t levels, const struct tally *v,
                        struct uturn__hr_counts *out)
{
    memset(out, 0, sizeof *out);
    out->forward_steps = v->forward;
    out->actions       = v->actions;
    out->peak_slots    = v->peak_total;
    for (size_t q = 0; q < levels; q++) {
        out->stores[q]   = v->stores[q];
        out->restores[q] = v->restores[q];
        out->peak[q]     = v->peak[q];
    }
}

static void memo_free(struct memo *mo)
{
    uturn__free(mo->alloc, mo->keys, mo->cells * sizeof *mo->keys);
    uturn__free(mo->alloc, mo->index, mo->cells * sizeof *mo->index);
    uturn__free(mo->alloc, mo->tallies, mo->tallies_cap * sizeof *mo->tallies);
    uturn__free(mo->alloc, mo->stack, mo->stack_cap * sizeof *mo->stack);
}

/* The counts of the node `root` and everything under it. */
static uturn_status_t count_root(const uturn_allocator_t *alloc,
                                 const struct uturn__hr_tables *t,
                                 uint64_t root, struct uturn__hr_counts *out)
{
    struct memo mo = {
        .alloc = alloc, .cells = 1024, .tallies_cap = 512, .stack_cap = 256};
    mo.keys    = uturn__alloc_zeroed(alloc, mo.cells, sizeof *mo.keys);
    mo.index   = uturn__alloc_zeroed(alloc, mo.cells, sizeof *mo.index);
    mo.tallies = uturn__alloc(alloc, mo.tallies_cap * sizeof *mo.tallies);
    mo.stack   = uturn__alloc(alloc, mo.stack_cap * sizeof *mo.stack);
    uturn_status_t st = UTURN_E_NOMEM;
    if (mo.keys != NULL && mo.index != NULL && mo.tallies != NULL &&
        mo.stack != NULL)
        st = memo_walk(t, &mo, root);
    if (st == UTURN_OK)
        counts_from(t->levels, memo_find(&mo, root), out);
    memo_free(&mo);
    return st;
}

uturn_status_t uturn__hr_count(const uturn_allocator_t *alloc,
                               const struct uturn__hr_tables *t,
                               struct uturn__hr_counts *out)
{
    const size_t top = t->levels - 1;
    return count_root(alloc, t, node_key(NODE_A, top, t->n, t->cap[top]), out);
}

uturn_status_t uturn__hr_count_node(const uturn_allocator_t *alloc,
                                    const struct uturn__hr_tables *t, size_t k,
                                    uint64_t l, uint64_t m, bool held,
                                    struct uturn__hr_counts *out)
{
    return count_root(alloc, t, node_key(held ? NODE_B : NODE_A, k, l, m), out);
}
