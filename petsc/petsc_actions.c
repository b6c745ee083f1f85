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

PetscErrorCode uturn__petsc_slot_action(struct uturn__petsc *u, Vec x,
                                        const uturn_action_t *a)
{
    PetscFunctionBegin;
    struct uturn__petsc_slots *s = &u->slots;
    const bool disk              = a->slot >= s->memory_slots;
    if (a->op == UTURN_OP_STORE) {
        PetscCheck(u->live == a->step, u->comm, PETSC_ERR_PLIB,
                   "uturn: store %llu with the live state at step %llu",
                   (unsigned long long)a->step, (unsigned long long)u->live);
        PetscCall(uturn__petsc_slots_store(s, a->slot, a->step, x));
        u->count.stores++;
        u->count.disk_stores += disk;
    } else if (a->op == UTURN_OP_RESTORE) {
        PetscCall(uturn__petsc_slots_restore(s, a->slot, a->step, x));
        u->count.restores++;
        u->count.disk_restores += disk;
        u->live          = a->step;
        u->last_step     = UTURN_NONE;
        u->restored_slot = a->slot;
    } else {
        PetscCheck(a->op == UTURN_OP_FREE, u->comm, PETSC_ERR_PLIB,
                   "uturn: not a slot action");
        PetscCall(uturn__petsc_slots_free(s, a->slot));
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
