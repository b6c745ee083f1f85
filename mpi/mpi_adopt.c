/*
 * uturn_mpi_plan_adopt(): plans the ranks built themselves (the same plan
 * text parsed on every rank, a custom problem) are compared by
 * fingerprint before any of them runs. Collective calls: MPI_Comm_dup and
 * one vote, plus the calls that name a failing or differing rank.
 */
#include "mpi_internal.h"

#include <string.h>

static void begin(struct uturn__mpi_making *mk, const uturn_plan_t *plan,
                  const uturn_mpi_options_t *options, bool have_out)
{
    memset(mk, 0, sizeof *mk);
    mk->started = MPI_Wtime();
    uturn__mpi_options_read(options, &mk->options);
    uturn_problem_init(&mk->problem);
    uturn_error_init(&mk->error);
    if (plan == NULL || !have_out)
        uturn__mpi_making_failf(mk, UTURN_E_INVALID_ARG, 0, 0,
                                "plan and out must not be NULL");
    mk->mp = uturn__mpi_plan_new(mk->options.alloc);
    if (mk->mp == NULL)
        uturn__mpi_making_failf(mk, UTURN_E_NOMEM, 0, 0,
                                "out of memory for an MPI plan");
}

static void fill_info(struct uturn__mpi_making *mk, const uturn_plan_t *plan,
                      uint64_t fp, const struct uturn__mpi_vote *v)
{
    uturn_mpi_plan_info_t *in = &mk->mp->info;
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    uturn_mpi_plan_info_init(in);
    in->rank             = mk->comm.rank;
    in->ranks            = mk->comm.size;
    in->fingerprint      = fp;
    in->forward_cost     = s.forward_cost;
    in->collectives      = mk->comm.collectives;
    in->planning_seconds = v->seconds_max[0];
}

uturn_status_t uturn_mpi_plan_adopt(MPI_Comm comm, const uturn_plan_t *plan,
                                    const uturn_mpi_options_t *options,
                                    uturn_mpi_plan_t **out,
                                    uturn_mpi_plan_info_t *info,
                                    uturn_error_t *error)
{
    if (out != NULL)
        *out = NULL;
    if (!uturn__mpi_usable(comm))
        return uturn__mpi_fail(error, UTURN_E_INVALID_ARG,
                               "the communicator is MPI_COMM_NULL, or MPI "
                               "is not initialized");
    struct uturn__mpi_making mk;
    begin(&mk, plan, options, out != NULL);
    uturn__mpi_comm_open(&mk.comm, comm);
    struct uturn__mpi_vote v;
    uturn__mpi_vote_init(&v);
    uint64_t fp = 0;
    if (mk.status != UTURN_OK)
        uturn__mpi_vote_fail(&v, &mk.comm);
    else
        uturn_plan_fingerprint(plan, &fp);
    uturn__mpi_vote_key(&v, fp);
    v.seconds_max[0] = MPI_Wtime() - mk.started;
    uturn__mpi_vote(&mk.comm, &v);
    char what[UTURN__MPI_WHAT];
    uturn__mpi_plan_text(plan, fp, what, sizeof what);
    uturn_status_t status = UTURN_OK;
    if (uturn__mpi_settled(&mk, &v, UTURN_E_INVALID_PLAN, fp, what, error,
                           &status))
        return status;
    mk.mp->borrowed = plan;
    fill_info(&mk, plan, fp, &v);
    mk.mp->comm = mk.comm;
    *out        = mk.mp;
    uturn__mpi_export(info, &mk.mp->info, sizeof mk.mp->info);
    return UTURN_OK;
}
