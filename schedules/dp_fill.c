/*
 * The fill of dp's exact table (dp_table.c lays it out).
 *
 * Fill order. Cell (a, e) reads the rows (a, j), j < e (same a, shorter)
 * and (j, e), j > a (same e, later a). Tiles of a few consecutive e, each
 * swept with a descending, meet both: a tile's own columns are read by
 * every a below and stay in cache, and the left rows (a, j) of one a are
 * shared by the tile's cells. Wider tiles share the left rows more, but
 * their columns must fit in the last-level cache: the width is as many
 * average columns as TILE_BYTES holds, from 2 to 8 (at n = 1000 with
 * sizes 1..8, 8 columns are about 22 MB and took 1.4x as long as 4).
 * The width only orders the cells: each cell tries the same splits in the
 * same order, so the table is the same bit for bit. A tile needs, at row
 * a, the rows (a, j) of the tiles before it: that is the only hand-off
 * between threads (each tile is one thread's, and waits for the tile
 * before it to pass a).
 */
#include "dp.h"

#define TILE_MIN   2u
#define TILE_MAX   8u
#define TILE_BYTES ((uint64_t)12 << 20)
#define SMALL_ROW                                                              \
    64u /* cells up to which every split is tried on every cell                \
         */

struct solve {
    struct uturn__dp_table *t;
    const struct uturn__dp_chain *c;
    struct uturn__dp_work *work; /* one per worker */
    struct uturn__dp_cand **cand;
    uint32_t **scratch;
    uint64_t width, tiles; /* columns per tile, tiles */
};

/* The candidates of cell (a, e): every split j, in ascending order (small
 * j first: storing the next state is usually near the best, which lets
 * the bounds skip more of the rest). */
static size_t candidates(const struct solve *s, uint64_t a, uint64_t e,
                         uint64_t length, struct uturn__dp_cand *out)
{
    size_t count = 0;
    for (uint64_t j = a + 1; j < e; j++) {
        const bool inline_right = j == e - 1;
        const uint64_t u        = inline_right ? 0 : s->c->units[j];
        if (u >= length)
            continue; /* x_j cannot be stored within this row */
        out[count++] = (struct uturn__dp_cand){
            .left = uturn__dp_table_row(s->t, a, j),
            .right =
                inline_right ? uturn__dp_zero : uturn__dp_table_row(s->t, j, e),
            .shift = (uint32_t)u,
            .cost  = (uint32_t)uturn__dp_cost(s->c, a, j)};
    }
    return count;
}

/* Row (a, e) as a reference (the zero row for e - a == 1). */
static inline struct uturn__dp_ref ref_of(const struct uturn__dp_table *t,
                                          uint64_t a, uint64_t e)
{
    if (e - a == 1)
        return uturn__dp_zero;
    const uint64_t row = t->base[a] + (e - a - 2);
    return (struct uturn__dp_ref){t->cells + t->offset[row], NULL,
                                  t->length[row]};
}

/* row[m] = min(row[m], c + left[m] + right[m - u]) for u <= m < len:
 * straight while both reads are inside the padded rows, clamped after. */
static inline void relax_short(uint32_t *row, uint32_t len,
                               struct uturn__dp_ref l, struct uturn__dp_ref r,
                               uint64_t u, uint32_t c)
{
    /* Every row is at least one padded chunk: below 16, no clamp. */
    const uint64_t lp = uturn__dp_chunks(l.length) * UTURN__DP_CHUNK;
    const uint64_t rp = uturn__dp_chunks(r.length) * UTURN__DP_CHUNK + u;
    uint64_t straight = len < lp ? len : lp;
    straight          = straight < rp ? straight : rp;
    uint64_t m        = u;
    for (; m < straight; m++) {
        const uint32_t v = c + l.cells[m] + r.cells[m - u];
        row[m]           = v < row[m] ? v : row[m];
    }
    for (; m < len; m++) {
        const uint32_t v = c + uturn__dp_at(&l, m) + uturn__dp_at(&r, m - u);
        row[m]           = v < row[m] ? v : row[m];
    }
}

/* Cells of row (a, e) (the zero row's for e - a == 1). */
static inline const uint32_t *cells_of(const struct uturn__dp_table *t,
                                       uint64_t a, uint64_t e)
{
    if (e - a == 1)
        return uturn__dp_zero.cells;
    return t->cells + t->offset[t->base[a] + (e - a - 2)];
}

/* A row of one chunk: every row holds at least one padded chunk, so no
 * read below 16 needs a clamp. */
static void relax_chunk_row(const struct solve *s, uint64_t a, uint64_t e,
                            uint32_t *cells, uint32_t len)
{
    for (uint64_t j = a + 1; j < e; j++) {
        const uint64_t u = j == e - 1 ? 0 : s->c->units[j];
        if (u >= len)
            continue;
        const uint32_t c     = (uint32_t)uturn__dp_cost(s->c, a, j);
        const uint32_t *left = cells_of(s->t, a, j);
        const uint32_t *right =
            j == e - 1 ? uturn__dp_zero.cells : cells_of(s->t, j, e);
        for (uint64_t m = u; m < len; m++) {
            const uint32_t v = c + left[m] + right[m - u];
            cells[m]         = v < cells[m] ? v : cells[m];
        }
    }
}

/* A short row (a few chunks): every split on every cell, as the plain
 * dynamic program does; with so few chunks to skip, the bounds would cost
 * more than they save. Same minimum as the general path. */
static void solve_small(const struct solve *s, uint64_t a, uint64_t e,
                        uint32_t *cells, uint32_t *summary, uint32_t len,
                        struct uturn__dp_work *work)
{
    const uint64_t padded = uturn__dp_chunks(len) * UTURN__DP_CHUNK;
    for (uint64_t m = 0; m < padded; m++)
        cells[m] = UINT32_MAX;
    if (len <= UTURN__DP_CHUNK) {
        relax_chunk_row(s, a, e, cells, len);
    } else {
        for (uint64_t j = a + 1; j < e; j++) {
            const uint64_t u = j == e - 1 ? 0 : s->c->units[j];
            if (u < len)
                relax_short(cells, len, ref_of(s->t, a, j),
                            j == e - 1 ? uturn__dp_zero : ref_of(s->t, j, e), u,
                            (uint32_t)uturn__dp_cost(s->c, a, j));
        }
    }
    work->cells += (e - a - 1) * len;
    for (uint64_t m = 0; m < padded; m++) {
        const uint32_t v = m < len ? cells[m] : cells[len - 1];
        cells[m]         = v < UTURN__DP_INF ? v : UTURN__DP_INF;
    }
    for (uint64_t k = 0; k < padded / UTURN__DP_STEP; k++)
        summary[k] = cells[k * UTURN__DP_STEP + UTURN__DP_STEP - 1];
    work->rows += 1;
}

static void solve_cell(const struct solve *s, uint64_t worker, uint64_t a,
                       uint64_t e)
{
    const uint64_t row = s->t->base[a] + (e - a - 2);
    const uint64_t o   = s->t->offset[row];
    const uint32_t len = s->t->length[row];
    if (len <= SMALL_ROW) {
        solve_small(s, a, e, s->t->cells + o,
                    s->t->summary + o / UTURN__DP_STEP, len, &s->work[worker]);
        return;
    }
    const size_t count            = candidates(s, a, e, len, s->cand[worker]);
    const struct uturn__dp_fill f = {.cells = s->t->cells + o,
                                     .summary =
                                         s->t->summary + o / UTURN__DP_STEP,
                                     .length  = len,
                                     .k_lo    = 0,
                                     .k_hi    = (uint32_t)uturn__dp_chunks(len),
                                     .scratch = s->scratch[worker]};
    uturn__dp_row_fill(&f, s->cand[worker], count, &s->work[worker]);
}

/* Columns per tile (see the top of the file). */
static uint64_t tile_width(const struct uturn__dp_table *t)
{
#ifdef UTURN_DP_BENCH_TILE /* bench builds: one width, or one tile */
    return t->width != 0 ? t->width : UTURN_DP_BENCH_TILE;
#endif
    if (t->width != 0)
        return t->width;
    const uint64_t column = t->cell_count * sizeof *t->cells / (t->n + 1);
    const uint64_t fit    = column > 0 ? TILE_BYTES / column : TILE_MAX;
    return fit < TILE_MIN ? TILE_MIN : fit > TILE_MAX ? TILE_MAX : fit;
}

/* One tile: columns e in [2 + W t, 2 + W (t + 1)), a descending. */
static void solve_tile(const struct solve *s, struct uturn__dp_pool *pool,
                       uint64_t worker, uint64_t tile)
{
    const uint64_t n  = s->t->n;
    const uint64_t e0 = 2 + s->width * tile;
    const uint64_t e1 = e0 + s->width < n + 2 ? e0 + s->width : n + 2;
    const uint64_t lo = e0 > s->t->max_len ? e0 - s->t->max_len : 0;
    uturn__dp_progress_publish(pool, tile, e1 - 2);
    for (uint64_t a = e1 - 2; a-- > lo;) {
        if (tile > 0)
            uturn__dp_progress_wait(pool, tile - 1, a);
        for (uint64_t e = e0 > a + 2 ? e0 : a + 2; e < e1; e++)
            if (e - a <= s->t->max_len)
                solve_cell(s, worker, a, e);
        uturn__dp_progress_publish(pool, tile, a);
    }
    uturn__dp_progress_publish(pool, tile, 0);
}

static void solve_task(struct uturn__dp_pool *pool, void *ctx, uint64_t worker)
{
    const struct solve *s = ctx;
#ifdef UTURN_DP_BENCH_LENGTHS
    (void)pool;
    if (worker == 0)
        for (uint64_t l = 2; l <= s->t->max_len; l++)
            for (uint64_t a = 0; a + l <= s->t->n + 1; a++)
                solve_cell(s, 0, a, a + l);
    return;
#endif
    uint64_t tile = 0;
    while (uturn__dp_pool_take(pool, s->tiles, &tile))
        solve_tile(s, pool, worker, tile);
}

/* Per-worker candidate lists and chunk scratch. */
static uturn_status_t scratch_alloc(struct solve *s, uint64_t workers,
                                    const uturn_allocator_t *alloc, bool free)
{
    const size_t cand_bytes = (size_t)(s->t->n + 1) * sizeof **s->cand;
    const size_t scratch_bytes =
        (size_t)(uturn__dp_chunks(s->t->cap + 1)) * sizeof **s->scratch;
    uturn_status_t status = UTURN_OK;
    for (uint64_t w = 0; w < workers; w++) {
        if (free) {
            uturn__free(alloc, s->cand[w], cand_bytes);
            uturn__free(alloc, s->scratch[w], scratch_bytes);
            continue;
        }
        s->cand[w]    = uturn__alloc(alloc, cand_bytes);
        s->scratch[w] = uturn__alloc(alloc, scratch_bytes);
        if (s->cand[w] == NULL || s->scratch[w] == NULL)
            status = UTURN_E_NOMEM;
    }
    return status;
}

uturn_status_t uturn__dp_table_solve(struct uturn__dp_table *t,
                                     const struct uturn__dp_chain *c,
                                     uint64_t threads,
                                     const uturn_allocator_t *alloc,
                                     struct uturn__dp_work *work)
{
    struct solve s = {.t = t, .c = c, .width = tile_width(t)};
    s.tiles        = (t->n + s.width - 1) / s.width;
    const uint64_t workers =
        threads < s.tiles ? (threads > 0 ? threads : 1) : s.tiles;
    s.work = uturn__alloc_zeroed(alloc, workers, sizeof *s.work);
    s.cand =
        uturn__alloc_zeroed(alloc, workers, sizeof(struct uturn__dp_cand *));
    s.scratch = uturn__alloc_zeroed(alloc, workers, sizeof(uint32_t *));
    uturn_status_t status = UTURN_E_NOMEM;
    if (s.work != NULL && s.cand != NULL && s.scratch != NULL &&
        scratch_alloc(&s, workers, alloc, false) == UTURN_OK)
        status = uturn__dp_pool_run(workers, s.tiles, solve_task, &s, alloc);
    for (uint64_t w = 0; s.work != NULL && w < workers; w++) {
        work->cells += s.work[w].cells;
        work->tests += s.work[w].tests;
        work->rows += s.work[w].rows;
    }
    if (s.cand != NULL && s.scratch != NULL)
        scratch_alloc(&s, workers, alloc, true);
    uturn__free(alloc, s.work, (size_t)workers * sizeof *s.work);
    uturn__free(alloc, s.cand,
                (size_t)workers * sizeof(struct uturn__dp_cand *));
    uturn__free(alloc, s.scratch, (size_t)workers * sizeof(uint32_t *));
    return status;
}
