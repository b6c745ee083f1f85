/*
 * A C consumer built through find_package(uturn): x_{i+1} = x_i / (1 + h x_i)
 * has the closed form x_n = x_0 / (1 + n h x_0), so with J = x_n the
 * gradient is dJ/dx_0 = 1 / (1 + n h x_0)^2. Revolve with 5 slots reverses
 * 1000 steps; the program exits 0 when the gradient is right.
 */
#include <math.h>
#include <stdio.h>
#include <uturn.h>

#define STEPS 1000u
#define H     0.01

typedef struct decay {
    double x, xbar, J;
} decay_t;

static int forward(void *user, uint64_t step)
{
    decay_t *d = user;
    (void)step;
    d->x = d->x / (1.0 + H * d->x);
    return 0;
}

static int turn(void *user)
{
    decay_t *d = user;
    d->J       = d->x;
    d->xbar    = 1.0;
    return 0;
}

static int adjoint(void *user, uint64_t step) /* d->x holds x_step */
{
    decay_t *d     = user;
    const double s = 1.0 + H * d->x;
    (void)step;
    d->xbar /= s * s;
    return 0;
}

int main(void)
{
    const double x0 = 2.0;
    decay_t d       = {.x = x0};
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_stats_t stats;
    uturn_stats_init(&stats);
    uturn_problem_t problem;
    uturn_problem_init(&problem);
    problem.planner    = UTURN_PLANNER_REVOLVE;
    problem.steps      = STEPS;
    problem.slots      = 5;
    problem.slot_bytes = sizeof d.x;
    uturn_model_t model;
    uturn_model_init(&model);
    model.user        = &d;
    model.forward     = forward;
    model.turn        = turn;
    model.adjoint     = adjoint;
    model.state       = &d.x;
    model.state_bytes = sizeof d.x;

    uturn_executor_t *ex = NULL;
    uturn_plan_t *plan   = NULL;
    uturn_status_t st    = uturn_executor_create(NULL, &ex, &err);
    if (st == UTURN_OK)
        st = uturn_executor_plan(ex, &problem, &plan, &err);
    if (st == UTURN_OK)
        st = uturn_executor_run(ex, plan, &model, NULL, &stats, NULL, &err);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    if (st != UTURN_OK) {
        fprintf(stderr, "FAIL: %s: %s\n", uturn_status_name(st), err.message);
        return 1;
    }

    const double s    = 1.0 + STEPS * H * x0;
    const double want = 1.0 / (s * s);
    const int ok      = fabs(d.xbar - want) <= 1e-12 &&
                   fabs(d.J - x0 / s) <= 1e-12 &&
                   uturn_version_number() == UTURN_VERSION_NUMBER;
#ifdef UTURN_STATIC_DEFINE /* set by uturn::uturn_static */
    const char *linked = "static";
#else
    const char *linked = "shared";
#endif
    printf("uturn %s (%s, headers %s): J = %.15f, dJ/dx0 = %.15f, "
           "analytic %.15f\n",
           uturn_version_string(), linked, UTURN_VERSION_STRING, d.J, d.xbar,
           want);
    printf(
        "forward_steps %llu, recomputed %llu, stores %llu, peak_slots %llu\n",
        (unsigned long long)stats.forward_steps,
        (unsigned long long)stats.recomputed_steps,
        (unsigned long long)stats.stores, (unsigned long long)stats.peak_slots);
    printf("%s\n", ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}
