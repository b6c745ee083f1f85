/*
 * bench_mpi: what the MPI layer adds per rank, for docs/mpi.md. A weak
 * scaling set-up: every rank the same state (64 KiB) and budget (4 MiB).
 *
 *   create   uturn_mpi_plan_create() for revolve, 1000 steps: best and
 *            median of REPEATS calls, its collective calls, the plan's
 *            bytes on a rank;
 *   sized    the same for dp with per-step sizes (100 steps, 1024 units,
 *            compare off: one table);
 *   run      the added cost of a collective run: REPEATS runs of a
 *            10-step plan with a 64-byte state and empty callbacks through
 *            uturn_mpi_run(), against as many uturn_executor_run() of the
 *            same plan on the same executor; median per run (the slowest
 *            rank's), and the difference, which is the layer's two votes.
 *
 * Times are the slowest rank's (MPI_MAX of each rank's own). Usage:
 * mpirun -np P bench_mpi [REPEATS] (default 200).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn_mpi.h>

#define STATE  (64u * 1024u)
#define BUDGET (4u * 1024u * 1024u)

static int nothing(void *user, uint64_t step)
{
    (void)user;
    (void)step;
    return 0;
}

static int nothing_turn(void *user)
{
    (void)user;
    return 0;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The slowest rank's median and best of @p n times. */
static void summarize(double *t, int n, double *median, double *best)
{
    qsort(t, (size_t)n, sizeof *t, by_value);
    double mine[2] = {t[n / 2], t[0]}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    *median = all[0];
    *best   = all[1];
}

static void create(const uturn_executor_t *ex, const uturn_problem_t *p,
                   const uturn_mpi_options_t *o, int repeats,
                   const char *name, int rank)
{
    double *t = malloc((size_t)repeats * sizeof *t);
    uturn_mpi_plan_info_t info;
    uturn_mpi_plan_info_init(&info);
    for (int i = 0; i < repeats; i++) {
        uturn_mpi_plan_t *mp = NULL;
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        const uturn_status_t st =
            uturn_mpi_plan_create(MPI_COMM_WORLD, ex, p, o, &mp, &info, NULL);
        t[i] = MPI_Wtime() - start;
        uturn_mpi_plan_free(mp);
        if (st != UTURN_OK && rank == 0)
            printf("%s: %s\n", name, uturn_status_name(st));
    }
    double median = 0, best = 0;
    summarize(t, repeats, &median, &best);
    if (rank == 0)
        printf("%-7s median %9.1f us, best %9.1f us, %llu collective "
               "calls, plan %llu bytes per rank\n",
               name, 1e6 * median, 1e6 * best,
               (unsigned long long)info.collectives,
               (unsigned long long)info.plan_bytes);
    free(t);
}

/* Median time per run, through the layer or not. */
static double runs(const uturn_mpi_plan_t *mp, uturn_executor_t *ex,
                   const uturn_model_t *m, int repeats, bool layer)
{
    double *t = malloc((size_t)repeats * sizeof *t);
    for (int i = 0; i < repeats; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        if (layer)
            uturn_mpi_run(mp, ex, m, NULL, NULL, NULL, NULL, NULL);
        else
            uturn_executor_run(ex, uturn_mpi_plan_core(mp), m, NULL, NULL,
                               NULL, NULL);
        t[i] = MPI_Wtime() - start;
    }
    double median = 0, best = 0;
    summarize(t, repeats, &median, &best);
    free(t);
    return median;
}

static void run_cost(uturn_executor_t *ex, int repeats, int rank)
{
    static unsigned char state[64];
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps      = 10;
    p.slot_bytes = sizeof state;
    p.slots      = 4;
    uturn_mpi_plan_t *mp = NULL;
    if (uturn_mpi_plan_create(MPI_COMM_WORLD, ex, &p, NULL, &mp, NULL,
                              NULL) != UTURN_OK)
        return;
    uturn_model_t m;
    uturn_model_init(&m);
    m.forward     = nothing;
    m.turn        = nothing_turn;
    m.adjoint     = nothing;
    m.state       = state;
    m.state_bytes = sizeof state;
    const double plain = runs(mp, ex, &m, repeats, false);
    const double layer = runs(mp, ex, &m, repeats, true);
    if (rank == 0)
        printf("run     median %9.1f us through the layer, %9.1f us "
               "without: %.1f us added per run (2 collective calls)\n",
               1e6 * layer, 1e6 * plain, 1e6 * (layer - plain));
    uturn_mpi_plan_free(mp);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int repeats = argc > 1 ? atoi(argv[1]) : 200;
    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    if (rank == 0)
        printf("bench_mpi: %d ranks, %d repeats\n", size, repeats);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps        = 1000;
    p.slot_bytes   = STATE;
    p.budget_bytes = BUDGET;
    create(ex, &p, NULL, repeats, "create", rank);
    uint64_t sizes[100];
    for (int i = 0; i < 100; i++)
        sizes[i] = STATE / 2 + (uint64_t)i * (STATE / 100);
    p.planner    = UTURN_PLANNER_DP;
    p.steps      = 100;
    p.slot_bytes = 0;
    p.step_bytes = sizes;
    uturn_mpi_options_t o;
    uturn_mpi_options_init(&o);
    o.compare = false;
    create(ex, &p, &o, repeats / 20 > 0 ? repeats / 20 : 1, "sized", rank);
    run_cost(ex, repeats, rank);
    uturn_executor_free(ex);
    MPI_Finalize();
    return 0;
}
