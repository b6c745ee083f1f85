/*
 * Failures in an online plan's first sweep, where every state has an end
 * vote (one collective per state). A rank that failed once left the
 * others waiting in that vote while it went on to the run's last vote:
 * Open MPI killed the job with MPI_ERR_TRUNCATE and no uturn message
 * (issue 22, finding 4). With local callbacks the failing rank now joins
 * the next end vote carrying its failure, so every rank stops there and
 * returns the failing rank's status, step and message; without them the
 * job aborts naming the rank (tests/mpi/expect.sh, case "default_aborts").
 * Also: an online plan without max_steps whose model has is_last on no
 * rank is refused on every rank before any callback (finding 3), and one
 * rank's is_last suffices.
 */
#include "mpi_test.h"

#include <stdio.h>
#include <string.h>

#define OF_STEPS 60u /* is_last says so here, on every rank */
#define OF_FAIL  5u  /* the last rank's forward fails here */
#define OF_BIG   7u  /* or its state_size is past state_bytes here */

struct of_model {
    chain_t *c;
    bool big;      /* state_size of x_OF_BIG past state_bytes here */
    bool end_here; /* this rank's model has is_last */
    uturn_model_t inner;
};

static int of_forward(void *u, uint64_t step)
{
    struct of_model *o = u;
    return o->inner.forward(o->c, step);
}

static int of_turn(void *u)
{
    struct of_model *o = u;
    return o->inner.turn(o->c);
}

static int of_adjoint(void *u, uint64_t step)
{
    struct of_model *o = u;
    return o->inner.adjoint(o->c, step);
}

static int of_save(void *u, uint64_t step, void *dst, uint64_t bytes)
{
    struct of_model *o = u;
    return o->inner.save(o->c, step, dst, bytes);
}

static int of_load(void *u, uint64_t step, const void *src, uint64_t bytes)
{
    struct of_model *o = u;
    return o->inner.load(o->c, step, src, bytes);
}

static uint64_t of_size(void *u, uint64_t step)
{
    const struct of_model *o = u;
    return o->inner.state_bytes * (o->big && step == OF_BIG ? 3 : 1);
}

static int of_is_last(void *u, uint64_t step)
{
    (void)u;
    return step == OF_STEPS;
}

static void of_wrap(struct of_model *o, chain_t *c, bool saveload,
                    uturn_model_t *m)
{
    o->c = c;
    chain_model(c, saveload, &o->inner);
    *m         = o->inner;
    m->user    = o;
    m->forward = of_forward;
    m->turn    = of_turn;
    m->adjoint = of_adjoint;
    m->is_last = o->end_here ? of_is_last : NULL;
    if (saveload) {
        m->save       = of_save;
        m->load       = of_load;
        m->state_size = of_size;
    }
}

/* An online plan: slots from a budget (bytes false) or a byte budget
 * with sizes as they come (bytes true); max_steps 0 or 400. */
static uturn_status_t of_plan(chain_t *c, uturn_executor_t *ex, bool bytes,
                              uint64_t max_steps, uturn_mpi_plan_t **mp)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_ONLINE;
    p.max_steps    = max_steps;
    p.slot_bytes   = bytes ? 0 : chain_bytes(c, 0);
    p.budget_bytes = 8u * 4096u;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_plan_create(c->comm, ex, &p, NULL, mp, NULL, &err);
    check(st == UTURN_OK, err.message);
    return st;
}

struct of_case {
    bool bytes, saveload, big, local;
    uint64_t fail_at, max_steps;
};

static uturn_status_t of_run(MPI_Comm comm, const struct of_case *k, chain_t *c,
                             uturn_mpi_report_t *all, uturn_error_t *err)
{
    const bool last_rank = c->rank == c->size - 1;
    uturn_executor_t *ex = NULL;
    uturn_mpi_plan_t *mp = NULL;
    uturn_status_t st    = uturn_executor_create(NULL, &ex, err);
    if (st == UTURN_OK)
        st = of_plan(c, ex, k->bytes, k->max_steps, &mp);
    if (st != UTURN_OK) {
        uturn_executor_free(ex);
        return st;
    }
    (void)comm;
    c->fail_at        = last_rank ? k->fail_at : UINT64_MAX;
    struct of_model o = {.big = k->big && last_rank, .end_here = true};
    uturn_model_t model;
    of_wrap(&o, c, k->saveload, &model);
    uturn_mpi_run_options_t ro;
    uturn_mpi_run_options_init(&ro);
    ro.local_callbacks = k->local;
    chain_reset(c);
    c->calls = 0;
    st       = uturn_mpi_run(mp, ex, &model, &ro, NULL, NULL, all, err);
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    return st;
}

/* Every rank returns the last rank's failure, with its step. */
static bool of_failed_together(chain_t *c, const struct of_case *k,
                               uturn_status_t want, uint64_t step,
                               const char *words)
{
    uturn_mpi_report_t all;
    uturn_mpi_report_init(&all);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = of_run(c->comm, k, c, &all, &err);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "rank %d of %d: ", c->size - 1, c->size);
    bool ok = check(failed_as(st, &err, want, prefix), "the agreed failure");
    ok &= check(strstr(err.message, words) != NULL, err.message);
    ok &= check(err.step == step, "the failing step");
    ok &= check(all.failed_rank == c->size - 1 && all.failed_ranks == 1,
                "the combined report names the failing rank alone");
    ok &= check(same_everywhere(c->comm, all.collectives),
                "every rank made the same collectives");
    /* The others stopped at the next end vote, not at the end. */
    ok &= check(c->calls < 3 * OF_STEPS, "the other ranks stopped early");
    if (c->rank == 0)
        printf("  %s: %s\n", uturn_status_name(st), err.message);
    return ok;
}

bool case_online_fail(MPI_Comm comm)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 300, 300, 400), "chain_init");
    c.talk  = false; /* the callbacks are local */
    const struct of_case kinds[] = {
        {.bytes = false, .local = true, .fail_at = OF_FAIL, .max_steps = 400},
        {.bytes = false, .local = true, .fail_at = OF_FAIL, .max_steps = 0},
        {.bytes     = true,
         .saveload  = true,
         .local     = true,
         .fail_at   = OF_FAIL,
         .max_steps = 400},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        ok &= of_failed_together(&c, &kinds[i], UTURN_E_CALLBACK, OF_FAIL,
                                 "the forward callback returned 1");
    /* A failure of the executor itself (not a callback's) on one rank. */
    const struct of_case big = {.saveload  = true,
                                .big       = true,
                                .local     = true,
                                .fail_at   = UINT64_MAX,
                                .max_steps = 400};
    ok &= of_failed_together(&c, &big, UTURN_E_INVALID_ARG, OF_BIG,
                             "state_size gives x_7");
    /* The executor is usable again, and a clean run is unchanged. */
    uturn_mpi_report_t all;
    uturn_mpi_report_init(&all);
    uturn_error_t err;
    uturn_error_init(&err);
    struct of_case clean = kinds[0];
    clean.fail_at        = UINT64_MAX;
    ok &= check(of_run(comm, &clean, &c, &all, &err) == UTURN_OK, err.message);
    chain_free(&c);
    return ok;
}

/* No rank's model has is_last and the plan has no max_steps: refused on
 * every rank before any callback of the model. */
bool case_online_no_end(MPI_Comm comm)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 300, 300, 400), "chain_init");
    uturn_executor_t *ex = NULL;
    uturn_mpi_plan_t *mp = NULL;
    ok &= check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "ex");
    ok &= check(of_plan(&c, ex, false, 0, &mp) == UTURN_OK, "plan");
    for (int own = 0; own < 2 && ok; own++) {
        /* own: only the last rank's model has is_last. */
        struct of_model o = {.end_here = own && c.rank == c.size - 1};
        uturn_model_t model;
        of_wrap(&o, &c, false, &model);
        chain_reset(&c);
        c.calls = 0;
        uturn_error_t err;
        uturn_error_init(&err);
        const uturn_status_t st =
            uturn_mpi_run(mp, ex, &model, NULL, NULL, NULL, NULL, &err);
        if (own) {
            ok &= check(st == UTURN_OK, err.message);
            continue;
        }
        ok &= check(failed_as(st, &err, UTURN_E_INVALID_ARG, "rank 0 of "),
                    "refused on every rank");
        ok &= check(strstr(err.message, "is_last") != NULL, err.message);
        ok &= check(c.calls == 0, "no callback of the model ran");
        if (c.rank == 0)
            printf("  %s: %s\n", uturn_status_name(st), err.message);
    }
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    chain_free(&c);
    return ok;
}
