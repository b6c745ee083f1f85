/*
 * Cases where some rank fails, the last rank each time: every rank must
 * return the same status with a message naming that rank, at once (a rank
 * left waiting would hang the test until its ctest TIMEOUT), and no
 * callback of the model may run anywhere when the failure comes before
 * the first one.
 */
#include "mpi_test.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STEPS  120u
#define BUDGET (64u * 1024u)

/* "rank R of P" for the last rank. */
static void last_rank(MPI_Comm comm, char *buf, size_t cap, const char *rest)
{
    int size = 0;
    MPI_Comm_size(comm, &size);
    snprintf(buf, cap, "rank %d of %d%s", size - 1, size, rest);
}

static bool is_last(MPI_Comm comm)
{
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    return rank == size - 1;
}

/* Plan creation with @p p fails on every rank as @p status, naming the
 * last rank (@p rest follows "rank R of P"). */
static bool create_fails(MPI_Comm comm, const uturn_problem_t *p,
                         uturn_status_t status, const char *rest)
{
    uturn_executor_t *ex = NULL;
    bool ok =
        check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "executor");
    uturn_mpi_plan_t *mp = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_plan_create(comm, ex, p, NULL, &mp, NULL, &err);
    char want[256];
    last_rank(comm, want, sizeof want, rest);
    ok &= check(failed_as(st, &err, status, want), "the agreed failure");
    ok &= check(mp == NULL, "no plan");
    ok &= check(same_everywhere(comm, err.minimum_bytes),
                "the failing rank's minimum on every rank");
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        printf("  %s: %s\n", uturn_status_name(st), err.message);
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    return ok;
}

bool case_infeasible(MPI_Comm comm)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 1000, 1000, STEPS), "chain_init");
    uturn_problem_t p;
    uniform_problem(&c, is_last(comm) ? 6000 : BUDGET, &p);
    ok &= create_fails(comm, &p, UTURN_E_INFEASIBLE, ": its budget of 6000");
    chain_free(&c);
    return ok;
}

bool case_sized_infeasible(MPI_Comm comm)
{
    uint64_t sizes[STEPS];
    for (uint64_t i = 0; i < STEPS; i++)
        sizes[i] = 800 + 8 * i;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_DP;
    p.steps        = STEPS;
    p.step_bytes   = sizes;
    p.budget_bytes = is_last(comm) ? 512 : BUDGET;
    return create_fails(comm, &p, UTURN_E_INFEASIBLE,
                        ": its budget of 512 bytes holds no x_0");
}

/* The last rank changes one thing rank 0 must share: every rank fails,
 * and the message names what differs (before, two storage levels that
 * differed in a cost were quoted as the same text on both ranks). */
static bool disagrees(MPI_Comm comm, const chain_t *c, int what)
{
    static const char *const named[] = {
        "steps 121 where rank 0 has steps 120",
        "dp table_bytes 1048576 where rank 0 has", "dp_mode 2 where rank 0 has",
        "level 1 write_cost 7 where rank 0 has level 1 write_cost 5",
        "capacity none where rank 0 has capacity given"};
    uturn_problem_t p;
    uniform_problem(c, BUDGET, &p);
    p.planner = UTURN_PLANNER_DP;
    uturn_level_t lv[2];
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].bytes      = BUDGET;
    lv[1].slots      = 8;
    lv[1].write_cost = is_last(comm) ? 7 : 5;
    lv[1].read_cost  = 5;
    if (is_last(comm) && what == 0)
        p.steps += 1;
    else if (is_last(comm) && what == 1)
        p.table_bytes = 1u << 20; /* dp's exact or approximate plan */
    else if (is_last(comm) && what == 2)
        p.dp_mode = UTURN_DP_APPROXIMATE;
    else if (is_last(comm) && what == 4) /* it had taken rank 0's slots */
        p.budget_bytes = p.slots = 0;
    if (what == 3) {
        p.planner      = UTURN_PLANNER_HREVOLVE;
        p.budget_bytes = 0;
        p.levels       = lv;
        p.level_count  = 2;
    }
    int size = 0;
    MPI_Comm_size(comm, &size);
    char rest[200];
    snprintf(rest, sizeof rest, " disagrees with rank 0: rank %d has %s",
             size - 1, named[what]);
    return create_fails(comm, &p, UTURN_E_INVALID_ARG, rest);
}

bool case_disagree(MPI_Comm comm)
{
    chain_t c;
    bool ok  = check(chain_init(&c, comm, 1000, 1000, STEPS), "chain_init");
    int size = 0;
    MPI_Comm_size(comm, &size);
    for (int what = 0; what < 5 && size > 1; what++)
        ok &= disagrees(comm, &c, what);
    chain_free(&c);
    return ok;
}

/* The last rank's plan has one slot more: adopting fails everywhere. */
bool case_fingerprint(MPI_Comm comm)
{
    int size = 0;
    MPI_Comm_size(comm, &size);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = STEPS;
    p.slots            = size > 1 && is_last(comm) ? 7u : 6u;
    uturn_plan_t *plan = NULL;
    bool ok =
        check(uturn_plan_create(&p, NULL, &plan, NULL) == UTURN_OK, "plan");
    uturn_mpi_plan_t *mp = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_plan_adopt(comm, plan, NULL, &mp, NULL, &err);
    char want[64];
    last_rank(comm, want, sizeof want, " disagrees with rank 0: rank");
    if (size > 1) {
        ok &= check(failed_as(st, &err, UTURN_E_INVALID_PLAN, want),
                    "fingerprints refused");
        ok &= check(mp == NULL, "no plan");
    }
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0 && size > 1)
        printf("  %s: %s\n", uturn_status_name(st), err.message);
    uturn_mpi_plan_free(mp);
    uturn_plan_free(plan);
    return ok;
}

/* The plan is agreed, but the last rank runs it with a smaller budget:
 * its executor refuses before the first callback, and so does every
 * rank, no callback having run anywhere. */
bool case_run_infeasible(MPI_Comm comm)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 1000, 1000, STEPS), "chain_init");
    uturn_problem_t p;
    uniform_problem(&c, BUDGET, &p);
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "ex");
    uturn_mpi_plan_t *mp = NULL;
    ok &= check(uturn_mpi_plan_create(comm, ex, &p, NULL, &mp, NULL, NULL) ==
                    UTURN_OK,
                "plan");
    uturn_run_options_t ro;
    uturn_run_options_init(&ro);
    ro.budget_bytes = is_last(comm) ? 8192 : 0;
    uturn_mpi_run_options_t mo;
    uturn_mpi_run_options_init(&mo);
    mo.run = &ro;
    uturn_model_t model;
    chain_model(&c, false, &model);
    uturn_mpi_report_t all;
    uturn_mpi_report_init(&all);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_run(mp, ex, &model, &mo, NULL, NULL, &all, &err);
    char want[64];
    last_rank(comm, want, sizeof want, ": the plan needs");
    ok &= check(failed_as(st, &err, UTURN_E_INFEASIBLE, want), "refused");
    ok &= check(c.calls == 0 && max_over(comm, c.calls) == 0,
                "no callback ran on any rank");
    ok &= check(all.collectives == 2 && all.failed_ranks == 1,
                "a vote and a broadcast");
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    chain_free(&c);
    return ok;
}

/* A durable run across ranks refused on every rank before any callback:
 * a directory that cannot be made, an online plan, a resume with nothing
 * committed. A refused run leaves no directory it made (the resume left
 * an empty one). */
struct refusal {
    bool online;
    const char *dir; /* "%ld": rank 0's pid */
    int mode;
    uturn_status_t want;
    const char *what;
};

static bool durable_refusal(MPI_Comm comm, const struct refusal *r)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 1000, 1000, STEPS), "chain_init");
    uturn_problem_t p;
    uniform_problem(&c, BUDGET, &p);
    if (r->online) {
        p.planner   = UTURN_PLANNER_ONLINE;
        p.steps     = 0;
        p.max_steps = STEPS;
    }
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "ex");
    uturn_mpi_plan_t *mp = NULL;
    ok &= check(uturn_mpi_plan_create(comm, ex, &p, NULL, &mp, NULL, NULL) ==
                    UTURN_OK,
                "plan");
    long pid = (long)getpid();
    MPI_Bcast(&pid, 1, MPI_LONG, 0, comm);
    char dir[512];
    snprintf(dir, sizeof dir, r->dir, pid);
    struct stat sb;
    int there = stat(dir, &sb) == 0;
    MPI_Bcast(&there, 1, MPI_INT, 0, comm);
    uturn_run_options_t ro;
    uturn_run_options_init(&ro);
    ro.durable_dir  = dir;
    ro.durable_mode = r->mode;
    uturn_mpi_run_options_t mo;
    uturn_mpi_run_options_init(&mo);
    mo.run = &ro;
    uturn_model_t model;
    chain_model(&c, false, &model);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_run(mp, ex, &model, &mo, NULL, NULL, NULL, &err);
    ok &= check(st == r->want && strstr(err.message, r->what) != NULL, r->what);
    if (!ok)
        printf("  got %s: %s\n", uturn_status_name(st), err.message);
    ok &= check(max_over(comm, c.calls) == 0, "no callback ran on any rank");
    ok &= check(there || (stat(dir, &sb) != 0 && errno == ENOENT),
                "the refused run left no directory");
    MPI_Barrier(comm);
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    chain_free(&c);
    return ok;
}

#define D50  "dddddddddddddddddddddddddddddddddddddddddddddddddd"
#define D200 D50 D50 D50 D50

bool case_durable_refused(MPI_Comm comm)
{
    static const struct refusal cases[] = {
        {false, "/nonexistent/uturn-durable", UTURN_DURABLE_NEW, UTURN_E_IO,
         "durable directory /nonexistent/uturn-durable cannot be made"},
        /* a path of over 400 bytes: named by "..." and its last 93 bytes
         * (79 d's and /uturn-durable), the reason kept */
        {false, "/nonexistent/" D200 "/" D200 "/uturn-durable",
         UTURN_DURABLE_NEW, UTURN_E_IO,
         "durable directory ..." D50 "ddddddddddddddddddddddddddddd"
         "/uturn-durable cannot be made: No such file or directory"},
        {true, "/tmp", UTURN_DURABLE_NEW, UTURN_E_UNSUPPORTED,
         "durable online runs across MPI ranks"},
        {false, "/tmp/uturn-mpi-resume-nothing-%ld", UTURN_DURABLE_RESUME,
         UTURN_E_INVALID_ARG, "no committed durable point"}};
    bool ok = true;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ok &= durable_refusal(comm, &cases[i]); /* each is collective */
    return ok;
}
