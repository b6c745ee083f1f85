! The Fortran module's checked routines refuse negative counts, which C
! would read as uint64_t values near 2**64 (the fields of 0.1 and 0.2,
! levels reached through problem%levels included), and capacities or
! lengths that are negative or past the Fortran array or string they
! describe (cursor_read, action_format, plan_parse), which let C write or
! read past its end (ctest fortran_binding).
! Every failure prints "FAIL: what" and the program ends with error stop.
module counting
  use, intrinsic :: iso_c_binding
  implicit none
  integer, target :: calls = 0        ! every callback counts one (user)
  real(c_double), target :: x(1) = 0
contains
  function step_fn(user, step) bind(c) result(rc)   ! forward and adjoint
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    integer, pointer :: n
    call c_f_pointer(user, n)
    n = n + 1
    rc = merge(0, 1, step >= 0)
  end function

  function turn_fn(user) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int) :: rc
    integer, pointer :: n
    call c_f_pointer(user, n)
    n = n + 1
    rc = 0
  end function
end module counting


! A scalar model with its adjoint, for a durable run: x' = x + h sin x,
! xbar = xbar (1 + h cos x); the forward asks for a stop at step 30.
module durable_model
  use, intrinsic :: iso_c_binding
  use uturn, only: UTURN_DURABLE_STOP
  implicit none
  real(c_double), parameter :: h = 0.05d0
  real(c_double), target :: xs(1) = 0, xbar(1) = 0
  integer(c_int), target :: request = 0
  integer :: forwards = 0
  logical :: stop_once = .false.
contains
  function fwd(user, step) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    xs(1) = xs(1) + h * sin(xs(1))
    forwards = forwards + 1
    if (stop_once .and. forwards == 30) request = UTURN_DURABLE_STOP
    rc = merge(0, 1, step >= 0 .and. .not. c_associated(user))
  end function

  function adj(user, step) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    xbar(1) = xbar(1) * (1 + h * cos(xs(1)))
    rc = merge(0, 1, step >= 0 .and. .not. c_associated(user))
  end function

  function trn(user) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int) :: rc
    xbar(1) = xs(1)
    rc = merge(0, 1, .not. c_associated(user))
  end function

  function save_adj(user, dst, bytes) bind(c) result(rc)
    type(c_ptr), value :: user, dst
    integer(c_int64_t), value :: bytes
    integer(c_int) :: rc
    real(c_double), pointer :: out(:)
    call c_f_pointer(dst, out, [1])
    out(1) = xbar(1)
    rc = merge(0, 1, bytes == 8 .and. .not. c_associated(user))
  end function

  function load_adj(user, src, bytes) bind(c) result(rc)
    type(c_ptr), value :: user, src
    integer(c_int64_t), value :: bytes
    integer(c_int) :: rc
    real(c_double), pointer :: in(:)
    call c_f_pointer(src, in, [1])
    xbar(1) = in(1)
    rc = merge(0, 1, bytes == 8 .and. .not. c_associated(user))
  end function

  ! The gradient with every state kept, by hand.
  function reference(n) result(g)
    integer, intent(in) :: n
    real(c_double) :: g, x(0:n)
    integer :: i
    x(0) = 0.7d0
    do i = 1, n
      x(i) = x(i - 1) + h * sin(x(i - 1))
    end do
    g = x(n)
    do i = n - 1, 0, -1
      g = g * (1 + h * cos(x(i)))
    end do
  end function
end module durable_model

module expect
  use, intrinsic :: iso_c_binding
  use uturn
  implicit none
  integer :: failures = 0
contains
  ! status is UTURN_E_INVALID_ARG and the message names `field`.
  subroutine refused(what, status, err, field)
    character(len=*), intent(in) :: what, field
    integer(c_int), intent(in) :: status
    type(uturn_error_t), intent(in) :: err
    character(len=:), allocatable :: text
    text = uturn_error_message(err)
    if (status /= UTURN_E_INVALID_ARG .or. err%status /= status .or. &
        index(text, field) == 0 .or. index(text, "negative") + &
        index(text, "at least") + index(text, "at most") == 0) then
      print '("FAIL: ", a, ": status ", i0, ", message ''", a, "''")', &
          what, status, text
      failures = failures + 1
    end if
  end subroutine

  subroutine ok(what, cond)
    character(len=*), intent(in) :: what
    logical, intent(in) :: cond
    if (.not. cond) then
      print '("FAIL: ", a)', what
      failures = failures + 1
    end if
  end subroutine
end module expect

program fortran_binding
  use, intrinsic :: iso_c_binding
  use uturn
  use counting
  use expect
  implicit none
  character(len=12), parameter :: fields(6) = [character(len=12) :: &
      "steps", "slots", "slot_bytes", "budget_bytes", "stride", "unit_bytes"]
  type(uturn_problem_t) :: p, good
  type(uturn_model_t) :: model
  type(uturn_run_options_t) :: options
  type(uturn_stats_t) :: stats
  type(uturn_action_t) :: action
  type(uturn_error_t) :: err
  type(c_ptr) :: ex, plan, validator
  integer(c_int) :: st
  integer(c_int64_t) :: bytes
  integer :: i

  call planned_problems()
  call executor_refusals()
  call action_refusals()
  call fields_of_0_2()
  call online_cursor_values()
  call sizes_of_fortran_arrays()
  call sweeps_of_0_3()
  call durable_of_0_3()

  if (failures /= 0) then
    print '(i0, " FAILED")', failures
    error stop 1
  end if
  print '(a)', "ok: negative counts are refused by name"

contains
  ! A valid problem, then each field of the problem refused by name.
  subroutine planned_problems()
    ! A valid problem (revolve, n = 100, s = 5: 320 forward steps, docs/model.md
    ! section 4) goes through the checked call.
    call uturn_problem_init(good)
    good%steps = 100
    good%slots = 5
    call uturn_error_init(err)
    st = uturn_plan_create_checked(good, c_null_ptr, plan, err)
    call ok("a valid problem is planned", st == UTURN_OK)
    call uturn_stats_init(stats)
    if (st == UTURN_OK) st = uturn_plan_stats(plan, stats)
    call ok("revolve (100, 5) takes 320 forward steps", &
        stats%forward_steps == 320)
    call uturn_plan_free(plan)

    ! Each field of the problem, negative, is refused by name.
    do i = 1, size(fields)
      p = good
      select case (i)
      case (1); p%steps = -1
      case (2); p%slots = -1
      case (3); p%slot_bytes = -16
      case (4); p%budget_bytes = -80
      case (5); p%stride = -2
      case (6); p%unit_bytes = -8
      end select
      call uturn_error_init(err)
      st = uturn_check(p, err)
      call refused("uturn_check(problem%" // trim(fields(i)) // ")", st, err, &
          "problem%" // trim(fields(i)))
    end do

    ! slots = -1 would be a capacity of 2**64-1: the checked calls refuse it
    ! and leave out NULL, with or without an error argument.
    p = good
    p%slots = -1
    call uturn_error_init(err)
    plan = c_loc(x)
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    call refused("uturn_plan_create_checked", st, err, "problem%slots")
    call ok("a refused plan is NULL", .not. c_associated(plan))
    st = uturn_plan_create_checked(p, c_null_ptr, plan)
    call ok("refused without an error argument", st == UTURN_E_INVALID_ARG)
  end subroutine

  ! The executor's checked calls refuse negative problems and sizes; then
  ! its runs (run_refusals).
  subroutine executor_refusals()
    st = uturn_executor_create(c_null_ptr, ex, err)
    call ok("an executor", st == UTURN_OK)
    p = good
    p%slots = 0
    p%slot_bytes = 8
    p%budget_bytes = -1
    call uturn_error_init(err)
    st = uturn_executor_plan_checked(ex, p, plan, err)
    call refused("uturn_executor_plan_checked", st, err, "problem%budget_bytes")

    call uturn_error_init(err)
    st = uturn_validator_create_checked(p, c_null_ptr, validator, err)
    call refused("uturn_validator_create_checked", st, err, &
        "problem%budget_bytes")

    ! state_bytes: negative and 0 refused, 16 costs at least 16 bytes.
    call uturn_error_init(err)
    st = uturn_executor_slot_bytes_checked(ex, -16_c_int64_t, bytes, err)
    call refused("slot_bytes(-16)", st, err, "state_bytes")
    call uturn_error_init(err)
    st = uturn_executor_slot_bytes_checked(ex, 0_c_int64_t, bytes, err)
    call refused("slot_bytes(0)", st, err, "state_bytes must be at least 1")
    st = uturn_executor_slot_bytes_checked(ex, 16_c_int64_t, bytes, err)
    call ok("slot_bytes(16)", st == UTURN_OK .and. bytes >= 16)
    call run_refusals()
    call uturn_executor_free(ex)
  end subroutine

  subroutine run_refusals()
    ! A run with a negative state size or budget calls no callback.
    p = good
    p%steps = 4
    p%slots = 0
    p%planner = UTURN_PLANNER_STORE_ALL
    p%slot_bytes = c_sizeof(x)
    st = uturn_executor_plan_checked(ex, p, plan, err)
    call ok("a store-all plan", st == UTURN_OK)
    call uturn_model_init(model)
    model%user = c_loc(calls)
    model%forward = c_funloc(step_fn)
    model%turn = c_funloc(turn_fn)
    model%adjoint = c_funloc(step_fn)
    model%state = c_loc(x)
    model%state_bytes = -8
    call uturn_error_init(err)
    st = uturn_executor_run_checked(ex, plan, model, error=err)
    call refused("run: model%state_bytes", st, err, "model%state_bytes")
    model%state_bytes = c_sizeof(x)
    call uturn_run_options_init(options)
    options%budget_bytes = -1
    call uturn_error_init(err)
    st = uturn_executor_run_checked(ex, plan, model, options, error=err)
    call refused("run: options%budget_bytes", st, err, "options%budget_bytes")
    options%budget_bytes = 0
    options%progress_every = -5
    call uturn_error_init(err)
    st = uturn_executor_run_checked(ex, plan, model, options, error=err)
    call refused("run: options%progress_every", st, err, &
        "options%progress_every")
    call ok("no callback ran for a refused run", calls == 0)

    ! The valid run: 4 forward steps, 1 turn, 4 adjoint steps.
    options%progress_every = 0
    call uturn_stats_init(stats)
    st = uturn_executor_run_checked(ex, plan, model, options, stats, &
        error=err)
    call ok("a valid checked run", st == UTURN_OK .and. &
        stats%forward_steps == 4 .and. calls == 9)
    call uturn_plan_free(plan)
  end subroutine

  subroutine action_refusals()
    ! An action with a negative slot is refused before the validator.
    p = good
    p%steps = 2
    p%slots = 2
    st = uturn_validator_create_checked(p, c_null_ptr, validator, err)
    call ok("a validator", st == UTURN_OK)
    action%op = UTURN_OP_STORE
    action%step = 0
    action%step_end = 0
    action%slot = -1
    call uturn_error_init(err)
    st = uturn_validator_push_checked(validator, action, err)
    call refused("uturn_validator_push_checked", st, err, "action%slot")
    action%slot = 0
    st = uturn_validator_push_checked(validator, action, err)
    call ok("store 0 0 is valid", st == UTURN_OK)
    call uturn_validator_free(validator)
  end subroutine

  ! The fields appended in 0.2, negative: refused by name, nothing made.
  subroutine fields_of_0_2()
    call problem_fields_of_0_2()
    call executor_fields_of_0_2()
    call run_fields_of_0_2()
  end subroutine

  ! The problem's fields of 0.2: max_steps, level_count and the levels.
  subroutine problem_fields_of_0_2()
    type(uturn_level_t), target :: lv(2)
    p = good
    p%max_steps = -1
    call uturn_error_init(err)
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    call refused("problem%max_steps", st, err, "problem%max_steps")
    p = good
    p%level_count = -2
    call uturn_error_init(err)
    st = uturn_check(p, err)
    call refused("problem%level_count", st, err, "problem%level_count")
    ! A level's fields are followed through problem%levels.
    call uturn_level_init(lv(1))
    call uturn_level_init(lv(2))
    lv(1)%slots = 5
    lv(2)%bytes = -4096
    p = good
    p%planner = UTURN_PLANNER_HREVOLVE
    p%slots = 0
    p%slot_bytes = 8
    p%levels = c_loc(lv)
    p%level_count = 2
    call uturn_error_init(err)
    plan = c_loc(x)
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    call refused("problem%levels(2)%bytes", st, err, "problem%levels(2)%bytes")
    call ok("a refused plan with levels is NULL", .not. c_associated(plan))
    lv(2)%bytes = 0
    lv(2)%slots = 10
    lv(2)%read_cost = -1
    call uturn_error_init(err)
    st = uturn_check(p, err)
    call refused("problem%levels(2)%read_cost", st, err, &
        "problem%levels(2)%read_cost")
    lv(2)%read_cost = 1
    lv(2)%write_cost = 1
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    call ok("the same levels, valid, are planned", st == UTURN_OK)
    call uturn_plan_free(plan)
  end subroutine

  ! The executor's level slots and slot cost of 0.2.
  subroutine executor_fields_of_0_2()
    type(uturn_slot_cost_t) :: cost
    integer(c_int64_t) :: slots
    p = good
    st = uturn_executor_create(c_null_ptr, ex, err)
    call uturn_error_init(err)
    st = uturn_executor_level_slots_checked(ex, p, -1_c_int64_t, slots, err)
    call refused("level_slots(level -1)", st, err, "level")
    call uturn_error_init(err)
    st = uturn_executor_slot_cost_checked(ex, 0_c_int64_t, cost, err)
    call refused("slot_cost(0)", st, err, "state_bytes must be at least 1")
    call uturn_slot_cost_init(cost)
    st = uturn_executor_slot_cost_checked(ex, 100_c_int64_t, cost, err)
    call ok("slot_cost(100): a stride of 112 at 16", st == UTURN_OK .and. &
        cost%state_bytes == 100 .and. cost%stride == 112 .and. &
        cost%alignment == 16)
    call uturn_executor_free(ex)
  end subroutine

  ! The model's, the run options' and the executor options' fields of 0.2.
  ! 0.3: a negative sweeps is refused by name; a plan of 3 sweeps runs
  ! sweep 1 in the run and the others on request, with the plan's counts.
  subroutine sweeps_of_0_3()
    type(uturn_report_t) :: r
    type(uturn_stats_t) :: want
    call uturn_problem_init(p)
    p%steps = 10
    p%slots = 3
    p%sweeps = -3
    call uturn_error_init(err)
    st = uturn_check(p, err)
    call refused("problem%sweeps", st, err, "problem%sweeps")
    p%sweeps = 3
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    call ok("a plan of 3 sweeps", st == UTURN_OK)
    call uturn_stats_init(want)
    st = uturn_plan_stats(plan, want)
    call ok("its stats say 3 sweeps", want%sweeps == 3)
    st = uturn_executor_create(c_null_ptr, ex, err)
    call uturn_model_init(model)
    model%user = c_loc(calls)
    model%forward = c_funloc(step_fn)
    model%adjoint = c_funloc(step_fn)
    model%turn = c_funloc(turn_fn)
    model%state = c_loc(x)
    model%state_bytes = 8
    call uturn_run_options_init(options)
    options%sweeps_on_request = .true.
    call uturn_report_init(r)
    st = uturn_executor_run(ex, plan, model, options, report=r, error=err)
    call ok("sweep 1 runs and the trajectory is held", logical(st == &
        UTURN_OK .and. r%trajectory_held .and. r%sweeps_done == 1))
    do i = 2, 3
      call uturn_stats_init(stats)
      st = uturn_executor_sweep(ex, model, stats, r, err)
      call ok("a further sweep", st == UTURN_OK .and. r%sweeps_done == i)
    end do
    call ok("released after the last", logical(.not. r%trajectory_held))
    call ok("the plan's counts", stats%forward_steps == want%forward_steps &
        .and. stats%reverse_steps == 30)
    call uturn_executor_release(ex)
    call uturn_executor_free(ex)
    call uturn_plan_free(plan)
  end subroutine

  ! 0.3: a durable run stopped at step 30 on request, then resumed from a
  ! live state that is not x_0: the gradient is the hand-written one bit
  ! for bit; the directory is shown, and removed by the complete run.
  subroutine durable_of_0_3()
    use durable_model
    character(kind=c_char, len=64), target :: dir
    type(uturn_report_t) :: r
    type(uturn_durable_info_t) :: info
    integer :: part
    dir = "/tmp/uturn-fortran-durable-" // c_null_char
    st = uturn_durable_remove(dir)
    call uturn_problem_init(p)
    p%steps = 100
    p%slots = 4
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    st = uturn_executor_create(c_null_ptr, ex, err)
    do part = 1, 2
      xs(1) = merge(0.7d0, 0d0, part == 1)
      stop_once = part == 1
      call uturn_model_init(model)
      model%forward = c_funloc(fwd)
      model%adjoint = c_funloc(adj)
      model%turn = c_funloc(trn)
      model%state = c_loc(xs)
      model%state_bytes = 8
      model%adjoint_bytes = 8
      model%save_adjoint = c_funloc(save_adj)
      model%load_adjoint = c_funloc(load_adj)
      call uturn_run_options_init(options)
      options%durable_dir = c_loc(dir)
      options%durable_request = c_loc(request)
      options%durable_mode = merge(UTURN_DURABLE_NEW, UTURN_DURABLE_RESUME, &
          part == 1)
      call uturn_report_init(r)
      st = uturn_executor_run(ex, plan, model, options, report=r)
      if (part == 1) then
        call ok("a durable run stops at its point", st == UTURN_E_STOPPED &
            .and. r%durable_points == 1)
        call uturn_durable_info_init(info)
        call ok("the directory shows the point", &
            uturn_durable_inspect(dir, info) == UTURN_OK .and. &
            info%has_point .and. info%forward_steps == 30)
      else
        call ok("resumed: the gradient is the reference bit for bit", &
            st == UTURN_OK .and. transfer(xbar(1), 0_c_int64_t) == &
            transfer(reference(100), 0_c_int64_t) .and. &
            r%resumed_forward_steps == 30)
      end if
    end do
    call uturn_durable_info_init(info)
    st = uturn_durable_inspect(dir, info)
    call ok("the complete run removed the directory", st == UTURN_E_IO)
    call uturn_executor_free(ex)
    call uturn_plan_free(plan)
  end subroutine

  subroutine run_fields_of_0_2()
    type(uturn_executor_options_t) :: o
    type(c_ptr) :: out
    call uturn_model_init(model)
    model%record_bytes = -8
    call uturn_error_init(err)
    st = uturn_check(model, err)
    call refused("model%record_bytes", st, err, "model%record_bytes")
    call uturn_run_options_init(options)
    options%on_progress_every = -100
    call uturn_error_init(err)
    st = uturn_check(options, err)
    call refused("options%on_progress_every", st, err, &
        "options%on_progress_every")

    call uturn_executor_options_init(o)
    o%io_buffers = -2
    call uturn_error_init(err)
    out = c_loc(x)
    st = uturn_executor_open_checked(o, out, err)
    call refused("options%io_buffers", st, err, "options%io_buffers")
    call ok("a refused executor is NULL", .not. c_associated(out))
    o%io_buffers = 0
    o%level_count = -1
    call uturn_error_init(err)
    st = uturn_executor_open_checked(o, out, err)
    call refused("options%level_count", st, err, "options%level_count")
  end subroutine

  ! uturn_validator_set_steps_checked and uturn_cursor_set_size_checked.
  subroutine online_cursor_values()
    type(c_ptr) :: cursor
    p = good
    p%steps = 0
    p%slots = 3
    st = uturn_validator_create_checked(p, c_null_ptr, validator, err)
    call ok("an online validator", st == UTURN_OK)
    call uturn_error_init(err)
    st = uturn_validator_set_steps_checked(validator, -5_c_int64_t, err)
    call refused("set_steps(-5)", st, err, "steps")
    call uturn_error_init(err)
    st = uturn_validator_set_steps_checked(validator, 0_c_int64_t, err)
    call refused("set_steps(0)", st, err, "steps must be at least 1")
    call uturn_validator_free(validator)

    call uturn_problem_init(p)
    p%planner = UTURN_PLANNER_ONLINE
    p%budget_bytes = 1000
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    st = uturn_cursor_create(plan, c_null_ptr, cursor)
    call uturn_error_init(err)
    st = uturn_cursor_set_size_checked(cursor, 0_c_int64_t, -8_c_int64_t, err)
    call refused("set_size(0, -8)", st, err, "bytes")
    call uturn_error_init(err)
    st = uturn_cursor_set_size_checked(cursor, 0_c_int64_t, 0_c_int64_t, err)
    call refused("set_size(0, 0)", st, err, "bytes must be at least 1")
    call uturn_error_init(err)
    st = uturn_cursor_set_size_checked(cursor, -1_c_int64_t, 8_c_int64_t, err)
    call refused("set_size(-1, 8)", st, err, "step")
    st = uturn_cursor_set_size_checked(cursor, 0_c_int64_t, 2000_c_int64_t, &
        err)
    call ok("set_size: x_0 past the budget is infeasible", &
        st == UTURN_E_INFEASIBLE)
    call uturn_cursor_free(cursor)
    call uturn_plan_free(plan)
  end subroutine

  ! A capacity or length past the Fortran array or string, or negative
  ! (2**64 - 1 in C: the library would write or read past the end), is
  ! refused; within it, the library writes and reads only that much.
  subroutine sizes_of_fortran_arrays()
    call cursor_read_sizes()
    call action_format_sizes()
    call plan_parse_sizes()
  end subroutine

  ! uturn_cursor_read_checked's capacity against the array.
  subroutine cursor_read_sizes()
    type(uturn_action_t) :: actions(6)
    type(c_ptr) :: cursor
    integer(c_size_t) :: count
    p = good
    p%steps = 10
    p%slots = 3
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    st = uturn_cursor_create(plan, c_null_ptr, cursor)
    actions%op = -7
    call uturn_error_init(err)
    st = uturn_cursor_read_checked(cursor, actions, count, -1_c_size_t, err)
    call refused("cursor_read(capacity -1)", st, err, "capacity")
    call uturn_error_init(err)
    st = uturn_cursor_read_checked(cursor, actions, count, 7_c_size_t, err)
    call refused("cursor_read(capacity 7 of 6)", st, err, &
        "capacity must be at most 6")
    call uturn_error_init(err)
    st = uturn_cursor_read_checked(cursor, actions, count, 0_c_size_t, err)
    call refused("cursor_read(capacity 0)", st, err, "capacity")
    call ok("refused reads wrote nothing", all(actions%op == -7) .and. &
        count == 0)
    st = uturn_cursor_read_checked(cursor, actions, count, 4_c_size_t, err)
    call ok("a read of 4 of 6 writes 4", st == UTURN_OK .and. count == 4 &
        .and. all(actions(5:6)%op == -7) .and. &
        actions(1)%op == UTURN_OP_STORE)
    st = uturn_cursor_read_checked(cursor, actions, count)
    call ok("a read of the whole array", st == UTURN_OK .and. count == 6)
    call uturn_cursor_free(cursor)
    call uturn_plan_free(plan)
  end subroutine

  ! uturn_action_format_checked's capacity against the string.
  subroutine action_format_sizes()
    integer(c_size_t) :: length
    character(kind=c_char, len=16) :: line
    character(kind=c_char, len=5) :: short
    action%op = UTURN_OP_ADVANCE
    action%step = 0
    action%step_end = 4
    action%slot = 0
    call uturn_error_init(err)
    st = uturn_action_format_checked(action, line, length, -1_c_size_t, err)
    call refused("action_format(capacity -1)", st, err, "capacity")
    call uturn_error_init(err)
    st = uturn_action_format_checked(action, line, length, 17_c_size_t, err)
    call refused("action_format(capacity 17 of 16)", st, err, &
        "capacity must be at most 16")
    st = uturn_action_format_checked(action, line, length)
    call ok("advance 0 4, blank-padded", st == UTURN_OK .and. &
        line == "advance 0 4" .and. length == 11)
    st = uturn_action_format_checked(action, short, length)
    call ok("a short buffer holds 4 characters and the NUL", &
        st == UTURN_OK .and. short == "adva" .and. length == 11)
    action%step = -3
    call uturn_error_init(err)
    st = uturn_action_format_checked(action, line, length, error=err)
    call refused("action_format(step -3)", st, err, "action%step")
  end subroutine

  ! uturn_plan_parse_checked's length against the text.
  subroutine plan_parse_sizes()
    character(kind=c_char, len=:), allocatable :: text
    character(len=1), parameter :: nl = new_line("a")
    type(uturn_stats_t) :: parsed_stats
    text = "uturn-plan 1" // nl // "steps 1" // nl // "slots 1" // nl // &
        "store 0 0" // nl // "advance 0 1" // nl // "turn" // nl // &
        "restore 0 0" // nl // "reverse 0" // nl // "free 0" // nl
    call uturn_error_init(err)
    st = uturn_plan_parse_checked(text, c_null_ptr, plan, err, -1_c_size_t)
    call refused("plan_parse(length -1)", st, err, "length")
    call ok("a refused parse is NULL", .not. c_associated(plan))
    call uturn_error_init(err)
    st = uturn_plan_parse_checked(text, c_null_ptr, plan, err, &
        len(text, kind=c_size_t) + 1)
    call refused("plan_parse(length past the text)", st, err, &
        "length must be at most")
    st = uturn_plan_parse_checked(text // "garbage", c_null_ptr, plan, err, &
        len(text, kind=c_size_t))
    call ok("a length within the text parses that much: " // &
        uturn_error_message(err), st == UTURN_OK)
    call uturn_stats_init(parsed_stats)
    if (st == UTURN_OK) st = uturn_plan_stats(plan, parsed_stats)
    call ok("the parsed plan", parsed_stats%steps == 1 .and. &
        parsed_stats%forward_steps == 1 .and. parsed_stats%stores == 1)
    call uturn_plan_free(plan)
    st = uturn_plan_parse_checked(text // "garbage", c_null_ptr, plan, err)
    call ok("the whole string by default: garbage is a parse error", &
        st == UTURN_E_PARSE)
  end subroutine
end program fortran_binding
