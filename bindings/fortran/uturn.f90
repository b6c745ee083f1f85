! uturn for Fortran: iso_c_binding interfaces to libuturn (Fortran 2018).
!
! The derived types mirror the structs of <uturn.h> field for field (the
! layouts of 0.2; ctest fortran_binding compares every offset and size
! with the C compiler's), and the interfaces carry the C names, so the
! header's documentation applies as it stands. Compile this file with your
! program and link -luturn:
!
!   gfortran -std=f2018 -c uturn.f90
!   gfortran -std=f2018 prog.f90 uturn.o -luturn
!
! Mapping: uint64_t is integer(c_int64_t) (every count uturn returns fits),
! size_t is integer(c_size_t), enums are integer(c_int), bool is
! logical(c_bool), handles, `user` and the pointer fields (problem%levels,
! level%name, storage%directory, ...) are type(c_ptr): c_loc() of a
! variable with the TARGET attribute (a name or directory is a
! NUL-terminated character(kind=c_char) variable, e.g. "disk" //
! c_null_char). Callbacks are type(c_funptr) from c_funloc() of a bind(c)
! procedure matching one of the abstract interfaces below. Pass c_null_ptr
! for an allocator (malloc/free). `error`, `options`, `observed` and
! `report` arguments are optional (absent means NULL). A returned
! `const char *` is a type(c_ptr); uturn_string() turns it into a Fortran
! string. uturn_plan_write() (which takes a FILE *) and the streaming
! reader are not bound.
!
! Structs that grow: prepare every struct with its uturn_<noun>_init(x),
! a subroutine of this module that calls the C uturn_<noun>_init_size(x,
! c_sizeof(x)), so that the library reads and writes exactly this module's
! mirror, as C's uturn_<noun>_init() macros do. uturn_storage_callbacks_t
! has no C init: uturn_storage_callbacks_init(cb) zeroes it and records
! its size.
!
! Negative counts: Fortran has no unsigned integers, so a negative value in
! an integer(c_int64_t) that C reads as a uint64_t (or an integer(c_size_t)
! that C reads as a size_t) reaches the library as 2**64 plus that value
! (slots = -1 is a capacity of 2**64-1 slots; a capacity of -1 to
! uturn_cursor_read() lets it write past the end of your array). The raw
! interfaces pass every value as it is; the values a program sets
! (problem: steps, slots, slot_bytes, budget_bytes, stride, unit_bytes,
! level_count, max_steps, sweeps (but UTURN_SWEEPS_UNBOUNDED), and each
! level's slots, bytes, write_cost, read_cost; model: state_bytes, record_bytes; run options:
! budget_bytes, progress_every, on_progress_every; executor options:
! level_count, io_buffers; action: step, step_end, slot) must be 0 or
! more. The checked routines refuse a negative value with
! UTURN_E_INVALID_ARG and a message naming it (in `error` when present)
! before any call into the library:
!
!   uturn_check(x, error)      x a problem (its levels too), model, run
!                              options, executor options or action
!   uturn_plan_create_checked, uturn_executor_plan_checked,
!   uturn_validator_create_checked, uturn_validator_push_checked,
!   uturn_validator_set_steps_checked, uturn_executor_run_checked,
!   uturn_executor_open_checked, uturn_executor_level_slots_checked,
!   uturn_executor_slot_bytes_checked, uturn_executor_slot_cost_checked,
!   uturn_cursor_set_size_checked
!                              the C call of the same name after the check
!                              (slot_bytes, slot_cost and set_size also
!                              refuse a size of 0)
!   uturn_cursor_read_checked, uturn_action_format_checked,
!   uturn_plan_parse_checked   the capacity or length is that of the
!                              Fortran array or string passed, or a
!                              `capacity`/`length` given that fits in it:
!                              a negative one, or one past the array or
!                              string, is refused
!
! A level index (uturn_plan_level_stats, uturn_executor_level_report,
! uturn_validator_level_stats) needs no check: a negative one is a level
! past the last, which the library refuses; nor does uturn_plan_online_cost's
! steps (a negative one is past the plan's end, refused too).
module uturn
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_size_t, &
      c_double, c_bool, c_char, c_ptr, c_funptr, c_null_char, c_null_ptr, &
      c_null_funptr, c_associated, c_f_pointer, c_sizeof
  implicit none
  private :: c_int, c_int64_t, c_size_t, c_double, c_bool, c_char, c_ptr, &
      c_funptr, c_null_char, c_null_ptr, c_null_funptr, c_associated, &
      c_f_pointer, c_sizeof
  private :: refuse, check_count, check_size, max_levels

  ! uturn_status_t
  integer(c_int), parameter :: UTURN_OK = 0, UTURN_E_INVALID_ARG = 1, &
      UTURN_E_NOMEM = 2, UTURN_E_INFEASIBLE = 3, UTURN_E_OVERFLOW = 4, &
      UTURN_E_UNSUPPORTED = 5, UTURN_E_CALLBACK = 6, &
      UTURN_E_INVALID_PLAN = 7, UTURN_E_PARSE = 8, UTURN_E_IO = 9, &
      UTURN_E_NONDETERMINISTIC = 10, UTURN_E_STOPPED = 11
  ! durable runs (since 0.3): run_options%durable_request values, and
  ! run_options%durable_mode
  integer(c_int), parameter :: UTURN_DURABLE_POINT = 1, &
      UTURN_DURABLE_STOP = 2, UTURN_DURABLE_NEW = 0, &
      UTURN_DURABLE_RESUME = 1, UTURN_DURABLE_AUTO = 2
  ! uturn_planner_t
  integer(c_int), parameter :: UTURN_PLANNER_STORE_ALL = 0, &
      UTURN_PLANNER_PERIODIC = 1, UTURN_PLANNER_SQRT = 2, &
      UTURN_PLANNER_REVOLVE = 3, UTURN_PLANNER_DP = 4, &
      UTURN_PLANNER_ONLINE = 5, UTURN_PLANNER_HREVOLVE = 6, &
      UTURN_PLANNER_PARSED = 100
  ! uturn_dp_mode_t
  integer(c_int), parameter :: UTURN_DP_AUTO = 0, UTURN_DP_EXACT = 1, &
      UTURN_DP_APPROXIMATE = 2
  ! uturn_op_t
  integer(c_int), parameter :: UTURN_OP_ADVANCE = 1, UTURN_OP_STORE = 2, &
      UTURN_OP_RESTORE = 3, UTURN_OP_FREE = 4, UTURN_OP_TURN = 5, &
      UTURN_OP_REVERSE = 6, UTURN_OP_PERSIST = 7
  ! uturn_storage_kind_t
  integer(c_int), parameter :: UTURN_STORAGE_MEMORY = 0, &
      UTURN_STORAGE_FILE = 1, UTURN_STORAGE_USER = 2
  ! UTURN_NONE (UINT64_MAX) as the signed integer with the same bits
  integer(c_int64_t), parameter :: UTURN_NONE = -1_c_int64_t
  ! problem%sweeps: an open number of sweeps (UINT64_MAX in C)
  integer(c_int64_t), parameter :: UTURN_SWEEPS_UNBOUNDED = -1_c_int64_t
  ! UTURN_ONLINE_MAX_SLOTS (2^30), UTURN_ONLINE_MAX_SLOTS_BYTES,
  ! UTURN_DP_TABLE_BYTES,
  ! UTURN_HREVOLVE_TABLE_BYTES, UTURN_HREVOLVE_WORK
  integer(c_int64_t), parameter :: UTURN_ONLINE_MAX_SLOTS = 1073741824_c_int64_t, &
      UTURN_ONLINE_MAX_SLOTS_BYTES = 256, &
      UTURN_DP_TABLE_BYTES = 1024_c_int64_t**3, &
      UTURN_HREVOLVE_TABLE_BYTES = 1024_c_int64_t**3, &
      UTURN_HREVOLVE_WORK = 100000000000_c_int64_t
  ! The library refuses more storage levels than this; uturn_check()
  ! follows problem%levels only up to it.
  integer(c_int64_t), parameter :: max_levels = 16

  type, bind(c) :: uturn_error_t
    integer(c_size_t) :: size
    integer(c_int) :: status
    integer(c_int64_t) :: action, line, step, minimum_slots, minimum_bytes
    character(kind=c_char) :: message(256)
  end type

  type, bind(c) :: uturn_allocator_t
    type(c_funptr) :: alloc     ! uturn_alloc_fn
    type(c_funptr) :: free      ! uturn_free_fn
    type(c_ptr) :: user
  end type

  type, bind(c) :: uturn_problem_t
    integer(c_size_t) :: size
    integer(c_int) :: planner
    integer(c_int64_t) :: steps, slots, slot_bytes, budget_bytes, stride
    type(c_ptr) :: step_bytes, step_costs ! per-step sizes and costs, or c_null_ptr
    integer(c_int64_t) :: unit_bytes
    type(c_ptr) :: levels     ! c_loc of a uturn_level_t array, or c_null_ptr
    integer(c_int64_t) :: level_count
    integer(c_int64_t) :: max_steps  ! online: a bound on n, or 0
    integer(c_int64_t) :: threads      ! dp: threads filling its tables
    integer(c_int64_t) :: table_bytes  ! dp: the most its tables may hold
    integer(c_int) :: dp_mode          ! dp: UTURN_DP_AUTO, _EXACT, _APPROXIMATE
    type(c_funptr) :: progress         ! since 0.3: planning progress
    type(c_ptr) :: progress_user
    integer(c_int64_t) :: sweeps       ! since 0.3: reverse sweeps (0, 1: one)
  end type

  type, bind(c) :: uturn_level_t
    integer(c_size_t) :: size
    type(c_ptr) :: name       ! NUL-terminated, copied; or c_null_ptr
    integer(c_int64_t) :: slots, bytes, write_cost, read_cost
  end type

  type, bind(c) :: uturn_level_stats_t
    integer(c_size_t) :: size
    type(c_ptr) :: name       ! owned by the plan: uturn_string(stats%name)
    integer(c_int64_t) :: slots, write_cost, read_cost, stores, restores, &
        peak_slots, peak_bytes
  end type

  type, bind(c) :: uturn_stats_t
    integer(c_size_t) :: size
    integer(c_int64_t) :: steps, forward_steps, recomputed_steps, &
        reverse_steps, stores, restores, frees, peak_slots, peak_bytes, &
        actions, slots, slot_bytes, budget_bytes, forward_cost, &
        recompute_cost
    real(c_double) :: recompute_factor
    integer(c_int64_t) :: fingerprint, cost, levels
    logical(c_bool) :: online
    logical(c_bool) :: exact              ! dp: the exact optimum
    integer(c_int64_t) :: unit_bytes      ! dp: bytes per memory unit
    integer(c_int64_t) :: lower_bound_cost ! dp: no nested plan costs less
    real(c_double) :: planning_seconds    ! dp: wall time spent planning
    integer(c_int64_t) :: sweeps          ! since 0.3: reverse sweeps
    integer(c_int64_t) :: persistent      ! read by a later sweep
    integer(c_int64_t) :: sweep_forward_steps ! each further sweep's
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
    type(c_funptr) :: is_last         ! uturn_is_last_fn, online plans
    integer(c_int64_t) :: record_bytes
    type(c_funptr) :: forward_record  ! uturn_record_fn
    type(c_funptr) :: agree           ! for multi-process layers; leave null
    ! since 0.3, durable runs: the adjoint's own state, its bytes and the
    ! callbacks that save and load it (leave 0/null otherwise)
    integer(c_int64_t) :: adjoint_bytes
    type(c_funptr) :: save_adjoint, load_adjoint
  end type

  type, bind(c) :: uturn_progress_t
    integer(c_size_t) :: size
    integer(c_int64_t) :: done, total, forward_steps, reverse_steps, steps
    real(c_double) :: seconds
  end type

  type, bind(c) :: uturn_run_options_t
    integer(c_size_t) :: size
    integer(c_int64_t) :: budget_bytes
    logical(c_bool) :: verify
    type(c_funptr) :: progress
    type(c_ptr) :: progress_user
    integer(c_int64_t) :: progress_every
    type(c_funptr) :: on_progress     ! uturn_on_progress_fn
    type(c_ptr) :: on_progress_user
    integer(c_int64_t) :: on_progress_every
    type(c_ptr) :: step_bytes
    logical(c_bool) :: sweeps_on_request ! since 0.3: further sweeps on request
    ! since 0.3, durable runs: durable_dir is c_loc of a NUL-terminated
    ! directory name, durable_request c_loc of an integer(c_int) set to
    ! UTURN_DURABLE_POINT or _STOP, durable_mode UTURN_DURABLE_NEW, _RESUME
    ! or _AUTO (leave null/0 for a run that is not durable)
    type(c_ptr) :: durable_dir, durable_tag
    real(c_double) :: durable_interval
    type(c_ptr) :: durable_request
    integer(c_int) :: durable_mode
    ! for layers across processes (the MPI layer): leave null/0
    type(c_funptr) :: durable_agree, durable_commit
    type(c_ptr) :: durable_user
    integer(c_int64_t) :: durable_resume_point
  end type

  type, bind(c) :: uturn_report_t
    integer(c_size_t) :: size
    integer(c_int) :: status
    integer(c_int64_t) :: actions_done, failed_action, failed_step, &
        slot_bytes, planned_peak_bytes, measured_peak_bytes, verify_bytes
    real(c_double) :: wall_seconds, forward_seconds, adjoint_seconds, &
        copy_seconds, overhead_seconds
    logical(c_bool) :: jemalloc
    integer(c_int64_t) :: storage_granule, storage_alignment
    type(c_ptr) :: storage_backend    ! static: uturn_string()
    integer(c_int64_t) :: held_before_bytes, held_after_bytes, &
        bookkeeping_bytes, budget_bytes, record_bytes, steps, &
        io_buffer_bytes
    logical(c_bool) :: lossy          ! since 0.3: a level declared lossy
    integer(c_int64_t) :: sweeps_done, sweep_forward_steps ! since 0.3
    logical(c_bool) :: trajectory_held
    integer(c_int64_t) :: durable_points, durable_bytes ! since 0.3
    real(c_double) :: durable_seconds
    integer(c_int64_t) :: durable_point, resumed_action, &
        resumed_forward_steps
  end type

  type, bind(c) :: uturn_level_report_t
    integer(c_size_t) :: size
    integer(c_int64_t) :: stores, restores, peak_slots, bytes_written, &
        bytes_read
    real(c_double) :: write_seconds, read_seconds, wait_seconds
    logical(c_bool) :: overlapped, on_tmpfs
  end type

  ! since 0.3: what a durable directory holds (uturn_durable_inspect)
  type, bind(c) :: uturn_durable_info_t
    integer(c_size_t) :: size
    logical(c_bool) :: has_point, in_use
    integer(c_int64_t) :: point, fingerprint, steps, action, into, &
        forward_steps, reverse_steps, checkpoints, bytes, state_bytes, &
        adjoint_bytes
    character(kind=c_char) :: tag(256)
  end type

  type, bind(c) :: uturn_slot_cost_t
    integer(c_size_t) :: size
    integer(c_int64_t) :: state_bytes, stride, alignment, granule
    type(c_ptr) :: backend            ! static: uturn_string()
  end type

  type, bind(c) :: uturn_storage_callbacks_t
    integer(c_size_t) :: size         ! uturn_storage_callbacks_init()
    type(c_ptr) :: user
    type(c_funptr) :: open            ! uturn_storage_open_fn, or null
    type(c_funptr) :: put, get        ! uturn_storage_copy_fn
    type(c_funptr) :: drop            ! uturn_storage_drop_fn, or null
    type(c_funptr) :: close           ! uturn_storage_close_fn, or null
    ! Since 0.3: get may give other bytes than put was given (not
    ! checked; the report says lossy). .false.: checksummed.
    logical(c_bool) :: lossy
  end type

  type, bind(c) :: uturn_storage_t
    integer(c_size_t) :: size
    integer(c_int) :: kind            ! UTURN_STORAGE_FILE or _USER
    type(c_ptr) :: directory          ! FILE: NUL-terminated, or c_null_ptr
    type(c_ptr) :: callbacks          ! USER: c_loc of callbacks (target)
    logical(c_bool) :: synchronous
  end type

  type, bind(c) :: uturn_executor_options_t
    integer(c_size_t) :: size
    type(c_ptr) :: alloc, slot_alloc  ! c_loc of a uturn_allocator_t, or null
    type(c_ptr) :: levels             ! c_loc of a uturn_storage_t array
    integer(c_int64_t) :: level_count, io_buffers
  end type

  ! The callbacks of the structs above.
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
    ! model%is_last: asked after each forward step of an online plan's
    ! first sweep, with the live state x_step; non-zero: x_step is x_n.
    function uturn_is_last_fn(user, step) bind(c) result(last)
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: user
      integer(c_int64_t), value :: step
      integer(c_int) :: last
    end function
    ! model%forward_record: F_step with its record of record_bytes,
    ! written when again is false, given back when it is true.
    function uturn_record_fn(user, step, record, again) bind(c) result(rc)
      import :: c_ptr, c_int64_t, c_int, c_bool
      type(c_ptr), value :: user, record
      integer(c_int64_t), value :: step
      logical(c_bool), value :: again
      integer(c_int) :: rc
    end function
    function uturn_progress_fn(user, reversed, steps) bind(c) result(rc)
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: user
      integer(c_int64_t), value :: reversed, steps
      integer(c_int) :: rc
    end function
    function uturn_on_progress_fn(user, progress) bind(c) result(rc)
      import :: c_ptr, c_int, uturn_progress_t
      type(c_ptr), value :: user
      type(uturn_progress_t), intent(in) :: progress
      integer(c_int) :: rc
    end function
    ! uturn_storage_callbacks_t: open(ids, bytes); put(id, step, src,
    ! bytes) and get(id, step, dst, bytes); drop(id); close().
    function uturn_storage_open_fn(user, ids, bytes) bind(c) result(rc)
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: user
      integer(c_int64_t), value :: ids, bytes
      integer(c_int) :: rc
    end function
    function uturn_storage_copy_fn(user, id, step, buffer, bytes) bind(c) &
        result(rc)
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: user, buffer
      integer(c_int64_t), value :: id, step, bytes
      integer(c_int) :: rc
    end function
    subroutine uturn_storage_drop_fn(user, id) bind(c)
      import :: c_ptr, c_int64_t
      type(c_ptr), value :: user
      integer(c_int64_t), value :: id
    end subroutine
    subroutine uturn_storage_close_fn(user) bind(c)
      import :: c_ptr
      type(c_ptr), value :: user
    end subroutine
    ! uturn_allocator_t
    function uturn_alloc_fn(user, size) bind(c) result(ptr)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: user
      integer(c_size_t), value :: size
      type(c_ptr) :: ptr
    end function
    subroutine uturn_free_fn(user, ptr, size) bind(c)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: user, ptr
      integer(c_size_t), value :: size
    end subroutine
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
    function uturn_version_number() bind(c, name="uturn_version_number")
      import :: c_int
      integer(c_int) :: uturn_version_number    ! unsigned in C
    end function
    function uturn_version_string() bind(c, name="uturn_version_string")
      import :: c_ptr
      type(c_ptr) :: uturn_version_string
    end function

    ! The _init_size functions: call the uturn_<noun>_init below instead,
    ! which pass this module's sizes ---------------------------------------
    subroutine uturn_error_init_size(error, size) &
        bind(c, name="uturn_error_init_size")
      import :: uturn_error_t, c_size_t
      type(uturn_error_t), intent(inout) :: error
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_problem_init_size(problem, size) &
        bind(c, name="uturn_problem_init_size")
      import :: uturn_problem_t, c_size_t
      type(uturn_problem_t), intent(inout) :: problem
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_level_init_size(level, size) &
        bind(c, name="uturn_level_init_size")
      import :: uturn_level_t, c_size_t
      type(uturn_level_t), intent(inout) :: level
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_level_stats_init_size(stats, size) &
        bind(c, name="uturn_level_stats_init_size")
      import :: uturn_level_stats_t, c_size_t
      type(uturn_level_stats_t), intent(inout) :: stats
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_stats_init_size(stats, size) &
        bind(c, name="uturn_stats_init_size")
      import :: uturn_stats_t, c_size_t
      type(uturn_stats_t), intent(inout) :: stats
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_model_init_size(model, size) &
        bind(c, name="uturn_model_init_size")
      import :: uturn_model_t, c_size_t
      type(uturn_model_t), intent(inout) :: model
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_run_options_init_size(options, size) &
        bind(c, name="uturn_run_options_init_size")
      import :: uturn_run_options_t, c_size_t
      type(uturn_run_options_t), intent(inout) :: options
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_report_init_size(report, size) &
        bind(c, name="uturn_report_init_size")
      import :: uturn_report_t, c_size_t
      type(uturn_report_t), intent(inout) :: report
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_level_report_init_size(report, size) &
        bind(c, name="uturn_level_report_init_size")
      import :: uturn_level_report_t, c_size_t
      type(uturn_level_report_t), intent(inout) :: report
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_slot_cost_init_size(cost, size) &
        bind(c, name="uturn_slot_cost_init_size")
      import :: uturn_slot_cost_t, c_size_t
      type(uturn_slot_cost_t), intent(inout) :: cost
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_storage_init_size(storage, size) &
        bind(c, name="uturn_storage_init_size")
      import :: uturn_storage_t, c_size_t
      type(uturn_storage_t), intent(inout) :: storage
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_executor_options_init_size(options, size) &
        bind(c, name="uturn_executor_options_init_size")
      import :: uturn_executor_options_t, c_size_t
      type(uturn_executor_options_t), intent(inout) :: options
      integer(c_size_t), value :: size
    end subroutine

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
    function uturn_op_name(op) bind(c, name="uturn_op_name")
      import :: c_int, c_ptr
      integer(c_int), value :: op
      type(c_ptr) :: uturn_op_name
    end function
    ! capacity: at most the buffer's length (uturn_action_format_checked
    ! passes the length of a Fortran string).
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
    ! length: at most the text's (uturn_plan_parse_checked checks it).
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
    function uturn_plan_level_stats(plan, level, out) &
        bind(c, name="uturn_plan_level_stats") result(status)
      import :: uturn_level_stats_t, c_ptr, c_int64_t, c_int
      type(c_ptr), value :: plan
      integer(c_int64_t), value :: level       ! 0: memory
      type(uturn_level_stats_t), intent(inout) :: out
      integer(c_int) :: status
    end function
    ! Online plans over storage levels: the realised plan's cost when the
    ! run ends after `steps` steps, without generating it.
    function uturn_plan_online_cost(plan, steps, cost, error) &
        bind(c, name="uturn_plan_online_cost") result(status)
      import :: uturn_error_t, c_ptr, c_int64_t, c_int
      type(c_ptr), value :: plan
      integer(c_int64_t), value :: steps
      integer(c_int64_t), intent(out) :: cost
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    function uturn_plan_problem(plan, out) &
        bind(c, name="uturn_plan_problem") result(status)
      import :: uturn_problem_t, c_ptr, c_int
      type(c_ptr), value :: plan
      type(uturn_problem_t), intent(inout) :: out
      integer(c_int) :: status
    end function
    function uturn_plan_fingerprint(plan, out) &
        bind(c, name="uturn_plan_fingerprint") result(status)
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: plan
      integer(c_int64_t), intent(out) :: out   ! the 64 bits, signed here
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
    ! capacity: at most size(actions) (uturn_cursor_read_checked checks).
    function uturn_cursor_read(cursor, actions, capacity, count) &
        bind(c, name="uturn_cursor_read") result(status)
      import :: uturn_action_t, c_ptr, c_size_t, c_int
      type(c_ptr), value :: cursor
      type(uturn_action_t), intent(inout) :: actions(*)
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(out) :: count
      integer(c_int) :: status
    end function
    ! Online plans: "the live state is the last", right after the cursor
    ! handed out an advance of the first sweep.
    function uturn_cursor_end(cursor) bind(c, name="uturn_cursor_end") &
        result(status)
      import :: c_ptr, c_int
      type(c_ptr), value :: cursor
      integer(c_int) :: status
    end function
    ! Online plans with a byte budget: the size of x_step, just reached.
    ! bytes must be at least 1 (uturn_cursor_set_size_checked checks).
    function uturn_cursor_set_size(cursor, step, bytes) &
        bind(c, name="uturn_cursor_set_size") result(status)
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: cursor
      integer(c_int64_t), value :: step, bytes
      integer(c_int) :: status
    end function
    ! Online plans: the counts of the actions generated so far.
    function uturn_cursor_stats(cursor, out) &
        bind(c, name="uturn_cursor_stats") result(status)
      import :: uturn_stats_t, c_ptr, c_int
      type(c_ptr), value :: cursor
      type(uturn_stats_t), intent(inout) :: out
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
    function uturn_validator_level_stats(validator, level, out) &
        bind(c, name="uturn_validator_level_stats") result(status)
      import :: uturn_level_stats_t, c_ptr, c_int64_t, c_int
      type(c_ptr), value :: validator
      integer(c_int64_t), value :: level
      type(uturn_level_stats_t), intent(inout) :: out
      integer(c_int) :: status
    end function
    ! A validator made with steps 0 (online) learns n.
    function uturn_validator_set_steps(validator, steps, error) &
        bind(c, name="uturn_validator_set_steps") result(status)
      import :: uturn_error_t, c_ptr, c_int64_t, c_int
      type(c_ptr), value :: validator
      integer(c_int64_t), value :: steps
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    subroutine uturn_validator_free(validator) &
        bind(c, name="uturn_validator_free")
      import :: c_ptr
      type(c_ptr), value :: validator
    end subroutine

    ! The executor ---------------------------------------------------------
    function uturn_executor_create(alloc, out, error) &
        bind(c, name="uturn_executor_create") result(status)
      import :: uturn_error_t, c_ptr, c_int
      type(c_ptr), value :: alloc
      type(c_ptr), intent(out) :: out
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    ! With storage levels past memory (options%levels), I/O buffers, ...
    function uturn_executor_open(options, out, error) &
        bind(c, name="uturn_executor_open") result(status)
      import :: uturn_executor_options_t, uturn_error_t, c_ptr, c_int
      type(uturn_executor_options_t), intent(in), optional :: options
      type(c_ptr), intent(out) :: out
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    subroutine uturn_executor_free(executor) &
        bind(c, name="uturn_executor_free")
      import :: c_ptr
      type(c_ptr), value :: executor
    end subroutine
    ! Since 0.3: the next sweep of a run of several sweeps on request.
    function uturn_executor_sweep(executor, model, observed, report, error) &
        bind(c, name="uturn_executor_sweep") result(status)
      import :: uturn_model_t, uturn_stats_t, uturn_report_t, &
          uturn_error_t, c_ptr, c_int
      type(c_ptr), value :: executor
      type(uturn_model_t), intent(in) :: model
      type(uturn_stats_t), intent(inout), optional :: observed
      type(uturn_report_t), intent(inout), optional :: report
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    subroutine uturn_executor_release(executor) &
        bind(c, name="uturn_executor_release")
      import :: c_ptr
      type(c_ptr), value :: executor
    end subroutine
    ! Durable directories (since 0.3); directory NUL-terminated.
    subroutine uturn_durable_info_init_size(info, size) &
        bind(c, name="uturn_durable_info_init_size")
      import :: uturn_durable_info_t, c_size_t
      type(uturn_durable_info_t), intent(inout) :: info
      integer(c_size_t), value :: size
    end subroutine
    function uturn_durable_inspect(directory, info, error) &
        bind(c, name="uturn_durable_inspect") result(status)
      import :: c_char, c_int, uturn_durable_info_t, uturn_error_t
      character(kind=c_char), intent(in) :: directory(*)
      type(uturn_durable_info_t), intent(inout) :: info
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    function uturn_durable_remove(directory, error) &
        bind(c, name="uturn_durable_remove") result(status)
      import :: c_char, c_int, uturn_error_t
      character(kind=c_char), intent(in) :: directory(*)
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    function uturn_executor_slot_bytes(executor, state_bytes, out) &
        bind(c, name="uturn_executor_slot_bytes") result(status)
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: executor
      integer(c_int64_t), value :: state_bytes
      integer(c_int64_t), intent(out) :: out
      integer(c_int) :: status
    end function
    function uturn_executor_slot_cost(executor, state_bytes, out) &
        bind(c, name="uturn_executor_slot_cost") result(status)
      import :: uturn_slot_cost_t, c_ptr, c_int64_t, c_int
      type(c_ptr), value :: executor
      integer(c_int64_t), value :: state_bytes
      type(uturn_slot_cost_t), intent(inout) :: out
      integer(c_int) :: status
    end function
    function uturn_executor_level_slots(executor, problem, level, slots, &
        error) bind(c, name="uturn_executor_level_slots") result(status)
      import :: uturn_problem_t, uturn_error_t, c_ptr, c_int64_t, c_int
      type(c_ptr), value :: executor
      type(uturn_problem_t), intent(in) :: problem
      integer(c_int64_t), value :: level
      integer(c_int64_t), intent(out) :: slots
      type(uturn_error_t), intent(inout), optional :: error
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
    ! The last run's figures for storage level `level` (0: memory).
    function uturn_executor_level_report(executor, level, out) &
        bind(c, name="uturn_executor_level_report") result(status)
      import :: uturn_level_report_t, c_ptr, c_int64_t, c_int
      type(c_ptr), value :: executor
      integer(c_int64_t), value :: level
      type(uturn_level_report_t), intent(inout) :: out
      integer(c_int) :: status
    end function
  end interface

  ! uturn_check(x, error): UTURN_OK, or UTURN_E_INVALID_ARG naming the
  ! first negative field of x (see the header of this file).
  interface uturn_check
    module procedure uturn_check_problem, uturn_check_model, &
        uturn_check_run_options, uturn_check_executor_options, &
        uturn_check_action
  end interface

contains

  ! Preparing structs: the C _init_size with this module's sizes ---------

  subroutine uturn_error_init(error)
    type(uturn_error_t), intent(inout) :: error
    call uturn_error_init_size(error, c_sizeof(error))
  end subroutine

  subroutine uturn_problem_init(problem)
    type(uturn_problem_t), intent(inout) :: problem
    call uturn_problem_init_size(problem, c_sizeof(problem))
  end subroutine

  subroutine uturn_level_init(level)
    type(uturn_level_t), intent(inout) :: level
    call uturn_level_init_size(level, c_sizeof(level))
  end subroutine

  subroutine uturn_level_stats_init(stats)
    type(uturn_level_stats_t), intent(inout) :: stats
    call uturn_level_stats_init_size(stats, c_sizeof(stats))
  end subroutine

  subroutine uturn_stats_init(stats)
    type(uturn_stats_t), intent(inout) :: stats
    call uturn_stats_init_size(stats, c_sizeof(stats))
  end subroutine

  subroutine uturn_model_init(model)
    type(uturn_model_t), intent(inout) :: model
    call uturn_model_init_size(model, c_sizeof(model))
  end subroutine

  subroutine uturn_run_options_init(options)
    type(uturn_run_options_t), intent(inout) :: options
    call uturn_run_options_init_size(options, c_sizeof(options))
  end subroutine

  subroutine uturn_report_init(report)
    type(uturn_report_t), intent(inout) :: report
    call uturn_report_init_size(report, c_sizeof(report))
  end subroutine
  subroutine uturn_durable_info_init(info)
    type(uturn_durable_info_t), intent(inout) :: info
    call uturn_durable_info_init_size(info, c_sizeof(info))
  end subroutine

  subroutine uturn_level_report_init(report)
    type(uturn_level_report_t), intent(inout) :: report
    call uturn_level_report_init_size(report, c_sizeof(report))
  end subroutine

  subroutine uturn_slot_cost_init(cost)
    type(uturn_slot_cost_t), intent(inout) :: cost
    call uturn_slot_cost_init_size(cost, c_sizeof(cost))
  end subroutine

  subroutine uturn_storage_init(storage)   ! a file level in $TMPDIR
    type(uturn_storage_t), intent(inout) :: storage
    call uturn_storage_init_size(storage, c_sizeof(storage))
  end subroutine

  subroutine uturn_executor_options_init(options)
    type(uturn_executor_options_t), intent(inout) :: options
    call uturn_executor_options_init_size(options, c_sizeof(options))
  end subroutine

  ! No callbacks, no user, and the size of this mirror.
  subroutine uturn_storage_callbacks_init(callbacks)
    type(uturn_storage_callbacks_t), intent(inout) :: callbacks
    callbacks%size = c_sizeof(callbacks)
    callbacks%user = c_null_ptr
    callbacks%open = c_null_funptr
    callbacks%put = c_null_funptr
    callbacks%get = c_null_funptr
    callbacks%drop = c_null_funptr
    callbacks%close = c_null_funptr
    callbacks%lossy = .false.
  end subroutine

  ! Strings -----------------------------------------------------------------

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
  ! MOST), not VALUE" in error when it is present (MOST: huge, or the
  ! `most` given).
  function refuse(name, value, least, error, most) result(status)
    character(len=*), intent(in) :: name
    integer(c_int64_t), intent(in) :: value, least
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int64_t), intent(in), optional :: most
    integer(c_int) :: status
    character(len=255) :: text
    integer(c_int64_t) :: top
    integer :: i, n
    status = UTURN_E_INVALID_ARG
    if (.not. present(error)) return
    top = huge(value)
    if (present(most)) top = most
    if (least == 0 .and. value < 0) then
      write (text, '(a, " must not be negative (0 .. ", i0, "), not ", i0)') &
          name, top, value
    else if (value < least) then
      write (text, '(a, " must be at least ", i0, " (", i0, " .. ", i0, &
          &"), not ", i0)') name, least, least, top, value
    else
      write (text, '(a, " must be at most ", i0, " (", i0, " .. ", i0, &
          &"), not ", i0)') name, top, least, top, value
    end if
    call uturn_error_init(error)
    error%status = status
    n = len_trim(text)
    do i = 1, n
      error%message(i) = text(i:i)
    end do
    error%message(n + 1) = c_null_char
  end function

  ! Refuse value when it is below least (or above most, when given),
  ! unless status already failed.
  subroutine check_count(status, name, value, least, error, most)
    integer(c_int), intent(inout) :: status
    character(len=*), intent(in) :: name
    integer(c_int64_t), intent(in) :: value, least
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int64_t), intent(in), optional :: most
    if (status /= UTURN_OK) return
    if (value < least) then
      status = refuse(name, value, least, error, most)
    else if (present(most)) then
      if (value > most) status = refuse(name, value, least, error, most)
    end if
  end subroutine

  ! check_count for a size_t: between least and most.
  subroutine check_size(status, name, value, least, most, error)
    integer(c_int), intent(inout) :: status
    character(len=*), intent(in) :: name
    integer(c_size_t), intent(in) :: value
    integer(c_int64_t), intent(in) :: least, most
    type(uturn_error_t), intent(inout), optional :: error
    call check_count(status, name, int(value, c_int64_t), least, error, most)
  end subroutine

  ! Every count of problem, and of each of its levels (when levels is set
  ! and there are at most 16 of them, as many as the library takes).
  function uturn_check_problem(problem, error) result(status)
    type(uturn_problem_t), intent(in) :: problem
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    type(uturn_level_t), pointer :: levels(:)
    character(len=32) :: name
    integer :: k
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
    call check_count(status, "problem%level_count", problem%level_count, &
        0_c_int64_t, error)
    call check_count(status, "problem%max_steps", problem%max_steps, &
        0_c_int64_t, error)
    call check_count(status, "problem%threads", problem%threads, &
        0_c_int64_t, error)
    call check_count(status, "problem%table_bytes", problem%table_bytes, &
        0_c_int64_t, error)
    if (problem%sweeps /= UTURN_SWEEPS_UNBOUNDED) &
        call check_count(status, "problem%sweeps", problem%sweeps, &
        0_c_int64_t, error)
    if (status /= UTURN_OK .or. .not. c_associated(problem%levels) .or. &
        problem%level_count < 1 .or. problem%level_count > max_levels) return
    call c_f_pointer(problem%levels, levels, [problem%level_count])
    do k = 1, size(levels)
      write (name, '("problem%levels(", i0, ")%")') k
      call check_count(status, trim(name) // "slots", levels(k)%slots, &
          0_c_int64_t, error)
      call check_count(status, trim(name) // "bytes", levels(k)%bytes, &
          0_c_int64_t, error)
      call check_count(status, trim(name) // "write_cost", &
          levels(k)%write_cost, 0_c_int64_t, error)
      call check_count(status, trim(name) // "read_cost", &
          levels(k)%read_cost, 0_c_int64_t, error)
    end do
  end function

  function uturn_check_model(model, error) result(status)
    type(uturn_model_t), intent(in) :: model
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = UTURN_OK
    call check_count(status, "model%state_bytes", model%state_bytes, &
        0_c_int64_t, error)
    call check_count(status, "model%record_bytes", model%record_bytes, &
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
    call check_count(status, "options%on_progress_every", &
        options%on_progress_every, 0_c_int64_t, error)
  end function

  function uturn_check_executor_options(options, error) result(status)
    type(uturn_executor_options_t), intent(in) :: options
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = UTURN_OK
    call check_count(status, "options%level_count", options%level_count, &
        0_c_int64_t, error)
    call check_count(status, "options%io_buffers", options%io_buffers, &
        0_c_int64_t, error)
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

  function uturn_validator_set_steps_checked(validator, steps, error) &
      result(status)
    type(c_ptr), intent(in) :: validator
    integer(c_int64_t), intent(in) :: steps
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = UTURN_OK
    call check_count(status, "steps", steps, 1_c_int64_t, error)
    if (status == UTURN_OK) &
        status = uturn_validator_set_steps(validator, steps, error)
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

  function uturn_executor_open_checked(options, out, error) result(status)
    type(uturn_executor_options_t), intent(in), optional :: options
    type(c_ptr), intent(out) :: out
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    out = c_null_ptr
    status = UTURN_OK
    if (present(options)) status = uturn_check(options, error)
    if (status == UTURN_OK) status = uturn_executor_open(options, out, error)
  end function

  function uturn_executor_level_slots_checked(executor, problem, level, &
      slots, error) result(status)
    type(c_ptr), intent(in) :: executor
    type(uturn_problem_t), intent(in) :: problem
    integer(c_int64_t), intent(in) :: level
    integer(c_int64_t), intent(out) :: slots
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    slots = 0
    status = uturn_check(problem, error)
    call check_count(status, "level", level, 0_c_int64_t, error)
    if (status == UTURN_OK) status = uturn_executor_level_slots(executor, &
        problem, level, slots, error)
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

  function uturn_executor_slot_cost_checked(executor, state_bytes, out, &
      error) result(status)
    type(c_ptr), intent(in) :: executor
    integer(c_int64_t), intent(in) :: state_bytes
    type(uturn_slot_cost_t), intent(inout) :: out
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = UTURN_OK
    call check_count(status, "state_bytes", state_bytes, 1_c_int64_t, error)
    if (status == UTURN_OK) &
        status = uturn_executor_slot_cost(executor, state_bytes, out)
  end function

  ! step must not be negative and bytes must be at least 1.
  function uturn_cursor_set_size_checked(cursor, step, bytes, error) &
      result(status)
    type(c_ptr), intent(in) :: cursor
    integer(c_int64_t), intent(in) :: step, bytes
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    status = UTURN_OK
    call check_count(status, "step", step, 0_c_int64_t, error)
    call check_count(status, "bytes", bytes, 1_c_int64_t, error)
    if (status == UTURN_OK) status = uturn_cursor_set_size(cursor, step, bytes)
  end function

  ! Up to `capacity` (default size(actions); 1 .. size(actions)) next
  ! actions into actions(1:count).
  function uturn_cursor_read_checked(cursor, actions, count, capacity, &
      error) result(status)
    type(c_ptr), intent(in) :: cursor
    type(uturn_action_t), intent(inout), contiguous :: actions(:)
    integer(c_size_t), intent(out) :: count
    integer(c_size_t), intent(in), optional :: capacity
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    integer(c_size_t) :: cap
    count = 0
    status = UTURN_OK
    cap = size(actions, kind=c_size_t)
    if (present(capacity)) cap = capacity
    call check_size(status, "capacity", cap, 1_c_int64_t, &
        size(actions, kind=c_int64_t), error)
    if (status == UTURN_OK) &
        status = uturn_cursor_read(cursor, actions, cap, count)
  end function

  ! The action as plan text in buffer, blank-padded (trim(buffer) is the
  ! text); `capacity` bytes of it at most (default len(buffer); 0 ..
  ! len(buffer)), the C string's NUL included. length: the full text's.
  function uturn_action_format_checked(action, buffer, length, capacity, &
      error) result(status)
    type(uturn_action_t), intent(in) :: action
    character(kind=c_char, len=*), intent(out) :: buffer
    integer(c_size_t), intent(out), optional :: length
    integer(c_size_t), intent(in), optional :: capacity
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_int) :: status
    integer(c_size_t) :: cap
    integer :: nul
    buffer = ""
    if (present(length)) length = 0
    cap = len(buffer, kind=c_size_t)
    if (present(capacity)) cap = capacity
    status = uturn_check(action, error)
    call check_size(status, "capacity", cap, 0_c_int64_t, &
        len(buffer, kind=c_int64_t), error)
    if (status /= UTURN_OK) return
    if (len(buffer) == 0) then   ! no byte to pass: ask for the length
      status = uturn_action_format(action, buffer, 0_c_size_t, length)
      return
    end if
    status = uturn_action_format(action, buffer, cap, length)
    nul = index(buffer, c_null_char)
    if (nul > 0) buffer(nul:) = ""
  end function

  ! Plan text from a Fortran string: the first `length` characters of
  ! text (default len(text); 0 .. len(text)).
  function uturn_plan_parse_checked(text, alloc, out, error, length) &
      result(status)
    character(kind=c_char, len=*), intent(in) :: text
    type(c_ptr), intent(in) :: alloc
    type(c_ptr), intent(out) :: out
    type(uturn_error_t), intent(inout), optional :: error
    integer(c_size_t), intent(in), optional :: length
    integer(c_int) :: status
    integer(c_size_t) :: n
    out = c_null_ptr
    status = UTURN_OK
    n = len(text, kind=c_size_t)
    if (present(length)) n = length
    call check_size(status, "length", n, 0_c_int64_t, &
        len(text, kind=c_int64_t), error)
    if (status == UTURN_OK) &
        status = uturn_plan_parse(text, n, alloc, out, error)
  end function

end module uturn
