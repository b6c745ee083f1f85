! mpi_heat1d: a distributed adjoint in Fortran with uturn's MPI layer.
!
! A periodic 1-D reaction-diffusion model, u' = u + r (u_l - 2 u + u_r)
! - dt u**3 on 240 points, split evenly across the ranks (each rank holds
! its points; the callbacks exchange one point with each neighbour). The
! run is online: nobody knows the number of steps beforehand; it stops
! when the heat of a pulse reaches a probe (u > 1/5 at point 95, counted
! from 0), which only the rank holding that point can tell: its is_last
! says so, the others' say no, and the layer ends every rank at that
! step. uturn_mpi_plan_create agrees on the slots every rank's budget
! holds, uturn_mpi_run reverses the run on every rank.
! J = sum(u_n**2) / 2 over the whole grid; the program checks dJ/du_0
! against a central finite difference in one direction d and exits
! non-zero when they differ (|fd - <dJ/du_0, d>| > 1e-6 |<dJ/du_0, d>|).
!
! Build against an installed uturn (PREFIX, its libraries in LIBDIR):
!   mpif90 -c $PREFIX/share/uturn/fortran/uturn.f90 \
!     $PREFIX/share/uturn/fortran/uturn_mpi.f90
!   mpif90 mpi_heat1d.f90 uturn_mpi.o uturn.o -L$LIBDIR -luturn_mpi -luturn
!   mpirun -n 2 ./a.out
module heat1d
  use, intrinsic :: iso_c_binding
  use mpi
  implicit none
  integer, parameter :: points = 240
  real(c_double), parameter :: r = 0.25_c_double, dt = 0.005_c_double, &
      probe_end = 0.2_c_double
  integer, parameter :: probe = 95         ! the probe's global index
  integer(c_int64_t), parameter :: max_steps = 10000 ! the plan's bound
  type :: heat_t
    real(c_double), allocatable :: u(:), ubar(:)
    integer :: left, right   ! the neighbours' ranks
    integer :: probe = 0     ! the probe's local index, 0 if elsewhere
    real(c_double) :: J
  end type
contains
  ! The neighbours' points beside this rank's a: a(1) to the left rank,
  ! a(n) to the right one; lo from the left, hi from the right.
  subroutine halo(m, a, lo, hi)
    type(heat_t), intent(in) :: m
    real(c_double), intent(in) :: a(:)
    real(c_double), intent(out) :: lo, hi
    integer :: ierr
    call MPI_Sendrecv(a(size(a)), 1, MPI_DOUBLE_PRECISION, m%right, 1, lo, &
        1, MPI_DOUBLE_PRECISION, m%left, 1, MPI_COMM_WORLD, &
        MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(a(1), 1, MPI_DOUBLE_PRECISION, m%left, 2, hi, 1, &
        MPI_DOUBLE_PRECISION, m%right, 2, MPI_COMM_WORLD, &
        MPI_STATUS_IGNORE, ierr)
  end subroutine

  subroutine step(m)
    type(heat_t), intent(inout) :: m
    real(c_double) :: lo, hi
    integer :: n
    n = size(m%u)
    call halo(m, m%u, lo, hi)
    m%u = m%u + r * ([lo, m%u(1:n - 1)] - 2 * m%u + [m%u(2:n), hi]) &
        - dt * m%u**3
  end subroutine

  ! The callbacks: live u_step -> u_step+1; the turn at u_n; the adjoint
  ! step with u_step live; is_last after each step of the first sweep.
  function forward(user, k) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: k
    integer(c_int) :: rc
    type(heat_t), pointer :: m
    call c_f_pointer(user, m)
    call step(m)
    rc = merge(0, 1, k < max_steps)
  end function

  function turn(user) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int) :: rc
    type(heat_t), pointer :: m
    integer :: ierr
    call c_f_pointer(user, m)
    call MPI_Allreduce(sum(m%u**2) / 2, m%J, 1, MPI_DOUBLE_PRECISION, &
        MPI_SUM, MPI_COMM_WORLD, ierr)
    m%ubar = m%u
    rc = 0
  end function

  function adjoint(user, k) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: k
    integer(c_int) :: rc
    type(heat_t), pointer :: m
    real(c_double) :: lo, hi
    integer :: n
    call c_f_pointer(user, m)
    n = size(m%u)
    call halo(m, m%ubar, lo, hi)
    m%ubar = m%ubar * (1 - 2 * r - 3 * dt * m%u**2) &
        + r * ([lo, m%ubar(1:n - 1)] + [m%ubar(2:n), hi])
    rc = merge(0, 1, k < max_steps)
  end function

  function is_last(user, k) bind(c) result(last)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: k
    integer(c_int) :: last
    type(heat_t), pointer :: m
    call c_f_pointer(user, m)
    last = 0
    if (m%probe > 0 .and. k > 0) last = merge(1, 0, m%u(m%probe) > probe_end)
  end function

  ! u_0 on this rank's points (first the global index of its first one).
  function start(first, n) result(u)
    integer, intent(in) :: first, n
    real(c_double) :: u(n)
    integer :: i
    real(c_double), parameter :: pi = 4 * atan(1.0_c_double)
    u = [(0.1_c_double + 1.4_c_double * &
        exp(-800 * ((first + i + 0.5_c_double) / points - 0.3_c_double)**2) &
        + 0.02_c_double * sin(2 * pi * (first + i) / points), i = 0, n - 1)]
  end function

  ! J after n steps from u0, without the library.
  function objective(m, u0, n) result(J)
    type(heat_t), intent(inout) :: m
    real(c_double), intent(in) :: u0(:)
    integer(c_int64_t), intent(in) :: n
    real(c_double) :: J
    integer(c_int64_t) :: k
    integer :: ierr
    m%u = u0
    do k = 1, n
      call step(m)
    end do
    call MPI_Allreduce(sum(m%u**2) / 2, J, 1, MPI_DOUBLE_PRECISION, &
        MPI_SUM, MPI_COMM_WORLD, ierr)
  end function
end module heat1d

module heat1d_run
  use, intrinsic :: iso_c_binding
  use mpi
  use uturn
  use uturn_mpi
  use heat1d
  implicit none
contains
  ! Collective: plan online (12 states' worth of bytes on every rank, at
  ! most max_steps; a slot costs a little more than its state, as
  ! uturn_executor_slot_bytes says, so fewer than 12 slots) and reverse
  ! m's run; seen: this rank's counts.
  function reverse(m, seen, slots, err) result(st)
    type(heat_t), target, intent(inout) :: m
    type(uturn_stats_t), intent(inout) :: seen
    integer(c_int64_t), intent(out) :: slots
    type(uturn_error_t), intent(inout) :: err
    integer(c_int) :: st
    type(uturn_model_t) :: model
    type(uturn_problem_t) :: problem
    type(uturn_mpi_plan_info_t) :: info
    type(c_ptr) :: ex, plan
    call uturn_model_init(model)
    model%user = c_loc(m)
    model%forward = c_funloc(forward)
    model%turn = c_funloc(turn)
    model%adjoint = c_funloc(adjoint)
    model%is_last = c_funloc(is_last)
    model%state = c_loc(m%u)
    model%state_bytes = 8_c_int64_t * size(m%u)
    call uturn_problem_init(problem)
    problem%planner = UTURN_PLANNER_ONLINE
    problem%max_steps = max_steps
    problem%slot_bytes = model%state_bytes
    problem%budget_bytes = 12 * model%state_bytes
    call uturn_mpi_plan_info_init(info)
    plan = c_null_ptr
    st = uturn_executor_create(c_null_ptr, ex, err)
    if (st == UTURN_OK) st = uturn_mpi_plan_create(MPI_COMM_WORLD, ex, &
        problem, out=plan, info=info, error=err)
    if (st == UTURN_OK) st = uturn_mpi_run(plan, ex, model, observed=seen, &
        error=err)
    slots = info%slots
    call uturn_mpi_plan_free(plan)
    call uturn_executor_free(ex)
  end function
end module heat1d_run

program mpi_heat1d
  use, intrinsic :: iso_c_binding
  use mpi
  use uturn
  use heat1d
  use heat1d_run
  implicit none
  real(c_double), parameter :: eps = 1e-6_c_double
  type(heat_t), target :: m
  type(uturn_stats_t) :: seen
  type(uturn_error_t) :: err
  integer(c_int64_t) :: slots
  integer(c_int) :: st
  integer :: rank, ranks, ierr, n, i
  real(c_double), allocatable :: u0(:), d(:)
  real(c_double) :: dot, fd

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  n = points / ranks
  if (n * ranks /= points) error stop "the ranks must divide 240"
  m%left = modulo(rank - 1, ranks)
  m%right = modulo(rank + 1, ranks)
  if (probe / n == rank) m%probe = probe - rank * n + 1
  allocate(u0(n), d(n), m%u(n), m%ubar(n))
  u0 = start(rank * n, n)
  d = [(cos(0.37_c_double * (rank * n + i)), i = 1, n)]
  m%u = u0
  call uturn_stats_init(seen)
  call uturn_error_init(err)
  st = reverse(m, seen, slots, err)
  if (st /= UTURN_OK) then
    print '("FAIL rank ", i0, ": ", a)', rank, uturn_error_message(err)
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  call MPI_Allreduce(sum(m%ubar * d), dot, 1, MPI_DOUBLE_PRECISION, &
      MPI_SUM, MPI_COMM_WORLD, ierr)
  fd = (objective(m, u0 + eps * d, seen%steps) - &
      objective(m, u0 - eps * d, seen%steps)) / (2 * eps)
  if (rank == 0) then
    print '(i0, " ranks: the heat reached the probe after ", i0, &
        &" steps; ", i0, " slots, ", i0, " forward steps")', ranks, &
        seen%steps, slots, seen%forward_steps
    print '("J = ", f0.12, ", <dJ/du0, d> = ", f12.10, &
        &", finite difference ", f12.10)', m%J, dot, fd
  end if
  if (abs(fd - dot) > 1e-6_c_double * abs(dot)) then
    if (rank == 0) print '("FAIL: the gradient and the finite difference")'
    error stop 1
  end if
  call MPI_Finalize(ierr)
end program mpi_heat1d
