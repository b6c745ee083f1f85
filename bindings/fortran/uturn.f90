! uturn for Fortran: iso_c_binding interfaces to libuturn (Fortran 2018).
!
! The derived types mirror the structs of <uturn.h> field for field, and the
! interfaces carry the C names, so the header's documentation applies as it
! stands. Compile this file with your program and link -luturn:
!
!   gfortran -std=f2018 -c uturn.f90
!   gfortran -std=f2018 prog.f90 uturn.o -luturn
!
! Mapping: uint64_t is integer(c_int64_t) (every count uturn returns fits),
! enums are integer(c_int), bool is logical(c_bool), handles and `user` are
! type(c_ptr), callbacks are type(c_funptr) from c_funloc() of a bind(c)
! procedure matching one of the abstract interfaces below. Pass c_null_ptr
! for an allocator (malloc/free). `error`, `options`, `observed` and `report`
! arguments are optional (absent means NULL). A returned `const char *` is a
! type(c_ptr); uturn_string() turns it into a Fortran string.
! uturn_plan_write() (which takes a FILE *) is not bound.
!
! Negative counts: Fortran has no unsigned integers, so a negative value in
! an integer(c_int64_t) that C reads as a uint64_t reaches the library as
! 2**64 plus that value (slots = -1 is a capacity of 2**64-1 slots). The
! raw interfaces pass every field as it is; the fields a program sets
! (problem: steps, slots, slot_bytes, budget_bytes, stride, unit_bytes;
! model: state_bytes; run options: budget_bytes, progress_every; action:
! step, step_end, slot) must be 0 or more. The checked routines refuse a
! negative field with UTURN_E_INVALID_ARG and a message naming it (in
! `error` when present) before any call into the library:
!
!   uturn_check(x, error)      x a problem, model, run options or action
!   uturn_plan_create_checked, uturn_executor_plan_checked,
!   uturn_validator_create_checked, uturn_validator_push_checked,
!   uturn_executor_run_checked, uturn_executor_slot_bytes_checked
!                              the C call of the same name after the check
!                              (slot_bytes also refuses a state_bytes of 0)
module uturn
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_size_t, &
      c_double, c_bool, c_char, c_ptr, c_funptr, c_null_char, c_null_ptr, &
      c_associated, c_f_pointer
  implicit none
  private :: c_int, c_int64_t, c_size_t, c_double, c_bool, c_char, c_ptr, &
      c_funptr, c_null_char, c_null_ptr, c_associated, c_f_pointer
  private :: refuse, check_count

  ! uturn_status_t
  integer(c_int), parameter :: UTURN_OK = 0, UTURN_E_INVALID_ARG = 1, &
      UTURN_E_NOMEM = 2, UTURN_E_INFEASIBLE = 3, UTURN_E_OVERFLOW = 4, &
      UTURN_E_UNSUPPORTED = 5, UTURN_E_CALLBACK = 6, &
      UTURN_E_INVALID_PLAN = 7, UTURN_E_PARSE = 8, UTURN_E_IO = 9, &
      UTURN_E_NONDETERMINISTIC = 10
  ! uturn_planner_t
  integer(c_int), parameter :: UTURN_PLANNER_STORE_ALL = 0, &
      UTURN_PLANNER_PERIODIC = 1, UTURN_PLANNER_SQRT = 2, &
      UTURN_PLANNER_REVOLVE = 3, UTURN_PLANNER_DP = 4, &
      UTURN_PLANNER_PARSED = 100
  ! uturn_op_t
  integer(c_int), parameter :: UTURN_OP_ADVANCE = 1, UTURN_OP_STORE = 2, &
      UTURN_OP_RESTORE = 3, UTURN_OP_FREE = 4, UTURN_OP_TURN = 5, &
      UTURN_OP_REVERSE = 6
  ! UTURN_NONE (UINT64_MAX) as the signed integer with the same bits
  integer(c_int64_t), parameter :: UTURN_NONE = -1_c_int64_t

  type, bind(c) :: uturn_error_t
    integer(c_size_t) :: size
    integer(c_int) :: status
    integer(c_int64_t) :: action, line, step, minimum_slots, minimum_bytes
    character(kind=c_char) :: message(256)
  end type

  type, bind(c) :: uturn_problem_t
    integer(c_size_t) :: size
    integer(c_int) :: planner
    integer(c_int64_t) :: steps, slots, slot_bytes, budget_bytes, stride
    type(c_ptr) :: step_bytes, step_costs ! per-step sizes and costs, or c_null_ptr
    integer(c_int64_t) :: unit_bytes
  end type

  type, bind(c) :: uturn_stats_t
    integer(c_size_t) :: size
    integer(c_int64_t) :: steps, forward_steps, recomputed_steps, &
        reverse_steps, stores, restores, frees, peak_slots, peak_bytes, &
        actions, slots, slot_bytes, budget_bytes, forward_cost, &
        recompute_cost
    real(c_double) :: recompute_factor
  end type

  type, bind(c) :: uturn_action_t
    integer(c_int) :: op
    integer(c_int64_t) :: step, step_end, slot
  end type

  type, bind(c) :: uturn_model_t
    integer(c_size_t) :: size
    type(c_ptr) :: user
    type(c_funptr) :: forward, turn, adjoint
    type(c_ptr) :: state
    integer(c_int64_t) :: state_bytes
    type(c_funptr) :: save, load, state_size
  end type

  type, bind(c) :: uturn_run_options_t
    integer(c_size_t) :: size
    integer(c_int64_t) :: budget_bytes
    logical(c_bool) :: verify
    type(c_funptr) :: progress
    type(c_ptr) :: progress_user
    integer(c_int64_t) :: progress_every
  end type

  type, bind(c) :: uturn_report_t
    integer(c_size_t) :: size
    integer(c_int) :: status
    integer(c_int64_t) :: actions_done, failed_action, failed_step, &
        slot_bytes, planned_peak_bytes, measured_peak_bytes, verify_bytes
    real(c_double) :: wall_seconds, forward_seconds, adjoint_seconds, &
        copy_seconds, overhead_seconds
    logical(c_bool) :: jemalloc
  end type

  ! The callbacks of uturn_model_t and uturn_run_options_t.
  abstract interface
    function uturn_step_fn(user, step) bind(c) result(rc)   ! forward, adjoint
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: user
      integer(c_int64_t), value :: step
      integer(c_int) :: rc
    end function
    function uturn_turn_fn(user) bind(c) result(rc)
      import :: c_ptr, c_int
      type(c_ptr), value :: user
      integer(c_int) :: rc
    end function
    function uturn_copy_fn(user, step, buffer, bytes) bind(c) result(rc)
      import :: c_ptr, c_int64_t, c_int                     ! save, load
      type(c_ptr), value :: user, buffer
      integer(c_int64_t), value :: step, bytes
      integer(c_int) :: rc
    end function
    function uturn_state_size_fn(user, step) bind(c) result(bytes)
      import :: c_ptr, c_int64_t
      type(c_ptr), value :: user
      integer(c_int64_t), value :: step
      integer(c_int64_t) :: bytes
    end function
    function uturn_progress_fn(user, reversed, steps) bind(c) result(rc)
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: user
      integer(c_int64_t), value :: reversed, steps
      integer(c_int) :: rc
    end function
  end interface

  interface
    ! Statuses, errors, version ------------------------------------------
    function uturn_strerror(status) bind(c, name="uturn_strerror")
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: uturn_strerror
    end function
    function uturn_status_name(status) bind(c, name="uturn_status_name")
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: uturn_status_name
    end function
    subroutine uturn_error_init(error) bind(c, name="uturn_error_init")
      import :: uturn_error_t
      type(uturn_error_t), intent(inout) :: error
    end subroutine
    function uturn_version_number() bind(c, name="uturn_version_number")
      import :: c_int
      integer(c_int) :: uturn_version_number    ! unsigned in C
    end function
    function uturn_version_string() bind(c, name="uturn_version_string")
      import :: c_ptr
      type(c_ptr) :: uturn_version_string
    end function

    ! Problems, planners, stats, actions ------------------------------------
    function uturn_planner_name(planner) bind(c, name="uturn_planner_name")
      import :: c_int, c_ptr
      integer(c_int), value :: planner
      type(c_ptr) :: uturn_planner_name
    end function
    function uturn_planner_from_name(name, out) &
        bind(c, name="uturn_planner_from_name") result(status)
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: name(*)  ! NUL-terminated
      integer(c_int), intent(out) :: out
      integer(c_int) :: status
    end function
    subroutine uturn_problem_init(problem) bind(c, name="uturn_problem_init")
      import :: uturn_problem_t
      type(uturn_problem_t), intent(inout) :: problem
    end subroutine
    subroutine uturn_stats_init(stats) bind(c, name="uturn_stats_init")
      import :: uturn_stats_t
      type(uturn_stats_t), intent(inout) :: stats
    end subroutine
    function uturn_op_name(op) bind(c, name="uturn_op_name")
      import :: c_int, c_ptr
      integer(c_int), value :: op
      type(c_ptr) :: uturn_op_name
    end function
    function uturn_action_format(action, buffer, capacity, length) &
        bind(c, name="uturn_action_format") result(status)
      import :: uturn_action_t, c_char, c_size_t, c_int
      type(uturn_action_t), intent(in) :: action
      character(kind=c_char), intent(out) :: buffer(*)
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(out), optional :: length
      integer(c_int) :: status
    end function

    ! Plans and cursors -------------------------------------------------------
    function uturn_plan_create(problem, alloc, out, error) &
        bind(c, name="uturn_plan_create") result(status)
      import :: uturn_problem_t, uturn_error_t, c_ptr, c_int
      type(uturn_problem_t), intent(in) :: problem
      type(c_ptr), value :: alloc
      type(c_ptr), intent(out) :: out
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    function uturn_plan_parse(text, length, alloc, out, error) &
        bind(c, name="uturn_plan_parse") result(status)
      import :: uturn_error_t, c_char, c_size_t, c_ptr, c_int
      character(kind=c_char), intent(in) :: text(*)
      integer(c_size_t), value :: length
      type(c_ptr), value :: alloc
      type(c_ptr), intent(out) :: out
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    subroutine uturn_plan_free(plan) bind(c, name="uturn_plan_free")
      import :: c_ptr
      type(c_ptr), value :: plan
    end subroutine
    function uturn_plan_stats(plan, out) bind(c, name="uturn_plan_stats") &
        result(status)
      import :: uturn_stats_t, c_ptr, c_int
      type(c_ptr), value :: plan
      type(uturn_stats_t), intent(inout) :: out
      integer(c_int) :: status
    end function
    function uturn_plan_problem(plan, out) &
        bind(c, name="uturn_plan_problem") result(status)
      import :: uturn_problem_t, c_ptr, c_int
      type(c_ptr), value :: plan
      type(uturn_problem_t), intent(inout) :: out
      integer(c_int) :: status
    end function
    function uturn_plan_walk(plan, observed, error) &
        bind(c, name="uturn_plan_walk") result(status)
      import :: uturn_stats_t, uturn_error_t, c_ptr, c_int
      type(c_ptr), value :: plan
      type(uturn_stats_t), intent(inout), optional :: observed
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    function uturn_cursor_create(plan, alloc, out) &
        bind(c, name="uturn_cursor_create") result(status)
      import :: c_ptr, c_int
      type(c_ptr), value :: plan, alloc
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function uturn_cursor_next(cursor, action) &
        bind(c, name="uturn_cursor_next") result(more)
      import :: uturn_action_t, c_ptr, c_bool
      type(c_ptr), value :: cursor
      type(uturn_action_t), intent(inout) :: action
      logical(c_bool) :: more
    end function
    function uturn_cursor_read(cursor, actions, capacity, count) &
        bind(c, name="uturn_cursor_read") result(status)
      import :: uturn_action_t, c_ptr, c_size_t, c_int
      type(c_ptr), value :: cursor
      type(uturn_action_t), intent(inout) :: actions(*)
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(out) :: count
      integer(c_int) :: status
    end function
    subroutine uturn_cursor_free(cursor) bind(c, name="uturn_cursor_free")
      import :: c_ptr
      type(c_ptr), value :: cursor
    end subroutine

    ! Validation -----------------------------------------------------------
    function uturn_validator_create(problem, alloc, out, error) &
        bind(c, name="uturn_validator_create") result(status)
      import :: uturn_problem_t, uturn_error_t, c_ptr, c_int
      type(uturn_problem_t), intent(in) :: problem
      type(c_ptr), value :: alloc
      type(c_ptr), intent(out) :: out
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    function uturn_validator_push(validator, action, error) &
        bind(c, name="uturn_validator_push") result(status)
      import :: uturn_action_t, uturn_error_t, c_ptr, c_int
      type(c_ptr), value :: validator
      type(uturn_action_t), intent(in) :: action
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    function uturn_validator_finish(validator, observed, error) &
        bind(c, name="uturn_validator_finish") result(status)
      import :: uturn_stats_t, uturn_error_t, c_ptr, c_int
      type(c_ptr), value :: validator
      type(uturn_stats_t), intent(inout), optional :: observed
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    subroutine uturn_validator_free(validator) &
        bind(c, name="uturn_validator_free")
      import :: c_ptr
      type(c_ptr), value :: validator
    end subroutine

    ! The executor ---------------------------------------------------------
    subroutine uturn_model_init(model) bind(c, name="uturn_model_init")
      import :: uturn_model_t
      type(uturn_model_t), intent(inout) :: model
    end subroutine
    subroutine uturn_run_options_init(options) &
        bind(c, name="uturn_run_options_init")
      import :: uturn_run_options_t
      type(uturn_run_options_t), intent(inout) :: options
    end subroutine
    subroutine uturn_report_init(report) bind(c, name="uturn_report_init")
      import :: uturn_report_t
      type(uturn_report_t), intent(inout) :: report
    end subroutine
    function uturn_executor_create(alloc, out, error) &
        bind(c, name="uturn_executor_create") result(status)
      import :: uturn_error_t, c_ptr, c_int
      type(c_ptr), value :: alloc
      type(c_ptr), intent(out) :: out
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    subroutine uturn_executor_free(executor) &
        bind(c, name="uturn_executor_free")
      import :: c_ptr
      type(c_ptr), value :: executor
    end subroutine
    function uturn_executor_slot_bytes(executor, state_bytes, out) &
        bind(c, name="uturn_executor_slot_bytes") result(status)
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: executor
      integer(c_int64_t), value :: state_bytes
      integer(c_int64_t), intent(out) :: out
      integer(c_int) :: status
    end function
    function uturn_executor_plan(executor, problem, out, error) &
        bind(c, name="uturn_executor_plan") result(status)
      import :: uturn_problem_t, uturn_error_t, c_ptr, c_int
      type(c_ptr), value :: executor
      type(uturn_problem_t), intent(in) :: problem
      type(c_ptr), intent(out) :: out
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    function uturn_executor_run(executor, plan, model, options, observed, &
        report, error) bind(c, name="uturn_executor_run") result(status)
      import :: uturn_model_t, uturn_run_options_t, uturn_stats_t, &
          uturn_report_t, uturn_error_t, c_ptr, c_int
      type(c_ptr), value :: executor, plan
      type(uturn_model_t), intent(in) :: model
      type(uturn_run_options_t), intent(in), optional :: options
      type(uturn_stats_t), intent(inout), optional :: observed
      type(uturn_report_t), intent(inout), optional :: report
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
  end interface

  ! uturn_check(x, error): UTURN_OK, or UTURN_E_INVALID_ARG naming the
  ! first negative field of x (see the header of this file).
  interface uturn_check
    module procedure uturn_check_problem, uturn_check_model, &
        uturn_check_run_options, uturn_check_action
  end interface

contains

  ! A NUL-terminated C string (e.g. from uturn_strerror()) as a Fortran
  ! string; "" for a NULL pointer.
  function uturn_string(s) result(str)
    type(c_ptr), intent(in) :: s
    character(len=:), allocatable :: str
    character(kind=c_char, len=1), pointer :: chars(:)
    integer :: i, n
    if (.not. c_associated(s)) then
      str = ""
      return
    end if
    call c_f_pointer(s, chars, [huge(0)])   ! read up to the NUL only
    n = 0
    do while (chars(n + 1) /= c_null_char)
      n = n + 1
    end do
    allocate(character(len=n) :: str)
    do i = 1, n
      str(i:i) = chars(i)
    end do
  end function

  ! The message of an uturn_error_t as a Fortran string.
  function uturn_error_message(error) result(str)
    type(uturn_error_t), intent(in) :: error
    character(len=:), allocatable :: str
    integer :: i, n
    n = 0
    do while (n < size(error%message))
      if (error%message(n + 1) == c_null_char) exit
      n = n + 1
    end do
    allocate(character(len=n) :: str)
    do i = 1, n
      str(i:i) = error%message(i)
    end do
  end function

  ! The version of the library linked, e.g. "0.1.0".
  function uturn_version() result(str)
    character(len=:), allocatable :: str
    str = uturn_string(uturn_version_string())
  end function

  ! Checks ---------------------------------------------------------------

  ! UTURN_E_INVALID_ARG, with "NAME must be at least LEAST (LEAST ..
  ! huge), not VALUE" in error when it is present.
  function refuse(name, value, least, error) result(status)
    character(len=*), intent(in) :: name
    integer(c_int64_t), intent(in) :: value, least
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    character(len=255) :: text
    integer :: i, n
    status = UTURN_E_INVALID_ARG
    if (.not. present(error)) return
    if (least == 0) then
      write (text, '(a, " must not be negative (0 .. ", i0, "), not ", i0)') &
          name, huge(value), value
    else
      write (text, '(a, " must be at least ", i0, " (", i0, " .. ", i0, &
          &"), not ", i0)') name, least, least, huge(value), value
    end if
    call uturn_error_init(error)
    error%status = status
    n = len_trim(text)
    do i = 1, n
      error%message(i) = text(i:i)
    end do
    error%message(n + 1) = c_null_char
  end function

  ! Refuse value when it is below least, unless status already failed.
  subroutine check_count(status, name, value, least, error)
    integer(c_int), intent(inout) :: status
    character(len=*), intent(in) :: name
    integer(c_int64_t), intent(in) :: value, least
    type(uturn_error_t), intent(inout), optional :: error
    if (status == UTURN_OK .and. value < least) &
        status = refuse(name, value, least, error)
  end subroutine

  function uturn_check_problem(problem, error) result(status)
    type(uturn_problem_t), intent(in) :: problem
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = UTURN_OK
    call check_count(status, "problem%steps", problem%steps, 0_c_int64_t, &
        error)
    call check_count(status, "problem%slots", problem%slots, 0_c_int64_t, &
        error)
    call check_count(status, "problem%slot_bytes", problem%slot_bytes, &
        0_c_int64_t, error)
    call check_count(status, "problem%budget_bytes", problem%budget_bytes, &
        0_c_int64_t, error)
    call check_count(status, "problem%stride", problem%stride, &
        0_c_int64_t, error)
    call check_count(status, "problem%unit_bytes", problem%unit_bytes, &
        0_c_int64_t, error)
  end function

  function uturn_check_model(model, error) result(status)
    type(uturn_model_t), intent(in) :: model
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = UTURN_OK
    call check_count(status, "model%state_bytes", model%state_bytes, &
        0_c_int64_t, error)
  end function

  function uturn_check_run_options(options, error) result(status)
    type(uturn_run_options_t), intent(in) :: options
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = UTURN_OK
    call check_count(status, "options%budget_bytes", options%budget_bytes, &
        0_c_int64_t, error)
    call check_count(status, "options%progress_every", &
        options%progress_every, 0_c_int64_t, error)
  end function

  function uturn_check_action(action, error) result(status)
    type(uturn_action_t), intent(in) :: action
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = UTURN_OK
    call check_count(status, "action%step", action%step, 0_c_int64_t, error)
    call check_count(status, "action%step_end", action%step_end, &
        0_c_int64_t, error)
    call check_count(status, "action%slot", action%slot, 0_c_int64_t, error)
  end function

  ! Checked calls: the C function of the same name, after uturn_check() --

  function uturn_plan_create_checked(problem, alloc, out, error) &
      result(status)
    type(uturn_problem_t), intent(in) :: problem
    type(c_ptr), intent(in) :: alloc
    type(c_ptr), intent(out) :: out
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    out = c_null_ptr
    status = uturn_check(problem, error)
    if (status == UTURN_OK) &
        status = uturn_plan_create(problem, alloc, out, error)
  end function

  function uturn_executor_plan_checked(executor, problem, out, error) &
      result(status)
    type(c_ptr), intent(in) :: executor
    type(uturn_problem_t), intent(in) :: problem
    type(c_ptr), intent(out) :: out
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    out = c_null_ptr
    status = uturn_check(problem, error)
    if (status == UTURN_OK) &
        status = uturn_executor_plan(executor, problem, out, error)
  end function

  function uturn_validator_create_checked(problem, alloc, out, error) &
      result(status)
    type(uturn_problem_t), intent(in) :: problem
    type(c_ptr), intent(in) :: alloc
    type(c_ptr), intent(out) :: out
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    out = c_null_ptr
    status = uturn_check(problem, error)
    if (status == UTURN_OK) &
        status = uturn_validator_create(problem, alloc, out, error)
  end function

  function uturn_validator_push_checked(validator, action, error) &
      result(status)
    type(c_ptr), intent(in) :: validator
    type(uturn_action_t), intent(in) :: action
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = uturn_check(action, error)
    if (status == UTURN_OK) &
        status = uturn_validator_push(validator, action, error)
  end function

  ! No callback runs when a field is refused.
  function uturn_executor_run_checked(executor, plan, model, options, &
      observed, report, error) result(status)
    type(c_ptr), intent(in) :: executor, plan
    type(uturn_model_t), intent(in) :: model
    type(uturn_run_options_t), intent(in), optional :: options
    type(uturn_stats_t), intent(inout), optional :: observed
    type(uturn_report_t), intent(inout), optional :: report
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = uturn_check(model, error)
    if (status == UTURN_OK .and. present(options)) &
        status = uturn_check(options, error)
    if (status == UTURN_OK) status = uturn_executor_run(executor, plan, &
        model, options, observed, report, error)
  end function

  ! state_bytes must be at least 1 (the C call returns a bare
  ! UTURN_E_INVALID_ARG for 0; this one says why).
  function uturn_executor_slot_bytes_checked(executor, state_bytes, out, &
      error) result(status)
    type(c_ptr), intent(in) :: executor
    integer(c_int64_t), intent(in) :: state_bytes
    integer(c_int64_t), intent(out) :: out
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    out = 0
    status = UTURN_OK
    call check_count(status, "state_bytes", state_bytes, 1_c_int64_t, error)
    if (status == UTURN_OK) &
        status = uturn_executor_slot_bytes(executor, state_bytes, out)
  end function

end module uturn
