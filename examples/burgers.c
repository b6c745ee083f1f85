/*
 * burgers: dJ/du_0 of 1D viscous Burgers (burgers_model.h) through the
 * uturn executor, checked two ways.
 *
 * 1. A Taylor test: with the gradient g from a store-all run and a fixed
 *    direction d, the remainder |J(u0 + h d) - J(u0) - h <g, d>| must
 *    shrink at second order as h halves (the observed orders are printed).
 * 2. Bitwise reproducibility: under every planner and every feasible
 *    budget, from the least one up to store-all in steps of one slot, the
 *    gradient and J must equal the store-all ones bit for bit.
 *
 * Usage: burgers [--json] [--grid N] [--steps N]. The exit status is 0
 * when every check passed.
 */
#include "burgers_model.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define DEFAULT_GRID  128u
#define DEFAULT_STEPS 200u
#define TAYLOR_POINTS 7 /* h = TAYLOR_H0 / 2^k, k = 0 .. 6 */
#define TAYLOR_H0     0.05
#define ORDER_LOW     1.8 /* every observed order must lie in this range */
#define ORDER_HIGH    2.2
#define PLANNERS      4

static const uturn_planner_t PLANNER_LIST[PLANNERS] = {
    UTURN_PLANNER_STORE_ALL, UTURN_PLANNER_PERIODIC, UTURN_PLANNER_SQRT,
    UTURN_PLANNER_REVOLVE};

/* The budget sweep of one planner. */
typedef struct sweep {
    uint64_t min_slots; /* the least feasible budget, in slots */
    uint64_t runs;      /* budgets run */
    uint64_t equal;     /* runs whose gradient and J matched bit for bit */
    uint64_t max_recomputed;
    bool ok;
} sweep_t;

/* Everything the report prints. */
typedef struct results {
    size_t grid;
    uint64_t steps;
    double dx, dt, nu;
    double objective;
    double gradient_norm;
    double taylor_h[TAYLOR_POINTS];
    double taylor_rem[TAYLOR_POINTS];
    double taylor_orders[TAYLOR_POINTS - 1];
    sweep_t sweeps[PLANNERS];
    bool ok;
} results_t;

/* Plan @p problem at the executor's real slot cost, reset the model, run
 * it. */
static uturn_status_t run_once(uturn_executor_t *ex, burgers_t *b,
                               const uturn_problem_t *problem,
                               uturn_stats_t *stats, uturn_error_t *err)
{
    uturn_plan_t *plan = NULL;
    uturn_status_t st  = uturn_executor_plan(ex, problem, &plan, err);
    if (st != UTURN_OK)
        return st;
    uturn_model_t model;
    burgers_model(b, &model);
    burgers_reset(b);
    st = uturn_executor_run(ex, plan, &model, NULL, stats, NULL, err);
    uturn_plan_free(plan);
    return st;
}

static void problem_for(const burgers_t *b, uturn_planner_t planner,
                        uturn_problem_t *p)
{
    uturn_problem_init(p);
    p->planner    = planner;
    p->steps      = burgers_steps(b);
    p->slot_bytes = (uint64_t)(burgers_grid(b) * sizeof(double));
}

/* The least budget, in slots, the planner accepts: one slot, or the
 * minimum its infeasibility error names. 0 on failure. */
static uint64_t least_slots(const uturn_executor_t *ex, const burgers_t *b,
                            uturn_planner_t planner, uint64_t slot)
{
    uturn_problem_t p;
    problem_for(b, planner, &p);
    p.budget_bytes     = slot;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_executor_plan(ex, &p, &plan, &err);
    uturn_plan_free(plan);
    if (st == UTURN_OK)
        return 1;
    if (st != UTURN_E_INFEASIBLE || err.minimum_slots == 0) {
        fprintf(stderr, "burgers: FAIL: %s: no minimum budget (%s): %s\n",
                uturn_planner_name(planner), uturn_status_name(st),
                err.message);
        return 0;
    }
    return err.minimum_slots;
}

/* One budget of a sweep: run it and compare with the reference. */
static bool sweep_one(uturn_executor_t *ex, burgers_t *b,
                      uturn_planner_t planner, uint64_t budget,
                      const double *ref, double ref_j, sweep_t *out)
{
    uturn_problem_t p;
    problem_for(b, planner, &p);
    p.budget_bytes = budget;
    uturn_stats_t stats;
    uturn_stats_init(&stats);
    uturn_error_t err;
    uturn_error_init(&err);
    if (run_once(ex, b, &p, &stats, &err) != UTURN_OK) {
        fprintf(stderr, "burgers: FAIL: %s, budget %llu bytes: %s\n",
                uturn_planner_name(planner), (unsigned long long)budget,
                err.message);
        return false;
    }
    const size_t bytes = burgers_grid(b) * sizeof *ref;
    const double j     = burgers_objective(b);
    out->runs++;
    if (memcmp(ref, burgers_gradient(b), bytes) == 0 && j == ref_j)
        out->equal++;
    if (stats.recomputed_steps > out->max_recomputed)
        out->max_recomputed = stats.recomputed_steps;
    return true;
}

/* Every budget from the least feasible one to store-all's. */
static void sweep_planner(uturn_executor_t *ex, burgers_t *b,
                          uturn_planner_t planner, const double *ref,
                          double ref_j, sweep_t *out)
{
    memset(out, 0, sizeof *out);
    uint64_t slot = 0;
    if (uturn_executor_slot_bytes(ex,
                                  (uint64_t)(burgers_grid(b) * sizeof(double)),
                                  &slot) != UTURN_OK)
        return;
    out->min_slots = least_slots(ex, b, planner, slot);
    if (out->min_slots == 0)
        return;
    bool ran = true;
    for (uint64_t s = out->min_slots; s <= burgers_steps(b) && ran; s++) {
        /* The least budget that holds s slots (whole pages count). */
        uint64_t budget = 0;
        ran = uturn_executor_budget(ex, slot, s, &budget) == UTURN_OK &&
              sweep_one(ex, b, planner, budget, ref, ref_j, out);
    }
    out->ok = ran && out->runs > 0 && out->equal == out->runs;
}

/* The Taylor remainders along the direction d_i = cos(0.37 i + 0.2), and
 * the observed orders log2(r(h) / r(h/2)). */
static int taylor_test(burgers_t *b, const double *g, results_t *res)
{
    const size_t n   = burgers_grid(b);
    double *const u0 = malloc(2 * n * sizeof *u0);
    if (u0 == NULL)
        return -1;
    double *const u = u0 + n;
    memcpy(u0, burgers_initial(b), n * sizeof *u0);
    const double j0 = burgers_evaluate(b);
    double slope    = 0.0;
    for (size_t i = 0; i < n; i++)
        slope += g[i] * cos(0.37 * (double)i + 0.2);
    double h = TAYLOR_H0;
    for (int k = 0; k < TAYLOR_POINTS; k++, h /= 2.0) {
        for (size_t i = 0; i < n; i++)
            u[i] = u0[i] + h * cos(0.37 * (double)i + 0.2);
        burgers_set_initial(b, u);
        res->taylor_h[k]   = h;
        res->taylor_rem[k] = fabs(burgers_evaluate(b) - j0 - h * slope);
    }
    burgers_set_initial(b, u0);
    free(u0);
    for (int k = 0; k + 1 < TAYLOR_POINTS; k++)
        res->taylor_orders[k] =
            log2(res->taylor_rem[k] / res->taylor_rem[k + 1]);
    return 0;
}

/* The store-all reference gradient, the Taylor test and the sweeps. */
static bool run_checks(uturn_executor_t *ex, burgers_t *b, results_t *res)
{
    uturn_problem_t p;
    problem_for(b, UTURN_PLANNER_STORE_ALL, &p);
    uturn_error_t err;
    uturn_error_init(&err);
    const size_t n    = burgers_grid(b);
    double *const ref = malloc(n * sizeof *ref);
    if (ref == NULL || run_once(ex, b, &p, NULL, &err) != UTURN_OK) {
        fprintf(stderr, "burgers: FAIL: store-all run: %s\n", err.message);
        free(ref);
        return false;
    }
    memcpy(ref, burgers_gradient(b), n * sizeof *ref);
    res->objective = burgers_objective(b);
    double sum     = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += ref[i] * ref[i];
    res->gradient_norm = sqrt(sum);
    bool ok            = taylor_test(b, ref, res) == 0;
    for (int k = 0; k + 1 < TAYLOR_POINTS; k++)
        ok = ok && res->taylor_orders[k] > ORDER_LOW &&
             res->taylor_orders[k] < ORDER_HIGH;
    for (int i = 0; i < PLANNERS; i++) {
        sweep_planner(ex, b, PLANNER_LIST[i], ref, res->objective,
                      &res->sweeps[i]);
        ok = ok && res->sweeps[i].ok;
    }
    free(ref);
    return ok && isfinite(res->gradient_norm) && res->gradient_norm > 0.0;
}

static void print_list(const char *key, const double *v, int count,
                       const char *format)
{
    printf("  \"%s\": [", key);
    for (int k = 0; k < count; k++) {
        printf("%s", k ? ", " : "");
        printf(format, v[k]);
    }
    printf("],\n");
}

static void print_json(const results_t *r)
{
    printf("{\n  \"grid\": %zu,\n  \"steps\": %llu,\n", r->grid,
           (unsigned long long)r->steps);
    printf("  \"dx\": %.17g,\n  \"dt\": %.17g,\n  \"nu\": %.17g,\n", r->dx,
           r->dt, r->nu);
    printf("  \"objective\": %.17g,\n  \"gradient_norm\": %.17g,\n",
           r->objective, r->gradient_norm);
    print_list("taylor_h", r->taylor_h, TAYLOR_POINTS, "%.6g");
    print_list("taylor_remainders", r->taylor_rem, TAYLOR_POINTS, "%.6e");
    print_list("taylor_orders", r->taylor_orders, TAYLOR_POINTS - 1, "%.4f");
    printf("  \"bitwise_equal\": {");
    for (int i = 0; i < PLANNERS; i++)
        printf("%s\"%s\": %s", i ? ", " : "",
               uturn_planner_name(PLANNER_LIST[i]),
               r->sweeps[i].ok ? "true" : "false");
    printf("},\n  \"budgets_run\": {");
    for (int i = 0; i < PLANNERS; i++)
        printf("%s\"%s\": %llu", i ? ", " : "",
               uturn_planner_name(PLANNER_LIST[i]),
               (unsigned long long)r->sweeps[i].runs);
    printf("},\n  \"ok\": %s\n}\n", r->ok ? "true" : "false");
}

static void print_text(const results_t *r)
{
    printf("burgers: grid %zu, steps %llu, dx %.4g, dt %.4g, nu %.4g\n",
           r->grid, (unsigned long long)r->steps, r->dx, r->dt, r->nu);
    printf("J = %.17g, |dJ/du_0| = %.17g\n", r->objective, r->gradient_norm);
    printf("Taylor test, r(h) = |J(u0 + h d) - J(u0) - h <g, d>|:\n");
    for (int k = 0; k < TAYLOR_POINTS; k++) {
        printf("  h %-10.6g r %.6e", r->taylor_h[k], r->taylor_rem[k]);
        if (k > 0)
            printf("  order %.4f", r->taylor_orders[k - 1]);
        printf("\n");
    }
    printf("bitwise equal to store-all, every budget from the least one:\n");
    for (int i = 0; i < PLANNERS; i++) {
        const sweep_t *s = &r->sweeps[i];
        printf("  %-9s slots %3llu..%llu: %llu/%llu runs equal, "
               "recomputed_steps up to %llu%s\n",
               uturn_planner_name(PLANNER_LIST[i]),
               (unsigned long long)s->min_slots, (unsigned long long)r->steps,
               (unsigned long long)s->equal, (unsigned long long)s->runs,
               (unsigned long long)s->max_recomputed, s->ok ? "" : "  FAIL");
    }
    printf("%s\n", r->ok ? "all checks passed" : "FAIL: a check failed");
}

/* Parse [--json] [--grid N] [--steps N]; false on a usage error. */
static bool parse_args(int argc, char **argv, bool *json, size_t *grid,
                       uint64_t *steps)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            *json = true;
            continue;
        }
        const bool g = strcmp(argv[i], "--grid") == 0;
        if ((!g && strcmp(argv[i], "--steps") != 0) || i + 1 == argc)
            return false;
        char *end                  = NULL;
        const unsigned long long v = strtoull(argv[++i], &end, 10);
        if (*end != '\0' || v == 0 || v > UINT32_MAX)
            return false;
        if (g)
            *grid = (size_t)v;
        else
            *steps = v;
    }
    return true;
}

int main(int argc, char **argv)
{
    bool json      = false;
    results_t *res = calloc(1, sizeof *res);
    if (res == NULL)
        return 1;
    res->grid  = DEFAULT_GRID;
    res->steps = DEFAULT_STEPS;
    if (!parse_args(argc, argv, &json, &res->grid, &res->steps)) {
        fprintf(stderr, "usage: burgers [--json] [--grid N] [--steps N]\n");
        free(res);
        return 1;
    }
    burgers_t *b         = NULL;
    uturn_executor_t *ex = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    if (burgers_create(res->grid, res->steps, &b) != 0 ||
        uturn_executor_create(NULL, &ex, &err) != UTURN_OK) {
        fprintf(stderr, "burgers: FAIL: cannot set up: %s\n", err.message);
    } else {
        burgers_scales(b, &res->dx, &res->dt, &res->nu);
        res->ok = run_checks(ex, b, res);
        if (json)
            print_json(res);
        else
            print_text(res);
    }
    const int rc = res->ok ? 0 : 1;
    uturn_executor_free(ex);
    burgers_free(b);
    free(res);
    return rc;
}
