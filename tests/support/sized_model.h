/* A model whose state is up to 64 doubles, x_step holding len(step) of
 * them: for online plans on a byte budget whose sizes come as the run
 * goes (tests/test_online.c, tests/test_online_bytes.c). Header-only;
 * include it after Criterion, whose asserts its callbacks use. */
#ifndef UTURN_SIZED_MODEL_H_INCLUDED
#define UTURN_SIZED_MODEL_H_INCLUDED

#include <math.h>
#include <string.h>
#include <uturn.h>

struct sized {
    double x[64], xbar[64];
    uint64_t stop_at;
    uint64_t (*len)(uint64_t step); /* doubles in x_step, 1 .. 64 */
};

static inline uint64_t sz_size(void *u, uint64_t step)
{
    return ((const struct sized *)u)->len(step) * sizeof(double);
}

static inline int sz_forward(void *u, uint64_t i)
{
    struct sized *s = u;
    for (uint64_t j = 0; j < 64; j++)
        s->x[j] = j < s->len(i + 1) ? s->x[j] + 0.01 * sin(s->x[j]) : 0.5;
    return 0;
}

static inline int sz_turn(void *u)
{
    struct sized *s = u;
    memcpy(s->xbar, s->x, sizeof s->x);
    return 0;
}

static inline int sz_adjoint(void *u, uint64_t i)
{
    struct sized *s = u;
    for (uint64_t j = 0; j < 64; j++)
        s->xbar[j] = j < s->len(i + 1) && j < s->len(i)
                         ? s->xbar[j] * (1 + 0.01 * cos(s->x[j]))
                         : 0;
    return 0;
}

static inline int sz_save(void *u, uint64_t step, void *dst, uint64_t bytes)
{
    const struct sized *s = u;
    cr_assert_eq(bytes, sz_size(u, step));
    memcpy(dst, s->x, bytes);
    return 0;
}

static inline int sz_load(void *u, uint64_t step, const void *src,
                          uint64_t bytes)
{
    struct sized *s = u;
    cr_assert_eq(bytes, sz_size(u, step));
    memcpy(s->x, src, bytes);
    for (uint64_t j = s->len(step); j < 64; j++)
        s->x[j] = 0.5;
    return 0;
}

static inline int sz_is_last(void *u, uint64_t step)
{
    return step == ((struct sized *)u)->stop_at;
}

/* Run plan for n steps (the model says x_n is the last); the gradient
 * into grad (64 doubles), the counts into seen and rep. */
static inline void sz_run(uturn_executor_t *ex, const uturn_plan_t *plan,
                          uint64_t n, uint64_t (*len)(uint64_t),
                          uturn_run_options_t *o, double *grad,
                          uturn_stats_t *seen, uturn_report_t *rep)
{
    struct sized s = {.stop_at = n, .len = len};
    for (uint64_t j = 0; j < 64; j++)
        s.x[j] = j < len(0) ? 0.2 + 0.1 * (double)j : 0.5;
    uturn_model_t m;
    uturn_model_init(&m);
    m.user       = &s;
    m.forward    = sz_forward;
    m.turn       = sz_turn;
    m.adjoint    = sz_adjoint;
    m.save       = sz_save;
    m.load       = sz_load;
    m.state_size = sz_size;
    m.is_last    = sz_is_last;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, o, seen, rep, &err),
                 UTURN_OK, "%s", err.message);
    memcpy(grad, s.xbar, sizeof s.xbar);
}

/* The truth: the gradient of a store-all run of n steps, every state
 * kept at its own size, into grad (64 doubles). */
static inline void sz_store_all(uturn_executor_t *ex, uint64_t n,
                                uint64_t (*len)(uint64_t), double *grad)
{
    uturn_problem_t all;
    uturn_problem_init(&all);
    all.planner       = UTURN_PLANNER_STORE_ALL;
    all.steps         = n;
    all.slot_bytes    = 64 * sizeof(double);
    uturn_plan_t *ref = NULL;
    cr_assert_eq(uturn_plan_create(&all, NULL, &ref, NULL), UTURN_OK);
    uturn_stats_t seen;
    uturn_report_t rep;
    uturn_stats_init(&seen);
    uturn_report_init(&rep);
    sz_run(ex, ref, n, len, NULL, grad, &seen, &rep);
    uturn_plan_free(ref);
}

#endif
