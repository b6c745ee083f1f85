/* uturn budget: the question, shared by its files. */
#ifndef UTURN_BUDGET_H_INCLUDED
#define UTURN_BUDGET_H_INCLUDED

#include "cli.h"

/* The most capacities a search that cannot bisect plans, one by one. */
#define BUDGET_SCAN_LIMIT 10000

enum budget_bound { BOUND_FACTOR, BOUND_COST };

struct budget_query {
    /* Everything but the capacity: planner, steps, slot_bytes, stride,
     * step_bytes and step_costs, levels (level 0's capacity left open). */
    uturn_problem_t problem;
    struct cli_levels levels;
    bool has_levels;
    /* Capacities are counted in units of this many bytes (a slot, or dp's
     * unit with --sizes), from lo (the least that can hold x_0) to hi (the
     * most a plan can use, or the most below 2^64 bytes). */
    uint64_t unit, lo, hi;
    bool hi_clipped; /* hi was cut at 2^64 bytes */
    enum budget_bound bound;
    uint64_t num, den;       /* forward_steps / steps <= num / den */
    const char *factor_text; /* num / den as the user wrote it */
    uint64_t cost;           /* cost <= this */
    bool monotone; /* the bounded quantity cannot rise with capacity */
    uint64_t *sizes, *costs; /* owned: problem.step_bytes, step_costs */
};

/* The least capacity (in units) whose plan meets the bound; CLI_OK, or an
 * exit status with the message printed (none meets it: 2). */
int budget_search(const struct budget_query *q, uint64_t *capacity);
/* The problem at a budget of bytes: for levels memory's bytes. */
void budget_problem(const struct budget_query *q, uint64_t bytes,
                    uturn_level_t *levels, uturn_problem_t *p);

#endif
