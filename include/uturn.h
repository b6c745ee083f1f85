/*
 * uturn: memory-bounded checkpointing for adjoint computations.
 *
 * This header is the manual. Every declaration says what it returns, who
 * owns what, how NULL is treated and what is safe across threads. The model
 * and the exact meaning of every action and count are in docs/model.md
 * (installed as share/doc/uturn/model.md); the short version follows.
 *
 * A forward computation of n steps, x_{i+1} = F_i(x_i), ends in an objective
 * J(x_n). Its adjoint needs the states x_{n-1}, .., x_0 in reverse order. A
 * plan is a stream of actions that keeps some states in slots and recomputes
 * the others, so that the slots never hold more than a byte budget:
 *
 *   advance a b   run F_a .. F_{b-1}; the live state goes from x_a to x_b
 *   store i k     copy the live state x_i into the empty slot k
 *   restore i k   copy slot k, which holds x_i, into the live state
 *   free k        empty slot k
 *   turn          the live state is x_n: evaluate J and seed the adjoint
 *   reverse i     adjoint step i with the live state x_i (n-1 first, 0 last)
 *
 * Slots are the only memory a plan spends. x_0 is not special: a plan that
 * revisits x_0 stores it in a slot, and that slot counts. The live state and
 * the adjoint state belong to the caller and are not counted.
 *
 * Structs that grow: the value structs (problems, stats, models, options,
 * reports, errors) only ever gain fields at their end, and their first
 * field is their size. Prepare each with its uturn_<noun>_init(): a macro
 * that passes sizeof, so that the library writes exactly the caller's
 * struct. A program built against an older header calls the function of
 * the same name, which writes only the fields that header knew; the
 * library reads and writes no byte past the size a struct records.
 *
 * Every count is a uint64_t. Steps, slots and action indices start at 0.
 * No function keeps global mutable state: different objects may be used from
 * different threads at the same time, and a plan never changes after it is
 * built, so one plan may be read from many threads.
 */
#ifndef UTURN_H_INCLUDED
#define UTURN_H_INCLUDED

#include "uturn_export.h"
#include "uturn_version.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Statuses and errors                                                      */
/* ------------------------------------------------------------------------ */

/**
 * The result of every fallible call. Each code keeps its value forever.
 * Since: 0.1
 */
typedef enum uturn_status {
    UTURN_OK                 = 0,
    UTURN_E_INVALID_ARG      = 1,  /* NULL pointer, zero steps, bad value */
    UTURN_E_NOMEM            = 2,  /* an allocation failed */
    UTURN_E_INFEASIBLE       = 3,  /* no schedule fits the memory budget */
    UTURN_E_OVERFLOW         = 4,  /* a count does not fit in 64 bits */
    UTURN_E_UNSUPPORTED      = 5,  /* the planner cannot handle this */
    UTURN_E_CALLBACK         = 6,  /* a user callback returned non-zero */
    UTURN_E_INVALID_PLAN     = 7,  /* a plan breaks a rule of the model */
    UTURN_E_PARSE            = 8,  /* malformed plan text */
    UTURN_E_IO               = 9,  /* a file could not be read or written */
    UTURN_E_NONDETERMINISTIC = 10, /* a recomputed state differs */
    /* Since 0.3: a durable run stopped at a durable point, as asked
     * (uturn_run_options_t.durable_request); resume it to finish. */
    UTURN_E_STOPPED = 11
} uturn_status_t;

/**
 * Fixed English text for a status, e.g. "out of memory".
 * @return A static string, never NULL ("unknown status" for values outside
 *         the enum).
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT const char *uturn_strerror(uturn_status_t status);

/**
 * The enumerator's name for logs, e.g. "UTURN_E_NOMEM".
 * @return A static string, never NULL ("UTURN_E_UNKNOWN" outside the enum).
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT const char *uturn_status_name(uturn_status_t status);

/** "No such index" in uturn_error_t and uturn_report_t fields. Since: 0.1 */
#define UTURN_NONE UINT64_MAX

/**
 * What went wrong, for the person reading it. Functions that can say more
 * than their status take a `uturn_error_t *error` as their last argument;
 * pass NULL to ignore it. The message is always NUL-terminated; fields that
 * do not apply are UTURN_NONE (indices) or 0 (counts).
 * Prepare with uturn_error_init(); the library fills it only on failure.
 * Since: 0.1
 */
typedef struct uturn_error {
    size_t size;            /* set by uturn_error_init() */
    uturn_status_t status;  /* the status the call returned */
    uint64_t action;        /* index of the action at fault, or UTURN_NONE */
    uint64_t line;          /* 1-based line in plan text, or 0 */
    uint64_t step;          /* step at fault, or UTURN_NONE */
    uint64_t minimum_slots; /* slots the request needs at least, or 0 */
    uint64_t minimum_bytes; /* bytes the request needs at least, or 0 */
    char message[256];      /* e.g. "revolve needs at least 1 slot (...)" */
} uturn_error_t;

/**
 * Set @p error to "no error" and record its size. NULL is a no-op.
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT void uturn_error_init(uturn_error_t *error);
/* For a struct of @p size bytes; see "Structs that grow" above. */
UTURN_EXPORT void uturn_error_init_size(uturn_error_t *error, size_t size);
#define uturn_error_init(p) uturn_error_init_size((p), sizeof *(p))

/* ------------------------------------------------------------------------ */
/* Version                                                                  */
/* ------------------------------------------------------------------------ */

/** Version of the library linked at run time, as UTURN_VERSION_NUMBER. */
UTURN_EXPORT unsigned uturn_version_number(void);
/** Version of the library linked at run time, e.g. "0.1.0"; never NULL. */
UTURN_EXPORT const char *uturn_version_string(void);

/* ------------------------------------------------------------------------ */
/* Allocation                                                               */
/* ------------------------------------------------------------------------ */

/**
 * A caller-supplied allocator, chosen per object. @p alloc returns NULL on
 * failure; @p free receives the size that was asked for. Both must be
 * safe to call from every thread that uses objects made with them.
 * Wherever the API takes a `const uturn_allocator_t *`, NULL means
 * malloc/free; the struct is copied, so it need not outlive the call, but
 * `user` must outlive every object made with it.
 * Since: 0.1
 */
typedef struct uturn_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} uturn_allocator_t;

/* ------------------------------------------------------------------------ */
/* Problems and planners                                                    */
/* ------------------------------------------------------------------------ */

/**
 * The planners. Values are fixed forever.
 *
 * hrevolve (H-Revolve, Herrmann and Pallez 2020) plans storage levels
 * (uturn_problem_t.levels, or one memory level from slots or a budget,
 * where it equals revolve): the least cost, forward steps plus every
 * write and read, for uniform states and unit step costs, provided no
 * level is cheaper to write or to read than a faster one. Its tables
 * take memory growing like n times the slots and time up to n^2 times the
 * slots; see uturn_plan_create() for its limits.
 *
 * online with several levels (Since: 0.2) plans the periodic disk
 * schedule of Aupy and Herrmann (2017): during the first sweep the last
 * level takes x_0, x_P, x_2P, ... and nothing else is stored; when it is
 * full, every other checkpoint is freed and P doubles. At the end each
 * period is reversed, from the last, by hrevolve's optimum over the
 * faster levels and the last level's free slots. P minimises
 * (w + r + R(P-1)) / P, R(l) the least cost of reversing l steps from a
 * checkpoint on the last level: asymptotically optimal as n grows, and up
 * to a few times the offline optimum at small n. Same limits on costs as
 * hrevolve; its realised cost comes from uturn_plan_online_cost().
 * Since: 0.1 (hrevolve: 0.2)
 */
typedef enum uturn_planner {
    UTURN_PLANNER_STORE_ALL = 0,  /* "store-all": every state, no recompute */
    UTURN_PLANNER_PERIODIC  = 1,  /* "periodic": a checkpoint every k steps */
    UTURN_PLANNER_SQRT      = 2,  /* "sqrt": periodic with k = ceil(sqrt n) */
    UTURN_PLANNER_REVOLVE   = 3,  /* "revolve": binomial, optimal */
    UTURN_PLANNER_DP        = 4,  /* "dp": per-step sizes and costs */
    UTURN_PLANNER_ONLINE    = 5,  /* "online": the step count is unknown */
    UTURN_PLANNER_HREVOLVE  = 6,  /* "hrevolve": storage levels, optimal */
    UTURN_PLANNER_PARSED    = 100 /* "parsed": read from plan text */
} uturn_planner_t;

/**
 * The planner's name: "store-all", "periodic", "sqrt", "revolve", "dp",
 * "hrevolve", "online" or "parsed"; NULL for a value outside the enum.
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT const char *uturn_planner_name(uturn_planner_t planner);

/**
 * Look a planner up by its exact name (as uturn_planner_name() spells it;
 * "parsed" is not a planner one can ask for).
 * @return UTURN_OK; UTURN_E_INVALID_ARG if a pointer is NULL or the name is
 *         unknown (@p out is then left alone).
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_planner_from_name(const char *name,
                                                    uturn_planner_t *out);

/**
 * How the dp planner treats a table that would pass its limit (see
 * uturn_problem_t). Values are fixed forever.
 * Since: 0.2
 */
typedef enum uturn_dp_mode {
    UTURN_DP_AUTO        = 0, /* exact when the table fits, else approximate */
    UTURN_DP_EXACT       = 1, /* exact, or UTURN_E_UNSUPPORTED */
    UTURN_DP_APPROXIMATE = 2  /* the approximate planner, always */
} uturn_dp_mode_t;

/**
 * What to plan. Prepare with uturn_problem_init(), then set the fields.
 *
 * Capacity comes from `slots`, or from `budget_bytes / slot_bytes` (rounded
 * down) when `slots` is 0; giving both is an error. store-all, sqrt and
 * periodic with a stride need no capacity (they then get exactly what they
 * use); revolve, hrevolve and periodic without a stride need one. A
 * capacity that cannot hold the planner's minimum is UTURN_E_INFEASIBLE,
 * and the error names the minimum.
 *
 * States of different sizes and steps of different costs (appended in 0.1):
 * `step_bytes[i]` is the size of x_i and `step_costs[i]` the cost of F_i,
 * for i = 0 .. steps-1; NULL means every state is slot_bytes and every cost
 * is 1. Only the dp planner takes them (the others plan uniform states and
 * return UTURN_E_UNSUPPORTED); with step_bytes the capacity is a byte
 * budget. The plan copies both arrays.
 *
 * dp minimises the total cost of forward steps among nested schedules (a
 * checkpoint is freed only after everything it was stored for is reversed)
 * by dynamic programming over segments and memory in units of `unit_bytes`,
 * every size rounded up, so a plan that fits in units fits in bytes; it is
 * exactly optimal when every size is a multiple of the unit. unit_bytes 0
 * picks the greatest common divisor of the sizes, which is always exact
 * (since 0.2; 0.1 coarsened it when the table passed its limit).
 *
 * dp's tables (appended in 0.2): the exact table holds, for every segment
 * of the chain, one 4-byte cell per memory unit up to the smaller of the
 * budget and what storing all of the segment's states needs (1000 steps
 * of 1..8 bytes at 1-byte units and half of store-all's budget: about 2.7
 * GB). The budget is first cut down to store-all's need, and a budget
 * that holds store-all gets the store-all plan without any table.
 * `table_bytes` caps what dp's tables may hold (default
 * UTURN_DP_TABLE_BYTES, 1 GiB; 0 also means the default). `dp_mode` says
 * what happens when the exact table would pass it:
 *   UTURN_DP_AUTO         the exact plan when its table fits, else the
 *                         approximate one (below);
 *   UTURN_DP_EXACT        the exact plan or UTURN_E_UNSUPPORTED;
 *   UTURN_DP_APPROXIMATE  always the approximate plan (for long chains:
 *                         n in the thousands to tens of thousands).
 * The approximate planner keeps a checkpoint at least every 16 steps in
 * the top-level first sweep (each gap between two reversed exactly, with
 * the exact table of segments of at most 16 steps) and, when the budget
 * cannot afford that, also tries first sweeps whose checkpoints sit on a
 * coarse grid of steps 8 to 16 apart, falling back to the plan that keeps
 * x_0 alone; its plans are valid within the budget and its stats give a
 * certified lower bound on the exact optimum
 * (uturn_stats_t.lower_bound_cost). Its tables take about 1.2 KB per step
 * plus one byte per step and memory unit of the budget (up to store-all's
 * need), and its time grows like steps * 16 * units. When its tables pass
 * table_bytes at the gcd unit, it narrows the band, then coarsens the unit
 * (only when unit_bytes is 0). dp keeps its costs in 32 bits: steps times
 * the sum of the costs must stay below 2^30.
 * `threads` is the number of threads that fill the tables (default 1; 0
 * also means 1; at most UTURN_DP_MAX_THREADS, more is
 * UTURN_E_INVALID_ARG). They are created and joined inside
 * uturn_plan_create(); the plan is the same for every thread count, bit
 * for bit. No field is ever read from the environment.
 *
 * Several reverse sweeps (appended in 0.3): `sweeps` = k >= 2 asks for a
 * plan that runs the forward once and then reverses it k times, each
 * sweep beginning with its own turn (live = x_n) and reversing n-1 .. 0.
 * A checkpoint a later sweep reads is marked by a `persist` action after
 * its store and stays until a free. Revolve and online plan several
 * sweeps (uniform states). Online (steps 0; slots from 4 to
 * UTURN_SWEEPS_MAX_SLOTS, one level) makes sweep 1 its online plan, and
 * once the end has told n, the sweeps left follow revolve's layout of
 * that many over n steps: fresh from x_0 after sweep 1, or over
 * checkpoints sweep 1 keeps, whichever takes fewer forward steps
 * (docs/model.md). Revolve takes one level or several: then its
 * persistent checkpoints go to a further level, each segment reversed by
 * hrevolve, when the whole cost is less, see docs/model.md; on one level
 * it gives the fewest
 * forward steps among plans that store m persistent checkpoints in the
 * first forward and reverse each segment between them by revolve in
 * every sweep (docs/model.md, "Several reverse sweeps"), with at most
 * UTURN_SWEEPS_MAX_SLOTS effective slots (min(slots, steps + 1)) and
 * UTURN_SWEEPS_MAX sweeps; more is UTURN_E_UNSUPPORTED. The counts are
 * totals over the first forward and every sweep (reverse_steps = k n).
 * `sweeps` = UTURN_SWEEPS_UNBOUNDED leaves the number open: the plan is
 * placed for the steady state (the least forward steps per further
 * sweep), its actions are the first forward, sweep 1 and the frees of
 * its persistent checkpoints (as if the caller stopped there), and a run
 * with sweeps_on_request takes each further sweep on request until
 * uturn_executor_release(); its stats count that stream (sweeps is
 * UTURN_SWEEPS_UNBOUNDED) and sweep_forward_steps is what each further
 * sweep takes.
 * Since: 0.1
 */
typedef struct uturn_problem {
    size_t size;                /* set by uturn_problem_init() */
    uturn_planner_t planner;    /* default UTURN_PLANNER_REVOLVE */
    uint64_t steps;             /* n, the steps to reverse, >= 1 */
    uint64_t slots;             /* slot capacity, or 0 (see above) */
    uint64_t slot_bytes;        /* bytes one slot counts as, or 0: unknown */
    uint64_t budget_bytes;      /* bytes the slots may hold at once, or 0 */
    uint64_t stride;            /* periodic only: k >= 1, or 0 to choose */
    const uint64_t *step_bytes; /* dp: bytes of x_i, or NULL (uniform) */
    const uint64_t *step_costs; /* dp: cost of F_i, or NULL (all 1) */
    uint64_t unit_bytes;        /* dp: memory resolution, 0: automatic */
    /* Appended in 0.2: storage levels, fastest first (see uturn_level_t).
     * NULL: one level of memory whose capacity is slots or budget_bytes
     * (then both of those must be 0 when levels are given). Any planner
     * takes one level; several need hrevolve or online, with uniform
     * states. */
    const struct uturn_level *levels;
    uint64_t level_count;
    /* Appended in 0.2: the online planner only (steps is 0): a bound on n,
     * or 0 for none. The first sweep ends by itself at x_max_steps. With
     * several levels it also sizes the reversal's tables (the period
     * doubles until the last level's slots times it reach max_steps);
     * without it such a plan reaches those slots times the period, and
     * its cursor stops there (no turn: the run fails). On uniform slots
     * of one level the plan takes at most max_steps + 1 of the slots or
     * budget given (stats.slots; since 0.3), since no run holds more, and
     * its bookkeeping and the executor's storage are for those alone. */
    uint64_t max_steps;
    /* Appended in 0.2: dp at scale (see above). */
    uint64_t threads;        /* dp: threads filling its tables; default 1 */
    uint64_t table_bytes;    /* dp: most its tables may hold; default
                                UTURN_DP_TABLE_BYTES */
    uturn_dp_mode_t dp_mode; /* dp: default UTURN_DP_AUTO */
    /* Appended in 0.3: planning that takes long reports how far it has
     * got. hrevolve calls progress(progress_user, done, total) about every
     * 1% of its tables' work (done and total in its units of work; total
     * may grow when the search prunes less than it hoped, never done past
     * total) from the thread that called uturn_plan_create(), and once at
     * the end; a non-zero return stops planning with UTURN_E_CALLBACK.
     * So does revolve with several sweeps on storage levels while it
     * builds hrevolve's tables (docs/model.md section 13). Other planners
     * do not call it this round. NULL: no reports. Not
     * kept by the plan, and not part of its fingerprint. */
    int (*progress)(void *user, uint64_t done, uint64_t total);
    void *progress_user;
    /* Appended in 0.3: reverse sweeps over the one forward (0 or 1: one).
     * See "Several reverse sweeps" above. */
    uint64_t sweeps;
} uturn_problem_t;

/** Most effective slots (min(slots, steps + 1)) of a plan of several
 * sweeps. Since: 0.3 */
#define UTURN_SWEEPS_MAX_SLOTS 1024
/** Most sweeps of one plan. Since: 0.3 */
#define UTURN_SWEEPS_MAX (1u << 20)
/** uturn_problem_t.sweeps: as many sweeps as asked for, one at a time
 *  (sweeps on request), until the trajectory is released. Since: 0.3 */
#define UTURN_SWEEPS_UNBOUNDED UINT64_MAX

/**
 * One level of slot storage: memory (level 0), then a local disk, a
 * parallel file system, ... A store into the level costs write_cost and a
 * restore from it read_cost, in the unit of step_costs (1 = one step of
 * unit cost); a plan's cost is its forward cost plus every write and read
 * cost. Slots are numbered across levels: level 0 holds slots 0 ..
 * slots_0 - 1, level 1 the next slots_1, and so on. A capacity is a slot
 * count, or bytes (resolved as floor(bytes / slot_bytes) by
 * uturn_plan_create(), at the storage's real cost by
 * uturn_executor_plan()); a plan's levels always have slot counts.
 * Prepare with uturn_level_init().
 * Since: 0.2
 */
typedef struct uturn_level {
    size_t size;         /* set by uturn_level_init() */
    const char *name;    /* a label ("mem", "disk"); copied; NULL: "levelK" */
    uint64_t slots;      /* capacity in slots, or 0: bytes */
    uint64_t bytes;      /* capacity in bytes, when slots is 0 */
    uint64_t write_cost; /* per store into this level */
    uint64_t read_cost;  /* per restore from it */
} uturn_level_t;

/** Set @p level to its defaults (all 0, no name). Since: 0.2 */
UTURN_EXPORT void uturn_level_init_size(uturn_level_t *level, size_t size);
#define uturn_level_init(p) uturn_level_init_size((p), sizeof *(p))

/**
 * One level's counts in a plan (uturn_plan_level_stats()) or a walk.
 * Since: 0.2
 */
typedef struct uturn_level_stats {
    size_t size;         /* set by uturn_level_stats_init() */
    const char *name;    /* the level's label; owned by the plan */
    uint64_t slots;      /* its capacity in slots */
    uint64_t write_cost; /* per store */
    uint64_t read_cost;  /* per restore */
    uint64_t stores;     /* stores into it */
    uint64_t restores;   /* restores from it */
    uint64_t peak_slots; /* most of its slots held at once */
    uint64_t peak_bytes; /* most bytes held in it at once */
} uturn_level_stats_t;

/** Zero @p stats and record its size. Since: 0.2 */
UTURN_EXPORT void uturn_level_stats_init_size(uturn_level_stats_t *stats,
                                              size_t size);
#define uturn_level_stats_init(p) uturn_level_stats_init_size((p), sizeof *(p))

/** The most uturn_problem_t.threads dp takes. Since: 0.2 */
#define UTURN_DP_MAX_THREADS 1024u

/**
 * The default of uturn_problem_t.table_bytes (bytes): before 0.2, the
 * fixed limit of dp's table. Since: 0.1
 */
#define UTURN_DP_TABLE_BYTES (1024ull * 1024 * 1024)

/**
 * The hrevolve planner's limits (see uturn_plan_create()): the most memory
 * its tables may take (bytes), and the most split evaluations the plain
 * dynamic program would make for the request (a worst case: the planner
 * prunes most of them). Since: 0.2
 */
#define UTURN_HREVOLVE_TABLE_BYTES (1024ull * 1024 * 1024)
#define UTURN_HREVOLVE_WORK        100000000000ull

/**
 * The most split candidates and range bounds hrevolve's pruned search
 * may evaluate while it builds its tables: about 6.9e10, some 4 minutes
 * on one core here (3e8 a second; 10^4 steps over memory 20 and disk 500
 * take 1.5e9, 4 s; memory 30 and disk 30 take 2.3e8 at 10^4 steps, 1.2e9
 * at 2 10^4 and 7.0e9 at 4 10^4: the pruning helps less as n grows with
 * few slots). A request within UTURN_HREVOLVE_WORK whose search passes it
 * stops there with UTURN_E_UNSUPPORTED, naming the limit; watch long ones
 * with uturn_problem_t.progress. Since: 0.3
 */
#define UTURN_HREVOLVE_EVALS (1ull << 36)

/**
 * The most slots an online plan of uniform slots holds (since 0.3; 256
 * before): what bounds it is the cursor's memory, about 160 bytes per
 * slot (2^20 slots: 168 MB), kept by every cursor and by the executor
 * outside the budget, for every slot of the plan from the start (and the
 * executor's storage for them all): give max_steps when n has a bound,
 * and the plan takes at most max_steps + 1. More slots asked for are
 * refused (UTURN_E_UNSUPPORTED); a byte budget that holds more makes a
 * plan of this many (stats.slots). With 4 slots and more the plan stores every
 * state while they fit (n <= slots: forward steps = n), is exactly
 * optimal up to (s+1)(s+2)/2 steps, decides each first-sweep step in
 * constant time (amortised), and reverses each range of states it kept
 * by revolve. A byte budget whose sizes come as the run goes plans as
 * many states as fit at x_1's size, up to this many (the cursor's state
 * grows to them at x_1).
 * Since: 0.2
 */
#define UTURN_ONLINE_MAX_SLOTS (1ull << 30)

/**
 * An online plan with a byte budget and sizes given as the run goes whose
 * budget holds at most this many states at x_1's size is planned with the
 * exact reversal (a search that grows like slots^4 in bad cases); one
 * that holds more, with the rules of uniform slots at that many, freeing
 * slots as larger states come (docs/model.md section 8).
 * Since: 0.3
 */
#define UTURN_ONLINE_MAX_SLOTS_BYTES 256

/**
 * Set every field of @p problem to its default (revolve, threads 1,
 * table_bytes UTURN_DP_TABLE_BYTES, dp_mode UTURN_DP_AUTO, everything else
 * 0) and record its size. NULL is a no-op.
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT void uturn_problem_init(uturn_problem_t *problem);
/* For a struct of @p size bytes; see "Structs that grow" above. */
UTURN_EXPORT void uturn_problem_init_size(uturn_problem_t *problem,
                                          size_t size);
#define uturn_problem_init(p) uturn_problem_init_size((p), sizeof *(p))

/**
 * The counts of docs/model.md section 3; the names mean the same
 * everywhere (C structs, CLI text and JSON).
 * Prepare with uturn_stats_init().
 *
 * The last four fields (appended in 0.2) are dp's; other planners leave
 * them false/0. `exact` says forward_cost is the least any nested plan
 * can cost in bytes (the unit divides every size and the table was not
 * replaced by the approximate planner). `lower_bound_cost` is a certified
 * lower bound on that least cost: forward_cost itself when exact, else a
 * bound that no nested plan within the budget goes below, so
 * forward_cost / lower_bound_cost bounds how far the plan can be from the
 * optimum. `planning_seconds` is the wall time uturn_plan_create() spent
 * on the plan (it varies from run to run; everything else does not).
 * Since: 0.1
 */
typedef struct uturn_stats {
    size_t size;               /* set by uturn_stats_init() */
    uint64_t steps;            /* n */
    uint64_t forward_steps;    /* every F_i evaluated by advance */
    uint64_t recomputed_steps; /* forward_steps - steps */
    uint64_t reverse_steps;    /* adjoint steps, n for a complete plan */
    uint64_t stores;           /* store actions */
    uint64_t restores;         /* restore actions */
    uint64_t frees;            /* free actions */
    uint64_t peak_slots;       /* most slots held at once */
    uint64_t peak_bytes;       /* most bytes held at once (0: unknown) */
    uint64_t actions;          /* actions in the plan */
    uint64_t slots;            /* capacity the plan was made for */
    uint64_t slot_bytes;       /* bytes one slot counts as (0: unknown) */
    uint64_t budget_bytes;     /* the budget, or 0 when none was given */
    uint64_t forward_cost;     /* summed cost of every F_i evaluation */
    uint64_t recompute_cost;   /* forward_cost minus one sweep's cost */
    double recompute_factor;   /* forward_steps / steps */
    /* Appended in 0.2. */
    uint64_t fingerprint; /* uturn_plan_fingerprint() of the plan */
    uint64_t cost;        /* forward_cost + every write and read cost */
    uint64_t levels;      /* storage levels (1 without levels) */
    bool online;          /* made without knowing the steps */
    /* Appended in 0.2: dp's (see above). */
    bool exact;                /* dp: forward_cost is the exact optimum */
    uint64_t unit_bytes;       /* dp: bytes per memory unit of its tables */
    uint64_t lower_bound_cost; /* dp: no nested plan costs less */
    double planning_seconds;   /* dp: wall time spent planning */
    /* Appended in 0.3: several sweeps (see uturn_problem_t.sweeps). */
    uint64_t sweeps;     /* reverse sweeps (1 for a plan of one) */
    uint64_t persistent; /* checkpoints read by a later sweep */
    /* forward steps of each sweep that keeps the persistent checkpoints,
     * after the first and before the last (every further sweep of an
     * unbounded plan); 0 for a plan of one sweep or two (no such sweep:
     * the last frees them as it goes), for an online plan (its sweeps
     * after the first are planned once n is known) and for parsed
     * plans; a run's observed stats give the plan's (each sweep's own
     * is in its report) */
    uint64_t sweep_forward_steps;
} uturn_stats_t;

/**
 * Zero every count of @p stats and record its size. NULL is a no-op.
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT void uturn_stats_init(uturn_stats_t *stats);
/* For a struct of @p size bytes; see "Structs that grow" above. */
UTURN_EXPORT void uturn_stats_init_size(uturn_stats_t *stats, size_t size);
#define uturn_stats_init(p) uturn_stats_init_size((p), sizeof *(p))

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * The kinds of action. New kinds arrive as new values: a consumer must
 * treat a value it does not know as an error.
 * Since: 0.1
 */
typedef enum uturn_op {
    UTURN_OP_ADVANCE = 1, /* step -> step_end */
    UTURN_OP_STORE   = 2, /* live x_step into slot */
    UTURN_OP_RESTORE = 3, /* slot (holding x_step) into live */
    UTURN_OP_FREE    = 4, /* empty slot */
    UTURN_OP_TURN    = 5, /* live is x_n */
    UTURN_OP_REVERSE = 6, /* adjoint step `step` */
    /* Appended in 0.3: slot's checkpoint is read by a later sweep (plans
     * of several sweeps only; see uturn_problem_t.sweeps). */
    UTURN_OP_PERSIST = 7
} uturn_op_t;

/**
 * One action. Fields an op does not use are 0: advance uses step and
 * step_end; store and restore use step and slot; free and persist use
 * slot; reverse uses step; turn uses none.
 * Since: 0.1
 */
typedef struct uturn_action {
    uturn_op_t op;
    uint64_t step;
    uint64_t step_end;
    uint64_t slot;
} uturn_action_t;

/**
 * The op's name as the plan text writes it ("advance", "store", ...);
 * NULL for an unknown op.
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT const char *uturn_op_name(uturn_op_t op);

/**
 * Write @p action as one line of plan text, without the newline, e.g.
 * "advance 0 4", into @p buffer (always NUL-terminated when @p capacity is
 * at least 1, like snprintf).
 * @param[out] length  The length the full text needs, without the NUL;
 *                     may be NULL.
 * @return UTURN_OK; UTURN_E_INVALID_ARG if action is NULL, its op is
 *         unknown, or buffer is NULL with a non-zero capacity.
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_action_format(const uturn_action_t *action,
                                                char *buffer, size_t capacity,
                                                size_t *length);

/* ------------------------------------------------------------------------ */
/* Plans                                                                    */
/* ------------------------------------------------------------------------ */

/** An immutable plan: a problem and the planner that serves it. */
typedef struct uturn_plan uturn_plan_t;

/**
 * Build a plan for @p problem. Nothing is generated yet: a plan is a
 * generator (see uturn_cursor_create()) and its predicted counts
 * (uturn_plan_stats()) are computed without generating it: in time that
 * does not grow with n for store-all, sqrt, periodic with a stride and
 * revolve (O(r^2 log s) for revolve); choosing periodic's stride for a
 * capacity takes O(sqrt n) (up to 2^40 steps); dp solves its table, in
 * time growing like n^3 * units / 6 at most (bounds skip most of it), and
 * holds it; with problem->threads above 1 it creates that many threads and
 * joins them before returning (threads it cannot create are left out: the
 * work is the same, done by fewer).
 *
 * What each planner needs: store-all, sqrt and periodic with a stride,
 * nothing but steps; revolve and periodic without a stride, a capacity;
 * dp, a capacity (a byte budget with step_bytes); hrevolve, a capacity
 * (levels, or slots or a budget for one memory level), uniform states and
 * unit step costs, levels whose write and read costs each never decrease
 * with the level and are at most 2^24, and a request within its limits:
 * at most 2^28 steps, tables of at most UTURN_HREVOLVE_TABLE_BYTES (about
 * 12 n c_k + 8 n bytes for each level of c_k <= n slots) and at most
 * UTURN_HREVOLVE_WORK split evaluations for the plain dynamic program
 * (about c_k n^2 / 2 for each level, c_0 n for a level 0 with no costs;
 * hrevolve prunes most of them: 10^4 steps over memory 20 and disk 500,
 * 2.5e10, plan in a few seconds). The limits are decided from the steps
 * and levels alone, before anything of size n is allocated. hrevolve
 * solves its tables and holds them; its counts, per level too, come
 * without generating the plan. Every planner takes one level; only
 * hrevolve and online (steps unknown) plan several.
 *
 * @param problem   From uturn_problem_init(); read only, not retained.
 * @param alloc     Allocator for the plan and its cursors, or NULL.
 * @param[out] out  The new plan; set to NULL on failure.
 * @param[out] error  Details on failure, or NULL.
 * @return UTURN_OK;
 *   UTURN_E_INVALID_ARG  a pointer is NULL, steps is 0, the planner is
 *                        unknown, slots and budget_bytes are both set, a
 *                        budget comes without slot_bytes, a stride is out
 *                        of 1..n or given to a planner other than periodic,
 *                        the planner needs a capacity and has none,
 *                        dp_mode is not a uturn_dp_mode_t, or dp's
 *                        threads pass UTURN_DP_MAX_THREADS;
 *   UTURN_E_INFEASIBLE   the capacity is below the planner's minimum (the
 *                        error gives it in minimum_slots/minimum_bytes;
 *                        for hrevolve, no slot at all, or a level whose
 *                        bytes hold no state);
 *   UTURN_E_OVERFLOW     a predicted count does not fit in 64 bits;
 *   UTURN_E_UNSUPPORTED  per-step sizes or costs for a planner other than
 *                        dp (hrevolve included, this round); periodic
 *                        asked to choose a stride for more than 2^40
 *                        steps; dp costs past 32 bits; dp's exact table
 *                        past table_bytes at the unit given (the message
 *                        names a unit that fits) or, with UTURN_DP_EXACT,
 *                        at the gcd unit; a chain so long that even dp's
 *                        approximate tables cannot fit table_bytes
 *                        (refused in time and memory that do not grow
 *                        with steps); a dp state of 2^32 - 1 units or more
 *                        (since 0.3); several levels for a planner other
 *                        than hrevolve and online; online with levels
 *                        whose costs decrease or pass 2^24, or whose
 *                        max_steps or period search needs tables past
 *                        hrevolve's limits; hrevolve past
 *                        its limits (the message gives the table bytes and
 *                        the work it would need, and names the
 *                        alternative: fewer steps or slots, or for very
 *                        long chains the online planner's periodic disk
 *                        schedule), with a level cheaper to write or to
 *                        read than a faster one (its optimum is not
 *                        guaranteed then), or with a cost past 2^24;
 *                        hrevolve whose split search passed
 *                        UTURN_HREVOLVE_EVALS evaluations (since 0.3);
 *   UTURN_E_CALLBACK     the problem's progress callback returned
 *                        non-zero (since 0.3);
 *   UTURN_E_NOMEM        an allocation failed.
 * Thread safety: reentrant. The plan is immutable and may be shared.
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_plan_create(const uturn_problem_t *problem,
                                              const uturn_allocator_t *alloc,
                                              uturn_plan_t **out,
                                              uturn_error_t *error);

/**
 * Read a plan from text in the plan format (see README "Plan files"):
 * a line "uturn-plan 1" (or "uturn-plan 2"), header lines "steps N" and
 * "slots S", optional "slot_bytes B", "budget_bytes B" and "planner
 * NAME", with format 2 one "level NAME SLOTS W R" line per storage level
 * (NAME 1 to 63 letters, digits, '_', '.' or '-'; the levels' slots sum
 * to S), since 0.3 "sweeps K" (K >= 2, or "unbounded") for a plan of
 * several sweeps, whose actions may include "persist SLOT", then one
 * action per line;
 * "#" starts a comment. Every number
 * fits in 64 bits. The whole plan is validated; its counts are those
 * observed by the validator, and its cost (forward cost plus every write
 * and read) must fit in 64 bits too (UTURN_E_INVALID_PLAN at the end of
 * the text otherwise). At most @p length bytes of @p text are
 * read; the text need not be NUL-terminated. Untrusted text is safe: the
 * memory a parse takes beyond the plan's actions is bounded by the text's
 * length (a declared step count allocates nothing until its values are
 * there), and text quoted in a message has its non-printable bytes
 * written as \xHH.
 * @param[out] out    The new plan; set to NULL on failure.
 * @param[out] error  Details on failure: line, and action for a rule that
 *                    an action breaks.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer); UTURN_E_PARSE
 *         (malformed text); UTURN_E_INVALID_PLAN (a rule of the model is
 *         broken); UTURN_E_NOMEM.
 * Thread safety: reentrant. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_plan_parse(const char *text, size_t length,
                                             const uturn_allocator_t *alloc,
                                             uturn_plan_t **out,
                                             uturn_error_t *error);

/** A reader of plan text that arrives in pieces (a file, a pipe). */
typedef struct uturn_reader uturn_reader_t;

/**
 * Start reading plan text in pieces: the streaming form of
 * uturn_plan_parse() for text that need not be in memory at once. Each
 * line is read and validated as soon as it is complete and its action is
 * then dropped, so the reader's memory follows the longest line, the
 * per-step values the text holds and the slots in use, never the number
 * of actions. Same format, rules, statuses and messages as
 * uturn_plan_parse(); it builds no plan (use uturn_plan_parse() to run
 * one).
 * @param alloc   Allocator for the reader, or NULL for malloc/free.
 * @param[out] out  The new reader; set to NULL on failure.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (out NULL); UTURN_E_NOMEM.
 * Thread safety: reentrant; one thread per reader. Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_reader_create(const uturn_allocator_t *alloc,
                                                uturn_reader_t **out,
                                                uturn_error_t *error);

/**
 * Read the next @p length bytes of text (any split, even inside a line or
 * a number). The first failure sticks: later calls return it again.
 * @return UTURN_OK; UTURN_E_PARSE (malformed text: line in @p error);
 *         UTURN_E_INVALID_PLAN (a rule broken: action and line);
 *         UTURN_E_INVALID_ARG (NULL reader, NULL text with a non-zero
 *         length, or a finished reader); UTURN_E_NOMEM.
 * Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_reader_feed(uturn_reader_t *reader,
                                              const char *text, size_t length,
                                              uturn_error_t *error);

/**
 * The text has ended: read its last line (it need not end in a newline),
 * check the end-of-plan rules and report the counts the validator saw in
 * @p observed (may be NULL; the counts are those of a uturn_plan_parse()
 * of the same text). A reader finishes once.
 * @return as uturn_reader_feed().
 * Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_reader_finish(uturn_reader_t *reader,
                                                uturn_stats_t *observed,
                                                uturn_error_t *error);

/** Free @p reader. NULL is a no-op. Since: 0.2 */
UTURN_EXPORT void uturn_reader_free(uturn_reader_t *reader);

/** Free @p plan. NULL is a no-op. The plan must have no live cursor. */
UTURN_EXPORT void uturn_plan_free(uturn_plan_t *plan);

/**
 * The plan's predicted counts (for parsed plans: the validated counts).
 * @return UTURN_OK; UTURN_E_INVALID_ARG if a pointer is NULL.
 * Thread safety: safe on a shared plan. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_plan_stats(const uturn_plan_t *plan,
                                             uturn_stats_t *out);

/**
 * The counts of storage level @p level (0: memory) of @p plan: its capacity
 * and costs, the stores into it, the restores from it, its peaks. A plan
 * without levels has one.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (a NULL pointer, or level >=
 *         stats.levels).
 * Thread safety: safe on a shared plan. Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_plan_level_stats(const uturn_plan_t *plan,
                                                   uint64_t level,
                                                   uturn_level_stats_t *out);

/**
 * The cost (uturn_stats_t.cost: forward steps plus every write and read)
 * of the plan an online plan with storage levels realises when the run
 * ends after @p steps steps, computed without generating it; equal to
 * uturn_cursor_stats()'s cost once such a cursor has ended at that step
 * and reached its end.
 * @param[out] cost   The realised plan's cost.
 * @param[out] error  Details on failure, or NULL.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (a NULL pointer; steps 0, or past
 *         where the plan ends: its max_steps, or without one its last
 *         level's slots times its period); UTURN_E_UNSUPPORTED (any other
 *         plan: online plans of one level do not predict it).
 * Thread safety: safe on a shared plan. Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_plan_online_cost(const uturn_plan_t *plan,
                                                   uint64_t steps,
                                                   uint64_t *cost,
                                                   uturn_error_t *error);

/**
 * The problem as the plan resolved it: slots is the capacity the plan was
 * made for (as uturn_stats_t.slots; derived from the budget or the planner
 * when not given), and for periodic and sqrt, stride is the stride used.
 * budget_bytes stays as given, so feed this back to uturn_plan_create()
 * only after clearing one of slots and budget_bytes.
 * @return UTURN_OK; UTURN_E_INVALID_ARG if a pointer is NULL.
 * Thread safety: safe on a shared plan. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_plan_problem(const uturn_plan_t *plan,
                                               uturn_problem_t *out);

/**
 * The plan's fingerprint: XXH3-64 of a canonical little-endian encoding of
 * what determines its action stream (the planner, steps, the capacity or
 * stride as resolved, per-step sizes and costs; for a parsed plan, its
 * actions), and of the encoding's version; not thread counts, allocators,
 * or the bytes a slot counts as. It is the same in every process and on
 * every machine for the same request, so MPI ranks compare it before they
 * run. Equal fingerprints mean equal action streams (up to a hash
 * collision); different ones may still mean equal streams (revolve with 50
 * or 60 slots for 40 steps). uturn_stats_t.fingerprint holds it too; the
 * CLI prints it as 16 hex digits.
 * @return UTURN_OK; UTURN_E_INVALID_ARG if a pointer is NULL.
 * Thread safety: safe on a shared plan. Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_plan_fingerprint(const uturn_plan_t *plan,
                                                   uint64_t *out);

/**
 * Generate every action of @p plan, validate it against every rule of the
 * model and count what happened. This is the check that the predicted
 * counts hold; it costs time proportional to the number of actions and
 * memory proportional to the highest slot used. An online plan is walked
 * to its max_steps, where its first sweep ends by itself.
 * @param[out] observed  The counts seen, or NULL.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL plan); UTURN_E_INVALID_PLAN
 *         (with the action index in @p error); UTURN_E_NOMEM;
 *         UTURN_E_UNSUPPORTED (an online plan without max_steps, or on a
 *         byte budget whose sizes come as the run goes).
 * Thread safety: safe on a shared plan. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_plan_walk(const uturn_plan_t *plan,
                                            uturn_stats_t *observed,
                                            uturn_error_t *error);

/**
 * Write @p plan as plan text to @p stream (the format uturn_plan_parse()
 * reads), streaming one action at a time.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer); UTURN_E_IO (a write
 *         failed); UTURN_E_NOMEM; UTURN_E_UNSUPPORTED, before writing
 *         anything (an online plan without max_steps, whose stream never
 *         ends, or on a byte budget whose sizes come as the run goes).
 * Thread safety: safe on a shared plan; the stream is the caller's.
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_plan_write(const uturn_plan_t *plan,
                                             FILE *stream,
                                             uturn_error_t *error);

/* ------------------------------------------------------------------------ */
/* Cursors: walking a plan one action at a time                             */
/* ------------------------------------------------------------------------ */

/** A position in a plan's action stream. */
typedef struct uturn_cursor uturn_cursor_t;

/**
 * Start walking @p plan from its first action. A cursor holds O(slots)
 * memory (dp's: O(steps)), never the whole action list (a parsed plan's
 * list belongs to the plan). Any number of cursors may walk one plan at the
 * same time.
 * @param alloc  Allocator for the cursor, or NULL for the plan's.
 * @param[out] out  The new cursor; set to NULL on failure.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer); UTURN_E_NOMEM.
 * Thread safety: reentrant; the plan must outlive the cursor.
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_cursor_create(const uturn_plan_t *plan,
                                                const uturn_allocator_t *alloc,
                                                uturn_cursor_t **out);

/**
 * Write the next action into @p action.
 * @return true when an action was written; false at the end of the plan,
 *         or where an online plan stopped before its end was said
 *         (uturn_cursor_read() then says which; then and for every later
 *         call, @p action is left alone). cursor and action must not be
 *         NULL.
 * Thread safety: one thread per cursor. Since: 0.1
 */
UTURN_EXPORT bool uturn_cursor_next(uturn_cursor_t *cursor,
                                    uturn_action_t *action);

/**
 * Write up to @p capacity next actions into @p actions: the batch form of
 * uturn_cursor_next(), for consumers that walk long plans (it saves a call
 * per action). Both forms may be mixed on one cursor.
 * @param[out] count  Actions written; 0 only at the end of the plan, or
 *         where an online plan stopped before its end was said.
 * @return UTURN_OK (at the end of the plan too); UTURN_E_INVALID_ARG if a
 *         pointer is NULL or capacity is 0. With count 0, an online plan
 *         that stopped before its end was said: UTURN_E_INVALID_ARG (in
 *         bytes mode a state's size was not given before the next read),
 *         UTURN_E_INFEASIBLE or UTURN_E_NOMEM (what uturn_cursor_set_size()
 *         returned when it refused a size), UTURN_E_INFEASIBLE (with
 *         levels: past the plan's reach, see max_steps). Since 0.3 (it was
 *         UTURN_OK with count 0).
 * Thread safety: one thread per cursor. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_cursor_read(uturn_cursor_t *cursor,
                                              uturn_action_t *actions,
                                              size_t capacity, size_t *count);

/**
 * Online plans (the step count is unknown): "the live state is the last".
 * Valid right after the cursor handed out an `advance i i+1` of the first
 * sweep (then n = i + 1); the next reads give the reversal, planned for
 * the checkpoints held at that moment. During the first sweep a read
 * never hands out more than up to the next such advance.
 * @return UTURN_OK; UTURN_E_UNSUPPORTED for a plan that knows its steps;
 *         UTURN_E_INVALID_ARG (NULL cursor, or not right after an advance
 *         of the first sweep: actions are still waiting, or the end came
 *         already).
 * Thread safety: one thread per cursor. Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_cursor_end(uturn_cursor_t *cursor);

/**
 * Online plans with a byte budget (states of different sizes): the size of
 * x_step, the state just reached (x_0 before the first read; then after
 * each advance of the first sweep, before the next read). A size of 0 is
 * taken (a state counts as a byte but x_0); the executor, which must save
 * something, refuses it from a model's state_size.
 * @return UTURN_OK; UTURN_E_UNSUPPORTED (not such a plan);
 *         UTURN_E_INVALID_ARG (step is not the state just reached);
 *         UTURN_E_INFEASIBLE (x_0 alone does not fit the budget);
 *         UTURN_E_NOMEM (at x_1, when the budget holds more than
 *         UTURN_ONLINE_MAX_SLOTS_BYTES states: no memory for the plan's
 *         larger state, about 160 bytes a slot; the plan then stops).
 * Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_cursor_set_size(uturn_cursor_t *cursor,
                                                  uint64_t step,
                                                  uint64_t bytes);

/**
 * An online plan's realised counts: those of the actions its cursor has
 * generated so far (all of them, once it is at its end), with steps = n
 * once the end was said (UTURN_NONE before). In the reverse sweep of a
 * plan with uniform slots they are worked out when asked, not counted as
 * the actions go: a call there costs about a microsecond (measured: 1.3
 * µs at 4 slots, 0.2 µs at 1000), so ask at the end or now and then,
 * not after each action.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer);
 *         UTURN_E_UNSUPPORTED (a plan that knows its steps: its counts are
 *         uturn_plan_stats()).
 * Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_cursor_stats(const uturn_cursor_t *cursor,
                                               uturn_stats_t *out);

/** Free @p cursor. NULL is a no-op. Since: 0.1 */
UTURN_EXPORT void uturn_cursor_free(uturn_cursor_t *cursor);

/* ------------------------------------------------------------------------ */
/* Validation of any action stream                                          */
/* ------------------------------------------------------------------------ */

/** Simulates an action stream and checks every rule of the model. */
typedef struct uturn_validator uturn_validator_t;

/**
 * Start validating a stream for @p problem: its steps, its capacity (slots,
 * or budget_bytes / slot_bytes; unlimited when neither is set; with
 * storage levels, their slots, counted per level), and its byte budget
 * when budget_bytes and slot_bytes are set. With step_bytes and no slots
 * the budget is in bytes alone (any number of states whose sizes fit).
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer, zero steps, slots and
 *         budget_bytes both set, budget without slot_bytes); UTURN_E_NOMEM.
 * Thread safety: reentrant. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_validator_create(
    const uturn_problem_t *problem, const uturn_allocator_t *alloc,
    uturn_validator_t **out, uturn_error_t *error);

/**
 * Apply the next action. On a broken rule the validator stays at the
 * failure: later pushes return the same status.
 * @return UTURN_OK; UTURN_E_INVALID_PLAN with the action index, the rule and
 *         the state that broke it in @p error; UTURN_E_INVALID_ARG (NULL
 *         pointer); UTURN_E_NOMEM.
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_validator_push(uturn_validator_t *validator,
                                                 const uturn_action_t *action,
                                                 uturn_error_t *error);

/**
 * Check the end-of-plan rules (turn done, every step reversed, every slot
 * empty) and report the counts seen so far in @p observed (may be NULL).
 * @return UTURN_OK; UTURN_E_INVALID_PLAN; UTURN_E_INVALID_ARG.
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_validator_finish(uturn_validator_t *validator,
                                                   uturn_stats_t *observed,
                                                   uturn_error_t *error);

/**
 * The counts the validator has seen for storage level @p level (0 without
 * levels): stores into it, restores from it, its peaks. The name is NULL.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (a NULL pointer, or no such
 *         level).
 * Since: 0.2
 */
UTURN_EXPORT uturn_status_t
uturn_validator_level_stats(const uturn_validator_t *validator, uint64_t level,
                            uturn_level_stats_t *out);

/**
 * A validator made with steps = 0 (an online plan, the step count
 * unknown) learns n here, once the stream's first sweep has reached x_n
 * and before its turn. Until then no advance is checked against n, and a
 * turn is a broken rule.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL, n is 0 or already known);
 *         UTURN_E_INVALID_PLAN (the stream went past n already).
 * Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_validator_set_steps(
    uturn_validator_t *validator, uint64_t steps, uturn_error_t *error);

/** Free @p validator. NULL is a no-op. Since: 0.1 */
UTURN_EXPORT void uturn_validator_free(uturn_validator_t *validator);

/* ------------------------------------------------------------------------ */
/* The executor: running a model to a plan                                  */
/* ------------------------------------------------------------------------ */

/**
 * The caller's model. Prepare with uturn_model_init(). Every callback takes
 * `user` first and returns 0 to continue; any other value stops the run
 * with UTURN_E_CALLBACK (the value is reported in the error message).
 *
 * The state is either one contiguous buffer (`state`, `state_bytes`), which
 * the executor copies with memcpy, or, when `state` is NULL, reached through
 * `save`/`load`: save(step, dst, bytes) writes the live state x_step into
 * dst, load(step, src, bytes) makes src the live state. With save/load,
 * `state_size` may give a per-step size (bytes of x_step); when it is NULL
 * every state has `state_bytes`. state_size must be a pure function of the
 * step while the run lasts: the executor asks it when it plans a store,
 * when it stores and when it restores (so several times per state, and
 * again on each recomputation); keep it cheap (it is not cached). A size
 * past what the plan gave the state's slot is refused (UTURN_E_INVALID_ARG,
 * named); other changes of answer for one step are not detected.
 *
 * The adjoint callback receives the live state x_step; forward work it does
 * itself (recomputing stages or x_{step+1}) is not counted by uturn.
 *
 * Every callback must return to the executor: it must not unwind through
 * the library (C longjmp out of it, a C++ exception escaping it, a Fortran
 * ERROR STOP or MPI_Abort-style exit on a path the run should survive).
 * The library is C and cannot clean up behind an unwind: the run's cursor
 * and buffers leak and the executor is left mid-run. Catch inside the
 * callback, keep what you caught, and return non-zero; the run then stops
 * with UTURN_E_CALLBACK, frees everything, and you rethrow after it.
 * From C++, <uturn.hpp> (installed beside this header) does that for any
 * callable: Executor::run() rethrows the callback's own exception.
 * Since: 0.1
 */
typedef struct uturn_model {
    size_t size;                               /* set by uturn_model_init() */
    void *user;                                /* passed to every callback */
    int (*forward)(void *user, uint64_t step); /* live x_step -> x_step+1 */
    int (*turn)(void *user);                   /* live x_n: J, seed xbar_n */
    int (*adjoint)(void *user, uint64_t step); /* xbar_{step+1} -> xbar_step */
    void *state;          /* the contiguous live state, or NULL */
    uint64_t state_bytes; /* its size; with save/load, the uniform size */
    int (*save)(void *user, uint64_t step, void *dst, uint64_t bytes);
    int (*load)(void *user, uint64_t step, const void *src, uint64_t bytes);
    uint64_t (*state_size)(void *user, uint64_t step); /* or NULL */
    /* Appended in 0.2. Online plans (the step count is unknown): asked
     * after each forward step of the first sweep, with the live state
     * x_step; non-zero means "this is the last state, x_n" (no return value
     * of forward changes meaning). NULL: the run ends only at the plan's
     * max_steps. With save/load and state_size, the size of each new state
     * is asked once it exists. */
    int (*is_last)(void *user, uint64_t step);
    /* A step that depends on more than the state (an adaptive time step
     * chosen by a controller with history) may keep a small record per
     * step: with record_bytes > 0 and forward_record set, it is called
     * instead of forward, with the record of F_step: in the first sweep
     * (again == false) the callback writes it; in every recomputation
     * (again == true) it gets back exactly what it wrote. The records are
     * kept outside the budget (report->record_bytes). Otherwise a forward
     * step must be a function of the step index and the state alone. */
    uint64_t record_bytes;
    int (*forward_record)(void *user, uint64_t step, void *record, bool again);
    /* Appended in 0.2, like the fields above. For a layer that runs one
     * online plan on several processes (the MPI layer sets it; a single
     * process leaves it NULL). Called once for each state of an online
     * plan's first sweep, after is_last and state_size, with what this
     * process found: *last (is_last's answer; 0 for x_0) and *share (with
     * a byte budget, the part of the plan's budget the state takes here,
     * its stride times the plan's budget over the bytes this run's budget
     * holds, rounded up; 0 for a plan of slots; x_0 is asked only with a
     * byte budget). It may raise either, never lower them (to the largest
     * over the processes: then every process makes the same plan, within
     * its own budget). Non-zero stops the run like any callback. */
    int (*agree)(void *user, uint64_t step, int *last, uint64_t *share);
    /* Appended in 0.3: durable runs (uturn_run_options_t.durable_dir).
     * save_adjoint writes everything the run's turn and adjoint callbacks
     * keep between calls (the adjoint state, the objective, gradients
     * accumulated so far: adjoint_bytes in all) into dst; load_adjoint
     * makes src that state again, in the process that resumes. Both are
     * called in the first forward too (the adjoint is not yet seeded:
     * save what it is). Required by a durable run; NULL otherwise. */
    uint64_t adjoint_bytes;
    int (*save_adjoint)(void *user, void *dst, uint64_t bytes);
    int (*load_adjoint)(void *user, const void *src, uint64_t bytes);
} uturn_model_t;

/** Set every field of @p model to 0/NULL and record its size. Since: 0.1 */
UTURN_EXPORT void uturn_model_init(uturn_model_t *model);
/* For a struct of @p size bytes; see "Structs that grow" above. */
UTURN_EXPORT void uturn_model_init_size(uturn_model_t *model, size_t size);
#define uturn_model_init(p) uturn_model_init_size((p), sizeof *(p))

/**
 * How far a run has got, for uturn_run_options_t.on_progress. Work is
 * counted in cost units: each forward step at its cost (1 unless the plan
 * has step_costs), each reverse step as 1.
 * Since: 0.2
 */
typedef struct uturn_progress {
    size_t size;            /* sizeof(uturn_progress_t) of the library */
    uint64_t done;          /* work done so far */
    uint64_t total;         /* work the plan predicts: forward_cost + the
                             * reverse steps (n, or k n with k sweeps);
                             * an online plan's once its end is known
                             * (UTURN_NONE before); an unbounded plan's
                             * grows by each further sweep asked for, or
                             * is UTURN_NONE when that sweep's forward
                             * steps are not known ahead (online) */
    uint64_t forward_steps; /* forward steps done so far */
    uint64_t reverse_steps; /* reverse steps done so far */
    uint64_t steps;         /* n */
    double seconds;         /* wall time since the run began */
} uturn_progress_t;

/**
 * Options of one run. Prepare with uturn_run_options_init().
 * Since: 0.1
 */
typedef struct uturn_run_options {
    size_t size;           /* set by uturn_run_options_init() */
    uint64_t budget_bytes; /* 0: the plan's budget_bytes (0 there: none) */
    bool verify;           /* hash states; see uturn_executor_run() */
    /* Called after every `progress_every` reverse steps and after the last;
     * a non-zero return stops the run with UTURN_E_CALLBACK. May be NULL.
     * `steps` is the run's reverse steps in all: n, or k n for a plan of
     * k sweeps (since 0.3), and k n in the k-th sweep of an unbounded plan
     * (each asked for); `reversed` how many are done. */
    int (*progress)(void *user, uint64_t reversed, uint64_t steps);
    void *progress_user;
    uint64_t progress_every; /* 0: about every 1% of the steps */
    /* Appended in 0.2: progress over the whole run, the first sweep
     * included (see uturn_progress_t). Called whenever at least
     * `on_progress_every` units of work have been done since the last call,
     * and once at the end of a complete run; a non-zero return stops the
     * run with UTURN_E_CALLBACK. May be NULL. */
    int (*on_progress)(void *user, const uturn_progress_t *progress);
    void *on_progress_user;
    uint64_t on_progress_every; /* 0: about every 1% of the total work */
    /* Appended in 0.2: the bytes of x_0 .. x_{n-1} in this run, when they
     * are not the plan's step_bytes (a plan made in abstract units for
     * several MPI ranks, each with its own sizes); NULL: the plan's. Read
     * during the run; the peak is found by simulating the plan's stores
     * with these sizes, and the counts are in them. */
    const uint64_t *step_bytes;
    /* Appended in 0.3: with a plan of several sweeps, run the first
     * forward and sweep 1 only, and keep the trajectory (the persistent
     * checkpoints) in the executor for each further sweep on request
     * (uturn_executor_sweep()). false: every sweep in this one call. A
     * parsed plan (uturn_plan_parse()) of several sweeps cannot pause
     * between them: UTURN_E_UNSUPPORTED, before any callback. */
    bool sweeps_on_request;
    /* Appended in 0.3: a durable run, which a new process can resume
     * after this one is killed (docs/model.md, "Durable runs"). At each
     * durable point the run writes, in durable_dir, every checkpoint it
     * holds that is not there yet, the live state, the adjoint
     * (model.save_adjoint) and a manifest, replaced atomically; resuming
     * re-makes the slots from them and continues with the same actions,
     * so the gradient is bitwise the uninterrupted run's. NULL: not
     * durable. The directory is made if missing (not its parents); one
     * run at a time holds it (a lock). A run that completes removes its
     * durable files; one that fails or stops keeps its last point. */
    const char *durable_dir;
    /* The model's identity, checked at resume with the plan's fingerprint,
     * state_bytes and adjoint_bytes (at most 200 bytes; NULL: empty). The
     * run cannot see its inputs: encode in it what a resumed job must not
     * change (the initial state, parameters), or a resume with other
     * inputs continues the old run. */
    const char *durable_tag;
    /* A durable point after at least this many seconds of run time since
     * the last (or since the start); 0: only on request. */
    double durable_interval;
    /* NULL, or a flag the run reads between forward steps and actions (a
     * signal handler may set it: SIGTERM or SIGUSR1 before a job's end).
     * UTURN_DURABLE_POINT: make a durable point and go on;
     * UTURN_DURABLE_STOP: make one and stop with UTURN_E_STOPPED. The run
     * sets it back to 0 once the point is made. */
    volatile sig_atomic_t *durable_request;
    /* UTURN_DURABLE_NEW (default): start; a directory that holds a
     * durable point is refused (resume it or remove it). RESUME: continue
     * from the directory's point; none there is refused. AUTO: resume when
     * there is a point, else start (a job script's mode). */
    int durable_mode;
    /* Appended in 0.3, for a layer that runs one durable run on several
     * processes (the MPI layer sets them; a single process leaves them
     * NULL and 0). With durable_agree, whether a point is due is decided
     * together: at every place a point may come (after each forward step
     * inside an advance and after each action) the run calls it with
     * what it found here (*due: 0, UTURN_DURABLE_POINT or _STOP), and the
     * layer raises *due to the largest over the processes. With
     * durable_commit, a point's manifest is kept as manifest-P and the
     * previous point's files stay until durable_commit(P) returns 0 (every
     * process has written point P, and the layer has recorded that); a
     * resume then reads manifest-P for P = durable_resume_point (0: the
     * manifest of a single process), and a complete run leaves its files
     * for the layer to remove once its commit record is gone. Non-zero
     * from either stops the run like any callback. */
    int (*durable_agree)(void *user, int *due);
    int (*durable_commit)(void *user, uint64_t point);
    void *durable_user;
    uint64_t durable_resume_point;
} uturn_run_options_t;

/** uturn_run_options_t.durable_request values. Since: 0.3 */
#define UTURN_DURABLE_POINT 1
#define UTURN_DURABLE_STOP  2
/** uturn_run_options_t.durable_mode values. Since: 0.3 */
#define UTURN_DURABLE_NEW    0
#define UTURN_DURABLE_RESUME 1
#define UTURN_DURABLE_AUTO   2

/** Set @p options to its defaults and record its size. Since: 0.1 */
UTURN_EXPORT void uturn_run_options_init(uturn_run_options_t *options);
/* For a struct of @p size bytes; see "Structs that grow" above. */
UTURN_EXPORT void uturn_run_options_init_size(uturn_run_options_t *options,
                                              size_t size);
#define uturn_run_options_init(p) uturn_run_options_init_size((p), sizeof *(p))

/**
 * What a run did, beyond the counts (which come back as uturn_stats_t).
 * Prepare with uturn_report_init(). Filled on success and on failure.
 * Times are wall-clock seconds; when actions are short (under about a
 * microsecond) the split is estimated by timing one action in 32, since a
 * clock read costs about as much as such an action; overhead is the wall
 * time not attributed to the model or to copies.
 * Since: 0.1
 */
typedef struct uturn_report {
    size_t size;                  /* set by uturn_report_init() */
    uturn_status_t status;        /* what uturn_executor_run() returned */
    uint64_t actions_done;        /* actions completed */
    uint64_t failed_action;       /* index of the action that failed */
    uint64_t failed_step;         /* its step, or UTURN_NONE */
    uint64_t slot_bytes;          /* what one slot really costs: the stride */
    uint64_t planned_peak_bytes;  /* the plan's peak at the real slot cost */
    uint64_t measured_peak_bytes; /* everything the storage held for slots */
    uint64_t verify_bytes;        /* memory verify mode kept, outside budget */
    double wall_seconds;          /* the whole run */
    double forward_seconds;       /* forward callbacks */
    double adjoint_seconds;       /* turn and adjoint callbacks */
    double copy_seconds;          /* store and restore (memcpy, save, load) */
    double overhead_seconds;      /* everything else */
    bool jemalloc;                /* always false since 0.2 (see below) */
    /* Appended in 0.2. The inputs of the slot cost (uturn_slot_cost_t):
     * planned_peak_bytes is what the region for the plan's peak costs, and
     * planned_peak_bytes <= measured_peak_bytes <= budget_bytes (the
     * region may be larger than the plan needs when an earlier run left
     * it so and the budget allows). */
    uint64_t storage_granule;    /* the storage holds multiples of this */
    uint64_t storage_alignment;  /* each slot starts at a multiple of this */
    const char *storage_backend; /* "pages" or "allocator"; static */
    uint64_t held_before_bytes;  /* slot storage kept from earlier runs */
    uint64_t held_after_bytes;   /* slot storage kept for later runs */
    uint64_t bookkeeping_bytes;  /* the executor's tables, outside budget */
    uint64_t budget_bytes;       /* the budget the run kept to, or 0 */
    uint64_t record_bytes;       /* memory step records took, outside budget */
    uint64_t steps;              /* n as the run found it (online plans) */
    /* Memory for states on their way to or from storage levels (inside
     * measured_peak_bytes and the budget); see io_buffers. */
    uint64_t io_buffer_bytes;
    /* Appended in 0.3: a level of the run declared itself lossy
     * (uturn_storage_callbacks_t.lossy): its states were not checked, and
     * the gradient is not bitwise what a run without it gives. */
    bool lossy;
    /* Appended in 0.3: plans of several sweeps. The sweeps run so far
     * (all of them after a call that ran them all; after a call that
     * failed or was stopped, the sweeps finished by then), the forward
     * steps of the sweeps this call ran (the first forward counts with
     * sweep 1), and whether the executor still holds the trajectory for
     * another sweep on request (uturn_executor_sweep()). */
    uint64_t sweeps_done;
    uint64_t sweep_forward_steps;
    bool trajectory_held;
    /* Appended in 0.3: durable runs. The durable points this call wrote,
     * the bytes it wrote for them (states, adjoints, manifests) and the
     * seconds they took; the last point's number (counted over the whole
     * run, resumes included; 0: none). A resumed call gives the action it
     * resumed at (UTURN_NONE: it did not resume) and the forward steps the
     * run had done up to that point: this call did the observed forward
     * steps less those. The observed counts are the whole run's. */
    uint64_t durable_points;
    uint64_t durable_bytes;
    double durable_seconds;
    uint64_t durable_point;
    uint64_t resumed_action;
    uint64_t resumed_forward_steps;
} uturn_report_t;

/** Reset @p report and record its size. NULL is a no-op. Since: 0.1 */
UTURN_EXPORT void uturn_report_init(uturn_report_t *report);
/* For a struct of @p size bytes; see "Structs that grow" above. */
UTURN_EXPORT void uturn_report_init_size(uturn_report_t *report, size_t size);
#define uturn_report_init(p) uturn_report_init_size((p), sizeof *(p))

/** Runs models to plans; owns the slot storage. */
typedef struct uturn_executor uturn_executor_t;

/**
 * A user's storage for a level of slots (device memory, a compressor,
 * remote storage): the executor hands it each state to keep under a slot
 * id and asks for it back. Every callback takes `user` first and returns 0
 * on success; any other value stops the run with UTURN_E_IO naming the
 * step (and UTURN_E_CALLBACK's message conventions).
 * Since: 0.2
 */
typedef struct uturn_storage_callbacks {
    size_t size; /* sizeof(uturn_storage_callbacks_t) */
    void *user;
    /* Before a run: at most `ids` slots held at once, `bytes` of them in
     * all (the level's whole region, not one slot's). May be NULL. */
    int (*open)(void *user, uint64_t ids, uint64_t bytes);
    /* Keep the state (`bytes` at `src`, x_step) under id. */
    int (*put)(void *user, uint64_t id, uint64_t step, const void *src,
               uint64_t bytes);
    /* Write the state kept under id (x_step, `bytes`) to dst. */
    int (*get)(void *user, uint64_t id, uint64_t step, void *dst,
               uint64_t bytes);
    /* The state under id is no longer needed. May be NULL. */
    void (*drop)(void *user, uint64_t id);
    /* After a run, on every exit path. May be NULL. */
    void (*close)(void *user);
    /* Appended in 0.3. What put is given is checksummed (XXH3-64, kept in
     * the executor's memory) and what get gives back is checked against
     * it, as a file level's states are: a get that gives other bytes
     * (short, stale, another slot's) stops the run with UTURN_E_IO naming
     * the step. A level whose states change on the way on purpose (a
     * lossy compressor) sets lossy: it is not checked, and the run's
     * report says lossy (the gradient is then not bitwise what a run
     * without the level gives). Default false. */
    bool lossy;
} uturn_storage_callbacks_t;

/** Where a level of slots lives. Since: 0.2 */
typedef enum uturn_storage_kind {
    UTURN_STORAGE_MEMORY = 0, /* the executor's memory (level 0's kind) */
    UTURN_STORAGE_FILE   = 1, /* one preallocated file per run */
    UTURN_STORAGE_USER   = 2  /* the caller's callbacks */
} uturn_storage_kind_t;

/**
 * The storage of one level beyond memory (see uturn_executor_options_t).
 * Prepare with uturn_storage_init().
 * Since: 0.2
 */
typedef struct uturn_storage {
    size_t size; /* set by uturn_storage_init() */
    uturn_storage_kind_t kind;
    /* FILE: the directory the run's own subdirectory goes in; NULL: the
     * TMPDIR environment variable, else /tmp. Copied at open. */
    const char *directory;
    /* USER: the callbacks; must outlive the executor. */
    const uturn_storage_callbacks_t *callbacks;
    /* FILE: perform reads and writes in the run's thread, one at a time
     * (no overlap with compute). false: a thread of the run's own writes
     * behind and reads ahead (see io_buffers). USER levels are always
     * called in the run's thread. */
    bool synchronous;
} uturn_storage_t;

/** Set @p storage to its defaults (a file level in $TMPDIR). Since: 0.2 */
UTURN_EXPORT void uturn_storage_init_size(uturn_storage_t *storage,
                                          size_t size);
#define uturn_storage_init(p) uturn_storage_init_size((p), sizeof *(p))

/**
 * How an executor is made. Prepare with uturn_executor_options_init().
 * Since: 0.2
 */
typedef struct uturn_executor_options {
    size_t size; /* set by uturn_executor_options_init() */
    /* The executor's own bookkeeping (tables, generator state); NULL:
     * malloc/free. Copied: it need not outlive the call. */
    const uturn_allocator_t *alloc;
    /* Slot storage. NULL: pages the executor maps itself (mmap), whose
     * cost is whole pages; else this allocator, whose cost is exactly what
     * is asked of it. Copied. */
    const uturn_allocator_t *slot_alloc;
    /* The storage of levels 1, 2, .. of a plan with storage levels (level
     * 0 is the memory above); copied at open. */
    const uturn_storage_t *levels;
    uint64_t level_count;
    /* States in flight to and from overlapped (file) levels: buffers of
     * one slot each, taken from the memory budget (uturn_executor_plan()
     * leaves them out of level 0's slots). 0: 2; at most 16. A plan with
     * levels and no overlapped one takes 1 (a save/load model's staging). */
    uint64_t io_buffers;
} uturn_executor_options_t;

/** Set @p options to its defaults (all NULL). Since: 0.2 */
UTURN_EXPORT void
uturn_executor_options_init(uturn_executor_options_t *options);
/* For a struct of @p size bytes; see "Structs that grow" above. */
UTURN_EXPORT void
uturn_executor_options_init_size(uturn_executor_options_t *options,
                                 size_t size);
#define uturn_executor_options_init(p)                                         \
    uturn_executor_options_init_size((p), sizeof *(p))

/**
 * Make an executor. Slot storage is one region the executor holds (a slab:
 * uniform slots at fixed strides, states of different sizes packed), taken
 * from options->slot_alloc when given, else mapped from the kernel in whole
 * pages, so its cost never depends on what else the process allocated
 * (see uturn_slot_cost_t). Large regions ask for transparent huge pages.
 * @param options  NULL for the defaults.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (out NULL); UTURN_E_NOMEM.
 * Thread safety: reentrant; one thread per executor at a time.
 * Since: 0.2
 */
UTURN_EXPORT uturn_status_t
uturn_executor_open(const uturn_executor_options_t *options,
                    uturn_executor_t **out, uturn_error_t *error);

/**
 * uturn_executor_open() with @p alloc for both the bookkeeping and the slot
 * storage (so a counting allocator sees every byte); NULL: malloc for the
 * bookkeeping and the executor's own pages for the slots.
 * @return as uturn_executor_open().
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t
uturn_executor_create(const uturn_allocator_t *alloc, uturn_executor_t **out,
                      uturn_error_t *error);

/** Free @p executor and everything it holds. NULL is a no-op.
 *  Since: 0.1 */
UTURN_EXPORT void uturn_executor_free(uturn_executor_t *executor);

/**
 * Give back the slot storage and the tables the executor keeps between
 * runs. What it keeps, and why: a run empties every slot on every exit
 * path, but the storage region stays mapped for the next run, so that a
 * code that computes a gradient per iteration does not fault in fresh
 * pages every time. What is kept is cut to each run's budget before its
 * first callback, so budgets that stay the same or fall fault the region
 * in once; a run whose budget rises above what an earlier, smaller one
 * left faults the grown pages in anew (to avoid it, give every run the
 * largest budget in uturn_run_options_t.budget_bytes). The promise
 * holds across any sequence of runs: while a run's callbacks execute, the
 * executor holds at most that run's budget for slots, kept storage
 * included (it shrinks what it kept before the first callback); between
 * runs it holds at most the last run's budget, or, after a run without a
 * budget, exactly that run's peak. NULL is a no-op, and so is a call
 * from a callback of a run on the same executor.
 * Thread safety: not while the executor runs. Since: 0.1
 */
UTURN_EXPORT void uturn_executor_trim(uturn_executor_t *executor);

/**
 * What the last run did with one storage level of the executor: level 0 is
 * memory, 1 .. level_count the executor's levels. Prepare with
 * uturn_level_report_init().
 * Since: 0.2
 */
typedef struct uturn_level_report {
    size_t size;         /* set by uturn_level_report_init() */
    uint64_t stores;     /* states written into the level */
    uint64_t restores;   /* states read back */
    uint64_t peak_slots; /* most states held at once */
    uint64_t bytes_written, bytes_read;
    double write_seconds; /* spent writing (on the I/O thread if overlapped) */
    double read_seconds;  /* spent reading */
    double wait_seconds;  /* the run waited for this level's I/O */
    bool overlapped;      /* its I/O ran on a thread of its own */
    bool on_tmpfs;        /* a file level whose directory is memory */
} uturn_level_report_t;

/** Set @p report to zeros and record its size. Since: 0.2 */
UTURN_EXPORT void uturn_level_report_init_size(uturn_level_report_t *report,
                                               size_t size);
#define uturn_level_report_init(p)                                             \
    uturn_level_report_init_size((p), sizeof *(p))

/**
 * The last run's figures for storage level @p level of @p executor (see
 * uturn_level_report_t); all zero before any run with levels.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (a NULL pointer, or level past the
 *         executor's levels).
 * Since: 0.2
 */
UTURN_EXPORT uturn_status_t
uturn_executor_level_report(const uturn_executor_t *executor, uint64_t level,
                            uturn_level_report_t *out);

/** Bytes of slot storage @p executor holds now (0 for NULL). Since: 0.2 */
UTURN_EXPORT uint64_t
uturn_executor_held_bytes(const uturn_executor_t *executor);

/**
 * What the executor's storage spends on slots: computed, never probed, so
 * it is the same in every process, whatever else was allocated before, and
 * the same on every MPI rank for the same state size. A slot takes
 * `stride` bytes (the state size rounded up to `alignment`); a region
 * holding x bytes of slots (k uniform slots: x = k * stride; states of
 * different sizes: the sum of their strides at the worst moment) costs x
 * itself with a caller's allocator, and with the executor's own pages x
 * rounded up to whole pages (`granule`), or, below one page, to 16 bytes
 * (such a small region is a malloc block). A budget B holds the most
 * slots whose region costs at most B; uturn_executor_budget() gives the
 * least budget for k slots.
 * Since: 0.2
 */
typedef struct uturn_slot_cost {
    size_t size;          /* set by uturn_slot_cost_init() */
    uint64_t state_bytes; /* the state size asked about */
    uint64_t stride;      /* bytes one slot takes */
    uint64_t alignment;   /* 16: every slot starts at a multiple of it */
    uint64_t granule;     /* the page size for the executor's pages; 1 */
    const char *backend;  /* "pages" or "allocator"; a static string */
} uturn_slot_cost_t;

/** Set @p cost to zeros and record its size. NULL is a no-op. Since: 0.2 */
UTURN_EXPORT void uturn_slot_cost_init(uturn_slot_cost_t *cost);
/* For a struct of @p size bytes; see "Structs that grow" above. */
UTURN_EXPORT void uturn_slot_cost_init_size(uturn_slot_cost_t *cost,
                                            size_t size);
#define uturn_slot_cost_init(p) uturn_slot_cost_init_size((p), sizeof *(p))

/**
 * The slot cost of @p executor for states of @p state_bytes.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer, zero bytes);
 *         UTURN_E_OVERFLOW (the stride does not fit in 64 bits).
 * Thread safety: safe. Since: 0.2
 */
UTURN_EXPORT uturn_status_t
uturn_executor_slot_cost(const uturn_executor_t *executor, uint64_t state_bytes,
                         uturn_slot_cost_t *out);

/**
 * The stride of uturn_executor_slot_cost(): what one uniform slot of
 * @p state_bytes takes, the figure budgets are checked against.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer, zero bytes);
 *         UTURN_E_OVERFLOW.
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_executor_slot_bytes(
    const uturn_executor_t *executor, uint64_t state_bytes, uint64_t *out);

/**
 * The most uniform slots of @p state_bytes that a budget of @p budget
 * bytes holds on @p executor (the inverse of uturn_executor_budget()): the
 * capacity uturn_executor_plan() gives a uniform planner for that budget.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer, zero bytes);
 *         UTURN_E_OVERFLOW.
 * Thread safety: safe. Since: 0.2
 */
UTURN_EXPORT uturn_status_t
uturn_executor_capacity(const uturn_executor_t *executor, uint64_t state_bytes,
                        uint64_t budget, uint64_t *slots);

/**
 * The least budget that holds @p slots uniform slots of @p state_bytes on
 * @p executor: what their region costs (see uturn_slot_cost_t). A budget of
 * slots * state_bytes may hold fewer, since whole pages are counted.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer, zero bytes);
 *         UTURN_E_OVERFLOW.
 * Thread safety: safe. Since: 0.2
 */
UTURN_EXPORT uturn_status_t
uturn_executor_budget(const uturn_executor_t *executor, uint64_t state_bytes,
                      uint64_t slots, uint64_t *budget);

/**
 * The slots storage level @p level of @p problem's levels holds on
 * @p executor, as uturn_executor_plan() resolves it: a capacity in slots as
 * given; memory's bytes (level 0) at the real cost of the region, less the
 * I/O buffers the executor's further levels take (see io_buffers); a
 * further level's bytes in whole strides of problem->slot_bytes. What MPI
 * ranks compare to agree on each level's capacity.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer, level past the
 *         problem's levels, no capacity); UTURN_E_INFEASIBLE (the bytes hold
 *         no slot); UTURN_E_OVERFLOW.
 * Thread safety: safe. Since: 0.2
 */
UTURN_EXPORT uturn_status_t uturn_executor_level_slots(
    const uturn_executor_t *executor, const uturn_problem_t *problem,
    uint64_t level, uint64_t *slots, uturn_error_t *error);

/**
 * uturn_plan_create() with slots counted at their real cost, so that a plan
 * that fits its budget still fits when it runs: slot_bytes becomes the
 * stride of problem->slot_bytes, step_bytes (if given) become their
 * strides, and budget_bytes becomes the most bytes a region may hold within
 * the budget (see uturn_slot_cost_t). The plan's peak_bytes is then what
 * the run holds before the storage rounds it up, and a run of it never
 * needs more than the budget. With storage levels, a capacity in bytes is
 * resolved as uturn_executor_level_slots() says: memory's bytes hold its
 * slots and the executor's I/O buffers, a further level's whole strides.
 * Statuses as uturn_plan_create(), and UTURN_E_INVALID_ARG when neither
 * slot_bytes nor step_bytes gives the size of a state.
 * Thread safety: safe; the plan is the caller's. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_executor_plan(
    const uturn_executor_t *executor, const uturn_problem_t *problem,
    uturn_plan_t **out, uturn_error_t *error);

/**
 * Run @p model to @p plan. Before the first callback the executor checks
 * the model, checks the plan's peak at the real slot cost against the
 * budget (options->budget_bytes, else the plan's; UTURN_E_INFEASIBLE names
 * the least budget that fits, and no callback has run), and sizes its slot
 * storage: at least the plan's peak, at most the budget (what it kept from
 * earlier runs is kept only as far as the budget allows). It then performs
 * every action, and empties every slot on every exit path; an executor may
 * be reused after any failure. The peak comes from the plan's counts for
 * uniform slots and for plans whose step_bytes are already strides (plans
 * from uturn_executor_plan()); otherwise the executor simulates the plan's
 * stores once (a walk over its actions) to find it.
 *
 * Verify mode hashes every state the first time it is computed and again
 * whenever it is recomputed (contiguous states after every forward step;
 * save/load states when they are stored); a difference stops the run with
 * UTURN_E_NONDETERMINISTIC naming the step. It keeps 8 bytes per step
 * outside the budget (report->verify_bytes).
 *
 * @param options   NULL for the defaults.
 * @param observed  The counts as they happened (equal to the plan's
 *                  uturn_plan_stats() after a complete run), or NULL.
 * @param report    Times, peaks and the failure point, or NULL.
 * @return UTURN_OK;
 *   UTURN_E_INVALID_ARG  a NULL pointer, a model without its callbacks or
 *                        state, a plan with more steps than the model;
 *                        the executor holds a trajectory for further
 *                        sweeps (uturn_executor_sweep()); a durable
 *                        directory whose point is another plan's or
 *                        model's, or not where the plan's actions lead,
 *                        or the durable mode's wrong for it;
 *   UTURN_E_UNSUPPORTED  sweeps_on_request with a parsed plan of several
 *                        sweeps, or in a durable run;
 *   UTURN_E_IO           a durable directory that cannot be made, read or
 *                        written, is damaged, or another run holds it
 *                        (before any callback, but for a write at a
 *                        point); a level's I/O;
 *   UTURN_E_STOPPED      a durable run stopped at a point, as its
 *                        durable_request asked: resume it to finish;
 *   UTURN_E_INFEASIBLE   the plan does not fit the budget here; or an
 *                        online plan's first sweep stopped before is_last
 *                        said the end (online with levels past its reach:
 *                        see max_steps), the error naming the step;
 *   UTURN_E_NOMEM        slot storage could not be allocated, or a run to
 *                        hold for further sweeps;
 *   UTURN_E_CALLBACK     a callback returned non-zero (the error names it,
 *                        its step, its return value and the action index);
 *   UTURN_E_NONDETERMINISTIC  a recomputed state differs (verify mode).
 * Called from a callback of a run or sweep on the same executor:
 * UTURN_E_INVALID_ARG (the run under way goes on as if not asked).
 * Thread safety: one thread per executor; a plan may be shared.
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_executor_run(
    uturn_executor_t *executor, const uturn_plan_t *plan,
    const uturn_model_t *model, const uturn_run_options_t *options,
    uturn_stats_t *observed, uturn_report_t *report, uturn_error_t *error);

/**
 * Run the next sweep of a plan of several sweeps whose run was started
 * with uturn_run_options_t.sweeps_on_request (uturn_executor_run() ran the
 * first forward and sweep 1, and the executor holds the trajectory): the
 * turn of this sweep (your turn callback: seed this sweep's adjoint), then
 * adjoint steps n-1 .. 0, recomputing from the persistent checkpoints.
 * @p model may differ from the last call's in its adjoint and turn
 * callbacks and its user pointer, never in the forward: its forward
 * callback, state, state_bytes, save, load, state_size, forward_record
 * and record_bytes must be the same as the run's. The budget of the run
 * holds throughout. After the plan's last sweep (never, for an unbounded
 * plan), or on any failure, the trajectory is released. Until
 * then the run's plan, its options (their callbacks and user pointers)
 * and the model's state stay in use: keep them alive.
 * @param observed  The counts of the whole run so far (all sweeps; equal
 *                  to the plan's uturn_plan_stats() after its last), or
 *                  NULL.
 * @param report    Times of this call; sweeps_done, sweep_forward_steps
 *                  (this sweep's) and trajectory_held; or NULL.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL executor or model, no
 *         trajectory held, a model whose forward differs from the run's);
 *         the statuses of uturn_executor_run() for a failure in the sweep.
 * From a callback of a run or sweep on the same executor:
 * UTURN_E_INVALID_ARG.
 * Thread safety: one thread per executor. Since: 0.3
 */
UTURN_EXPORT uturn_status_t uturn_executor_sweep(uturn_executor_t *executor,
                                                 const uturn_model_t *model,
                                                 uturn_stats_t *observed,
                                                 uturn_report_t *report,
                                                 uturn_error_t *error);

/**
 * Release the trajectory the executor holds for further sweeps (see
 * uturn_executor_sweep()): its checkpoints are dropped and its slot
 * storage kept within the run's budget, as after a run. No trajectory,
 * or NULL: a no-op. While a trajectory is held, uturn_executor_run() on
 * the same executor is UTURN_E_INVALID_ARG and uturn_executor_trim()
 * keeps the storage.
 * From a callback of the sweep under way it does nothing.
 * Thread safety: one thread per executor. Since: 0.3
 */
UTURN_EXPORT void uturn_executor_release(uturn_executor_t *executor);

/* ------------------------------------------------------------------------ */
/* Durable directories                                                      */
/* ------------------------------------------------------------------------ */

/**
 * What a durable directory holds (uturn_durable_inspect()). Prepare with
 * uturn_durable_info_init().
 * Since: 0.3
 */
typedef struct uturn_durable_info {
    size_t size;            /* set by uturn_durable_info_init() */
    bool has_point;         /* a complete durable point is there */
    bool in_use;            /* a run holds the directory now */
    uint64_t point;         /* the point's number, 1 for the first */
    uint64_t fingerprint;   /* the plan's */
    uint64_t steps;         /* the plan's n */
    uint64_t action;        /* the actions done at the point */
    uint64_t into;          /* forward steps done into the next (an advance) */
    uint64_t forward_steps; /* done at the point */
    uint64_t reverse_steps; /* done at the point */
    uint64_t checkpoints;   /* checkpoints held at the point */
    uint64_t bytes;         /* of the states, the adjoint and the manifest */
    uint64_t state_bytes;   /* the model's, and its adjoint_bytes */
    uint64_t adjoint_bytes;
    char tag[256]; /* uturn_run_options_t.durable_tag */
} uturn_durable_info_t;

/** Set @p info to zeros and record its size. Since: 0.3 */
UTURN_EXPORT void uturn_durable_info_init_size(uturn_durable_info_t *info,
                                               size_t size);
#define uturn_durable_info_init(p)                                             \
    uturn_durable_info_init_size((p), sizeof *(p))

/**
 * Read the durable point in @p directory, checking the manifest's checksum
 * and every file it names against its own (no callback, no lock taken).
 * A directory with no point gives has_point false and UTURN_OK.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer); UTURN_E_IO (no
 *         such directory, a damaged manifest or file, named).
 * Thread safety: safe. Since: 0.3
 */
UTURN_EXPORT uturn_status_t uturn_durable_inspect(const char *directory,
                                                  uturn_durable_info_t *info,
                                                  uturn_error_t *error);

/**
 * uturn_durable_inspect() for one rank's part of a durable run across
 * processes (the MPI layer's DIR/rank-R): such a part keeps each point
 * under its number until every rank has written it, and @p point is the
 * one the layer's commit record names (uturn durable show reads it).
 * @p point 0 is uturn_durable_inspect(). A part with no such point gives
 * has_point false and UTURN_OK.
 * @return as uturn_durable_inspect().
 * Thread safety: safe. Since: 0.3
 */
UTURN_EXPORT uturn_status_t
uturn_durable_inspect_point(const char *directory, uint64_t point,
                            uturn_durable_info_t *info, uturn_error_t *error);

/**
 * Remove the durable files in @p directory (the manifest, the states, the
 * adjoints, the lock file; nothing else) and the directory itself when it
 * is then empty. A directory a run holds is refused. One that holds no
 * durable run (files, but no lock and no manifest whose first line says
 * uturn-durable) is left as it is, even its files with the library's
 * names (UTURN_OK).
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL); UTURN_E_IO (in use, or a
 *         file that could not be removed, named).
 * Thread safety: safe. Since: 0.3
 */
UTURN_EXPORT uturn_status_t uturn_durable_remove(const char *directory,
                                                 uturn_error_t *error);

#ifdef __cplusplus
}
#endif

#endif
