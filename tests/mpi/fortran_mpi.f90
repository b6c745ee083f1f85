! The MPI layer from Fortran (ctest mpi_fortran_np*), on the chains of
! tests/mpi/fortran_mpi_chains.f90 (rank r: 100 (r + 1) of them), every
! plan agreed through the Fortran communicator of `use mpi`, each case
! against truth computed without the library:
! - revolve, the same byte budget on every rank: the last rank's states
!   are the largest, so it limits; the gradient is a store-all sweep's bit
!   for bit (and the closed form's), the forward steps t(n + 1, s);
! - storage levels: memory and a file level of the same bytes on every
!   rank, hrevolve (each rank's disk holds its own number of its own
!   states; the least is planned); the gradient bit for bit; each rank's
!   level report is the plan's level stores and restores times its state
!   size, and the combined report's level bytes are their sums;
! - an online plan (steps unknown, max_steps the chain's length): the last
!   rank's is_last holds at step 200, the others' only at 301 and rank 0
!   has none, so every rank reverses 200 steps, the gradient is a
!   store-all sweep of 200 steps bit for bit, the forward steps are
!   t(201, s) with s the least capacity over the ranks, and the run makes
!   one collective per first-sweep step beside its two.
module fortran_mpi_cases
  use, intrinsic :: iso_c_binding
  use mpi
  use uturn
  use uturn_mpi
  use fortran_mpi_chains
  implicit none
  integer(c_int64_t), parameter :: budget = 65536, memory = 16384, &
      disk = 40000, online_end = 200, online_late = 301
contains
  subroutine note(why, cond, what)
    character(len=*), intent(in) :: why
    logical, intent(in) :: cond
    character(len=:), allocatable, intent(inout) :: what
    if (.not. cond .and. len(what) == 0) what = why
  end subroutine

  function uniform_case(rank, ranks) result(every)
    integer, intent(in) :: rank, ranks
    logical :: every
    type(chains_t), target :: m
    type(uturn_problem_t) :: problem
    type(uturn_model_t) :: model
    type(uturn_mpi_plan_info_t) :: info
    type(uturn_mpi_report_t) :: combined
    type(uturn_stats_t) :: seen
    type(uturn_error_t) :: err
    type(c_ptr) :: ex, plan
    integer(c_int) :: st
    character(len=:), allocatable :: what

    call chains_start(m, rank, model)
    call uturn_problem_init(problem)
    problem%planner = UTURN_PLANNER_REVOLVE
    problem%steps = steps
    problem%slot_bytes = model%state_bytes
    problem%budget_bytes = budget
    call uturn_error_init(err)
    call uturn_mpi_plan_info_init(info)
    call uturn_mpi_report_init(combined)
    call uturn_stats_init(seen)
    plan = c_null_ptr
    st = uturn_executor_create(c_null_ptr, ex, err)
    if (st == UTURN_OK) st = uturn_mpi_plan_create(MPI_COMM_WORLD, ex, &
        problem, out=plan, info=info, error=err)
    if (st == UTURN_OK) st = uturn_mpi_run(plan, ex, model, observed=seen, &
        combined=combined, error=err)
    call uturn_mpi_plan_free(plan)
    call uturn_executor_free(ex)
    what = ""
    call note("uniform: " // failure(st, err), st == UTURN_OK, what)
    call note("uniform: the store-all gradient", &
        same_bits(m%xbar, store_all(m%x0, steps)), what)
    call note("uniform: the closed form", &
        close_to(m%xbar, closed_form(m%x0, steps)), what)
    call note("uniform: the last rank limits", &
        info%limiting_rank == ranks - 1, what)
    call note("uniform: forward steps t(n + 1, s)", &
        seen%forward_steps == t(steps + 1, info%slots), what)
    call note("uniform: two collectives", combined%collectives == 2, what)
    every = agreed(rank, what, len(what) == 0)
    if (rank == 0 .and. every) print '("ok: ", i0, " ranks agreed on ", &
        &i0, " slots (rank ", i0, " limits), ", i0, " forward steps")', &
        ranks, info%slots, info%limiting_rank, seen%forward_steps
  end function

  ! Memory and a file level (its files in $TMPDIR) on every rank.
  subroutine levels_problem(lv, file, problem, o)
    type(uturn_level_t), target, intent(inout) :: lv(2)
    type(uturn_storage_t), target, intent(inout) :: file
    type(uturn_problem_t), intent(out) :: problem
    type(uturn_executor_options_t), intent(out) :: o
    call uturn_level_init(lv(1))
    call uturn_level_init(lv(2))
    lv(1)%bytes = memory
    lv(2)%bytes = disk
    lv(2)%write_cost = 2
    lv(2)%read_cost = 2
    call uturn_problem_init(problem)
    problem%planner = UTURN_PLANNER_HREVOLVE
    problem%steps = steps
    problem%levels = c_loc(lv)
    problem%level_count = 2
    call uturn_storage_init(file)
    file%kind = UTURN_STORAGE_FILE
    call uturn_executor_options_init(o)
    o%levels = c_loc(file)
    o%level_count = 1
  end subroutine

  function levels_case(rank) result(every)
    integer, intent(in) :: rank
    logical :: every
    type(chains_t), target :: m
    type(uturn_model_t) :: model
    type(uturn_level_t), target :: lv(2)
    type(uturn_storage_t), target :: file
    type(uturn_problem_t) :: problem
    type(uturn_executor_options_t) :: o
    type(uturn_mpi_report_t) :: combined
    type(uturn_level_report_t) :: lr
    type(uturn_level_stats_t) :: ls
    type(uturn_error_t) :: err
    type(c_ptr) :: ex, plan
    integer(c_int) :: st
    integer(c_int64_t) :: disk_slots
    character(len=:), allocatable :: what

    call chains_start(m, rank, model)
    call levels_problem(lv, file, problem, o)
    problem%slot_bytes = model%state_bytes
    call uturn_error_init(err)
    call uturn_mpi_report_init(combined)
    call uturn_level_report_init(lr)
    call uturn_level_stats_init(ls)
    plan = c_null_ptr
    disk_slots = 0
    st = uturn_executor_open_checked(o, ex, err)
    if (st == UTURN_OK) st = uturn_check(problem, err)
    if (st == UTURN_OK) st = uturn_executor_level_slots_checked(ex, &
        problem, 1_c_int64_t, disk_slots, err)
    if (st == UTURN_OK) st = uturn_mpi_plan_create(MPI_COMM_WORLD, ex, &
        problem, out=plan, error=err)
    if (st == UTURN_OK) st = uturn_mpi_run(plan, ex, model, &
        combined=combined, error=err)
    if (st == UTURN_OK) st = uturn_executor_level_report(ex, 1_c_int64_t, lr)
    if (st == UTURN_OK) st = uturn_plan_level_stats( &
        uturn_mpi_plan_core(plan), 1_c_int64_t, ls)
    call uturn_mpi_plan_free(plan)
    call uturn_executor_free(ex)
    what = ""
    call note("levels: " // failure(st, err), st == UTURN_OK, what)
    call note("levels: the store-all gradient", &
        same_bits(m%xbar, store_all(m%x0, steps)), what)
    call levels_counts(model%state_bytes, disk_slots, lr, ls, combined, what)
    every = agreed(rank, what, len(what) == 0)
    if (rank == 0 .and. every) print '("ok: levels: ", i0, &
        &" disk slots on every rank, ", i0, " bytes written in all")', &
        ls%slots, combined%level_bytes_written_sum(1)
  end function

  ! Collective: the level counts against the plan's and the ranks' sums.
  subroutine levels_counts(bytes, disk_slots, lr, ls, combined, what)
    integer(c_int64_t), intent(in) :: bytes, disk_slots
    type(uturn_level_report_t), intent(in) :: lr
    type(uturn_level_stats_t), intent(in) :: ls
    type(uturn_mpi_report_t), intent(in) :: combined
    character(len=:), allocatable, intent(inout) :: what
    integer(c_int64_t) :: written, read
    written = summed(lr%bytes_written)
    read = summed(lr%bytes_read)
    call note("levels: the least disk slots planned", &
        ls%slots == least(disk_slots), what)
    call note("levels: the disk is used", ls%stores > 0, what)
    call note("levels: the report's stores are the plan's", &
        lr%stores == ls%stores, what)
    call note("levels: bytes written, the plan's stores' states", &
        lr%bytes_written == ls%stores * bytes, what)
    call note("levels: bytes read, the plan's restores' states", &
        lr%bytes_read == ls%restores * bytes, what)
    call note("levels: the combined report has one level past memory", &
        combined%levels == 1 .and. combined%level_bytes_written_sum(2) == 0, &
        what)
    call note("levels: the combined bytes are the ranks' sums", &
        combined%level_bytes_written_sum(1) == written .and. &
        combined%level_bytes_read_sum(1) == read, what)
  end subroutine

  ! Collective: plan online across the ranks (budget, slot_bytes, steps
  ! unknown, max_steps the chain's length) and run model through it.
  function online_run(model, cost, planned, seen, combined, err) result(st)
    type(uturn_model_t), intent(in) :: model
    integer(c_int64_t), intent(out) :: cost
    type(uturn_stats_t), intent(inout) :: planned, seen
    type(uturn_mpi_report_t), intent(inout) :: combined
    type(uturn_error_t), intent(inout) :: err
    integer(c_int) :: st
    type(uturn_problem_t) :: problem
    type(c_ptr) :: ex, plan
    call uturn_problem_init(problem)
    problem%planner = UTURN_PLANNER_ONLINE
    problem%steps = 0
    problem%max_steps = steps
    problem%slot_bytes = model%state_bytes
    problem%budget_bytes = budget
    plan = c_null_ptr
    cost = 1
    st = uturn_executor_create(c_null_ptr, ex, err)
    if (st == UTURN_OK) st = uturn_executor_slot_bytes(ex, &
        problem%slot_bytes, cost)
    if (st == UTURN_OK) st = uturn_mpi_plan_create(MPI_COMM_WORLD, ex, &
        problem, out=plan, error=err)
    if (st == UTURN_OK) st = uturn_plan_stats(uturn_mpi_plan_core(plan), &
        planned)
    if (st == UTURN_OK) st = uturn_mpi_run(plan, ex, model, observed=seen, &
        combined=combined, error=err)
    call uturn_mpi_plan_free(plan)
    call uturn_executor_free(ex)
  end function

  function online_case(rank, ranks) result(every)
    integer, intent(in) :: rank, ranks
    logical :: every
    type(chains_t), target :: m
    type(uturn_model_t) :: model
    type(uturn_mpi_report_t) :: combined
    type(uturn_stats_t) :: planned, seen
    type(uturn_error_t) :: err
    integer(c_int) :: st
    integer(c_int64_t) :: cost, s
    logical :: own
    character(len=:), allocatable :: what

    call chains_start(m, rank, model)
    m%ends = merge(online_end, online_late, rank == ranks - 1)
    own = ranks == 1 .or. rank /= 0
    if (own) model%is_last = c_funloc(is_last)
    call uturn_error_init(err)
    call uturn_mpi_report_init(combined)
    call uturn_stats_init(planned)
    call uturn_stats_init(seen)
    st = online_run(model, cost, planned, seen, combined, err)
    s = planned%slots
    what = ""
    call note("online: " // failure(st, err), st == UTURN_OK, what)
    call note("online: the least capacity over the ranks", &
        s == least(min(budget / cost, 256_c_int64_t)), what)
    call note("online: every rank reversed the first end", &
        seen%steps == online_end, what)
    call note("online: the store-all gradient of the first end", &
        same_bits(m%xbar, store_all(m%x0, online_end)), what)
    call note("online: within the exact band", &
        online_end <= (s + 1) * (s + 2) / 2, what)
    call note("online: forward steps t(n + 1, s)", &
        seen%forward_steps == t(online_end + 1, s), what)
    call note("online: one collective per first-sweep step", &
        combined%collectives == 2 + online_end, what)
    if (own) call note("online: asked after each step up to the end", &
        m%asked == online_end .and. m%last_asked == online_end, what)
    if (.not. own) call note("online: no criterion, never asked", &
        m%asked == 0, what)
    every = agreed(rank, what, len(what) == 0)
    if (rank == 0 .and. every) print '("ok: online: ended at ", i0, &
        &" on every rank, ", i0, " slots, ", i0, " forward steps")', &
        seen%steps, s, seen%forward_steps
  end function
end module fortran_mpi_cases

program fortran_mpi
  use mpi
  use fortran_mpi_cases
  implicit none
  integer :: rank, ranks, ierr
  logical :: every

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  every = uniform_case(rank, ranks)
  every = levels_case(rank) .and. every
  every = online_case(rank, ranks) .and. every
  call MPI_Finalize(ierr)
  if (.not. every) error stop 1
end program fortran_mpi
