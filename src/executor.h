/* The executor's objects, shared by executor.c, run_prep.c and run_loop.c. */
#ifndef UTURN_EXECUTOR_H_INCLUDED
#define UTURN_EXECUTOR_H_INCLUDED

#include "storage.h"

struct uturn_executor {
    uturn_allocator_t alloc; /* for the executor's own bookkeeping */
    struct uturn__storage storage;
    void **pool; /* uniform slot buffers kept between runs (slot_pool.c) */
    uint64_t pool_count, pool_capacity, pool_bytes;
};

enum uturn__cost_kind { COST_FORWARD, COST_ADJOINT, COST_COPY, COST_NONE };

/* One run's state; lives on uturn_executor_run()'s stack. */
struct uturn__run {
    uturn_executor_t *ex;
    const uturn_plan_t *plan;
    uturn_model_t model; /* the caller's, copied at its size */
    uturn_run_options_t options;
    uturn_error_t *error;
    uint64_t steps;
    bool per_step;        /* states differ in size: allocate at store */
    uint64_t slot_cost;   /* uniform: real bytes of one slot */
    void **slot;          /* slot index -> buffer, slot_span entries */
    uint64_t *slot_bytes; /* per_step: bytes asked for each held slot */
    void **pool;          /* uniform: the executor's buffers, ready up front */
    uint64_t pool_size, pool_free; /* pool[0 .. pool_free) are unused */
    uint64_t *hashes;              /* verify: hash of x_i, or 0 while unknown */
    uint64_t held_real, peak_real; /* real bytes in slots (per-step) */
    uint64_t held_bytes;           /* bytes held as the plan counts them */
    uint64_t index;                /* of the current action */
    uturn_stats_t seen;
    uturn_report_t report;
    /* Timing by sampling: see run_loop.c. */
    double spent[3];
    double mean_spent; /* running mean of the timed actions */
    uint64_t countdown, weight, random;
};

/* The kept buffers (slot_pool.c): exactly count of bytes each. */
uturn_status_t uturn__pool_fit(uturn_executor_t *ex, uint64_t count,
                               uint64_t bytes);
void uturn__pool_trim(uturn_executor_t *ex);

/* Preflight (run_prep.c): check the model and the budget, allocate. */
uturn_status_t uturn__run_prepare(struct uturn__run *run);
/* Free everything the run allocated, on every path. */
void uturn__run_release(struct uturn__run *run);
/* Perform every action of the plan (run_loop.c). */
uturn_status_t uturn__run_actions(struct uturn__run *run);
/* Seconds on a monotonic clock. */
double uturn__now(void);

#endif
