/*
 * uturn_petsc: a PETSc TSTrajectory type, "uturn", that gives every
 * TSAdjoint code byte budgets, adaptive time steps and a disk level with
 * options alone.
 *
 * An unmodified PETSc program selects it at run time:
 *
 *   ./app -ts_save_trajectory -ts_trajectory_type uturn \
 *         -dll_append <libdir>/libuturn_petsc.so \
 *         -ts_trajectory_uturn_budget 64MB
 *
 * (PETSc opens the library and calls its registration entry point,
 * PetscDLLibraryRegister_uturn_petsc), or a program linked with
 * -luturn_petsc calls uturn_petsc_register() once after PetscInitialize().
 *
 * What the type does: during TSSolve() it keeps, within a per-rank byte
 * budget, the solution vectors a uturn plan chooses (revolve when the step
 * count is known before the solve, the online planner otherwise; hrevolve
 * or online with levels when a disk budget is given), and records each
 * step's time and step size outside the budget. During TSAdjointSolve() it
 * brings back each state the adjoint needs by restoring a checkpoint and
 * re-running TSStep() with the recorded step sizes, a step restart forced
 * after every restore, and rebuilds the step's stages by replaying it once.
 * On several ranks every rank runs one plan, agreed through the MPI layer
 * (uturn_mpi.h), each within its own budget. docs/petsc.md (installed as
 * share/doc/uturn/petsc.md) lists every option, the view line, the rules
 * and what is not supported yet.
 *
 * Link -luturn_petsc -luturn_mpi -luturn and PETSc (CMake:
 * find_package(uturn_petsc) gives uturn::uturn_petsc; pkg-config:
 * uturn-petsc). A program that only uses -dll_append links PETSc alone.
 * The layer is built against one PETSc version (its private TS header is
 * used): UTURN_PETSC_VERSION_MAJOR/MINOR name it, and a program built
 * against another PETSc is refused at compile time.
 */
#ifndef UTURN_PETSC_H_INCLUDED
#define UTURN_PETSC_H_INCLUDED

#include "uturn_petsc_export.h"

#include <petscts.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uturn.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The PETSc release the layer is built for and tested with. Since: 0.3 */
#define UTURN_PETSC_VERSION_MAJOR 3
#define UTURN_PETSC_VERSION_MINOR 18

#if PETSC_VERSION_MAJOR != UTURN_PETSC_VERSION_MAJOR ||                        \
    PETSC_VERSION_MINOR != UTURN_PETSC_VERSION_MINOR
#error "uturn_petsc.h: this layer is built for PETSc 3.18 only"
#endif

/** The type's name, for TSTrajectorySetType() and -ts_trajectory_type
 *  (named the way PETSc names its types). Since: 0.3 */
#define TSTRAJECTORYUTURN "uturn"

/**
 * Register the TSTrajectory type "uturn" with PETSc, so that
 * TSTrajectorySetType(tj, ts, TSTRAJECTORYUTURN) and the option
 * -ts_trajectory_type uturn find it. Call it after PetscInitialize() and
 * before the options are read (TSSetFromOptions()); calling it again is
 * harmless.
 * @return 0, or a PETSc error code (PetscFunctionListAdd() failed).
 * Thread safety: as PETSc's own registration: not concurrently with other
 * PETSc calls. Since: 0.3
 */
UTURN_PETSC_EXPORT PetscErrorCode uturn_petsc_register(void);

/**
 * PETSc's dynamic-library entry point: PETSc calls it when it opens
 * libuturn_petsc.so for -dll_append (or -dll_prepend). It calls
 * uturn_petsc_register(). Not meant to be called otherwise.
 * Since: 0.3
 */
UTURN_PETSC_EXPORT PetscErrorCode PetscDLLibraryRegister_uturn_petsc(void);

/**
 * What the last run of a "uturn" trajectory did, on this rank. Prepare
 * with uturn_petsc_report_init(). Counts are those of the last TSSolve()
 * and of the TSAdjointSolve() that followed it (so far, while it runs).
 * Since: 0.3
 */
typedef struct uturn_petsc_report {
    size_t size;           /* set by uturn_petsc_report_init() */
    const char *planner;   /* "revolve", "online", ...; static; NULL: none */
    bool online;           /* the plan learnt the step count at the end */
    uint64_t steps;        /* n, once known (UTURN_NONE before) */
    uint64_t slots;        /* the plan's memory slots, agreed over ranks */
    uint64_t disk_slots;   /* the plan's disk slots (0: no disk level) */
    uint64_t state_bytes;  /* one checkpoint here: local size * scalar,
                              twice that with last_stage */
    uint64_t budget_bytes; /* this rank's memory budget (0: none given) */
    uint64_t disk_budget_bytes;   /* this rank's disk budget (0: none) */
    uint64_t planned_peak_bytes;  /* the plan's peak in memory, here */
    uint64_t measured_peak_bytes; /* checkpoint memory held at most, here */
    uint64_t forward_steps;       /* TSStep() calls the plan made, first sweep
                                     included (revolve: t(n + 1, s)) */
    uint64_t plan_forward_steps;  /* what the plan counts (equal after a
                                     complete run) */
    uint64_t replays;  /* steps replayed for their stages: one per adjoint
                          step, not in forward_steps */
    uint64_t stores;   /* checkpoints written (memory and disk) */
    uint64_t restores; /* checkpoints read back (memory and disk) */
    uint64_t disk_stores, disk_restores;
    uint64_t disk_bytes_written, disk_bytes_read;
    uint64_t disk_peak_bytes; /* bytes held on disk at most, here */
    uint64_t record_bytes;    /* the per-step times and step sizes */
    uint64_t inexact_steps;   /* steps whose size could not be recorded
                                 exactly (0 in every supported case) */
    bool validated;           /* every action went through uturn's validator */
    bool complete;   /* the adjoint reached step 0 and the plan its end */
    bool last_stage; /* each checkpoint also keeps the last stage of the
                        step that reached it: an RK method that reuses it
                        as the next step's first, whose last stage this
                        PETSc does not compute bit for bit equal to the
                        step's result (5dp, 5bs, 6vr). Since: 0.3 */
} uturn_petsc_report_t;

/** Zero @p report for a struct of @p size bytes (steps: UTURN_NONE).
 *  NULL is a no-op. Thread safety: safe. Since: 0.3 */
UTURN_PETSC_EXPORT void
uturn_petsc_report_init_size(uturn_petsc_report_t *report, size_t size);
#define uturn_petsc_report_init(p)                                             \
    uturn_petsc_report_init_size((p), sizeof *(p))

/**
 * Fill @p out with what the "uturn" trajectory @p tj did (see
 * uturn_petsc_report_t). Local: no communication.
 * @return 0; PETSC_ERR_ARG_NULL (a NULL pointer); PETSC_ERR_ARG_WRONG
 *         (@p tj is not of type "uturn").
 * Thread safety: not while the TS runs. Since: 0.3
 */
UTURN_PETSC_EXPORT PetscErrorCode
uturn_petsc_trajectory_report(TSTrajectory tj, uturn_petsc_report_t *out);

#ifdef __cplusplus
}
#endif

#endif
