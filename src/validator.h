/* The validator's state, shared by check.c and check_rules.c. */
#ifndef UTURN_VALIDATOR_H_INCLUDED
#define UTURN_VALIDATOR_H_INCLUDED

#include "internal.h"

#define UTURN__EMPTY 0 /* slot contents are step + 1 */
/* Slots below this index live in a plain array; the others in a map. */
#define UTURN__DENSE_SLOTS ((uint64_t)1 << 20)


struct uturn_validator {
    uturn_allocator_t alloc;
    uint64_t steps, capacity, slot_bytes, budget_bytes;
    const uint64_t *step_bytes; /* size of x_i, or NULL: slot_bytes */
    const uint64_t *step_costs; /* cost of F_i, or NULL: 1 */
    uint64_t *owned[2];         /* copies made by uturn_validator_create */
    uint64_t sweep_cost;        /* cost of F_0 .. F_{n-1} once */
    uint64_t *slots;            /* contents of slots 0 .. slots_len-1 */
    size_t slots_len;
    struct uturn__slot_map far; /* slots from UTURN__DENSE_SLOTS on */
    uint64_t live;              /* step of the live state, or UTURN_NONE */
    uint64_t reached;           /* the furthest state an advance reached */
    uint64_t next_reverse;
    bool turned;
    /* Several sweeps: how many the plan has, the turns so far, and the
     * slots marked persistent (slot -> 1) and how many are held. */
    uint64_t sweeps, sweep, persist_held;
    struct uturn__slot_map marks;
    uint64_t held, held_bytes, index;
    uturn_stats_t stats;
    uturn_status_t failed;
    uturn_error_t failure;
    /* Storage levels (1 without levels): each one's slots and costs, and
     * its counts as seen. */
    uint64_t level_count;
    uturn_level_t levels[UTURN__MAX_LEVELS];
    uturn_level_stats_t level_stats[UTURN__MAX_LEVELS];
    uint64_t level_held[UTURN__MAX_LEVELS];
};

/* Validate against levels (slots resolved; names are not kept); count
 * <= UTURN__MAX_LEVELS. Without a call: one level of `capacity` slots. */
void uturn__validator_set_levels(uturn_validator_t *v,
                                 const uturn_level_t *levels, uint64_t count);

/* limits: steps, slots (capacity), slot_bytes and budget_bytes (0: none);
 * step_bytes and step_costs (NULL: uniform) must outlive the validator. */
uturn_status_t uturn__validator_new(const uturn_allocator_t *alloc,
                                    const uturn_stats_t *limits,
                                    const uint64_t *step_bytes,
                                    const uint64_t *step_costs,
                                    uturn_validator_t **out);

/* Contents of slot k: step + 1, or UTURN__EMPTY. */
static inline uint64_t uturn__slot_get(const uturn_validator_t *v, uint64_t k)
{
    if (k >= UTURN__DENSE_SLOTS)
        return uturn__slot_map_get(&v->far, k);
    return k < v->slots_len ? v->slots[k] : UTURN__EMPTY;
}

/* Bytes of x_i: its own size, or slot_bytes (also for x_n). */
static inline uint64_t uturn__validator_bytes(const uturn_validator_t *v,
                                              uint64_t i)
{
    return v->step_bytes != NULL && i < v->steps ? v->step_bytes[i]
                                                 : v->slot_bytes;
}
/* Push one action; line (1-based, or 0) goes into the message. */
uturn_status_t uturn__validator_push_line(uturn_validator_t *v,
                                          const uturn_action_t *a,
                                          uint64_t line, uturn_error_t *e);

/* Finish; a broken end rule names `line` (1-based, or 0) too. */
uturn_status_t uturn__validator_finish_line(uturn_validator_t *v,
                                            uturn_stats_t *observed,
                                            uint64_t line,
                                            uturn_error_t *error);

#endif
