/*
 * A model for the online tests that stops where it alone knows:
 * x_{i+1} = x_i + h sin(x_i + j/10) (a vector), J = |x_n|^2 / 2, is_last
 * true at stop_at (and counted); st_reference() is the store-all gradient
 * for n steps, the truth online runs are compared with bit for bit.
 * Header-only, for Criterion tests (it asserts).
 */
#ifndef UTURN_TEST_ONLINE_STOPPER_H_INCLUDED
#define UTURN_TEST_ONLINE_STOPPER_H_INCLUDED

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <uturn.h>

#define ST_DIM 24
struct stopper {
    double x[ST_DIM], xbar[ST_DIM];
    uint64_t stop_at, asked;
};

static inline int st_forward(void *u, uint64_t i)
{
    struct stopper *s = u;
    (void)i;
    for (int j = 0; j < ST_DIM; j++)
        s->x[j] += 0.01 * sin(s->x[j] + 0.1 * j);
    return 0;
}

static inline int st_turn(void *u)
{
    struct stopper *s = u;
    memcpy(s->xbar, s->x, sizeof s->x);
    return 0;
}

static inline int st_adjoint(void *u, uint64_t i)
{
    struct stopper *s = u;
    (void)i;
    for (int j = 0; j < ST_DIM; j++)
        s->xbar[j] *= 1 + 0.01 * cos(s->x[j] + 0.1 * j);
    return 0;
}

static inline int st_is_last(void *u, uint64_t step)
{
    struct stopper *s = u;
    s->asked += 1;
    return step == s->stop_at;
}

/* The model at x_0, with is_last. */
static inline uturn_model_t st_model(struct stopper *s)
{
    for (int j = 0; j < ST_DIM; j++)
        s->x[j] = 0.3 + 0.05 * j;
    uturn_model_t m;
    uturn_model_init(&m);
    m.user        = s;
    m.state       = s->x;
    m.state_bytes = sizeof s->x;
    m.forward     = st_forward;
    m.turn        = st_turn;
    m.adjoint     = st_adjoint;
    m.is_last     = st_is_last;
    return m;
}

/* The store-all gradient for n steps, into grad (ST_DIM values). */
static inline void st_reference(uint64_t n, double *grad)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_STORE_ALL;
    p.steps            = n;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(NULL, &ex, NULL), UTURN_OK);
    struct stopper s = {.stop_at = UINT64_MAX};
    uturn_model_t m  = st_model(&s);
    m.is_last        = NULL;
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, NULL),
                 UTURN_OK);
    memcpy(grad, s.xbar, sizeof s.xbar);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

#endif
