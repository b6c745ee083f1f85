/*
 * uturn: memory-bounded checkpointing for adjoint computations.
 *
 * This header is the manual. Every declaration says what it returns, who
 * owns what, how NULL is treated and what is safe across threads. The model
 * and the exact meaning of every action and count are those of DESIGN.md;
 * the short version follows.
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
 * Every count is a uint64_t. Steps, slots and action indices start at 0.
 * No function keeps global mutable state: different objects may be used from
 * different threads at the same time, and a plan never changes after it is
 * built, so one plan may be read from many threads.
 */
#ifndef UTURN_H_INCLUDED
#define UTURN_H_INCLUDED

#include "uturn_export.h"
#include "uturn_version.h"

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
    UTURN_E_INVALID_ARG      = 1, /* NULL pointer, zero steps, bad value */
    UTURN_E_NOMEM            = 2, /* an allocation failed */
    UTURN_E_INFEASIBLE       = 3, /* no schedule fits the memory budget */
    UTURN_E_OVERFLOW         = 4, /* a count does not fit in 64 bits */
    UTURN_E_UNSUPPORTED      = 5, /* the planner cannot handle this */
    UTURN_E_CALLBACK         = 6, /* a user callback returned non-zero */
    UTURN_E_INVALID_PLAN     = 7, /* a plan breaks a rule of the model */
    UTURN_E_PARSE            = 8, /* malformed plan text */
    UTURN_E_IO               = 9, /* a file could not be read or written */
    UTURN_E_NONDETERMINISTIC = 10 /* a recomputed state differs */
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
 * Since: 0.1
 */
typedef enum uturn_planner {
    UTURN_PLANNER_STORE_ALL = 0,  /* "store-all": every state, no recompute */
    UTURN_PLANNER_PERIODIC  = 1,  /* "periodic": a checkpoint every k steps */
    UTURN_PLANNER_SQRT      = 2,  /* "sqrt": periodic with k = ceil(sqrt n) */
    UTURN_PLANNER_REVOLVE   = 3,  /* "revolve": binomial, optimal */
    UTURN_PLANNER_DP        = 4,  /* "dp": per-step sizes and costs */
    UTURN_PLANNER_PARSED    = 100 /* "parsed": read from plan text */
} uturn_planner_t;

/**
 * The planner's name: "store-all", "periodic", "sqrt", "revolve", "dp" or
 * "parsed"; NULL for a value outside the enum.
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
 * Since: 0.1
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
 * use); revolve and periodic without a stride need one. A capacity that
 * cannot hold the planner's minimum is UTURN_E_INFEASIBLE, and the error
 * names the minimum.
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
 * picks the greatest common divisor of the sizes, which is always exact.
 *
 * dp's tables (appended in 0.1): the exact table holds, for every segment
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
 * also means 1). They are created and joined inside uturn_plan_create();
 * the plan is the same for every thread count, bit for bit. No field is
 * ever read from the environment.
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
    uint64_t threads;           /* dp: threads filling its tables; default 1 */
    uint64_t table_bytes;       /* dp: most its tables may hold; default
                                   UTURN_DP_TABLE_BYTES */
    uturn_dp_mode_t dp_mode;    /* dp: default UTURN_DP_AUTO */
} uturn_problem_t;

/** The default of uturn_problem_t.table_bytes (bytes). Since: 0.1 */
#define UTURN_DP_TABLE_BYTES (1024ull * 1024 * 1024)

/**
 * Set every field of @p problem to its default (revolve, threads 1,
 * table_bytes UTURN_DP_TABLE_BYTES, dp_mode UTURN_DP_AUTO, everything else
 * 0) and record its size. NULL is a no-op.
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT void uturn_problem_init(uturn_problem_t *problem);

/**
 * The counts of DESIGN.md section 3; the names mean the same everywhere.
 * Prepare with uturn_stats_init().
 *
 * The last four fields (appended in 0.1) are dp's; other planners leave
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
    bool exact;                /* dp: forward_cost is the exact optimum */
    uint64_t unit_bytes;       /* dp: bytes per memory unit of its tables */
    uint64_t lower_bound_cost; /* dp: no nested plan costs less */
    double planning_seconds;   /* dp: wall time spent planning */
} uturn_stats_t;

/**
 * Zero every count of @p stats and record its size. NULL is a no-op.
 * Thread safety: safe. Since: 0.1
 */
UTURN_EXPORT void uturn_stats_init(uturn_stats_t *stats);

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
    UTURN_OP_REVERSE = 6  /* adjoint step `step` */
} uturn_op_t;

/**
 * One action. Fields an op does not use are 0: advance uses step and
 * step_end; store and restore use step and slot; free uses slot; reverse
 * uses step; turn uses none.
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
 * @param problem   From uturn_problem_init(); read only, not retained.
 * @param alloc     Allocator for the plan and its cursors, or NULL.
 * @param[out] out  The new plan; set to NULL on failure.
 * @param[out] error  Details on failure, or NULL.
 * @return UTURN_OK;
 *   UTURN_E_INVALID_ARG  a pointer is NULL, steps is 0, the planner is
 *                        unknown, slots and budget_bytes are both set, a
 *                        budget comes without slot_bytes, a stride is out
 *                        of 1..n or given to a planner other than periodic,
 *                        the planner needs a capacity and has none, or
 *                        dp_mode is not a uturn_dp_mode_t;
 *   UTURN_E_INFEASIBLE   the capacity is below the planner's minimum (the
 *                        error gives it in minimum_slots/minimum_bytes);
 *   UTURN_E_OVERFLOW     a predicted count does not fit in 64 bits;
 *   UTURN_E_UNSUPPORTED  per-step sizes or costs for a planner other than
 *                        dp; periodic asked to choose a stride for more
 *                        than 2^40 steps; dp costs past 32 bits; dp's
 *                        exact table past table_bytes at the unit given
 *                        (the message names a unit that fits) or, with
 *                        UTURN_DP_EXACT, at the gcd unit; a chain so long
 *                        that even dp's approximate tables cannot fit
 *                        table_bytes (refused in time and memory that do
 *                        not grow with steps);
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
 * a line "uturn-plan 1", header lines "steps N" and "slots S", optional
 * "slot_bytes B", "budget_bytes B" and "planner NAME", then one action per
 * line; "#" starts a comment. The whole plan is validated; its counts are
 * those observed by the validator. At most @p length bytes of @p text are
 * read; the text need not be NUL-terminated.
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
 * Generate every action of @p plan, validate it against every rule of the
 * model and count what happened. This is the check that the predicted
 * counts hold; it costs time proportional to the number of actions and
 * memory proportional to the highest slot used.
 * @param[out] observed  The counts seen, or NULL.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL plan); UTURN_E_INVALID_PLAN
 *         (with the action index in @p error); UTURN_E_NOMEM.
 * Thread safety: safe on a shared plan. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_plan_walk(const uturn_plan_t *plan,
                                            uturn_stats_t *observed,
                                            uturn_error_t *error);

/**
 * Write @p plan as plan text to @p stream (the format uturn_plan_parse()
 * reads), streaming one action at a time.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer); UTURN_E_IO (a write
 *         failed); UTURN_E_NOMEM.
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
 * @return true when an action was written; false at the end of the plan
 *         (then and for every later call, @p action is left alone).
 *         cursor and action must not be NULL.
 * Thread safety: one thread per cursor. Since: 0.1
 */
UTURN_EXPORT bool uturn_cursor_next(uturn_cursor_t *cursor,
                                    uturn_action_t *action);

/**
 * Write up to @p capacity next actions into @p actions: the batch form of
 * uturn_cursor_next(), for consumers that walk long plans (it saves a call
 * per action). Both forms may be mixed on one cursor.
 * @param[out] count  Actions written; 0 only at the end of the plan.
 * @return UTURN_OK; UTURN_E_INVALID_ARG if a pointer is NULL or capacity
 *         is 0.
 * Thread safety: one thread per cursor. Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_cursor_read(uturn_cursor_t *cursor,
                                              uturn_action_t *actions,
                                              size_t capacity, size_t *count);

/** Free @p cursor. NULL is a no-op. Since: 0.1 */
UTURN_EXPORT void uturn_cursor_free(uturn_cursor_t *cursor);

/* ------------------------------------------------------------------------ */
/* Validation of any action stream                                          */
/* ------------------------------------------------------------------------ */

/** Simulates an action stream and checks every rule of the model. */
typedef struct uturn_validator uturn_validator_t;

/**
 * Start validating a stream for @p problem: its steps, its capacity (slots,
 * or budget_bytes / slot_bytes; unlimited when neither is set), and its
 * byte budget when budget_bytes and slot_bytes are set.
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
 * every state has `state_bytes`.
 *
 * The adjoint callback receives the live state x_step; forward work it does
 * itself (recomputing stages or x_{step+1}) is not counted by uturn.
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
} uturn_model_t;

/** Set every field of @p model to 0/NULL and record its size. Since: 0.1 */
UTURN_EXPORT void uturn_model_init(uturn_model_t *model);

/**
 * Options of one run. Prepare with uturn_run_options_init().
 * Since: 0.1
 */
typedef struct uturn_run_options {
    size_t size;           /* set by uturn_run_options_init() */
    uint64_t budget_bytes; /* 0: the plan's budget_bytes (0 there: none) */
    bool verify;           /* hash states; see uturn_executor_run() */
    /* Called after every `progress_every` reverse steps and after the last;
     * a non-zero return stops the run with UTURN_E_CALLBACK. May be NULL. */
    int (*progress)(void *user, uint64_t reversed, uint64_t steps);
    void *progress_user;
    uint64_t progress_every; /* 0: about every 1% of the steps */
} uturn_run_options_t;

/** Set @p options to its defaults and record its size. Since: 0.1 */
UTURN_EXPORT void uturn_run_options_init(uturn_run_options_t *options);

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
    uint64_t slot_bytes;          /* what one slot really costs (uniform) */
    uint64_t planned_peak_bytes;  /* predicted peak at the real slot cost */
    uint64_t measured_peak_bytes; /* the allocator's figure for the slots */
    uint64_t verify_bytes;        /* memory verify mode kept, outside budget */
    double wall_seconds;          /* the whole run */
    double forward_seconds;       /* forward callbacks */
    double adjoint_seconds;       /* turn and adjoint callbacks */
    double copy_seconds;          /* store and restore (memcpy, save, load) */
    double overhead_seconds;      /* everything else */
    bool jemalloc;                /* slots lived in a jemalloc arena */
} uturn_report_t;

/** Reset @p report and record its size. NULL is a no-op. Since: 0.1 */
UTURN_EXPORT void uturn_report_init(uturn_report_t *report);

/** Runs models to plans; owns the slot storage. */
typedef struct uturn_executor uturn_executor_t;

/**
 * Make an executor. Slot storage comes from @p alloc when it is given (so a
 * counting allocator sees every byte), else from a jemalloc arena of its own
 * when jemalloc is the process's allocator (the executor finds it at run
 * time; uturn does not link it), else from malloc.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (out NULL); UTURN_E_NOMEM.
 * Thread safety: reentrant; one thread per executor at a time.
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t
uturn_executor_create(const uturn_allocator_t *alloc, uturn_executor_t **out,
                      uturn_error_t *error);

/** Free @p executor, its slot buffers and its arena. NULL is a no-op.
 *  Since: 0.1 */
UTURN_EXPORT void uturn_executor_free(uturn_executor_t *executor);

/**
 * Give back the slot buffers the executor keeps between runs. A run empties
 * every slot on every exit path, but keeps the buffers of uniform slots for
 * the next run (so a code that computes a gradient per iteration does not
 * fault in fresh pages every time); the next run reuses, adds or frees
 * buffers so that it holds exactly what its plan needs. NULL is a no-op.
 * Thread safety: not while the executor runs. Since: 0.1
 */
UTURN_EXPORT void uturn_executor_trim(uturn_executor_t *executor);

/**
 * What the executor's storage really spends on a slot of @p state_bytes
 * (the allocator's size class), which is what budgets are checked against.
 * @return UTURN_OK; UTURN_E_INVALID_ARG (NULL pointer, zero bytes);
 *         UTURN_E_OVERFLOW.
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_executor_slot_bytes(
    const uturn_executor_t *executor, uint64_t state_bytes, uint64_t *out);

/**
 * uturn_plan_create() with each slot counted at its real cost: the plan is
 * made for problem->slot_bytes replaced by
 * uturn_executor_slot_bytes(problem->slot_bytes), so that a plan that fits
 * its budget_bytes still fits when run. Statuses as uturn_plan_create(),
 * and UTURN_E_INVALID_ARG when problem->slot_bytes is 0 (it must be the
 * size of one state).
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_executor_plan(
    const uturn_executor_t *executor, const uturn_problem_t *problem,
    uturn_plan_t **out, uturn_error_t *error);

/**
 * Run @p model to @p plan. Before the first callback the executor checks
 * the model, checks the plan's peak at the real slot cost against the
 * budget (options->budget_bytes, else the plan's; UTURN_E_INFEASIBLE names
 * the least budget that fits, and no callback has run) and allocates the
 * slots. It then performs every action, and frees every slot on every
 * exit path; an executor may be reused after any failure.
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
 *   UTURN_E_INFEASIBLE   the plan does not fit the budget here;
 *   UTURN_E_NOMEM        slot storage could not be allocated;
 *   UTURN_E_CALLBACK     a callback returned non-zero (the error names it,
 *                        its step, its return value and the action index);
 *   UTURN_E_NONDETERMINISTIC  a recomputed state differs (verify mode).
 * Thread safety: one thread per executor; a plan may be shared.
 * Since: 0.1
 */
UTURN_EXPORT uturn_status_t uturn_executor_run(
    uturn_executor_t *executor, const uturn_plan_t *plan,
    const uturn_model_t *model, const uturn_run_options_t *options,
    uturn_stats_t *observed, uturn_report_t *report, uturn_error_t *error);

#ifdef __cplusplus
}
#endif

#endif
