/*
 * Slot storage: the plan's slots 0 .. memory_slots-1 are buffers of this
 * rank's part of a state (local size * sizeof(PetscScalar) bytes each,
 * allocated on a slot's first store and kept until the run ends, so that
 * what is held never passes the plan's capacity), the next disk slots are
 * places in a file (petsc_disk.c). Copies go straight between a buffer and
 * the Vec's local array: no communication.
 */
#include "petsc_internal.h"

#include <string.h>

PetscErrorCode uturn__petsc_slots_open(struct uturn__petsc_slots *s,
                                       uint64_t memory_slots,
                                       uint64_t disk_slots, PetscInt local,
                                       const char *disk_dir, MPI_Comm comm)
{
    PetscFunctionBegin;
    const uint64_t all = memory_slots + disk_slots;
    *s             = (struct uturn__petsc_slots){.memory_slots = memory_slots,
                                                 .local        = local};
    s->disk.fd     = -1;
    s->state_bytes = (uint64_t)local * sizeof(PetscScalar);
    PetscCall(PetscCalloc1((size_t)memory_slots + 1, &s->buffers));
    PetscCall(PetscMalloc1((size_t)all + 1, &s->step));
    for (uint64_t i = 0; i < all; i++)
        s->step[i] = UTURN_NONE;
    if (disk_slots > 0)
        PetscCall(uturn__petsc_disk_open(&s->disk, disk_slots, s->state_bytes,
                                         disk_dir, comm));
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_slots_close(struct uturn__petsc_slots *s)
{
    PetscFunctionBegin;
    if (s->buffers != NULL)
        for (uint64_t i = 0; i < s->memory_slots; i++)
            PetscCall(PetscFree(s->buffers[i]));
    PetscCall(PetscFree(s->buffers));
    PetscCall(PetscFree(s->step));
    PetscCall(uturn__petsc_disk_close(&s->disk));
    PetscFunctionReturn(0);
}

static PetscErrorCode check_slot(const struct uturn__petsc_slots *s,
                                 uint64_t slot)
{
    PetscFunctionBegin;
    PetscCheck(slot < s->memory_slots + s->disk.slots, PETSC_COMM_SELF,
               PETSC_ERR_PLIB, "uturn: slot %llu past the plan's %llu",
               (unsigned long long)slot,
               (unsigned long long)(s->memory_slots + s->disk.slots));
    PetscFunctionReturn(0);
}

/* The memory buffer of @p slot, allocated on first use. */
static PetscErrorCode buffer(struct uturn__petsc_slots *s, uint64_t slot,
                             PetscScalar **out)
{
    PetscFunctionBegin;
    if (s->buffers[slot] == NULL) {
        PetscCall(PetscMalloc1((size_t)(s->local > 0 ? s->local : 1),
                               &s->buffers[slot]));
        s->allocated++;
        const uint64_t held = s->allocated * s->state_bytes;
        if (held > s->peak_bytes)
            s->peak_bytes = held;
    }
    *out = s->buffers[slot];
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_slots_store(struct uturn__petsc_slots *s,
                                        uint64_t slot, uint64_t step, Vec x)
{
    PetscFunctionBegin;
    PetscCall(check_slot(s, slot));
    const PetscScalar *src = NULL;
    PetscCall(VecGetArrayRead(x, &src));
    if (slot < s->memory_slots) {
        PetscScalar *dst = NULL;
        PetscCall(buffer(s, slot, &dst));
        PetscCall(PetscArraycpy(dst, src, (size_t)s->local));
    } else {
        PetscCall(uturn__petsc_disk_write(&s->disk, slot - s->memory_slots, src,
                                          s->state_bytes));
    }
    PetscCall(VecRestoreArrayRead(x, &src));
    s->step[slot] = step;
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_slots_restore(struct uturn__petsc_slots *s,
                                          uint64_t slot, uint64_t step, Vec x)
{
    PetscFunctionBegin;
    PetscCall(check_slot(s, slot));
    PetscCheck(s->step[slot] == step, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "uturn: slot %llu holds no x_%llu", (unsigned long long)slot,
               (unsigned long long)step);
    PetscScalar *dst = NULL;
    PetscCall(VecGetArray(x, &dst));
    if (slot < s->memory_slots)
        PetscCall(PetscArraycpy(dst, s->buffers[slot], (size_t)s->local));
    else
        PetscCall(uturn__petsc_disk_read(&s->disk, slot - s->memory_slots, step,
                                         dst, s->state_bytes));
    PetscCall(VecRestoreArray(x, &dst));
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_slots_free(struct uturn__petsc_slots *s,
                                       uint64_t slot)
{
    PetscFunctionBegin;
    PetscCall(check_slot(s, slot));
    if (slot >= s->memory_slots && s->step[slot] != UTURN_NONE)
        s->disk.held -= s->state_bytes;
    s->step[slot] = UTURN_NONE;
    PetscFunctionReturn(0);
}
