! Online plans from Fortran (ctest fortran_online), against independent
! truth: a cursor driven with the end said after n steps, every action
! pushed to a validator told n only then, takes exactly t(n+1, s) forward
! steps (the closed form of docs/model.md section 4, computed here) for
! every n <= (s+1)(s+2)/2 and s <= 12, counted here from the actions; the
! realised actions, written with uturn_action_format_checked and parsed
! back (sizes and budget included), are a valid plan with those counts;
! max_steps ends the sweep by itself; a budget with slot_bytes is that
! many slots. The executor runs models whose end is decided by a
! criterion in their is_last callback, with step records and with sizes
! given as they come, and gets the store-all gradient bit for bit.
! Every failure prints "FAIL: what" and the program ends with error stop.
module online_truth
  use, intrinsic :: iso_c_binding
  use uturn
  implicit none
  integer :: failures = 0
contains
  subroutine ok(what, cond)
    character(len=*), intent(in) :: what
    logical, intent(in) :: cond
    if (.not. cond) then
      print '("FAIL: ", a)', what
      failures = failures + 1
    end if
  end subroutine

  ! C(a, b) for the small arguments of these tests.
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

  ! t(l, s) = r l - beta(s + 1, r - 1), r the least with beta(s, r) =
  ! C(s + r, s) >= l; t(n + 1, s) is the least forward_steps of any plan
  ! for n steps with s slots (docs/model.md section 4).
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

  function same_bits(a, b) result(same)
    real(c_double), intent(in) :: a(:), b(:)
    logical :: same
    same = size(a) == size(b)
    if (same) same = all(transfer(a, 0_c_int64_t, size(a)) == &
        transfer(b, 0_c_int64_t, size(b)))
  end function

  function text_of(k) result(s)
    integer(c_int64_t), intent(in) :: k
    character(len=:), allocatable :: s
    character(len=24) :: buf
    write (buf, '(i0)') k
    s = trim(buf)
  end function

  ! An online plan: s slots, or a byte budget (sizes as they come), or a
  ! budget with slot_bytes.
  function online_plan(slots, budget, slot_bytes, max_steps) result(plan)
    integer(c_int64_t), intent(in) :: slots, budget, slot_bytes, max_steps
    type(c_ptr) :: plan
    type(uturn_problem_t) :: p
    type(uturn_error_t) :: err
    integer(c_int) :: st
    call uturn_problem_init(p)
    call uturn_error_init(err)
    p%planner = UTURN_PLANNER_ONLINE
    p%slots = slots
    p%budget_bytes = budget
    p%slot_bytes = slot_bytes
    p%max_steps = max_steps
    st = uturn_plan_create_checked(p, c_null_ptr, plan, err)
    call ok("an online plan: " // uturn_error_message(err), st == UTURN_OK)
  end function
end module online_truth

! Driving a cursor: the end after n steps (0: never said), every action
! validated, the forward steps counted from the actions themselves, and
! the realised plan written as plan text.
module online_drive
  use online_truth
  implicit none
  type :: drive_t
    integer(c_int) :: status = UTURN_OK
    integer(c_int64_t) :: forward_steps = 0, reverses = 0, past_end = 0
    type(uturn_stats_t) :: seen, cursor_stats
    character(len=:), allocatable :: text, message
  end type
contains
  ! sizes(k + 1): bytes of x_k, given to the cursor once it is reached
  ! (a byte-budget plan), or absent.
  ! One action of drive's: pushed to the validator v (until it refuses),
  ! written as a line of plan text, counted.
  subroutine take(r, v, a, n, err)
    type(drive_t), intent(inout) :: r
    type(c_ptr), intent(in) :: v
    type(uturn_action_t), intent(in) :: a
    integer(c_int64_t), intent(in) :: n
    type(uturn_error_t), intent(inout) :: err
    integer(c_size_t) :: length
    integer(c_int) :: st
    character(len=64) :: line
    if (r%status == UTURN_OK) r%status = uturn_validator_push_checked(v, a, err)
    st = uturn_action_format_checked(a, line, length)
    call ok("a line of plan text", st == UTURN_OK .and. &
        length == len_trim(line))
    r%text = r%text // trim(line) // new_line("a")
    if (a%op == UTURN_OP_ADVANCE) then
      r%forward_steps = r%forward_steps + a%step_end - a%step
      if (n > 0 .and. a%step_end > n) r%past_end = r%past_end + 1
    end if
    if (a%op == UTURN_OP_REVERSE) r%reverses = r%reverses + 1
  end subroutine

  function drive(plan, n, sizes) result(r)
    type(c_ptr), intent(in) :: plan
    integer(c_int64_t), intent(in) :: n
    integer(c_int64_t), intent(in), optional :: sizes(:)
    type(drive_t) :: r
    type(uturn_problem_t) :: vp
    type(uturn_stats_t) :: ps
    type(uturn_error_t) :: err
    type(uturn_action_t) :: batch(64)
    type(c_ptr) :: cursor, v
    integer(c_size_t) :: count, i
    integer(c_int) :: st, cst
    integer(c_int64_t) :: k
    logical :: ended
    call uturn_problem_init(vp)
    call uturn_stats_init(ps)
    call uturn_stats_init(r%seen)
    call uturn_stats_init(r%cursor_stats)
    call uturn_error_init(err)
    st = uturn_plan_stats(plan, ps)
    vp%slots = ps%slots
    st = uturn_validator_create_checked(vp, c_null_ptr, v, err)
    st = uturn_cursor_create(plan, c_null_ptr, cursor)
    r%text = ""
    r%message = ""
    ended = .false.
    cst = UTURN_OK
    if (present(sizes)) cst = uturn_cursor_set_size_checked(cursor, &
        0_c_int64_t, sizes(1), err)
    ! The validator stops at its first broken rule (r%status); the cursor
    ! is read to its end all the same.
    do while (cst == UTURN_OK)
      cst = uturn_cursor_read_checked(cursor, batch, count, error=err)
      if (cst /= UTURN_OK .or. count == 0) exit
      do i = 1, count
        call take(r, v, batch(i), n, err)
      end do
      if (ended .or. batch(count)%op /= UTURN_OP_ADVANCE) cycle
      k = batch(count)%step_end
      if (k == n) then
        ended = .true.
        cst = uturn_cursor_end(cursor)
        if (cst == UTURN_OK .and. r%status == UTURN_OK) &
            r%status = uturn_validator_set_steps_checked(v, n, err)
      else if (present(sizes)) then
        if (k < size(sizes)) cst = uturn_cursor_set_size_checked(cursor, &
            k, sizes(k + 1), err)
      end if
    end do
    if (r%status == UTURN_OK) &
        r%status = uturn_validator_finish(v, r%seen, err)
    if (r%status == UTURN_OK) r%status = cst
    if (r%status /= UTURN_OK) r%message = uturn_error_message(err)
    st = uturn_cursor_stats(cursor, r%cursor_stats)
    call uturn_cursor_free(cursor)
    call uturn_validator_free(v)
  end function

  ! The realised actions as a plan file for n steps: the header the CLI
  ! writes (steps, slots, and with sizes their step_bytes and budget).
  function plan_text(plan, n, r, sizes) result(text)
    type(c_ptr), intent(in) :: plan
    integer(c_int64_t), intent(in) :: n
    type(drive_t), intent(in) :: r
    integer(c_int64_t), intent(in), optional :: sizes(:)
    character(len=:), allocatable :: text
    type(uturn_stats_t) :: ps
    character(len=1), parameter :: nl = new_line("a")
    integer(c_int) :: st
    integer(c_int64_t) :: k
    call uturn_stats_init(ps)
    st = uturn_plan_stats(plan, ps)
    text = "uturn-plan 1" // nl // "planner online" // nl // "steps " // &
        text_of(n) // nl // "slots " // text_of(ps%slots) // nl
    if (present(sizes)) then
      text = text // "step_bytes"
      do k = 1, n
        text = text // " " // text_of(sizes(k))
      end do
      text = text // nl // "budget_bytes " // text_of(ps%budget_bytes) // nl
    end if
    text = text // r%text
  end function
end module online_drive

! Models for the executor.
module online_models
  use online_truth
  implicit none
  integer, parameter :: dim = 12
  ! x_{i+1} = x_i + h (a - x_i**3): every component settles at a**(1/3);
  ! the run ends once no component moved by more than tol in a step.
  type :: settle_t
    real(c_double) :: x(dim), xbar(dim), a(dim), change = huge(1.0_c_double)
    real(c_double) :: tol = 0, h = 0.05_c_double
    integer(c_int64_t) :: asked = 0, last_asked = -1, said_at = -1
  end type
  ! One component with a step of its own per step (a "controller"), kept
  ! in a record of 8 bytes.
  type :: recorded_t
    real(c_double) :: x = 0.7_c_double, xbar = 0
    real(c_double) :: hs(0:511) = 0
    integer(c_int64_t) :: draws = 0, stop_at = 0, bad_records = 0
  end type
  ! States of 8 + mod(7 k, 56) doubles (x_k), reached by save/load.
  type :: sized_t
    real(c_double) :: x(64), xbar(64)
    integer(c_int64_t) :: stop_at = 0, bad_sizes = 0
  end type
contains
  subroutine settle_start(m, tol)
    type(settle_t), intent(inout) :: m
    real(c_double), intent(in) :: tol
    integer :: j
    do j = 1, dim
      m%x(j) = 0.1_c_double * j
      m%a(j) = 0.5_c_double + 0.25_c_double * j
    end do
    m%tol = tol
    m%change = huge(1.0_c_double)
    m%asked = 0
    m%said_at = -1
  end subroutine

  function settle_forward(user, step) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    type(settle_t), pointer :: m
    real(c_double) :: y(dim)
    call c_f_pointer(user, m)
    y = m%x + m%h * (m%a - m%x**3)
    m%change = maxval(abs(y - m%x))
    m%x = y
    rc = merge(0, 1, step >= 0)
  end function

  function settle_turn(user) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int) :: rc
    type(settle_t), pointer :: m
    call c_f_pointer(user, m)
    m%xbar = m%x                    ! J = |x_n|**2 / 2
    rc = 0
  end function

  function settle_adjoint(user, step) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    type(settle_t), pointer :: m
    call c_f_pointer(user, m)
    m%xbar = m%xbar * (1 - 3 * m%h * m%x**2)
    rc = merge(0, 1, step >= 0)
  end function

  ! The stopping criterion: the step just taken moved nothing by tol.
  function settle_is_last(user, step) bind(c) result(last)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: last
    type(settle_t), pointer :: m
    call c_f_pointer(user, m)
    m%asked = m%asked + 1
    m%last_asked = step
    last = merge(1, 0, m%change < m%tol)
    if (last /= 0) m%said_at = step
  end function

  function record_forward(user, step, record, again) bind(c) result(rc)
    type(c_ptr), value :: user, record
    integer(c_int64_t), value :: step
    logical(c_bool), value :: again
    integer(c_int) :: rc
    type(recorded_t), pointer :: m
    real(c_double), pointer :: h
    call c_f_pointer(user, m)
    call c_f_pointer(record, h)
    if (.not. again) then
      h = 0.001_c_double * (1 + mod(m%draws * 37, 11_c_int64_t))
      m%draws = m%draws + 1
      m%hs(step) = h
    else if (.not. same_bits([h], [m%hs(step)])) then
      m%bad_records = m%bad_records + 1
    end if
    m%x = m%x + h * sin(m%x)
    rc = 0
  end function

  function record_turn(user) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int) :: rc
    type(recorded_t), pointer :: m
    call c_f_pointer(user, m)
    m%xbar = 1
    rc = 0
  end function

  function record_adjoint(user, step) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    type(recorded_t), pointer :: m
    call c_f_pointer(user, m)
    m%xbar = m%xbar * (1 + m%hs(step) * cos(m%x))
    rc = 0
  end function

  function record_is_last(user, step) bind(c) result(last)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: last
    type(recorded_t), pointer :: m
    call c_f_pointer(user, m)
    last = merge(1, 0, step == m%stop_at)
  end function

  pure function sized_len(step) result(n)
    integer(c_int64_t), intent(in) :: step
    integer :: n
    n = int(8 + mod(step * 7, 56_c_int64_t))
  end function

  function sized_size(user, step) bind(c) result(bytes)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int64_t) :: bytes
    if (.not. c_associated(user)) bytes = 0
    bytes = 8_c_int64_t * sized_len(step)
  end function

  function sized_forward(user, step) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    type(sized_t), pointer :: m
    integer :: j
    call c_f_pointer(user, m)
    do j = 1, 64
      if (j <= sized_len(step + 1)) then
        m%x(j) = m%x(j) + 0.01_c_double * sin(m%x(j))
      else
        m%x(j) = 0.5_c_double
      end if
    end do
    rc = 0
  end function

  function sized_turn(user) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int) :: rc
    type(sized_t), pointer :: m
    call c_f_pointer(user, m)
    m%xbar = m%x
    rc = 0
  end function

  function sized_adjoint(user, step) bind(c) result(rc)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: rc
    type(sized_t), pointer :: m
    integer :: j
    call c_f_pointer(user, m)
    do j = 1, 64
      if (j <= sized_len(step + 1) .and. j <= sized_len(step)) then
        m%xbar(j) = m%xbar(j) * (1 + 0.01_c_double * cos(m%x(j)))
      else
        m%xbar(j) = 0
      end if
    end do
    rc = 0
  end function

  function sized_save(user, step, dst, bytes) bind(c) result(rc)
    type(c_ptr), value :: user, dst
    integer(c_int64_t), value :: step, bytes
    integer(c_int) :: rc
    type(sized_t), pointer :: m
    real(c_double), pointer :: out(:)
    call c_f_pointer(user, m)
    if (bytes /= 8 * sized_len(step)) m%bad_sizes = m%bad_sizes + 1
    call c_f_pointer(dst, out, [bytes / 8])
    out = m%x(1:size(out))
    rc = 0
  end function

  function sized_load(user, step, src, bytes) bind(c) result(rc)
    type(c_ptr), value :: user, src
    integer(c_int64_t), value :: step, bytes
    integer(c_int) :: rc
    type(sized_t), pointer :: m
    real(c_double), pointer :: in(:)
    call c_f_pointer(user, m)
    if (bytes /= 8 * sized_len(step)) m%bad_sizes = m%bad_sizes + 1
    call c_f_pointer(src, in, [bytes / 8])
    m%x = 0.5_c_double
    m%x(1:size(in)) = in
    rc = 0
  end function

  function sized_is_last(user, step) bind(c) result(last)
    type(c_ptr), value :: user
    integer(c_int64_t), value :: step
    integer(c_int) :: last
    type(sized_t), pointer :: m
    call c_f_pointer(user, m)
    last = merge(1, 0, step == m%stop_at)
  end function
end module online_models

program fortran_online
  use online_drive
  use online_models
  implicit none
  call cursor_exactness()
  call realised_text()
  call stats_and_max_steps()
  call budget_modes()
  call sizes_through_the_cursor()
  call executor_stops_on_its_criterion()
  call step_records()
  call sizes_as_they_come()
  if (failures /= 0) then
    print '(i0, " FAILED")', failures
    error stop 1
  end if
  print '(a)', "ok: online plans from Fortran reach t(n+1, s) and the &
      &store-all gradient"

contains

  subroutine cursor_exactness()
    type(c_ptr) :: plan
    type(drive_t) :: r
    integer(c_int64_t) :: s, n, band, checked
    character(len=80) :: what
    call ok("the closed form gives docs/model.md's examples", &
        t(101_c_int64_t, 5_c_int64_t) == 320 .and. &
        t(101_c_int64_t, 10_c_int64_t) == 225 .and. &
        t(1001_c_int64_t, 10_c_int64_t) == 3640 .and. &
        t(10001_c_int64_t, 20_c_int64_t) == 37980)
    checked = 0
    do s = 1, 12
      plan = online_plan(s, 0_c_int64_t, 0_c_int64_t, 0_c_int64_t)
      band = (s + 1) * (s + 2) / 2
      do n = 1, band
        r = drive(plan, n)
        write (what, '("s ", i0, " n ", i0)') s, n
        call ok(trim(what) // ": valid: " // r%message, r%status == UTURN_OK)
        call ok(trim(what) // ": t(n+1, s) forward steps", &
            r%forward_steps == t(n + 1, s))
        call ok(trim(what) // ": the validator counted the same", &
            r%seen%forward_steps == r%forward_steps .and. &
            r%seen%reverse_steps == n .and. r%seen%peak_slots <= s)
        call ok(trim(what) // ": uturn_cursor_stats", &
            r%cursor_stats%steps == n .and. &
            r%cursor_stats%forward_steps == r%forward_steps .and. &
            r%cursor_stats%reverse_steps == n)
        checked = checked + 1
      end do
      call uturn_plan_free(plan)
    end do
    call ok("every (n, s) driven", checked == 454)
  end subroutine

  ! Realised actions, formatted and parsed back: the same counts.
  subroutine realised_text()
    type(c_ptr) :: plan, parsed
    type(drive_t) :: r
    type(uturn_stats_t) :: ps
    type(uturn_error_t) :: err
    integer(c_int) :: st
    integer(c_int64_t), parameter :: n = 15, s = 4   ! (s+1)(s+2)/2
    plan = online_plan(s, 0_c_int64_t, 0_c_int64_t, 0_c_int64_t)
    r = drive(plan, n)
    call uturn_error_init(err)
    st = uturn_plan_parse_checked(plan_text(plan, n, r), c_null_ptr, &
        parsed, err)
    call ok("the realised plan parses: " // uturn_error_message(err), &
        st == UTURN_OK)
    call uturn_stats_init(ps)
    if (st == UTURN_OK) st = uturn_plan_stats(parsed, ps)
    call ok("the parsed plan's counts are the cursor's", &
        ps%steps == n .and. ps%forward_steps == t(n + 1, s) .and. &
        ps%forward_steps == r%cursor_stats%forward_steps .and. &
        ps%stores == r%cursor_stats%stores .and. &
        ps%actions == r%cursor_stats%actions)
    call uturn_plan_free(parsed)
    call uturn_plan_free(plan)
  end subroutine

  subroutine stats_and_max_steps()
    type(c_ptr) :: plan, open_plan
    type(uturn_stats_t) :: s
    type(drive_t) :: r, told
    integer(c_int) :: st, id
    plan = online_plan(7_c_int64_t, 0_c_int64_t, 0_c_int64_t, 0_c_int64_t)
    call uturn_stats_init(s)
    st = uturn_plan_stats(plan, s)
    call ok("stats before the end: online, steps UTURN_NONE, 7 slots", &
        st == UTURN_OK .and. s%online .and. s%steps == UTURN_NONE .and. &
        s%slots == 7)
    call ok("the planner's name", &
        uturn_string(uturn_planner_name(UTURN_PLANNER_ONLINE)) == "online")
    st = uturn_planner_from_name("online" // c_null_char, id)
    call ok("the planner by name", st == UTURN_OK .and. &
        id == UTURN_PLANNER_ONLINE)
    call uturn_plan_free(plan)

    ! max_steps 50, the end never said: the plan ends at 50 by itself,
    ! as if the end had been said there.
    plan = online_plan(4_c_int64_t, 0_c_int64_t, 0_c_int64_t, 50_c_int64_t)
    r = drive(plan, 0_c_int64_t)
    call ok("never told: the validator was never told n", &
        r%status == UTURN_E_INVALID_PLAN)
    call ok("max_steps: 50 reversed, nothing past 50", r%reverses == 50 &
        .and. r%cursor_stats%steps == 50)
    open_plan = online_plan(4_c_int64_t, 0_c_int64_t, 0_c_int64_t, &
        0_c_int64_t)
    told = drive(open_plan, 50_c_int64_t)
    call ok("max_steps: the plan of an end said at 50", told%status == &
        UTURN_OK .and. told%forward_steps == r%forward_steps .and. &
        told%past_end == 0)
    call uturn_plan_free(open_plan)
    call uturn_plan_free(plan)
  end subroutine

  ! budget_bytes with slot_bytes: floor(budget / slot_bytes) slots.
  subroutine budget_modes()
    type(c_ptr) :: plan
    type(uturn_stats_t) :: s
    type(drive_t) :: r
    integer(c_int) :: st
    plan = online_plan(0_c_int64_t, 1000_c_int64_t, 96_c_int64_t, &
        0_c_int64_t)
    call uturn_stats_init(s)
    st = uturn_plan_stats(plan, s)
    call ok("a budget of 1000 bytes holds 10 slots of 96", &
        st == UTURN_OK .and. s%slots == 10 .and. s%online)
    r = drive(plan, 66_c_int64_t)
    call ok("budget and slot_bytes: t(67, 10)", r%status == UTURN_OK &
        .and. r%forward_steps == t(67_c_int64_t, 10_c_int64_t))
    call uturn_plan_free(plan)
  end subroutine

  ! A byte budget alone: each size given once the state is reached; the
  ! realised plan, with its sizes, parses within the budget.
  subroutine sizes_through_the_cursor()
    integer(c_int64_t), parameter :: n = 120, budget = 1500
    integer(c_int64_t) :: sizes(n + 1), k
    type(c_ptr) :: plan, parsed
    type(drive_t) :: r
    type(uturn_stats_t) :: ps
    type(uturn_error_t) :: err
    integer(c_int) :: st
    do k = 0, n
      sizes(k + 1) = 8_c_int64_t * sized_len(k)
    end do
    plan = online_plan(0_c_int64_t, budget, 0_c_int64_t, 0_c_int64_t)
    r = drive(plan, n, sizes)
    call ok("sizes through the cursor: " // r%message, &
        r%status == UTURN_OK .and. r%cursor_stats%steps == n)
    call uturn_error_init(err)
    st = uturn_plan_parse_checked(plan_text(plan, n, r, sizes), &
        c_null_ptr, parsed, err)
    call ok("the realised plan with its sizes parses: " // &
        uturn_error_message(err), st == UTURN_OK)
    call uturn_stats_init(ps)
    if (st == UTURN_OK) st = uturn_plan_stats(parsed, ps)
    call ok("the parsed plan is the cursor's, within the budget", &
        ps%peak_bytes > 0 .and. ps%peak_bytes <= budget .and. &
        ps%forward_steps == r%forward_steps .and. &
        ps%stores == r%cursor_stats%stores)
    call uturn_plan_free(parsed)
    call uturn_plan_free(plan)
  end subroutine

  ! The store-all gradient of the settling model for n steps.
  function settle_reference(ex, n, tol) result(grad)
    type(c_ptr), intent(in) :: ex
    integer(c_int64_t), intent(in) :: n
    real(c_double), intent(in) :: tol
    real(c_double) :: grad(dim)
    type(settle_t), target :: m
    type(uturn_problem_t) :: p
    type(uturn_model_t) :: model
    type(c_ptr) :: plan
    integer(c_int) :: st
    call uturn_problem_init(p)
    p%planner = UTURN_PLANNER_STORE_ALL
    p%steps = n
    st = uturn_plan_create_checked(p, c_null_ptr, plan)
    call settle_start(m, tol)
    model = settle_model(m)
    model%is_last = c_null_funptr
    if (st == UTURN_OK) st = uturn_executor_run_checked(ex, plan, model)
    call ok("the store-all reference", st == UTURN_OK)
    grad = m%xbar
    call uturn_plan_free(plan)
  end function

  ! The first k at which x_k moved by less than tol from x_{k-1}, in a
  ! plain loop: where the run must end.
  function settle_first_quiet(tol) result(k)
    real(c_double), intent(in) :: tol
    integer(c_int64_t) :: k
    type(settle_t) :: m
    real(c_double) :: y(dim)
    call settle_start(m, tol)
    k = 0
    do
      y = m%x + m%h * (m%a - m%x**3)
      k = k + 1
      if (maxval(abs(y - m%x)) < tol) exit
      m%x = y
    end do
  end function

  function settle_model(m) result(model)
    type(settle_t), intent(inout), target :: m
    type(uturn_model_t) :: model
    call uturn_model_init(model)
    model%user = c_loc(m)
    model%forward = c_funloc(settle_forward)
    model%turn = c_funloc(settle_turn)
    model%adjoint = c_funloc(settle_adjoint)
    model%is_last = c_funloc(settle_is_last)
    model%state = c_loc(m%x)
    model%state_bytes = c_sizeof(m%x)
  end function

  subroutine executor_stops_on_its_criterion()
    real(c_double), parameter :: tols(4) = [1e-2_c_double, &
        3e-3_c_double, 1e-3_c_double, 1e-4_c_double]
    integer(c_int64_t), parameter :: slots(5) = [1, 2, 3, 5, 12]
    type(settle_t), target :: m
    type(uturn_model_t) :: model
    type(uturn_stats_t) :: seen
    type(uturn_report_t) :: rep
    type(uturn_error_t) :: err
    type(c_ptr) :: ex, plan
    integer(c_int) :: st
    integer(c_int64_t) :: n, s, exact
    integer :: i, j
    character(len=80) :: what
    st = uturn_executor_open_checked(out=ex)
    call ok("an executor", st == UTURN_OK)
    exact = 0
    do i = 1, size(tols)
      do j = 1, size(slots)
        s = slots(j)
        plan = online_plan(s, 0_c_int64_t, 0_c_int64_t, 0_c_int64_t)
        call settle_start(m, tols(i))
        model = settle_model(m)
        call uturn_stats_init(seen)
        call uturn_report_init(rep)
        call uturn_error_init(err)
        st = uturn_executor_run_checked(ex, plan, model, observed=seen, &
            report=rep, error=err)
        n = rep%steps
        write (what, '("tol ", es8.1, " s ", i0, " (n ", i0, ")")') &
            tols(i), s, n
        call ok(trim(what) // ": the run: " // uturn_error_message(err), &
            st == UTURN_OK)
        call ok(trim(what) // ": ended where the criterion said", &
            n == settle_first_quiet(tols(i)) .and. n == m%said_at .and. &
            n == m%last_asked .and. seen%steps == n)
        call ok(trim(what) // ": is_last asked once per first-sweep step", &
            m%asked == n)
        call ok(trim(what) // ": the store-all gradient, bit for bit", &
            same_bits(m%xbar, settle_reference(ex, n, tols(i))))
        call ok(trim(what) // ": every step reversed, within s slots", &
            seen%reverse_steps == n .and. seen%peak_slots <= s)
        if (n <= (s + 1) * (s + 2) / 2) then
          call ok(trim(what) // ": t(n+1, s) forward steps", &
              seen%forward_steps == t(n + 1, s))
          exact = exact + 1
        end if
        call uturn_plan_free(plan)
      end do
    end do
    call ok("some runs inside the exact band", exact >= 4)
    call uturn_executor_free(ex)
  end subroutine

  subroutine step_records()
    integer(c_int64_t), parameter :: n = 300
    type(recorded_t), target :: m
    type(uturn_model_t) :: model
    type(uturn_stats_t) :: seen
    type(uturn_report_t) :: rep
    type(c_ptr) :: ex, plan
    integer(c_int) :: st
    real(c_double) :: x, g, xs(0:n - 1)
    integer(c_int64_t) :: i
    plan = online_plan(4_c_int64_t, 0_c_int64_t, 0_c_int64_t, 0_c_int64_t)
    st = uturn_executor_open_checked(out=ex)
    m%stop_at = n
    call uturn_model_init(model)
    model%user = c_loc(m)
    model%state = c_loc(m%x)
    model%state_bytes = c_sizeof(m%x)
    model%forward_record = c_funloc(record_forward)
    model%record_bytes = c_sizeof(m%x)
    model%turn = c_funloc(record_turn)
    model%adjoint = c_funloc(record_adjoint)
    model%is_last = c_funloc(record_is_last)
    call uturn_stats_init(seen)
    call uturn_report_init(rep)
    st = uturn_executor_run_checked(ex, plan, model, observed=seen, &
        report=rep)
    call ok("records: the run", st == UTURN_OK)
    call ok("records: the controller ran once per step, and every record &
        &came back", m%draws == n .and. m%bad_records == 0)
    call ok("records: steps were recomputed", seen%forward_steps > n)
    call ok("records: kept outside the budget", rep%record_bytes >= 8 * n)
    x = 0.7_c_double
    do i = 0, n - 1
      xs(i) = x
      x = x + m%hs(i) * sin(x)
    end do
    g = 1
    do i = n - 1, 0, -1
      g = g * (1 + m%hs(i) * cos(xs(i)))
    end do
    call ok("records: the gradient of one plain sweep, bit for bit", &
        same_bits([m%xbar], [g]))
    call uturn_executor_free(ex)
    call uturn_plan_free(plan)
  end subroutine

  function sized_run(ex, plan, n, seen, rep) result(grad)
    type(c_ptr), intent(in) :: ex, plan
    integer(c_int64_t), intent(in) :: n
    type(uturn_stats_t), intent(inout) :: seen
    type(uturn_report_t), intent(inout) :: rep
    real(c_double) :: grad(64)
    type(sized_t), target :: m
    type(uturn_model_t) :: model
    type(uturn_error_t) :: err
    integer(c_int) :: st
    integer :: j
    m%stop_at = n
    do j = 1, 64
      m%x(j) = merge(0.2_c_double + 0.1_c_double * (j - 1), 0.5_c_double, &
          j <= 8)
    end do
    call uturn_model_init(model)
    model%user = c_loc(m)
    model%forward = c_funloc(sized_forward)
    model%turn = c_funloc(sized_turn)
    model%adjoint = c_funloc(sized_adjoint)
    model%save = c_funloc(sized_save)
    model%load = c_funloc(sized_load)
    model%state_size = c_funloc(sized_size)
    model%is_last = c_funloc(sized_is_last)
    call uturn_error_init(err)
    st = uturn_executor_run_checked(ex, plan, model, observed=seen, &
        report=rep, error=err)
    call ok("sized: the run: " // uturn_error_message(err), st == UTURN_OK)
    call ok("sized: every save and load had its state's size", &
        m%bad_sizes == 0)
    grad = m%xbar
  end function

  subroutine sizes_as_they_come()
    integer(c_int64_t), parameter :: n = 150
    integer(c_int64_t), parameter :: budgets(3) = [600, 1500, 4000]
    type(uturn_problem_t) :: all
    type(uturn_stats_t) :: seen
    type(uturn_report_t) :: rep
    type(c_ptr) :: ex, ref, plan
    real(c_double) :: want(64), got(64)
    integer(c_int) :: st
    integer :: b
    character(len=40) :: what
    st = uturn_executor_open_checked(out=ex)
    call uturn_problem_init(all)
    all%planner = UTURN_PLANNER_STORE_ALL
    all%steps = n
    all%slot_bytes = 64 * 8
    st = uturn_plan_create_checked(all, c_null_ptr, ref)
    call uturn_stats_init(seen)
    call uturn_report_init(rep)
    want = sized_run(ex, ref, n, seen, rep)
    call uturn_plan_free(ref)
    do b = 1, size(budgets)
      write (what, '("sized, budget ", i0)') budgets(b)
      plan = online_plan(0_c_int64_t, budgets(b), 0_c_int64_t, 0_c_int64_t)
      call uturn_stats_init(seen)
      call uturn_report_init(rep)
      got = sized_run(ex, plan, n, seen, rep)
      call ok(trim(what) // ": the store-all gradient, bit for bit", &
          same_bits(got, want))
      call ok(trim(what) // ": never past the budget", &
          seen%steps == n .and. seen%peak_bytes <= budgets(b) .and. &
          rep%measured_peak_bytes <= budgets(b))
      call uturn_plan_free(plan)
    end do
    call uturn_executor_free(ex)
  end subroutine
end program fortran_online
