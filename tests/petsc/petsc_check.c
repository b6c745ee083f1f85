/*
 * The checks of the PETSc layer's tests (see petsc_check.h).
 */
#include "petsc_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The online plan's forward steps against revolve's optimum t(n+1, s),
 * as docs/model.md documents them: exact up to (s+1)(s+2)/2 steps, within
 * 1.05 from 100 steps on, and at worst 1.1083 (s = 2, n = 44). */
static bool online_within(uint64_t forward, uint64_t optimum, uint64_t n,
                          uint64_t s)
{
    if (n <= (s + 1) * (s + 2) / 2)
        return forward == optimum;
    return (double)forward <= (n >= 100 ? 1.05 : 1.1083) * (double)optimum;
}

static uint64_t binomial(uint64_t n, uint64_t k)
{
    double c = 1;
    for (uint64_t i = 1; i <= k; i++)
        c = c * (double)(n - k + i) / (double)i;
    return (uint64_t)(c + 0.5);
}

uint64_t revolve_forward_steps(uint64_t l, uint64_t s)
{
    if (s + 1 >= l)
        return l - 1;
    uint64_t r = 0;
    while (binomial(s + r, s) < l)
        r++;
    return r * l - binomial(s + 1 + r - 1, s + 1);
}

static PetscErrorCode parse_states(const char *list, test_options_t *o)
{
    PetscFunctionBeginUser;
    char copy[256];
    PetscCall(PetscStrncpy(copy, list, sizeof copy));
    o->count = 0;
    for (char *t = strtok(copy, ","); t != NULL; t = strtok(NULL, ",")) {
        PetscCheck(o->count < TEST_MAX_BUDGETS, PETSC_COMM_WORLD,
                   PETSC_ERR_ARG_SIZ, "too many budgets");
        o->states[o->count++] =
            strcmp(t, "all") == 0 ? 0 : strtoull(t, NULL, 10);
    }
    PetscFunctionReturn(0);
}

PetscErrorCode read_test_options(test_options_t *o)
{
    PetscFunctionBeginUser;
    char list[256] = "1,2,all", expect[16] = "offline";
    PetscInt disk = 0;
    PetscBool so = PETSC_FALSE, uneven = PETSC_FALSE, twice = PETSC_FALSE;
    memset(o, 0, sizeof *o);
    strcpy(o->planner, "auto");
    PetscCall(PetscOptionsGetString(NULL, NULL, "-test_states", list,
                                    sizeof list, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-test_disk_states", &disk, NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-test_planner", o->planner,
                                    sizeof o->planner, NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-test_expect", expect,
                                    sizeof expect, NULL));
    PetscCall(
        PetscOptionsGetBool(NULL, NULL, "-test_solution_only", &so, NULL));
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-test_uneven", &uneven, NULL));
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-test_twice", &twice, NULL));
    PetscBool stage = PETSC_FALSE, stage_set = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-test_last_stage", &stage,
                                  &stage_set));
    o->last_stage = stage_set ? stage == PETSC_TRUE : -1;
    PetscCall(parse_states(list, o));
    o->uneven        = uneven == PETSC_TRUE;
    o->twice         = twice == PETSC_TRUE;
    o->disk_states   = (uint64_t)disk;
    o->online        = strcmp(expect, "online") == 0;
    o->solution_only = so == PETSC_TRUE;
    PetscFunctionReturn(0);
}

/* This rank's state bytes: its part of the TS's solution. */
static PetscErrorCode set_size(const char *name, uint64_t states,
                               uint64_t state_bytes)
{
    PetscFunctionBeginUser;
    char value[32];
    snprintf(value, sizeof value, "%llu",
             (unsigned long long)(states * state_bytes));
    PetscCall(PetscOptionsSetValue(NULL, name, value));
    PetscFunctionReturn(0);
}

/* This rank's budget in states: rank r has r more with -test_uneven. */
static uint64_t own_states(const test_options_t *o, uint64_t states)
{
    PetscMPIInt rank = 0;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    return states > 0 && o->uneven ? states + (uint64_t)rank : states;
}

PetscErrorCode set_budget_options(const test_options_t *o, uint64_t states,
                                  uint64_t bytes)
{
    PetscFunctionBeginUser;
    states = own_states(o, states);
    PetscCall(set_size("-ts_trajectory_uturn_budget", states, bytes));
    PetscCall(set_size("-ts_trajectory_uturn_disk", o->disk_states, bytes));
    PetscCall(
        PetscOptionsSetValue(NULL, "-ts_trajectory_uturn_planner", o->planner));
    PetscFunctionReturn(0);
}

PetscErrorCode check_bitwise(Vec a, Vec b, bool *same)
{
    PetscFunctionBeginUser;
    const PetscScalar *x, *y;
    PetscInt n = 0, m = 0;
    PetscCall(VecGetLocalSize(a, &n));
    PetscCall(VecGetLocalSize(b, &m));
    PetscCall(VecGetArrayRead(a, &x));
    PetscCall(VecGetArrayRead(b, &y));
    /* A rank may own no entry (mu on 4 ranks): no array to compare. */
    int local = n == m && (n == 0 || memcmp(x, y, (size_t)n * sizeof *x) == 0);
    int all   = 0;
    PetscCall(VecRestoreArrayRead(a, &x));
    PetscCall(VecRestoreArrayRead(b, &y));
    PetscCallMPI(
        MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_LAND, PETSC_COMM_WORLD));
    *same = all != 0;
    PetscFunctionReturn(0);
}

PetscErrorCode print_difference(const char *what, Vec a, Vec b)
{
    PetscFunctionBeginUser;
    Vec d;
    PetscReal diff = 0, norm = 0;
    const PetscScalar *x, *y;
    PetscCall(VecDuplicate(a, &d));
    PetscCall(VecWAXPY(d, -1.0, a, b));
    PetscCall(VecNorm(d, NORM_INFINITY, &diff));
    PetscCall(VecNorm(a, NORM_INFINITY, &norm));
    PetscCall(VecGetArrayRead(a, &x));
    PetscCall(VecGetArrayRead(b, &y));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "%s: max |difference| %.6e (max |store-all| "
                          "%.6e); first entry %.10g (store-all) vs %.10g\n",
                          what, (double)diff, (double)norm,
                          (double)PetscRealPart(x[0]),
                          (double)PetscRealPart(y[0])));
    PetscCall(VecRestoreArrayRead(a, &x));
    PetscCall(VecRestoreArrayRead(b, &y));
    PetscCall(VecDestroy(&d));
    PetscFunctionReturn(0);
}

/* The largest of @p v over the ranks. */
static uint64_t most(uint64_t v)
{
    uint64_t m = v;
    MPI_Allreduce(&v, &m, 1, MPI_UINT64_T, MPI_MAX, PETSC_COMM_WORLD);
    return m;
}

static bool everywhere(bool cond)
{
    int c = cond, all = 0;
    MPI_Allreduce(&c, &all, 1, MPI_INT, MPI_LAND, PETSC_COMM_WORLD);
    return all != 0;
}

/* Record a failed check (collective). */
static bool check(bool cond, const char *what, bool *ok)
{
    const bool all = everywhere(cond);
    if (!all) {
        PetscPrintf(PETSC_COMM_WORLD, "FAIL: %s\n", what);
        *ok = false;
    }
    return all;
}

/* Forward steps: revolve's optimum offline (hrevolve's own count with a
 * disk), the online plan's documented ratio to it online. */
static void check_counts(const test_options_t *o, const uturn_petsc_report_t *r,
                         uint64_t optimum, bool *ok)
{
    check(r->forward_steps == r->plan_forward_steps,
          "the run's forward steps are the plan's", ok);
    check(r->replays == r->steps, "one replay per adjoint step", ok);
    if (o->disk_states > 0)
        return;
    if (!o->online)
        check(r->forward_steps == optimum,
              "forward steps are revolve's t(n + 1, s)", ok);
    else
        check(online_within(r->forward_steps, optimum, r->steps, r->slots),
              "forward steps within the online plan's documented bounds "
              "(exact up to (s+1)(s+2)/2 steps, 1.05 from 100)",
              ok);
}

PetscErrorCode check_run(const test_options_t *o, uint64_t states,
                         uint64_t state_bytes, const uturn_petsc_report_t *r,
                         bool same, bool *ok)
{
    PetscFunctionBeginUser;
    *ok                    = true;
    const uint64_t budget  = own_states(o, states) * state_bytes;
    const uint64_t disk    = o->disk_states * state_bytes;
    const uint64_t optimum = revolve_forward_steps(r->steps + 1, r->slots);
    char given[32];
    snprintf(given, sizeof given, states ? "%llu" : "all",
             (unsigned long long)states);
    PetscCall(PetscPrintf(
        PETSC_COMM_WORLD,
        "uturn %s, budget %s states: slots %llu + %llu disk, steps %llu, "
        "forward steps %llu (t(n+1,s) %llu, ratio %.4f), replays %llu, "
        "restores %llu, peak %llu B (budget %llu B), disk peak %llu B: "
        "gradients %s\n",
        r->planner, given, (unsigned long long)r->slots,
        (unsigned long long)r->disk_slots, (unsigned long long)r->steps,
        (unsigned long long)r->forward_steps, (unsigned long long)optimum,
        (double)r->forward_steps / (double)optimum,
        (unsigned long long)r->replays, (unsigned long long)r->restores,
        (unsigned long long)most(r->measured_peak_bytes),
        (unsigned long long)most(budget),
        (unsigned long long)most(r->disk_peak_bytes),
        same ? "bitwise equal" : "DIFFER"));
    check(same, "gradients bitwise equal to the memory trajectory's", ok);
    check(r->complete && r->validated, "the plan ran to its end, validated",
          ok);
    check(r->inexact_steps == 0, "every step size recorded exactly", ok);
    check(budget == 0 || (r->measured_peak_bytes <= budget &&
                          r->planned_peak_bytes <= budget),
          "checkpoint peak within the budget on every rank", ok);
    check(disk == 0 || r->disk_peak_bytes <= disk,
          "disk peak within the disk budget", ok);
    check(o->online || r->disk_slots <= r->steps,
          "no more disk slots than the run has steps (its file and tables "
          "are as large)",
          ok);
    check_counts(o, r, optimum, ok);
    if (o->last_stage >= 0)
        check(r->last_stage == (o->last_stage == 1) &&
                  r->state_bytes == state_bytes * (r->last_stage ? 2 : 1),
              "checkpoints keep the last stage exactly when expected", ok);
    if (o->uneven && states > 0)
        check(r->slots == (states < r->steps ? states : r->steps),
              "the ranks run the plan the smallest budget holds", ok);
    PetscFunctionReturn(0);
}
