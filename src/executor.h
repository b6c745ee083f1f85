/* The executor's objects, shared by executor.c, run_prep.c, run_peak.c
 * and run_loop.c. */
#ifndef UTURN_EXECUTOR_H_INCLUDED
#define UTURN_EXECUTOR_H_INCLUDED

#include "planner.h"
#include "slot_space.h"
#include "storage.h"

/* Actions read from the generator at a time. */
#define UTURN__BATCH 256

struct uturn_executor {
    uturn_allocator_t alloc;       /* the executor's own bookkeeping */
    struct uturn__storage storage; /* the slot region, kept between runs */
    struct uturn__space space;     /* where slots live in it */
    unsigned char *gen;            /* generator state, kept */
    size_t gen_bytes;
    uint64_t *hashes; /* verify mode: one per state, kept */
    uint64_t hashes_cap;
    unsigned char *records; /* step records: record_bytes per step, kept */
    uint64_t records_cap;   /* bytes */
    /* The last per-step peak found by simulating a plan (run_peak.c). */
    uint64_t peak_fingerprint, peak_bytes;
    const uturn_plan_t *peak_plan;
    uturn_action_t batch[UTURN__BATCH];
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
    bool sized;            /* states differ in size: packed blocks */
    bool contiguous;       /* model.state: memcpy */
    const uint64_t *sizes; /* the plan's step_bytes, or NULL */
    uint64_t stride;       /* uniform: bytes per slot */
    uint64_t state_bytes;  /* uniform: bytes copied per state */
    uint64_t budget;       /* 0: none */
    uint64_t need;         /* region bytes the plan's peak takes */
    unsigned char *base;   /* the region */
    uint64_t *hashes;      /* verify: hash of x_i, or 0 while unknown */
    bool online;           /* the plan's steps are unknown until its end */
    uint64_t frontier;     /* steps computed once: F_i with i < it again */
    uint64_t record_bytes; /* per step, 0: no records */
    uint64_t held_bytes;   /* bytes held as the plan counts them */
    uint64_t index;        /* of the current action */
    uturn_stats_t seen;
    uturn_report_t report;
    /* Progress over the whole run (uturn_progress_t). */
    uint64_t work_done, work_total, work_next, work_every;
    double started;
    /* Timing by sampling: see run_loop.c. */
    double spent[3];
    double mean_spent; /* running mean of the timed actions */
    uint64_t countdown, weight, random;
};

/* Preflight (run_prep.c): check the model and the budget, size storage. */
uturn_status_t uturn__run_prepare(struct uturn__run *run);
/* After the run, on every path: empty the slots, keep what the budget
 * allows. */
void uturn__run_release(struct uturn__run *run);
/* The region bytes a per-step plan's peak takes (run_peak.c). */
uturn_status_t uturn__run_sized_need(struct uturn__run *run, uint64_t *need);
/* Perform every action of the plan (run_loop.c). */
uturn_status_t uturn__run_actions(struct uturn__run *run);
/* Shared by the general loop and the fast one (run_loop.c). */
uturn_status_t uturn__run_callback_failed(struct uturn__run *run,
                                         const char *which, uint64_t step,
                                         int rc);
uturn_status_t uturn__run_progress(struct uturn__run *run);
/* Record a timed action of op (spent seconds) and draw the next gap. */
void uturn__run_sampled(struct uturn__run *run, uturn_op_t op, double spent);
uturn_status_t uturn__run_start_generator(struct uturn__run *run);
void uturn__run_start_counters(struct uturn__run *run);
/* The fast loop (run_fast.c): uniform slots at fixed strides, a
 * contiguous state, slot indices used as they are, no verify mode. */
bool uturn__run_fast_applies(const struct uturn__run *run);
uturn_status_t uturn__run_fast(struct uturn__run *run);
/* Seconds on a monotonic clock. */
double uturn__now(void);
/* Online runs and step records (run_online.c): room for what steps
 * up to `step` need (hashes, records), grown as the first sweep goes. */
uturn_status_t uturn__run_reserve_steps(struct uturn__run *run, uint64_t step);
/* One forward step, with its record when the model keeps them. */
int uturn__run_forward(struct uturn__run *run, uint64_t step);
/* After a batch of an online plan: the end asked, the next size given. */
uturn_status_t uturn__run_online_step(struct uturn__run *run,
                                      const uturn_action_t *last);
/* Give back the region and every table (executor.c). */
void uturn__executor_trim(uturn_executor_t *ex);

#endif
