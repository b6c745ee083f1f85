/*
 * What a run did: uturn_petsc_trajectory_report() on this rank, and the
 * one line -ts_trajectory_view prints (TSTrajectoryView() is collective:
 * peaks are the largest over the ranks, counts are the same on all).
 */
#include "petsc_internal.h"

#include <string.h>

void uturn_petsc_report_init_size(uturn_petsc_report_t *report, size_t size)
{
    if (report == NULL)
        return;
    memset(report, 0, size);
    report->size  = size;
    report->steps = UTURN_NONE;
}

static uint64_t plan_forward_steps(const struct uturn__petsc *u)
{
    uturn_stats_t stats;
    uturn_stats_init(&stats);
    if (u->plan == NULL)
        return 0;
    if (u->online && u->cursor != NULL)
        uturn_cursor_stats(u->cursor, &stats);
    else
        uturn_plan_stats(uturn_mpi_plan_core(u->plan), &stats);
    return stats.forward_steps;
}

static uint64_t planned_peak(const struct uturn__petsc *u)
{
    uturn_level_stats_t level;
    uturn_level_stats_init(&level);
    if (u->plan == NULL)
        return 0;
    if (u->online && u->cursor != NULL) {
        uturn_stats_t stats;
        uturn_stats_init(&stats);
        uturn_cursor_stats(u->cursor, &stats);
        if (stats.levels <= 1)
            return stats.peak_slots * u->slots.state_bytes;
    }
    uturn_plan_level_stats(uturn_mpi_plan_core(u->plan), 0, &level);
    return level.peak_slots * u->slots.state_bytes;
}

static void fill(const struct uturn__petsc *u, uturn_petsc_report_t *r)
{
    const struct uturn__petsc_counts *c = &u->count;
    r->planner      = u->plan ? uturn_planner_name(u->request.planner) : NULL;
    r->online       = u->online;
    r->steps        = u->steps;
    r->slots        = u->plan_slots;
    r->disk_slots   = u->plan_disk_slots;
    r->state_bytes  = u->slots.state_bytes;
    r->budget_bytes = u->opt.budget_bytes;
    r->disk_budget_bytes   = u->opt.disk_bytes;
    r->planned_peak_bytes  = planned_peak(u);
    r->measured_peak_bytes = u->slots.peak_bytes;
    r->forward_steps       = c->forward_steps;
    r->plan_forward_steps  = plan_forward_steps(u);
    r->replays             = c->replays;
    r->stores              = c->stores;
    r->restores            = c->restores;
    r->disk_stores         = c->disk_stores;
    r->disk_restores       = c->disk_restores;
    r->disk_bytes_written  = u->slots.disk.written;
    r->disk_bytes_read     = u->slots.disk.read;
    r->disk_peak_bytes     = u->slots.disk.peak;
    r->record_bytes        = uturn__petsc_records_bytes(&u->rec);
    r->inexact_steps       = c->inexact_steps;
    r->validated           = u->opt.validate;
    r->complete            = u->phase == UTURN__PETSC_DONE;
    r->last_stage          = u->staged;
}

PetscErrorCode uturn_petsc_trajectory_report(TSTrajectory tj,
                                             uturn_petsc_report_t *out)
{
    PetscFunctionBegin;
    PetscCheck(tj != NULL && out != NULL, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL,
               "uturn: a NULL argument");
    const struct uturn__petsc *u = uturn__petsc_of(tj);
    PetscCheck(u != NULL, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "uturn: the trajectory is not of type uturn");
    uturn_petsc_report_t r;
    uturn_petsc_report_init(&r);
    fill(u, &r);
    const size_t size = out->size < sizeof r ? out->size : sizeof r;
    memcpy((char *)out + sizeof out->size, (char *)&r + sizeof r.size,
           size > sizeof r.size ? size - sizeof r.size : 0);
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_view(TSTrajectory tj, PetscViewer viewer)
{
    PetscFunctionBegin;
    const struct uturn__petsc *u = uturn__petsc_of(tj);
    PetscBool ascii              = PETSC_FALSE;
    PetscCall(
        PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
    if (u == NULL || !ascii)
        PetscFunctionReturn(0);
    uturn_petsc_report_t r;
    uturn_petsc_report_init(&r);
    fill(u, &r);
    /* The largest rank's bytes, on the trajectory's communicator. */
    uint64_t most[4] = {r.budget_bytes, r.planned_peak_bytes,
                        r.measured_peak_bytes, r.disk_bytes_written};
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, most, 4, MPI_UINT64_T, MPI_MAX,
                               PetscObjectComm((PetscObject)tj)));
    PetscCall(PetscViewerASCIIPrintf(
        viewer,
        "uturn: planner %s, steps %llu, slots %llu (+%llu on disk), "
        "budget %llu B, "
        "planned peak %llu B, measured peak %llu B, forward steps %llu "
        "(+%llu replays), restores %llu, disk %llu B\n",
        r.planner ? r.planner : "none",
        (unsigned long long)(r.steps == UTURN_NONE ? 0 : r.steps),
        (unsigned long long)r.slots, (unsigned long long)r.disk_slots,
        (unsigned long long)most[0], (unsigned long long)most[1],
        (unsigned long long)most[2], (unsigned long long)r.forward_steps,
        (unsigned long long)r.replays, (unsigned long long)r.restores,
        (unsigned long long)most[3]));
    if (u->staged)
        PetscCall(PetscViewerASCIIPrintf(
            viewer,
            "uturn: this RK method reuses its last stage as the "
            "next step's first: each checkpoint keeps it too (%llu "
            "B here, twice the state's part)\n",
            (unsigned long long)r.state_bytes));
    PetscFunctionReturn(0);
}
