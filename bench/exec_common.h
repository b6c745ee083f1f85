/*
 * Shared by the executor benchmark's files: the model every run uses, the
 * hand-written loop it is compared with, and small measuring helpers.
 */
#ifndef UTURN_BENCH_EXEC_COMMON_H_INCLUDED
#define UTURN_BENCH_EXEC_COMMON_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uturn.h>

#define KIB ((uint64_t)1024)
#define MIB (KIB * KIB)

/* The model: forward and adjoint touch every 8-byte word of the state
 * (what a stencil or a layer does, at its cheapest), or nothing at all
 * (empty, for copy throughput). */
struct model {
    uint64_t *state; /* the live state */
    uint64_t words;  /* its size in 8-byte words */
    uint64_t acc;    /* the adjoint's accumulator: runs must agree */
    bool empty;
};

uturn_model_t bench_model(struct model *m);
void bench_model_reset(struct model *m);
int bench_forward(void *user, uint64_t step);
int bench_turn(void *user);
int bench_adjoint(void *user, uint64_t step);

/* A plan's actions as an array, for the hand loop (the executor generates
 * them itself, so generating counts against it). */
struct actions {
    uturn_action_t *list;
    uint64_t count, span;
};
void actions_of(const uturn_plan_t *plan, struct actions *out);
void actions_free(struct actions *a);

/* The hand loop's slot memory: one mapping, resized like a careful code
 * would (shrunk to a budget before a run, grown when a run needs more). */
struct region {
    unsigned char *base;
    uint64_t bytes;
};
void region_fit(struct region *r, uint64_t bytes);
void region_free(struct region *r);

/* The hand-written loop: slot k at base + k * stride (the region must hold
 * the plan's span), memcpy, the same callbacks; returns its wall
 * seconds. */
double hand_run(const struct actions *a, struct region *r, struct model *m);

/* An executor run of plan; returns its wall seconds. */
double exec_run(uturn_executor_t *ex, const uturn_plan_t *plan,
                struct model *m, uturn_report_t *report);

/* A plan with a budget of `budget` bytes for states of `bytes`. */
uturn_plan_t *bench_plan(uturn_executor_t *ex, uturn_planner_t planner,
                         uint64_t steps, uint64_t bytes, uint64_t budget);

/* Seconds on the benchmark's clock: wall, or the thread's CPU time with
 * BENCH_CLOCK=cpu (cpu_clock() says which). */
double now(void);
bool cpu_clock(void);
uint64_t minor_faults(void);
void die(const char *what);
void *xmalloc(size_t bytes);
/* Median, min and max of v[0 .. n) (sorted in place). */
void summarize(double *v, int n, double *median, double *lo, double *hi);

#endif
