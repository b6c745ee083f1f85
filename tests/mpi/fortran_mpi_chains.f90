! The model and the independent truth of tests/mpi/fortran_mpi.f90: rank
! r holds 100 (r + 1) chains x_{i+1} = x_i / (1 + h x_i), with callbacks
! written in Fortran and a criterion (is_last) that holds from a step the
! program chooses. The truth is computed here without the library: a
! store-all sweep (every state kept, then the adjoint backwards), the
! closed form dJ/dx_0 = x_n / (1 + n h x_0)**2 of J = sum(x_n**2) / 2, and
! t(l, s), the least forward steps of docs/model.md section 4.
module fortran_mpi_chains
  use, intrinsic :: iso_c_binding
  use mpi
  use uturn
  implicit none
  integer(c_int64_t), parameter :: steps = 400   ! the chain's length
  real(c_double), parameter :: h = 0.01_c_double
  type :: chains_t
    real(c_double), allocatable :: x(:), xbar(:), x0(:)
    integer(c_int64_t) :: ends = huge(0_c_int64_t) ! is_last from here on
    integer(c_int64_t) :: asked = 0, last_asked = -1
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

  function is_last(user, step) bind(c) result(last)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: last
    type(chains_t), pointer :: m
    call c_f_pointer(user, m)
    m%asked = m%asked + 1
    m%last_asked = step
    last = merge(1, 0, step >= m%ends)
  end function

  ! This rank's chains at x_0, and a model of them (no criterion).
  subroutine chains_start(m, rank, model)
    type(chains_t), target, intent(inout) :: m
    integer, intent(in) :: rank
    type(uturn_model_t), intent(out) :: model
    integer :: i, n
    n = 100 * (rank + 1)
    if (.not. allocated(m%x)) allocate(m%x(n), m%xbar(n), m%x0(n))
    m%x0 = [(1 + 0.01_c_double * i, i = 1, n)]
    m%x = m%x0
    m%xbar = 0
    m%asked = 0
    m%last_asked = -1
    call uturn_model_init(model)
    model%user = c_loc(m)
    model%forward = c_funloc(forward)
    model%turn = c_funloc(turn)
    model%adjoint = c_funloc(adjoint)
    model%state = c_loc(m%x)
    model%state_bytes = 8_c_int64_t * n
  end subroutine

  ! The gradient of n steps from x0, every state kept.
  function store_all(x0, n) result(xbar)
    real(c_double), intent(in) :: x0(:)
    integer(c_int64_t), intent(in) :: n
    real(c_double) :: xbar(size(x0)), x(size(x0))
    real(c_double), allocatable :: kept(:, :)
    integer(c_int64_t) :: i
    allocate(kept(size(x0), 0:n - 1))
    x = x0
    do i = 0, n - 1
      kept(:, i) = x
      x = x / (1 + h * x)
    end do
    xbar = x
    do i = n - 1, 0, -1
      xbar = xbar / (1 + h * kept(:, i))**2
    end do
  end function

  ! dJ/dx_0 of n steps: x_n / (1 + n h x_0)**2, x_n = x_0 / (1 + n h x_0).
  function closed_form(x0, n) result(xbar)
    real(c_double), intent(in) :: x0(:)
    integer(c_int64_t), intent(in) :: n
    real(c_double) :: xbar(size(x0))
    xbar = (x0 / (1 + n * h * x0)) / (1 + n * h * x0)**2
  end function

  function close_to(a, b) result(close)
    real(c_double), intent(in) :: a(:), b(:)
    logical :: close
    close = all(abs(a - b) <= 1e-12_c_double * abs(b))
  end function

  function same_bits(a, b) result(same)
    real(c_double), intent(in) :: a(:), b(:)
    logical :: same
    same = size(a) == size(b)
    if (same) same = all(transfer(a, 0_c_int64_t, size(a)) == &
        transfer(b, 0_c_int64_t, size(b)))
  end function

  function choose(a, b) result(r)
    integer(c_int64_t), intent(in) :: a, b
    integer(c_int64_t) :: r, i, k
    r = 0
    if (b > a) return
    k = min(b, a - b)
    r = 1
    do i = 1, k
      r = r * (a - k + i) / i
    end do
  end function

  ! t(l, s) = r l - C(s + r, s + 1), r the least with C(s + r, s) >= l;
  ! t(n + 1, s) is the least forward_steps of any plan for n steps with s
  ! slots (docs/model.md section 4).
  function t(l, s) result(cost)
    integer(c_int64_t), intent(in) :: l, s
    integer(c_int64_t) :: cost, r
    cost = 0
    if (l <= 1) return
    if (s == 1) then
      cost = l * (l - 1) / 2
      return
    end if
    r = 0
    do while (choose(s + r, s) < l)
      r = r + 1
    end do
    cost = r * l - choose(s + r, s + 1)
  end function

  ! Whether every rank passed; prints this rank's failure.
  function agreed(rank, what, passed) result(every)
    integer, intent(in) :: rank
    character(len=*), intent(in) :: what
    logical, intent(in) :: passed
    logical :: every
    integer :: ierr
    if (.not. passed) print '("FAIL rank ", i0, ": ", a)', rank, what
    call MPI_Allreduce(passed, every, 1, MPI_LOGICAL, MPI_LAND, &
        MPI_COMM_WORLD, ierr)
  end function

  function least(v) result(low)
    integer(c_int64_t), intent(in) :: v
    integer(c_int64_t) :: low
    integer :: ierr
    call MPI_Allreduce(v, low, 1, MPI_INTEGER8, MPI_MIN, MPI_COMM_WORLD, ierr)
  end function

  function summed(v) result(total)
    integer(c_int64_t), intent(in) :: v
    integer(c_int64_t) :: total
    integer :: ierr
    call MPI_Allreduce(v, total, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, &
        ierr)
  end function

  function failure(st, err) result(text)
    integer(c_int), intent(in) :: st
    type(uturn_error_t), intent(in) :: err
    character(len=:), allocatable :: text
    text = uturn_string(uturn_status_name(st)) // ": " // &
        uturn_error_message(err)
  end function
end module fortran_mpi_chains
