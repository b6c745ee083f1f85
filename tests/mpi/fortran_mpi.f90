! The MPI layer from Fortran (ctest mpi_fortran_np*): rank r reverses
! 100 (r + 1) chains x_{i+1} = x_i / (1 + h x_i) with callbacks written in
! Fortran, every rank with the same byte budget, so their states and the
! slot counts their budgets hold differ. The plan is agreed through the
! Fortran communicator of `use mpi`. Since x_n = x_0 / (1 + n h x_0),
! J = sum(x_n**2) / 2 has dJ/dx_0 = x_n / (1 + n h x_0)**2.
module fortran_mpi_chains
  use, intrinsic :: iso_c_binding
  implicit none
  integer(c_int64_t), parameter :: steps = 400
  real(c_double), parameter :: h = 0.01_c_double
  type :: chains_t
    real(c_double), allocatable :: x(:), xbar(:)
  end type
contains
  function forward(user, step) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    type(chains_t), pointer :: m
    call c_f_pointer(user, m)
    m%x = m%x / (1 + h * m%x)
    rc = merge(0, 1, step < steps)
  end function

  function turn(user) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int) :: rc
    type(chains_t), pointer :: m
    call c_f_pointer(user, m)
    m%xbar = m%x
    rc = 0
  end function

  function adjoint(user, step) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    type(chains_t), pointer :: m
    call c_f_pointer(user, m)
    m%xbar = m%xbar / (1 + h * m%x)**2
    rc = merge(0, 1, step < steps)
  end function
end module fortran_mpi_chains

program fortran_mpi
  use, intrinsic :: iso_c_binding
  use mpi
  use uturn
  use uturn_mpi
  use fortran_mpi_chains
  implicit none
  integer(c_int64_t), parameter :: budget = 65536
  type(chains_t), target :: m
  type(uturn_problem_t) :: problem
  type(uturn_model_t) :: model
  type(uturn_mpi_plan_info_t) :: info
  type(uturn_mpi_report_t) :: combined
  type(uturn_error_t) :: err
  type(c_ptr) :: ex, plan
  integer(c_int) :: st
  integer :: rank, ranks, ierr, i, mine, every, n
  real(c_double), allocatable :: x0(:), want(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  n = 100 * (rank + 1)
  allocate(m%x(n), m%xbar(n), x0(n), want(n))
  x0 = [(1 + 0.01_c_double * i, i = 1, n)]
  m%x = x0

  call uturn_error_init(err)
  call uturn_problem_init(problem)
  problem%planner = UTURN_PLANNER_REVOLVE
  problem%steps = steps
  problem%slot_bytes = 8_c_int64_t * n
  problem%budget_bytes = budget
  call uturn_model_init(model)
  model%user = c_loc(m)
  model%forward = c_funloc(forward)
  model%turn = c_funloc(turn)
  model%adjoint = c_funloc(adjoint)
  model%state = c_loc(m%x)
  model%state_bytes = 8_c_int64_t * n
  call uturn_mpi_plan_info_init(info)
  call uturn_mpi_report_init(combined)

  plan = c_null_ptr
  st = uturn_executor_create(c_null_ptr, ex, err)
  if (st == UTURN_OK) st = uturn_mpi_plan_create(MPI_COMM_WORLD, ex, &
      problem, out=plan, info=info, error=err)
  if (st == UTURN_OK) st = uturn_mpi_run(plan, ex, model, combined=combined, &
      error=err)
  call uturn_mpi_plan_free(plan)
  call uturn_executor_free(ex)

  want = (x0 / (1 + steps * h * x0)) / (1 + steps * h * x0)**2
  mine = 1
  if (st /= UTURN_OK) then
    print '("FAIL rank ", i0, ": ", a, ": ", a)', rank, &
        uturn_string(uturn_status_name(st)), uturn_error_message(err)
    mine = 0
  else if (any(abs(m%xbar - want) > 1e-12_c_double * abs(want))) then
    print '("FAIL rank ", i0, ": the gradient")', rank
    mine = 0
  else if (info%limiting_rank /= ranks - 1 .or. combined%collectives /= 2) then
    print '("FAIL rank ", i0, ": limiting rank ", i0, ", ", i0, &
        & " collectives")', rank, info%limiting_rank, combined%collectives
    mine = 0
  end if
  call MPI_Allreduce(mine, every, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, &
      ierr)
  if (rank == 0 .and. every == 1) print '("ok: ", i0, " ranks agreed on ", &
      & i0, " slots (rank ", i0, " limits), ", i0, " forward steps")', &
      ranks, info%slots, info%limiting_rank, info%forward_cost
  call MPI_Finalize(ierr)
  if (every /= 1) error stop 1
end program fortran_mpi
