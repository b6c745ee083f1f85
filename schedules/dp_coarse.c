/*
 * The coarse grid of dp's approximate planner (see dp_band.c for what it
 * computes and why its plans are valid): boundaries, rows over pairs of
 * boundaries, and the splits the generator reads back.
 */
#include "dp_band.h"

#include <assert.h>

uturn_status_t uturn__dp_coarse_bounds(struct uturn__dp_band *b,
                                       const uturn_allocator_t *alloc)
{
    const struct uturn__dp_chain *c = b->chain;
    const uint64_t end = c->n + 1, half = b->W / 2 > 0 ? b->W / 2 : 1;
    const uint64_t most = end / half + 2;
    b->bound            = uturn__alloc(alloc, (size_t)most * sizeof *b->bound);
    if (b->bound == NULL)
        return UTURN_E_NOMEM;
    uint64_t K = 0, last = 0;
    b->bound[0] = 0;
    while (last + b->W < end) {
        /* The smallest state in (last + W/2, last + W], the last if tied:
         * boundary states are what the grid stores. */
        const uint64_t hi = last + b->W < c->n ? last + b->W : c->n - 1;
        uint64_t best     = hi; /* x_n is never stored */
        for (uint64_t i = hi; i-- > last + half;)
            best = c->units[i] < c->units[best] ? i : best;
        b->bound[++K] = best;
        last          = best;
    }
    b->bound[++K] = end;
    assert(K < most);
    b->K = K;
    return UTURN_OK;
}

/* Cells of row (P, Q). */
static uint64_t coarse_length(const struct uturn__dp_band *b, uint64_t P,
                              uint64_t Q)
{
    const uint64_t u = uturn__dp_interior(b->chain, b->bound[P], b->bound[Q]);
    return (u < b->M ? u : b->M) + 1;
}

uint64_t uturn__dp_coarse_bytes(const struct uturn__dp_band *b, uint64_t limit)
{
    /* The kept band rows (at most one per boundary) and their index, then
     * the grid's rows: stops as soon as the limit is passed, so the time
     * is bounded by the limit whatever K is. */
    const uint64_t K     = b->K;
    const uint64_t chunk = uturn__dp_chunks(b->M + 1);
    uint64_t bytes =
        (K + 1) * (chunk * (UTURN__DP_CHUNK + UTURN__DP_SUMS) * 4 + 8) +
        (b->chain->n + 1) * 8;
    for (uint64_t P = 0; P + 2 <= K && bytes <= limit; P++)
        for (uint64_t Q = P + 2; Q <= K; Q++)
            bytes += 12 + uturn__dp_chunks(coarse_length(b, P, Q)) *
                              (UTURN__DP_CHUNK + UTURN__DP_SUMS) * 4;
    return bytes <= limit ? bytes : UINT64_MAX;
}

uint64_t uturn__dp_coarse_work(const struct uturn__dp_band *b, uint64_t cap)
{
    uint64_t work = 0;
    for (uint64_t P = 0; P + 2 <= b->K && work <= cap; P++)
        for (uint64_t Q = P + 2; Q <= b->K; Q++)
            work += (Q - P) * uturn__dp_chunks(coarse_length(b, P, Q));
    return work;
}

uturn_status_t uturn__dp_coarse_keep(struct uturn__dp_band *b,
                                     const uturn_allocator_t *alloc)
{
    const uint64_t n = b->chain->n;
    b->keep_stride   = uturn__dp_chunks(b->M + 1) * UTURN__DP_CHUNK;
    b->keep_index =
        uturn__alloc(alloc, (size_t)(n + 1) * sizeof *b->keep_index);
    if (b->keep_index == NULL)
        return UTURN_E_NOMEM;
    for (uint64_t j = 0; j <= n; j++)
        b->keep_index[j] = UINT64_MAX;
    for (uint64_t P = 0; P < b->K; P++)
        if (b->bound[P] + b->W < n + 1)
            b->keep_index[b->bound[P]] = b->keep_count++;
    const size_t cells = (size_t)(b->keep_count * b->keep_stride);
    b->keep            = uturn__alloc(alloc, cells * sizeof *b->keep);
    b->keep_summary =
        uturn__alloc(alloc, cells / UTURN__DP_STEP * sizeof *b->keep_summary);
    return b->keep != NULL && b->keep_summary != NULL ? UTURN_OK
                                                      : UTURN_E_NOMEM;
}

/* Row (P, Q) of the grid: the short row (exact) when the segment is at
 * most W steps, as for one block. */
static struct uturn__dp_ref coarse_row(const struct uturn__dp_band *b,
                                       uint64_t P, uint64_t Q)
{
    if (b->bound[Q] - b->bound[P] <= b->W)
        return uturn__dp_table_row(b->rows, b->bound[P], b->bound[Q]);
    const uint64_t row = b->base[P] + (Q - P - 2);
    const uint64_t o   = b->offset[row];
    return (struct uturn__dp_ref){b->cells + o, b->summary + o / UTURN__DP_STEP,
                                  b->length[row]};
}

/* The banded suffix from bound[P], as a row. */
static struct uturn__dp_ref band_at(const struct uturn__dp_band *b, uint64_t P)
{
    const uint64_t j = b->bound[P];
    if (j + b->W >= b->chain->n + 1)
        return uturn__dp_table_row(b->rows, j, b->chain->n + 1);
    const uint64_t i = b->keep_index[j];
    return (struct uturn__dp_ref){
        b->keep + i * b->keep_stride,
        b->keep_summary + i * (b->keep_stride / UTURN__DP_STEP),
        (uint32_t)uturn__dp_band_length(b->chain, j, b->M)};
}

/* Candidates of (P, Q) in order: the band (Q == K), then J ascending. The
 * band candidate's index is 0 when present. */
static size_t coarse_candidates(const struct uturn__dp_band *b, uint64_t P,
                                uint64_t Q, uint64_t length,
                                struct uturn__dp_cand *out)
{
    const struct uturn__dp_chain *c = b->chain;
    size_t count                    = 0;
    if (Q == b->K)
        out[count++] = (struct uturn__dp_cand){.left  = uturn__dp_zero,
                                               .right = band_at(b, P),
                                               .shift = 0,
                                               .cost  = 0};
    for (uint64_t J = P + 1; J < Q; J++) {
        const bool inline_right = b->bound[Q] == b->bound[J] + 1;
        const uint64_t u        = inline_right ? 0 : c->units[b->bound[J]];
        if (u >= length)
            continue;
        out[count++] = (struct uturn__dp_cand){
            .left  = coarse_row(b, P, J),
            .right = inline_right ? uturn__dp_zero : coarse_row(b, J, Q),
            .shift = (uint32_t)u,
            .cost  = (uint32_t)uturn__dp_cost(c, b->bound[P], b->bound[J])};
    }
    return count;
}

static uturn_status_t coarse_layout(struct uturn__dp_band *b,
                                    const uturn_allocator_t *alloc)
{
    const uint64_t K = b->K;
    b->rows_count    = K >= 2 ? (K - 1) * K / 2 : 0;
    b->base          = uturn__alloc(alloc, (size_t)(K + 1) * sizeof *b->base);
    b->offset        = uturn__alloc(alloc, (size_t)(b->rows_count + 1) * 8);
    b->length        = uturn__alloc(alloc, (size_t)(b->rows_count + 1) * 4);
    if (b->base == NULL || b->offset == NULL || b->length == NULL)
        return UTURN_E_NOMEM;
    uint64_t row = 0, cells = 0;
    for (uint64_t P = 0; P <= K; P++) {
        b->base[P] = row;
        for (uint64_t Q = P + 2; Q <= K; Q++, row++) {
            b->offset[row] = cells;
            b->length[row] = (uint32_t)coarse_length(b, P, Q);
            cells += uturn__dp_chunks(b->length[row]) * UTURN__DP_CHUNK;
        }
    }
    b->cell_count = cells;
    b->cells      = uturn__alloc(alloc, (size_t)(cells + 1) * 4);
    b->summary = uturn__alloc(alloc, (size_t)(cells / UTURN__DP_STEP + 1) * 4);
    return b->cells != NULL && b->summary != NULL ? UTURN_OK : UTURN_E_NOMEM;
}

uturn_status_t uturn__dp_coarse_solve(struct uturn__dp_band *b,
                                      const uturn_allocator_t *alloc,
                                      struct uturn__dp_work *work)
{
    const uint64_t K            = b->K;
    const size_t cb             = (size_t)K * sizeof(struct uturn__dp_cand);
    const size_t sb             = (size_t)uturn__dp_chunks(b->M + 1) * 4;
    struct uturn__dp_cand *cand = uturn__alloc(alloc, cb);
    uint32_t *scratch           = uturn__alloc(alloc, sb);
    uturn_status_t status       = UTURN_E_NOMEM;
    if (cand != NULL && scratch != NULL)
        status = coarse_layout(b, alloc);
    for (uint64_t P = K + 1; status == UTURN_OK && P-- > 0;)
        for (uint64_t Q = P + 2; Q <= K; Q++) {
            if (b->bound[Q] - b->bound[P] <= b->W)
                continue; /* read from the short rows */
            const uint64_t row = b->base[P] + (Q - P - 2);
            const uint32_t len = b->length[row];
            const size_t count = coarse_candidates(b, P, Q, len, cand);
            const struct uturn__dp_fill f = {
                .cells   = b->cells + b->offset[row],
                .summary = b->summary + b->offset[row] / UTURN__DP_STEP,
                .length  = len,
                .k_hi    = (uint32_t)uturn__dp_chunks(len),
                .scratch = scratch};
            uturn__dp_row_fill(&f, cand, count, work);
        }
    if (status == UTURN_OK) {
        const struct uturn__dp_ref top = coarse_row(b, 0, K);
        b->coarse_value                = uturn__dp_at(&top, b->M);
    }
    uturn__free(alloc, cand, cb);
    uturn__free(alloc, scratch, sb);
    return status;
}

/* Index of position x among the boundaries (it is one). */
static uint64_t find(const struct uturn__dp_band *b, uint64_t x)
{
    uint64_t lo = 0, hi = b->K;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (b->bound[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    assert(b->bound[lo] == x);
    return lo;
}

uint64_t uturn__dp_coarse_split(const struct uturn__dp_band *b, uint64_t a,
                                uint64_t e, uint64_t m, bool *band)
{
    const uint64_t P = find(b, a), Q = find(b, e);
    uint64_t best = UINT64_MAX, best_j = e - 1;
    *band = false;
    if (Q == b->K) {
        const struct uturn__dp_ref r = band_at(b, P);
        const uint64_t v             = uturn__dp_at(&r, m);
        if (v < UTURN__DP_INF) {
            best  = v;
            *band = true;
        }
    }
    for (uint64_t J = P + 1; J < Q; J++) {
        const uint64_t j        = b->bound[J];
        const bool inline_right = e == j + 1;
        const uint64_t u        = inline_right ? 0 : b->chain->units[j];
        if (u > m)
            continue;
        const struct uturn__dp_ref l = coarse_row(b, P, J);
        const struct uturn__dp_ref r =
            inline_right ? uturn__dp_zero : coarse_row(b, J, Q);
        const uint64_t lv = uturn__dp_at(&l, m), rv = uturn__dp_at(&r, m - u);
        const uint64_t v = uturn__dp_cost(b->chain, a, j) + lv + rv;
        if (lv < UTURN__DP_INF && rv < UTURN__DP_INF && v < best) {
            best   = v;
            best_j = j;
            *band  = false;
        }
    }
    return best_j;
}

void uturn__dp_band_free(struct uturn__dp_band *b,
                         const uturn_allocator_t *alloc)
{
    const uint64_t n = b->chain->n;
    uturn__free(alloc, b->next,
                (size_t)(b->next_bytes > 0 ? b->next_bytes : 1));
    uturn__free(alloc, b->next_offset, (size_t)(n + 1) * sizeof(uint64_t));
    uturn__free(alloc, b->keep_index, (size_t)(n + 1) * sizeof(uint64_t));
    const size_t kept = (size_t)(b->keep_count * b->keep_stride);
    uturn__free(alloc, b->keep, kept * sizeof *b->keep);
    uturn__free(alloc, b->keep_summary,
                kept / UTURN__DP_STEP * sizeof *b->keep_summary);
    const size_t most = (size_t)((n + 1) / (b->W / 2 > 0 ? b->W / 2 : 1) + 2);
    uturn__free(alloc, b->bound, most * sizeof *b->bound);
    uturn__free(alloc, b->base, (size_t)(b->K + 1) * sizeof *b->base);
    uturn__free(alloc, b->offset, (size_t)(b->rows_count + 1) * 8);
    uturn__free(alloc, b->length, (size_t)(b->rows_count + 1) * 4);
    uturn__free(alloc, b->cells, (size_t)(b->cell_count + 1) * 4);
    uturn__free(alloc, b->summary,
                (size_t)(b->cell_count / UTURN__DP_STEP + 1) * 4);
}
