/*
 * Per-step records, outside the budget: t_k for every state the first
 * sweep reached, and the size of every attempt of every step (TSAdaptChoose
 * sees each attempt; all but a step's last were rejected). A recomputation
 * takes each step through the same attempts, so that it starts, is
 * rejected, rolls back and is accepted exactly as the first sweep was: a
 * step size recomputed as t_{k+1} - t_k may differ in its last bit, and a
 * rolled-back state need not be the state the step started from.
 */
#include "petsc_internal.h"

/* Room for @p count entries of @p *array (of @p size bytes each), whose
 * capacity is @p *capacity, doubling; @p used entries are kept. */
static PetscErrorCode grow(void **array, size_t size, uint64_t used,
                           uint64_t count, uint64_t *capacity)
{
    PetscFunctionBegin;
    if (count <= *capacity)
        PetscFunctionReturn(0);
    uint64_t c = *capacity < 64 ? 64 : *capacity;
    while (c < count)
        c *= 2;
    void *fresh = NULL;
    PetscCall(PetscMalloc((size_t)c * size, &fresh));
    if (used > 0)
        PetscCall(PetscMemcpy(fresh, *array, (size_t)used * size));
    PetscCall(PetscFree(*array));
    *array    = fresh;
    *capacity = c;
    PetscFunctionReturn(0);
}

static PetscErrorCode grow_steps(struct uturn__petsc_records *r, uint64_t count)
{
    PetscFunctionBegin;
    uint64_t c = r->capacity, d = r->capacity, e = r->capacity;
    PetscCall(grow((void **)&r->time, sizeof *r->time, r->count, count, &c));
    PetscCall(grow((void **)&r->first, sizeof *r->first, r->count, count, &d));
    PetscCall(grow((void **)&r->plain, sizeof *r->plain, r->count, count, &e));
    r->capacity = c;
    PetscFunctionReturn(0);
}

/* Record t_k; step k's attempts follow. Steps come in order. */
PetscErrorCode uturn__petsc_records_time(struct uturn__petsc_records *r,
                                         uint64_t k, PetscReal time)
{
    PetscFunctionBegin;
    PetscCheck(k == r->count, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "uturn: step %llu recorded after %llu steps",
               (unsigned long long)k, (unsigned long long)r->count);
    PetscCall(grow_steps(r, k + 1));
    r->time[k]  = time;
    r->first[k] = r->attempts;
    r->plain[k] = false;
    r->count    = k + 1;
    PetscFunctionReturn(0);
}

/* One more attempt of the step after the last time recorded; @p plain:
 * the step went through no adapt, and this is its only size. */
PetscErrorCode uturn__petsc_records_attempt(struct uturn__petsc_records *r,
                                            PetscReal dt, bool plain)
{
    PetscFunctionBegin;
    PetscCheck(r->count > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "uturn: an attempt before x_0");
    uint64_t c = r->attempt_capacity;
    PetscCall(grow((void **)&r->attempt, sizeof *r->attempt, r->attempts,
                   r->attempts + 1, &c));
    r->attempt_capacity       = c;
    r->attempt[r->attempts++] = dt;
    r->plain[r->count - 1]    = plain;
    PetscFunctionReturn(0);
}

/* The attempts of step j: their sizes and how many (at least one). */
uint64_t uturn__petsc_records_step(const struct uturn__petsc_records *r,
                                   uint64_t j, const PetscReal **sizes)
{
    const uint64_t end = j + 1 < r->count ? r->first[j + 1] : r->attempts;
    *sizes             = r->attempt + r->first[j];
    return end - r->first[j];
}

uint64_t uturn__petsc_records_bytes(const struct uturn__petsc_records *r)
{
    return r->capacity *
               (sizeof *r->time + sizeof *r->first + sizeof *r->plain) +
           r->attempt_capacity * sizeof *r->attempt;
}

PetscErrorCode uturn__petsc_records_free(struct uturn__petsc_records *r)
{
    PetscFunctionBegin;
    PetscCall(PetscFree(r->time));
    PetscCall(PetscFree(r->first));
    PetscCall(PetscFree(r->plain));
    PetscCall(PetscFree(r->attempt));
    *r = (struct uturn__petsc_records){0};
    PetscFunctionReturn(0);
}
