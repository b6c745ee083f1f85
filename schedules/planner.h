/*
 * The one interface every planner implements. src/plan.c holds the only
 * table of planners; a planner never includes another.
 */
#ifndef UTURN_PLANNER_H_INCLUDED
#define UTURN_PLANNER_H_INCLUDED

#include "internal.h"

/* fill() is always given room for at least this many actions. */
#define UTURN__FILL_MIN 4

struct uturn__planner {
    uturn_planner_t id;
    const char *name;
    /* Resolve capacity and parameters in plan->problem (whose shared fields
     * uturn__problem_resolve() has checked) and predict plan->stats counts:
     * forward_steps, reverse_steps, stores, restores, frees, peak_slots,
     * actions and slots. plan.c fills the derived ones; a planner that
     * sets forward_cost also sets recompute_cost and peak_bytes. */
    uturn_status_t (*prepare)(uturn_plan_t *plan, uturn_error_t *error);
    /* Bytes of generator state one cursor needs. */
    uturn_status_t (*state_size)(const uturn_plan_t *plan, size_t *bytes);
    /* Put the generator at the plan's first action. */
    void (*start)(const uturn_plan_t *plan, void *state);
    /* Write up to capacity (>= UTURN__FILL_MIN) next actions; 0 at the end. */
    size_t (*fill)(void *state, uturn_action_t *out, size_t capacity);
    /* Feed what determines the action stream to the fingerprint (after
     * the planner id, which fingerprint.c feeds); NULL: steps, slots and
     * stride as resolved. */
    void (*fingerprint)(const uturn_plan_t *plan, struct uturn__hasher *h);
    /* true: plans several storage levels (plan->levels, resolved) and
     * fills plan->level_stats in prepare; false: one level, whose counts
     * plan.c takes from the plan's. */
    bool levels;
    /* Online planners only (NULL for the others). During the first sweep
     * fill() stops right after each `advance i i+1`; then awaits_end() is
     * true and end() says "the live state is the last". With a byte
     * budget, set_size() gives the size of each new state before the next
     * fill (x_0 before the first). steps_known() is n once ended, else 0;
     * forward_total() the forward steps the whole run will take, once
     * ended (UINT64_MAX when that overflowed). */
    bool (*awaits_end)(const void *state);
    uturn_status_t (*end)(void *state);
    uturn_status_t (*set_size)(void *state, uint64_t step, uint64_t bytes);
    uint64_t (*steps_known)(const void *state);
    uint64_t (*forward_total)(const void *state);
    /* Online planners, optional: fill() that also adds what it wrote to
     * *counted, as uturn__count_actions() would, faster. */
    size_t (*fill_counted)(void *state, uturn_action_t *out, size_t capacity,
                           uturn_stats_t *counted, uint64_t *held);
    /* Online planners whose fill_counted does not count their reversal
     * (NULL for the others): add to *s the actions, forward steps, stores,
     * restores, frees and reverses it wrote so far. The reversal must
     * then raise no peak: the counted one stands. */
    void (*reversal_counts)(const void *state, uturn_stats_t *s);
    /* Online planners with a byte budget (sizes arrive as the run goes). */
    bool (*sized)(const uturn_plan_t *plan);
    /* Online planners that predict it (NULL for the others): the cost of
     * the plan realised for a given n, without generating it. */
    uturn_status_t (*realised_cost)(const uturn_plan_t *plan, uint64_t steps,
                                    uint64_t *cost, uturn_error_t *error);
    /* Planners of several sweeps, for sweeps on request (NULL for the
     * others): after pause_sweeps(), fill() returns 0 at the end of each
     * sweep but the last (paused() is then true) until resume(). Without
     * pause_sweeps() the stream runs through every sweep. */
    void (*pause_sweeps)(void *state);
    bool (*paused)(const void *state);
    void (*resume)(void *state);
    /* Online planners whose state grows once the sizes say how many slots
     * the budget holds (NULL for the others): after each set_size(), the
     * bytes of the block the state must move into (0: it stays where it
     * is; SIZE_MAX: more than can be had), and the move of the state into
     * such a block. A fill() before the move fails the plan (UTURN_E_NOMEM);
     * uturn__gen_set_size() does both for every caller. */
    size_t (*state_need)(const void *state);
    void (*state_move)(const void *old, void *fresh);
};

/* Write one action; returns 1, the number written. Every generator uses
 * these, so an action is always filled the same way. */
static inline size_t uturn__put(uturn_action_t *out, uturn_op_t op,
                                uint64_t step, uint64_t step_end, uint64_t slot)
{
    out->op       = op;
    out->step     = step;
    out->step_end = step_end;
    out->slot     = slot;
    return 1;
}

/* Reverse the live x_i of an n-step chain: the turn for x_n. */
static inline size_t uturn__put_reverse(uturn_action_t *out, uint64_t i,
                                        uint64_t n)
{
    if (i == n)
        return uturn__put(out, UTURN_OP_TURN, 0, 0, 0);
    return uturn__put(out, UTURN_OP_REVERSE, i, 0, 0);
}

/* An online plan's prepare, once it knows its slots s and the bytes of
 * its generator state (0: they do not fit): what is known before the run
 * is the capacity; the counts come from the cursor (uturn_cursor_stats)
 * or the run once n is found. */
static inline uturn_status_t uturn__online_capacity(uturn_plan_t *plan,
                                                    uint64_t s,
                                                    size_t state_bytes,
                                                    uturn_error_t *error)
{
    if (state_bytes == 0)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "the online planner's state for %llu slots does "
                           "not fit",
                           (unsigned long long)s);
    plan->stats.online     = true;
    plan->stats.slots      = s;
    plan->stats.peak_slots = s;
    plan->slot_span        = s;
    return UTURN_OK;
}

/* g->set_size() on the generator state *state of *bytes bytes, then its
 * growth when the planner asks (state_need, state_move), into memory from
 * @p alloc (the old block freed). UTURN_E_NOMEM when the larger state
 * cannot be had: the plan then stops (its next fill gives nothing). */
uturn_status_t uturn__gen_set_size(const struct uturn__planner *g,
                                   const uturn_allocator_t *alloc,
                                   unsigned char **state, size_t *bytes,
                                   uint64_t step, uint64_t size);

/* Add actions a[0 .. n) to *s: actions, forward_steps, stores, frees,
 * restores, reverse_steps, and peak_slots from *held, the slots held
 * (updated). An online cursor's count (cursor.c). */
void uturn__count_actions(uturn_stats_t *s, uint64_t *held,
                          const uturn_action_t *a, size_t n);

extern const struct uturn__planner uturn__store_all;
extern const struct uturn__planner uturn__periodic;
extern const struct uturn__planner uturn__sqrt;
extern const struct uturn__planner uturn__revolve;
extern const struct uturn__planner uturn__dp;
extern const struct uturn__planner uturn__hrevolve;
extern const struct uturn__planner uturn__online;
extern const struct uturn__planner uturn__online_slots;
/* online's byte budgets whose sizes come as the run goes (same id). */
extern const struct uturn__planner uturn__online_bytes;
/* online's plans of several sweeps, uniform slots (same id). */
extern const struct uturn__planner uturn__online_sweeps;
/* online's problems with several levels (same id and name). */
extern const struct uturn__planner uturn__online_disk;
extern const struct uturn__planner uturn__parsed;
/* revolve's problems with sweeps >= 2 (same id and name), on one level
 * and on two. */
extern const struct uturn__planner uturn__revolve_sweeps;
extern const struct uturn__planner uturn__revolve_sweeps_levels;

/* periodic.c, for sqrt.c: prepare periodic with a fixed stride k. */
uturn_status_t uturn__periodic_prepare_stride(uturn_plan_t *plan, uint64_t k,
                                              uturn_error_t *error);
uturn_status_t uturn__periodic_state_size(const uturn_plan_t *plan,
                                          size_t *bytes);
void uturn__periodic_start(const uturn_plan_t *plan, void *state);
size_t uturn__periodic_fill(void *state, uturn_action_t *out, size_t capacity);
void uturn__periodic_fingerprint(const uturn_plan_t *plan,
                                 struct uturn__hasher *h);

/* periodic_choose.c: peak slots of stride k for n steps (1 <= k <= n). */
#define UTURN__PERIODIC_CHOOSE_MAX ((uint64_t)1 << 40)
uint64_t uturn__periodic_peak(uint64_t n, uint64_t k);
/* Forward steps of stride k: n + (m-1)(k-1); may exceed 2^64 only as an
 * overflow, reported by the status. */
uturn_status_t uturn__periodic_forward(uint64_t n, uint64_t k, uint64_t *out);
/* The stride with the fewest forward steps whose peak fits in slots (ties:
 * fewer peak slots, then the smaller k). false when none fits; then
 * *min_slots is the least capacity any stride needs. */
bool uturn__periodic_choose(uint64_t n, uint64_t slots, uint64_t *k,
                            uint64_t *min_slots);

#endif
