/*
 * Walking the plan: the next action, the validator that sees every action
 * performed, and the actions that move states between the TS's solution
 * and the slots.
 */
#include "petsc_internal.h"

PetscErrorCode uturn__petsc_take(struct uturn__petsc *u, uturn_action_t *a)
{
    PetscFunctionBegin;
    PetscCheck(u->cursor != NULL && uturn_cursor_next(u->cursor, a), u->comm,
               PETSC_ERR_PLIB, "uturn: the plan ended before the adjoint");
    PetscFunctionReturn(0);
}

const char *uturn__petsc_action_text(const uturn_action_t *a, char *buf,
                                     size_t bytes)
{
    if (uturn_action_format(a, buf, bytes, NULL) != UTURN_OK)
        PetscSNPrintf(buf, bytes, "an action of unknown kind %d", (int)a->op);
    return buf;
}

PetscErrorCode uturn__petsc_done(struct uturn__petsc *u,
                                 const uturn_action_t *a)
{
    PetscFunctionBegin;
    if (u->validator == NULL)
        PetscFunctionReturn(0);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_validator_push(u->validator, a, &err);
    PetscCheck(st == UTURN_OK, u->comm, PETSC_ERR_PLIB,
               "uturn: the validator refused an action: %s", err.message);
    PetscFunctionReturn(0);
}

/* The last stage to keep with x_k, the live state, when checkpoints keep
 * one: the TS's (its last step reached x_k), or the one restored with x_k;
 * none for x_0. */
static PetscErrorCode stage_of(struct uturn__petsc *u, TS ts, uint64_t k,
                               Vec *stage)
{
    PetscFunctionBegin;
    *stage = NULL;
    if (!u->slots.staged || k == 0)
        PetscFunctionReturn(0);
    if (u->ts_stage_step == k) {
        PetscInt ns = 0;
        Vec *Y      = NULL;
        PetscCall(TSGetStages(ts, &ns, &Y));
        PetscCheck(ns > 0, u->comm, PETSC_ERR_PLIB, "uturn: no RK stages");
        *stage = Y[ns - 1];
    } else {
        PetscCheck(u->stage_step == k, u->comm, PETSC_ERR_PLIB,
                   "uturn: no last stage to keep with x_%llu",
                   (unsigned long long)k);
        *stage = u->stage;
    }
    PetscFunctionReturn(0);
}

static PetscErrorCode store(struct uturn__petsc *u, TS ts, Vec x,
                            const uturn_action_t *a)
{
    PetscFunctionBegin;
    PetscCheck(u->live == a->step, u->comm, PETSC_ERR_PLIB,
               "uturn: store %llu with the live state at step %llu",
               (unsigned long long)a->step, (unsigned long long)u->live);
    Vec stage = NULL;
    PetscCall(stage_of(u, ts, a->step, &stage));
    PetscCall(uturn__petsc_slots_store(&u->slots, a->slot, a->step, x, stage));
    u->count.stores++;
    u->count.disk_stores += a->slot >= u->slots.memory_slots;
    PetscFunctionReturn(0);
}

static PetscErrorCode restore(struct uturn__petsc *u, Vec x,
                              const uturn_action_t *a)
{
    PetscFunctionBegin;
    if (u->slots.staged && u->stage == NULL)
        PetscCall(VecDuplicate(x, &u->stage));
    bool staged = false;
    PetscCall(uturn__petsc_slots_restore(&u->slots, a->slot, a->step, x,
                                         u->stage, &staged));
    u->stage_step = staged ? a->step : UTURN_NONE;
    u->count.restores++;
    u->count.disk_restores += a->slot >= u->slots.memory_slots;
    u->live      = a->step;
    u->last_step = UTURN_NONE;
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_slot_action(struct uturn__petsc *u, TS ts, Vec x,
                                        const uturn_action_t *a)
{
    PetscFunctionBegin;
    if (a->op == UTURN_OP_STORE)
        PetscCall(store(u, ts, x, a));
    else if (a->op == UTURN_OP_RESTORE)
        PetscCall(restore(u, x, a));
    else {
        PetscCheck(a->op == UTURN_OP_FREE, u->comm, PETSC_ERR_PLIB,
                   "uturn: not a slot action");
        PetscCall(uturn__petsc_slots_free(&u->slots, a->slot));
    }
    PetscCall(uturn__petsc_done(u, a));
    PetscFunctionReturn(0);
}

/* The frees that end the plan, then the validator's end-of-plan rules. */
PetscErrorCode uturn__petsc_finish(struct uturn__petsc *u)
{
    PetscFunctionBegin;
    uturn_action_t a;
    while (u->cursor != NULL && uturn_cursor_next(u->cursor, &a)) {
        PetscCheck(a.op == UTURN_OP_FREE, u->comm, PETSC_ERR_PLIB,
                   "uturn: the plan goes on after reverse 0");
        PetscCall(uturn__petsc_slots_free(&u->slots, a.slot));
        PetscCall(uturn__petsc_done(u, &a));
    }
    if (u->validator != NULL) {
        uturn_error_t err;
        uturn_error_init(&err);
        const uturn_status_t st =
            uturn_validator_finish(u->validator, NULL, &err);
        PetscCheck(st == UTURN_OK, u->comm, PETSC_ERR_PLIB,
                   "uturn: the validator refused the plan's end: %s",
                   err.message);
    }
    PetscCall(uturn__petsc_slots_close(&u->slots)); /* its figures stay */
    u->phase = UTURN__PETSC_DONE;
    PetscFunctionReturn(0);
}
