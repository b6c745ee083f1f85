/*
 * The type's options (TSTrajectorySetFromOptions() calls this with the
 * trajectory's prefix): budgets as sizes the way the CLI reads them, the
 * planner, the disk level and the validator.
 */
#include "petsc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string option into text (size bytes); a value that does not fit is
 * an error, not cut short. Errors name the option on the rank that read
 * it (ranks may be given different values). */
static PetscErrorCode text_option(PetscOptionItems *PetscOptionsObject,
                                  const char *name, const char *help,
                                  const char *current, char *text, size_t size,
                                  PetscBool *set)
{
    PetscFunctionBegin;
    PetscCall(PetscOptionsString(name, help, "TSTRAJECTORYUTURN", current, text,
                                 size, set));
    PetscCheck(!*set || strlen(text) + 1 < size, PETSC_COMM_SELF,
               PETSC_ERR_ARG_WRONG,
               "%s: the value is longer than the %zu characters this option "
               "takes",
               name, size - 2);
    PetscFunctionReturn(0);
}

/* Read a size option; an option given with a bad size is an error. */
static PetscErrorCode size_option(PetscOptionItems *PetscOptionsObject,
                                  const char *name, const char *help,
                                  uint64_t *value)
{
    PetscFunctionBegin;
    char current[32], text[128], why[160];
    PetscBool set = PETSC_FALSE;
    snprintf(current, sizeof current, "%llu", (unsigned long long)*value);
    PetscCall(text_option(PetscOptionsObject, name, help, current, text,
                          sizeof text, &set));
    if (set) {
        uint64_t bytes = 0;
        PetscCheck(uturn__petsc_size(text, &bytes, why, sizeof why),
                   PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: %s", name, why);
        *value = bytes;
    }
    PetscFunctionReturn(0);
}

/* A cost in steps: digits only, named when it is not (*set: given). */
static PetscErrorCode cost_option(PetscOptionItems *PetscOptionsObject,
                                  const char *name, const char *help,
                                  uint64_t *value, PetscBool *set)
{
    PetscFunctionBegin;
    char current[32], text[128];
    snprintf(current, sizeof current, "%llu", (unsigned long long)*value);
    PetscCall(text_option(PetscOptionsObject, name, help, current, text,
                          sizeof text, set));
    if (*set) {
        char *end                  = NULL;
        errno                      = 0;
        const unsigned long long v = strtoull(text, &end, 10);
        PetscCheck(text[0] >= '0' && text[0] <= '9' && *end == '\0' &&
                       errno == 0,
                   PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
                   "%s: '%s' is not a whole number of steps (digits only, "
                   "at most 2^24)",
                   name, text);
        /* the planners that weigh disk costs (hrevolve, online on levels)
         * take at most 2^24: say so here, naming the option */
        PetscCheck(v <= (1ull << 24), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
                   "%s: %s is past 2^24 (16777216), the most the planners "
                   "that weigh disk costs take",
                   name, text);
        *value = (uint64_t)v;
    }
    PetscFunctionReturn(0);
}

/* "auto" or a planner uturn knows (not "parsed"). */
static PetscErrorCode planner_option(PetscOptionItems *PetscOptionsObject,
                                     struct uturn__petsc_options *o)
{
    PetscFunctionBegin;
    char text[UTURN__PETSC_NAME_MAX];
    PetscBool set = PETSC_FALSE;
    PetscCall(text_option(
        PetscOptionsObject, "-ts_trajectory_uturn_planner",
        "auto (revolve, or hrevolve with a disk, when the step count is "
        "fixed before the solve; online otherwise), or a planner's name",
        o->planner, text, sizeof text, &set));
    if (set) {
        uturn_planner_t p;
        PetscCheck(strcmp(text, "auto") == 0 ||
                       uturn_planner_from_name(text, &p) == UTURN_OK,
                   PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
                   "-ts_trajectory_uturn_planner: '%s' is not a planner "
                   "(auto, revolve, hrevolve, online, store-all, periodic, "
                   "sqrt, dp)",
                   text);
        strcpy(o->planner, text);
    }
    PetscFunctionReturn(0);
}

static PetscErrorCode dir_option(PetscOptionItems *PetscOptionsObject,
                                 struct uturn__petsc_options *o, PetscBool *set)
{
    PetscFunctionBegin;
    char dir[sizeof o->disk_dir];
    PetscCall(text_option(
        PetscOptionsObject, "-ts_trajectory_uturn_disk_dir",
        "Directory of the disk level's files (default $TMPDIR, else /tmp)",
        o->disk_dir, dir, sizeof dir, set));
    /* an empty value is no directory: refused, not taken as the default */
    PetscCheck(!*set || dir[0] != '\0', PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "-ts_trajectory_uturn_disk_dir: no directory given; leave the "
               "option out for $TMPDIR (else /tmp)");
    if (*set)
        PetscCall(PetscStrncpy(o->disk_dir, dir, sizeof o->disk_dir));
    PetscFunctionReturn(0);
}

/* The disk's other options mean nothing without a disk budget: say so
 * rather than drop them. */
static PetscErrorCode disk_given(const struct uturn__petsc_options *o,
                                 const PetscBool given[3])
{
    PetscFunctionBegin;
    static const char *const names[3] = {"-ts_trajectory_uturn_disk_dir",
                                         "-ts_trajectory_uturn_disk_write_cost",
                                         "-ts_trajectory_uturn_disk_read_cost"};
    for (int k = 0; k < 3; k++)
        PetscCheck(!given[k] || o->disk_bytes > 0, PETSC_COMM_SELF,
                   PETSC_ERR_ARG_INCOMP,
                   "%s needs a disk level: give -ts_trajectory_uturn_disk "
                   "(bytes of checkpoints on disk per rank) too",
                   names[k]);
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_setfromoptions(TSTrajectory tj,
                                           PetscOptionItems *PetscOptionsObject)
{
    PetscFunctionBegin;
    struct uturn__petsc *u = uturn__petsc_of(tj);
    PetscCheck(u != NULL, PetscObjectComm((PetscObject)tj), PETSC_ERR_PLIB,
               "uturn: not a uturn trajectory");
    struct uturn__petsc_options *o = &u->opt;
    PetscOptionsHeadBegin(PetscOptionsObject, "uturn trajectory options");
    PetscCall(size_option(PetscOptionsObject, "-ts_trajectory_uturn_budget",
                          "Bytes of checkpoints per rank (0: no limit)",
                          &o->budget_bytes));
    PetscCall(planner_option(PetscOptionsObject, o));
    PetscCall(size_option(PetscOptionsObject, "-ts_trajectory_uturn_disk",
                          "Bytes of checkpoints on disk per rank (0: none)",
                          &o->disk_bytes));
    PetscBool given[3] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
    PetscCall(dir_option(PetscOptionsObject, o, &given[0]));
    PetscCall(cost_option(PetscOptionsObject,
                          "-ts_trajectory_uturn_disk_write_cost",
                          "Cost of writing a state to disk, in steps",
                          &o->disk_write_cost, &given[1]));
    PetscCall(cost_option(PetscOptionsObject,
                          "-ts_trajectory_uturn_disk_read_cost",
                          "Cost of reading a state from disk, in steps",
                          &o->disk_read_cost, &given[2]));
    PetscCall(disk_given(o, given));
    PetscBool validate = o->validate ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PetscOptionsBool("-ts_trajectory_uturn_validate",
                               "Check every action with uturn's validator",
                               "TSTRAJECTORYUTURN", validate, &validate, NULL));
    o->validate = validate == PETSC_TRUE;
    PetscOptionsHeadEnd();
    PetscFunctionReturn(0);
}
