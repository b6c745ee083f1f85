/*
 * Several sweeps across ranks when something goes wrong (an outside
 * review's findings):
 * - sweeps_fail: the last rank's adjoint fails in sweep 2, asked for by
 *   uturn_mpi_sweep, with local callbacks: every rank returns that rank's
 *   failure (an online plan made the other ranks wait for end votes that
 *   later sweeps never make: they returned success, then the job died in
 *   MPI_ERR_TRUNCATE), no rank holds a trajectory any more (the ranks
 *   that had not failed kept theirs, and refused the next run), and a
 *   new run then succeeds on every rank; for revolve and online plans.
 * - sweeps_refused: a problem of several sweeps that the core refuses
 *   (per-step sizes, an online plan sized as it goes) is refused the same
 *   way across ranks; the layer had dropped `sweeps` and made a plan of
 *   one sweep; sweeps that differ between the ranks are refused naming
 *   the field, as for max_steps (they were an INVALID_PLAN about
 *   fingerprints).
 * - sweep_ignores_run: uturn_mpi_sweep does not read options->run, as
 *   documented: a durable directory there (mode RESUME, which would be
 *   refused for want of a point) is neither read nor made.
 * - sweeps_request_differs: sweeps_on_request on one rank alone is
 *   refused on every rank (it hung).
 */
#define _POSIX_C_SOURCE 200809L
#include "mpi_test.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SF_STEPS  80u
#define SF_FAIL   40u /* the last rank's adjoint fails here in sweep 2 */
#define SF_BUDGET (24u * 8192u)

struct sf_ended {
    chain_t *c;
    uturn_model_t inner;
    uint64_t fail_at; /* adjoint(fail_at) returns 7 (UINT64_MAX: never) */
};

static int sf_forward(void *u, uint64_t step)
{
    struct sf_ended *e = u;
    return e->inner.forward(e->c, step);
}

static int sf_turn(void *u)
{
    struct sf_ended *e = u;
    return e->inner.turn(e->c);
}

static int sf_adjoint(void *u, uint64_t step)
{
    struct sf_ended *e = u;
    return step == e->fail_at ? 7 : e->inner.adjoint(e->c, step);
}

static int sf_is_last(void *u, uint64_t step)
{
    (void)u;
    return step >= SF_STEPS;
}

/* The chain's model, its adjoint able to fail; an online plan's also
 * says where the run ends. */
static void sf_model(struct sf_ended *e, chain_t *c, bool online,
                     uturn_model_t *model)
{
    e->c       = c;
    e->fail_at = UINT64_MAX;
    chain_model(c, false, &e->inner);
    *model         = e->inner;
    model->user    = e;
    model->forward = sf_forward;
    model->turn    = sf_turn;
    model->adjoint = sf_adjoint;
    model->is_last = online ? sf_is_last : NULL;
}

static bool sf_plan(chain_t *c, uturn_executor_t *ex, bool online,
                    uturn_mpi_plan_t **mp)
{
    uturn_problem_t p;
    uniform_problem(c, SF_BUDGET, &p);
    p.sweeps = 3;
    if (online) {
        p.planner    = UTURN_PLANNER_ONLINE;
        p.steps      = 0;
        p.max_steps  = 2 * SF_STEPS;
        p.slot_bytes = chain_bytes(c, 0);
    }
    uturn_mpi_plan_info_t info;
    return plan_checked(c->comm, ex, &p, mp, &info);
}

/* Sweep 1 by uturn_mpi_run (sweeps on request), then sweep 2, in which
 * the last rank's forward fails. */
static bool sf_fail_in_sweep_2(chain_t *c, uturn_executor_t *ex,
                               const uturn_mpi_plan_t *mp, bool online)
{
    struct sf_ended e;
    uturn_model_t model;
    sf_model(&e, c, online, &model);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.sweeps_on_request = true;
    uturn_mpi_run_options_t mo;
    uturn_mpi_run_options_init(&mo);
    mo.run             = &o;
    mo.local_callbacks = true;
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    chain_reset(c);
    uturn_status_t st =
        uturn_mpi_run(mp, ex, &model, &mo, NULL, &rep, NULL, &err);
    bool ok   = check(st == UTURN_OK && rep.trajectory_held, err.message);
    e.fail_at = c->rank == c->size - 1 ? SF_FAIL : UINT64_MAX;
    memset(c->xbar, 0, c->len[0] * sizeof *c->xbar);
    uturn_mpi_report_t all;
    uturn_mpi_report_init(&all);
    st        = uturn_mpi_sweep(mp, ex, &model, &mo, NULL, &rep, &all, &err);
    e.fail_at = UINT64_MAX;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "rank %d of %d: ", c->size - 1, c->size);
    ok &= check(failed_as(st, &err, UTURN_E_CALLBACK, prefix),
                "every rank returns the last rank's failure");
    ok &= check(err.step == SF_FAIL, "the failing step");
    ok &= check(all.failed_rank == c->size - 1, "the failing rank named");
    ok &= check(!rep.trajectory_held, "no rank holds the trajectory");
    if (c->rank == 0)
        printf("  %s, sweep 2: %s: %s\n", online ? "online" : "revolve",
               uturn_status_name(st), err.message);
    /* Every rank's executor is free for a new run. */
    chain_reset(c);
    st = uturn_mpi_run(mp, ex, &model, &mo, NULL, &rep, NULL, &err);
    ok &= check(st == UTURN_OK, err.message);
    ok &= check(same_gradient(c), "the new run's gradient");
    uturn_executor_release(ex);
    return ok;
}

bool case_sweeps_fail(MPI_Comm comm)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 1000, 1000, SF_STEPS), "chain_init");
    c.talk  = false; /* the callbacks are local */
    for (int online = 0; online < 2 && ok; online++) {
        uturn_executor_t *ex = NULL;
        uturn_mpi_plan_t *mp = NULL;
        ok &= check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "ex");
        ok &= sf_plan(&c, ex, online, &mp);
        if (ok)
            ok &= sf_fail_in_sweep_2(&c, ex, mp, online);
        uturn_mpi_plan_free(mp);
        uturn_executor_free(ex);
    }
    chain_free(&c);
    return ok;
}

/* @p p across the ranks fails as the core fails it on one rank. */
static bool refused_as_core(MPI_Comm comm, uturn_executor_t *ex,
                            const uturn_problem_t *p, const char *what)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t core, err;
    uturn_error_init(&core);
    uturn_error_init(&err);
    const uturn_status_t want = uturn_plan_create(p, NULL, &plan, &core);
    uturn_plan_free(plan);
    uturn_mpi_plan_t *mp = NULL;
    const uturn_status_t st =
        uturn_mpi_plan_create(comm, ex, p, NULL, &mp, NULL, &err);
    uturn_mpi_plan_free(mp);
    bool ok = check(want != UTURN_OK, "the core refuses it");
    ok &= check(st == want, what);
    ok &= check(strstr(err.message, "sweeps") != NULL ||
                    strstr(err.message, "sweep") != NULL,
                err.message);
    return ok;
}

bool case_sweeps_refused(MPI_Comm comm)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 300, 600, SF_STEPS), "chain_init");
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "ex");
    uint64_t sizes[SF_STEPS];
    for (uint64_t i = 0; i < SF_STEPS; i++)
        sizes[i] = chain_bytes(&c, i);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_DP;
    p.steps        = SF_STEPS;
    p.step_bytes   = sizes;
    p.budget_bytes = SF_BUDGET;
    p.sweeps       = 3;
    ok &= refused_as_core(comm, ex, &p, "per-step sizes with sweeps");
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_ONLINE;
    p.budget_bytes = SF_BUDGET; /* sizes as they come */
    p.sweeps       = 3;
    ok &= refused_as_core(comm, ex, &p, "online sized with sweeps");
    /* Sweeps that differ between the ranks: the field named. */
    uniform_problem(&c, SF_BUDGET, &p);
    p.sweeps             = c.rank == 0 ? 3 : 2;
    uturn_mpi_plan_t *mp = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_plan_create(comm, ex, &p, NULL, &mp, NULL, &err);
    uturn_mpi_plan_free(mp);
    if (c.size > 1) {
        ok &= check(st == UTURN_E_INVALID_ARG, "sweeps differ: refused");
        ok &= check(strstr(err.message, "sweeps 3") != NULL, err.message);
        if (c.rank == 0)
            printf("  %s: %s\n", uturn_status_name(st), err.message);
    }
    uturn_executor_free(ex);
    chain_free(&c);
    return ok;
}

/* A revolve plan of 3 sweeps over the chain, and a run of it asking for
 * further sweeps on request (on this rank when `asked`). */
struct sf_setup {
    chain_t c;
    uturn_executor_t *ex;
    uturn_mpi_plan_t *mp;
    uturn_model_t model;
    uturn_run_options_t o;
    uturn_mpi_run_options_t mo;
    uturn_error_t err;
};

static bool sf_open(struct sf_setup *k, MPI_Comm comm, bool asked)
{
    bool ok =
        check(chain_init(&k->c, comm, 1000, 1000, SF_STEPS), "chain_init");
    k->ex = NULL;
    k->mp = NULL;
    ok &= check(uturn_executor_create(NULL, &k->ex, NULL) == UTURN_OK, "ex");
    ok &= sf_plan(&k->c, k->ex, false, &k->mp);
    chain_model(&k->c, false, &k->model);
    uturn_run_options_init(&k->o);
    k->o.sweeps_on_request = asked;
    uturn_mpi_run_options_init(&k->mo);
    k->mo.run = &k->o;
    uturn_error_init(&k->err);
    chain_reset(&k->c);
    return ok;
}

static void sf_close(struct sf_setup *k)
{
    uturn_executor_release(k->ex);
    uturn_mpi_plan_free(k->mp);
    uturn_executor_free(k->ex);
    chain_free(&k->c);
}

bool case_sweep_ignores_run(MPI_Comm comm)
{
    struct sf_setup k;
    bool ok = sf_open(&k, comm, true);
    ok      = ok && check(uturn_mpi_run(k.mp, k.ex, &k.model, &k.mo, NULL, NULL,
                                        NULL, &k.err) == UTURN_OK,
                          k.err.message);
    /* The sweep's options carry a durable run it must not read. */
    char dir[128];
    snprintf(dir, sizeof dir, "/tmp/uturn-mpi-sweep-run-%ld",
             (long)min_over(comm, (uint64_t)getpid()));
    uturn_run_options_t durable;
    uturn_run_options_init(&durable);
    durable.durable_dir  = dir;
    durable.durable_mode = UTURN_DURABLE_RESUME;
    k.mo.run             = &durable;
    memset(k.c.xbar, 0, k.c.len[0] * sizeof *k.c.xbar);
    ok = ok && check(uturn_mpi_sweep(k.mp, k.ex, &k.model, &k.mo, NULL, NULL,
                                     NULL, &k.err) == UTURN_OK,
                     k.err.message);
    ok &= check(same_gradient(&k.c), "the sweep's gradient");
    struct stat st;
    ok &= check(stat(dir, &st) != 0, "no durable directory made");
    sf_close(&k);
    return ok;
}

/* sweeps_on_request on rank 0 alone (its callbacks exchange with the
 * neighbours): rank 0 would go on to a further sweep that the others
 * never take, and wait in it for ever. Refused on every rank before any
 * callback; on one rank there is nothing to differ. */
bool case_sweeps_request_differs(MPI_Comm comm)
{
    struct sf_setup k;
    bool ok                 = sf_open(&k, comm, false);
    k.o.sweeps_on_request   = k.c.rank == 0;
    k.c.calls               = 0;
    const uturn_status_t st = !ok ? UTURN_E_INVALID_ARG
                                  : uturn_mpi_run(k.mp, k.ex, &k.model, &k.mo,
                                                  NULL, NULL, NULL, &k.err);
    if (k.c.size == 1) {
        ok &= check(st == UTURN_OK, k.err.message);
    } else {
        ok &= check(failed_as(st, &k.err, UTURN_E_INVALID_ARG, "rank 0 of "),
                    "refused on every rank");
        ok &= check(strstr(k.err.message, "sweeps_on_request differs") != NULL,
                    k.err.message);
        ok &= check(k.c.calls == 0, "no callback of the model ran");
        if (k.c.rank == 0)
            printf("  %s: %s\n", uturn_status_name(st), k.err.message);
    }
    sf_close(&k);
    return ok;
}
