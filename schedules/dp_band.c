/*
 * dp's approximate planner, for chains too long for the exact table.
 *
 * Banded suffix. Every nested plan reverses [j, n+1) by a first sweep
 * that stores x_{k_1}, x_{k_2}, .. and then reverses each gap between two
 * stored states with what is left. Restricting every gap of the top-level
 * first sweep to at most W steps, and reversing each gap exactly (the
 * short rows: the exact table for segments of at most W steps), gives
 *   band(j, m) = min over j < k <= j + W of cost(F_j .. F_{k-1})
 *                + F(j, k, m) + band(k, m - u_k)     (k < n; k = n: inline)
 * with band(j, .) = F(j, n+1, .) once n + 1 - j <= W. Every such plan is a
 * nested plan within the budget, so band(0, M) is an upper bound on the
 * optimum; on random chains of 300 steps with W = 16..32 it equalled the
 * optimum at every budget from 5 % to 75 % of store-all's. Only W + 1
 * value rows are alive at a time (a ring); the plan keeps, per cell, the
 * winning k - j in one byte.
 *
 * Coarse grid. When the budget cannot afford a checkpoint every W steps,
 * the band is infeasible. The coarse grid puts boundaries B_0 = 0 < B_1 <
 * .. < B_K = n + 1 at most W apart (on the smallest state of each window)
 * and solves the dynamic program over boundaries only:
 *   coarse(P, Q, m) = min( band(B_P, m) if Q = K,
 *                          min over P < J < Q of cost(B_P .. B_J)
 *                          + coarse(P, J, m) + coarse(J, Q, m - u_{B_J}) )
 * with coarse(P, P + 1) = F(B_P, B_{P+1}) from the short rows: a nested
 * plan whose stores outside the band sit on boundaries, again an upper
 * bound. coarse(P, Q, .) is constant for m >= U(B_P, B_Q): each term is
 * (by induction; U(B_P, B_Q) >= u_{B_J} + U(B_J, B_Q)), so its rows are
 * clipped like the exact table's.
 */
#include "dp_band.h"

#include <assert.h>
#include <string.h>

/* ---- the banded suffix --------------------------------------------------- */

uint64_t uturn__dp_band_bytes(const struct uturn__dp_chain *c, uint64_t W,
                              uint64_t M, uint64_t limit)
{
    const uint64_t n = c->n;
    const uint64_t ring =
        (W + 2) * (uturn__dp_chunks(M + 1) * (UTURN__DP_CHUNK + 1) * 4 + 16);
    uint64_t bytes = 0;
    if (uturn__mul_u64(n + 2, 8 + 4 + 1, &bytes) != UTURN_OK || bytes > limit ||
        ring > limit - bytes)
        return UINT64_MAX;
    bytes += ring + uturn__dp_chunks(M + 1) * UTURN__DP_CHUNK * 4 * 2;
    for (uint64_t j = 0; j + W < n + 1 && bytes <= limit; j++)
        bytes += uturn__dp_band_length(c, j, M);
    return bytes <= limit ? bytes : UINT64_MAX;
}

/* Scratch of one band fill. */
struct ring {
    uint32_t *cells, *summary;
    uint32_t length[256];
    uint64_t stride; /* cells per ring row */
    uint32_t *arg, *scratch;
    struct uturn__dp_cand *cand;
    uint64_t *next; /* candidate index -> k */
};

/* Band row j's values: from the ring, or the short row once n+1-j <= W. */
static struct uturn__dp_ref band_row(const struct uturn__dp_band *b,
                                     const struct ring *r, uint64_t j)
{
    if (j + b->W >= b->chain->n + 1)
        return uturn__dp_table_row(b->rows, j, b->chain->n + 1);
    const uint64_t slot = j % (b->W + 1);
    return (struct uturn__dp_ref){
        r->cells + slot * r->stride,
        r->summary + slot * (r->stride / UTURN__DP_CHUNK), r->length[slot]};
}

/* Candidates of band row j (n + 1 - j > W), k ascending. */
static size_t band_candidates(const struct uturn__dp_band *b, struct ring *r,
                              uint64_t j, uint64_t length)
{
    const struct uturn__dp_chain *c = b->chain;
    size_t count                    = 0;
    for (uint64_t k = j + 1; k <= j + b->W; k++) {
        const bool inline_right = k == c->n;
        const uint64_t u        = inline_right ? 0 : c->units[k];
        if (u >= length)
            continue;
        r->next[count]   = k;
        r->cand[count++] = (struct uturn__dp_cand){
            .left  = uturn__dp_table_row(b->rows, j, k),
            .right = inline_right ? uturn__dp_zero : band_row(b, r, k),
            .shift = (uint32_t)u,
            .cost  = (uint32_t)uturn__dp_cost(c, j, k)};
    }
    return count;
}

/* Fill band row j into the ring and keep its winners. */
static void band_fill_row(struct uturn__dp_band *b, struct ring *r, uint64_t j,
                          struct uturn__dp_work *work)
{
    if (b->W < 2 || b->W > UTURN__DP_BAND_MAX)
        return; /* never: dp_approx.c picks 2 <= W <= 32 */
    const uint64_t len            = uturn__dp_band_length(b->chain, j, b->M);
    const uint64_t slot           = j % (b->W + 1);
    const size_t count            = band_candidates(b, r, j, len);
    r->length[slot]               = (uint32_t)len;
    const struct uturn__dp_fill f = {
        .cells   = r->cells + slot * r->stride,
        .summary = r->summary + slot * (r->stride / UTURN__DP_CHUNK),
        .arg     = r->arg,
        .length  = (uint32_t)len,
        .k_lo    = 0,
        .k_hi    = (uint32_t)uturn__dp_chunks(len),
        .scratch = r->scratch};
    uturn__dp_row_fill(&f, r->cand, count, work);
    uint8_t *out = b->next + b->next_offset[j];
    for (uint64_t m = 0; m < len; m++)
        out[m] =
            f.cells[m] < UTURN__DP_INF ? (uint8_t)(r->next[r->arg[m]] - j) : 0;
    if (b->keep_index != NULL && b->keep_index[j] != UINT64_MAX) {
        const uint64_t i = b->keep_index[j];
        memcpy(b->keep + i * b->keep_stride, f.cells,
               (size_t)b->keep_stride * sizeof *f.cells);
        memcpy(b->keep_summary + i * (b->keep_stride / UTURN__DP_CHUNK),
               f.summary,
               (size_t)(b->keep_stride / UTURN__DP_CHUNK) * sizeof *f.summary);
    }
}

static uturn_status_t ring_alloc(struct ring *r, const struct uturn__dp_band *b,
                                 const uturn_allocator_t *alloc, bool free)
{
    const uint64_t rows = b->W + 1;
    r->stride           = uturn__dp_chunks(b->M + 1) * UTURN__DP_CHUNK;
    const size_t cells  = (size_t)(rows * r->stride) * sizeof *r->cells;
    const size_t sums   = cells / UTURN__DP_CHUNK;
    const size_t one    = (size_t)r->stride * sizeof *r->arg;
    const size_t cands  = (size_t)b->W * sizeof *r->cand;
    const size_t nexts  = (size_t)b->W * sizeof *r->next;
    if (free) {
        uturn__free(alloc, r->cells, cells);
        uturn__free(alloc, r->summary, sums);
        uturn__free(alloc, r->arg, one);
        uturn__free(alloc, r->scratch, one / UTURN__DP_CHUNK);
        uturn__free(alloc, r->cand, cands);
        uturn__free(alloc, r->next, nexts);
        return UTURN_OK;
    }
    r->cells   = uturn__alloc(alloc, cells);
    r->summary = uturn__alloc(alloc, sums);
    r->arg     = uturn__alloc(alloc, one);
    r->scratch = uturn__alloc(alloc, one / UTURN__DP_CHUNK);
    r->cand    = uturn__alloc(alloc, cands);
    r->next    = uturn__alloc(alloc, nexts);
    return r->cells && r->summary && r->arg && r->scratch && r->cand && r->next
               ? UTURN_OK
               : UTURN_E_NOMEM;
}

/* Offsets of the winners' rows. */
static uturn_status_t band_layout(struct uturn__dp_band *b,
                                  const uturn_allocator_t *alloc)
{
    const uint64_t n = b->chain->n;
    b->next_offset   = uturn__alloc(alloc, (size_t)(n + 1) * sizeof(uint64_t));
    if (b->next_offset == NULL)
        return UTURN_E_NOMEM;
    uint64_t total = 0;
    for (uint64_t j = 0; j <= n; j++) {
        b->next_offset[j] = total;
        if (j + b->W < n + 1)
            total += uturn__dp_band_length(b->chain, j, b->M);
    }
    b->next_bytes = total;
    b->next       = uturn__alloc(alloc, (size_t)(total > 0 ? total : 1));
    return b->next != NULL ? UTURN_OK : UTURN_E_NOMEM;
}

uturn_status_t uturn__dp_band_solve(struct uturn__dp_band *b,
                                    const uturn_allocator_t *alloc,
                                    struct uturn__dp_work *work)
{
    struct ring r         = {0};
    uturn_status_t status = band_layout(b, alloc);
    if (status == UTURN_OK)
        status = ring_alloc(&r, b, alloc, false);
    const uint64_t n = b->chain->n;
    for (uint64_t j = n + 1; status == UTURN_OK && j-- > 0;)
        if (j + b->W < n + 1)
            band_fill_row(b, &r, j, work);
    if (status == UTURN_OK) {
        const struct uturn__dp_ref top = band_row(b, &r, 0);
        b->band_value                  = uturn__dp_at(&top, b->M);
    }
    ring_alloc(&r, b, alloc, true);
    return status;
}

uint64_t uturn__dp_band_next(const struct uturn__dp_band *b, uint64_t j,
                             uint64_t m)
{
    assert(j + b->W < b->chain->n + 1);
    const uint64_t len = uturn__dp_band_length(b->chain, j, b->M);
    return j + b->next[b->next_offset[j] + (m < len ? m : len - 1)];
}
