/*
 * minimal: the smallest complete uturn program.
 *
 * The model is x_{i+1} = sin(x_i) for i = 0 .. n-1 with J = x_n, so
 * dJ/dx_0 = cos(x_0) cos(x_1) ... cos(x_{n-1}). uturn plans a revolve
 * schedule that keeps at most a few doubles in checkpoints, and its executor
 * runs the forward and adjoint steps to that plan. The program prints the
 * gradient and the counts and exits 0 when the gradient matches the product
 * of cosines.
 *
 * Build: cc -std=c11 minimal.c -luturn -lm
 */
#include <math.h>
#include <stdio.h>
#include <uturn.h>

#define STEPS  1000u /* n */
#define STATES 8u    /* the budget: room for this many checkpointed states */

/* Everything the callbacks touch; the executor sees only `x`. */
typedef struct toy {
    double x;    /* the live state x_i */
    double xbar; /* dJ/dx_i */
    double J;
} toy_t;

static int toy_forward(void *user, uint64_t step)
{
    toy_t *toy = user;
    (void)step;
    toy->x = sin(toy->x);
    return 0;
}

static int toy_turn(void *user)
{
    toy_t *toy = user;
    toy->J     = toy->x;
    toy->xbar  = 1.0; /* dJ/dx_n */
    return 0;
}

/* The executor hands us x_step in toy->x: xbar_step = cos(x_step) xbar. */
static int toy_adjoint(void *user, uint64_t step)
{
    toy_t *toy = user;
    (void)step;
    toy->xbar *= cos(toy->x);
    return 0;
}

/* The reference: the product of cosines along one plain forward sweep. */
static double expected_gradient(double x0)
{
    double x = x0, g = 1.0;
    for (unsigned i = 0; i < STEPS; i++) {
        g *= cos(x);
        x = sin(x);
    }
    return g;
}

/* Plan revolve for a budget of STATES states and run it. */
static uturn_status_t solve(uturn_executor_t *ex, toy_t *toy,
                            uturn_stats_t *stats, uturn_report_t *report,
                            uturn_error_t *err)
{
    uturn_problem_t problem;
    uturn_problem_init(&problem);
    problem.planner      = UTURN_PLANNER_REVOLVE;
    problem.steps        = STEPS;
    problem.slot_bytes   = sizeof toy->x;
    problem.budget_bytes = STATES * sizeof toy->x;
    uturn_plan_t *plan   = NULL;
    uturn_status_t st    = uturn_executor_plan(ex, &problem, &plan, err);
    if (st != UTURN_OK)
        return st;

    uturn_model_t model;
    uturn_model_init(&model);
    model.user        = toy;
    model.forward     = toy_forward;
    model.turn        = toy_turn;
    model.adjoint     = toy_adjoint;
    model.state       = &toy->x;
    model.state_bytes = sizeof toy->x;
    st = uturn_executor_run(ex, plan, &model, NULL, stats, report, err);
    uturn_plan_free(plan);
    return st;
}

int main(void)
{
    const double x0      = 1.0;
    toy_t toy            = {.x = x0};
    uturn_executor_t *ex = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_stats_t stats;
    uturn_stats_init(&stats);
    uturn_report_t report;
    uturn_report_init(&report);
    uturn_status_t st = uturn_executor_create(NULL, &ex, &err);
    if (st == UTURN_OK)
        st = solve(ex, &toy, &stats, &report, &err);
    uturn_executor_free(ex);
    if (st != UTURN_OK) {
        fprintf(stderr, "minimal: FAIL: %s: %s\n", uturn_status_name(st),
                err.message);
        return 1;
    }

    const double want = expected_gradient(x0);
    const int ok      = fabs(toy.xbar - want) <= 1e-12 * fabs(want);
    printf("J = x_n = %.17g\n", toy.J);
    printf("dJ/dx_0 = %.17g (product of cosines: %.17g)\n", toy.xbar, want);
    printf("steps %llu, forward_steps %llu, recomputed_steps %llu, "
           "stores %llu, restores %llu, peak_slots %llu\n",
           (unsigned long long)stats.steps,
           (unsigned long long)stats.forward_steps,
           (unsigned long long)stats.recomputed_steps,
           (unsigned long long)stats.stores, (unsigned long long)stats.restores,
           (unsigned long long)stats.peak_slots);
    printf("slot bytes %llu, peak bytes planned %llu, measured %llu%s\n",
           (unsigned long long)report.slot_bytes,
           (unsigned long long)report.planned_peak_bytes,
           (unsigned long long)report.measured_peak_bytes,
           report.jemalloc ? " (jemalloc arena)" : "");
    printf("%s\n", ok ? "ok" : "FAIL: the gradient is wrong");
    return ok ? 0 : 1;
}
