/*
 * The PETSc layer's speed (not a test: no thresholds; bench/run.sh petsc
 * runs it for bench/RESULTS.md, or run it by hand).
 * Gray-Scott (tests/petsc/gs_model.c, run by the tests' driver) on a
 * -bench_grid N square grid (default 64), the TS as the options say
 * (default: RK4, a fixed step of 0.5, 200 steps). Each configuration is
 * run -bench_repeat times (default 5), round robin, and its median wall
 * time and process CPU time (the slowest rank's) are printed:
 *
 *   memory        PETSc's memory trajectory, every step with its stages
 *   memory-so     the same, solution only (it replays one step per
 *                 adjoint step, as uturn does)
 *   uturn-all     uturn at a budget that holds every state
 *   uturn-P%      uturn at P% of store-all's states (-bench_percent P,
 *                 default 2), beside its forward steps and revolve's
 *                 t(n + 1, s)
 */
#include "gs_model.h"
#include "petsc_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CASES 4

typedef struct bench_case {
    const char *name;
    const char *type;
    bool solution_only;
    uint64_t states; /* uturn: the budget in states; 0: none */
    double seconds[64];
    double cpu[64];
    uturn_petsc_report_t report;
} bench_case_t;

static PetscErrorCode set_options(const bench_case_t *c, uint64_t bytes)
{
    PetscFunctionBeginUser;
    char value[32];
    if (c->solution_only)
        PetscCall(
            PetscOptionsSetValue(NULL, "-ts_trajectory_solution_only", "1"));
    else
        PetscCall(PetscOptionsClearValue(NULL, "-ts_trajectory_solution_only"));
    snprintf(value, sizeof value, "%llu",
             (unsigned long long)(c->states * bytes));
    PetscCall(PetscOptionsSetValue(NULL, "-ts_trajectory_uturn_budget", value));
    PetscFunctionReturn(0);
}

static PetscErrorCode run(const problem_t *p, bench_case_t *c, int i,
                          uint64_t bytes)
{
    PetscFunctionBeginUser;
    Vec *l = NULL, *m = NULL;
    PetscCall(set_options(c, bytes));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    const double t          = MPI_Wtime();
    const double cpu        = (double)clock() / CLOCKS_PER_SEC;
    uturn_petsc_report_t *r = NULL;
    if (strcmp(c->type, TSTRAJECTORYUTURN) == 0) {
        uturn_petsc_report_init(&c->report);
        r = &c->report;
    }
    PetscCall(driver_solve(p, c->type, 1, &l, &m, r));
    double both[2] = {MPI_Wtime() - t, (double)clock() / CLOCKS_PER_SEC - cpu};
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_DOUBLE, MPI_MAX,
                               PETSC_COMM_WORLD));
    c->seconds[i] = both[0];
    c->cpu[i]     = both[1];
    PetscCall(driver_free_gradients(p, &l, &m));
    PetscFunctionReturn(0);
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int repeat)
{
    qsort(values, (size_t)repeat, sizeof *values, by_value);
    return values[repeat / 2];
}

static PetscErrorCode print(bench_case_t *cases, int repeat)
{
    PetscFunctionBeginUser;
    double t[CASES], c[CASES];
    for (int k = 0; k < CASES; k++) {
        t[k] = median(cases[k].seconds, repeat);
        c[k] = median(cases[k].cpu, repeat);
    }
    const uturn_petsc_report_t *all = &cases[2].report, *few = &cases[3].report;
    const uint64_t n = all->steps, s = few->slots;
    const uint64_t revolve = revolve_forward_steps(n + 1, s);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "%-10s %11s %9s %12s %10s %9s %12s\n", "trajectory",
                          "median wall", "vs memory", "vs memory-so",
                          "median cpu", "vs memory", "vs memory-so"));
    for (int k = 0; k < CASES; k++)
        PetscCall(PetscPrintf(
            PETSC_COMM_WORLD,
            "%-10s %9.4f s %9.3f %12.3f %8.4f s %9.3f %12.3f\n", cases[k].name,
            t[k], t[k] / t[0], t[k] / t[1], c[k], c[k] / c[0], c[k] / c[1]));
    PetscCall(PetscPrintf(
        PETSC_COMM_WORLD,
        "%s: %llu of %llu states (%llu slots): forward steps %llu, revolve "
        "t(n+1,s) %llu, recompute factor %.3f; wall %.3f x uturn-all, "
        "%.3f x memory-so (%llu steps, +%llu replays each)\n",
        cases[3].name, (unsigned long long)s, (unsigned long long)n,
        (unsigned long long)s, (unsigned long long)few->forward_steps,
        (unsigned long long)revolve, (double)few->forward_steps / (double)n,
        t[3] / t[2], t[3] / t[1], (unsigned long long)n,
        (unsigned long long)few->replays));
    PetscFunctionReturn(0);
}

/* Set option @p name to @p value unless the command line gave it. */
static PetscErrorCode default_option(const char *name, const char *value)
{
    PetscFunctionBeginUser;
    PetscBool set = PETSC_FALSE;
    PetscCall(PetscOptionsHasName(NULL, NULL, name, &set));
    if (!set)
        PetscCall(PetscOptionsSetValue(NULL, name, value));
    PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
    PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
    PetscCall(uturn_petsc_register());
    gs_t g     = {.d1 = 8e-5, .d2 = 4e-5, .gamma = 0.024, .kappa = 0.06};
    PetscInt n = 64, repeat = 5, percent = 2, steps = 200;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_grid", &n, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_repeat", &repeat, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_percent", &percent, NULL));
    PetscCheck(repeat >= 1 && repeat <= 64, PETSC_COMM_WORLD,
               PETSC_ERR_ARG_OUTOFRANGE, "-bench_repeat: 1 to 64");
    PetscCall(default_option("-ts_max_steps", "200"));
    PetscCall(default_option("-ts_type", "rk"));
    PetscCall(default_option("-ts_rk_type", "4"));
    PetscCall(default_option("-ts_adapt_type", "none"));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-ts_max_steps", &steps, NULL));
    PetscCall(gs_create(&g, n, PETSC_FALSE));
    problem_t p;
    gs_problem(&g, &p);
    Vec u;
    PetscInt local;
    PetscCall(p.initial(p.ctx, &u));
    PetscCall(VecGetLocalSize(u, &local));
    PetscCall(VecDestroy(&u));
    const uint64_t bytes = (uint64_t)local * sizeof(PetscScalar);
    const uint64_t few   = ((uint64_t)steps * (uint64_t)percent + 99) / 100;
    char name[32];
    snprintf(name, sizeof name, "uturn-%d%%", (int)percent);
    bench_case_t cases[CASES] = {
        {.name = "memory", .type = TSTRAJECTORYMEMORY},
        {.name          = "memory-so",
         .type          = TSTRAJECTORYMEMORY,
         .solution_only = true},
        {.name = "uturn-all", .type = TSTRAJECTORYUTURN},
        {.name = name, .type = TSTRAJECTORYUTURN, .states = few}};
    for (int i = 0; i < repeat; i++)
        for (int k = 0; k < CASES; k++)
            PetscCall(run(&p, &cases[k], i, bytes));
    PetscCall(print(cases, (int)repeat));
    PetscCall(gs_destroy(&g));
    PetscCall(PetscFinalize());
    return 0;
}
