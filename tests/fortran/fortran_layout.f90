! The layouts of the uturn module's mirrors as this Fortran compiler lays
! them out, in the format of tests/python/struct_layout.c (one line "TYPE
! FIELD OFFSET SIZE" per field, one "TYPE sizeof SIZE" per type), so that
! tests/fortran/run.sh can compare them with the C compiler's layouts of
! <uturn.h> (ctest fortran_binding). A field the mirror lacks does not
! compile; one at another offset, of another size, or a type of another
! size is a difference.
module layout_print
  use, intrinsic :: iso_c_binding
  implicit none
  character(len=40) :: current = ""
  integer(c_intptr_t) :: base = 0
contains
  subroutine start(name, at, bytes)
    character(len=*), intent(in) :: name
    type(c_ptr), intent(in) :: at
    integer(c_size_t), intent(in) :: bytes
    current = name
    base = transfer(at, base)
    print '(a, " sizeof ", i0)', name, bytes
  end subroutine

  subroutine field(name, at, bytes)
    character(len=*), intent(in) :: name
    type(c_ptr), intent(in) :: at
    integer(c_size_t), intent(in) :: bytes
    print '(a, " ", a, " ", i0, " ", i0)', trim(current), name, &
        transfer(at, base) - base, bytes
  end subroutine
end module layout_print

program fortran_layout
  use, intrinsic :: iso_c_binding
  use uturn
  use layout_print
  implicit none

  call error_layout()
  call problem_layout()
  call level_layout()
  call level_stats_layout()
  call stats_layout()
  call action_layout()
  call model_layout()
  call progress_layout()
  call run_options_layout()
  call report_layout()
  call level_report_layout()
  call durable_info_layout()
  call slot_cost_layout()
  call allocator_layout()
  call storage_callbacks_layout()
  call storage_layout()
  call executor_options_layout()
contains
  subroutine error_layout()
    type(uturn_error_t), target :: error

    call start("uturn_error_t", c_loc(error), &
        c_sizeof(error))
    call field("size", c_loc(error%size), c_sizeof(error%size))
    call field("status", c_loc(error%status), c_sizeof(error%status))
    call field("action", c_loc(error%action), c_sizeof(error%action))
    call field("line", c_loc(error%line), c_sizeof(error%line))
    call field("step", c_loc(error%step), c_sizeof(error%step))
    call field("minimum_slots", c_loc(error%minimum_slots), &
        c_sizeof(error%minimum_slots))
    call field("minimum_bytes", c_loc(error%minimum_bytes), &
        c_sizeof(error%minimum_bytes))
    call field("message", c_loc(error%message), c_sizeof(error%message))
  end subroutine

  subroutine problem_layout()
    type(uturn_problem_t), target :: problem

    call start("uturn_problem_t", c_loc(problem), &
        c_sizeof(problem))
    call field("size", c_loc(problem%size), c_sizeof(problem%size))
    call field("planner", c_loc(problem%planner), c_sizeof(problem%planner))
    call field("steps", c_loc(problem%steps), c_sizeof(problem%steps))
    call field("slots", c_loc(problem%slots), c_sizeof(problem%slots))
    call field("slot_bytes", c_loc(problem%slot_bytes), &
        c_sizeof(problem%slot_bytes))
    call field("budget_bytes", c_loc(problem%budget_bytes), &
        c_sizeof(problem%budget_bytes))
    call field("stride", c_loc(problem%stride), c_sizeof(problem%stride))
    call field("step_bytes", c_loc(problem%step_bytes), &
        c_sizeof(problem%step_bytes))
    call field("step_costs", c_loc(problem%step_costs), &
        c_sizeof(problem%step_costs))
    call field("unit_bytes", c_loc(problem%unit_bytes), &
        c_sizeof(problem%unit_bytes))
    call field("levels", c_loc(problem%levels), c_sizeof(problem%levels))
    call field("level_count", c_loc(problem%level_count), &
        c_sizeof(problem%level_count))
    call field("max_steps", &
        c_loc(problem%max_steps), c_sizeof(problem%max_steps))
    call field("threads", c_loc(problem%threads), c_sizeof(problem%threads))
    call field("table_bytes", c_loc(problem%table_bytes), &
        c_sizeof(problem%table_bytes))
    call field("dp_mode", c_loc(problem%dp_mode), c_sizeof(problem%dp_mode))
    call field("progress", c_loc(problem%progress), &
        c_sizeof(problem%progress))
    call field("progress_user", c_loc(problem%progress_user), &
        c_sizeof(problem%progress_user))
    call field("sweeps", c_loc(problem%sweeps), c_sizeof(problem%sweeps))
  end subroutine

  subroutine level_layout()
    type(uturn_level_t), target :: level

    call start("uturn_level_t", c_loc(level), &
        c_sizeof(level))
    call field("size", c_loc(level%size), c_sizeof(level%size))
    call field("name", c_loc(level%name), c_sizeof(level%name))
    call field("slots", c_loc(level%slots), c_sizeof(level%slots))
    call field("bytes", c_loc(level%bytes), c_sizeof(level%bytes))
    call field("write_cost", &
        c_loc(level%write_cost), c_sizeof(level%write_cost))
    call field("read_cost", c_loc(level%read_cost), c_sizeof(level%read_cost))
  end subroutine

  subroutine level_stats_layout()
    type(uturn_level_stats_t), target :: level_stats

    call start("uturn_level_stats_t", c_loc(level_stats), &
        c_sizeof(level_stats))
    call field("size", c_loc(level_stats%size), c_sizeof(level_stats%size))
    call field("name", c_loc(level_stats%name), c_sizeof(level_stats%name))
    call field("slots", c_loc(level_stats%slots), c_sizeof(level_stats%slots))
    call field("write_cost", c_loc(level_stats%write_cost), &
        c_sizeof(level_stats%write_cost))
    call field("read_cost", c_loc(level_stats%read_cost), &
        c_sizeof(level_stats%read_cost))
    call field("stores", &
        c_loc(level_stats%stores), c_sizeof(level_stats%stores))
    call field("restores", c_loc(level_stats%restores), &
        c_sizeof(level_stats%restores))
    call field("peak_slots", c_loc(level_stats%peak_slots), &
        c_sizeof(level_stats%peak_slots))
    call field("peak_bytes", c_loc(level_stats%peak_bytes), &
        c_sizeof(level_stats%peak_bytes))
  end subroutine

  subroutine stats_layout()
    type(uturn_stats_t), target :: stats

    call start("uturn_stats_t", c_loc(stats), &
        c_sizeof(stats))
    call field("size", c_loc(stats%size), c_sizeof(stats%size))
    call field("steps", c_loc(stats%steps), c_sizeof(stats%steps))
    call field("forward_steps", c_loc(stats%forward_steps), &
        c_sizeof(stats%forward_steps))
    call field("recomputed_steps", c_loc(stats%recomputed_steps), &
        c_sizeof(stats%recomputed_steps))
    call field("reverse_steps", c_loc(stats%reverse_steps), &
        c_sizeof(stats%reverse_steps))
    call field("stores", c_loc(stats%stores), c_sizeof(stats%stores))
    call field("restores", c_loc(stats%restores), c_sizeof(stats%restores))
    call field("frees", c_loc(stats%frees), c_sizeof(stats%frees))
    call field("peak_slots", &
        c_loc(stats%peak_slots), c_sizeof(stats%peak_slots))
    call field("peak_bytes", &
        c_loc(stats%peak_bytes), c_sizeof(stats%peak_bytes))
    call field("actions", c_loc(stats%actions), c_sizeof(stats%actions))
    call field("slots", c_loc(stats%slots), c_sizeof(stats%slots))
    call field("slot_bytes", &
        c_loc(stats%slot_bytes), c_sizeof(stats%slot_bytes))
    call field("budget_bytes", c_loc(stats%budget_bytes), &
        c_sizeof(stats%budget_bytes))
    call field("forward_cost", c_loc(stats%forward_cost), &
        c_sizeof(stats%forward_cost))
    call field("recompute_cost", c_loc(stats%recompute_cost), &
        c_sizeof(stats%recompute_cost))
    call field("recompute_factor", c_loc(stats%recompute_factor), &
        c_sizeof(stats%recompute_factor))
    call field("fingerprint", c_loc(stats%fingerprint), &
        c_sizeof(stats%fingerprint))
    call field("cost", c_loc(stats%cost), c_sizeof(stats%cost))
    call field("levels", c_loc(stats%levels), c_sizeof(stats%levels))
    call field("online", c_loc(stats%online), c_sizeof(stats%online))
    call field("exact", c_loc(stats%exact), c_sizeof(stats%exact))
    call field("unit_bytes", c_loc(stats%unit_bytes), &
        c_sizeof(stats%unit_bytes))
    call field("lower_bound_cost", c_loc(stats%lower_bound_cost), &
        c_sizeof(stats%lower_bound_cost))
    call field("planning_seconds", c_loc(stats%planning_seconds), &
        c_sizeof(stats%planning_seconds))
    call field("sweeps", c_loc(stats%sweeps), c_sizeof(stats%sweeps))
    call field("persistent", c_loc(stats%persistent), &
        c_sizeof(stats%persistent))
    call field("sweep_forward_steps", c_loc(stats%sweep_forward_steps), &
        c_sizeof(stats%sweep_forward_steps))
  end subroutine

  subroutine action_layout()
    type(uturn_action_t), target :: action

    call start("uturn_action_t", c_loc(action), &
        c_sizeof(action))
    call field("op", c_loc(action%op), c_sizeof(action%op))
    call field("step", c_loc(action%step), c_sizeof(action%step))
    call field("step_end", c_loc(action%step_end), c_sizeof(action%step_end))
    call field("slot", c_loc(action%slot), c_sizeof(action%slot))
  end subroutine

  subroutine model_layout()
    type(uturn_model_t), target :: model

    call start("uturn_model_t", c_loc(model), &
        c_sizeof(model))
    call field("size", c_loc(model%size), c_sizeof(model%size))
    call field("user", c_loc(model%user), c_sizeof(model%user))
    call field("forward", c_loc(model%forward), c_sizeof(model%forward))
    call field("turn", c_loc(model%turn), c_sizeof(model%turn))
    call field("adjoint", c_loc(model%adjoint), c_sizeof(model%adjoint))
    call field("state", c_loc(model%state), c_sizeof(model%state))
    call field("state_bytes", c_loc(model%state_bytes), &
        c_sizeof(model%state_bytes))
    call field("save", c_loc(model%save), c_sizeof(model%save))
    call field("load", c_loc(model%load), c_sizeof(model%load))
    call field("state_size", &
        c_loc(model%state_size), c_sizeof(model%state_size))
    call field("is_last", c_loc(model%is_last), c_sizeof(model%is_last))
    call field("record_bytes", c_loc(model%record_bytes), &
        c_sizeof(model%record_bytes))
    call field("forward_record", c_loc(model%forward_record), &
        c_sizeof(model%forward_record))
    call field("agree", c_loc(model%agree), c_sizeof(model%agree))
    call field("adjoint_bytes", c_loc(model%adjoint_bytes), &
        c_sizeof(model%adjoint_bytes))
    call field("save_adjoint", c_loc(model%save_adjoint), &
        c_sizeof(model%save_adjoint))
    call field("load_adjoint", c_loc(model%load_adjoint), &
        c_sizeof(model%load_adjoint))
  end subroutine

  subroutine progress_layout()
    type(uturn_progress_t), target :: progress

    call start("uturn_progress_t", c_loc(progress), &
        c_sizeof(progress))
    call field("size", c_loc(progress%size), c_sizeof(progress%size))
    call field("done", c_loc(progress%done), c_sizeof(progress%done))
    call field("total", c_loc(progress%total), c_sizeof(progress%total))
    call field("forward_steps", c_loc(progress%forward_steps), &
        c_sizeof(progress%forward_steps))
    call field("reverse_steps", c_loc(progress%reverse_steps), &
        c_sizeof(progress%reverse_steps))
    call field("steps", c_loc(progress%steps), c_sizeof(progress%steps))
    call field("seconds", c_loc(progress%seconds), c_sizeof(progress%seconds))
  end subroutine

  subroutine run_options_layout()
    type(uturn_run_options_t), target :: run_options

    call start("uturn_run_options_t", c_loc(run_options), &
        c_sizeof(run_options))
    call field("size", c_loc(run_options%size), c_sizeof(run_options%size))
    call field("budget_bytes", c_loc(run_options%budget_bytes), &
        c_sizeof(run_options%budget_bytes))
    call field("verify", &
        c_loc(run_options%verify), c_sizeof(run_options%verify))
    call field("progress", c_loc(run_options%progress), &
        c_sizeof(run_options%progress))
    call field("progress_user", c_loc(run_options%progress_user), &
        c_sizeof(run_options%progress_user))
    call field("progress_every", c_loc(run_options%progress_every), &
        c_sizeof(run_options%progress_every))
    call field("on_progress", c_loc(run_options%on_progress), &
        c_sizeof(run_options%on_progress))
    call field("on_progress_user", c_loc(run_options%on_progress_user), &
        c_sizeof(run_options%on_progress_user))
    call field("on_progress_every", c_loc(run_options%on_progress_every), &
        c_sizeof(run_options%on_progress_every))
    call field("step_bytes", c_loc(run_options%step_bytes), &
        c_sizeof(run_options%step_bytes))
    call field("sweeps_on_request", c_loc(run_options%sweeps_on_request), &
        c_sizeof(run_options%sweeps_on_request))
    call field("durable_dir", c_loc(run_options%durable_dir), &
        c_sizeof(run_options%durable_dir))
    call field("durable_tag", c_loc(run_options%durable_tag), &
        c_sizeof(run_options%durable_tag))
    call field("durable_interval", c_loc(run_options%durable_interval), &
        c_sizeof(run_options%durable_interval))
    call field("durable_request", c_loc(run_options%durable_request), &
        c_sizeof(run_options%durable_request))
    call field("durable_mode", c_loc(run_options%durable_mode), &
        c_sizeof(run_options%durable_mode))
    call field("durable_agree", c_loc(run_options%durable_agree), &
        c_sizeof(run_options%durable_agree))
    call field("durable_commit", c_loc(run_options%durable_commit), &
        c_sizeof(run_options%durable_commit))
    call field("durable_user", c_loc(run_options%durable_user), &
        c_sizeof(run_options%durable_user))
    call field("durable_resume_point", &
        c_loc(run_options%durable_resume_point), &
        c_sizeof(run_options%durable_resume_point))
  end subroutine

  subroutine report_layout()
    type(uturn_report_t), target :: report

    call start("uturn_report_t", c_loc(report), &
        c_sizeof(report))
    call field("size", c_loc(report%size), c_sizeof(report%size))
    call field("status", c_loc(report%status), c_sizeof(report%status))
    call field("actions_done", c_loc(report%actions_done), &
        c_sizeof(report%actions_done))
    call field("failed_action", c_loc(report%failed_action), &
        c_sizeof(report%failed_action))
    call field("failed_step", c_loc(report%failed_step), &
        c_sizeof(report%failed_step))
    call field("slot_bytes", c_loc(report%slot_bytes), &
        c_sizeof(report%slot_bytes))
    call field("planned_peak_bytes", c_loc(report%planned_peak_bytes), &
        c_sizeof(report%planned_peak_bytes))
    call field("measured_peak_bytes", c_loc(report%measured_peak_bytes), &
        c_sizeof(report%measured_peak_bytes))
    call field("verify_bytes", c_loc(report%verify_bytes), &
        c_sizeof(report%verify_bytes))
    call field("wall_seconds", c_loc(report%wall_seconds), &
        c_sizeof(report%wall_seconds))
    call field("forward_seconds", c_loc(report%forward_seconds), &
        c_sizeof(report%forward_seconds))
    call field("adjoint_seconds", c_loc(report%adjoint_seconds), &
        c_sizeof(report%adjoint_seconds))
    call field("copy_seconds", c_loc(report%copy_seconds), &
        c_sizeof(report%copy_seconds))
    call field("overhead_seconds", c_loc(report%overhead_seconds), &
        c_sizeof(report%overhead_seconds))
    call field("jemalloc", c_loc(report%jemalloc), c_sizeof(report%jemalloc))
    call field("storage_granule", c_loc(report%storage_granule), &
        c_sizeof(report%storage_granule))
    call field("storage_alignment", c_loc(report%storage_alignment), &
        c_sizeof(report%storage_alignment))
    call field("storage_backend", c_loc(report%storage_backend), &
        c_sizeof(report%storage_backend))
    call field("held_before_bytes", c_loc(report%held_before_bytes), &
        c_sizeof(report%held_before_bytes))
    call field("held_after_bytes", c_loc(report%held_after_bytes), &
        c_sizeof(report%held_after_bytes))
    call field("bookkeeping_bytes", c_loc(report%bookkeeping_bytes), &
        c_sizeof(report%bookkeeping_bytes))
    call field("budget_bytes", c_loc(report%budget_bytes), &
        c_sizeof(report%budget_bytes))
    call field("record_bytes", c_loc(report%record_bytes), &
        c_sizeof(report%record_bytes))
    call field("steps", c_loc(report%steps), c_sizeof(report%steps))
    call field("io_buffer_bytes", c_loc(report%io_buffer_bytes), &
        c_sizeof(report%io_buffer_bytes))
    call field("lossy", c_loc(report%lossy), c_sizeof(report%lossy))
    call field("sweeps_done", c_loc(report%sweeps_done), &
        c_sizeof(report%sweeps_done))
    call field("sweep_forward_steps", c_loc(report%sweep_forward_steps), &
        c_sizeof(report%sweep_forward_steps))
    call field("trajectory_held", c_loc(report%trajectory_held), &
        c_sizeof(report%trajectory_held))
    call field("durable_points", c_loc(report%durable_points), &
        c_sizeof(report%durable_points))
    call field("durable_bytes", c_loc(report%durable_bytes), &
        c_sizeof(report%durable_bytes))
    call field("durable_seconds", c_loc(report%durable_seconds), &
        c_sizeof(report%durable_seconds))
    call field("durable_point", c_loc(report%durable_point), &
        c_sizeof(report%durable_point))
    call field("resumed_action", c_loc(report%resumed_action), &
        c_sizeof(report%resumed_action))
    call field("resumed_forward_steps", c_loc(report%resumed_forward_steps), &
        c_sizeof(report%resumed_forward_steps))
  end subroutine

  subroutine durable_info_layout()
    type(uturn_durable_info_t), target :: info

    call start("uturn_durable_info_t", c_loc(info), c_sizeof(info))
    call field("size", c_loc(info%size), c_sizeof(info%size))
    call field("has_point", c_loc(info%has_point), c_sizeof(info%has_point))
    call field("in_use", c_loc(info%in_use), c_sizeof(info%in_use))
    call field("point", c_loc(info%point), c_sizeof(info%point))
    call field("fingerprint", c_loc(info%fingerprint), c_sizeof(info%fingerprint))
    call field("steps", c_loc(info%steps), c_sizeof(info%steps))
    call field("action", c_loc(info%action), c_sizeof(info%action))
    call field("into", c_loc(info%into), c_sizeof(info%into))
    call field("forward_steps", c_loc(info%forward_steps), c_sizeof(info%forward_steps))
    call field("reverse_steps", c_loc(info%reverse_steps), c_sizeof(info%reverse_steps))
    call field("checkpoints", c_loc(info%checkpoints), c_sizeof(info%checkpoints))
    call field("bytes", c_loc(info%bytes), c_sizeof(info%bytes))
    call field("state_bytes", c_loc(info%state_bytes), c_sizeof(info%state_bytes))
    call field("adjoint_bytes", c_loc(info%adjoint_bytes), c_sizeof(info%adjoint_bytes))
    call field("tag", c_loc(info%tag), c_sizeof(info%tag))
  end subroutine

  subroutine level_report_layout()
    type(uturn_level_report_t), target :: level_report

    call start("uturn_level_report_t", c_loc(level_report), &
        c_sizeof(level_report))
    call field("size", c_loc(level_report%size), c_sizeof(level_report%size))
    call field("stores", c_loc(level_report%stores), &
        c_sizeof(level_report%stores))
    call field("restores", c_loc(level_report%restores), &
        c_sizeof(level_report%restores))
    call field("peak_slots", c_loc(level_report%peak_slots), &
        c_sizeof(level_report%peak_slots))
    call field("bytes_written", c_loc(level_report%bytes_written), &
        c_sizeof(level_report%bytes_written))
    call field("bytes_read", c_loc(level_report%bytes_read), &
        c_sizeof(level_report%bytes_read))
    call field("write_seconds", c_loc(level_report%write_seconds), &
        c_sizeof(level_report%write_seconds))
    call field("read_seconds", c_loc(level_report%read_seconds), &
        c_sizeof(level_report%read_seconds))
    call field("wait_seconds", c_loc(level_report%wait_seconds), &
        c_sizeof(level_report%wait_seconds))
    call field("overlapped", c_loc(level_report%overlapped), &
        c_sizeof(level_report%overlapped))
    call field("on_tmpfs", c_loc(level_report%on_tmpfs), &
        c_sizeof(level_report%on_tmpfs))
  end subroutine

  subroutine slot_cost_layout()
    type(uturn_slot_cost_t), target :: slot_cost

    call start("uturn_slot_cost_t", c_loc(slot_cost), &
        c_sizeof(slot_cost))
    call field("size", c_loc(slot_cost%size), c_sizeof(slot_cost%size))
    call field("state_bytes", c_loc(slot_cost%state_bytes), &
        c_sizeof(slot_cost%state_bytes))
    call field("stride", c_loc(slot_cost%stride), c_sizeof(slot_cost%stride))
    call field("alignment", c_loc(slot_cost%alignment), &
        c_sizeof(slot_cost%alignment))
    call field("granule", c_loc(slot_cost%granule), c_sizeof(slot_cost%granule))
    call field("backend", c_loc(slot_cost%backend), c_sizeof(slot_cost%backend))
  end subroutine

  subroutine allocator_layout()
    type(uturn_allocator_t), target :: allocator

    call start("uturn_allocator_t", c_loc(allocator), &
        c_sizeof(allocator))
    call field("alloc", c_loc(allocator%alloc), c_sizeof(allocator%alloc))
    call field("free", c_loc(allocator%free), c_sizeof(allocator%free))
    call field("user", c_loc(allocator%user), c_sizeof(allocator%user))
  end subroutine

  subroutine storage_callbacks_layout()
    type(uturn_storage_callbacks_t), target :: storage_callbacks

    call start("uturn_storage_callbacks_t", c_loc(storage_callbacks), &
        c_sizeof(storage_callbacks))
    call field("size", c_loc(storage_callbacks%size), &
        c_sizeof(storage_callbacks%size))
    call field("user", c_loc(storage_callbacks%user), &
        c_sizeof(storage_callbacks%user))
    call field("open", c_loc(storage_callbacks%open), &
        c_sizeof(storage_callbacks%open))
    call field("put", c_loc(storage_callbacks%put), &
        c_sizeof(storage_callbacks%put))
    call field("get", c_loc(storage_callbacks%get), &
        c_sizeof(storage_callbacks%get))
    call field("drop", c_loc(storage_callbacks%drop), &
        c_sizeof(storage_callbacks%drop))
    call field("close", c_loc(storage_callbacks%close), &
        c_sizeof(storage_callbacks%close))
    call field("lossy", c_loc(storage_callbacks%lossy), &
        c_sizeof(storage_callbacks%lossy))
  end subroutine

  subroutine storage_layout()
    type(uturn_storage_t), target :: storage

    call start("uturn_storage_t", c_loc(storage), &
        c_sizeof(storage))
    call field("size", c_loc(storage%size), c_sizeof(storage%size))
    call field("kind", c_loc(storage%kind), c_sizeof(storage%kind))
    call field("directory", &
        c_loc(storage%directory), c_sizeof(storage%directory))
    call field("callbacks", &
        c_loc(storage%callbacks), c_sizeof(storage%callbacks))
    call field("synchronous", c_loc(storage%synchronous), &
        c_sizeof(storage%synchronous))
  end subroutine

  subroutine executor_options_layout()
    type(uturn_executor_options_t), target :: executor_options

    call start("uturn_executor_options_t", c_loc(executor_options), &
        c_sizeof(executor_options))
    call field("size", c_loc(executor_options%size), &
        c_sizeof(executor_options%size))
    call field("alloc", c_loc(executor_options%alloc), &
        c_sizeof(executor_options%alloc))
    call field("slot_alloc", c_loc(executor_options%slot_alloc), &
        c_sizeof(executor_options%slot_alloc))
    call field("levels", c_loc(executor_options%levels), &
        c_sizeof(executor_options%levels))
    call field("level_count", c_loc(executor_options%level_count), &
        c_sizeof(executor_options%level_count))
    call field("io_buffers", c_loc(executor_options%io_buffers), &
        c_sizeof(executor_options%io_buffers))
  end subroutine
end program fortran_layout
