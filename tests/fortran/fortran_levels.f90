! Storage levels from Fortran (ctest fortran_levels), against independent
! truth: hrevolve's costs for docs/model.md's reference cases (284, 2755,
! 938; memory alone t(101, 5) = 320 from the closed form), and every
! plan's cost equal to its forward cost plus each level's writes and
! reads; runs through memory and a file level (overlapped and
! synchronous), a user level whose callbacks are Fortran, and all three,
! each with the gradient of a hand-written store-everything adjoint bit
! for bit, and each level's report equal to the plan's level stats and
! to what the Fortran callbacks counted; capacities in bytes resolved as
! uturn_executor_level_slots() says; an online plan over memory and a
! file level, its gradient bit for bit and its cost as
! uturn_plan_online_cost() predicts. Every failure prints "FAIL: what"
! and the program ends with error stop.
module levels_model
  use, intrinsic :: iso_c_binding
  use uturn
  implicit none
  integer :: failures = 0
  integer, parameter :: dim = 37    ! 296 bytes, not a multiple of 16
  type :: sim_t
    real(c_double) :: x(dim), xbar(dim)
  end type
  ! A user level: states kept in a Fortran array, every call counted.
  type :: shelf_t
    real(c_double), allocatable :: kept(:, :)
    integer(c_int64_t), allocatable :: kept_step(:)
    integer(c_int64_t) :: opens = 0, ids = 0, region_bytes = 0, puts = 0, &
        gets = 0, drops = 0, closes = 0, bytes_put = 0, bytes_got = 0, &
        wrong = 0
  end type
contains
  subroutine ok(what, cond)
    character(len=*), intent(in) :: what
    logical, intent(in) :: cond
    if (.not. cond) then
      print '("FAIL: ", a)', what
      failures = failures + 1
    end if
  end subroutine

  function same_bits(a, b) result(same)
    real(c_double), intent(in) :: a(:), b(:)
    logical :: same
    same = size(a) == size(b)
    if (same) same = all(transfer(a, 0_c_int64_t, size(a)) == &
        transfer(b, 0_c_int64_t, size(b)))
  end function

  ! F: x_j += 0.01 sin(x_{j+1}) x_j (cyclic), and its adjoint.
  pure function step(x) result(y)
    real(c_double), intent(in) :: x(dim)
    real(c_double) :: y(dim)
    y = x + 0.01_c_double * sin(cshift(x, 1)) * x
  end function

  pure function step_bar(x, ybar) result(xbar)
    real(c_double), intent(in) :: x(dim), ybar(dim)
    real(c_double) :: xbar(dim)
    xbar = ybar * (1 + 0.01_c_double * sin(cshift(x, 1)))
    xbar = xbar + cshift(ybar * 0.01_c_double * x, -1) * cos(x)
  end function

  subroutine start(x)
    real(c_double), intent(out) :: x(dim)
    integer :: j
    x = [(0.5_c_double + 0.01_c_double * (j - 1), j = 1, dim)]
  end subroutine

  ! The truth: every state kept, reversed by hand.
  function reference(n) result(grad)
    integer(c_int64_t), intent(in) :: n
    real(c_double) :: grad(dim)
    real(c_double), allocatable :: xs(:, :)
    integer(c_int64_t) :: i
    allocate(xs(dim, 0:n))
    call start(xs(:, 0))
    do i = 0, n - 1
      xs(:, i + 1) = step(xs(:, i))
    end do
    grad = 2 * xs(:, n)
    do i = n - 1, 0, -1
      grad = step_bar(xs(:, i), grad)
    end do
  end function

  function sim_forward(user, i) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: i
    integer(c_int) :: rc
    type(sim_t), pointer :: s
    call c_f_pointer(user, s)
    s%x = step(s%x)
    rc = merge(0, 1, i >= 0)
  end function

  function sim_turn(user) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int) :: rc
    type(sim_t), pointer :: s
    call c_f_pointer(user, s)
    s%xbar = 2 * s%x              ! J = |x_n|**2
    rc = 0
  end function

  function sim_adjoint(user, i) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: i
    integer(c_int) :: rc
    type(sim_t), pointer :: s
    call c_f_pointer(user, s)
    s%xbar = step_bar(s%x, s%xbar)
    rc = merge(0, 1, i >= 0)
  end function

  function shelf_open(user, ids, bytes) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: ids, bytes
    integer(c_int) :: rc
    type(shelf_t), pointer :: sh
    call c_f_pointer(user, sh)
    sh%opens = sh%opens + 1
    sh%ids = ids
    sh%region_bytes = bytes
    allocate(sh%kept(dim, 0:ids - 1), sh%kept_step(0:ids - 1))
    sh%kept_step = -1
    rc = 0
  end function

  function shelf_put(user, id, step, src, bytes) bind(c) result(rc)
    type(c_ptr), value :: user, src
    integer(c_int64_t), value :: id, step, bytes
    integer(c_int) :: rc
    type(shelf_t), pointer :: sh
    real(c_double), pointer :: state(:)
    call c_f_pointer(user, sh)
    rc = 1
    if (id < 0 .or. id >= sh%ids .or. bytes /= 8 * dim) return
    call c_f_pointer(src, state, [dim])
    sh%kept(:, id) = state
    sh%kept_step(id) = step
    sh%puts = sh%puts + 1
    sh%bytes_put = sh%bytes_put + bytes
    rc = 0
  end function

  function shelf_get(user, id, step, dst, bytes) bind(c) result(rc)
    type(c_ptr), value :: user, dst
    integer(c_int64_t), value :: id, step, bytes
    integer(c_int) :: rc
    type(shelf_t), pointer :: sh
    real(c_double), pointer :: state(:)
    call c_f_pointer(user, sh)
    rc = 1
    if (id < 0 .or. id >= sh%ids .or. bytes /= 8 * dim) return
    if (sh%kept_step(id) /= step) sh%wrong = sh%wrong + 1
    call c_f_pointer(dst, state, [dim])
    state = sh%kept(:, id)
    sh%gets = sh%gets + 1
    sh%bytes_got = sh%bytes_got + bytes
    rc = 0
  end function

  subroutine shelf_drop(user, id) bind(c)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: id
    type(shelf_t), pointer :: sh
    call c_f_pointer(user, sh)
    sh%drops = sh%drops + 1
    if (id >= 0 .and. id < sh%ids) sh%kept_step(id) = -1
  end subroutine

  subroutine shelf_close(user) bind(c)
    type(c_ptr), value :: user
    type(shelf_t), pointer :: sh
    call c_f_pointer(user, sh)
    sh%closes = sh%closes + 1
    if (allocated(sh%kept)) deallocate(sh%kept, sh%kept_step)
  end subroutine
end module levels_model

program fortran_levels
  use levels_model
  implicit none
  character(kind=c_char, len=4), target :: mem_name = "mem" // c_null_char
  character(kind=c_char, len=5), target :: disk_name = "disk" // c_null_char
  character(kind=c_char, len=2), target :: here = "." // c_null_char

  call defaults()
  call reference_costs()
  call runs_through_levels()
  call online_over_levels()
  call capacities_in_bytes()
  call refusals()
  if (failures /= 0) then
    print '(i0, " FAILED")', failures
    error stop 1
  end if
  print '(a)', "ok: storage levels from Fortran: hrevolve's costs, &
      &gradients and level reports"

contains

  subroutine defaults()
    type(uturn_level_t) :: lv
    type(uturn_storage_t) :: st
    type(uturn_executor_options_t) :: o
    type(uturn_level_report_t) :: lr
    type(uturn_level_stats_t) :: ls
    type(uturn_storage_callbacks_t) :: cb
    call uturn_level_init(lv)
    call uturn_storage_init(st)
    call uturn_executor_options_init(o)
    call uturn_level_report_init(lr)
    call uturn_level_stats_init(ls)
    call uturn_storage_callbacks_init(cb)
    call ok("each init records its mirror's size", &
        lv%size == c_sizeof(lv) .and. st%size == c_sizeof(st) .and. &
        o%size == c_sizeof(o) .and. lr%size == c_sizeof(lr) .and. &
        ls%size == c_sizeof(ls) .and. cb%size == c_sizeof(cb))
    call ok("a storage is a file level in $TMPDIR by default", &
        st%kind == UTURN_STORAGE_FILE .and. &
        .not. c_associated(st%directory) .and. .not. st%synchronous)
    call ok("a level is all 0 by default", lv%slots == 0 .and. &
        lv%bytes == 0 .and. lv%write_cost == 0 .and. &
        .not. c_associated(lv%name))
    call ok("no levels and default buffers by default", &
        o%level_count == 0 .and. o%io_buffers == 0 .and. &
        .not. c_associated(o%levels))
  end subroutine

  ! A level of `slots` slots, each store costing w and each restore r.
  function level(slots, w, r, name) result(lv)
    integer(c_int64_t), intent(in) :: slots, w, r
    type(c_ptr), intent(in) :: name
    type(uturn_level_t) :: lv
    call uturn_level_init(lv)
    lv%slots = slots
    lv%write_cost = w
    lv%read_cost = r
    lv%name = name
  end function

  function hrevolve_plan(n, levels) result(plan)
    integer(c_int64_t), intent(in) :: n
    type(uturn_level_t), intent(in), target, contiguous :: levels(:)
    type(c_ptr) :: plan
    type(uturn_problem_t) :: p
    type(uturn_error_t) :: err
    integer(c_int) :: st
    call uturn_problem_init(p)
    call uturn_error_init(err)
    p%planner = UTURN_PLANNER_HREVOLVE
    p%steps = n
    p%levels = c_loc(levels)
    p%level_count = size(levels)
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    call ok("an hrevolve plan: " // uturn_error_message(err), st == UTURN_OK)
  end function

  ! The plan's cost, and its consistency: stats%levels levels whose
  ! stores and restores add up to the plan's, and a cost that is the
  ! forward cost plus every write and read at the levels' costs.
  function checked_cost(plan, what) result(cost)
    type(c_ptr), intent(in) :: plan
    character(len=*), intent(in) :: what
    integer(c_int64_t) :: cost
    type(uturn_stats_t) :: s
    type(uturn_level_stats_t) :: ls
    integer(c_int64_t) :: k, stores, restores, io
    integer(c_int) :: st
    call uturn_stats_init(s)
    st = uturn_plan_stats(plan, s)
    stores = 0
    restores = 0
    io = 0
    do k = 0, s%levels - 1
      call uturn_level_stats_init(ls)
      st = uturn_plan_level_stats(plan, k, ls)
      call ok(what // ": level stats", st == UTURN_OK .and. &
          ls%peak_slots <= ls%slots)
      stores = stores + ls%stores
      restores = restores + ls%restores
      io = io + ls%stores * ls%write_cost + ls%restores * ls%read_cost
    end do
    call ok(what // ": the levels' stores and restores are the plan's", &
        stores == s%stores .and. restores == s%restores)
    call ok(what // ": cost = forward cost + writes + reads", &
        s%cost == s%forward_cost + io)
    cost = s%cost
  end function

  subroutine reference_costs()
    type(c_ptr) :: plan
    type(uturn_level_stats_t) :: ls
    type(uturn_stats_t) :: s
    integer(c_int) :: st
    integer(c_int64_t) :: cost

    plan = hrevolve_plan(100_c_int64_t, [level(5_c_int64_t, 0_c_int64_t, &
        0_c_int64_t, c_loc(mem_name)), level(100_c_int64_t, 5_c_int64_t, &
        5_c_int64_t, c_loc(disk_name))])
    cost = checked_cost(plan, "n 100, mem 5, disk 100")
    call ok("n 100, mem 5, disk 100 (w = r = 5): cost 284", cost == 284)
    call uturn_level_stats_init(ls)
    st = uturn_plan_level_stats(plan, 1_c_int64_t, ls)
    call ok("the disk level's name and capacity", st == UTURN_OK .and. &
        uturn_string(ls%name) == "disk" .and. ls%slots == 100 .and. &
        ls%write_cost == 5 .and. ls%stores > 0)
    st = uturn_plan_level_stats(plan, 2_c_int64_t, ls)
    call ok("no level 2", st == UTURN_E_INVALID_ARG)
    st = uturn_plan_level_stats(plan, -1_c_int64_t, ls)
    call ok("no level -1 (2**64-1)", st == UTURN_E_INVALID_ARG)
    call uturn_plan_free(plan)

    plan = hrevolve_plan(1000_c_int64_t, [level(10_c_int64_t, 0_c_int64_t, &
        0_c_int64_t, c_null_ptr), level(170_c_int64_t, 5_c_int64_t, &
        5_c_int64_t, c_null_ptr)])
    cost = checked_cost(plan, "n 1000, mem 10, disk 170")
    call ok("n 1000, mem 10, disk 170 (w = r = 5): cost 2755", cost == 2755)
    call uturn_level_stats_init(ls)
    st = uturn_plan_level_stats(plan, 0_c_int64_t, ls)
    call ok("an unnamed level is levelK", uturn_string(ls%name) == "level0")
    call uturn_plan_free(plan)

    plan = hrevolve_plan(300_c_int64_t, [level(4_c_int64_t, 0_c_int64_t, &
        0_c_int64_t, c_null_ptr), level(8_c_int64_t, 2_c_int64_t, &
        2_c_int64_t, c_null_ptr), level(16_c_int64_t, 10_c_int64_t, &
        10_c_int64_t, c_null_ptr)])
    cost = checked_cost(plan, "n 300, three levels")
    call ok("n 300, mem 4, 8 (w = r = 2), 16 (w = r = 10): cost 938", &
        cost == 938)
    call uturn_plan_free(plan)

    ! Memory alone is revolve: t(101, 5) = 4 * 101 - C(9, 6) = 320
    ! (r = 4, the least with C(5 + r, 5) >= 101).
    plan = hrevolve_plan(100_c_int64_t, [level(5_c_int64_t, 0_c_int64_t, &
        0_c_int64_t, c_null_ptr)])
    cost = checked_cost(plan, "n 100, mem 5")
    call uturn_stats_init(s)
    st = uturn_plan_stats(plan, s)
    call ok("memory alone: cost = forward steps = t(101, 5) = 320", &
        cost == 4 * 101 - 84 .and. s%forward_steps == 320 .and. &
        s%levels == 1)
    call uturn_plan_free(plan)
  end subroutine

  ! An executor whose levels past memory are the storages given.
  function open_executor(storages, io_buffers) result(ex)
    type(uturn_storage_t), intent(in), target, contiguous :: storages(:)
    integer(c_int64_t), intent(in) :: io_buffers
    type(c_ptr) :: ex
    type(uturn_executor_options_t) :: o
    type(uturn_error_t) :: err
    integer(c_int) :: st
    call uturn_executor_options_init(o)
    call uturn_error_init(err)
    o%levels = c_loc(storages)
    o%level_count = size(storages)
    o%io_buffers = io_buffers
    st = uturn_executor_open_checked(o, ex, err)
    call ok("an executor with levels: " // uturn_error_message(err), &
        st == UTURN_OK)
  end function

  function file_level(synchronous) result(storage)
    logical, intent(in) :: synchronous
    type(uturn_storage_t) :: storage
    call uturn_storage_init(storage)
    storage%kind = UTURN_STORAGE_FILE
    storage%directory = c_loc(here)      ! the test's work directory
    storage%synchronous = logical(synchronous, c_bool)
  end function

  function user_level(callbacks) result(storage)
    type(uturn_storage_callbacks_t), intent(in), target :: callbacks
    type(uturn_storage_t) :: storage
    call uturn_storage_init(storage)
    storage%kind = UTURN_STORAGE_USER
    storage%callbacks = c_loc(callbacks)
  end function

  ! Run plan on ex; the gradient against the hand-written adjoint, each
  ! level's report against the plan's level stats.
  subroutine run_and_compare(what, ex, plan, n, rep)
    character(len=*), intent(in) :: what
    type(c_ptr), intent(in) :: ex, plan
    integer(c_int64_t), intent(in) :: n
    type(uturn_report_t), intent(inout) :: rep
    type(sim_t), target :: s
    type(uturn_model_t) :: model
    type(uturn_stats_t) :: seen, ps
    type(uturn_level_stats_t) :: ls
    type(uturn_level_report_t) :: lr
    type(uturn_error_t) :: err
    integer(c_int) :: st
    integer(c_int64_t) :: k
    character(len=16) :: at
    call start(s%x)
    call uturn_model_init(model)
    model%user = c_loc(s)
    model%forward = c_funloc(sim_forward)
    model%turn = c_funloc(sim_turn)
    model%adjoint = c_funloc(sim_adjoint)
    model%state = c_loc(s%x)
    model%state_bytes = c_sizeof(s%x)
    call uturn_stats_init(seen)
    call uturn_report_init(rep)
    call uturn_error_init(err)
    st = uturn_executor_run_checked(ex, plan, model, observed=seen, &
        report=rep, error=err)
    call ok(what // ": the run: " // uturn_error_message(err), st == UTURN_OK)
    call ok(what // ": the hand-written adjoint's gradient, bit for bit", &
        same_bits(s%xbar, reference(n)))
    call uturn_stats_init(ps)
    st = uturn_plan_stats(plan, ps)
    call ok(what // ": the plan's counts", seen%forward_steps == &
        ps%forward_steps .and. seen%stores == ps%stores)
    do k = 0, ps%levels - 1
      write (at, '(" level ", i0)') k
      call uturn_level_stats_init(ls)
      call uturn_level_report_init(lr)
      st = uturn_plan_level_stats(plan, k, ls)
      st = uturn_executor_level_report(ex, k, lr)
      call ok(what // trim(at) // ": the report is the plan's level stats", &
          st == UTURN_OK .and. lr%stores == ls%stores .and. &
          lr%restores == ls%restores .and. lr%peak_slots == ls%peak_slots)
      ! Memory's copies are not counted in bytes (its report has 0).
      if (k > 0) call ok(what // trim(at) // ": bytes written and read", &
          lr%bytes_written == ls%stores * c_sizeof(s%x) .and. &
          lr%bytes_read == ls%restores * c_sizeof(s%x))
    end do
    st = uturn_executor_level_report(ex, ps%levels, lr)
    call ok(what // ": no report past the levels", st == UTURN_E_INVALID_ARG)
  end subroutine

  subroutine runs_through_levels()
    integer(c_int64_t), parameter :: n = 100
    type(uturn_level_stats_t) :: ls
    type(c_ptr) :: plan
    integer(c_int) :: st
    plan = hrevolve_plan(n, [level(5_c_int64_t, 0_c_int64_t, 0_c_int64_t, &
        c_loc(mem_name)), level(100_c_int64_t, 5_c_int64_t, 5_c_int64_t, &
        c_loc(disk_name))])
    call uturn_level_stats_init(ls)
    st = uturn_plan_level_stats(plan, 1_c_int64_t, ls)
    call runs_through_files(plan, n)
    call runs_through_user_levels(plan, n, ls)
    call uturn_plan_free(plan)
  end subroutine

  ! Online over memory (4 slots) and a file level (16, w = r = 2), the
  ! first sweep ended by max_steps: the hand-written adjoint's gradient
  ! bit for bit, and uturn_plan_online_cost the realised cost, forward
  ! steps plus 2 per write and read of the file level (its report's).
  subroutine online_over_levels()
    integer(c_int64_t), parameter :: n = 150
    type(uturn_level_t), target :: lv(2)
    type(uturn_problem_t) :: p
    type(sim_t), target :: s
    type(uturn_model_t) :: model
    type(uturn_stats_t) :: seen
    type(uturn_level_report_t) :: lr
    type(uturn_error_t) :: err
    type(c_ptr) :: ex, plan
    integer(c_int) :: st
    integer(c_int64_t) :: cost
    lv = [level(4_c_int64_t, 0_c_int64_t, 0_c_int64_t, c_null_ptr), &
        level(16_c_int64_t, 2_c_int64_t, 2_c_int64_t, c_null_ptr)]
    call uturn_problem_init(p)
    p%planner = UTURN_PLANNER_ONLINE
    p%steps = 0
    p%max_steps = n
    p%levels = c_loc(lv)
    p%level_count = 2
    call uturn_error_init(err)
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    call ok("online over levels: planned: " // uturn_error_message(err), &
        st == UTURN_OK)
    ex = open_executor([file_level(.false.)], 0_c_int64_t)
    call start(s%x)
    call uturn_model_init(model)
    model%user = c_loc(s)
    model%forward = c_funloc(sim_forward)
    model%turn = c_funloc(sim_turn)
    model%adjoint = c_funloc(sim_adjoint)
    model%state = c_loc(s%x)
    model%state_bytes = c_sizeof(s%x)
    call uturn_stats_init(seen)
    st = uturn_executor_run_checked(ex, plan, model, observed=seen, error=err)
    call ok("online over levels: the run: " // uturn_error_message(err), &
        st == UTURN_OK .and. seen%steps == n)
    call ok("online over levels: the hand-written adjoint's gradient", &
        same_bits(s%xbar, reference(n)))
    call uturn_level_report_init(lr)
    st = uturn_executor_level_report(ex, 1_c_int64_t, lr)
    call ok("online over levels: the file level is used", lr%stores > 0)
    st = uturn_plan_online_cost(plan, n, cost, err)
    call ok("online over levels: uturn_plan_online_cost", st == UTURN_OK &
        .and. cost == seen%forward_steps + 2 * (lr%stores + lr%restores))
    call uturn_executor_free(ex)
    call uturn_plan_free(plan)
  end subroutine

  ! A file level, overlapped (3 buffers) and synchronous.
  subroutine runs_through_files(plan, n)
    type(c_ptr), intent(in) :: plan
    integer(c_int64_t), intent(in) :: n
    type(uturn_level_report_t) :: lr
    type(uturn_report_t) :: rep
    integer(c_int64_t) :: stride
    type(c_ptr) :: ex
    integer(c_int) :: st
    ex = open_executor([file_level(.false.)], 3_c_int64_t)
    call run_and_compare("memory and a file", ex, plan, n, rep)
    st = uturn_executor_slot_bytes_checked(ex, int(8 * dim, c_int64_t), stride)
    call ok("memory and a file: 3 I/O buffers of a slot each", &
        rep%io_buffer_bytes == 3 * stride)
    call uturn_level_report_init(lr)
    st = uturn_executor_level_report(ex, 1_c_int64_t, lr)
    call ok("memory and a file: overlapped", logical(lr%overlapped))
    call uturn_executor_free(ex)
    ex = open_executor([file_level(.true.)], 0_c_int64_t)
    call run_and_compare("memory and a synchronous file", ex, plan, n, rep)
    call uturn_level_report_init(lr)
    st = uturn_executor_level_report(ex, 1_c_int64_t, lr)
    call ok("a synchronous file: not overlapped", .not. lr%overlapped .and. &
        lr%stores > 0)
    call uturn_executor_free(ex)
  end subroutine

  ! A user level of Fortran callbacks (ls: plan's level 1), then all
  ! three: n 300 over memory 4, a file (w = r = 2), the user level.
  subroutine runs_through_user_levels(plan, n, ls)
    type(c_ptr), intent(in) :: plan
    integer(c_int64_t), intent(in) :: n
    type(uturn_level_stats_t), intent(inout) :: ls
    integer(c_int64_t), parameter :: n3 = 300
    type(uturn_storage_callbacks_t), target :: cb
    type(shelf_t), target :: sh
    type(uturn_report_t) :: rep
    type(c_ptr) :: ex, plan3
    integer(c_int) :: st
    call uturn_storage_callbacks_init(cb)
    cb%user = c_loc(sh)
    cb%open = c_funloc(shelf_open)
    cb%put = c_funloc(shelf_put)
    cb%get = c_funloc(shelf_get)
    cb%drop = c_funloc(shelf_drop)
    cb%close = c_funloc(shelf_close)
    ex = open_executor([user_level(cb)], 0_c_int64_t)
    call run_and_compare("memory and a user level", ex, plan, n, rep)
    call ok("the user level: opened and closed once, for its peak", &
        sh%opens == 1 .and. sh%closes == 1 .and. sh%ids >= ls%peak_slots &
        .and. sh%region_bytes >= sh%ids * 8 * dim)
    call ok("the user level: a put per store, a get per restore", &
        sh%puts == ls%stores .and. sh%gets == ls%restores .and. &
        sh%bytes_put == ls%stores * 8 * dim .and. sh%wrong == 0)
    call uturn_executor_free(ex)
    sh%opens = 0
    sh%puts = 0
    plan3 = hrevolve_plan(n3, [level(4_c_int64_t, 0_c_int64_t, 0_c_int64_t, &
        c_null_ptr), level(8_c_int64_t, 2_c_int64_t, 2_c_int64_t, &
        c_null_ptr), level(16_c_int64_t, 10_c_int64_t, 10_c_int64_t, &
        c_null_ptr)])
    ex = open_executor([file_level(.false.), user_level(cb)], 0_c_int64_t)
    call run_and_compare("memory, a file and a user level", ex, plan3, n3, &
        rep)
    call uturn_level_stats_init(ls)
    st = uturn_plan_level_stats(plan3, 2_c_int64_t, ls)
    call ok("three levels: the user level's puts", sh%opens == 1 .and. &
        sh%puts == ls%stores)
    call uturn_executor_free(ex)
    call uturn_plan_free(plan3)
  end subroutine

  ! A further level's bytes are whole strides of slot_bytes; memory in
  ! slots is as given; the executor's plan has those capacities.
  subroutine capacities_in_bytes()
    type(uturn_level_t), target :: lv(2)
    type(uturn_problem_t) :: p
    type(uturn_level_stats_t) :: a, b
    type(uturn_error_t) :: err
    type(c_ptr) :: ex, plan
    integer(c_int64_t) :: stride, mem, disk
    integer(c_int) :: st
    ex = open_executor([file_level(.false.)], 0_c_int64_t)
    st = uturn_executor_slot_bytes_checked(ex, int(8 * dim, c_int64_t), stride)
    call ok("a 296-byte state takes a 16-aligned stride", st == UTURN_OK &
        .and. stride >= 296 .and. mod(stride, 16_c_int64_t) == 0)
    lv(1) = level(5_c_int64_t, 0_c_int64_t, 0_c_int64_t, c_loc(mem_name))
    lv(2) = level(0_c_int64_t, 3_c_int64_t, 3_c_int64_t, c_loc(disk_name))
    lv(2)%bytes = 7 * stride + stride - 1
    call uturn_problem_init(p)
    p%planner = UTURN_PLANNER_HREVOLVE
    p%steps = 30
    p%slot_bytes = 8 * dim
    p%levels = c_loc(lv)
    p%level_count = 2
    call uturn_error_init(err)
    st = uturn_executor_level_slots_checked(ex, p, 0_c_int64_t, mem, err)
    call ok("memory's 5 slots as given: " // uturn_error_message(err), &
        st == UTURN_OK .and. mem == 5)
    st = uturn_executor_level_slots_checked(ex, p, 1_c_int64_t, disk, err)
    call ok("7 strides and a byte less hold 7 slots", &
        st == UTURN_OK .and. disk == 7)
    st = uturn_executor_level_slots_checked(ex, p, 2_c_int64_t, disk, err)
    call ok("no level 2", st == UTURN_E_INVALID_ARG)
    st = uturn_executor_plan_checked(ex, p, plan, err)
    call ok("the executor's plan: " // uturn_error_message(err), &
        st == UTURN_OK)
    call uturn_level_stats_init(a)
    call uturn_level_stats_init(b)
    st = uturn_plan_level_stats(plan, 0_c_int64_t, a)
    st = uturn_plan_level_stats(plan, 1_c_int64_t, b)
    call ok("the plan's capacities are the level slots", &
        a%slots == mem .and. b%slots == 7)
    call uturn_plan_free(plan)
    call uturn_executor_free(ex)
  end subroutine

  ! A plan with more levels than the executor has storages: refused
  ! before any callback.
  subroutine refusals()
    type(uturn_report_t) :: rep
    type(uturn_error_t) :: err
    type(sim_t), target :: s
    type(uturn_model_t) :: model
    type(c_ptr) :: ex, plan
    integer(c_int) :: st
    plan = hrevolve_plan(20_c_int64_t, [level(3_c_int64_t, 0_c_int64_t, &
        0_c_int64_t, c_null_ptr), level(10_c_int64_t, 1_c_int64_t, &
        1_c_int64_t, c_null_ptr)])
    st = uturn_executor_open_checked(out=ex)
    call start(s%x)
    s%xbar = -1
    call uturn_model_init(model)
    model%user = c_loc(s)
    model%forward = c_funloc(sim_forward)
    model%turn = c_funloc(sim_turn)
    model%adjoint = c_funloc(sim_adjoint)
    model%state = c_loc(s%x)
    model%state_bytes = c_sizeof(s%x)
    call uturn_report_init(rep)
    call uturn_error_init(err)
    st = uturn_executor_run_checked(ex, plan, model, report=rep, error=err)
    call ok("more levels than storages: refused, no callback ran", &
        st == UTURN_E_INVALID_ARG .and. rep%actions_done == 0 .and. &
        same_bits(s%xbar, spread(-1.0_c_double, 1, dim)) .and. &
        index(uturn_error_message(err), "level") > 0)
    call uturn_executor_free(ex)
    call uturn_plan_free(plan)
  end subroutine
end program fortran_levels
