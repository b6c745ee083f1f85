/*
 * chain: the gradient of a nonlinear scalar chain, three ways.
 *
 *   x_{t+1} = tanh(a_t x_t + b_t) + c x_t / (1 + x_t^2)
 *             + 0.025 sin(0.11 (t+1) x_t),        t = 0 .. T-1
 *   J       = 0.5 (x_T - y)^2
 *
 * The gradient of J with respect to all 2T parameters a_t, b_t comes from
 * reverse mode run by the uturn executor (under every planner), from
 * forward mode (all 2T tangents carried in one sweep) and from central
 * finite differences. Work is counted in full-chain evaluations, as the
 * seed article counts it: reverse mode costs one forward and one adjoint
 * sweep (2) plus whatever its plan recomputes, forward mode 1 + 2T, central
 * differences 1 + 2 * 2T.
 *
 * Usage: chain [--json]. The exit status is 0 when every check passed.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define CHAIN_STEPS   UINT64_C(40) /* T of the headline figures */
#define CHAIN_C       0.5          /* c of the headline figures */
#define CHAIN_X0      0.3          /* x_0 */
#define CHAIN_Y       0.8          /* the target y */
#define AGREE_TOL     1e-10        /* forward vs reverse, relative to max |g| */
#define FD_DECADES    10           /* epsilons 1e-1 .. 1e-10 */
#define FD_RMS_SANITY 1e-6 /* the best FD error must at least beat this */
#define GRID_MINIMUM  432u /* combinations the grid must cover */
#define PLANNER_ROWS  32   /* room for the settings in summary_t */

/* The chain's parameters, live state and adjoint. */
typedef struct chain {
    uint64_t steps; /* T */
    double c;
    double *a;    /* a_t, T entries */
    double *b;    /* b_t, T entries */
    double x;     /* the live state: the executor copies exactly this */
    double xbar;  /* dJ/dx for the step being reversed */
    double loss;  /* J, set by the turn */
    double *grad; /* dJ/da_t at [t], dJ/db_t at [T + t] */
} chain_t;

/* How a planner setting gets its capacity. */
typedef enum capacity {
    CAP_NONE,      /* the planner needs none (store-all, sqrt) */
    CAP_STRIDE,    /* periodic with stride min(value, T) */
    CAP_SLOTS,     /* slots = min(value, T) */
    CAP_BUDGET,    /* budget_bytes = min(value, T) real slots */
    CAP_MIN_BUDGET /* the least feasible budget plus value real slots */
} capacity_t;

/* One planner setting of the grid. */
typedef struct setting {
    const char *name;
    uturn_planner_t planner;
    capacity_t kind;
    uint64_t value;
} setting_t;

/* What one reverse run produced. */
typedef struct run_result {
    bool ok;             /* every check of the run passed */
    uturn_stats_t stats; /* observed by the executor */
    uint64_t capacity;   /* the slot capacity the plan resolved */
    double rel_diff;     /* max |forward - reverse| / max |g| */
} run_result_t;

/* Results collected for the report. */
typedef struct summary {
    uint64_t steps;
    double loss;
    double work_reverse;
    uint64_t work_forward;
    uint64_t work_fd;
    double max_diff;
    double fd_rms[FD_DECADES];
    int fd_best;                         /* index into fd_rms */
    run_result_t planners[PLANNER_ROWS]; /* the settings at T = CHAIN_STEPS */
    uint64_t combinations;               /* feasible combinations run */
    uint64_t combinations_ok;            /* those that passed every check */
    uint64_t combinations_skipped;       /* infeasible, not run */
    double grid_max_diff;
    bool ok;
} summary_t;

#define ALL_STEPS UINT64_MAX /* a setting value meaning "T" */

static const setting_t SETTINGS[] = {
    {"store-all", UTURN_PLANNER_STORE_ALL, CAP_NONE, 0},
    {"sqrt", UTURN_PLANNER_SQRT, CAP_NONE, 0},
    {"periodic-k1", UTURN_PLANNER_PERIODIC, CAP_STRIDE, 1},
    {"periodic-k2", UTURN_PLANNER_PERIODIC, CAP_STRIDE, 2},
    {"periodic-k3", UTURN_PLANNER_PERIODIC, CAP_STRIDE, 3},
    {"periodic-k4", UTURN_PLANNER_PERIODIC, CAP_STRIDE, 4},
    {"periodic-k7", UTURN_PLANNER_PERIODIC, CAP_STRIDE, 7},
    {"periodic-k10", UTURN_PLANNER_PERIODIC, CAP_STRIDE, 10},
    {"periodic-budget-min", UTURN_PLANNER_PERIODIC, CAP_MIN_BUDGET, 0},
    {"periodic-budget-min+1", UTURN_PLANNER_PERIODIC, CAP_MIN_BUDGET, 1},
    {"periodic-budget-min+3", UTURN_PLANNER_PERIODIC, CAP_MIN_BUDGET, 3},
    {"periodic-budget-T", UTURN_PLANNER_PERIODIC, CAP_BUDGET, ALL_STEPS},
    {"revolve-s1", UTURN_PLANNER_REVOLVE, CAP_SLOTS, 1},
    {"revolve-s2", UTURN_PLANNER_REVOLVE, CAP_SLOTS, 2},
    {"revolve-s3", UTURN_PLANNER_REVOLVE, CAP_SLOTS, 3},
    {"revolve-s5", UTURN_PLANNER_REVOLVE, CAP_SLOTS, 5},
    {"revolve-s10", UTURN_PLANNER_REVOLVE, CAP_SLOTS, 10},
    {"revolve-s20", UTURN_PLANNER_REVOLVE, CAP_SLOTS, 20},
    {"revolve-sT", UTURN_PLANNER_REVOLVE, CAP_SLOTS, ALL_STEPS},
    {"revolve-budget-4", UTURN_PLANNER_REVOLVE, CAP_BUDGET, 4},
};
#define SETTING_COUNT (sizeof SETTINGS / sizeof SETTINGS[0])
_Static_assert(SETTING_COUNT <= PLANNER_ROWS,
               "summary_t.planners must hold every setting");

static const uint64_t GRID_STEPS[] = {1, 2, 3, 5, 8, 13, 40, 100};
static const double GRID_C[]       = {0.0, 0.5, 0.9};

/* ------------------------------------------------------------------------ */
/* The chain                                                                */
/* ------------------------------------------------------------------------ */

static int chain_init(chain_t *ch, uint64_t steps, double c)
{
    memset(ch, 0, sizeof *ch);
    ch->steps = steps;
    ch->c     = c;
    ch->a     = calloc((size_t)steps, sizeof *ch->a);
    ch->b     = calloc((size_t)steps, sizeof *ch->b);
    ch->grad  = calloc((size_t)(2 * steps), sizeof *ch->grad);
    if (ch->a == NULL || ch->b == NULL || ch->grad == NULL)
        return -1;
    for (uint64_t t = 0; t < steps; t++) {
        const double td = (double)t;
        ch->a[t]        = 0.8 + 0.3 * sin(0.7 * td);
        ch->b[t]        = 0.1 * cos(1.3 * td);
    }
    return 0;
}

static void chain_release(chain_t *ch)
{
    free(ch->a);
    free(ch->b);
    free(ch->grad);
    memset(ch, 0, sizeof *ch);
}

/* F_t(x). */
static double chain_step(const chain_t *ch, uint64_t t, double x)
{
    const double w = 0.11 * (double)(t + 1);
    return tanh(ch->a[t] * x + ch->b[t]) + ch->c * x / (1.0 + x * x) +
           0.025 * sin(w * x);
}

/* The partial derivatives of F_t at x. */
static void chain_partials(const chain_t *ch, uint64_t t, double x, double *dx,
                           double *da, double *db)
{
    const double w    = 0.11 * (double)(t + 1);
    const double th   = tanh(ch->a[t] * x + ch->b[t]);
    const double sech = 1.0 - th * th;
    const double q    = 1.0 + x * x;
    *dx               = ch->a[t] * sech + ch->c * (1.0 - x * x) / (q * q) +
          0.025 * w * cos(w * x);
    *da = sech * x;
    *db = sech;
}

/* J for the current parameters, by one plain forward sweep. */
static double chain_loss(const chain_t *ch)
{
    double x = CHAIN_X0;
    for (uint64_t t = 0; t < ch->steps; t++)
        x = chain_step(ch, t, x);
    return 0.5 * (x - CHAIN_Y) * (x - CHAIN_Y);
}

/* ------------------------------------------------------------------------ */
/* Reverse mode: the executor's callbacks                                   */
/* ------------------------------------------------------------------------ */

static int on_forward(void *user, uint64_t step)
{
    chain_t *ch = user;
    if (step >= ch->steps)
        return 1;
    ch->x = chain_step(ch, step, ch->x);
    return 0;
}

static int on_turn(void *user)
{
    chain_t *ch = user;
    ch->loss    = 0.5 * (ch->x - CHAIN_Y) * (ch->x - CHAIN_Y);
    ch->xbar    = ch->x - CHAIN_Y;
    return 0;
}

/* Adjoint step t with the live state x_t: accumulate dJ/da_t, dJ/db_t and
 * carry xbar from x_{t+1} back to x_t. */
static int on_adjoint(void *user, uint64_t step)
{
    chain_t *ch = user;
    if (step >= ch->steps)
        return 1;
    double dx, da, db;
    chain_partials(ch, step, ch->x, &dx, &da, &db);
    ch->grad[step] += ch->xbar * da;
    ch->grad[ch->steps + step] += ch->xbar * db;
    ch->xbar *= dx;
    return 0;
}

/* Make the chain ready for a new reverse run and describe it as a model. */
static void chain_model(chain_t *ch, uturn_model_t *model)
{
    ch->x    = CHAIN_X0;
    ch->xbar = 0.0;
    ch->loss = 0.0;
    memset(ch->grad, 0, (size_t)(2 * ch->steps) * sizeof *ch->grad);
    uturn_model_init(model);
    model->user        = ch;
    model->forward     = on_forward;
    model->turn        = on_turn;
    model->adjoint     = on_adjoint;
    model->state       = &ch->x;
    model->state_bytes = sizeof ch->x;
}

/* ------------------------------------------------------------------------ */
/* Forward mode and finite differences                                      */
/* ------------------------------------------------------------------------ */

/* All 2T tangents in one sweep; writes the gradient to @p grad.
 * Returns the work in full-chain evaluations (1 + 2T), or 0 on failure. */
static uint64_t forward_mode(const chain_t *ch, double *grad)
{
    const uint64_t n   = ch->steps;
    double *const tang = calloc((size_t)(2 * n), sizeof *tang);
    if (tang == NULL)
        return 0;
    double x = CHAIN_X0;
    for (uint64_t t = 0; t < n; t++) {
        double dx, da, db;
        chain_partials(ch, t, x, &dx, &da, &db);
        for (uint64_t j = 0; j < 2 * n; j++)
            tang[j] *= dx;
        tang[t] += da;
        tang[n + t] += db;
        x = chain_step(ch, t, x);
    }
    for (uint64_t j = 0; j < 2 * n; j++)
        grad[j] = (x - CHAIN_Y) * tang[j];
    free(tang);
    return 1 + 2 * n;
}

/* The parameter behind gradient index @p j. */
static double *chain_param(chain_t *ch, uint64_t j)
{
    return j < ch->steps ? &ch->a[j] : &ch->b[j - ch->steps];
}

/* Central differences with step @p eps; returns the RMS error against
 * @p ref and counts the chain evaluations in @p evals. */
static double fd_rms(chain_t *ch, double eps, const double *ref,
                     uint64_t *evals)
{
    const uint64_t n = 2 * ch->steps;
    *evals           = 1; /* J(p) itself, which the article counts too */
    double sum       = 0.0;
    for (uint64_t j = 0; j < n; j++) {
        double *const p  = chain_param(ch, j);
        const double old = *p;
        *p               = old + eps;
        const double up  = chain_loss(ch);
        *p               = old - eps;
        const double dn  = chain_loss(ch);
        *p               = old;
        *evals += 2;
        const double err = (up - dn) / (2.0 * eps) - ref[j];
        sum += err * err;
    }
    return sqrt(sum / (double)n);
}

/* ------------------------------------------------------------------------ */
/* Planning and running                                                     */
/* ------------------------------------------------------------------------ */

static uint64_t clamp_steps(uint64_t value, uint64_t steps)
{
    return value > steps ? steps : value;
}

/* The least budget periodic (or any planner) accepts, from the error of a
 * one-slot request; *bytes is left alone when one slot is enough. */
static uturn_status_t least_budget(const uturn_executor_t *ex,
                                   uturn_problem_t *problem, uint64_t slot,
                                   uint64_t *bytes)
{
    problem->budget_bytes = slot;
    uturn_plan_t *plan    = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_executor_plan(ex, problem, &plan, &err);
    uturn_plan_free(plan);
    *bytes = slot;
    if (st != UTURN_E_INFEASIBLE)
        return st;
    if (err.minimum_bytes == 0) {
        fprintf(stderr,
                "chain: FAIL: an infeasible plan did not name its "
                "minimum budget: %s\n",
                err.message);
        return UTURN_E_INVALID_ARG;
    }
    *bytes = err.minimum_bytes;
    return UTURN_OK;
}

/* Build the plan of setting @p s for a chain of @p steps. */
static uturn_status_t make_plan(const uturn_executor_t *ex, const setting_t *s,
                                uint64_t steps, uturn_plan_t **plan)
{
    uint64_t slot     = 0;
    uturn_status_t st = uturn_executor_slot_bytes(ex, sizeof(double), &slot);
    if (st != UTURN_OK)
        return st;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner    = s->planner;
    p.steps      = steps;
    p.slot_bytes = sizeof(double);
    if (s->kind == CAP_STRIDE)
        p.stride = clamp_steps(s->value, steps);
    else if (s->kind == CAP_SLOTS)
        p.slots = clamp_steps(s->value, steps);
    else if (s->kind == CAP_BUDGET)
        p.budget_bytes = clamp_steps(s->value, steps) * slot;
    else if (s->kind == CAP_MIN_BUDGET) {
        uint64_t least = 0;
        st             = least_budget(ex, &p, slot, &least);
        if (st != UTURN_OK)
            return st;
        p.budget_bytes = least + s->value * slot;
    }
    uturn_error_t err;
    uturn_error_init(&err);
    return uturn_executor_plan(ex, &p, plan, &err);
}

/* The run's observed counts must equal the plan's predicted ones. */
static bool counts_agree(const uturn_plan_t *plan, const uturn_stats_t *obs)
{
    uturn_stats_t pred;
    uturn_stats_init(&pred);
    if (uturn_plan_stats(plan, &pred) != UTURN_OK)
        return false;
    return obs->forward_steps == pred.forward_steps &&
           obs->recomputed_steps == pred.recomputed_steps &&
           obs->reverse_steps == pred.steps && obs->stores == pred.stores &&
           obs->restores == pred.restores &&
           obs->peak_slots == pred.peak_slots && obs->peak_slots <= pred.slots;
}

/* max |x - y| / max |y|, or +inf when either holds a non-finite entry. */
static double relative_diff(const double *x, const double *y, uint64_t n)
{
    double diff = 0.0;
    double big  = 0.0;
    for (uint64_t j = 0; j < n; j++) {
        if (!isfinite(x[j]) || !isfinite(y[j]))
            return INFINITY;
        diff = fmax(diff, fabs(x[j] - y[j]));
        big  = fmax(big, fabs(y[j]));
    }
    return big > 0.0 ? diff / big : diff;
}

/* Run setting @p s on @p ch and check it against the forward-mode
 * gradient @p fwd and the store-all gradient @p base (NULL: none yet).
 * Returns UTURN_E_INFEASIBLE for a setting that does not fit. */
static uturn_status_t run_setting(uturn_executor_t *ex, chain_t *ch,
                                  const setting_t *s, const double *fwd,
                                  const double *base, run_result_t *out)
{
    memset(out, 0, sizeof *out);
    uturn_stats_init(&out->stats);
    uturn_plan_t *plan      = NULL;
    const uturn_status_t ps = make_plan(ex, s, ch->steps, &plan);
    if (ps != UTURN_OK && ps != UTURN_E_INFEASIBLE)
        fprintf(stderr, "chain: FAIL %s, T=%llu: no plan: %s\n", s->name,
                (unsigned long long)ch->steps, uturn_strerror(ps));
    if (ps != UTURN_OK)
        return ps;
    uturn_stats_t predicted;
    uturn_stats_init(&predicted);
    (void)uturn_plan_stats(plan, &predicted);
    out->capacity = predicted.slots;
    uturn_model_t model;
    chain_model(ch, &model);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_executor_run(ex, plan, &model, NULL, &out->stats, NULL, &err);
    const uint64_t n = 2 * ch->steps;
    out->rel_diff    = relative_diff(fwd, ch->grad, n);
    out->ok =
        st == UTURN_OK && counts_agree(plan, &out->stats) &&
        isfinite(ch->loss) && out->rel_diff < AGREE_TOL &&
        (base == NULL || memcmp(base, ch->grad, (size_t)n * sizeof *base) == 0);
    if (st != UTURN_OK)
        fprintf(stderr, "chain: FAIL %s, T=%llu: %s\n", s->name,
                (unsigned long long)ch->steps, err.message);
    uturn_plan_free(plan);
    return st == UTURN_OK ? UTURN_OK : UTURN_E_CALLBACK;
}

/* ------------------------------------------------------------------------ */
/* The grid and the headline figures                                        */
/* ------------------------------------------------------------------------ */

/* Every setting for one (T, c); fills @p results (SETTING_COUNT entries)
 * when it is not NULL. Returns -1 when memory runs out. */
static int run_case(uturn_executor_t *ex, uint64_t steps, double c,
                    summary_t *sum, run_result_t *results)
{
    chain_t ch         = {0};
    double *const fwd  = calloc((size_t)(2 * steps), sizeof *fwd);
    double *const base = calloc((size_t)(2 * steps), sizeof *base);
    int rc             = -1;
    if (fwd == NULL || base == NULL || chain_init(&ch, steps, c) != 0)
        goto done;
    if (forward_mode(&ch, fwd) == 0)
        goto done;
    for (size_t i = 0; i < SETTING_COUNT; i++) {
        run_result_t r;
        const uturn_status_t st =
            run_setting(ex, &ch, &SETTINGS[i], fwd, i == 0 ? NULL : base, &r);
        if (i == 0)
            memcpy(base, ch.grad, (size_t)(2 * steps) * sizeof *base);
        if (st == UTURN_E_INFEASIBLE) {
            sum->combinations_skipped++;
            continue;
        }
        sum->combinations++;
        sum->combinations_ok += r.ok ? 1u : 0u;
        sum->grid_max_diff = fmax(sum->grid_max_diff, r.rel_diff);
        if (results != NULL)
            results[i] = r;
    }
    rc = 0;
done:
    chain_release(&ch);
    free(fwd);
    free(base);
    return rc;
}

/* The headline figures at T = CHAIN_STEPS, c = CHAIN_C. */
static int headline(uturn_executor_t *ex, summary_t *sum)
{
    chain_t ch         = {0};
    const uint64_t n   = 2 * CHAIN_STEPS;
    double *const fwd  = calloc((size_t)n, sizeof *fwd);
    double *const grad = calloc((size_t)n, sizeof *grad);
    int rc             = -1;
    if (fwd == NULL || grad == NULL ||
        chain_init(&ch, CHAIN_STEPS, CHAIN_C) != 0)
        goto done;
    sum->steps        = CHAIN_STEPS;
    sum->work_forward = forward_mode(&ch, fwd);
    run_result_t r;
    if (sum->work_forward == 0 ||
        run_setting(ex, &ch, &SETTINGS[0], fwd, NULL, &r) != UTURN_OK)
        goto done;
    memcpy(grad, ch.grad, (size_t)n * sizeof *grad);
    sum->loss = ch.loss;
    sum->work_reverse =
        (double)(r.stats.forward_steps + r.stats.reverse_steps) /
        (double)CHAIN_STEPS;
    sum->max_diff = r.rel_diff;
    double eps    = 1.0;
    for (int k = 0; k < FD_DECADES; k++) {
        eps /= 10.0;
        sum->fd_rms[k] = fd_rms(&ch, eps, grad, &sum->work_fd);
        if (sum->fd_rms[k] < sum->fd_rms[sum->fd_best])
            sum->fd_best = k;
    }
    rc = 0;
done:
    chain_release(&ch);
    free(fwd);
    free(grad);
    return rc;
}

/* The whole grid; the (CHAIN_STEPS, CHAIN_C) case fills sum->planners. */
static int run_grid(uturn_executor_t *ex, summary_t *sum)
{
    const size_t nt = sizeof GRID_STEPS / sizeof GRID_STEPS[0];
    const size_t nc = sizeof GRID_C / sizeof GRID_C[0];
    for (size_t i = 0; i < nt; i++) {
        for (size_t j = 0; j < nc; j++) {
            const bool head =
                GRID_STEPS[i] == CHAIN_STEPS && GRID_C[j] == CHAIN_C;
            if (run_case(ex, GRID_STEPS[i], GRID_C[j], sum,
                         head ? sum->planners : NULL) != 0)
                return -1;
        }
    }
    return 0;
}

static double fd_eps(int k)
{
    return pow(10.0, -(double)(k + 1));
}

/* The checks the figures must pass. */
static bool summary_ok(const summary_t *sum)
{
    bool ok = sum->max_diff < AGREE_TOL && sum->grid_max_diff < AGREE_TOL &&
              isfinite(sum->loss) && isfinite(sum->work_reverse) &&
              sum->fd_rms[sum->fd_best] < FD_RMS_SANITY &&
              sum->combinations >= GRID_MINIMUM &&
              sum->combinations_ok == sum->combinations;
    for (int k = 0; k < FD_DECADES; k++)
        ok = ok && isfinite(sum->fd_rms[k]);
    for (size_t i = 0; i < SETTING_COUNT; i++)
        ok = ok && sum->planners[i].ok;
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                   */
/* ------------------------------------------------------------------------ */

static void print_planner_json(const setting_t *s, const run_result_t *r,
                               bool last)
{
    const uturn_stats_t *st = &r->stats;
    const double n          = (double)CHAIN_STEPS;
    printf("    \"%s\": {\"slots\": %llu, \"peak_slots\": %llu, "
           "\"forward_steps\": %llu, \"recomputed_steps\": %llu, "
           "\"recompute_work\": %.6g, \"work\": %.6g, \"ok\": %s}%s\n",
           s->name, (unsigned long long)r->capacity,
           (unsigned long long)st->peak_slots,
           (unsigned long long)st->forward_steps,
           (unsigned long long)st->recomputed_steps,
           (double)st->recomputed_steps / n,
           (double)(st->forward_steps + st->reverse_steps) / n,
           r->ok ? "true" : "false", last ? "" : ",");
}

static void print_json(const summary_t *sum)
{
    printf("{\n  \"steps\": %llu,\n  \"c\": %g,\n  \"loss\": %.17g,\n",
           (unsigned long long)sum->steps, CHAIN_C, sum->loss);
    printf("  \"work_reverse\": %.6g,\n  \"work_forward\": %llu,\n"
           "  \"work_fd\": %llu,\n",
           sum->work_reverse, (unsigned long long)sum->work_forward,
           (unsigned long long)sum->work_fd);
    printf("  \"max_forward_reverse_diff\": %.3e,\n", sum->max_diff);
    printf("  \"fd_eps\": [");
    for (int k = 0; k < FD_DECADES; k++)
        printf("%s%.0e", k ? ", " : "", fd_eps(k));
    printf("],\n  \"fd_rms\": [");
    for (int k = 0; k < FD_DECADES; k++)
        printf("%s%.3e", k ? ", " : "", sum->fd_rms[k]);
    printf("],\n  \"fd_best_eps\": %.0e,\n  \"fd_best_rms\": %.3e,\n",
           fd_eps(sum->fd_best), sum->fd_rms[sum->fd_best]);
    printf("  \"planners\": {\n");
    for (size_t i = 0; i < SETTING_COUNT; i++)
        print_planner_json(&SETTINGS[i], &sum->planners[i],
                           i + 1 == SETTING_COUNT);
    printf("  },\n  \"combinations\": %llu,\n  \"combinations_ok\": %llu,\n",
           (unsigned long long)sum->combinations,
           (unsigned long long)sum->combinations_ok);
    printf("  \"combinations_skipped\": %llu,\n"
           "  \"grid_max_forward_reverse_diff\": %.3e,\n  \"ok\": %s\n}\n",
           (unsigned long long)sum->combinations_skipped, sum->grid_max_diff,
           sum->ok ? "true" : "false");
}

static void print_planners_text(const summary_t *sum)
{
    printf("reverse mode through the executor, per planner (observed):\n");
    printf("  %-22s %5s %5s %8s %10s %9s %6s\n", "planner", "slots", "peak",
           "forward", "recomputed", "+work", "work");
    const double n = (double)CHAIN_STEPS;
    for (size_t i = 0; i < SETTING_COUNT; i++) {
        const run_result_t *r   = &sum->planners[i];
        const uturn_stats_t *st = &r->stats;
        printf("  %-22s %5llu %5llu %8llu %10llu %9.3f %6.3f%s\n",
               SETTINGS[i].name, (unsigned long long)r->capacity,
               (unsigned long long)st->peak_slots,
               (unsigned long long)st->forward_steps,
               (unsigned long long)st->recomputed_steps,
               (double)st->recomputed_steps / n,
               (double)(st->forward_steps + st->reverse_steps) / n,
               r->ok ? "" : "  FAIL");
    }
}

static void print_text(const summary_t *sum)
{
    printf("chain: T = %llu, c = %g, x0 = %g, y = %g, J = %.17g\n",
           (unsigned long long)sum->steps, CHAIN_C, CHAIN_X0, CHAIN_Y,
           sum->loss);
    printf("work in full-chain evaluations:\n"
           "  reverse (store-all)  %g\n  forward mode         %llu\n"
           "  central differences  %llu\n",
           sum->work_reverse, (unsigned long long)sum->work_forward,
           (unsigned long long)sum->work_fd);
    print_planners_text(sum);
    printf("max |forward - reverse| / max |gradient| = %.3e\n", sum->max_diff);
    printf("central differences, RMS error against reverse mode:\n");
    for (int k = 0; k < FD_DECADES; k++)
        printf("  eps %.0e  rms %.3e\n", fd_eps(k), sum->fd_rms[k]);
    printf("best eps %.0e, rms %.3e\n", fd_eps(sum->fd_best),
           sum->fd_rms[sum->fd_best]);
    printf("grid: %llu combinations, %llu ok, %llu infeasible skipped, "
           "max relative forward/reverse difference %.3e\n",
           (unsigned long long)sum->combinations,
           (unsigned long long)sum->combinations_ok,
           (unsigned long long)sum->combinations_skipped, sum->grid_max_diff);
    printf("%s\n", sum->ok ? "all checks passed" : "FAIL: a check failed");
}

int main(int argc, char **argv)
{
    const bool json = argc == 2 && strcmp(argv[1], "--json") == 0;
    if (argc > 2 || (argc == 2 && !json)) {
        fprintf(stderr, "usage: chain [--json]\n");
        return 1;
    }
    summary_t *const sum = calloc(1, sizeof *sum);
    uturn_executor_t *ex = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    if (sum == NULL || uturn_executor_create(NULL, &ex, &err) != UTURN_OK) {
        fprintf(stderr, "chain: FAIL: no executor: %s\n", err.message);
        free(sum);
        return 1;
    }
    int rc = headline(ex, sum) == 0 && run_grid(ex, sum) == 0 ? 0 : 1;
    if (rc != 0)
        fprintf(stderr, "chain: FAIL: out of memory or executor error\n");
    sum->ok = rc == 0 && summary_ok(sum);
    if (json)
        print_json(sum);
    else
        print_text(sum);
    rc = sum->ok ? 0 : 1;
    uturn_executor_free(ex);
    free(sum);
    return rc;
}
