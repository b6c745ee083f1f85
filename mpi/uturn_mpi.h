/*
 * uturn_mpi: one plan on every MPI rank.
 *
 * A distributed code runs one executor per rank, and each rank holds its
 * part of every state. Every rank must then perform the same actions: if
 * rank 0 reverses step 7 while rank 1 is still advancing, one of them
 * waits forever in a halo exchange. Ranks that plan alone disagree as soon
 * as their states or budgets differ (an uneven split with the same byte
 * budget everywhere gives each rank its own slot count, its own plan, and
 * a wrong gradient or a hang). This layer makes the ranks agree:
 *
 *   uturn_mpi_plan_create()  every rank passes its own problem (the same
 *                            steps and planner; its own budget and state
 *                            size) and gets one plan every rank can run
 *                            within its own budget, after the ranks have
 *                            compared fingerprints;
 *   uturn_mpi_plan_adopt()   the same agreement for plans the ranks built
 *                            themselves (parsed plan text, say);
 *   uturn_mpi_run()          runs the plan on every rank, so that whatever
 *                            fails before the first callback fails on every
 *                            rank together, and no rank returns success
 *                            while another failed; with a combined report.
 *
 * Every failure is the same on every rank: the same status, and a message
 * that begins "rank R of P: " naming the lowest rank that failed, followed
 * by what that rank's own call said (its minimum_bytes and other error
 * fields come with it). docs/mpi.md explains the agreement rules, what the
 * layer costs per rank at scale, and figures measured with it.
 *
 * Collective calls. Every function taking a communicator or an MPI plan is
 * collective over that communicator: every rank must call it, in the same
 * order as the other collective calls on it. The layer talks on its own
 * duplicate of the communicator (MPI_Comm_dup), so its messages never meet
 * the program's; that duplicate uses MPI_ERRORS_ARE_FATAL, since a failed
 * collective leaves ranks that disagree on what happened. The layer calls
 * MPI from the thread that calls it (MPI_THREAD_FUNNELED is enough when
 * that is the main thread), and one thread at a time may use an MPI plan.
 * The ranks are assumed to share one architecture (the layer's messages
 * are structs sent as bytes).
 *
 * Link -luturn_mpi -luturn and MPI (CMake: uturn::uturn_mpi; pkg-config:
 * uturn-mpi). The core library never links MPI. From Fortran, see
 * bindings/fortran/uturn_mpi.f90 and the *_f entries below.
 */
#ifndef UTURN_MPI_H_INCLUDED
#define UTURN_MPI_H_INCLUDED

#include "uturn_mpi_export.h"

#include <mpi.h>
#include <uturn.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One plan agreed over a communicator. Since: 0.2 */
typedef struct uturn_mpi_plan uturn_mpi_plan_t;

/** Automatic per-step resolution: at most this many units. Since: 0.2 */
#define UTURN_MPI_UNITS 1024u

/** Automatic per-step resolution: dp's table stays within this many bytes
 *  on every rank (the plan keeps the table). Since: 0.2 */
#define UTURN_MPI_TABLE_BYTES (64ull * 1024 * 1024)

/** Online plans with sizes as the run goes: the units of the agreed
 *  plan's budget (2^32: a held state loses under 2^-32 of a budget to
 *  rounding). Since: 0.2 */
#define UTURN_MPI_ONLINE_UNITS (1ull << 32)

/** The most storage levels (memory included) an MPI plan may have.
 *  Since: 0.2 */
#define UTURN_MPI_LEVELS 16u

/**
 * How the ranks agree on a plan. Prepare with uturn_mpi_options_init().
 * Every rank must pass the same values (they are compared).
 * Since: 0.2
 */
typedef struct uturn_mpi_options {
    size_t size; /* set by uturn_mpi_options_init() */
    /* The MPI plan and the plan it holds; NULL: malloc/free. Copied; its
     * `user` must outlive the MPI plan. */
    const uturn_allocator_t *alloc;
    /* Per-step sizes: U, the units the agreed dp plan is made in (see
     * uturn_mpi_plan_create()); 0: automatic, the most units up to
     * UTURN_MPI_UNITS whose dp table fits table_bytes. */
    uint64_t units;
    /* Per-step sizes: the table limit for automatic units; 0:
     * UTURN_MPI_TABLE_BYTES. At most UTURN_DP_TABLE_BYTES. */
    uint64_t table_bytes;
    /* Also plan what each rank would make alone, and report both forward
     * costs (uturn_mpi_plan_info_t.own_forward_cost). Default true. With
     * per-step sizes this solves a second dp of the same size: planning
     * takes about twice as long. */
    bool compare;
} uturn_mpi_options_t;

/** Set @p options to its defaults (compare true, everything else 0/NULL)
 *  for a struct of @p size bytes. NULL is a no-op. Since: 0.2 */
UTURN_MPI_EXPORT void uturn_mpi_options_init_size(uturn_mpi_options_t *options,
                                                  size_t size);
#define uturn_mpi_options_init(p) uturn_mpi_options_init_size((p), sizeof *(p))

/**
 * What the agreement found, on this rank. Prepare with
 * uturn_mpi_plan_info_init(). Fields marked "over ranks" are the same on
 * every rank.
 * Since: 0.2
 */
typedef struct uturn_mpi_plan_info {
    size_t size;           /* set by uturn_mpi_plan_info_init() */
    int rank;              /* this rank in the plan's communicator */
    int ranks;             /* the communicator's size */
    uint64_t fingerprint;  /* the agreed plan's (over ranks) */
    uint64_t forward_cost; /* the agreed plan's forward_cost (over ranks) */
    /* Uniform states: the agreed capacity, the least any rank's budget
     * holds at its own real slot cost (over ranks); 0 when no rank's
     * budget limits it, and for per-step and adopted plans. */
    uint64_t slots;
    /* Uniform states: what this rank's budget holds alone; UTURN_NONE
     * when it gave neither a budget nor slots; 0 otherwise. */
    uint64_t own_slots;
    /* Uniform states: the lowest rank whose own capacity is the agreed
     * one (over ranks); -1 otherwise. */
    int limiting_rank;
    /* Per-step sizes: U, the units the plan was made in (over ranks);
     * 0 otherwise. */
    uint64_t units;
    /* The forward_cost of the plan this rank would make alone (the same
     * planner at its own capacity; per-step: dp on its own sizes and
     * budget at the same resolution and with the agreed costs); 0 when
     * not computed (options.compare false, adopted plans). */
    uint64_t own_forward_cost;
    uint64_t own_forward_cost_min; /* the least of them (over ranks) */
    uint64_t own_forward_cost_max; /* the largest of them (over ranks) */
    uint64_t plan_bytes;     /* memory the agreed plan holds on this rank */
    uint64_t collectives;    /* collective MPI calls the creation made */
    double planning_seconds; /* the slowest rank's time (over ranks) */
} uturn_mpi_plan_info_t;

/** Zero @p info for a struct of @p size bytes. NULL is a no-op.
 *  Since: 0.2 */
UTURN_MPI_EXPORT void uturn_mpi_plan_info_init_size(uturn_mpi_plan_info_t *info,
                                                    size_t size);
#define uturn_mpi_plan_info_init(p)                                            \
    uturn_mpi_plan_info_init_size((p), sizeof *(p))

/**
 * Agree on one plan over @p comm: collective, every rank with its own
 * @p problem. Every rank must give the same planner, steps, stride,
 * options, and dp's table_bytes and dp_mode (they decide between dp's
 * exact and approximate plans; since 0.2), and either every rank gives
 * per-step sizes or none does (disagreement is UTURN_E_INVALID_ARG naming
 * the first rank that differs from rank 0). What each rank may choose for
 * itself is its budget, its state size and dp's threads (a plan is the
 * same for any thread count).
 *
 * Uniform states (problem->slot_bytes: this rank's state size): each rank
 * works out how many slots its own budget holds at its own real slot cost
 * on @p executor (uturn_executor_capacity(); `slots` instead of a budget
 * is taken as given), the ranks take the least of them (MPI_MIN), and
 * every rank builds the same plan for that capacity. A rank whose budget
 * holds fewer slots than the planner needs makes every rank fail with
 * UTURN_E_INFEASIBLE, naming it, and minimum_bytes is its least budget.
 *
 * Per-step sizes (problem->step_bytes, the sizes of this rank's parts of
 * x_0 .. x_{n-1}; planner dp, budget_bytes required, slots and unit_bytes
 * 0): with s_i this rank's stride of x_i and A its budget's usable bytes
 * (both at real cost), every rank sends u_i = ceil(U s_i / A), the ranks
 * keep the largest u_i of each step (MPI_MAX), and dp plans those units
 * in a budget of U. Whatever the plan holds at once is at most U units,
 * hence at most A bytes on every rank, so each rank's run fits its own
 * budget. The plan is optimal (at that resolution) when the ranks' ratios
 * s_i / A agree; when they do not, it is what the most constrained rank
 * at each step allows, and info.own_forward_cost says what each rank
 * would have paid alone. Rounding up costs each held state under one
 * unit: a plan holding h states may leave up to h/U of a budget unused.
 * U is options->units, else the most units up to UTURN_MPI_UNITS whose
 * dp table (steps^2/2 rows of U + 1 four-byte costs) fits
 * options->table_bytes. uturn_mpi_run() then runs the plan with this
 * rank's own sizes (uturn_run_options_t.step_bytes).
 *
 * step_costs (dp), when every rank gives them, are combined as the
 * largest per step: in a code that advances in lockstep a step takes as
 * long as its slowest rank. unit_bytes must be 0: the layer chooses dp's
 * resolution (with uniform states dp plans in slots, so that ranks with
 * different state sizes make the same plan).
 *
 * Storage levels (uniform states, problem->levels): each rank resolves
 * each level's capacity at its own real cost (uturn_executor_level_slots():
 * memory's bytes less its I/O buffers, a disk's bytes in whole strides of
 * its own state), the first vote takes the least of each over the ranks,
 * and every rank plans those slot counts; the levels' count and costs must
 * be the same everywhere. Each rank's further levels are its own (a file
 * level: its own files in the directory its executor names), and the run's
 * budget is memory's bytes. Levels with per-step sizes: UTURN_E_UNSUPPORTED.
 *
 * Online plans (UTURN_PLANNER_ONLINE, steps 0), uniform states
 * (slot_bytes): the capacity is the least over the ranks, and a run makes
 * one collective call per first-sweep step (an MPI_Allreduce(MAX) of
 * every rank's is_last; a rank without one answers "not last"), so every
 * rank ends at the first step where any rank's criterion holds; none
 * during the reversal. Online plans with sizes as the run goes (no
 * slot_bytes, this rank's budget_bytes, the model's state_size): the plan
 * is made in a budget of U = UTURN_MPI_ONLINE_UNITS units, and as each
 * state is reached every rank computes its share ceil(U s / A) (s its
 * stride of the state, A the bytes its budget holds), and the same call
 * that carries the end flag keeps the largest share (one collective per
 * first-sweep step and one for x_0). Every rank then makes the same plan
 * and holds at most A bytes, as with dp's units above. A later state that
 * some rank's budget cannot hold is kept by no rank (and recomputed); an
 * x_0 that some rank's cannot hold fails every rank at once, before any
 * forward step, naming that rank. Storage levels take uniform states.
 *
 * Collective calls on success: MPI_Comm_dup, then two votes, and with
 * per-step sizes or step costs one MPI_Allreduce of the units and costs
 * between them; failures add a broadcast of the failing rank's message
 * (three calls to name the rank whose problem differs).
 * info.collectives counts them.
 *
 * @param comm      The ranks that run the plan together; duplicated.
 * @param executor  The executor (or one with the same options) that will
 *                  run the plan on this rank: its slot cost is used.
 * @param problem   This rank's problem; read, not retained.
 * @param options   NULL for the defaults.
 * @param[out] out  The MPI plan; NULL on failure (on every rank).
 * @param[out] info What the agreement found, or NULL.
 * @param[out] error Details on failure (the same on every rank), or NULL.
 * @return UTURN_OK, or on every rank the same of:
 *   UTURN_E_INVALID_ARG  a NULL pointer, a bad field (as
 *                        uturn_plan_create()), a parsed planner, problems
 *                        or options that differ between ranks; returned at
 *                        once on this rank alone, without any collective,
 *                        when @p comm is MPI_COMM_NULL or MPI is not
 *                        initialized (no message can be exchanged);
 *   UTURN_E_INFEASIBLE   a rank's budget holds less than the plan needs;
 *   UTURN_E_UNSUPPORTED  as uturn_plan_create() (dp's limits), per-step
 *                        sizes with another planner than dp;
 *   UTURN_E_OVERFLOW, UTURN_E_NOMEM on some rank;
 *   UTURN_E_INVALID_PLAN the ranks' plans have different fingerprints
 *                        (a library that differs between ranks).
 * Thread safety: collective; see "Collective calls" above.
 * Since: 0.2
 */
UTURN_MPI_EXPORT uturn_status_t uturn_mpi_plan_create(
    MPI_Comm comm, const uturn_executor_t *executor,
    const uturn_problem_t *problem, const uturn_mpi_options_t *options,
    uturn_mpi_plan_t **out, uturn_mpi_plan_info_t *info, uturn_error_t *error);

/**
 * uturn_mpi_plan_create() for Fortran: @p comm is a Fortran communicator
 * (an INTEGER from `use mpi`, or `comm%MPI_VAL` with `use mpi_f08`),
 * converted with MPI_Comm_f2c. Everything else as there.
 * Since: 0.2
 */
UTURN_MPI_EXPORT uturn_status_t uturn_mpi_plan_create_f(
    MPI_Fint comm, const uturn_executor_t *executor,
    const uturn_problem_t *problem, const uturn_mpi_options_t *options,
    uturn_mpi_plan_t **out, uturn_mpi_plan_info_t *info, uturn_error_t *error);

/**
 * Agree on plans the ranks built themselves (uturn_plan_parse() of the
 * same text, a plan made with uturn_plan_create() on every rank):
 * collective. The ranks compare fingerprints; if any differs from rank
 * 0's, every rank fails with UTURN_E_INVALID_PLAN naming the first rank
 * that differs, before any callback. The MPI plan borrows @p plan, which
 * must outlive it. Runs use the budget and per-step sizes of their
 * uturn_run_options_t, else the plan's. Collective calls: MPI_Comm_dup and
 * one vote (and those that name a rank on failure).
 * @param options  Only `alloc` is read; NULL for malloc/free.
 * @return UTURN_OK, or on every rank the same of UTURN_E_INVALID_ARG (a
 *         NULL plan or out on some rank; at once on this rank alone for
 *         an unusable @p comm), UTURN_E_INVALID_PLAN, UTURN_E_NOMEM.
 * Thread safety: collective. Since: 0.2
 */
UTURN_MPI_EXPORT uturn_status_t uturn_mpi_plan_adopt(
    MPI_Comm comm, const uturn_plan_t *plan, const uturn_mpi_options_t *options,
    uturn_mpi_plan_t **out, uturn_mpi_plan_info_t *info, uturn_error_t *error);

/** uturn_mpi_plan_adopt() with a Fortran communicator. Since: 0.2 */
UTURN_MPI_EXPORT uturn_status_t uturn_mpi_plan_adopt_f(
    MPI_Fint comm, const uturn_plan_t *plan, const uturn_mpi_options_t *options,
    uturn_mpi_plan_t **out, uturn_mpi_plan_info_t *info, uturn_error_t *error);

/**
 * Free @p plan and its duplicate communicator. Collective (MPI_Comm_free
 * is): every rank frees its MPI plan, before MPI_Finalize. A plan it
 * borrowed (uturn_mpi_plan_adopt()) is left alone. NULL is a no-op on
 * that rank.
 * Since: 0.2
 */
UTURN_MPI_EXPORT void uturn_mpi_plan_free(uturn_mpi_plan_t *plan);

/**
 * The agreed plan, for uturn_plan_stats(), cursors, uturn_plan_write().
 * It belongs to the MPI plan and lives as long as it; NULL for NULL.
 * Thread safety: safe. Since: 0.2
 */
UTURN_MPI_EXPORT const uturn_plan_t *
uturn_mpi_plan_core(const uturn_mpi_plan_t *plan);

/**
 * What the agreement found (as uturn_mpi_plan_create()'s @p info).
 * @return UTURN_OK; UTURN_E_INVALID_ARG if a pointer is NULL. Local.
 * Since: 0.2
 */
UTURN_MPI_EXPORT uturn_status_t
uturn_mpi_plan_info(const uturn_mpi_plan_t *plan, uturn_mpi_plan_info_t *out);

/**
 * Options of one collective run. Prepare with uturn_mpi_run_options_init().
 * Since: 0.2
 */
typedef struct uturn_mpi_run_options {
    size_t size; /* set by uturn_mpi_run_options_init() */
    /* The executor's options for this rank, or NULL. budget_bytes 0 means
     * this rank's budget from uturn_mpi_plan_create() (else the plan's);
     * step_bytes must be NULL for a plan made with per-step sizes (the
     * layer passes this rank's own). Progress callbacks run as they are;
     * one that stops the run on one rank is a failure like any other. A
     * plan of several sweeps runs every sweep in the one collective run,
     * or with sweeps_on_request the first forward and sweep 1, each
     * further sweep then by uturn_mpi_sweep(); sweeps_on_request must be
     * the same on every rank (else every rank refuses the run,
     * UTURN_E_INVALID_ARG, before any callback). */
    const uturn_run_options_t *run;
    /* When this rank fails after its first callback (a callback returned
     * non-zero, a recomputed state differs, a level's I/O fails), print
     * the agreed-style message (rank, status, step) to stderr and call
     * MPI_Abort(comm, status). Since 0.3 this is also what happens
     * without it, unless local_callbacks is set: see there. Default
     * false. */
    bool abort_on_failure;
    /* Appended in 0.3. The caller declares that the model's callbacks
     * never communicate: no halo exchange, no collective, nothing another
     * rank waits for. Why it matters: when one rank fails in the middle
     * of a run, the others are most likely blocked in a halo exchange
     * with it, waiting for a message it will never send, and nothing
     * inside MPI can free a rank stuck in MPI_Sendrecv or MPI_Wait;
     * returning the failure would leave the job hanging until its time
     * limit. So by default (false) a rank that fails after its first
     * callback prints "uturn_mpi: rank R of P: STATUS: message (with the
     * step); calling MPI_Abort" and aborts the job (with one rank, the
     * run returns the failure). With local_callbacks true (and
     * abort_on_failure false) the run returns instead: the other ranks
     * finish their own runs, or, in an online plan's first sweep, stop at
     * the next end vote, which carries the failure; then every rank
     * returns the failing rank's status and message. A failure that every
     * rank meets at once (before any callback, or an x_0 past every
     * plan) never aborts. */
    bool local_callbacks;
} uturn_mpi_run_options_t;

/** Set @p options to its defaults for a struct of @p size bytes. NULL is
 *  a no-op. Since: 0.2 */
UTURN_MPI_EXPORT void
uturn_mpi_run_options_init_size(uturn_mpi_run_options_t *options, size_t size);
#define uturn_mpi_run_options_init(p)                                          \
    uturn_mpi_run_options_init_size((p), sizeof *(p))

/**
 * A run combined over the ranks, the same on every rank. Prepare with
 * uturn_mpi_report_init(). `_max` is the largest rank's figure, `_sum`
 * all ranks' together.
 * Since: 0.2
 */
typedef struct uturn_mpi_report {
    size_t size;                      /* set by uturn_mpi_report_init() */
    uturn_status_t status;            /* the agreed status */
    int ranks;                        /* the communicator's size */
    int failed_rank;                  /* the lowest rank that failed, or -1 */
    uint64_t failed_ranks;            /* how many failed */
    uint64_t measured_peak_bytes_max; /* slot storage held, largest rank */
    uint64_t measured_peak_bytes_sum; /* slot storage held, all ranks */
    uint64_t planned_peak_bytes_max;
    uint64_t budget_bytes_sum; /* the budgets the runs kept to */
    double wall_seconds_max;
    double forward_seconds_max;
    double adjoint_seconds_max;
    double copy_seconds_max;
    double overhead_seconds_max;
    double forward_seconds_sum; /* time in the model, all ranks */
    double adjoint_seconds_sum;
    double copy_seconds_sum;
    /* The slowest rank's time inside the layer's own collectives, waiting
     * for the other ranks included (a rank that reaches its first callback
     * early waits there for the slowest preflight). */
    double collective_seconds_max;
    uint64_t collectives; /* collective calls of the run: 2 on success,
                           * plus one per first-sweep step online */
    /* Storage levels: per level past memory (index 0 is level 1), the bytes
     * every rank wrote and read, summed; levels is how many. */
    uint64_t levels;
    uint64_t level_bytes_written_sum[UTURN_MPI_LEVELS];
    uint64_t level_bytes_read_sum[UTURN_MPI_LEVELS];
} uturn_mpi_report_t;

/** Zero @p report for a struct of @p size bytes. NULL is a no-op.
 *  Since: 0.2 */
UTURN_MPI_EXPORT void uturn_mpi_report_init_size(uturn_mpi_report_t *report,
                                                 size_t size);
#define uturn_mpi_report_init(p) uturn_mpi_report_init_size((p), sizeof *(p))

/**
 * Run @p plan on every rank: collective, each rank with its own executor
 * and model (its part of the state). It is uturn_executor_run() with
 * three promises added:
 *
 * - Everything that can fail before the first callback (a model or
 *   option refused, the budget, slot memory, storage) fails on every rank
 *   together: the layer sits between each rank's preflight and its first
 *   callback (forward, turn, adjoint, save or load: the layer wraps them;
 *   state_size is only passed through and must not communicate) and makes
 *   the ranks agree there; if any rank failed, no rank calls any callback
 *   of the model, and every rank returns that rank's status and message.
 * - After the run the status is agreed: no rank returns success while
 *   another failed. A failure of one rank after the first callback
 *   aborts the job (MPI_Abort, with a message naming the rank, the status
 *   and the step) unless the callbacks are declared local, in which case
 *   it returns on every rank (see local_callbacks). An online plan
 *   without max_steps needs is_last in some rank's model: if no rank has
 *   one, every rank returns UTURN_E_INVALID_ARG before any callback.
 * - @p combined holds the report combined over the ranks.
 *
 * The executor must cost slots as the one the plan was made with. The
 * first vote sits inside the first callback, the second after the run:
 * two collective calls per run, whatever the number of steps (online: one
 * more per first-sweep state, and for a failed rank with local callbacks
 * its part of the next one), and none
 * per action; failures add a broadcast. @p observed and @p report are
 * this rank's, as its uturn_executor_run() filled them (report->status
 * is what this rank's executor returned: UTURN_E_CALLBACK on a rank that
 * the gate stopped); the return value and @p error are the agreed ones.
 * Each of the three may be NULL.
 * @return UTURN_OK on every rank, or the same failure on every rank (the
 *         statuses of uturn_executor_run(); UTURN_E_INVALID_ARG also when
 *         run options give step_bytes for a per-step plan). A NULL
 *         @p plan returns UTURN_E_INVALID_ARG at once on this rank alone.
 *         A failure of one rank after the first callback does not return
 *         (the job ends) unless local_callbacks is set and
 *         abort_on_failure is not, or there is one rank.
 * Thread safety: collective; one thread per executor and MPI plan.
 * Since: 0.2
 */
UTURN_MPI_EXPORT uturn_status_t uturn_mpi_run(
    const uturn_mpi_plan_t *plan, uturn_executor_t *executor,
    const uturn_model_t *model, const uturn_mpi_run_options_t *options,
    uturn_stats_t *observed, uturn_report_t *report,
    uturn_mpi_report_t *combined, uturn_error_t *error);

/**
 * The next sweep of a plan of several sweeps whose uturn_mpi_run() had
 * sweeps_on_request (uturn_executor_sweep() on every rank, between the
 * same two votes as a run: a rank with no trajectory held, or a failure
 * on any rank, is every rank's failure, as in uturn_mpi_run()). @p model
 * as uturn_executor_sweep() takes it (the run's forward and state);
 * @p options: local_callbacks and abort_on_failure (its `run` is not
 * read). After the plan's last sweep, or a failure, every rank's
 * trajectory is released; uturn_executor_release() on each rank drops
 * it earlier (locally: no rank waits).
 * @return as uturn_mpi_run(). Thread safety: collective. Since: 0.3
 */
UTURN_MPI_EXPORT uturn_status_t uturn_mpi_sweep(
    const uturn_mpi_plan_t *plan, uturn_executor_t *executor,
    const uturn_model_t *model, const uturn_mpi_run_options_t *options,
    uturn_stats_t *observed, uturn_report_t *report,
    uturn_mpi_report_t *combined, uturn_error_t *error);

#ifdef __cplusplus
}
#endif

#endif
