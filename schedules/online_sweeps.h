/*
 * Online plans of several sweeps (online_sweeps.c, online_sweeps_keep.c):
 * sweep 1 is the online plan of s slots (online_slots.h); its end tells n,
 * and the sweeps left follow a layout of the family of several sweeps
 * (sweeps.h) for k - 1 sweeps. Two ways, whichever takes fewer forward
 * steps:
 *
 * - fresh: sweep 1 keeps x_0 alone; after it, `restore 0` and the
 *   layout's own first forward from x_0 store its persistent checkpoints;
 * - kept: a subset P of the checkpoints sweep 1 holds at its end (x_0
 *   among them; and x_n, stored before the turn, when a slot is free)
 *   becomes the layout's persistent checkpoints. Sweep 1's
 *   reversal then keeps them: the range from the j-th held checkpoint is
 *   reversed by revolve with s - j slots less one for each of P above it,
 *   and its base stays when it is in P. The layout needs no first forward.
 *   P is found for each m by placing the layout's m checkpoints as if n
 *   were known and taking, for each, the highest held checkpoint at or
 *   below it.
 *
 * The state block: the header below, the online planner's state, then
 * arrays of s words (the layout's lengths, starts and scratch, the walk's
 * slot map, the kept flags, the layout's slot labels), and the layout's
 * generator. The header's layout points into the block, so the block is
 * not to be copied.
 */
#ifndef UTURN_ONLINE_SWEEPS_H_INCLUDED
#define UTURN_ONLINE_SWEEPS_H_INCLUDED

#include "online_slots.h"
#include "sweeps.h"

enum { OW_FIRST, OW_KEEP, OW_REST, OW_FREE, OW_DONE };

/* The parts of the block after the header. */
enum {
    OW_OS,
    OW_L,
    OW_P,
    OW_SCRATCH,
    OW_MAP,
    OW_KEPT,
    OW_LABEL,
    OW_GEN,
    OW_PARTS
};

struct ow {
    uint64_t k; /* sweeps, or UTURN_SWEEPS_UNBOUNDED */
    uint64_t s, max_steps;
    uint64_t total; /* forward steps of the whole stream, once ended */
    int phase, pausing, paused, restored, overflow;
    /* kept: the persist actions and the turn written, the walk of
     * sweep 1's reversal (segment seg, its node and stack depth) */
    uint64_t persisted, seg, depth, ws;
    int turned, walking, live;
    /* x_n a candidate for the kept (a slot free at the end: its entry is
     * e[k], the last free slot), and kept */
    int xn, xn_kept;
    struct uturn__rv_node cur;
    struct uturn__sw_data d; /* the layout of the sweeps after sweep 1 */
};

/* The byte offset of each part for s slots; [OW_PARTS]: the whole block. */
void uturn__ow_offsets(uint64_t s, size_t off[OW_PARTS + 1]);
void *uturn__ow_part(void *state, int part);

/* At the end (the online state ended, e[] its held set): choose between
 * fresh and kept and set the layout; the whole stream's forward steps
 * (UINT64_MAX: past 64 bits). The phase after sweep 1's reversal is
 * o->phase's to set by the caller. */
uint64_t uturn__ow_choose(struct ow *o, void *state);
/* Kept: the persist actions, the turn, then sweep 1's reversal; 0 once
 * it is done. */
size_t uturn__ow_keep_fill(struct ow *o, void *state, uturn_action_t *out,
                           size_t capacity);

#endif
