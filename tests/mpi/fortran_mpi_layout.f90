! The layouts of the uturn_mpi module's mirrors as this Fortran compiler
! lays them out, in the format of tests/mpi/mpi_struct_layout.c, so that
! ctest mpi_fortran_layout can compare them with the C compiler's layouts
! of <uturn_mpi.h> (as tests/fortran/fortran_layout.f90 does for the core
! module). It calls no MPI function.
module mpi_layout_print
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
end module mpi_layout_print

program fortran_mpi_layout
  use, intrinsic :: iso_c_binding
  use uturn_mpi
  use mpi_layout_print
  implicit none

  call options_layout()
  call run_options_layout()
  call plan_info_layout()
  call report_layout()
contains
  subroutine options_layout()
    type(uturn_mpi_options_t), target :: options

    call start("uturn_mpi_options_t", c_loc(options), &
        c_sizeof(options))
    call field("size", c_loc(options%size), c_sizeof(options%size))
    call field("alloc", c_loc(options%alloc), c_sizeof(options%alloc))
    call field("units", c_loc(options%units), c_sizeof(options%units))
    call field("table_bytes", c_loc(options%table_bytes), &
        c_sizeof(options%table_bytes))
    call field("compare", c_loc(options%compare), c_sizeof(options%compare))
  end subroutine

  subroutine run_options_layout()
    type(uturn_mpi_run_options_t), target :: run_options

    call start("uturn_mpi_run_options_t", c_loc(run_options), &
        c_sizeof(run_options))
    call field("size", c_loc(run_options%size), c_sizeof(run_options%size))
    call field("run", c_loc(run_options%run), c_sizeof(run_options%run))
    call field("abort_on_failure", c_loc(run_options%abort_on_failure), &
        c_sizeof(run_options%abort_on_failure))
    call field("local_callbacks", c_loc(run_options%local_callbacks), &
        c_sizeof(run_options%local_callbacks))
  end subroutine

  subroutine plan_info_layout()
    type(uturn_mpi_plan_info_t), target :: plan_info

    call start("uturn_mpi_plan_info_t", c_loc(plan_info), &
        c_sizeof(plan_info))
    call field("size", c_loc(plan_info%size), c_sizeof(plan_info%size))
    call field("rank", c_loc(plan_info%rank), c_sizeof(plan_info%rank))
    call field("ranks", c_loc(plan_info%ranks), c_sizeof(plan_info%ranks))
    call field("fingerprint", c_loc(plan_info%fingerprint), &
        c_sizeof(plan_info%fingerprint))
    call field("forward_cost", c_loc(plan_info%forward_cost), &
        c_sizeof(plan_info%forward_cost))
    call field("slots", c_loc(plan_info%slots), c_sizeof(plan_info%slots))
    call field("own_slots", c_loc(plan_info%own_slots), &
        c_sizeof(plan_info%own_slots))
    call field("limiting_rank", c_loc(plan_info%limiting_rank), &
        c_sizeof(plan_info%limiting_rank))
    call field("units", c_loc(plan_info%units), c_sizeof(plan_info%units))
    call field("own_forward_cost", c_loc(plan_info%own_forward_cost), &
        c_sizeof(plan_info%own_forward_cost))
    call field("own_forward_cost_min", c_loc(plan_info%own_forward_cost_min), &
        c_sizeof(plan_info%own_forward_cost_min))
    call field("own_forward_cost_max", c_loc(plan_info%own_forward_cost_max), &
        c_sizeof(plan_info%own_forward_cost_max))
    call field("plan_bytes", c_loc(plan_info%plan_bytes), &
        c_sizeof(plan_info%plan_bytes))
    call field("collectives", c_loc(plan_info%collectives), &
        c_sizeof(plan_info%collectives))
    call field("planning_seconds", c_loc(plan_info%planning_seconds), &
        c_sizeof(plan_info%planning_seconds))
  end subroutine

  subroutine report_layout()
    type(uturn_mpi_report_t), target :: report

    call start("uturn_mpi_report_t", c_loc(report), &
        c_sizeof(report))
    call field("size", c_loc(report%size), c_sizeof(report%size))
    call field("status", c_loc(report%status), c_sizeof(report%status))
    call field("ranks", c_loc(report%ranks), c_sizeof(report%ranks))
    call field("failed_rank", c_loc(report%failed_rank), &
        c_sizeof(report%failed_rank))
    call field("failed_ranks", c_loc(report%failed_ranks), &
        c_sizeof(report%failed_ranks))
    call field("measured_peak_bytes_max", &
        c_loc(report%measured_peak_bytes_max), &
        c_sizeof(report%measured_peak_bytes_max))
    call field("measured_peak_bytes_sum", &
        c_loc(report%measured_peak_bytes_sum), &
        c_sizeof(report%measured_peak_bytes_sum))
    call field("planned_peak_bytes_max", c_loc(report%planned_peak_bytes_max), &
        c_sizeof(report%planned_peak_bytes_max))
    call field("budget_bytes_sum", c_loc(report%budget_bytes_sum), &
        c_sizeof(report%budget_bytes_sum))
    call field("wall_seconds_max", c_loc(report%wall_seconds_max), &
        c_sizeof(report%wall_seconds_max))
    call field("forward_seconds_max", c_loc(report%forward_seconds_max), &
        c_sizeof(report%forward_seconds_max))
    call field("adjoint_seconds_max", c_loc(report%adjoint_seconds_max), &
        c_sizeof(report%adjoint_seconds_max))
    call field("copy_seconds_max", c_loc(report%copy_seconds_max), &
        c_sizeof(report%copy_seconds_max))
    call field("overhead_seconds_max", c_loc(report%overhead_seconds_max), &
        c_sizeof(report%overhead_seconds_max))
    call field("forward_seconds_sum", c_loc(report%forward_seconds_sum), &
        c_sizeof(report%forward_seconds_sum))
    call field("adjoint_seconds_sum", c_loc(report%adjoint_seconds_sum), &
        c_sizeof(report%adjoint_seconds_sum))
    call field("copy_seconds_sum", c_loc(report%copy_seconds_sum), &
        c_sizeof(report%copy_seconds_sum))
    call field("collective_seconds_max", c_loc(report%collective_seconds_max), &
        c_sizeof(report%collective_seconds_max))
    call field("collectives", c_loc(report%collectives), &
        c_sizeof(report%collectives))
    call field("levels", c_loc(report%levels), c_sizeof(report%levels))
    call field("level_bytes_written_sum", &
        c_loc(report%level_bytes_written_sum), &
        c_sizeof(report%level_bytes_written_sum))
    call field("level_bytes_read_sum", c_loc(report%level_bytes_read_sum), &
        c_sizeof(report%level_bytes_read_sum))
  end subroutine
end program fortran_mpi_layout
