/*
 * Online plans across ranks with sizes as the run goes: each rank has its
 * own budget and states of its own sizes, which no rank knows before the
 * run, growing at different rates (rank 0's from small to large, the
 * others' from large to a little larger), so that the most constrained
 * rank changes along the chain. Every rank must make the same plan (the
 * same forward steps), stay within its own budget, and get the gradient
 * of a store-all sweep bit for bit; one collective per first-sweep state
 * and one for x_0 on top of the run's two. A rank whose budget holds no
 * state past x_50 or so makes every rank keep none past it (and still get
 * the gradient); one whose budget cannot hold x_0 fails every rank at
 * once, before any forward step, all naming it.
 */
#include "mpi_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZED_MAX 400u /* the chain's length, beyond the end */
#define SIZED_END 211u /* where the last rank's criterion ends the run */
#define TIGHT_END 100u /* the same, with the tight budget (see below) */

struct grown {
    chain_t *c;
    uint64_t end; /* is_last true from here (UINT64_MAX: never) */
};

static int g_forward(void *u, uint64_t step)
{
    struct grown *g = u;
    uturn_model_t m;
    chain_model(g->c, true, &m);
    return m.forward(g->c, step);
}

static int g_turn(void *u)
{
    struct grown *g = u;
    uturn_model_t m;
    chain_model(g->c, true, &m);
    return m.turn(g->c);
}

static int g_adjoint(void *u, uint64_t step)
{
    struct grown *g = u;
    uturn_model_t m;
    chain_model(g->c, true, &m);
    return m.adjoint(g->c, step);
}

static int g_save(void *u, uint64_t step, void *dst, uint64_t bytes)
{
    struct grown *g = u;
    uturn_model_t m;
    chain_model(g->c, true, &m);
    return m.save(g->c, step, dst, bytes);
}

static int g_load(void *u, uint64_t step, const void *src, uint64_t bytes)
{
    struct grown *g = u;
    uturn_model_t m;
    chain_model(g->c, true, &m);
    return m.load(g->c, step, src, bytes);
}

static uint64_t g_size(void *u, uint64_t step)
{
    return chain_bytes(((struct grown *)u)->c, step);
}

static int g_is_last(void *u, uint64_t step)
{
    return step >= ((struct grown *)u)->end;
}

static void grown_model(struct grown *g, uturn_model_t *m)
{
    uturn_model_init(m);
    m->user       = g;
    m->forward    = g_forward;
    m->turn       = g_turn;
    m->adjoint    = g_adjoint;
    m->save       = g_save;
    m->load       = g_load;
    m->state_size = g_size;
    m->is_last    = g_is_last;
}

/* Rank 0: 300 to 6000 doubles over SIZED_MAX steps; the others: 1500 to
 * 1800 (rank 0's states pass theirs, against its budget, near step 170).
 * @p steps: how many the chain's sweep takes (the reference's). */
static bool grown_chain(chain_t *c, MPI_Comm comm, int rank, uint64_t steps)
{
    const bool ok = rank == 0 ? chain_init(c, comm, 300, 6000, SIZED_MAX)
                              : chain_init(c, comm, 1500, 1800, SIZED_MAX);
    c->steps      = steps;
    return ok;
}

/* The agreed plan for this rank's @p budget; false (checked, so the
 * message is printed) when it is not made. */
static bool sized_plan(MPI_Comm comm, uturn_executor_t *ex, uint64_t budget,
                       uturn_mpi_plan_t **mp, uturn_mpi_plan_info_t *info,
                       uturn_error_t *err)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_ONLINE;
    p.max_steps    = SIZED_MAX;
    p.budget_bytes = budget;
    uturn_mpi_plan_info_init(info);
    uturn_error_init(err);
    return check(uturn_mpi_plan_create(comm, ex, &p, NULL, mp, info, err) ==
                     UTURN_OK,
                 err->message);
}

static uturn_status_t sized_run(const uturn_mpi_plan_t *mp,
                                uturn_executor_t *ex, struct grown *g,
                                uturn_stats_t *seen, uturn_report_t *rep,
                                uturn_mpi_report_t *all, uturn_error_t *err)
{
    uturn_model_t m;
    grown_model(g, &m);
    uturn_stats_init(seen);
    uturn_report_init(rep);
    uturn_mpi_report_init(all);
    uturn_error_init(err);
    chain_reset(g->c);
    g->c->calls = 0;
    return uturn_mpi_run(mp, ex, &m, NULL, seen, rep, all, err);
}

/* @p roomy: every rank's budget holds several of its largest states, so
 * the plan keeps some (else it may keep x_0 alone). */
static bool sized_ok(chain_t *c, uturn_executor_t *ex, const double *grad,
                     uint64_t budget, bool roomy, uint64_t end)
{
    uturn_mpi_plan_t *mp = NULL;
    uturn_mpi_plan_info_t info;
    uturn_error_t err;
    bool ok = sized_plan(c->comm, ex, budget, &mp, &info, &err);
    ok &= check(same_everywhere(c->comm, info.fingerprint), "one plan");
    ok &= check(info.units == UTURN_MPI_ONLINE_UNITS, "in the online units");
    struct grown g = {c, c->rank == c->size - 1 ? end : UINT64_MAX};
    uturn_stats_t seen;
    uturn_report_t rep;
    uturn_mpi_report_t all;
    ok &= check(mp != NULL &&
                    sized_run(mp, ex, &g, &seen, &rep, &all, &err) == UTURN_OK,
                err.message);
    ok &= check(seen.steps == end,
                "every rank reversed to where the last rank ended");
    ok &= check(same_everywhere(c->comm, seen.forward_steps),
                "the same forward steps everywhere: one plan");
    const uint64_t all_from_x0 = end * (end + 1) / 2;
    ok &= check(seen.forward_steps > end &&
                    (roomy ? seen.forward_steps < all_from_x0
                           : seen.forward_steps <= all_from_x0),
                "states recomputed, no more than from x_0 each time");
    ok &= check(seen.peak_bytes <= budget && rep.measured_peak_bytes <= budget,
                "within this rank's own budget");
    ok &= check(all.collectives == 2 + 1 + end,
                "the run's two, x_0's, and one per first-sweep state");
    ok &= check(memcmp(grad, c->xbar, c->len[0] * sizeof *grad) == 0,
                "the gradient equals a store-all sweep");
    if (c->rank == 0)
        printf("online sized: %llu forward steps for %llu, peak %llu of "
               "%llu bytes on rank 0, %llu collectives, %.6f s in them "
               "(slowest rank)\n",
               (unsigned long long)seen.forward_steps,
               (unsigned long long)seen.steps,
               (unsigned long long)seen.peak_bytes, (unsigned long long)budget,
               (unsigned long long)all.collectives, all.collective_seconds_max);
    uturn_mpi_plan_free(mp);
    return ok;
}

/* The last rank's budget cannot hold x_0: every rank fails at once, with
 * the same status, naming it, before any callback. */
static bool sized_too_small(chain_t *c, uturn_executor_t *ex, uint64_t budget)
{
    const uint64_t mine  = c->rank == c->size - 1 ? 64 : budget;
    uturn_mpi_plan_t *mp = NULL;
    uturn_mpi_plan_info_t info;
    uturn_error_t err;
    bool ok        = sized_plan(c->comm, ex, mine, &mp, &info, &err);
    struct grown g = {c, UINT64_MAX};
    uturn_stats_t seen;
    uturn_report_t rep;
    uturn_mpi_report_t all;
    const uturn_status_t st =
        mp != NULL ? sized_run(mp, ex, &g, &seen, &rep, &all, &err)
                   : UTURN_E_INVALID_ARG;
    char want[32];
    snprintf(want, sizeof want, "rank %d of %d: x_", c->size - 1, c->size);
    ok &= check(st == UTURN_E_INFEASIBLE, uturn_status_name(st));
    ok &= check(strstr(err.message, want) == err.message, err.message);
    ok &= check(all.failed_rank == c->size - 1 && all.failed_ranks == 1,
                "the report names the one rank whose state did not fit");
    ok &= check(c->calls == 0 && seen.forward_steps == 0,
                "no callback ran anywhere");
    uturn_mpi_plan_free(mp);
    return ok;
}

static int own_agree(void *u, uint64_t step, int *last, uint64_t *share)
{
    (void)u, (void)step, (void)last, (void)share;
    return 0;
}

/* A model with an agree of its own: refused on every rank, before any
 * callback (the layer's agree is what keeps the ranks together). */
static bool own_agree_refused(chain_t *c, uturn_executor_t *ex, uint64_t budget)
{
    uturn_mpi_plan_t *mp = NULL;
    uturn_mpi_plan_info_t info;
    uturn_error_t err;
    bool ok        = sized_plan(c->comm, ex, budget, &mp, &info, &err);
    struct grown g = {c, UINT64_MAX};
    uturn_model_t m;
    grown_model(&g, &m);
    m.agree  = own_agree;
    c->calls = 0;
    const uturn_status_t st =
        mp != NULL ? uturn_mpi_run(mp, ex, &m, NULL, NULL, NULL, NULL, &err)
                   : UTURN_E_INVALID_ARG;
    ok &= check(st == UTURN_E_INVALID_ARG &&
                    strstr(err.message, "agree is the MPI layer's own"),
                err.message);
    ok &= check(c->calls == 0, "no callback ran");
    uturn_mpi_plan_free(mp);
    return ok;
}

/* The gradient of a store-all sweep of @p steps into @p grad. */
static bool reference(MPI_Comm comm, int rank, uint64_t steps, double *grad)
{
    chain_t ref;
    const bool ok =
        grown_chain(&ref, comm, rank, steps) && chain_reference(&ref, grad);
    chain_free(&ref);
    return ok;
}

bool case_online_sized(MPI_Comm comm)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    chain_t c;
    bool ok       = check(grown_chain(&c, comm, rank, SIZED_MAX), "chain_init");
    double *grad  = calloc(c.m, sizeof *grad);
    double *tgrad = calloc(c.m, sizeof *tgrad);
    ok &= check(grad != NULL && tgrad != NULL &&
                    reference(comm, rank, SIZED_END, grad) &&
                    reference(comm, rank, TIGHT_END, tgrad),
                "references");
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_open(NULL, &ex, NULL) == UTURN_OK, "executor");
    const uint64_t budget = rank == 0 ? 160u * 1024u : 96u * 1024u;
    ok &= ok && sized_ok(&c, ex, grad, budget, true, SIZED_END);
    /* A budget of 4 MiB everywhere: at x_1 it holds some 350 states on
     * the ranks but 0 (1747 on rank 0), past the 256 the online family
     * plans, so every rank's plan grows there, and rank 0's growing
     * states then take slots away on every rank. */
    ok &= ok && sized_ok(&c, ex, grad, 4u * 1024u * 1024u, true, SIZED_END);
    /* The last rank's budget: x_0 and a page, which holds no state past
     * x_14 on rank 0, x_48 on the others; states past it are kept by no
     * rank, and the plan recomputes from x_0 (a shorter run: TIGHT_END). */
    const uint64_t tight =
        rank == c.size - 1 ? chain_bytes(&c, 0) + 4096 : budget;
    ok &= ok && sized_ok(&c, ex, tgrad, tight, false, TIGHT_END);
    ok &= ok && sized_too_small(&c, ex, budget);
    ok &= ok && own_agree_refused(&c, ex, budget);
    uturn_executor_free(ex);
    free(grad);
    free(tgrad);
    chain_free(&c);
    return ok;
}
