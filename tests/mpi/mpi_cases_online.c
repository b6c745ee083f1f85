/*
 * Online plans across ranks: the step count is unknown when the plan is
 * made; each rank's own criterion may end the run, and the ranks end
 * together at the first step where any rank says its state is the last.
 * Here the last rank says so at ONLINE_END, the others (but rank 0, which
 * has no criterion at all) only later; every rank must reverse ONLINE_END
 * steps, with the gradient equal bit for bit to a store-all sweep of that
 * many steps, the same counts everywhere, and one collective per step of
 * the first sweep on top of the run's two.
 */
#include "mpi_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ONLINE_MAX 400u  /* the chain's length, beyond any end */
#define ONLINE_END 237u  /* where the last rank's criterion ends the run */
#define ONLINE_LATE 301u /* where the other ranks' criteria would */

struct ended {
    chain_t *c;
    uint64_t end;   /* is_last answers true from this step on */
    uint64_t asked; /* how many times it was asked */
    uint64_t last;  /* the last step it was asked about */
};

static int ended_forward(void *user, uint64_t step)
{
    struct ended *e = user;
    uturn_model_t m;
    chain_model(e->c, false, &m);
    return m.forward(e->c, step);
}

static int ended_turn(void *user)
{
    struct ended *e = user;
    uturn_model_t m;
    chain_model(e->c, false, &m);
    return m.turn(e->c);
}

static int ended_adjoint(void *user, uint64_t step)
{
    struct ended *e = user;
    uturn_model_t m;
    chain_model(e->c, false, &m);
    return m.adjoint(e->c, step);
}

static int ended_is_last(void *user, uint64_t step)
{
    struct ended *e = user;
    e->asked++;
    e->last = step;
    return step >= e->end;
}

/* The chain's model with its callbacks wrapped, and is_last when @p own. */
static void online_model(struct ended *e, bool own, uturn_model_t *model)
{
    chain_model(e->c, false, model);
    model->user    = e;
    model->forward = ended_forward;
    model->turn    = ended_turn;
    model->adjoint = ended_adjoint;
    model->is_last = own ? ended_is_last : NULL;
}

static bool online_plan(chain_t *c, uturn_executor_t *ex, uint64_t sweeps,
                        uturn_mpi_plan_t **mp)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.sweeps       = sweeps;
    p.planner      = UTURN_PLANNER_ONLINE;
    p.steps        = 0;
    p.max_steps    = ONLINE_MAX;
    p.slot_bytes   = chain_bytes(c, 0);
    p.budget_bytes = 12u * 16384u; /* 24 slots of 8000 B, 12 of 16000 */
    uturn_mpi_plan_info_t info;
    uturn_mpi_plan_info_init(&info);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_plan_create(c->comm, ex, &p, NULL, mp, &info, &err);
    bool ok = check(st == UTURN_OK, err.message);
    ok &= check(same_everywhere(c->comm, info.fingerprint), "one fingerprint");
    uturn_stats_t s;
    uturn_stats_init(&s);
    if (st == UTURN_OK)
        uturn_plan_stats(uturn_mpi_plan_core(*mp), &s);
    ok &= check(same_everywhere(c->comm, s.slots), "one slot count");
    uint64_t cost = 0;
    ok &= check(uturn_executor_slot_bytes(ex, p.slot_bytes, &cost) ==
                        UTURN_OK &&
                    cost > 0,
                "slot cost");
    ok &= check(cost > 0 && s.slots == min_over(c->comm, p.budget_bytes / cost),
                "the least capacity over the ranks");
    return ok;
}

static bool online_run(const uturn_mpi_plan_t *mp, uturn_executor_t *ex,
                       struct ended *e, bool own)
{
    uturn_model_t model;
    online_model(e, own, &model);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    uturn_mpi_report_t all;
    uturn_mpi_report_init(&all);
    uturn_error_t err;
    uturn_error_init(&err);
    chain_reset(e->c);
    const uturn_status_t st =
        uturn_mpi_run(mp, ex, &model, NULL, &seen, NULL, &all, &err);
    bool ok = check(st == UTURN_OK, err.message);
    ok &= check(seen.steps == ONLINE_END, "every rank reversed ONLINE_END");
    ok &= check(same_everywhere(e->c->comm, seen.forward_steps),
                "the same forward steps everywhere");
    ok &= check(all.collectives == 2 + ONLINE_END,
                "one collective per first-sweep step, and the run's two");
    if (e->c->rank == 0)
        printf("online: ended at %llu, %llu forward steps, %llu collectives, "
               "%.6f s in them (slowest rank)\n",
               (unsigned long long)seen.steps,
               (unsigned long long)seen.forward_steps,
               (unsigned long long)all.collectives,
               all.collective_seconds_max);
    if (own)
        ok &= check(e->asked == ONLINE_END && e->last == ONLINE_END,
                    "asked after each first-sweep step, up to the end");
    else
        ok &= check(e->asked == 0, "no criterion, never asked");
    return ok;
}

/* Every case's setting: the chain, the store-all gradient of ONLINE_END
 * steps, an executor, the agreed plan of @p sweeps sweeps, and the model's
 * criterion (rank 0 has none when there are several ranks). */
struct online_rig {
    chain_t c, ref;
    uint64_t m;
    double *grad;
    uturn_executor_t *ex;
    uturn_mpi_plan_t *mp;
    struct ended e;
    bool own;
};

static bool rig_open(struct online_rig *r, MPI_Comm comm, uint64_t sweeps)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    memset(r, 0, sizeof *r);
    r->m    = 1000u * (uint64_t)(rank % 2 + 1);
    bool ok = check(chain_init(&r->c, comm, r->m, r->m, ONLINE_MAX),
                    "chain_init") &&
              check(chain_init(&r->ref, comm, r->m, r->m, ONLINE_END),
                    "chain_init");
    r->grad = calloc(r->m, sizeof *r->grad);
    ok &= check(r->grad != NULL && chain_reference(&r->ref, r->grad),
                "reference");
    ok &= check(uturn_executor_open(NULL, &r->ex, NULL) == UTURN_OK,
                "executor");
    ok &= online_plan(&r->c, r->ex, sweeps, &r->mp);
    r->own = size == 1 || rank != 0;
    r->e   = (struct ended){&r->c, rank == size - 1 ? ONLINE_END : ONLINE_LATE,
                            0, 0};
    return ok && r->mp != NULL;
}

static void rig_close(struct online_rig *r)
{
    uturn_mpi_plan_free(r->mp);
    uturn_executor_free(r->ex);
    free(r->grad);
    chain_free(&r->ref);
    chain_free(&r->c);
}

/* The chain's gradient is the store-all one. */
static bool same_as_store_all(const struct online_rig *r, const char *what)
{
    return check(memcmp(r->grad, r->c.xbar, r->m * sizeof *r->grad) == 0,
                 what);
}

bool case_online(MPI_Comm comm)
{
    struct online_rig r;
    bool ok = rig_open(&r, comm, 1);
    if (ok) {
        ok &= online_run(r.mp, r.ex, &r.e, r.own);
        ok &= same_as_store_all(&r, "the gradient equals a store-all sweep "
                                    "of ONLINE_END");
    }
    rig_close(&r);
    return ok;
}

/* Three sweeps of an online plan, on request: sweep 1 finds the end
 * (ONLINE_END, agreed as above), uturn_mpi_sweep runs the two after it;
 * each sweep seeds the same functional, so each gradient is the store-all
 * one, bit for bit, on every rank. */
bool case_online_sweeps(MPI_Comm comm)
{
    struct online_rig r;
    bool ok = rig_open(&r, comm, 3);
    uturn_model_t model;
    online_model(&r.e, r.own, &model);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.sweeps_on_request = true;
    uturn_mpi_run_options_t mo;
    uturn_mpi_run_options_init(&mo);
    mo.run = &o;
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    chain_reset(&r.c);
    uturn_status_t st = !ok ? UTURN_E_INVALID_ARG
                            : uturn_mpi_run(r.mp, r.ex, &model, &mo, NULL,
                                            &rep, NULL, &err);
    ok &= check(st == UTURN_OK, err.message) && same_as_store_all(&r, "sweep 1");
    for (uint64_t j = 2; st == UTURN_OK && j <= 3; j++) {
        memset(r.c.xbar, 0, r.m * sizeof *r.c.xbar);
        st = uturn_mpi_sweep(r.mp, r.ex, &model, NULL, NULL, &rep, NULL, &err);
        ok &= check(st == UTURN_OK, err.message);
        ok &= same_as_store_all(&r, "a further sweep's gradient");
        ok &= check(rep.sweeps_done == j && rep.trajectory_held == (j < 3),
                    "sweeps done");
    }
    rig_close(&r);
    return ok;
}
