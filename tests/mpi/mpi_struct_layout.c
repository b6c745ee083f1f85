/*
 * The layouts of <uturn_mpi.h>'s structures as this compiler lays them
 * out, for ctest mpi_fortran_layout (tests/mpi/fortran_mpi_layout.f90
 * prints the Fortran module's mirrors the same way): one line "TYPE FIELD
 * OFFSET SIZE" per field and one "TYPE sizeof SIZE" per structure. It
 * calls no MPI function.
 */
#include <stddef.h>
#include <stdio.h>
#include <uturn_mpi.h>

#define FIELD(type, field)                                                     \
    printf("%s %s %zu %zu\n", #type, #field, offsetof(type, field),            \
           sizeof(((type *)0)->field))
#define SIZE(type) printf("%s sizeof %zu\n", #type, sizeof(type))

static void options(void)
{
    FIELD(uturn_mpi_options_t, size);
    FIELD(uturn_mpi_options_t, alloc);
    FIELD(uturn_mpi_options_t, units);
    FIELD(uturn_mpi_options_t, table_bytes);
    FIELD(uturn_mpi_options_t, compare);
    SIZE(uturn_mpi_options_t);
    FIELD(uturn_mpi_run_options_t, size);
    FIELD(uturn_mpi_run_options_t, run);
    FIELD(uturn_mpi_run_options_t, abort_on_failure);
    FIELD(uturn_mpi_run_options_t, local_callbacks);
    SIZE(uturn_mpi_run_options_t);
}

static void info(void)
{
    FIELD(uturn_mpi_plan_info_t, size);
    FIELD(uturn_mpi_plan_info_t, rank);
    FIELD(uturn_mpi_plan_info_t, ranks);
    FIELD(uturn_mpi_plan_info_t, fingerprint);
    FIELD(uturn_mpi_plan_info_t, forward_cost);
    FIELD(uturn_mpi_plan_info_t, slots);
    FIELD(uturn_mpi_plan_info_t, own_slots);
    FIELD(uturn_mpi_plan_info_t, limiting_rank);
    FIELD(uturn_mpi_plan_info_t, units);
    FIELD(uturn_mpi_plan_info_t, own_forward_cost);
    FIELD(uturn_mpi_plan_info_t, own_forward_cost_min);
    FIELD(uturn_mpi_plan_info_t, own_forward_cost_max);
    FIELD(uturn_mpi_plan_info_t, plan_bytes);
    FIELD(uturn_mpi_plan_info_t, collectives);
    FIELD(uturn_mpi_plan_info_t, planning_seconds);
    SIZE(uturn_mpi_plan_info_t);
}

static void report(void)
{
    FIELD(uturn_mpi_report_t, size);
    FIELD(uturn_mpi_report_t, status);
    FIELD(uturn_mpi_report_t, ranks);
    FIELD(uturn_mpi_report_t, failed_rank);
    FIELD(uturn_mpi_report_t, failed_ranks);
    FIELD(uturn_mpi_report_t, measured_peak_bytes_max);
    FIELD(uturn_mpi_report_t, measured_peak_bytes_sum);
    FIELD(uturn_mpi_report_t, planned_peak_bytes_max);
    FIELD(uturn_mpi_report_t, budget_bytes_sum);
    FIELD(uturn_mpi_report_t, wall_seconds_max);
    FIELD(uturn_mpi_report_t, forward_seconds_max);
    FIELD(uturn_mpi_report_t, adjoint_seconds_max);
    FIELD(uturn_mpi_report_t, copy_seconds_max);
    FIELD(uturn_mpi_report_t, overhead_seconds_max);
    FIELD(uturn_mpi_report_t, forward_seconds_sum);
    FIELD(uturn_mpi_report_t, adjoint_seconds_sum);
    FIELD(uturn_mpi_report_t, copy_seconds_sum);
    FIELD(uturn_mpi_report_t, collective_seconds_max);
    FIELD(uturn_mpi_report_t, collectives);
    FIELD(uturn_mpi_report_t, levels);
    FIELD(uturn_mpi_report_t, level_bytes_written_sum);
    FIELD(uturn_mpi_report_t, level_bytes_read_sum);
    SIZE(uturn_mpi_report_t);
}

int main(void)
{
    options();
    info();
    report();
    return 0;
}
