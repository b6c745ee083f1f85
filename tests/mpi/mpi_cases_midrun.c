/*
 * A callback that fails on one rank in the middle of the run. Without
 * exchanges, declared with local_callbacks ("midrun"), the other ranks
 * finish their runs, and every rank returns the failing rank's status.
 * With exchanges the other ranks wait for the failed one in MPI_Sendrecv:
 * by default ("default_aborts", before 0.3 a hang until the launcher's
 * time limit) and with abort_on_failure ("abort") the job ends with the
 * failing rank's message (tests/mpi/expect.sh). With one rank nothing
 * waits, and the default returns the failure.
 */
#include "mpi_test.h"

#include <stdio.h>

#define STEPS   100u
#define FAIL_AT 5u

static bool is_last(MPI_Comm comm)
{
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    return rank == size - 1;
}

static uturn_status_t run_failing(MPI_Comm comm, chain_t *c,
                                  bool abort_on_failure, bool local,
                                  uturn_report_t *rep,
                                  uturn_mpi_report_t *all, uturn_error_t *err)
{
    uturn_problem_t p;
    uniform_problem(c, 64u * 1024u, &p);
    uturn_executor_t *ex = NULL;
    uturn_mpi_plan_t *mp = NULL;
    uturn_status_t st    = uturn_executor_create(NULL, &ex, err);
    if (st == UTURN_OK)
        st = uturn_mpi_plan_create(comm, ex, &p, NULL, &mp, NULL, err);
    if (st != UTURN_OK) {
        uturn_executor_free(ex);
        return st;
    }
    c->fail_at = is_last(comm) ? FAIL_AT : UINT64_MAX;
    uturn_mpi_run_options_t mo;
    uturn_mpi_run_options_init(&mo);
    mo.abort_on_failure = abort_on_failure;
    mo.local_callbacks  = local;
    uturn_model_t model;
    chain_model(c, false, &model);
    st = uturn_mpi_run(mp, ex, &model, &mo, NULL, rep, all, err);
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    return st;
}

bool case_midrun(MPI_Comm comm)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 300, 300, STEPS), "chain_init");
    c.talk  = false;
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_mpi_report_t all;
    uturn_mpi_report_init(&all);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        run_failing(comm, &c, false, true, &rep, &all, &err);
    int size                = 0;
    MPI_Comm_size(comm, &size);
    char want[32];
    snprintf(want, sizeof want, "rank %d of %d: ", size - 1, size);
    ok &= check(failed_as(st, &err, UTURN_E_CALLBACK, want),
                "every rank returns the failure");
    ok &= check(err.step == FAIL_AT, "the failing step");
    ok &= check(all.failed_rank == size - 1 && all.failed_ranks == 1,
                "the combined report names the rank");
    ok &= check(is_last(comm) ? rep.status == UTURN_E_CALLBACK
                              : rep.status == UTURN_OK,
                "the other ranks finished their runs");
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        printf("  %s: %s\n", uturn_status_name(st), err.message);
    chain_free(&c);
    return ok;
}

bool case_stuck(MPI_Comm comm, bool abort_on_failure)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 300, 300, STEPS), "chain_init");
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        run_failing(comm, &c, abort_on_failure, false, NULL, NULL, &err);
    /* Reached on one rank only: with one rank nothing waits for it. */
    int size = 0;
    MPI_Comm_size(comm, &size);
    ok &= check(size == 1 && st == UTURN_E_CALLBACK && !abort_on_failure,
                "a stuck run returned");
    chain_free(&c);
    return ok;
}
