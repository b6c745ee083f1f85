/*
 * The layouts of <uturn.h>'s structures as this compiler lays them out,
 * for the Python binding's test of its ctypes mirrors (test_binding.py,
 * StructLayouts): one line "TYPE FIELD OFFSET SIZE" per field and one
 * "TYPE sizeof SIZE" per structure.
 */
#include <stddef.h>
#include <stdio.h>
#include <uturn.h>

#define FIELD(type, field)                                                     \
    printf("%s %s %zu %zu\n", #type, #field, offsetof(type, field),            \
           sizeof(((type *)0)->field))
#define SIZE(type) printf("%s sizeof %zu\n", #type, sizeof(type))

static void problems(void)
{
    FIELD(uturn_error_t, size);
    FIELD(uturn_error_t, status);
    FIELD(uturn_error_t, action);
    FIELD(uturn_error_t, line);
    FIELD(uturn_error_t, step);
    FIELD(uturn_error_t, minimum_slots);
    FIELD(uturn_error_t, minimum_bytes);
    FIELD(uturn_error_t, message);
    SIZE(uturn_error_t);
    FIELD(uturn_problem_t, size);
    FIELD(uturn_problem_t, planner);
    FIELD(uturn_problem_t, steps);
    FIELD(uturn_problem_t, slots);
    FIELD(uturn_problem_t, slot_bytes);
    FIELD(uturn_problem_t, budget_bytes);
    FIELD(uturn_problem_t, stride);
    FIELD(uturn_problem_t, step_bytes);
    FIELD(uturn_problem_t, step_costs);
    FIELD(uturn_problem_t, unit_bytes);
    FIELD(uturn_problem_t, levels);
    FIELD(uturn_problem_t, level_count);
    FIELD(uturn_problem_t, max_steps);
    FIELD(uturn_problem_t, threads);
    FIELD(uturn_problem_t, table_bytes);
    FIELD(uturn_problem_t, dp_mode);
    FIELD(uturn_problem_t, progress);
    FIELD(uturn_problem_t, progress_user);
    FIELD(uturn_problem_t, sweeps);
    SIZE(uturn_problem_t);
    FIELD(uturn_level_t, size);
    FIELD(uturn_level_t, name);
    FIELD(uturn_level_t, slots);
    FIELD(uturn_level_t, bytes);
    FIELD(uturn_level_t, write_cost);
    FIELD(uturn_level_t, read_cost);
    SIZE(uturn_level_t);
    FIELD(uturn_level_stats_t, size);
    FIELD(uturn_level_stats_t, name);
    FIELD(uturn_level_stats_t, slots);
    FIELD(uturn_level_stats_t, write_cost);
    FIELD(uturn_level_stats_t, read_cost);
    FIELD(uturn_level_stats_t, stores);
    FIELD(uturn_level_stats_t, restores);
    FIELD(uturn_level_stats_t, peak_slots);
    FIELD(uturn_level_stats_t, peak_bytes);
    SIZE(uturn_level_stats_t);
}

static void stats(void)
{
    FIELD(uturn_stats_t, size);
    FIELD(uturn_stats_t, steps);
    FIELD(uturn_stats_t, forward_steps);
    FIELD(uturn_stats_t, recomputed_steps);
    FIELD(uturn_stats_t, reverse_steps);
    FIELD(uturn_stats_t, stores);
    FIELD(uturn_stats_t, restores);
    FIELD(uturn_stats_t, frees);
    FIELD(uturn_stats_t, peak_slots);
    FIELD(uturn_stats_t, peak_bytes);
    FIELD(uturn_stats_t, actions);
    FIELD(uturn_stats_t, slots);
    FIELD(uturn_stats_t, slot_bytes);
    FIELD(uturn_stats_t, budget_bytes);
    FIELD(uturn_stats_t, forward_cost);
    FIELD(uturn_stats_t, recompute_cost);
    FIELD(uturn_stats_t, recompute_factor);
    FIELD(uturn_stats_t, fingerprint);
    FIELD(uturn_stats_t, cost);
    FIELD(uturn_stats_t, levels);
    FIELD(uturn_stats_t, online);
    FIELD(uturn_stats_t, exact);
    FIELD(uturn_stats_t, unit_bytes);
    FIELD(uturn_stats_t, lower_bound_cost);
    FIELD(uturn_stats_t, planning_seconds);
    FIELD(uturn_stats_t, sweeps);
    FIELD(uturn_stats_t, persistent);
    FIELD(uturn_stats_t, sweep_forward_steps);
    SIZE(uturn_stats_t);
    FIELD(uturn_action_t, op);
    FIELD(uturn_action_t, step);
    FIELD(uturn_action_t, step_end);
    FIELD(uturn_action_t, slot);
    SIZE(uturn_action_t);
}

static void models(void)
{
    FIELD(uturn_model_t, size);
    FIELD(uturn_model_t, user);
    FIELD(uturn_model_t, forward);
    FIELD(uturn_model_t, turn);
    FIELD(uturn_model_t, adjoint);
    FIELD(uturn_model_t, state);
    FIELD(uturn_model_t, state_bytes);
    FIELD(uturn_model_t, save);
    FIELD(uturn_model_t, load);
    FIELD(uturn_model_t, state_size);
    FIELD(uturn_model_t, is_last);
    FIELD(uturn_model_t, record_bytes);
    FIELD(uturn_model_t, forward_record);
    FIELD(uturn_model_t, agree);
    FIELD(uturn_model_t, adjoint_bytes);
    FIELD(uturn_model_t, save_adjoint);
    FIELD(uturn_model_t, load_adjoint);
    SIZE(uturn_model_t);
    FIELD(uturn_progress_t, size);
    FIELD(uturn_progress_t, done);
    FIELD(uturn_progress_t, total);
    FIELD(uturn_progress_t, forward_steps);
    FIELD(uturn_progress_t, reverse_steps);
    FIELD(uturn_progress_t, steps);
    FIELD(uturn_progress_t, seconds);
    SIZE(uturn_progress_t);
    FIELD(uturn_run_options_t, size);
    FIELD(uturn_run_options_t, budget_bytes);
    FIELD(uturn_run_options_t, verify);
    FIELD(uturn_run_options_t, progress);
    FIELD(uturn_run_options_t, progress_user);
    FIELD(uturn_run_options_t, progress_every);
    FIELD(uturn_run_options_t, on_progress);
    FIELD(uturn_run_options_t, on_progress_user);
    FIELD(uturn_run_options_t, on_progress_every);
    FIELD(uturn_run_options_t, step_bytes);
    FIELD(uturn_run_options_t, sweeps_on_request);
    FIELD(uturn_run_options_t, durable_dir);
    FIELD(uturn_run_options_t, durable_tag);
    FIELD(uturn_run_options_t, durable_interval);
    FIELD(uturn_run_options_t, durable_request);
    FIELD(uturn_run_options_t, durable_mode);
    FIELD(uturn_run_options_t, durable_agree);
    FIELD(uturn_run_options_t, durable_commit);
    FIELD(uturn_run_options_t, durable_user);
    FIELD(uturn_run_options_t, durable_resume_point);
    SIZE(uturn_run_options_t);
}

static void reports(void)
{
    FIELD(uturn_report_t, size);
    FIELD(uturn_report_t, status);
    FIELD(uturn_report_t, actions_done);
    FIELD(uturn_report_t, failed_action);
    FIELD(uturn_report_t, failed_step);
    FIELD(uturn_report_t, slot_bytes);
    FIELD(uturn_report_t, planned_peak_bytes);
    FIELD(uturn_report_t, measured_peak_bytes);
    FIELD(uturn_report_t, verify_bytes);
    FIELD(uturn_report_t, wall_seconds);
    FIELD(uturn_report_t, forward_seconds);
    FIELD(uturn_report_t, adjoint_seconds);
    FIELD(uturn_report_t, copy_seconds);
    FIELD(uturn_report_t, overhead_seconds);
    FIELD(uturn_report_t, jemalloc);
    FIELD(uturn_report_t, storage_granule);
    FIELD(uturn_report_t, storage_alignment);
    FIELD(uturn_report_t, storage_backend);
    FIELD(uturn_report_t, held_before_bytes);
    FIELD(uturn_report_t, held_after_bytes);
    FIELD(uturn_report_t, bookkeeping_bytes);
    FIELD(uturn_report_t, budget_bytes);
    FIELD(uturn_report_t, record_bytes);
    FIELD(uturn_report_t, steps);
    FIELD(uturn_report_t, io_buffer_bytes);
    FIELD(uturn_report_t, lossy);
    FIELD(uturn_report_t, sweeps_done);
    FIELD(uturn_report_t, sweep_forward_steps);
    FIELD(uturn_report_t, trajectory_held);
    FIELD(uturn_report_t, durable_points);
    FIELD(uturn_report_t, durable_bytes);
    FIELD(uturn_report_t, durable_seconds);
    FIELD(uturn_report_t, durable_point);
    FIELD(uturn_report_t, resumed_action);
    FIELD(uturn_report_t, resumed_forward_steps);
    SIZE(uturn_report_t);
    FIELD(uturn_level_report_t, size);
    FIELD(uturn_level_report_t, stores);
    FIELD(uturn_level_report_t, restores);
    FIELD(uturn_level_report_t, peak_slots);
    FIELD(uturn_level_report_t, bytes_written);
    FIELD(uturn_level_report_t, bytes_read);
    FIELD(uturn_level_report_t, write_seconds);
    FIELD(uturn_level_report_t, read_seconds);
    FIELD(uturn_level_report_t, wait_seconds);
    FIELD(uturn_level_report_t, overlapped);
    FIELD(uturn_level_report_t, on_tmpfs);
    SIZE(uturn_level_report_t);
    FIELD(uturn_slot_cost_t, size);
    FIELD(uturn_slot_cost_t, state_bytes);
    FIELD(uturn_slot_cost_t, stride);
    FIELD(uturn_slot_cost_t, alignment);
    FIELD(uturn_slot_cost_t, granule);
    FIELD(uturn_slot_cost_t, backend);
    SIZE(uturn_slot_cost_t);
}

static void executors(void)
{
    FIELD(uturn_allocator_t, alloc);
    FIELD(uturn_allocator_t, free);
    FIELD(uturn_allocator_t, user);
    SIZE(uturn_allocator_t);
    FIELD(uturn_storage_callbacks_t, size);
    FIELD(uturn_storage_callbacks_t, user);
    FIELD(uturn_storage_callbacks_t, open);
    FIELD(uturn_storage_callbacks_t, put);
    FIELD(uturn_storage_callbacks_t, get);
    FIELD(uturn_storage_callbacks_t, drop);
    FIELD(uturn_storage_callbacks_t, close);
    FIELD(uturn_storage_callbacks_t, lossy);
    SIZE(uturn_storage_callbacks_t);
    FIELD(uturn_storage_t, size);
    FIELD(uturn_storage_t, kind);
    FIELD(uturn_storage_t, directory);
    FIELD(uturn_storage_t, callbacks);
    FIELD(uturn_storage_t, synchronous);
    SIZE(uturn_storage_t);
    FIELD(uturn_executor_options_t, size);
    FIELD(uturn_executor_options_t, alloc);
    FIELD(uturn_executor_options_t, slot_alloc);
    FIELD(uturn_executor_options_t, levels);
    FIELD(uturn_executor_options_t, level_count);
    FIELD(uturn_executor_options_t, io_buffers);
    SIZE(uturn_executor_options_t);
    FIELD(uturn_durable_info_t, size);
    FIELD(uturn_durable_info_t, has_point);
    FIELD(uturn_durable_info_t, in_use);
    FIELD(uturn_durable_info_t, point);
    FIELD(uturn_durable_info_t, fingerprint);
    FIELD(uturn_durable_info_t, steps);
    FIELD(uturn_durable_info_t, action);
    FIELD(uturn_durable_info_t, into);
    FIELD(uturn_durable_info_t, forward_steps);
    FIELD(uturn_durable_info_t, reverse_steps);
    FIELD(uturn_durable_info_t, checkpoints);
    FIELD(uturn_durable_info_t, bytes);
    FIELD(uturn_durable_info_t, state_bytes);
    FIELD(uturn_durable_info_t, adjoint_bytes);
    FIELD(uturn_durable_info_t, tag);
    SIZE(uturn_durable_info_t);
}

int main(void)
{
    problems();
    stats();
    models();
    reports();
    executors();
    return 0;
}
