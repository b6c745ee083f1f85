/*
 * dp's approximate planner (dp_band.c: the banded suffix; dp_coarse.c:
 * the coarse grid). See dp_band.c for what they compute and why their
 * plans are valid.
 */
#ifndef UTURN_DP_BAND_H_INCLUDED
#define UTURN_DP_BAND_H_INCLUDED

#include "dp.h"

#define UTURN__DP_BAND_MAX 255u /* k - j is kept in one byte */

struct uturn__dp_band {
    const struct uturn__dp_chain *chain; /* borrowed */
    const struct uturn__dp_table *rows;  /* the short rows, borrowed */
    uint64_t W, M;
    /* The banded suffix: per row j (n + 1 - j > W), per cell, k - j. */
    uint8_t *next;
    uint64_t *next_offset;
    uint64_t next_bytes;
    uint32_t band_value; /* band(0, M) */
    /* Band rows kept for the coarse grid (the rows at boundaries). */
    uint64_t *keep_index; /* j -> kept row, or UINT64_MAX; NULL: none */
    uint32_t *keep, *keep_summary;
    uint64_t keep_count, keep_stride;
    /* The coarse grid: boundaries bound[0 .. K] and rows (P, Q), Q - P >= 2
     * (K == 0: no grid). */
    uint64_t K;
    uint64_t *bound;
    uint64_t *base, *offset;
    uint32_t *length, *cells, *summary;
    uint64_t rows_count, cell_count;
    uint32_t coarse_value; /* coarse(0, K, M) */
};

/* Cells of band row j: min(M, U(j, n+1)) + 1. */
static inline uint64_t uturn__dp_band_length(const struct uturn__dp_chain *c,
                                             uint64_t j, uint64_t M)
{
    const uint64_t u = uturn__dp_interior(c, j, c->n + 1);
    return (u < M ? u : M) + 1;
}

/* Bytes of the banded suffix for these dimensions, UINT64_MAX past limit. */
uint64_t uturn__dp_band_bytes(const struct uturn__dp_chain *c, uint64_t W,
                              uint64_t M, uint64_t limit);
/* Fill the banded suffix (b->chain, rows, W, M and the keep fields set)
 * with up to `threads` threads. */
uturn_status_t uturn__dp_band_solve(struct uturn__dp_band *b, uint64_t threads,
                                    const uturn_allocator_t *alloc,
                                    struct uturn__dp_work *work);
/* The next first-sweep checkpoint of band node (j, m), n + 1 - j > W. */
uint64_t uturn__dp_band_next(const struct uturn__dp_band *b, uint64_t j,
                             uint64_t m);
/* Choose the boundaries (b->bound, b->K); the smallest state of each
 * window of W/2 .. W steps. */
uturn_status_t uturn__dp_coarse_bounds(struct uturn__dp_band *b,
                                       const uturn_allocator_t *alloc);
/* Bytes of the coarse rows and kept band rows, UINT64_MAX past limit. */
uint64_t uturn__dp_coarse_bytes(const struct uturn__dp_band *b, uint64_t limit);
/* Candidate-chunk pairs the coarse grid would try at most (its work);
 * counting stops once past cap. */
uint64_t uturn__dp_coarse_work(const struct uturn__dp_band *b, uint64_t cap);
/* Ready the kept band rows (before uturn__dp_band_solve). */
uturn_status_t uturn__dp_coarse_keep(struct uturn__dp_band *b,
                                     const uturn_allocator_t *alloc);
/* Fill the coarse rows (after the banded suffix). */
uturn_status_t uturn__dp_coarse_solve(struct uturn__dp_band *b,
                                      const uturn_allocator_t *alloc,
                                      struct uturn__dp_work *work);
/* Coarse node [bound[P], bound[Q]) with m free: the split. *band is set
 * when the best is the banded suffix from bound[P] (Q == K; then the node
 * is a band node and the split is not used). */
uint64_t uturn__dp_coarse_split(const struct uturn__dp_band *b, uint64_t a,
                                uint64_t e, uint64_t m, bool *band);
void uturn__dp_band_free(struct uturn__dp_band *b,
                         const uturn_allocator_t *alloc);

#endif
