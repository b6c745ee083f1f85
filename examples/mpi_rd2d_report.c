/* mpi_rd2d's report: one line per rank, the agreement, the checks. */
#include "mpi_rd2d.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

enum { ROWS, POINTS, BUDGET, OWN_SLOTS, OWN_COST, PEAK, FIELDS };

static void per_rank(const rd2d_t *m, const results_t *r)
{
    uint64_t mine[FIELDS] = {m->rows,
                             rd2d_points(m),
                             r->budget,
                             r->info.own_slots,
                             r->info.own_forward_cost,
                             r->report.measured_peak_bytes};
    uint64_t all[UTURN_RD2D_MAX_RANKS * FIELDS];
    MPI_Gather(mine, FIELDS, MPI_UINT64_T, all, FIELDS, MPI_UINT64_T, 0,
               MPI_COMM_WORLD);
    if (r->rank != 0)
        return;
    printf("rank   rows   points  state_bytes  budget_bytes  alone: slots "
           "forward_steps  measured_peak_bytes\n");
    for (int q = 0; q < r->size; q++) {
        const uint64_t *v = all + q * FIELDS;
        printf("%4d %6" PRIu64 " %8" PRIu64 " %12" PRIu64 " %13" PRIu64
               " %13" PRIu64 " %13" PRIu64 " %20" PRIu64 "\n",
               q, v[ROWS], v[POINTS], v[POINTS] * 8, v[BUDGET], v[OWN_SLOTS],
               v[OWN_COST], v[PEAK]);
    }
}

static void agreement(const results_t *r)
{
    const uturn_mpi_plan_info_t *in = &r->info;
    const uturn_mpi_report_t *all   = &r->all;
    printf("agreed: %" PRIu64 " slots (rank %d's budget limits), %" PRIu64
           " forward steps on every rank, fingerprint %016" PRIx64 "\n",
           in->slots, in->limiting_rank, r->seen.forward_steps,
           in->fingerprint);
    printf("planning: %.6f s (slowest rank), %" PRIu64
           " collective calls, plan %" PRIu64 " bytes per rank\n",
           in->planning_seconds, in->collectives, in->plan_bytes);
    printf("run: wall %.3f s (slowest rank), forward %.3f s, adjoint %.3f "
           "s, copies %.3f s; %" PRIu64 " collective calls, %.6f s in "
           "them (slowest)\n",
           all->wall_seconds_max, all->forward_seconds_max,
           all->adjoint_seconds_max, all->copy_seconds_max, all->collectives,
           all->collective_seconds_max);
    printf("slot storage: %" PRIu64 " bytes on the largest rank, %" PRIu64
           " on all ranks together\n",
           all->measured_peak_bytes_max, all->measured_peak_bytes_sum);
    if (all->levels != 0)
        printf("disk (each rank its own files): %" PRIu64 " bytes written, "
               "%" PRIu64 " read, all ranks together\n",
               all->level_bytes_written_sum[0], all->level_bytes_read_sum[0]);
}

static bool verdicts(const args_t *a, const results_t *r)
{
    bool ok = true;
    if (a->reference) {
        printf("gradient vs rank 0 alone on the whole grid: %s; J %.17g "
               "vs %.17g (relative difference %.2e, round-off)\n",
               r->bitwise ? "equal bit for bit" : "FAIL: differs", r->J,
               r->single_J, fabs(r->J - r->single_J) / fabs(r->single_J));
        ok = r->bitwise;
    }
    printf("finite difference (eps 1e-6): %.12e, <dJ/du0, d> %.12e, error "
           "%.2e: %s\n",
           r->fd, r->gd, fabs(r->fd - r->gd),
           r->fd_ok ? "ok" : "FAIL: beyond atol 1e-5 + rtol 1e-3");
    ok = ok && r->fd_ok;
    if (a->expect_slots != 0 && a->expect_slots != r->info.slots) {
        printf("FAIL: %" PRIu64 " agreed slots, expected %" PRIu64 "\n",
               r->info.slots, a->expect_slots);
        ok = false;
    }
    if (a->disk != 0 && r->all.level_bytes_written_sum[0] == 0) {
        printf("FAIL: --disk given, but no rank wrote to its disk\n");
        ok = false;
    }
    if (a->expect_forward != 0 && a->expect_forward != r->seen.forward_steps) {
        printf("FAIL: %" PRIu64 " forward steps, expected %" PRIu64 "\n",
               r->seen.forward_steps, a->expect_forward);
        ok = false;
    }
    return ok;
}

bool report(const args_t *a, const rd2d_t *m, const results_t *r)
{
    per_rank(m, r);
    bool ok = true;
    if (r->rank == 0) {
        printf("grid %" PRIu64 " x %" PRIu64 ", %" PRIu64 " steps, %d ranks\n",
               a->nx, a->ny, a->steps, r->size);
        agreement(r);
        ok = verdicts(a, r);
        fflush(stdout);
    }
    int v = ok ? 1 : 0;
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return v != 0;
}
