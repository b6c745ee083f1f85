/*
 * The online planner with storage levels (online_disk.c, the planner;
 * online_disk_period.c, its period and its costs; online_disk_cursor.c,
 * its cursor): the periodic disk schedule of Aupy and Herrmann
 * ("Periodicity in optimal hierarchical checkpointing schemes for adjoint
 * computations", Optim. Methods Softw. 32(3), 2017), for a step count
 * found as the run goes.
 *
 * During the first sweep the slowest level (the "disk") receives x_0,
 * x_P, x_2P, ... and nothing else is stored. When the disk is full at a
 * boundary, the odd-numbered checkpoints are freed and the period
 * doubles, so the held positions are always 0, S, 2S, .. for the current
 * stride S. Once the live state is said to be the last, the turn comes,
 * then for each held checkpoint from the last: its period reversed by
 * hrevolve's optimum over every faster level and the disk slots free at
 * that moment (hrevolve_gen.c, from the checkpoint held).
 */
#ifndef UTURN_ONLINE_DISK_H_INCLUDED
#define UTURN_ONLINE_DISK_H_INCLUDED

#include "hrevolve.h"

/* The plan's own data (plan->data), immutable once prepared. */
struct uturn__od_plan {
    struct uturn__hr_tables *tables; /* every level, the disk's full slots */
    size_t top;                      /* the disk's level */
    uint64_t disk_slots, write_cost, read_cost;
    uint64_t base_top;  /* the disk's first slot */
    uint64_t period;    /* P, the first stride */
    uint64_t stride;    /* the first stride (reach + 1 with one disk slot) */
    uint64_t reach;     /* the most steps the tables cover */
    uint64_t max_steps; /* the problem's (0: none); the sweep ends at it */
};

/* The period for these levels (online_disk_period.c): the least
 * (w + r + B(p-1, 1)) / p over 1 <= p <= a search bound, ties to the
 * longer p. UTURN_E_UNSUPPORTED past hrevolve's limits (message set). */
uturn_status_t uturn__od_period(const uturn_plan_t *plan,
                                const struct uturn__hr_level *levels,
                                uint64_t *period, uturn_error_t *error);

/* Where the first sweep leaves the held checkpoints for n steps: held of
 * them, at 0, stride, 2 stride, ..., after stores stores. */
struct uturn__od_sweep {
    uint64_t held, stride, stores;
};

void uturn__od_sweep_of(const struct uturn__od_plan *p, uint64_t n,
                        struct uturn__od_sweep *out);
/* The slots and steps of held checkpoint i's reversal for n steps. */
uint64_t uturn__od_segment_slots(const struct uturn__od_plan *p, uint64_t i);
uint64_t uturn__od_segment_steps(const struct uturn__od_sweep *sw, uint64_t i,
                                 uint64_t n);
/* The realised plan's cost for 1 <= n <= reach, without generating it. */
uint64_t uturn__od_cost(const struct uturn__od_plan *p, uint64_t n);

/* The cursor (online_disk_cursor.c). */
uturn_status_t uturn__od_state_size(const uturn_plan_t *plan, size_t *bytes);
void uturn__od_start(const uturn_plan_t *plan, void *state);
size_t uturn__od_fill(void *state, uturn_action_t *out, size_t capacity);
bool uturn__od_awaits_end(const void *state);
uturn_status_t uturn__od_end(void *state);
uint64_t uturn__od_steps_known(const void *state);

#endif
