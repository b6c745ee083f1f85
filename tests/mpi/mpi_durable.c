/*
 * A durable run across MPI ranks, for tests/mpi/durable_kills.sh:
 *
 *   mpi_durable DIR KILL_RANK KILL_AT
 *
 * runs the ring chain (mpi_chain.h: every forward and adjoint step
 * exchanges with both neighbours) as a durable run in DIR (mode auto: it
 * resumes the committed point if there is one), asking for a point every
 * 5 forward steps. Rank KILL_RANK raises SIGKILL at its KILL_AT-th
 * callback (forward, turn, adjoint, save_adjoint; -1: no kill), which
 * ends the whole job. A run that completes checks, on every rank, that
 * its gradient is the store-all reference's bit for bit and that this
 * process took exactly the forward steps the plan had left after the
 * point it resumed from, and rank 0 prints "ok", the callbacks it made
 * and where it resumed; otherwise "FAIL" and exit 1.
 */
#include "mpi_chain.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn_mpi.h>

#define STEPS 150
#define EVERY 5

struct killer {
    chain_t *c;
    uturn_model_t inner;
    uint64_t calls, kill_at, forwards;
    volatile sig_atomic_t request;
};

static void tick(struct killer *k)
{
    if (++k->calls == k->kill_at)
        raise(SIGKILL);
}

static int k_forward(void *user, uint64_t step)
{
    struct killer *k = user;
    tick(k);
    k->forwards += 1;
    if (k->forwards % EVERY == 0)
        k->request = UTURN_DURABLE_POINT;
    return k->inner.forward(k->inner.user, step);
}

static int k_turn(void *user)
{
    struct killer *k = user;
    tick(k);
    return k->inner.turn(k->inner.user);
}

static int k_adjoint(void *user, uint64_t step)
{
    struct killer *k = user;
    tick(k);
    return k->inner.adjoint(k->inner.user, step);
}

/* The adjoint state: xbar and this rank's J. */
static int k_save_adjoint(void *user, void *dst, uint64_t bytes)
{
    struct killer *k = user;
    tick(k);
    memcpy(dst, k->c->xbar, k->c->m * sizeof(double));
    memcpy((char *)dst + k->c->m * sizeof(double), &k->c->J, sizeof k->c->J);
    return bytes == (k->c->m + 1) * sizeof(double) ? 0 : 1;
}

static int k_load_adjoint(void *user, const void *src, uint64_t bytes)
{
    struct killer *k = user;
    memcpy(k->c->xbar, src, k->c->m * sizeof(double));
    memcpy(&k->c->J, (const char *)src + k->c->m * sizeof(double),
           sizeof k->c->J);
    return bytes == (k->c->m + 1) * sizeof(double) ? 0 : 1;
}

static uturn_model_t killer_model(struct killer *k)
{
    uturn_model_t m = k->inner;
    m.user          = k;
    m.forward       = k_forward;
    m.turn          = k_turn;
    m.adjoint       = k_adjoint;
    m.adjoint_bytes = (k->c->m + 1) * sizeof(double);
    m.save_adjoint  = k_save_adjoint;
    m.load_adjoint  = k_load_adjoint;
    return m;
}

/* The run; its status, report and the plan's forward steps. */
static uturn_status_t run(chain_t *c, struct killer *k, const char *dir,
                          uturn_report_t *rep, uint64_t *planned)
{
    uturn_executor_t *ex = NULL;
    uturn_mpi_plan_t *mp = NULL;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps      = c->steps;
    p.slots      = 7;
    p.slot_bytes = chain_bytes(c, 0);
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_status_t st = uturn_executor_create(NULL, &ex, &err);
    if (st == UTURN_OK)
        st = uturn_mpi_plan_create(c->comm, ex, &p, NULL, &mp, NULL, &err);
    uturn_stats_t s;
    uturn_stats_init(&s);
    if (st == UTURN_OK)
        st = uturn_plan_stats(uturn_mpi_plan_core(mp), &s);
    *planned              = s.forward_steps;
    const uturn_model_t m = killer_model(k);
    uturn_run_options_t ro;
    uturn_run_options_init(&ro);
    ro.durable_dir     = dir;
    ro.durable_tag     = "mpi ring chain";
    ro.durable_request = &k->request;
    ro.durable_mode    = UTURN_DURABLE_AUTO;
    uturn_mpi_run_options_t mo;
    uturn_mpi_run_options_init(&mo);
    mo.run = &ro;
    if (st == UTURN_OK)
        st = uturn_mpi_run(mp, ex, &m, &mo, NULL, rep, NULL, &err);
    if (st != UTURN_OK)
        printf("FAIL rank %d: %s: %s\n", c->rank, uturn_status_name(st),
               err.message);
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    return st;
}

static bool same_gradient(chain_t *c, const double *got)
{
    double *ref   = malloc(c->m * sizeof *ref);
    const bool ok = ref != NULL && chain_reference(c, ref) &&
                    memcmp(got, ref, c->len[0] * sizeof *ref) == 0;
    free(ref);
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    chain_t c;
    struct killer k;
    memset(&k, 0, sizeof k);
    int bad = argc != 4 || !chain_init(&c, MPI_COMM_WORLD, 40, 40, STEPS);
    if (bad == 0) {
        k.c = &c;
        chain_model(&c, false, &k.inner);
        k.kill_at = atoi(argv[2]) == c.rank ? strtoull(argv[3], NULL, 10) : 0;
        uturn_report_t rep;
        uturn_report_init(&rep);
        uint64_t planned = 0;
        double *grad     = malloc(c.m * sizeof *grad);
        bad = grad == NULL || run(&c, &k, argv[1], &rep, &planned) != UTURN_OK;
        if (bad == 0) {
            memcpy(grad, c.xbar, c.m * sizeof *grad);
            bad = !same_gradient(&c, grad) ||
                  k.forwards != planned - rep.resumed_forward_steps;
        }
        if (bad != 0)
            printf("FAIL rank %d: gradient or forward steps (%llu done, the "
                   "plan had %llu left)\n",
                   c.rank, (unsigned long long)k.forwards,
                   (unsigned long long)(planned - rep.resumed_forward_steps));
        MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (c.rank == 0 && bad == 0)
            printf("ok calls %llu resumed_forward %llu points %llu\n",
                   (unsigned long long)k.calls,
                   (unsigned long long)rep.resumed_forward_steps,
                   (unsigned long long)rep.durable_points);
        free(grad);
        chain_free(&c);
    }
    MPI_Finalize();
    return bad != 0;
}
