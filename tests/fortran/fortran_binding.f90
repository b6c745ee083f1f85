! The Fortran module's checked routines refuse negative counts, which C
! would read as uint64_t values near 2**64 (ctest fortran_binding).
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
        index(text, "at least") == 0) then
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
  call uturn_executor_free(ex)

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

  if (failures /= 0) then
    print '(i0, " FAILED")', failures
    error stop 1
  end if
  print '(a)', "ok: negative counts are refused by name"
end program fortran_binding
