/*
 * A C consumer built through pkg-config: a Duffing oscillator by explicit
 * Euler, q' = q + h p, p' = p - h (q + q^3 + g p), J = (q_n^2 + p_n^2) / 2.
 * The state lives in the model's own struct and reaches the executor
 * through save/load; the run uses the sqrt planner in verify mode. The
 * gradient dJ/d(q_0, p_0) must match central differences.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <uturn.h>

#define STEPS 500u
#define H     0.01
#define G     0.1

typedef struct duffing {
    double q, p;       /* the live state */
    double qbar, pbar; /* the adjoint */
    double J;
} duffing_t;

static void step(double *q, double *p)
{
    const double q0 = *q;
    *q += H * *p;
    *p -= H * (q0 + q0 * q0 * q0 + G * *p);
}

static int forward(void *user, uint64_t i)
{
    duffing_t *d = user;
    (void)i;
    step(&d->q, &d->p);
    return 0;
}

static int turn(void *user)
{
    duffing_t *d = user;
    d->J         = 0.5 * (d->q * d->q + d->p * d->p);
    d->qbar      = d->q;
    d->pbar      = d->p;
    return 0;
}

static int adjoint(void *user, uint64_t i) /* d->q, d->p hold x_i */
{
    duffing_t *d       = user;
    const double qbar1 = d->qbar, pbar1 = d->pbar;
    (void)i;
    d->qbar = qbar1 - pbar1 * H * (1.0 + 3.0 * d->q * d->q);
    d->pbar = qbar1 * H + pbar1 * (1.0 - H * G);
    return 0;
}

static int save(void *user, uint64_t i, void *dst, uint64_t bytes)
{
    const duffing_t *d = user;
    const double x[2]  = {d->q, d->p};
    (void)i;
    memcpy(dst, x, (size_t)bytes);
    return 0;
}

static int load(void *user, uint64_t i, const void *src, uint64_t bytes)
{
    duffing_t *d = user;
    double x[2];
    (void)i;
    memcpy(x, src, (size_t)bytes);
    d->q = x[0];
    d->p = x[1];
    return 0;
}

static double objective(double q, double p)
{
    for (unsigned i = 0; i < STEPS; i++)
        step(&q, &p);
    return 0.5 * (q * q + p * p);
}

int main(void)
{
    const double q0 = 1.0, p0 = -0.5, eps = 1e-6;
    duffing_t d = {.q = q0, .p = p0};
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_stats_t predicted, observed;
    uturn_stats_init(&predicted);
    uturn_stats_init(&observed);
    uturn_problem_t problem;
    uturn_problem_init(&problem);
    problem.planner    = UTURN_PLANNER_SQRT;
    problem.steps      = STEPS;
    problem.slot_bytes = 2 * sizeof(double);
    uturn_model_t model;
    uturn_model_init(&model);
    model.user        = &d;
    model.forward     = forward;
    model.turn        = turn;
    model.adjoint     = adjoint;
    model.save        = save;
    model.load        = load;
    model.state_bytes = 2 * sizeof(double);
    uturn_run_options_t options;
    uturn_run_options_init(&options);
    options.verify = true;

    uturn_executor_t *ex = NULL;
    uturn_plan_t *plan   = NULL;
    uturn_status_t st    = uturn_executor_create(NULL, &ex, &err);
    if (st == UTURN_OK)
        st = uturn_executor_plan(ex, &problem, &plan, &err);
    if (st == UTURN_OK)
        st = uturn_plan_stats(plan, &predicted);
    if (st == UTURN_OK)
        st = uturn_executor_run(ex, plan, &model, &options, &observed, NULL,
                                &err);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    if (st != UTURN_OK) {
        fprintf(stderr, "FAIL: %s: %s\n", uturn_status_name(st), err.message);
        return 1;
    }

    const double fq =
        (objective(q0 + eps, p0) - objective(q0 - eps, p0)) / (2 * eps);
    const double fp =
        (objective(q0, p0 + eps) - objective(q0, p0 - eps)) / (2 * eps);
    const int ok = fabs(d.qbar - fq) < 1e-6 && fabs(d.pbar - fp) < 1e-6 &&
                   observed.forward_steps == predicted.forward_steps &&
                   observed.peak_slots == predicted.peak_slots;
    printf("uturn %s: J = %.12f, dJ/dx0 = (%.10f, %.10f), "
           "central differences (%.10f, %.10f)\n",
           uturn_version_string(), d.J, d.qbar, d.pbar, fq, fp);
    printf("sqrt plan, verified: forward_steps %llu, stores %llu, "
           "peak_slots %llu\n",
           (unsigned long long)observed.forward_steps,
           (unsigned long long)observed.stores,
           (unsigned long long)observed.peak_slots);
    printf("%s\n", ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}
