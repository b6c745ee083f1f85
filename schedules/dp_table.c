/*
 * dp's exact table (see dp.h): its layout, its size and the splits the
 * generator reads back. dp_fill.c fills it.
 *
 * Row clipping. F(a, e, m) = LB(a, e) for every m >= U(a, e) (dp.h), so
 * row (a, e) keeps only min(cap, U(a, e)) + 1 cells and reads as its last
 * cell past its end. Every read of another row (left rows (a, j), right
 * rows (j, e) at m - u_j) goes through that clamp, so every cell has the
 * value the unclipped table would give it.
 */
#include "dp.h"

#include <assert.h>


uint64_t uturn__dp_table_rows(uint64_t n, uint64_t max_len)
{
    /* Rows of a: e from a + 2 to min(a + max_len, n + 1). */
    const uint64_t len  = max_len < n + 1 ? max_len : n + 1;
    const uint64_t full = n + 2 - len; /* a with all len - 1 rows */
    uint64_t rows = 0, tail = 0;
    const uint64_t short_rows = len - 1;
    if (uturn__mul_u64(full, short_rows, &rows) != UTURN_OK)
        return 0;
    /* The last len - 1 values of a have len - 2, .., 0 rows. */
    if (uturn__mul_u64(short_rows, short_rows - 1, &tail) != UTURN_OK ||
        uturn__add_u64(rows, tail / 2, &rows) != UTURN_OK)
        return 0;
    return rows;
}

/* Cells of row (a, e). */
static uint64_t row_length(const struct uturn__dp_chain *c, uint64_t a,
                           uint64_t e, uint64_t cap)
{
#ifdef UTURN_DP_BENCH_NO_CLIP
    (void)a;
    (void)e;
    (void)c;
    return cap + 1;
#endif
    const uint64_t u = uturn__dp_interior(c, a, e);
    return (u < cap ? u : cap) + 1;
}

#define ROW_BYTES UTURN__DP_ROW_BYTES

uint64_t uturn__dp_table_bytes(const struct uturn__dp_chain *c,
                               uint64_t max_len, uint64_t cap, uint64_t limit)
{
    const uint64_t rows = uturn__dp_table_rows(c->n, max_len);
    uint64_t bytes      = 0;
    if (rows == 0 || uturn__mul_u64(rows, ROW_BYTES, &bytes) != UTURN_OK ||
        bytes > limit || cap >= UTURN__DP_INF)
        return UINT64_MAX;
    bytes += (c->n + 2) * sizeof(uint64_t);
    for (uint64_t a = 0; a <= c->n; a++) {
        const uint64_t top = a + max_len < c->n + 1 ? a + max_len : c->n + 1;
        for (uint64_t e = a + 2; e <= top; e++) {
            const uint64_t chunks = uturn__dp_chunks(row_length(c, a, e, cap));
            bytes += (chunks - 1) * 4 * (UTURN__DP_CHUNK + UTURN__DP_SUMS);
        }
        if (bytes > limit)
            return UINT64_MAX;
    }
    return bytes;
}

void uturn__dp_table_free(struct uturn__dp_table *t,
                          const uturn_allocator_t *alloc)
{
    const uint64_t n = t->n;
    uturn__free(alloc, t->base, (size_t)(n + 2) * sizeof *t->base);
    uturn__free(alloc, t->offset, (size_t)t->rows * sizeof *t->offset);
    uturn__free(alloc, t->length, (size_t)t->rows * sizeof *t->length);
    uturn__free(alloc, t->cells, (size_t)t->cell_count * sizeof *t->cells);
    uturn__free(alloc, t->summary,
                (size_t)(t->cell_count / UTURN__DP_STEP) * sizeof *t->summary);
    *t = (struct uturn__dp_table){0};
}

/* Row indices and cell offsets; the caller checked the size. */
static void lay_out(struct uturn__dp_table *t, const struct uturn__dp_chain *c)
{
    uint64_t row = 0, cells = 0;
    for (uint64_t a = 0; a <= t->n; a++) {
        t->base[a] = row;
        const uint64_t top =
            a + t->max_len < t->n + 1 ? a + t->max_len : t->n + 1;
        for (uint64_t e = a + 2; e <= top; e++, row++) {
            const uint64_t len = row_length(c, a, e, t->cap);
            t->offset[row]     = cells;
            t->length[row]     = (uint32_t)len;
            cells += uturn__dp_chunks(len) * UTURN__DP_CHUNK;
        }
    }
    t->base[t->n + 1] = row;
    assert(row == t->rows && cells == t->cell_count);
}

/* Cells of every row, counted the way lay_out places them. */
static uint64_t cell_count(const struct uturn__dp_chain *c, uint64_t max_len,
                           uint64_t cap)
{
    uint64_t cells = 0;
    for (uint64_t a = 0; a <= c->n; a++) {
        const uint64_t top = a + max_len < c->n + 1 ? a + max_len : c->n + 1;
        for (uint64_t e = a + 2; e <= top; e++)
            cells +=
                uturn__dp_chunks(row_length(c, a, e, cap)) * UTURN__DP_CHUNK;
    }
    return cells;
}

uturn_status_t uturn__dp_table_alloc(struct uturn__dp_table *t,
                                     const struct uturn__dp_chain *c,
                                     uint64_t max_len, uint64_t cap,
                                     const uturn_allocator_t *alloc)
{
    *t            = (struct uturn__dp_table){.n = c->n, .cap = cap};
    t->max_len    = max_len < c->n + 1 ? max_len : c->n + 1;
    t->rows       = uturn__dp_table_rows(c->n, t->max_len);
    t->cell_count = cell_count(c, t->max_len, cap);
    t->base       = uturn__alloc(alloc, (size_t)(c->n + 2) * sizeof *t->base);
    t->offset     = uturn__alloc(alloc, (size_t)t->rows * sizeof *t->offset);
    t->length     = uturn__alloc(alloc, (size_t)t->rows * sizeof *t->length);
    t->cells   = uturn__alloc(alloc, (size_t)t->cell_count * sizeof *t->cells);
    t->summary = uturn__alloc(alloc, (size_t)(t->cell_count / UTURN__DP_STEP) *
                                         sizeof *t->summary);
    if (t->base == NULL || t->offset == NULL || t->length == NULL ||
        t->cells == NULL || t->summary == NULL)
        return UTURN_E_NOMEM;
    /* Rows of one column sit far apart: huge pages spare the TLB a miss
     * per split (5 to 10% of the fill at n = 1000). Only for malloc's
     * blocks (see uturn__advise_huge). */
    if (uturn__alloc_is_default(alloc)) {
        uturn__advise_huge(t->cells,
                           (uint64_t)t->cell_count * sizeof *t->cells);
        uturn__advise_huge(t->summary,
                           (uint64_t)(t->cell_count / UTURN__DP_STEP) *
                               sizeof *t->summary);
    }
    lay_out(t, c);
    return UTURN_OK;
}

struct uturn__dp_ref uturn__dp_table_row(const struct uturn__dp_table *t,
                                         uint64_t a, uint64_t e)
{
    assert(e > a && e - a <= t->max_len && e <= t->n + 1);
    if (e - a == 1)
        return uturn__dp_zero;
    const uint64_t row = t->base[a] + (e - a - 2);
    const uint64_t o   = t->offset[row];
    return (struct uturn__dp_ref){t->cells + o, t->summary + o / UTURN__DP_STEP,
                                  t->length[row]};
}

uint32_t uturn__dp_value(const struct uturn__dp_table *t, uint64_t a,
                         uint64_t e, uint64_t m)
{
    if (e - a == 1)
        return 0;
    const struct uturn__dp_ref r = uturn__dp_table_row(t, a, e);
    return uturn__dp_at(&r, m);
}

uint64_t uturn__dp_split(const struct uturn__dp_table *t,
                         const struct uturn__dp_chain *c, uint64_t a,
                         uint64_t e, uint64_t m)
{
    assert(e - a >= 2);
    uint64_t best_j = e - 1, best = UINT64_MAX;
    for (uint64_t j = a + 1; j < e; j++) {
        const uint64_t left = uturn__dp_value(t, a, j, m);
        uint64_t right      = 0;
        if (j != e - 1)
            right = c->units[j] <= m ? uturn__dp_value(t, j, e, m - c->units[j])
                                     : UTURN__DP_INF;
        const uint64_t v = uturn__dp_cost(c, a, j) + left + right;
        if (v < best && left < UTURN__DP_INF && right < UTURN__DP_INF) {
            best   = v;
            best_j = j;
        }
    }
    return best_j;
}
