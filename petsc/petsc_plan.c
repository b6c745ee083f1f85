/*
 * The plan of a run, made at set(0) when TSSolve() begins: which planner
 * (revolve or hrevolve when the step count is fixed before the solve,
 * online otherwise), how many slots this rank's budgets hold, and one plan
 * agreed over the TS's ranks by the MPI layer (the least capacity of any
 * rank, fingerprints compared). A run whose request equals the last one's
 * reuses its plan.
 */
#include "petsc_internal.h"

#include <string.h>

/* Offline (steps known) or online, and the planner. */
static PetscErrorCode choose(struct uturn__petsc *u, TS ts,
                             struct uturn__petsc_request *r)
{
    PetscFunctionBegin;
    const bool disk  = u->opt.disk_bytes > 0;
    uint64_t n       = 0;
    const bool fixed = uturn__petsc_predict_steps(ts, &n);
    if (strcmp(u->opt.planner, "auto") == 0)
        r->planner = !fixed ? UTURN_PLANNER_ONLINE
                     : disk ? UTURN_PLANNER_HREVOLVE
                            : UTURN_PLANNER_REVOLVE;
    else
        PetscCheck(uturn_planner_from_name(u->opt.planner, &r->planner) ==
                       UTURN_OK,
                   u->comm, PETSC_ERR_ARG_WRONG, "uturn: no planner '%s'",
                   u->opt.planner);
    const bool online = r->planner == UTURN_PLANNER_ONLINE;
    PetscCheck(online || fixed, u->comm, PETSC_ERR_ARG_INCOMP,
               "uturn: planner %s needs the step count before the solve, "
               "and this solve's is not fixed (adaptive steps, events, or "
               "a TS that does not start at step 0): use "
               "-ts_trajectory_uturn_planner online or auto",
               u->opt.planner);
    PetscCheck(!disk || online || r->planner == UTURN_PLANNER_HREVOLVE, u->comm,
               PETSC_ERR_ARG_INCOMP,
               "uturn: a disk level needs planner hrevolve, online or auto, "
               "not %s",
               u->opt.planner);
    r->steps = online ? 0 : n;
    PetscFunctionReturn(0);
}

/* The slots @p bytes hold here, or @p unlimited without a limit. */
static uint64_t slots_of(uint64_t bytes, uint64_t state_bytes,
                         uint64_t unlimited)
{
    if (bytes == 0)
        return unlimited;
    return state_bytes == 0 ? unlimited : bytes / state_bytes;
}

static void capacities(const struct uturn__petsc *u, TS ts,
                       struct uturn__petsc_request *r)
{
    const bool online = r->planner == UTURN_PLANNER_ONLINE;
    uint64_t most     = r->steps;
    if (online) {
        r->max_steps =
            ts->max_steps < PETSC_MAX_INT ? (uint64_t)ts->max_steps : 0;
        most = r->max_steps > 0 ? r->max_steps : UINT64_MAX;
        /* An online cursor keeps about 160 bytes per slot, outside the
         * budget (uturn.h, UTURN_ONLINE_MAX_SLOTS): without a budget an
         * adaptive run keeps at most UTURN_PETSC_ONLINE_STATES states
         * (every state of a run that long), with one at most
         * UTURN_PETSC_ONLINE_SLOTS. */
        const uint64_t cap = u->opt.budget_bytes == 0
                                 ? UTURN_PETSC_ONLINE_STATES
                                 : UTURN_PETSC_ONLINE_SLOTS;
        most               = most > cap ? cap : most;
    }
    r->slots = slots_of(u->opt.budget_bytes, r->state_bytes, most);
    if (r->slots > most)
        r->slots = most;
    /* A disk holds at most the run's states as well: its file and this
     * layer's tables are as large as the slots it is given. */
    r->disk_slots = u->opt.disk_bytes == 0
                        ? 0
                        : slots_of(u->opt.disk_bytes, r->state_bytes, 0);
    if (r->disk_slots > most)
        r->disk_slots = most;
    if (r->disk_slots > 0) {
        r->write_cost = u->opt.disk_write_cost;
        r->read_cost  = u->opt.disk_read_cost;
    }
}

/* The problem this rank gives the MPI layer; @p levels must outlive it. */
static void problem_of(const struct uturn__petsc_request *r, uturn_problem_t *p,
                       uturn_level_t levels[2])
{
    uturn_problem_init(p);
    p->planner    = r->planner;
    p->steps      = r->steps;
    p->max_steps  = r->max_steps;
    p->slot_bytes = r->state_bytes > 0 ? r->state_bytes : 1;
    if (r->disk_slots == 0) {
        p->slots = r->slots;
        return;
    }
    uturn_level_init(&levels[0]);
    uturn_level_init(&levels[1]);
    levels[0].name       = "memory";
    levels[0].slots      = r->slots;
    levels[1].name       = "disk";
    levels[1].slots      = r->disk_slots;
    levels[1].write_cost = r->write_cost;
    levels[1].read_cost  = r->read_cost;
    p->levels            = levels;
    p->level_count       = 2;
}

static bool same_request(const struct uturn__petsc_request *a,
                         const struct uturn__petsc_request *b)
{
    return a->planner == b->planner && a->steps == b->steps &&
           a->slots == b->slots && a->disk_slots == b->disk_slots &&
           a->write_cost == b->write_cost && a->read_cost == b->read_cost &&
           a->max_steps == b->max_steps && a->state_bytes == b->state_bytes;
}

/* Agree on the plan for @p r over the ranks (collective). */
static PetscErrorCode make_plan(struct uturn__petsc *u,
                                const struct uturn__petsc_request *r)
{
    PetscFunctionBegin;
    uturn_problem_t problem;
    uturn_level_t levels[2];
    uturn_error_t err;
    uturn_error_init(&err);
    problem_of(r, &problem, levels);
    uturn_mpi_plan_free(u->plan);
    u->plan = NULL;
    if (u->executor == NULL)
        PetscCheck(uturn_executor_create(NULL, &u->executor, NULL) == UTURN_OK,
                   PETSC_COMM_SELF, PETSC_ERR_MEM, "uturn: out of memory");
    const uturn_status_t st = uturn_mpi_plan_create(
        u->comm, u->executor, &problem, NULL, &u->plan, NULL, &err);
    /* The MPI layer words a refusal in bytes at the executor's slot cost,
     * which this layer does not use (its slots are its own vectors):
     * this rank's planner says it in slots instead. */
    uturn_plan_t *local = NULL;
    if (st != UTURN_OK &&
        uturn_plan_create(&problem, NULL, &local, &err) == UTURN_OK)
        uturn_plan_free(local);
    PetscCheck(st == UTURN_OK, u->comm, PETSC_ERR_ARG_INCOMP,
               "uturn: no plan for %llu steps in %llu memory slots of %llu "
               "bytes (%s): %s",
               (unsigned long long)r->steps, (unsigned long long)r->slots,
               (unsigned long long)r->state_bytes, uturn_status_name(st),
               err.message);
    u->request = *r;
    PetscFunctionReturn(0);
}

/* The agreed capacities: memory (level 0) and disk (level 1) slots. */
static void agreed_capacity(struct uturn__petsc *u)
{
    const uturn_plan_t *core = uturn_mpi_plan_core(u->plan);
    uturn_stats_t stats;
    uturn_stats_init(&stats);
    uturn_plan_stats(core, &stats);
    u->online          = stats.online;
    u->plan_slots      = stats.slots;
    u->plan_disk_slots = 0;
    if (stats.levels > 1) {
        uturn_level_stats_t level;
        uturn_level_stats_init(&level);
        uturn_plan_level_stats(core, 0, &level);
        u->plan_slots = level.slots;
        uturn_level_stats_init(&level);
        uturn_plan_level_stats(core, 1, &level);
        u->plan_disk_slots = level.slots;
    }
}

/* The first rank (lowest) where short_here is true, or -1, and that
 * rank's three figures in what (collective). */
static PetscErrorCode first_rank(MPI_Comm comm, bool short_here,
                                 uint64_t what[3], int *rank)
{
    PetscFunctionBegin;
    int me = 0, size = 1;
    PetscCallMPI(MPI_Comm_rank(comm, &me));
    PetscCallMPI(MPI_Comm_size(comm, &size));
    int first = short_here ? me : size;
    PetscCallMPI(
        MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm));
    *rank = first < size ? first : -1;
    if (*rank >= 0)
        PetscCallMPI(MPI_Bcast(what, 3, MPI_UINT64_T, *rank, comm));
    PetscFunctionReturn(0);
}

/* Every rank's budget must hold a checkpoint (a disk level may hold them
 * all), and a disk budget given must hold one: collective checks, so that
 * every rank fails together, naming the first rank short and its option.
 * A checkpoint is the rank's part of a state, and of the last stage too
 * when the method needs it (petsc_stage.c). */
static PetscErrorCode check_budgets(const struct uturn__petsc *u,
                                    const struct uturn__petsc_request *r)
{
    PetscFunctionBegin;
    int bad = -1;
    /* its budget, disk budget and part of a checkpoint, from that rank */
    uint64_t what[3] = {u->opt.budget_bytes, u->opt.disk_bytes, r->state_bytes};
    const char *kind = u->staged ? "state and its last stage (this RK "
                                   "method reuses it)"
                                 : "state";
    PetscCall(first_rank(u->comm, u->opt.disk_bytes > 0 && r->disk_slots == 0,
                         what, &bad));
    PetscCheck(bad < 0, u->comm, PETSC_ERR_ARG_OUTOFRANGE,
               "uturn: rank %d's -ts_trajectory_uturn_disk (%llu bytes) "
               "holds no checkpoint of its %llu-byte part of a %s: give "
               "at least that, or leave the option out",
               bad, (unsigned long long)what[1], (unsigned long long)what[2],
               kind);
    PetscCall(first_rank(u->comm, r->slots + r->disk_slots == 0, what, &bad));
    PetscCheck(bad < 0, u->comm, PETSC_ERR_ARG_OUTOFRANGE,
               "uturn: rank %d's -ts_trajectory_uturn_budget (%llu bytes) "
               "holds no checkpoint: each rank needs at least its part of a "
               "%s (%llu bytes on rank %d)",
               bad, (unsigned long long)what[0], kind,
               (unsigned long long)what[2], bad);
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_plan_begin(struct uturn__petsc *u, TS ts, Vec x)
{
    PetscFunctionBegin;
    struct uturn__petsc_request r;
    memset(&r, 0, sizeof r);
    PetscInt local = 0;
    PetscCall(VecGetLocalSize(x, &local));
    /* a checkpoint keeps the last stage too when the method reuses it */
    r.state_bytes = (uint64_t)local * sizeof(PetscScalar) * (u->staged ? 2 : 1);
    PetscCall(choose(u, ts, &r));
    capacities(u, ts, &r);
    PetscCall(check_budgets(u, &r));
    if (u->plan == NULL || !same_request(&r, &u->request))
        PetscCall(make_plan(u, &r));
    agreed_capacity(u);
    PetscFunctionReturn(0);
}
