/*
 * uturn_mpi_plan_create(): the order of the collective calls, which is
 * the same on every rank whatever happens on any of them.
 *
 *   1. MPI_Comm_dup.
 *   2. The first vote: any rank failed so far (a bad argument, memory)?
 *      do the shapes agree? the least capacity (uniform states).
 *   3. Per-step sizes, or step costs: MPI_Allreduce(MAX) of the units
 *      and costs (a step takes as long as its slowest rank).
 *   4. The last vote: any rank failed since? do the fingerprints agree?
 *      the ranks' own costs, the limiting rank, the planning time.
 *
 * A failure in a vote adds one broadcast (the failing rank's message);
 * a disagreement, three calls that find and quote the odd rank. Every
 * decision between the calls depends only on what a vote returned, so
 * all ranks take the same branch.
 */
#include "mpi_internal.h"

#include <string.h>

static void begin(struct uturn__mpi_making *mk, const uturn_executor_t *ex,
                  const uturn_problem_t *problem,
                  const uturn_mpi_options_t *options, bool have_out)
{
    memset(mk, 0, sizeof *mk);
    mk->started = MPI_Wtime();
    mk->ex      = ex;
    uturn__mpi_options_read(options, &mk->options);
    uturn_problem_init(&mk->problem);
    if (problem != NULL)
        uturn__mpi_problem_read(problem, &mk->problem);
    uturn_error_init(&mk->error);
    if (problem == NULL || ex == NULL || !have_out)
        uturn__mpi_making_failf(mk, UTURN_E_INVALID_ARG, 0, 0,
                                "executor, problem and out must not be "
                                "NULL");
    mk->mp = uturn__mpi_plan_new(mk->options.alloc);
    if (mk->mp == NULL)
        uturn__mpi_making_failf(mk, UTURN_E_NOMEM, 0, 0,
                                "out of memory for an MPI plan");
}

/* Everything this rank can check and compute before the first vote. */
static void prepare(struct uturn__mpi_making *mk)
{
    if (mk->status != UTURN_OK)
        return;
    uturn__mpi_shape_check(mk);
    if (mk->status != UTURN_OK)
        return;
    if (mk->problem.step_bytes != NULL)
        uturn__mpi_sized_prepare(mk);
    else if (uturn__mpi_online_sized(&mk->problem))
        uturn__mpi_online_prepare(mk);
    else
        uturn__mpi_uniform_prepare(mk);
}

static void release(struct uturn__mpi_making *mk)
{
    const uint64_t n = mk->problem.steps;
    uturn__mpi_free(mk->options.alloc, mk->strides,
                    (size_t)n * sizeof *mk->strides);
    uturn__mpi_free(mk->options.alloc, mk->units,
                    (size_t)(2 * n) * sizeof *mk->units);
    mk->strides = NULL;
    mk->units   = NULL;
}

/* Every rank fails together: the plan and the communicator go. */
static void fail_all(struct uturn__mpi_making *mk)
{
    release(mk);
    uturn_plan_free(mk->plan);
    mk->plan = NULL;
    uturn__mpi_plan_delete(mk->mp);
    mk->mp = NULL;
    uturn__mpi_comm_close(&mk->comm);
}

bool uturn__mpi_make_plan(struct uturn__mpi_making *mk,
                          const uturn_problem_t *agreed)
{
    uturn_error_t e;
    uturn_error_init(&e);
    const uturn_status_t st =
        uturn_plan_create(agreed, &mk->mp->alloc.counted, &mk->plan, &e);
    if (st != UTURN_OK)
        uturn__mpi_making_fail(mk, st, &e);
    return st == UTURN_OK;
}

bool uturn__mpi_settled(struct uturn__mpi_making *mk,
                        const struct uturn__mpi_vote *v, uturn_status_t odd,
                        uint64_t key, const char *what, uturn_error_t *error,
                        uturn_status_t *status)
{
    uturn_error_t agreed;
    uturn_error_init(&agreed);
    if (v->failed != 0)
        *status = uturn__mpi_agree_failure(
            &mk->comm, v, mk->status != UTURN_OK ? &mk->error : NULL, &agreed);
    else if (v->key_min != v->key_max)
        *status = uturn__mpi_name_odd_rank(&mk->comm, key, what, odd, &agreed);
    else
        return false;
    uturn__mpi_error_export(&agreed, error);
    fail_all(mk);
    return true;
}

uturn_status_t uturn_mpi_plan_create(
    MPI_Comm comm, const uturn_executor_t *executor,
    const uturn_problem_t *problem, const uturn_mpi_options_t *options,
    uturn_mpi_plan_t **out, uturn_mpi_plan_info_t *info, uturn_error_t *error)
{
    if (out != NULL)
        *out = NULL;
    if (!uturn__mpi_usable(comm))
        return uturn__mpi_fail(error, UTURN_E_INVALID_ARG,
                               "the communicator is MPI_COMM_NULL, or MPI "
                               "is not initialized");
    struct uturn__mpi_making mk;
    begin(&mk, executor, problem, options, out != NULL);
    uturn__mpi_comm_open(&mk.comm, comm);
    prepare(&mk);
    struct uturn__mpi_vote first;
    uturn__mpi_vote_init(&first);
    if (mk.status != UTURN_OK)
        uturn__mpi_vote_fail(&first, &mk.comm);
    const uint64_t key = uturn__mpi_shape_key(&mk);
    uturn__mpi_vote_key(&first, key);
    first.low[0] = mk.own_slots;
    for (uint64_t k = 1; k < mk.level_count; k++)
        first.low[k] = mk.level_own[k]; /* each level's least capacity */
    uturn__mpi_vote(&mk.comm, &first);
    char what[UTURN__MPI_WHAT];
    uturn__mpi_shape_text(&mk, what, sizeof what);
    uturn_status_t status = UTURN_OK;
    if (uturn__mpi_settled(&mk, &first, UTURN_E_INVALID_ARG, key, what, error,
                           &status))
        return status;
    if (mk.problem.step_bytes != NULL)
        uturn__mpi_make_sized(&mk);
    else if (uturn__mpi_online_sized(&mk.problem))
        uturn__mpi_make_online(&mk);
    else
        uturn__mpi_make_uniform(&mk, &first);
    release(&mk);
    return uturn__mpi_make_finish(&mk, out, info, error);
}

static void fill_info(struct uturn__mpi_making *mk,
                      const struct uturn__mpi_vote *last, uint64_t fp)
{
    uturn_mpi_plan_info_t *in = &mk->mp->info;
    const int size            = mk->comm.size;
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(mk->plan, &s);
    uturn_mpi_plan_info_init(in);
    in->rank          = mk->comm.rank;
    in->ranks         = size;
    in->fingerprint   = fp;
    in->forward_cost  = s.forward_cost;
    in->slots         = mk->agreed_slots;
    in->own_slots     = mk->problem.step_bytes != NULL ? 0
                        : mk->own_slots == UINT64_MAX  ? UTURN_NONE
                                                       : mk->own_slots;
    in->limiting_rank = last->low[1] < (uint64_t)size ? (int)last->low[1] : -1;
    in->units         = mk->agreed_units;
    in->own_forward_cost     = mk->own_cost;
    in->own_forward_cost_min = last->low[0] == UINT64_MAX ? 0 : last->low[0];
    in->own_forward_cost_max = last->high[0];
    in->plan_bytes           = mk->mp->alloc.live;
    in->collectives          = mk->comm.collectives;
    in->planning_seconds     = last->seconds_max[0];
}

uturn_status_t uturn__mpi_make_finish(struct uturn__mpi_making *mk,
                                      uturn_mpi_plan_t **out,
                                      uturn_mpi_plan_info_t *info,
                                      uturn_error_t *error)
{
    struct uturn__mpi_vote last;
    uturn__mpi_vote_init(&last);
    if (mk->status != UTURN_OK)
        uturn__mpi_vote_fail(&last, &mk->comm);
    uint64_t fp = 0;
    if (mk->plan != NULL)
        uturn_plan_fingerprint(mk->plan, &fp);
    uturn__mpi_vote_key(&last, fp);
    if (mk->own_cost != 0) {
        last.low[0]  = mk->own_cost;
        last.high[0] = mk->own_cost;
    }
    if (mk->limiting)
        last.low[1] = (uint64_t)mk->comm.rank;
    last.seconds_max[0] = MPI_Wtime() - mk->started;
    uturn__mpi_vote(&mk->comm, &last);
    char what[UTURN__MPI_WHAT];
    uturn__mpi_plan_text(mk->plan, fp, what, sizeof what);
    uturn_status_t status = UTURN_OK;
    if (uturn__mpi_settled(mk, &last, UTURN_E_INVALID_PLAN, fp, what, error,
                           &status))
        return status;
    mk->mp->plan         = mk->plan;
    mk->mp->budget_bytes = mk->problem.budget_bytes;
    if (mk->level_count != 0) /* memory's bytes are this rank's budget */
        mk->mp->budget_bytes = mk->levels[0].slots != 0 ? 0 : mk->levels[0].bytes;
    fill_info(mk, &last, fp);
    mk->mp->comm = mk->comm;
    *out         = mk->mp;
    uturn__mpi_export(info, &mk->mp->info, sizeof mk->mp->info);
    return UTURN_OK;
}
