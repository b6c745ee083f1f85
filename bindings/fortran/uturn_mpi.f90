! uturn's MPI layer for Fortran: iso_c_binding interfaces to libuturn_mpi
! (Fortran 2018), beside the uturn module (bindings/fortran/uturn.f90).
!
! The types mirror the structs of <uturn_mpi.h> field for field and the
! interfaces carry the C names, so the header's documentation applies as
! it stands: every call taking a communicator or an MPI plan is collective.
! The communicator is a Fortran handle: the INTEGER of `use mpi` (or
! `comm%MPI_VAL` of `use mpi_f08`), passed to the C entries that take an
! MPI_Fint (uturn_mpi_plan_create_f, uturn_mpi_plan_adopt_f), which
! convert it with MPI_Comm_f2c. MPI_Fint is C's int with the usual
! compilers and MPI builds, so the interfaces take an integer(c_int),
! which a default INTEGER is (a program built with -fdefault-integer-8
! passes int(comm, c_int)).
! Compile both modules with your program and link the two libraries:
!
!   mpif90 -std=f2018 -c uturn.f90 uturn_mpi.f90
!   mpif90 -std=f2018 prog.f90 uturn_mpi.o uturn.o -luturn_mpi -luturn
!
! Mapping as in the uturn module: uint64_t is integer(c_int64_t), bool is
! logical(c_bool), handles are type(c_ptr), and `options`, `info`,
! `observed`, `report`, `combined` and `error` are optional (absent means
! NULL). Prepare every struct with its uturn_mpi_*_init subroutine, which
! passes c_sizeof of this module's mirror (ctest mpi_fortran_layout
! compares each mirror with the C compiler's layout).
!
! Storage levels: a problem with levels (problem%levels, planner hrevolve)
! is planned as <uturn_mpi.h> says: each rank resolves each level at its
! own real cost on its executor (a file level: its own files, in the
! directory its executor's storage names), and every rank plans the least
! of each. The combined report sums each level's bytes over the ranks:
! level_bytes_written_sum(k) and level_bytes_read_sum(k) for level k past
! memory (k = 1 .. levels; Fortran's index is the level's number).
!
! The uturn module's checked routines are local: no MPI-checked forms are
! given here, since a refusal on one rank alone would leave the others
! waiting in the layer's collectives. Check every rank's problem with
! uturn_check() and agree on the result (an MPI_Allreduce) before calling
! uturn_mpi_plan_create.
module uturn_mpi
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_size_t, &
      c_double, c_bool, c_ptr, c_sizeof
  use uturn, only: uturn_problem_t, uturn_model_t, uturn_stats_t, &
      uturn_report_t, uturn_error_t
  implicit none
  private :: c_int, c_int64_t, c_size_t, c_double, c_bool, c_ptr, c_sizeof
  private :: uturn_problem_t, uturn_model_t, uturn_stats_t, &
      uturn_report_t, uturn_error_t

  ! UTURN_MPI_UNITS, UTURN_MPI_TABLE_BYTES and UTURN_MPI_LEVELS
  integer(c_int64_t), parameter :: UTURN_MPI_UNITS = 1024_c_int64_t
  integer(c_int64_t), parameter :: UTURN_MPI_TABLE_BYTES = &
      64_c_int64_t * 1024 * 1024
  integer, parameter :: UTURN_MPI_LEVELS = 16

  type, bind(c) :: uturn_mpi_options_t
    integer(c_size_t) :: size
    type(c_ptr) :: alloc
    integer(c_int64_t) :: units, table_bytes
    logical(c_bool) :: compare
  end type

  type, bind(c) :: uturn_mpi_plan_info_t
    integer(c_size_t) :: size
    integer(c_int) :: rank, ranks
    integer(c_int64_t) :: fingerprint, forward_cost, slots, own_slots
    integer(c_int) :: limiting_rank
    integer(c_int64_t) :: units, own_forward_cost, own_forward_cost_min, &
        own_forward_cost_max, plan_bytes, collectives
    real(c_double) :: planning_seconds
  end type

  type, bind(c) :: uturn_mpi_run_options_t
    integer(c_size_t) :: size
    type(c_ptr) :: run          ! c_loc of a uturn_run_options_t, or null
    logical(c_bool) :: abort_on_failure
    ! Since 0.3: the callbacks never communicate (see uturn_mpi.h); a
    ! failure on one rank then returns on every rank instead of aborting.
    logical(c_bool) :: local_callbacks
  end type

  type, bind(c) :: uturn_mpi_report_t
    integer(c_size_t) :: size
    integer(c_int) :: status, ranks, failed_rank
    integer(c_int64_t) :: failed_ranks, measured_peak_bytes_max, &
        measured_peak_bytes_sum, planned_peak_bytes_max, budget_bytes_sum
    real(c_double) :: wall_seconds_max, forward_seconds_max, &
        adjoint_seconds_max, copy_seconds_max, overhead_seconds_max, &
        forward_seconds_sum, adjoint_seconds_sum, copy_seconds_sum, &
        collective_seconds_max
    integer(c_int64_t) :: collectives
    ! Storage levels past memory: how many, and each one's bytes summed
    ! over the ranks (index k: level k).
    integer(c_int64_t) :: levels
    integer(c_int64_t) :: level_bytes_written_sum(UTURN_MPI_LEVELS)
    integer(c_int64_t) :: level_bytes_read_sum(UTURN_MPI_LEVELS)
  end type

  interface
    subroutine uturn_mpi_options_init_size(options, size) &
        bind(c, name="uturn_mpi_options_init_size")
      import :: uturn_mpi_options_t, c_size_t
      type(uturn_mpi_options_t), intent(inout) :: options
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_mpi_plan_info_init_size(info, size) &
        bind(c, name="uturn_mpi_plan_info_init_size")
      import :: uturn_mpi_plan_info_t, c_size_t
      type(uturn_mpi_plan_info_t), intent(inout) :: info
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_mpi_run_options_init_size(options, size) &
        bind(c, name="uturn_mpi_run_options_init_size")
      import :: uturn_mpi_run_options_t, c_size_t
      type(uturn_mpi_run_options_t), intent(inout) :: options
      integer(c_size_t), value :: size
    end subroutine
    subroutine uturn_mpi_report_init_size(report, size) &
        bind(c, name="uturn_mpi_report_init_size")
      import :: uturn_mpi_report_t, c_size_t
      type(uturn_mpi_report_t), intent(inout) :: report
      integer(c_size_t), value :: size
    end subroutine

    ! Collective over comm (a Fortran communicator handle).
    function uturn_mpi_plan_create(comm, executor, problem, options, out, &
        info, error) bind(c, name="uturn_mpi_plan_create_f") result(status)
      import :: uturn_problem_t, uturn_mpi_options_t, &
          uturn_mpi_plan_info_t, uturn_error_t, c_ptr, c_int
      integer(c_int), value :: comm ! MPI_Fint
      type(c_ptr), value :: executor
      type(uturn_problem_t), intent(in) :: problem
      type(uturn_mpi_options_t), intent(in), optional :: options
      type(c_ptr), intent(out) :: out
      type(uturn_mpi_plan_info_t), intent(inout), optional :: info
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    function uturn_mpi_plan_adopt(comm, plan, options, out, info, error) &
        bind(c, name="uturn_mpi_plan_adopt_f") result(status)
      import :: uturn_mpi_options_t, uturn_mpi_plan_info_t, &
          uturn_error_t, c_ptr, c_int
      integer(c_int), value :: comm ! MPI_Fint
      type(c_ptr), value :: plan
      type(uturn_mpi_options_t), intent(in), optional :: options
      type(c_ptr), intent(out) :: out
      type(uturn_mpi_plan_info_t), intent(inout), optional :: info
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    ! Collective: every rank frees its MPI plan, before MPI_Finalize.
    subroutine uturn_mpi_plan_free(plan) bind(c, name="uturn_mpi_plan_free")
      import :: c_ptr
      type(c_ptr), value :: plan
    end subroutine
    function uturn_mpi_plan_core(plan) bind(c, name="uturn_mpi_plan_core") &
        result(core)
      import :: c_ptr
      type(c_ptr), value :: plan
      type(c_ptr) :: core
    end function
    function uturn_mpi_plan_info(plan, out) &
        bind(c, name="uturn_mpi_plan_info") result(status)
      import :: uturn_mpi_plan_info_t, c_ptr, c_int
      type(c_ptr), value :: plan
      type(uturn_mpi_plan_info_t), intent(inout) :: out
      integer(c_int) :: status
    end function
    ! Collective over the plan's communicator.
    function uturn_mpi_run(plan, executor, model, options, observed, &
        report, combined, error) bind(c, name="uturn_mpi_run") result(status)
      import :: uturn_model_t, uturn_mpi_run_options_t, uturn_stats_t, &
          uturn_report_t, uturn_mpi_report_t, uturn_error_t, c_ptr, c_int
      type(c_ptr), value :: plan, executor
      type(uturn_model_t), intent(in) :: model
      type(uturn_mpi_run_options_t), intent(in), optional :: options
      type(uturn_stats_t), intent(inout), optional :: observed
      type(uturn_report_t), intent(inout), optional :: report
      type(uturn_mpi_report_t), intent(inout), optional :: combined
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
    ! Since 0.3: the next sweep of a run of several sweeps on request.
    function uturn_mpi_sweep(plan, executor, model, options, observed, &
        report, combined, error) bind(c, name="uturn_mpi_sweep") &
        result(status)
      import :: uturn_model_t, uturn_mpi_run_options_t, uturn_stats_t, &
          uturn_report_t, uturn_mpi_report_t, uturn_error_t, c_ptr, c_int
      type(c_ptr), value :: plan, executor
      type(uturn_model_t), intent(in) :: model
      type(uturn_mpi_run_options_t), intent(in), optional :: options
      type(uturn_stats_t), intent(inout), optional :: observed
      type(uturn_report_t), intent(inout), optional :: report
      type(uturn_mpi_report_t), intent(inout), optional :: combined
      type(uturn_error_t), intent(inout), optional :: error
      integer(c_int) :: status
    end function
  end interface

contains

  subroutine uturn_mpi_options_init(options)
    type(uturn_mpi_options_t), intent(inout) :: options
    call uturn_mpi_options_init_size(options, c_sizeof(options))
  end subroutine

  subroutine uturn_mpi_plan_info_init(info)
    type(uturn_mpi_plan_info_t), intent(inout) :: info
    call uturn_mpi_plan_info_init_size(info, c_sizeof(info))
  end subroutine

  subroutine uturn_mpi_run_options_init(options)
    type(uturn_mpi_run_options_t), intent(inout) :: options
    call uturn_mpi_run_options_init_size(options, c_sizeof(options))
  end subroutine

  subroutine uturn_mpi_report_init(report)
    type(uturn_mpi_report_t), intent(inout) :: report
    call uturn_mpi_report_init_size(report, c_sizeof(report))
  end subroutine
end module uturn_mpi
