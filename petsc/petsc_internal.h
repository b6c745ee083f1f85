/*
 * Declarations shared by the files of the PETSc layer. The layer is a
 * client of the public API: it includes <uturn.h>, <uturn_mpi.h> and
 * PETSc's headers (its private TS header too), never the core's internal
 * headers.
 *
 * How the TSTrajectory operations map to a uturn plan (docs/petsc.md
 * says the same for users):
 *
 *   set(k, t, X)   TSSolve() calls it with x_0 and after every accepted
 *                  step. The layer records t_k and the sizes of step k-1's
 *                  attempts, and when k ends the plan's current advance it
 *                  performs the plan's next actions of the first sweep:
 *                  the stores of x_k (copies of X) and frees, up to the
 *                  next advance, which PETSc then takes step by step.
 *   get(k)         TSAdjointSolve() calls it before adjoint step k-1. The
 *                  layer performs the plan's actions up to `reverse k-1`
 *                  (turn, restores, advances by TSStep() repeating the
 *                  recorded attempts, stores, frees), then replays step
 *                  k-1 once so that the TS holds x_k and the stages of
 *                  that step, with ptime t_k and time_step t_{k-1} - t_k
 *                  as PETSc's own memory trajectory leaves them.
 */
#ifndef UTURN_PETSC_INTERNAL_H_INCLUDED
#define UTURN_PETSC_INTERNAL_H_INCLUDED

#include "uturn_petsc.h"

#include <petsc/private/tsimpl.h>
#include <stdbool.h>
#include <stdint.h>
#include <uturn.h>
#include <uturn_mpi.h>

/* ---- options (petsc_options.c, petsc_size.c) ---- */

#define UTURN__PETSC_NAME_MAX 32
/* Online plans (adaptive runs): the most states kept without a budget,
 * and the most slots with one (a cursor keeps about 160 bytes per slot,
 * outside the budget; uturn.h, UTURN_ONLINE_MAX_SLOTS). */
#define UTURN_PETSC_ONLINE_STATES 65536u
#define UTURN_PETSC_ONLINE_SLOTS  1048576u

struct uturn__petsc_options {
    uint64_t budget_bytes;               /* memory per rank; 0: no limit */
    uint64_t disk_bytes;                 /* disk per rank; 0: no disk level */
    uint64_t disk_write_cost;            /* per store into the disk, in steps */
    uint64_t disk_read_cost;             /* per restore from it, in steps */
    char planner[UTURN__PETSC_NAME_MAX]; /* "auto" or a planner's name */
    char disk_dir[PETSC_MAX_PATH_LEN];   /* "": $TMPDIR, else /tmp */
    bool validate; /* run every action through a validator */
};

/* Read a size as the CLI writes it ("64MB", "1.5GiB", "4096") into @p out.
 * False, with a message in @p why, when @p text is not one. */
bool uturn__petsc_size(const char *text, uint64_t *out, char *why,
                       size_t why_bytes);

/* ---- per-step records: t_0 .. t_n and every attempt's size
 *      (petsc_records.c) ---- */

struct uturn__petsc_records {
    PetscReal *time; /* time[k] = t_k */
    uint64_t *first; /* first[k]: step k's first attempt in `attempt` */
    bool *plain;     /* plain[k]: step k went through no adapt */
    uint64_t count;  /* times recorded: t_0 .. t_{count-1} */
    uint64_t capacity;
    PetscReal *attempt; /* every attempt's size, step by step; the last of
                           each step was accepted */
    uint64_t attempts, attempt_capacity;
};

PetscErrorCode uturn__petsc_records_time(struct uturn__petsc_records *r,
                                         uint64_t k, PetscReal time);
PetscErrorCode uturn__petsc_records_attempt(struct uturn__petsc_records *r,
                                            PetscReal dt, bool plain);
uint64_t uturn__petsc_records_step(const struct uturn__petsc_records *r,
                                   uint64_t j, const PetscReal **sizes);
uint64_t uturn__petsc_records_bytes(const struct uturn__petsc_records *r);
PetscErrorCode uturn__petsc_records_free(struct uturn__petsc_records *r);

/* ---- slot storage: memory buffers and a disk file (petsc_slots.c,
 *      petsc_disk.c) ---- */

struct uturn__petsc_disk {
    int fd;              /* -1: not open */
    uint64_t slots;      /* disk slots of the plan */
    uint64_t *sums;      /* a checksum per disk slot */
    uint64_t held, peak; /* bytes held now, at most */
    uint64_t written, read;
};

/* A checkpoint is x_step, followed, for an RK method that reuses its last
 * stage (first same as last), by that stage of the step that reached it
 * (Y_s, whose f the next step takes as its first stage): none for x_0. */
struct uturn__petsc_slots {
    uint64_t memory_slots; /* the plan's level 0 capacity */
    PetscInt local;        /* entries of a state on this rank */
    bool staged;           /* checkpoints have room for the last stage */
    uint64_t state_bytes;  /* of a checkpoint: local * sizeof(PetscScalar),
                              twice that when staged */
    PetscScalar **buffers; /* per memory slot, allocated on first use */
    uint64_t *step;        /* per slot (memory and disk): x_step, or NONE */
    bool *has_stage;       /* per slot: the stage was kept with x_step */
    uint64_t allocated;    /* memory buffers allocated */
    uint64_t peak_bytes;   /* most buffer bytes held */
    struct uturn__petsc_disk disk;
};

PetscErrorCode uturn__petsc_slots_open(struct uturn__petsc_slots *s,
                                       uint64_t memory_slots,
                                       uint64_t disk_slots, PetscInt local,
                                       bool staged, const char *disk_dir,
                                       MPI_Comm comm);
PetscErrorCode uturn__petsc_slots_close(struct uturn__petsc_slots *s);
/* Keep x_step (@p x) in @p slot, with @p stage (NULL: none) when the
 * slots are staged. */
PetscErrorCode uturn__petsc_slots_store(struct uturn__petsc_slots *s,
                                        uint64_t slot, uint64_t step, Vec x,
                                        Vec stage);
/* x_step into @p x; its stage, if one was kept, into @p stage (which may
 * be NULL when the slots are not staged), and *has_stage says so. */
PetscErrorCode uturn__petsc_slots_restore(struct uturn__petsc_slots *s,
                                          uint64_t slot, uint64_t step, Vec x,
                                          Vec stage, bool *has_stage);
PetscErrorCode uturn__petsc_slots_free(struct uturn__petsc_slots *s,
                                       uint64_t slot);

PetscErrorCode uturn__petsc_disk_open(struct uturn__petsc_disk *d,
                                      uint64_t slots, uint64_t state_bytes,
                                      const char *dir, MPI_Comm comm);
PetscErrorCode uturn__petsc_disk_close(struct uturn__petsc_disk *d);
/* A checkpoint's parts: [0] is x_step and, when bytes[1] is not 0, [1] is
 * its stage. in[] is read from (always set); out[] is written to (set only
 * when the Vecs were got for writing, then equal to in[]). On disk they sit
 * at slot @p index of @p slot_bytes. */
struct uturn__petsc_parts {
    const PetscScalar *in[2];
    PetscScalar *out[2];
    uint64_t bytes[2];
};

PetscErrorCode uturn__petsc_disk_write(struct uturn__petsc_disk *d,
                                       uint64_t index, uint64_t slot_bytes,
                                       const struct uturn__petsc_parts *p);
PetscErrorCode uturn__petsc_disk_read(struct uturn__petsc_disk *d,
                                      uint64_t index, uint64_t slot_bytes,
                                      uint64_t step,
                                      const struct uturn__petsc_parts *p);

/* ---- the layer's state for one trajectory ---- */

enum uturn__petsc_phase {
    UTURN__PETSC_IDLE,    /* no run yet, or the last one was dropped */
    UTURN__PETSC_FORWARD, /* between set(0) and the end of the forward */
    UTURN__PETSC_ENDED,   /* the forward said its last step */
    UTURN__PETSC_REVERSE, /* TSAdjointSolve() has begun */
    UTURN__PETSC_DONE     /* the plan reached its end */
};

/* What the layer counts as it goes. */
struct uturn__petsc_counts {
    uint64_t forward_steps, replays;
    uint64_t stores, restores, disk_stores, disk_restores;
    uint64_t inexact_steps;
    uint64_t primes; /* size-0 steps that prime a reused last stage */
};

/* The wrappers of the TS's step (the size each step began with:
 * petsc_step.c) and of its adapt's choose operation (the size of every
 * attempt, and the decisions a recomputation repeats: petsc_adapt.c). */
typedef PetscErrorCode (*uturn__petsc_choose_fn)(TSAdapt, TS, PetscReal,
                                                 PetscInt *, PetscReal *,
                                                 PetscBool *, PetscReal *,
                                                 PetscReal *, PetscReal *);
struct uturn__petsc_wrap {
    TS ts;                         /* wrapped, or NULL */
    PetscErrorCode (*step)(TS);    /* the TS type's own step */
    PetscReal first_dt;            /* the size the last step began with */
    bool have_dt;                  /* set since the last set() */
    bool recording;                /* forward sweep: record; else not */
    TSAdapt adapt;                 /* wrapped (referenced), or NULL */
    uturn__petsc_choose_fn choose; /* the adapt's own choose */
    /* A recomputation in progress: the attempts it repeats. */
    const PetscReal *sizes;
    uint64_t attempts, next;
    bool forcing;
    bool chose; /* the adapt was asked since the last set() */
};

/* What a plan was made for: a run whose request is the same reuses it. */
struct uturn__petsc_request {
    uturn_planner_t planner;
    uint64_t steps;      /* 0: online */
    uint64_t slots;      /* this rank's memory slots, as given */
    uint64_t disk_slots; /* this rank's disk slots (0: no disk level) */
    uint64_t write_cost, read_cost;
    uint64_t max_steps; /* online: the TS's max_steps, or 0 */
    uint64_t state_bytes;
};

struct uturn__petsc {
    struct uturn__petsc_options opt;
    MPI_Comm comm; /* the trajectory's */
    enum uturn__petsc_phase phase;

    /* The plan of the current run and how it is walked. */
    uturn_executor_t *executor; /* costs slots for the MPI layer only */
    uturn_mpi_plan_t *plan;
    struct uturn__petsc_request request;
    uturn_cursor_t *cursor;
    uturn_validator_t *validator;
    bool online;
    uint64_t plan_slots, plan_disk_slots; /* agreed over the ranks */

    /* Where the run is. */
    uint64_t steps;  /* n; UTURN_NONE until the forward ends */
    uint64_t target; /* forward: the step the current advance ends at */
    uint64_t live;   /* reverse: the live state's step, or UTURN_NONE */
    bool turned;

    struct uturn__petsc_records rec;
    struct uturn__petsc_slots slots;
    struct uturn__petsc_counts count;
    struct uturn__petsc_wrap wrap;
    /* Recomputation: the step the TS took last, when its state still
     * follows from it (UTURN_NONE after a restore), and whether its RK
     * method reuses its last stage (first same as last). */
    uint64_t last_step;
    bool fsal;
    bool staged; /* checkpoints keep the last stage (petsc_stage.c) */
    Vec work;    /* a copy of x_j while a step is primed */
    /* The last stage (fsal): the TS's stages are those of the step that
     * reached x_{ts_stage_step} (UTURN_NONE: of no step to keep); `stage`
     * holds the one restored with x_{stage_step}. */
    uint64_t ts_stage_step;
    Vec stage;
    uint64_t stage_step;
};

/* The layer's state of a trajectory of type "uturn", or NULL. */
struct uturn__petsc *uturn__petsc_of(TSTrajectory tj);

/* ---- the trajectory's operations ---- */

PetscErrorCode uturn__petsc_set(TSTrajectory tj, TS ts, PetscInt k,
                                PetscReal time, Vec x);
PetscErrorCode uturn__petsc_get(TSTrajectory tj, TS ts, PetscInt k,
                                PetscReal *time);
PetscErrorCode uturn__petsc_setfromoptions(TSTrajectory tj,
                                           PetscOptionItems *items);
PetscErrorCode uturn__petsc_view(TSTrajectory tj, PetscViewer viewer);

/* ---- runs (petsc_plan.c, petsc_run.c, petsc_predict.c) ---- */

/* The plan of a run that begins at set(0): choose the planner and agree
 * on the plan over the ranks (or keep the last run's). Collective. */
PetscErrorCode uturn__petsc_plan_begin(struct uturn__petsc *u, TS ts, Vec x);
/* Begin a run (set(0)): the plan, then a cursor over it, the validator,
 * the slots and the adapt's wrapper. Collective. */
PetscErrorCode uturn__petsc_run_begin(struct uturn__petsc *u, TS ts, Vec x);
/* The step count a TS will take, when it is fixed before the solve (no
 * adaptivity, no events): true and *steps; false otherwise. */
bool uturn__petsc_predict_steps(TS ts, uint64_t *steps);
/* Drop the current run's cursor, validator, slots and records; keep the
 * plan for the next run. */
PetscErrorCode uturn__petsc_run_drop(struct uturn__petsc *u);
/* Drop everything, the plan and its communicator too (collective). */
PetscErrorCode uturn__petsc_drop_all(struct uturn__petsc *u);

/* Whether the TS's method reuses its last stage as the next step's first
 * (*fsal: an RK tableau with the FSAL property), and whether checkpoints
 * must then keep that stage (*staged: this PETSc does not compute it bit
 * for bit equal to the step's result; petsc_stage.c). */
PetscErrorCode uturn__petsc_stage_needs(TS ts, Vec x, bool *fsal, bool *staged);

/* ---- actions (petsc_actions.c) ---- */

/* The next action of the plan; fails (PETSC_ERR_PLIB) at its end. */
PetscErrorCode uturn__petsc_take(struct uturn__petsc *u, uturn_action_t *a);
/* @p a was performed: tell the validator, if any. */
PetscErrorCode uturn__petsc_done(struct uturn__petsc *u,
                                 const uturn_action_t *a);
/* The plan's text for @p a, for messages. */
const char *uturn__petsc_action_text(const uturn_action_t *a, char *buf,
                                     size_t bytes);
/* Perform a store (of @p x, the live x_step, with its last stage from
 * @p ts when checkpoints keep one), a restore (into @p x) or a free. */
PetscErrorCode uturn__petsc_slot_action(struct uturn__petsc *u, TS ts, Vec x,
                                        const uturn_action_t *a);
/* The end of the plan: the frees after reverse 0, the validator's end. */
PetscErrorCode uturn__petsc_finish(struct uturn__petsc *u);

/* ---- steps (petsc_replay.c, petsc_step.c) ---- */

/* Take step j again from x_j in the TS's solution: the recorded time and
 * step size, a restart forced. Counted as a forward step when @p counted,
 * else as a replay. */
PetscErrorCode uturn__petsc_replay(struct uturn__petsc *u, TS ts, uint64_t j,
                                   bool counted);
/* Leave the TS as adjoint step k-1 expects it: ptime t_k, time_step
 * t_{k-1} - t_k, step number k. */
void uturn__petsc_turn_back(struct uturn__petsc *u, TS ts, uint64_t k);
/* Wrap the TS's step so that the size each step begins with is known. */
PetscErrorCode uturn__petsc_step_wrap(struct uturn__petsc *u, TS ts);
void uturn__petsc_step_unwrap(struct uturn__petsc *u);
/* x_k exists: close step k-1's attempts (a step that went through no
 * adapt gets the size it began with). */
PetscErrorCode uturn__petsc_step_done(struct uturn__petsc *u, uint64_t k,
                                      PetscReal t_prev, PetscReal t_now);
/* Wrap the TS's adapt: record attempts, force a recomputation's. */
PetscErrorCode uturn__petsc_adapt_wrap(struct uturn__petsc *u, TS ts);
PetscErrorCode uturn__petsc_adapt_unwrap(struct uturn__petsc *u);

#endif
