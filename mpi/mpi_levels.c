/*
 * Storage levels across ranks (uniform states): each rank resolves each
 * level's capacity at its own real cost (memory's bytes less its I/O
 * buffers, a disk's bytes in whole strides of its own state), the first
 * vote takes the least of each over the ranks, and every rank plans those
 * slot counts. Every rank's further levels are its own (its own files):
 * the plan only says how many slots of each a rank holds.
 */
#include "mpi_internal.h"

#include <string.h>

void uturn__mpi_levels_prepare(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    mk->level_count          = p->levels != NULL ? p->level_count : 0;
    if (mk->level_count == 0)
        return;
    if (mk->level_count > UTURN_MPI_LEVELS) {
        uturn__mpi_making_failf(mk, UTURN_E_INVALID_ARG, 0, 0,
                                "%llu storage levels: at most %u",
                                (unsigned long long)mk->level_count,
                                UTURN_MPI_LEVELS);
        return;
    }
    for (uint64_t k = 0; k < mk->level_count; k++) {
        uturn_level_init(&mk->levels[k]);
        const uturn_level_t *in = &p->levels[k];
        memcpy(&mk->levels[k], in,
               in->size != 0 && in->size < sizeof *in ? in->size : sizeof *in);
        mk->levels[k].size = sizeof mk->levels[k];
        uturn_error_t e;
        uturn_error_init(&e);
        const uturn_status_t st = uturn_executor_level_slots(
            mk->ex, p, k, &mk->level_own[k], &e);
        if (st != UTURN_OK) {
            uturn__mpi_making_fail(mk, st, &e);
            return;
        }
    }
    mk->own_slots = mk->level_own[0];
}

void uturn__mpi_levels_agree(struct uturn__mpi_making *mk,
                             const struct uturn__mpi_vote *first)
{
    for (uint64_t k = 0; k < mk->level_count; k++)
        mk->level_slots[k] = first->low[k];
}

void uturn__mpi_levels_problem(const struct uturn__mpi_making *mk,
                               const uint64_t *slots, uturn_level_t *out,
                               uturn_problem_t *p)
{
    if (mk->level_count == 0)
        return;
    for (uint64_t k = 0; k < mk->level_count; k++) {
        out[k]       = mk->levels[k];
        out[k].slots = slots[k];
        out[k].bytes = 0;
    }
    p->levels      = out;
    p->level_count = mk->level_count;
    p->slots       = 0;
    p->budget_bytes = 0;
}
