/*
 * Several reverse sweeps over one forward (revolve with sweeps = k >= 2):
 * the family of plans the sweeps planner searches, exactly.
 *
 * m persistent checkpoints x_{p_0} = x_0, .., x_{p_{m-1}} are stored by
 * the first forward (slot i holds x_{p_i}) and kept until the last sweep.
 * They cut the states x_0 .. x_n into m segments of L_0, .., L_{m-1}
 * states: segment i is x_{p_i} .. x_{p_{i+1} - 1}, and the top one,
 * segment m-1, runs to x_n (its last state is the turn). Every sweep
 * reverses the segments top down, each by revolve from its persistent
 * base:
 * - in sweeps 1 .. k-1 every segment has c = s - m + 1 slots (its base and
 *   the s - m scratch slots), and its base stays;
 * - in the last sweep the top segment has c slots too, and segment i below
 *   it has s - i (the bases above it are freed once reversed);
 * - sweep 1's top segment starts from the live x_{p_{m-1}} the first
 *   forward left.
 * So the forward steps are
 *   sum_{i < m-1} [L_i + (k-1) t(L_i, c) + t(L_i, s-i)] + k t(L_{m-1}, c),
 * each term convex in its L (its marginal is a sum of repetition numbers),
 * so the lengths that minimise it for a given m follow from one Lagrange
 * multiplier (sweeps_place.c), and the best m from trying every m.
 */
#ifndef UTURN_SWEEPS_H_INCLUDED
#define UTURN_SWEEPS_H_INCLUDED

#include "planner.h"

/* Plans of at most this many effective slots (min(s, n + 1)): choosing m
 * tries each m up to it, each in O(m log n log(k n)) repetition numbers. */
#define UTURN__SWEEPS_MAX_SLOTS ((uint64_t)UTURN_SWEEPS_MAX_SLOTS)
/* and at most this many sweeps. */
#define UTURN__SWEEPS_MAX ((uint64_t)UTURN_SWEEPS_MAX)

/* A layout: m segments, L[m-1] the top one (x_n included). */
struct uturn__sw_layout {
    uint64_t n, s, k, m;
    uint64_t *L;     /* m lengths, each >= 1, summing to n + 1 */
    uint64_t lambda; /* the placement's level: a hint in, the level out */
    /* sweeps unbounded: placed for the steady state, the least
     * sum of t(L_i, c) (what each further sweep takes); k is unused */
    bool steady;
    /* Persistent checkpoints on a further level (sweeps_levels.c): every
     * segment has c_fixed slots (its base there, c_fixed - 1 in memory)
     * in every sweep, the last included; 0: one level, c = s - m + 1 and
     * the last sweep's s - i. m is then at most s. */
    uint64_t c_fixed;
    uint64_t base_slot;    /* the slot of x_{p_0}; p_i's is base_slot + i */
    uint64_t scratch_slot; /* c_fixed: the first memory slot */
};

/* The forward steps of a layout (the formula above; steady: of one
 * further sweep, the sum of t(L_i, c)), or UINT64_MAX when they pass 64
 * bits. */
uint64_t uturn__sw_cost(const struct uturn__sw_layout *x);

/* The least-cost lengths for x->m (1 <= m <= min(s, n + 1)) into x->L
 * (room for m); returns their cost as uturn__sw_cost() would. */
uint64_t uturn__sw_place(struct uturn__sw_layout *x);

/* The best layout over every m (ties: fewer persistent checkpoints):
 * x->n, s (<= n + 1), k set; x->L has room for s lengths. Returns its
 * cost (UINT64_MAX: it overflows). */
uint64_t uturn__sw_best(struct uturn__sw_layout *x, uint64_t *scratch);

/* Predicted counts of the plan the generator makes for a layout
 * (sweeps_counts.c); UTURN_E_OVERFLOW when one passes 64 bits. */
uturn_status_t uturn__sw_counts(const struct uturn__sw_layout *x,
                                uturn_stats_t *out);

/* The counts of one sweep between the first and the last (each further
 * sweep of an unbounded plan): forward_steps, stores and restores into
 * out, and for c_fixed layouts the restores of the bases among them. */
uturn_status_t uturn__sw_middle_counts(const struct uturn__sw_layout *x,
                                       uturn_stats_t *out,
                                       uint64_t *base_restores);

/* c_fixed layouts: the restores of the bases (on the further level) over
 * the whole stream, UINT64_MAX past 64 bits. */
uint64_t uturn__sw_base_restores(const struct uturn__sw_layout *x);

/* The slots of every segment in every sweep but the last. */
static inline uint64_t uturn__sw_c(const struct uturn__sw_layout *x)
{
    return x->c_fixed != 0 ? x->c_fixed : x->s - x->m + 1;
}

/* The plan data of both entries (sweeps.c, sweeps_levels.c). */
struct uturn__sw_data {
    struct uturn__sw_layout x;
    uint64_t *p;  /* p[i]: the step segment i starts at */
    uint64_t cap; /* the lengths p and x.L hold */
    /* Online plans of several sweeps (online_sweeps.c): NULL, or the
     * plan's slot for each of the layout's (bases at base_slot + i,
     * scratch from scratch_slot); and cold: sweep 1's top segment starts
     * from its stored base, not from the live state. */
    const uint64_t *label;
    bool cold;
    /* Segments reversed by hrevolve (sweeps_hr.c): NULL, or the tables
     * (owned), the layout then one of level hr_level's slots (s its
     * effective slots, bases from base_slot = its first slot, scratch
     * from base_slot + m) and every level below. */
    struct uturn__hr_tables *hr;
    size_t hr_level;
};
/* Allocate plan->data for s lengths (layout zeroed, data_free set). */
uturn_status_t uturn__sw_data_new(uturn_plan_t *plan, uint64_t s,
                                  uturn_error_t *error);
/* Fill p[] from the lengths; the counts into plan->stats. */
uturn_status_t uturn__sw_finish(uturn_plan_t *plan, uint64_t cost,
                                uturn_error_t *error);
/* What revolve refuses, and the limits of several sweeps (sweeps.c);
 * *s: the effective slots for one level. */
uturn_status_t uturn__sw_check(const uturn_plan_t *plan, uint64_t slots,
                               uint64_t *s, uturn_error_t *error);
/* The generator of a layout (sweeps.c), for the planners of several
 * sweeps and for online plans of several sweeps (online_sweeps.c): its
 * state's bytes for walks of at most c slots; its start, with the first
 * `stored` bases already stored and marked persistent (1: x_0, the stream
 * then begins with the advance to x_{p_1}, the live state x_0); its
 * fill; and the pause at each sweep's end (planner.h's pause_sweeps,
 * paused, resume). */
size_t uturn__sw_gen_bytes(uint64_t c);
void uturn__sw_gen_start(void *state, const struct uturn__sw_data *d,
                         uint64_t stored);
size_t uturn__sw_gen_fill(void *state, uturn_action_t *restrict out,
                          size_t capacity);
void uturn__sw_gen_pause(void *state);
bool uturn__sw_gen_paused(const void *state);
void uturn__sw_gen_resume(void *state);

/* hrevolve segments (sweeps_hr.c): the best m and its lengths into x
 * (x->n, s = level q's effective slots, k and steady set; x->L with room
 * for s) for bases on level q of t, whose write and read costs are w and
 * r; scratch holds 3 s words. Returns the family's cost, saturated:
 * the plan's whole cost, or for an unbounded plan each further sweep's. */
struct uturn__hr_tables;
uturn__u128 uturn__sw_hr_place(const struct uturn__hr_tables *t, size_t q,
                               uint64_t w, uint64_t r,
                               struct uturn__sw_layout *x, uint64_t *scratch);
/* The family as an option of the levels planner (sweeps_hr_option.c):
 * tried when hrevolve's tables are small enough and the costs do not
 * decrease with the level (with three or more levels, anything else is
 * refused). When a level's plan costs less than *cost, its layout goes
 * into x (lengths into `lengths`, room for every level's slots; scratch
 * holds 3 times that), its cost into *cost, its level into *q (else 0),
 * and the tables into the plan's data. */
uturn_status_t uturn__sw_hr_try(uturn_plan_t *plan, struct uturn__sw_layout *x,
                                uint64_t *scratch, uint64_t *lengths,
                                uint64_t *cost, size_t *q,
                                uturn_error_t *error);
/* Take that layout as the plan (its data's tables set): p[], counts. */
uturn_status_t uturn__sw_hr_take(uturn_plan_t *plan,
                                 const struct uturn__sw_layout *x, size_t q,
                                 uturn_error_t *error);
/* Its counts into plan->stats and plan->level_stats (sweeps_hr_counts.c):
 * UTURN_E_OVERFLOW past 64 bits, UTURN_E_NOMEM. */
uturn_status_t uturn__sw_hr_counts(uturn_plan_t *plan,
                                   const struct uturn__hr_tables *t, size_t q,
                                   const struct uturn__sw_layout *x);

/* revolve with levels and sweeps (sweeps_levels.c). */
uturn_status_t uturn__sw_prepare_levels(uturn_plan_t *plan,
                                        uturn_error_t *error);

#endif
