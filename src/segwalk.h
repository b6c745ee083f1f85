/*
 * Reversing a range of states [a, a + l) from a checkpoint of x_a in a
 * slot, with c slots (that one included), by revolve's recursion: advance
 * to the smallest optimal split, store that state (or reverse it at once
 * when it is the last of the range) and go right, then come back to the
 * left part. It takes exactly t(l, c) forward steps (uturn__bin_t) and
 * uses at most c slots. The walk's position is plain data (a generator
 * state may be copied with memcpy); its stack of pending left parts (4
 * words per level, at most c levels) and the free-slot stack are passed
 * in on every step.
 */
#ifndef UTURN_SEGWALK_H_INCLUDED
#define UTURN_SEGWALK_H_INCLUDED

#include "planner.h"

struct uturn__walk {
    uint64_t a, l, c, slot; /* the node being reversed */
    uint64_t depth;         /* pending left parts on the stack */
    bool live;              /* the live state is x_a */
};

/* Where the walk keeps what grows: its stack and the free slots. */
struct uturn__walk_mem {
    uint64_t *stack;      /* 4 words per level */
    uint64_t *free_slots; /* slots free for stores; pushed and popped */
    uint64_t *nfree;      /* how many free_slots holds */
};

/* Start on [start, start + length) from slot (live: x_start is already
 * the live state, as after an advance that moved the range's base). */
void uturn__walk_begin(struct uturn__walk *w, uint64_t start, uint64_t length,
                       uint64_t slots, uint64_t slot, bool live);
/* The next actions (at most 3); *done once the range's last state (x_a)
 * is reversed and its slot freed. */
size_t uturn__walk_step(struct uturn__walk *w,
                        const struct uturn__walk_mem *mem, uturn_action_t *out,
                        bool *done);

#endif
