/*
 * user_loop: the user's own time loop driven by a uturn cursor, the way
 * codes written for ADOL-C's revolve() are structured (see
 * docs/migrating-from-revolve.md): the code keeps its checkpoints, runs
 * its steps and calls the cursor only to ask what to do next.
 *
 * The model is a small nonlinear oscillator chain, x_{i+1} = F(x_i), with
 * J = x_n . x_n / 2. Two loops:
 *   - known n: a revolve plan for n steps;
 *   - unknown n: an online plan; the code stops when its own criterion
 *     holds (the energy falls below a threshold) and tells the cursor.
 * Each gradient is checked against a store-everything adjoint (bitwise)
 * and a central finite difference. Exits 0 when every check passed.
 *
 * Build: cc -std=c11 user_loop.c -luturn -lm
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define DIM   8
#define SLOTS 6
#define LIMIT 100000 /* the unknown run's bound on n (max_steps) */

typedef struct {
    double q[DIM];
} state_t;

static void step(const state_t *in, state_t *out)
{
    for (int j = 0; j < DIM; j++) {
        const double left = in->q[(j + DIM - 1) % DIM];
        out->q[j] = in->q[j] - 0.01 * sin(in->q[j] - left) - 0.002 * in->q[j];
    }
}

/* x_bar_i from x_bar_{i+1}: the transpose of step's Jacobian at x_i. */
static void step_bar(const state_t *in, const state_t *bar, state_t *out)
{
    for (int j = 0; j < DIM; j++)
        out->q[j] = 0;
    for (int j = 0; j < DIM; j++) {
        const int l   = (j + DIM - 1) % DIM;
        const double c = 0.01 * cos(in->q[j] - in->q[l]);
        out->q[j] += bar->q[j] * (1 - c - 0.002);
        out->q[l] += bar->q[j] * c;
    }
}

static void initial(state_t *x, double shift)
{
    for (int j = 0; j < DIM; j++)
        x->q[j] = 0.8 * sin(0.7 * j) + (j == 0 ? shift : 0);
}

static double energy(const state_t *x)
{
    double e = 0;
    for (int j = 0; j < DIM; j++)
        e += 0.5 * x->q[j] * x->q[j];
    return e;
}

/* The user's loop: what the cursor says, done with the code's own
 * checkpoints. stop > 0: the online criterion (end when the energy falls
 * below it); returns the steps n, 0 on failure. */
static uint64_t drive(uturn_cursor_t *c, state_t *x, state_t *xbar,
                      double stop)
{
    state_t shots[SLOTS], tmp;
    uturn_action_t a;
    uint64_t n       = 0;
    bool sweep_ended = stop <= 0;
    while (uturn_cursor_next(c, &a)) {
        switch (a.op) {
        case UTURN_OP_ADVANCE: /* revolve's advance */
            for (uint64_t i = a.step; i < a.step_end; i++) {
                step(x, &tmp);
                *x = tmp;
            }
            n = a.step_end > n ? a.step_end : n;
            if (!sweep_ended && energy(x) < stop)
                sweep_ended = uturn_cursor_end(c) == UTURN_OK;
            break;
        case UTURN_OP_STORE: /* takeshot */
            shots[a.slot] = *x;
            break;
        case UTURN_OP_RESTORE: /* restore */
            *x = shots[a.slot];
            break;
        case UTURN_OP_FREE:
        case UTURN_OP_PERSIST: /* plans of several sweeps only */
            break;
        case UTURN_OP_TURN: /* firsturn: J and its seed at x_n */
            *xbar = *x;
            break;
        case UTURN_OP_REVERSE: /* youturn: x is x_step */
            step_bar(x, xbar, &tmp);
            *xbar = tmp;
            break;
        }
    }
    return sweep_ended ? n : 0;
}

/* J after n steps from x_0 shifted by h in its first entry. */
static double objective(uint64_t n, double h)
{
    state_t x, t;
    initial(&x, h);
    for (uint64_t i = 0; i < n; i++) {
        step(&x, &t);
        x = t;
    }
    return energy(&x);
}

/* Every state kept, reversed by hand. */
static state_t reference(uint64_t n)
{
    state_t *xs = malloc((n + 1) * sizeof *xs), bar, t;
    initial(&xs[0], 0);
    for (uint64_t i = 0; i < n; i++)
        step(&xs[i], &xs[i + 1]);
    bar = xs[n];
    for (uint64_t i = n; i-- > 0;) {
        step_bar(&xs[i], &bar, &t);
        bar = t;
    }
    free(xs);
    return bar;
}

static int verdict(const char *what, uint64_t n, const state_t *g)
{
    const state_t want = reference(n);
    const double h     = 1e-6;
    const double fd = (objective(n, h) - objective(n, -h)) / (2 * h);
    const bool bitwise = memcmp(&want, g, sizeof want) == 0;
    const bool fd_ok   = fabs(fd - g->q[0]) <= 1e-6 + 1e-5 * fabs(fd);
    printf("%s: %s, n = %llu; dJ/dx0[0] = %.12f, finite difference %.12f: "
           "%s, %s\n",
           bitwise && fd_ok ? "ok" : "FAIL", what, (unsigned long long)n,
           g->q[0], fd, bitwise ? "bitwise the stored adjoint" : "DIFFERS",
           fd_ok ? "agrees" : "DISAGREES");
    return bitwise && fd_ok ? 0 : 1;
}

static int run(const uturn_problem_t *p, const char *what, double stop)
{
    uturn_plan_t *plan = NULL;
    uturn_cursor_t *c  = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    if (uturn_plan_create(p, NULL, &plan, &err) != UTURN_OK ||
        uturn_cursor_create(plan, NULL, &c) != UTURN_OK) {
        printf("FAIL: %s: %s\n", what, err.message);
        return 1;
    }
    state_t x, xbar;
    initial(&x, 0);
    const uint64_t n = drive(c, &x, &xbar, stop);
    uturn_stats_t s;
    uturn_stats_init(&s);
    if (uturn_cursor_stats(c, &s) != UTURN_OK)
        uturn_plan_stats(plan, &s);
    printf("%s: %llu forward steps for %llu steps with %d slots\n", what,
           (unsigned long long)s.forward_steps, (unsigned long long)n, SLOTS);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
    return n == 0 ? (printf("FAIL: %s: the run did not end\n", what), 1)
                  : verdict(what, n, &xbar);
}

int main(void)
{
    uturn_problem_t known;
    uturn_problem_init(&known);
    known.planner = UTURN_PLANNER_REVOLVE;
    known.steps   = 500;
    known.slots   = SLOTS;
    uturn_problem_t unknown;
    uturn_problem_init(&unknown);
    unknown.planner   = UTURN_PLANNER_ONLINE;
    unknown.slots     = SLOTS;
    unknown.max_steps = LIMIT;
    int failed = run(&known, "known n (revolve)", 0);
    failed |= run(&unknown, "unknown n (online, stops at energy < 1e-4)", 1e-4);
    return failed;
}
