/*
 * The online planner for uniform slots at any count (s >= 4; the online
 * family, online.h, serves s <= 3 and byte budgets). Its parts:
 * online_slots.c (the planner), online_slots_band.c (the first sweep up to
 * lim2 = (s+1)(s+2)/2), online_slots_merge.c (past it), online_slots_end.c
 * (the end and the reversal).
 *
 * First sweep. Held checkpoints p_0 = 0 < p_1 < ... < p_{k-1}, k <= s;
 * segment j is [p_j, p_{j+1}) (p_k = n) and is reversed, at the end, by
 * revolve with c_j = s - j slots (its own included: the checkpoints
 * before it are still held). While m < lim2 the band rule of Stumm and
 * Walther stores, which is exactly optimal there: region x has base
 * P[x-1] and s - x + 1 slots, and its checkpoint moves to base +
 * beta(s - x + 1, r) for r = 0, 1, ..; a trigger of region x restarts
 * region x + 1 and turns the chain of deeper regions into leftovers; a
 * store with every slot held frees the lowest leftover. The region that
 * triggers next is found in O(1) from prefix minima of the trigger times
 * (QM, QA), the lowest leftover from a heap. For m >= lim2, x_m is stored
 * once the top segment is R + add long (R the least r with beta(s, r) >=
 * m + 2; add 1 for s <= 6), freeing the checkpoint whose removal raises
 * the reversal's cost the least: merging segments q-1 and q changes the
 * cost by K_q - PG_{k-1}, K_q = M_q + PG_q with M_q the merge's own change
 * and PG the prefix sums of G_j = t(L_j, c_j) - t(L_j, c_j + 1) (every
 * segment above q gains a slot), so the prefix minimum of K on a stack of
 * the final segments names q at once; only the entries from q up are
 * rewritten. While every state fits, every state is stored: forward steps
 * = n for n <= s.
 *
 * End. The reversal takes n + sum_j t(L_j, s - j) forward steps, known at
 * the end in O(k). It turns, then walks the segments from the top, each
 * with revolve's generator (revolve_walk.c), whose slot k is map[k]:
 * map[j] is p_j's slot and map[k..s) the slots free at the end, so
 * segment j (base j, c_j = s - j) uses its own slot and the free ones,
 * and hands its own to the segments below once reversed. The map is laid
 * out so at the end (online_sweeps_keep.c reads it there) and reversed
 * at the turn, so that a walk names a node's slot by one load (map[c],
 * offset per segment) where revolve's walk subtracts. The reversal's
 * counts are not tallied per action: each segment's in all are closed
 * forms, those of its walk's rest too, and a cursor asks for them
 * (reversal_counts) only when its stats are read, which keeps the
 * reversal's cost per action at revolve's. Segments of one or two states
 * (most of them with many slots) are written without a walk. Nor is the
 * peak counted: segment j's walk holds at most j + c_j = s slots, which
 * the first sweep held already once n > s (x_0 .. x_{s-1} are all
 * stored), and for n <= s every segment is one state and stores nothing.
 *
 * The generator state is one flat block that relies on no pointer inside
 * it (it may be copied with memcpy, or moved as a byte budget's grows;
 * the reversal's walker sets its two from offsets before each walk): the
 * header below, then the arrays, all sized by s: about 160 bytes per
 * slot.
 */
#ifndef UTURN_ONLINE_SLOTS_H_INCLUDED
#define UTURN_ONLINE_SLOTS_H_INCLUDED

#include "planner.h"
#include "revolve_node.h"

#define UTURN__OS_NIL UINT32_MAX

enum uturn__os_phase { OS_START, OS_BAND, OS_MERGE, OS_REVERSE, OS_DONE };

struct uturn__os_hdr {
    uint64_t s, max_steps, lim2, add;
    uint64_t cap;   /* slots the arrays are laid out for (s <= cap) */
    uint64_t ks;    /* merge: the s the merge keys were made for (>= s) */
    uint64_t m;     /* the live step of the first sweep */
    uint64_t k;     /* checkpoints held */
    uint64_t n;     /* steps, once known (0 before) */
    uint64_t nfree; /* entries on the free-slot stack */
    uint32_t head, tail, nnf, nheap; /* band: the held list, its heap */
    uint64_t d, last, next_trig;     /* band: regions */
    uint64_t top_pos, top_slot;      /* merge: the top checkpoint */
    uint64_t rnow, bnow;             /* merge: R and beta(s, R) */
    uint64_t seg;                    /* reversal: segments still to walk */
    uint64_t predicted; /* forward steps of the whole run, once ended */
    /* reversal: the current segment's walk (revolve_node.h), walked in
     * place; its stack and map pointers are set from the offsets (from
     * this header) before each walk, so the state stays a block that may
     * be copied or moved */
    struct uturn__rv_walker wk;
    struct uturn__rv_tally all; /* what the walk writes in all */
    uint64_t stack_off, map_off;
    /* reversal: what the segments done wrote; the counts so far add the
     * current walk's in all less its rest (revolve_rest.c) */
    struct uturn__rv_tally reversed;
    int phase, turned, walking, overflow;
    int keep_x0; /* several sweeps: the reversal leaves x_0 in its slot */
};

/* A final segment of the merge phase's stack (index j: c_j = s - j). */
struct uturn__os_ent {
    uint64_t pos, slot, len;
    uint64_t t;      /* t(len, c_j) */
    uint64_t pg;     /* sum over i <= j of G_i */
    int64_t key;     /* K_j = M_j + pg_j, j >= 1 */
    int64_t min_key; /* the least K over 1 .. j */
    uint64_t min_at; /* where (the highest index on ties) */
};

/* A held checkpoint in the band phase's list. */
struct uturn__os_node {
    uint64_t pos, slot;
    uint32_t prev, next; /* UTURN__OS_NIL: none */
    uint32_t heap_at;    /* in the leftover heap, or UTURN__OS_NIL */
};

struct uturn__os_view {
    struct uturn__os_hdr *h;
    uint64_t *free_slots;    /* s + 1; the reversal's slot map */
    struct uturn__os_ent *e; /* s + 2; the held set at the end */
    /* band phase (the reversal's stack lives here afterwards) */
    struct uturn__os_node *nodes; /* s + 2 */
    uint32_t *spare, *heap;       /* s + 2 each */
    uint64_t *P, *R, *Q, *QM;     /* s + 3 each */
    uint32_t *QA, *chain_node;    /* s + 3 each */
    struct uturn__rv_node *stack; /* s + 1 frames, over the band arrays */
};

/* Bytes of the state for s slots (0 when it does not fit). */
size_t uturn__os_state_bytes(uint64_t s);
struct uturn__os_view uturn__os_view(void *state);
/* The state for s slots (cap = ks = s), before x_0 is stored. */
void uturn__os_init(void *state, uint64_t s, uint64_t max_steps);
/* The planner's fill (planner.h). */
size_t uturn__os_fill(void *state, uturn_action_t *out, size_t capacity);
/* The decision about x_m, then the advance to x_{m+1} (at most 3
 * actions). */
size_t uturn__os_sweep_step(struct uturn__os_view *v, uturn_action_t *out);

/* A decision about x_m: stored (in slot), after freeing free_slot. */
struct uturn__os_decision {
    bool store;
    uint64_t free_slot; /* UTURN_NONE: nothing freed */
    uint64_t slot;
};

/* In the first sweep (an end may still be said). */
static inline bool uturn__os_sweeping(const struct uturn__os_hdr *h)
{
    return h->phase == OS_BAND || h->phase == OS_MERGE;
}

/* Where segment j of the held set e[] ends: the next checkpoint, or n. */
static inline uint64_t uturn__os_seg_end(const struct uturn__os_view *v,
                                         uint64_t j)
{
    return j + 1 < v->h->k ? v->e[j + 1].pos : v->h->n;
}

static inline uint64_t uturn__os_pop(struct uturn__os_view *v)
{
    return v->free_slots[--v->h->nfree];
}

static inline void uturn__os_push(struct uturn__os_view *v, uint64_t slot)
{
    v->free_slots[v->h->nfree++] = slot;
}

/* online_slots_band.c: the band phase from x_0 held in slot. */
void uturn__os_band_start(struct uturn__os_view *v, uint64_t slot);
struct uturn__os_decision uturn__os_band_step(struct uturn__os_view *v);
/* online_slots_merge.c: the merge phase, from the band's held list. */
void uturn__os_to_merge(struct uturn__os_view *v);
struct uturn__os_decision uturn__os_merge_step(struct uturn__os_view *v);
/* Fewer slots (a byte budget's larger states, online_bytes.c): with
 * h->s lowered below k, free the checkpoint whose removal raises the
 * reversal's cost the least (the merge phase's rule; k >= 2) and return
 * its slot. Then uturn__os_rekey() makes the keys and the store threshold
 * for the new s, O(k). */
uint64_t uturn__os_evict(struct uturn__os_view *v);
void uturn__os_rekey(struct uturn__os_view *v);
/* online_slots_end.c: the end at n = m (the held set into e[]). */
void uturn__os_end_sweep(struct uturn__os_view *v);
/* The reversal's next actions (capacity at least 3), adding what they
 * are to *counted (uturn__count_actions()). */
size_t uturn__os_reverse_counted(struct uturn__os_view *v, uturn_action_t *out,
                                 size_t capacity, uturn_stats_t *counted,
                                 uint64_t *held);
/* The reversal's current walk, its pointers set from the offsets. */
static inline struct uturn__rv_walker *uturn__os_walker(struct uturn__os_hdr *h)
{
    unsigned char *base = (unsigned char *)h;
    h->wk.stack = (struct uturn__rv_node *)(void *)(base + h->stack_off);
    h->wk.map   = (const uint64_t *)(void *)(base + h->map_off);
    return &h->wk;
}

/* The reversal's next actions (capacity at least 3), not counted, from
 * the end of a walk or between segments. */
size_t uturn__os_reverse_next(void *state, uturn_action_t *out,
                              size_t capacity);

/* The reversal's next actions (capacity at least 3), not counted, entered
 * straight into the current walk while a segment goes on (most reads;
 * inlined into the planners' fills). */
static inline size_t uturn__os_reverse_state(void *state, uturn_action_t *out,
                                             size_t capacity)
{
    struct uturn__os_hdr *h = state;
    if (!h->walking)
        return uturn__os_reverse_next(state, out, capacity);
    const size_t count =
        uturn__rv_walk_fill_online(uturn__os_walker(h), out, capacity);
    if (!h->wk.done)
        return count;
    return count + uturn__os_reverse_next(state, out + count, capacity - count);
}
/* Add to *s the actions, forward steps, stores, restores, frees and
 * reverses the reversal wrote so far (at the end of the first sweep:
 * none). */
void uturn__os_reversal_counts(const void *state, uturn_stats_t *s);

#endif
