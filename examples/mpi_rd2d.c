/*
 * mpi_rd2d: a distributed adjoint with uturn's MPI layer.
 *
 * The 2-D reaction-diffusion model of rd2d_model.h runs on strips of rows,
 * split unevenly across the ranks (rank r gets a share proportional to
 * its weight, 1 : 2 : .. : P by default), each rank with its own byte
 * budget (the same on every rank by default). So the ranks' states differ
 * and so do the slot counts their budgets hold alone; uturn_mpi_plan_create()
 * agrees on the least of them, and uturn_mpi_run() reverses the model
 * with it on every rank. The program then checks, and exits non-zero
 * when a check fails:
 *
 * 1. the gradient dJ/du_0 equals, bit for bit, the one rank 0 computes
 *    alone on the whole grid (every point's update reads the same values
 *    in the same order whatever the split; J, a sum over the grid whose
 *    order depends on the split, agrees to round-off and is printed);
 * 2. a central finite difference in one random direction d:
 *    |(J(u_0 + eps d) - J(u_0 - eps d)) / (2 eps) - <dJ/du_0, d>|
 *    <= atol + rtol |<dJ/du_0, d>| with eps 1e-6, atol 1e-5, rtol 1e-3;
 * 3. the agreed slots and forward steps, when --expect-* asks for them.
 *
 * Usage: mpirun -np P mpi_rd2d [--cols NX] [--rows NY] [--steps N]
 *   [--budget BYTES | --budgets B0,B1,..] [--split W0,W1,..]
 *   [--expect-slots S] [--expect-forward-steps F] [--no-reference]
 * The report's case (two ranks, 100k and 200k points, 20 MiB each):
 *   mpirun -np 2 mpi_rd2d --cols 500 --rows 600 --steps 500 \
 *     --budget 20971520 --split 1,2
 */
#include "mpi_rd2d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EPS  1e-6
#define ATOL 1e-5
#define RTOL 1e-3

/* Memory of `budget` bytes and a file level of --disk bytes, planned by
 * hrevolve. */
static void disk_levels(const args_t *a, uint64_t budget, uturn_level_t *lv,
                        uturn_problem_t *p)
{
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].name       = "mem";
    lv[0].bytes      = budget;
    lv[1].name       = "disk";
    lv[1].bytes      = a->disk;
    lv[1].write_cost = lv[1].read_cost = a->disk_cost;
    p->planner      = UTURN_PLANNER_HREVOLVE;
    p->budget_bytes = 0;
    p->levels       = lv;
    p->level_count  = 2;
}

/* This rank's executor: with --disk, a file level of its own. */
static bool open_executor(const args_t *a, uturn_executor_t **ex)
{
    uturn_storage_t file;
    uturn_storage_init(&file);
    file.kind      = UTURN_STORAGE_FILE;
    file.directory = a->disk_dir;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = a->disk != 0 ? &file : NULL;
    o.level_count = a->disk != 0 ? 1 : 0;
    return uturn_executor_open(&o, ex, NULL) == UTURN_OK;
}

/* The agreed plan and one collective run of it. */
static bool plan_and_run(const args_t *a, rd2d_t *m, uturn_executor_t *ex,
                         results_t *r)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner    = UTURN_PLANNER_REVOLVE;
    p.steps      = a->steps;
    p.slot_bytes = rd2d_points(m) * sizeof(double);
    p.budget_bytes = r->budget;
    uturn_level_t lv[2];
    if (a->disk != 0) /* memory is the budget; the disk is this rank's */
        disk_levels(a, r->budget, lv, &p);
    uturn_mpi_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_mpi_plan_info_init(&r->info);
    uturn_status_t st = uturn_mpi_plan_create(MPI_COMM_WORLD, ex, &p, NULL,
                                              &plan, &r->info, &err);
    if (st == UTURN_OK) {
        uturn_model_t model;
        rd2d_model(m, &model);
        rd2d_start(m, NULL, 0);
        uturn_stats_init(&r->seen);
        uturn_report_init(&r->report);
        uturn_mpi_report_init(&r->all);
        st = uturn_mpi_run(plan, ex, &model, NULL, &r->seen, &r->report,
                           &r->all, &err);
    }
    uturn_mpi_plan_free(plan);
    if (st != UTURN_OK && r->rank == 0)
        fprintf(stderr, "mpi_rd2d: %s: %s\n", uturn_status_name(st),
                err.message);
    r->J = m->J;
    return st == UTURN_OK;
}

/* Rank 0 alone on the whole grid, with a plain executor and 16 slots
 * (any valid plan gives the same bits: every recomputation repeats the
 * same operations): its gradient and J into @p grad and @p J. */
static bool single_rank(const args_t *a, double *grad, double *J)
{
    rd2d_t whole;
    uturn_executor_t *ex = NULL;
    uturn_plan_t *plan   = NULL;
    bool ok =
        rd2d_init(&whole, MPI_COMM_SELF, a->nx, a->ny, 0, a->ny, a->steps) &&
        uturn_executor_create(NULL, &ex, NULL) == UTURN_OK;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps      = a->steps;
    p.slot_bytes = rd2d_points(&whole) * sizeof(double);
    p.slots      = 16;
    uturn_error_t err;
    uturn_error_init(&err);
    ok = ok && uturn_executor_plan(ex, &p, &plan, &err) == UTURN_OK;
    uturn_model_t model;
    rd2d_model(&whole, &model);
    rd2d_start(&whole, NULL, 0);
    ok = ok && uturn_executor_run(ex, plan, &model, NULL, NULL, NULL, &err) ==
                   UTURN_OK;
    if (!ok)
        fprintf(stderr, "mpi_rd2d: FAIL: the single-rank run: %s\n",
                err.message);
    if (ok)
        memcpy(grad, rd2d_gradient(&whole), rd2d_points(&whole) * sizeof *grad);
    *J = whole.J;
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    rd2d_free(&whole);
    return ok;
}

/* Check 1: the gathered gradient against rank 0's own, bit for bit. */
static void against_single_rank(const args_t *a, const rd2d_t *m, results_t *r)
{
    const uint64_t all = a->nx * a->ny;
    double *got        = r->rank == 0 ? malloc(all * sizeof *got) : NULL;
    double *ref        = r->rank == 0 ? malloc(all * sizeof *ref) : NULL;
    int counts[UTURN_RD2D_MAX_RANKS], offsets[UTURN_RD2D_MAX_RANKS];
    for (int q = 0; q < r->size; q++) {
        const strip_t s = strip_of(a, q, r->size);
        counts[q]       = (int)(s.rows * a->nx);
        offsets[q]      = (int)(s.row0 * a->nx);
    }
    MPI_Gatherv(rd2d_gradient(m), counts[r->rank], MPI_DOUBLE, got, counts,
                offsets, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int same = 0;
    if (r->rank == 0 && got != NULL && ref != NULL &&
        single_rank(a, ref, &r->single_J))
        same = memcmp(got, ref, all * sizeof *got) == 0;
    MPI_Bcast(&same, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&r->single_J, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    r->bitwise = same != 0;
    free(got);
    free(ref);
}

/* Check 2: the central difference in one random direction. */
static void finite_difference(rd2d_t *m, results_t *r)
{
    const uint64_t n = rd2d_points(m);
    double *d        = malloc(n * sizeof *d);
    const double *g  = rd2d_gradient(m);
    double local     = 0;
    if (d != NULL)
        rd2d_direction(m, d);
    for (uint64_t k = 0; d != NULL && k < n; k++)
        local += g[k] * d[k];
    /* Collective: a rank out of memory still takes part (with no
     * direction), and fails the check. */
    MPI_Allreduce(&local, &r->gd, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    const double plus  = rd2d_objective(m, d, EPS);
    const double minus = rd2d_objective(m, d, -EPS);
    r->fd              = (plus - minus) / (2 * EPS);
    r->fd_ok = d != NULL && fabs(r->fd - r->gd) <= ATOL + RTOL * fabs(r->gd);
    free(d);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    results_t r;
    memset(&r, 0, sizeof r);
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r.size);
    args_t a;
    rd2d_t m;
    memset(&m, 0, sizeof m);
    uturn_executor_t *ex = NULL;
    bool ok              = parse_args(argc, argv, r.size, &a);
    if (ok) {
        const strip_t s = strip_of(&a, r.rank, r.size);
        r.budget        = a.nbudgets > 0 ? a.budgets[r.rank] : a.budget;
        ok = rd2d_init(&m, MPI_COMM_WORLD, a.nx, a.ny, s.row0, s.rows,
                       a.steps) &&
             open_executor(&a, &ex);
    }
    /* Every rank goes on, or none: the next calls are collective. */
    int mine = ok ? 1 : 0, every = 0;
    MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    ok = every != 0 && plan_and_run(&a, &m, ex, &r);
    if (ok && a.reference)
        against_single_rank(&a, &m, &r);
    if (ok)
        finite_difference(&m, &r);
    ok   = ok && report(&a, &m, &r);
    mine = ok ? 1 : 0;
    MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (r.rank == 0)
        printf(every ? "ok\n" : "FAIL\n");
    uturn_executor_free(ex);
    rd2d_free(&m);
    MPI_Finalize();
    return every ? 0 : 1;
}
