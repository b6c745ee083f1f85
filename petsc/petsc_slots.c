/*
 * Slot storage: the plan's slots 0 .. memory_slots-1 are buffers of this
 * rank's part of a checkpoint (local size * sizeof(PetscScalar) bytes for
 * x_step, as much again for its last stage when the slots are staged;
 * allocated on a slot's first store and kept until the run ends, so that
 * what is held never passes the plan's capacity), the next disk slots are
 * places in a file (petsc_disk.c). Copies go straight between a buffer and
 * the Vecs' local arrays: no communication.
 */
#include "petsc_internal.h"

#include <string.h>

PetscErrorCode uturn__petsc_slots_open(struct uturn__petsc_slots *s,
                                       uint64_t memory_slots,
                                       uint64_t disk_slots, PetscInt local,
                                       bool staged, const char *disk_dir,
                                       MPI_Comm comm)
{
    PetscFunctionBegin;
    const uint64_t all = memory_slots + disk_slots;
    *s                 = (struct uturn__petsc_slots){
                        .memory_slots = memory_slots, .local = local, .staged = staged};
    s->disk.fd     = -1;
    s->state_bytes = (uint64_t)local * sizeof(PetscScalar) * (staged ? 2 : 1);
    PetscCall(PetscCalloc1((size_t)memory_slots + 1, &s->buffers));
    PetscCall(PetscMalloc1((size_t)all + 1, &s->step));
    PetscCall(PetscCalloc1((size_t)all + 1, &s->has_stage));
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
    PetscCall(PetscFree(s->has_stage));
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
        const PetscInt n = s->local * (s->staged ? 2 : 1);
        PetscCall(PetscMalloc1((size_t)(n > 0 ? n : 1), &s->buffers[slot]));
        s->allocated++;
        const uint64_t held = s->allocated * s->state_bytes;
        if (held > s->peak_bytes)
            s->peak_bytes = held;
    }
    *out = s->buffers[slot];
    PetscFunctionReturn(0);
}

/* The parts of a checkpoint of x (and its stage, when there is one): the
 * Vecs' arrays, got here and given back by release(). */
static PetscErrorCode get_parts(const struct uturn__petsc_slots *s, Vec x,
                                Vec stage, bool write,
                                struct uturn__petsc_parts *p)
{
    PetscFunctionBegin;
    const uint64_t bytes = (uint64_t)s->local * sizeof(PetscScalar);
    *p       = (struct uturn__petsc_parts){{NULL, NULL}, {NULL, NULL}, {0, 0}};
    Vec v[2] = {x, stage};
    for (int i = 0; i < 2 && v[i] != NULL; i++) {
        if (write) {
            PetscCall(VecGetArray(v[i], &p->out[i]));
            p->in[i] = p->out[i];
        } else {
            PetscCall(VecGetArrayRead(v[i], &p->in[i]));
        }
        p->bytes[i] = bytes;
    }
    PetscFunctionReturn(0);
}

static PetscErrorCode release(Vec x, Vec stage, bool write,
                              struct uturn__petsc_parts *p)
{
    PetscFunctionBegin;
    Vec v[2] = {x, stage};
    for (int i = 0; i < 2 && v[i] != NULL; i++) {
        if (write)
            PetscCall(VecRestoreArray(v[i], &p->out[i]));
        else
            PetscCall(VecRestoreArrayRead(v[i], &p->in[i]));
    }
    PetscFunctionReturn(0);
}

/* Between the parts and a memory slot's buffer: x, then the stage. */
static void copy_parts(PetscScalar *buf, const struct uturn__petsc_parts *p,
                       PetscInt local, bool into_buffer)
{
    for (int i = 0; i < 2 && p->bytes[i] > 0; i++) {
        PetscScalar *b = buf + (size_t)i * (size_t)local;
        if (into_buffer)
            memcpy(b, p->in[i], (size_t)p->bytes[i]);
        else
            memcpy(p->out[i], b, (size_t)p->bytes[i]);
    }
}

PetscErrorCode uturn__petsc_slots_store(struct uturn__petsc_slots *s,
                                        uint64_t slot, uint64_t step, Vec x,
                                        Vec stage)
{
    PetscFunctionBegin;
    PetscCall(check_slot(s, slot));
    stage = s->staged ? stage : NULL;
    struct uturn__petsc_parts p;
    PetscCall(get_parts(s, x, stage, false, &p));
    if (slot < s->memory_slots) {
        PetscScalar *dst = NULL;
        PetscCall(buffer(s, slot, &dst));
        copy_parts(dst, &p, s->local, true);
    } else {
        PetscCall(uturn__petsc_disk_write(&s->disk, slot - s->memory_slots,
                                          s->state_bytes, &p));
    }
    PetscCall(release(x, stage, false, &p));
    s->step[slot]      = step;
    s->has_stage[slot] = stage != NULL;
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_slots_restore(struct uturn__petsc_slots *s,
                                          uint64_t slot, uint64_t step, Vec x,
                                          Vec stage, bool *has_stage)
{
    PetscFunctionBegin;
    PetscCall(check_slot(s, slot));
    PetscCheck(s->step[slot] == step, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "uturn: slot %llu holds no x_%llu", (unsigned long long)slot,
               (unsigned long long)step);
    *has_stage = s->has_stage[slot];
    stage      = *has_stage ? stage : NULL;
    struct uturn__petsc_parts p;
    PetscCall(get_parts(s, x, stage, true, &p));
    if (slot < s->memory_slots)
        copy_parts(s->buffers[slot], &p, s->local, false);
    else
        PetscCall(uturn__petsc_disk_read(&s->disk, slot - s->memory_slots,
                                         s->state_bytes, step, &p));
    PetscCall(release(x, stage, true, &p));
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_slots_free(struct uturn__petsc_slots *s,
                                       uint64_t slot)
{
    PetscFunctionBegin;
    PetscCall(check_slot(s, slot));
    const uint64_t bytes = (uint64_t)s->local * sizeof(PetscScalar);
    if (slot >= s->memory_slots && s->step[slot] != UTURN_NONE)
        s->disk.held -= bytes * (s->has_stage[slot] ? 2 : 1);
    s->step[slot]      = UTURN_NONE;
    s->has_stage[slot] = false;
    PetscFunctionReturn(0);
}
