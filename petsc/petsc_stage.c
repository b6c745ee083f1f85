/*
 * Whether a checkpoint must keep the last stage. An RK method that reuses
 * its last stage (first same as last) begins step j with f(Y_s), Y_s the
 * last stage of step j-1; a step recomputed from a checkpoint has x_j
 * alone. The tableau's last row is its weights (the last weight 0), so
 * Y_s and x_j are the same sum, computed by two VecMAXPY() calls of s-1
 * and s terms; whether they agree bit for bit depends on how this PETSc
 * groups the terms (with PETSc 3.18: 3bs yes; 5dp, 5bs and 6vr no). The
 * probe makes both on a small vector with arbitrary entries, as TSStep_RK
 * and TSEvaluateStep_RK make them: the same operations on other data give
 * the same rounding, so when they agree there the checkpoint is x_j alone
 * (f(x_j) is then f(Y_s)). A vector type other than PETSc's standard ones
 * is not probed: its checkpoints keep the stage.
 */
#include "petsc_internal.h"

#include <string.h>

#define PROBE_ENTRIES 64

/* Entries of many magnitudes and both signs, the same in every run. */
static PetscErrorCode fill_arbitrary(Vec v, unsigned seed)
{
    PetscFunctionBegin;
    PetscScalar *a = NULL;
    PetscCall(VecGetArray(v, &a));
    uint64_t r = 0x9e3779b97f4a7c15ull * (seed + 1);
    for (int i = 0; i < PROBE_ENTRIES; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        const double unit = (double)(r >> 11) / 9007199254740992.0 - 0.5;
        a[i]              = (PetscScalar)(unit * (double)(1u << (r % 11)));
    }
    PetscCall(VecRestoreArray(v, &a));
    PetscFunctionReturn(0);
}

/* Y_s and the step's result from the same x and stages, bit for bit. */
static PetscErrorCode sums_agree(PetscInt s, const PetscReal *A,
                                 const PetscReal *b, bool *same)
{
    PetscFunctionBegin;
    Vec *k = NULL, y, z;
    PetscScalar w[2][64];
    const PetscReal h = 0.1;
    PetscCheck(s <= 64, PETSC_COMM_SELF, PETSC_ERR_SUP,
               "uturn: an RK method of %d stages", (int)s);
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, PROBE_ENTRIES, &y));
    PetscCall(VecDuplicate(y, &z));
    PetscCall(VecDuplicateVecs(y, s, &k));
    PetscCall(fill_arbitrary(y, 0));
    PetscCall(VecCopy(y, z));
    for (PetscInt j = 0; j < s; j++) {
        PetscCall(fill_arbitrary(k[j], (unsigned)j + 1));
        w[0][j] = h * A[(s - 1) * s + j];
        w[1][j] = h * b[j];
    }
    PetscCall(VecMAXPY(y, s - 1, w[0], k)); /* TSStep_RK's Y[s-1] */
    PetscCall(VecMAXPY(z, s, w[1], k));     /* TSEvaluateStep_RK's x */
    const PetscScalar *p = NULL, *q = NULL;
    PetscCall(VecGetArrayRead(y, &p));
    PetscCall(VecGetArrayRead(z, &q));
    *same = memcmp(p, q, PROBE_ENTRIES * sizeof *p) == 0;
    PetscCall(VecRestoreArrayRead(y, &p));
    PetscCall(VecRestoreArrayRead(z, &q));
    PetscCall(VecDestroyVecs(s, &k));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&z));
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_stage_needs(TS ts, Vec x, bool *fsal, bool *staged)
{
    PetscFunctionBegin;
    *fsal = *staged = false;
    PetscBool rk = PETSC_FALSE, reuses = PETSC_FALSE, standard = PETSC_FALSE;
    PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSRK, &rk));
    if (!rk)
        PetscFunctionReturn(0);
    PetscInt s         = 0;
    const PetscReal *A = NULL, *b = NULL;
    PetscCall(TSRKGetTableau(ts, &s, &A, &b, NULL, NULL, NULL, NULL, &reuses));
    *fsal = reuses == PETSC_TRUE;
    if (!*fsal)
        PetscFunctionReturn(0);
    bool same = b[s - 1] == 0;
    for (PetscInt j = 0; j + 1 < s; j++)
        same = same && A[(s - 1) * s + j] == b[j];
    PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &standard, VECSEQ,
                                        VECMPI, VECSTANDARD, ""));
    if (same && standard)
        PetscCall(sums_agree(s, A, b, &same));
    *staged = !(same && standard);
    PetscFunctionReturn(0);
}
