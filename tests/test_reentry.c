/*
 * A callback that calls back into its own executor: a run or a sweep
 * from inside a run's callback is refused (UTURN_E_INVALID_ARG), trim and
 * release do nothing, and the run that was under way ends as if nothing
 * had been asked, its gradient bitwise that of a run left alone.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <uturn.h>

#define N 20

struct sine {
    double x, xbar;
    uturn_executor_t *ex;      /* the executor running this model */
    const uturn_plan_t *other; /* a plan to try a nested run with */
    int ask;                   /* what to ask the executor from a callback */
    uturn_status_t nested;     /* what the nested call returned */
    bool asked;
    char message[256];
};

enum { NOTHING, RUN, TRIM, SWEEP, RELEASE };

static void ask(struct sine *s)
{
    if (s->asked || s->ask == NOTHING)
        return;
    s->asked          = true;
    struct sine other = {.x = 0.5};
    uturn_model_t m;
    uturn_model_init(&m);
    uturn_error_t e;
    uturn_error_init(&e);
    if (s->ask == RUN || s->ask == SWEEP) {
        m.state       = &other.x;
        m.state_bytes = sizeof other.x;
        s->nested =
            s->ask == RUN
                ? uturn_executor_run(s->ex, s->other, &m, NULL, NULL, NULL, &e)
                : uturn_executor_sweep(s->ex, &m, NULL, NULL, &e);
        snprintf(s->message, sizeof s->message, "%s", e.message);
    } else if (s->ask == TRIM)
        uturn_executor_trim(s->ex);
    else
        uturn_executor_release(s->ex);
}

static int forward(void *user, uint64_t step)
{
    struct sine *s = user;
    (void)step;
    if (step == 12)
        ask(s);
    s->x = sin(s->x);
    return 0;
}

static int turn(void *user)
{
    struct sine *s = user;
    s->xbar        = 1.0;
    return 0;
}

static int adjoint(void *user, uint64_t step)
{
    struct sine *s = user;
    if (step == 5)
        ask(s);
    s->xbar *= cos(s->x);
    return 0;
}

static uturn_model_t model_of(struct sine *s)
{
    uturn_model_t m;
    uturn_model_init(&m);
    m.user        = s;
    m.state       = &s->x;
    m.state_bytes = sizeof s->x;
    m.forward     = forward;
    m.turn        = turn;
    m.adjoint     = adjoint;
    return m;
}

static uturn_plan_t *plan_of(uint64_t steps, uint64_t slots, uint64_t sweeps)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = steps;
    p.slots            = slots;
    p.sweeps           = sweeps;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    return plan;
}

/* The gradient of a run that asks `what` from its callbacks. */
static double gradient(int what, uint64_t slots, uturn_status_t *nested)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    uturn_plan_t *plan = plan_of(N, 3, 0), *other = plan_of(30, slots, 0);
    struct sine s         = {.x = 0.3, .ex = ex, .other = other, .ask = what};
    const uturn_model_t m = model_of(&s);
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &e),
                 UTURN_OK, "%s", e.message);
    cr_assert_eq(s.asked, what != NOTHING);
    if (what == RUN || what == SWEEP)
        cr_assert(strstr(s.message, "called from a callback") != NULL, "%s",
                  s.message);
    *nested = s.nested;
    uturn_plan_free(other);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    return s.xbar;
}

/* dJ/dx_0 for J = x_N by hand: every state kept, the adjoint's products
 * in the executor's order (x_{N-1} first). */
static double by_hand(void)
{
    double xs[N], x = 0.3, bar = 1.0;
    for (int i = 0; i < N; i++) {
        xs[i] = x;
        x     = sin(x);
    }
    for (int i = N - 1; i >= 0; i--)
        bar *= cos(xs[i]);
    return bar;
}

Test(reentry, a_run_or_trim_from_a_callback_changes_nothing)
{
    uturn_status_t st  = UTURN_OK;
    const double alone = gradient(NOTHING, 3, &st);
    cr_assert_eq(alone, by_hand(), "the run left alone is the hand adjoint");
    for (uint64_t slots = 2; slots <= 10; slots += 8) {
        cr_assert_eq(gradient(RUN, slots, &st), alone);
        cr_assert_eq(st, UTURN_E_INVALID_ARG);
    }
    cr_assert_eq(gradient(RUN, 3, &st), alone); /* the same slots */
    cr_assert_eq(st, UTURN_E_INVALID_ARG);
    cr_assert_eq(gradient(TRIM, 3, &st), alone);
}

/* Sweeps on request: a sweep or a release from a sweep's callback. */
Test(reentry, a_sweep_or_release_from_a_sweep_changes_nothing)
{
    for (int what = SWEEP; what <= RELEASE; what++) {
        uturn_executor_t *ex = NULL;
        cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
        uturn_plan_t *plan    = plan_of(N, 3, 3);
        struct sine s         = {.x = 0.3, .ex = ex};
        const uturn_model_t m = model_of(&s);
        uturn_run_options_t o;
        uturn_run_options_init(&o);
        o.sweeps_on_request = true;
        uturn_report_t r;
        uturn_report_init(&r);
        cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, &r, NULL),
                     UTURN_OK);
        const double first = s.xbar;
        cr_assert_eq(first, by_hand());
        s.ask = what; /* asked in sweep 2's adjoint */
        s.x   = 0.3;
        cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, &r, NULL), UTURN_OK);
        cr_assert(s.asked);
        cr_assert_eq(s.xbar, first, "sweep 2 is sweep 1's gradient");
        cr_assert(r.trajectory_held, "a release from a callback is ignored");
        if (what == SWEEP)
            cr_assert_eq(s.nested, UTURN_E_INVALID_ARG);
        cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, &r, NULL), UTURN_OK);
        cr_assert_eq(s.xbar, first);
        cr_assert(!r.trajectory_held);
        uturn_plan_free(plan);
        uturn_executor_free(ex);
    }
}
