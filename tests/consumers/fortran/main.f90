! A Fortran consumer: three chains x_{i+1} = x_i / (1 + h_k x_i), reversed
! by the uturn executor (revolve, 4 slots) with callbacks written in
! Fortran. Since x_n = x_0 / (1 + n h x_0), J = sum(x_n**2) / 2 has the
! gradient dJ/dx_{0,k} = x_{n,k} / (1 + n h_k x_{0,k})**2.
module chains
  use, intrinsic :: iso_c_binding
  implicit none
  integer(c_int64_t), parameter :: steps = 600
  real(c_double), parameter :: h(3) = [0.01_c_double, 0.02_c_double, &
      0.005_c_double]
  type :: chains_t
    real(c_double) :: x(3), xbar(3), J
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
    m%J = sum(m%x**2) / 2
    m%xbar = m%x
    rc = 0
  end function

  function adjoint(user, step) bind(c) result(rc)   ! m%x holds x_step
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    type(chains_t), pointer :: m
    call c_f_pointer(user, m)
    m%xbar = m%xbar / (1 + h * m%x)**2
    rc = merge(0, 1, step < steps)
  end function
end module chains

program consumer
  use, intrinsic :: iso_c_binding
  use uturn
  use chains
  implicit none
  real(c_double), parameter :: x0(3) = [1.0_c_double, 0.5_c_double, &
      3.0_c_double]
  type(chains_t), target :: m
  type(uturn_problem_t) :: problem
  type(uturn_model_t) :: model
  type(uturn_stats_t) :: stats
  type(uturn_error_t) :: err
  type(c_ptr) :: ex, plan
  integer(c_int) :: st
  real(c_double) :: s(3), want(3)
  logical :: ok

  m%x = x0
  call uturn_error_init(err)
  call uturn_stats_init(stats)
  call uturn_problem_init(problem)
  problem%planner = UTURN_PLANNER_REVOLVE
  problem%steps = steps
  problem%slots = 4
  problem%slot_bytes = c_sizeof(m%x)
  call uturn_model_init(model)
  model%user = c_loc(m)
  model%forward = c_funloc(forward)
  model%turn = c_funloc(turn)
  model%adjoint = c_funloc(adjoint)
  model%state = c_loc(m%x)
  model%state_bytes = c_sizeof(m%x)

  plan = c_null_ptr
  st = uturn_executor_create(c_null_ptr, ex, err)
  if (st == UTURN_OK) st = uturn_executor_plan(ex, problem, plan, err)
  if (st == UTURN_OK) st = uturn_executor_run(ex, plan, model, &
      observed=stats, error=err)
  call uturn_plan_free(plan)
  call uturn_executor_free(ex)
  if (st /= UTURN_OK) then
    print '(a, ": ", a)', uturn_string(uturn_status_name(st)), &
        uturn_error_message(err)
    error stop 1
  end if

  s = 1 + steps * h * x0
  want = (x0 / s) / s**2
  ok = all(abs(m%xbar - want) <= 1e-12_c_double * abs(want))
  print '("uturn ", a, " from Fortran: J = ", f17.15)', uturn_version(), m%J
  print '("dJ/dx0   = ", 3es22.14)', m%xbar
  print '("analytic = ", 3es22.14)', want
  print '("forward_steps ", i0, ", stores ", i0, ", peak_slots ", i0)', &
      stats%forward_steps, stats%stores, stats%peak_slots
  if (.not. ok) then
    print '(a)', "FAIL"
    error stop 1
  end if
  print '(a)', "ok"
end program consumer
