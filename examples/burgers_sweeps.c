/*
 * burgers_sweeps: three functionals of one Burgers run (burgers_model.h),
 * J_j = 0.5 ||u_n - target_j||^2, their gradients dJ_j/du_0 from one
 * forward and three reverse sweeps of a plan of several sweeps
 * (uturn_problem_t.sweeps = 3), each further sweep run on request.
 *
 * Checked:
 * 1. each gradient equals, bit for bit, the one a store-all run of its
 *    functional alone gives;
 * 2. each agrees with central differences of J_j in one random direction;
 * 3. the gradient asked for five times at the same control, from one
 *    plan of five sweeps, is the same bits each time;
 * 4. the forward steps the run took are the plan's, and fewer than three
 *    separate runs of revolve with the same slots take.
 *
 * Usage: burgers_sweeps [--grid N] [--steps N] [--slots S]. The exit
 * status is 0 when every check passed.
 */
#include "burgers_model.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define FUNCTIONALS 3
#define REPEATS     5
#define FD_H        1e-6
#define FD_TOL      1e-6
#define TWO_PI      6.283185307179586

struct setup {
    size_t grid;
    uint64_t steps, slots;
    double *targets[FUNCTIONALS];
    double *grads[REPEATS]; /* the gradients kept, one per sweep */
};

static bool fail(const char *what)
{
    printf("FAIL: %s\n", what);
    return false;
}

static uturn_plan_t *make_plan(const struct setup *s, uturn_planner_t pl,
                               uint64_t sweeps)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = pl;
    p.steps            = s->steps;
    p.slots            = pl == UTURN_PLANNER_STORE_ALL ? 0 : s->slots;
    p.sweeps           = sweeps;
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    if (uturn_plan_create(&p, NULL, &plan, &e) != UTURN_OK)
        printf("FAIL: plan: %s\n", e.message);
    return plan;
}

/* The sweeps of `plan` on request; before sweep j the functional is
 * targets[j % FUNCTIONALS] (or targets[0] with `same`), and its gradient
 * goes to grads[j]. */
static bool run_sweeps(struct setup *s, burgers_t *b, const uturn_plan_t *plan,
                       uint64_t sweeps, bool same, uturn_stats_t *seen)
{
    uturn_executor_t *ex = NULL;
    if (uturn_executor_create(NULL, &ex, NULL) != UTURN_OK)
        return fail("executor");
    uturn_model_t m;
    burgers_model(b, &m);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.sweeps_on_request = true;
    burgers_reset(b);
    bool ok = true;
    for (uint64_t j = 0; j < sweeps && ok; j++) {
        burgers_set_target(b, s->targets[same ? 0 : j % FUNCTIONALS]);
        const uturn_status_t st =
            j == 0 ? uturn_executor_run(ex, plan, &m, &o, seen, NULL, NULL)
                   : uturn_executor_sweep(ex, &m, seen, NULL, NULL);
        ok = st == UTURN_OK || fail("a sweep failed");
        memcpy(s->grads[j], burgers_gradient(b), s->grid * sizeof(double));
    }
    uturn_executor_free(ex);
    return ok;
}

/* Functional j alone, store-all: its gradient into out. */
static bool store_all_gradient(struct setup *s, burgers_t *b, int j,
                               double *out)
{
    uturn_plan_t *plan   = make_plan(s, UTURN_PLANNER_STORE_ALL, 1);
    uturn_executor_t *ex = NULL;
    bool ok = plan != NULL && uturn_executor_create(NULL, &ex, NULL) == 0;
    uturn_model_t m;
    burgers_model(b, &m);
    burgers_set_target(b, s->targets[j]);
    burgers_reset(b);
    ok = ok && uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, NULL) == 0;
    if (ok)
        memcpy(out, burgers_gradient(b), s->grid * sizeof(double));
    uturn_executor_free(ex);
    uturn_plan_free(plan);
    return ok || fail("store-all run");
}

/* <g, d> against (J(u0 + h d) - J(u0 - h d)) / 2h. */
static bool finite_differences(struct setup *s, burgers_t *b, int j,
                               const double *g, const double *d)
{
    const size_t n = s->grid;
    double *u0 = malloc(n * sizeof *u0), *u = malloc(n * sizeof *u);
    memcpy(u0, burgers_initial(b), n * sizeof *u0);
    burgers_set_target(b, s->targets[j]);
    double J[2], ad = 0;
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < n; i++)
            u[i] = u0[i] + (k == 0 ? FD_H : -FD_H) * d[i];
        burgers_set_initial(b, u);
        J[k] = burgers_evaluate(b);
    }
    burgers_set_initial(b, u0);
    for (size_t i = 0; i < n; i++)
        ad += g[i] * d[i];
    const double fd = (J[0] - J[1]) / (2 * FD_H);
    printf("J_%d: <grad, d> = %.12e, central difference %.12e\n", j + 1, ad,
           fd);
    free(u0);
    free(u);
    return fabs(fd - ad) <= FD_TOL * fabs(ad) || fail("finite differences");
}

/* Checks 1 and 2: the three functionals from one plan of three sweeps. */
static bool three_functionals(struct setup *s, burgers_t *b, double *truth,
                              const double *d)
{
    uturn_plan_t *plan = make_plan(s, UTURN_PLANNER_REVOLVE, FUNCTIONALS);
    uturn_plan_t *one  = make_plan(s, UTURN_PLANNER_REVOLVE, 1);
    uturn_stats_t seen, want, single;
    uturn_stats_init(&seen);
    uturn_stats_init(&want);
    uturn_stats_init(&single);
    bool ok = plan != NULL && one != NULL &&
              run_sweeps(s, b, plan, FUNCTIONALS, false, &seen);
    if (ok) {
        uturn_plan_stats(plan, &want);
        uturn_plan_stats(one, &single);
        printf("3 sweeps: %llu forward steps (%llu persistent); 3 runs of "
               "revolve: %llu\n",
               (unsigned long long)seen.forward_steps,
               (unsigned long long)want.persistent,
               (unsigned long long)(3 * single.forward_steps));
        ok = (seen.forward_steps == want.forward_steps &&
              seen.forward_steps < 3 * single.forward_steps) ||
             fail("forward steps");
    }
    for (int j = 0; j < FUNCTIONALS && ok; j++) {
        ok = store_all_gradient(s, b, j, truth);
        ok = ok && (memcmp(truth, s->grads[j], s->grid * sizeof *truth) == 0 ||
                    fail("a gradient differs from store-all's"));
        ok = ok && finite_differences(s, b, j, s->grads[j], d);
    }
    if (ok)
        printf("3 gradients bitwise equal to store-all runs\n");
    uturn_plan_free(plan);
    uturn_plan_free(one);
    return ok;
}

/* Check 3: the same gradient five times. */
static bool same_five_times(struct setup *s, burgers_t *b)
{
    uturn_plan_t *plan = make_plan(s, UTURN_PLANNER_REVOLVE, REPEATS);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    bool ok = plan != NULL && run_sweeps(s, b, plan, REPEATS, true, &seen);
    for (int j = 1; j < REPEATS && ok; j++)
        ok = memcmp(s->grads[j], s->grads[0], s->grid * sizeof(double)) == 0 ||
             fail("a repeated gradient differs");
    if (ok)
        printf("the same gradient 5 times: the same bits each time\n");
    uturn_plan_free(plan);
    return ok;
}

static bool parse(int argc, char **argv, struct setup *s)
{
    s->grid  = 128;
    s->steps = 400;
    s->slots = 8;
    for (int i = 1; i + 1 < argc; i += 2) {
        const unsigned long long v = strtoull(argv[i + 1], NULL, 10);
        if (strcmp(argv[i], "--grid") == 0)
            s->grid = (size_t)v;
        else if (strcmp(argv[i], "--steps") == 0)
            s->steps = v;
        else if (strcmp(argv[i], "--slots") == 0)
            s->slots = v;
        else
            return fail("usage: burgers_sweeps [--grid N] [--steps N] "
                        "[--slots S]");
    }
    return (argc % 2 == 1 && s->grid >= 4 && s->steps >= 1 && s->slots >= 1) ||
           fail("usage: burgers_sweeps [--grid N] [--steps N] [--slots S]");
}

int main(int argc, char **argv)
{
    struct setup s;
    memset(&s, 0, sizeof s);
    burgers_t *b = NULL;
    if (!parse(argc, argv, &s) || burgers_create(s.grid, s.steps, &b) != 0)
        return 1;
    double *d = malloc(s.grid * sizeof *d), *truth = malloc(s.grid * 8);
    srand(7);
    for (size_t i = 0; i < s.grid; i++) {
        const double x = TWO_PI * (double)i / (double)s.grid;
        d[i]           = (double)rand() / RAND_MAX - 0.5;
        for (int j = 0; j < FUNCTIONALS; j++) {
            if (s.targets[j] == NULL)
                s.targets[j] = malloc(s.grid * sizeof(double));
            s.targets[j][i] = 0.5 * sin(x - 1.0 + j) + 0.2 * cos(3 * x + j);
        }
    }
    for (int j = 0; j < REPEATS; j++)
        s.grads[j] = malloc(s.grid * sizeof(double));
    const bool ok =
        three_functionals(&s, b, truth, d) && same_five_times(&s, b);
    printf(ok ? "ok: every check passed\n" : "FAIL: see above\n");
    for (int j = 0; j < FUNCTIONALS; j++)
        free(s.targets[j]);
    for (int j = 0; j < REPEATS; j++)
        free(s.grads[j]);
    free(d);
    free(truth);
    burgers_free(b);
    return ok ? 0 : 1;
}
