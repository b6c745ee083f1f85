/*
 * A Burgers adjoint that survives its batch job: run it again and again
 * with the same directory until it says done (examples/durable_jobs.sh
 * does, one part per "job").
 *
 *   burgers_durable DIR [--steps N] [--grid G] [--slots S] [--every SEC]
 *
 * Each run resumes from DIR's durable point when there is one, else
 * starts. It makes a durable point every SEC seconds (default 1) and,
 * on SIGTERM or SIGUSR1 (what a scheduler sends before a job's time
 * runs out: sbatch --signal=USR1@60, or timeout -s USR1), one more, then
 * stops: exit 3, "stopped". A run killed outright (SIGKILL, a node lost)
 * resumes from its last point. Once the run completes, it checks the
 * gradient bit for bit against an uninterrupted run in this process
 * (not durable, 200 slots in memory) and exits 0; DIR is then removed.
 */
#define _POSIX_C_SOURCE 200809L
#include "burgers_model.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

static volatile sig_atomic_t request;

static void on_signal(int sig)
{
    (void)sig;
    request = UTURN_DURABLE_STOP;
}

struct args {
    const char *dir;
    uint64_t steps, grid, slots;
    double every;
};

static int parse(int argc, char **argv, struct args *a)
{
    *a = (struct args){NULL, 4000, 256, 12, 1.0};
    for (int i = 1; i < argc; i++) {
        const bool value = i + 1 < argc;
        if (strcmp(argv[i], "--steps") == 0 && value)
            a->steps = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--grid") == 0 && value)
            a->grid = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--slots") == 0 && value)
            a->slots = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--every") == 0 && value)
            a->every = strtod(argv[++i], NULL);
        else if (argv[i][0] != '-' && a->dir == NULL)
            a->dir = argv[i];
        else
            return 1;
    }
    return a->dir == NULL || a->steps == 0 || a->grid < 4 || a->slots == 0;
}

/* One run of plan with the model; its gradient into grad. */
static uturn_status_t run(uturn_plan_t *plan, burgers_t *b,
                          const uturn_run_options_t *o, double *grad,
                          uturn_report_t *rep)
{
    uturn_executor_t *ex = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_model_t m;
    burgers_reset(b);
    burgers_model(b, &m);
    uturn_status_t st = uturn_executor_open(NULL, &ex, &err);
    if (st == UTURN_OK)
        st = uturn_executor_run(ex, plan, &m, o, NULL, rep, &err);
    if (st != UTURN_OK && st != UTURN_E_STOPPED)
        fprintf(stderr, "burgers_durable: %s\n", err.message);
    memcpy(grad, burgers_gradient(b), burgers_grid(b) * sizeof *grad);
    uturn_executor_free(ex);
    return st;
}

static uturn_plan_t *plan_of(uint64_t steps, uint64_t slots)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = steps;
    p.slots            = slots;
    uturn_plan_t *plan = NULL;
    return uturn_plan_create(&p, NULL, &plan, NULL) == UTURN_OK ? plan : NULL;
}

/* The durable run; 0 done and checked, 3 stopped, 1 failed. */
static int durable(const struct args *a, burgers_t *b, double *grad,
                   double *want)
{
    uturn_plan_t *plan = plan_of(a->steps, a->slots);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.durable_dir      = a->dir;
    o.durable_tag      = "burgers_durable";
    o.durable_interval = a->every;
    o.durable_request  = &request;
    o.durable_mode     = UTURN_DURABLE_AUTO;
    uturn_report_t rep;
    uturn_report_init(&rep);
    const uturn_status_t st =
        plan != NULL ? run(plan, b, &o, grad, &rep) : UTURN_E_NOMEM;
    if (rep.resumed_action != UTURN_NONE)
        printf("resumed at action %llu (durable point %llu, %llu forward "
               "steps done before)\n",
               (unsigned long long)rep.resumed_action,
               (unsigned long long)rep.durable_point - rep.durable_points,
               (unsigned long long)rep.resumed_forward_steps);
    printf("durable points written: %llu (%llu bytes, %.3f s)\n",
           (unsigned long long)rep.durable_points,
           (unsigned long long)rep.durable_bytes, rep.durable_seconds);
    uturn_plan_free(plan);
    if (st == UTURN_E_STOPPED) {
        printf("stopped at durable point %llu; run again to resume\n",
               (unsigned long long)rep.durable_point);
        return 3;
    }
    if (st != UTURN_OK)
        return 1;
    /* the same adjoint, uninterrupted and not durable, in memory */
    uturn_plan_t *all = plan_of(a->steps, a->steps < 200 ? a->steps : 200);
    uturn_run_options_init(&o);
    const bool same = all != NULL && run(all, b, &o, want, NULL) == UTURN_OK &&
                      memcmp(grad, want, a->grid * sizeof *grad) == 0;
    uturn_plan_free(all);
    printf("done: J = %.17g; the gradient is %s\n", burgers_objective(b),
           same ? "bitwise that of an uninterrupted run"
                : "NOT that of an uninterrupted run: FAIL");
    return same ? 0 : 1;
}

int main(int argc, char **argv)
{
    struct args a;
    if (parse(argc, argv, &a) != 0) {
        fputs("usage: burgers_durable DIR [--steps N] [--grid G] "
              "[--slots S] [--every SEC]\n",
              stderr);
        return 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
    burgers_t *b = NULL;
    double *grad = calloc(a.grid, sizeof *grad);
    double *want = calloc(a.grid, sizeof *want);
    int rc       = 1;
    if (grad != NULL && want != NULL &&
        burgers_create(a.grid, a.steps, &b) == 0)
        rc = durable(&a, b, grad, want);
    burgers_free(b);
    free(grad);
    free(want);
    return rc;
}
