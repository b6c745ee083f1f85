/* The MPI layer's test program: helpers and the case table. */
#include "mpi_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool check(bool cond, const char *what)
{
    if (!cond) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        printf("FAIL rank %d: %s\n", rank, what);
        fflush(stdout);
    }
    return cond;
}

bool everywhere(MPI_Comm comm, bool cond)
{
    int mine = cond ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
    return all != 0;
}

uint64_t min_over(MPI_Comm comm, uint64_t v)
{
    uint64_t r = 0;
    MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, MPI_MIN, comm);
    return r;
}

uint64_t max_over(MPI_Comm comm, uint64_t v)
{
    uint64_t r = 0;
    MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, MPI_MAX, comm);
    return r;
}

uint64_t sum_over(MPI_Comm comm, uint64_t v)
{
    uint64_t r = 0;
    MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, MPI_SUM, comm);
    return r;
}

bool same_everywhere(MPI_Comm comm, uint64_t v)
{
    return min_over(comm, v) == max_over(comm, v);
}

bool plan_checked(MPI_Comm comm, uturn_executor_t *ex, const uturn_problem_t *p,
                  uturn_mpi_plan_t **mp, uturn_mpi_plan_info_t *info)
{
    uturn_mpi_plan_info_init(info);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_plan_create(comm, ex, p, NULL, mp, info, &err);
    return check(st == UTURN_OK, err.message);
}

bool failed_as(uturn_status_t got, const uturn_error_t *err,
               uturn_status_t status, const char *prefix)
{
    if (got != status || err->status != status ||
        strncmp(err->message, prefix, strlen(prefix)) != 0) {
        printf("  got %s: \"%s\", want %s: \"%s...\"\n", uturn_status_name(got),
               err->message, uturn_status_name(status), prefix);
        return false;
    }
    return true;
}

void uniform_problem(const chain_t *c, uint64_t budget, uturn_problem_t *p)
{
    uturn_problem_init(p);
    p->planner      = UTURN_PLANNER_REVOLVE;
    p->steps        = c->steps;
    p->slot_bytes   = chain_bytes(c, 0);
    p->budget_bytes = budget;
}

/* The run's gradient against the reference's, bit for bit. */
bool same_gradient(chain_t *c)
{
    double *ref = malloc(c->len[0] * sizeof *ref);
    double *got = malloc(c->len[0] * sizeof *got);
    bool ok     = ref != NULL && got != NULL;
    if (ok) {
        memcpy(got, c->xbar, c->len[0] * sizeof *got);
        ok = chain_reference(c, ref) &&
             memcmp(ref, got, c->len[0] * sizeof *got) == 0;
    }
    free(ref);
    free(got);
    return ok;
}

bool run_and_compare(const uturn_mpi_plan_t *mp, uturn_executor_t *ex,
                     chain_t *c, bool saveload, uint64_t budget)
{
    uturn_model_t model;
    chain_model(c, saveload, &model);
    chain_reset(c);
    uturn_stats_t seen;
    uturn_report_t rep;
    uturn_mpi_report_t all;
    uturn_error_t err;
    uturn_stats_init(&seen);
    uturn_report_init(&rep);
    uturn_mpi_report_init(&all);
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_run(mp, ex, &model, NULL, &seen, &rep, &all, &err);
    bool ok = check(st == UTURN_OK, err.message);
    ok &= check(same_gradient(c), "the gradient equals the reference");
    ok &= check(rep.measured_peak_bytes <= budget, "peak within budget");
    ok &= check(all.measured_peak_bytes_max ==
                    max_over(c->comm, rep.measured_peak_bytes),
                "combined largest peak");
    ok &= check(all.measured_peak_bytes_sum ==
                    sum_over(c->comm, rep.measured_peak_bytes),
                "combined sum of peaks");
    ok &= check(all.collectives == 2 && all.failed_rank == -1,
                "two collectives, no failed rank");
    ok &= check(same_everywhere(c->comm, seen.forward_steps),
                "the same forward steps on every rank");
    if (c->rank == 0)
        printf("  run: %llu forward steps, wall %.4f s (largest), peak "
               "%llu bytes (largest), %llu bytes (all ranks)\n",
               (unsigned long long)seen.forward_steps, all.wall_seconds_max,
               (unsigned long long)all.measured_peak_bytes_max,
               (unsigned long long)all.measured_peak_bytes_sum);
    return ok;
}

static bool run_case(const char *name, MPI_Comm comm, bool *known)
{
    *known = true;
    if (strcmp(name, "uniform") == 0)
        return case_uniform(comm, false);
    if (strcmp(name, "saveload") == 0)
        return case_uniform(comm, true);
    if (strcmp(name, "sized") == 0)
        return case_sized(comm);
    if (strcmp(name, "adopt") == 0)
        return case_adopt(comm);
    if (strcmp(name, "alloc") == 0)
        return case_alloc(comm);
    if (strcmp(name, "dp_uniform") == 0)
        return case_dp_uniform(comm);
    if (strcmp(name, "infeasible") == 0)
        return case_infeasible(comm) && case_sized_infeasible(comm);
    if (strcmp(name, "run_infeasible") == 0)
        return case_run_infeasible(comm);
    if (strcmp(name, "durable_refused") == 0)
        return case_durable_refused(comm);
    if (strcmp(name, "disagree") == 0)
        return case_disagree(comm);
    if (strcmp(name, "fingerprint") == 0)
        return case_fingerprint(comm);
    if (strcmp(name, "midrun") == 0)
        return case_midrun(comm);
    if (strcmp(name, "levels") == 0)
        return case_levels(comm);
    if (strcmp(name, "online") == 0)
        return case_online(comm);
    if (strcmp(name, "online_sized") == 0)
        return case_online_sized(comm);
    if (strcmp(name, "abort") == 0)
        return case_stuck(comm, true);
    if (strcmp(name, "default_aborts") == 0)
        return case_stuck(comm, false);
    if (strcmp(name, "online_fail") == 0)
        return case_online_fail(comm);
    if (strcmp(name, "online_no_end") == 0)
        return case_online_no_end(comm);
    if (strcmp(name, "online_sweeps") == 0)
        return case_online_sweeps(comm);
    if (strcmp(name, "sweeps") == 0)
        return case_sweeps(comm);
    if (strcmp(name, "levels_sweeps") == 0)
        return case_levels_sweeps(comm);
    if (strcmp(name, "sweeps_fail") == 0)
        return case_sweeps_fail(comm);
    if (strcmp(name, "sweeps_refused") == 0)
        return case_sweeps_refused(comm);
    if (strcmp(name, "sweep_ignores_run") == 0)
        return case_sweep_ignores_run(comm);
    if (strcmp(name, "sweeps_request_differs") == 0)
        return case_sweeps_request_differs(comm);
    *known = false;
    return false;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *name = argc > 1 ? argv[1] : "";
    bool known       = false;
    const bool mine  = run_case(name, MPI_COMM_WORLD, &known);
    const bool ok    = known && everywhere(MPI_COMM_WORLD, mine);
    if (rank == 0)
        printf(ok ? "ok %s on %d ranks\n" : "FAIL %s on %d ranks\n", name,
               size);
    MPI_Finalize();
    return ok ? 0 : 1;
}
