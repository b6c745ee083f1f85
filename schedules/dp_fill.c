/*
 * The fill of dp's exact table (dp_table.c lays it out).
 *
 * Fill order. Cell (a, e) reads the rows (a, j), j < e (same a, shorter)
 * and (j, e), j > a (same e, later a). Tiles of a few consecutive e, each
 * swept with a descending, meet both: a tile's own columns are read by
 * every a below, and the left rows (a, j) of one a are shared by the
 * tile's cells. A tile needs, at row a, the rows (a, j) of the tiles
 * before it: that is the only hand-off between threads (each tile is one
 * thread's, and waits for the tile before it to pass a).
 *
 * Blocks. While TILE_MAX columns fit in TILE_BYTES (up to n of about 750
 * with sizes 1..8 at half of store-all), a tile's columns stay in the
 * last-level cache between two rows, and the rows go one by one. Past
 * that, every row re-read its columns from memory (at n = 1000, columns
 * of 2.7 MB on average). Then tiles are BLOCK_COLS wide and go in blocks
 * of BLOCK_ROWS rows, and a split j above the block (a1 <= j < e0, whose
 * rows (a, j) and (j, e) are all done) is tried on all the block's cells
 * in a row: each of its left rows is read by the tile's columns, each of
 * its right rows by the block's rows, while they are in cache. The near
 * splits (j inside the block, or in the tile's columns) follow, once
 * their rows are done. At n = 1000 on one thread, blocks of 4 to 32 rows
 * by 8 to 64 columns took 50 to 67 s, where rows one by one took 77 to
 * 106 s in the same hour; 8 rows by 32 or 64 columns were the fastest
 * (bench/RESULTS.md has each run).
 *
 * Every order gives the same table bit for bit. A row is the minimum over
 * its candidates, and uturn__dp_row_fill gives that minimum whatever the
 * order in which they come, and in however many batches
 * (uturn__dp_row_begin, _try, _end), as long as the row's cells and
 * scratch stay between them: each block cell has its own scratch. Only
 * the work changes: far splits first skip less well than the ascending
 * order (9% more cells relaxed at n = 1000 with blocks of 8 rows, 16%
 * with 16), which the cache more than repays.
 */
#include "dp.h"

#define TILE_MAX   8u
#define TILE_BYTES ((uint64_t)12 << 20)
#define BLOCK_ROWS 8u  /* rows per block, and */
#define BLOCK_COLS 32u /* columns per tile, when a tile does not fit */
#define SMALL_ROW                                                              \
    64u /* cells up to which every split is tried on every cell                \
         */

struct solve {
    struct uturn__dp_table *t;
    const struct uturn__dp_chain *c;
    struct uturn__dp_work *work; /* one per worker */
    struct uturn__dp_cand **cand;
    uint32_t **scratch;            /* chunk scratch: one row's per block cell */
    uint64_t width, height, tiles; /* columns per tile, rows per block */
};

/* Split j of cell (a, e) as a candidate; false when x_j cannot be stored
 * within the row's `length` cells. */
static bool candidate(const struct solve *s, uint64_t a, uint64_t j, uint64_t e,
                      uint64_t length, struct uturn__dp_cand *out)
{
    const bool inline_right = j == e - 1;
    const uint64_t u        = inline_right ? 0 : s->c->units[j];
    if (u >= length)
        return false;
    *out = (struct uturn__dp_cand){
        .left = uturn__dp_table_row(s->t, a, j),
        .right =
            inline_right ? uturn__dp_zero : uturn__dp_table_row(s->t, j, e),
        .shift = (uint32_t)u,
        .cost  = (uint32_t)uturn__dp_cost(s->c, a, j)};
    return true;
}

/* The candidates of cell (a, e) with j in [j0, j1), in ascending order
 * (small j first: storing the next state is usually near the best, which
 * lets the bounds skip more of the rest). */
static size_t candidates(const struct solve *s, uint64_t a, uint64_t j0,
                         uint64_t j1, uint64_t e, uint64_t length,
                         struct uturn__dp_cand *out)
{
    size_t count = 0;
    for (uint64_t j = j0; j < j1; j++)
        count += candidate(s, a, j, e, length, &out[count]);
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

/* Row (a, e) to fill, with slot `slot` of the worker's chunk scratch (one
 * slot per cell of a block; rows one by one use slot 0). */
static struct uturn__dp_fill cell_fill(const struct solve *s, uint64_t worker,
                                       uint64_t a, uint64_t e, uint64_t slot)
{
    const uint64_t row = s->t->base[a] + (e - a - 2);
    const uint64_t o   = s->t->offset[row];
    const uint32_t len = s->t->length[row];
    return (struct uturn__dp_fill){
        .cells   = s->t->cells + o,
        .summary = s->t->summary + o / UTURN__DP_STEP,
        .length  = len,
        .k_lo    = 0,
        .k_hi    = (uint32_t)uturn__dp_chunks(len),
        .scratch = s->scratch[worker] + slot * uturn__dp_chunks(s->t->cap + 1)};
}

static void solve_cell(const struct solve *s, uint64_t worker, uint64_t a,
                       uint64_t e)
{
    const struct uturn__dp_fill f = cell_fill(s, worker, a, e, 0);
    if (f.length <= SMALL_ROW) {
        solve_small(s, a, e, f.cells, f.summary, f.length, &s->work[worker]);
        return;
    }
    const size_t count =
        candidates(s, a, a + 1, e, e, f.length, s->cand[worker]);
    uturn__dp_row_fill(&f, s->cand[worker], count, &s->work[worker]);
}

/* Columns per tile and rows per block (see the top of the file). */
static void tile_shape(const struct uturn__dp_table *t, uint64_t *width,
                       uint64_t *height)
{
#ifdef UTURN_DP_BENCH_TILE /* bench builds: one width, or one tile */
    *width  = t->width != 0 ? t->width : UTURN_DP_BENCH_TILE;
    *height = t->height != 0 ? t->height : 1;
    return;
#endif
    const uint64_t column = t->cell_count * sizeof *t->cells / (t->n + 1);
    const bool fits       = column * TILE_MAX <= TILE_BYTES;
    *width  = t->width != 0 ? t->width : fits ? TILE_MAX : BLOCK_COLS;
    *height = t->height != 0 ? t->height : fits ? 1 : BLOCK_ROWS;
}

/* Rows a in [a0, a1) of the tile's columns [e0, e1), a1 <= e0 - 1. */
struct block {
    uint64_t a0, a1, e0, e1;
};

/* Whether cell (a, e) of a block is in the table with a row too long for
 * solve_small (those are solved whole, after the far splits). */
static bool blocked(const struct solve *s, uint64_t a, uint64_t e)
{
    return e - a <= s->t->max_len &&
           s->t->length[s->t->base[a] + (e - a - 2)] > SMALL_ROW;
}

/* Row (a, e) of block b, with its own scratch. */
static struct uturn__dp_fill block_fill(const struct solve *s, uint64_t worker,
                                        const struct block *b, uint64_t a,
                                        uint64_t e)
{
    const uint64_t slot = (a - b->a0) * (b->e1 - b->e0) + (e - b->e0);
    return cell_fill(s, worker, a, e, slot);
}

/* The far splits, j in [a1, e0): every row of them is done, so each j is
 * tried on the whole block at once, and its left rows (a, j) and right
 * rows (j, e) are read from cache by the block's other cells. */
static void block_far(const struct solve *s, uint64_t worker,
                      const struct block *b)
{
    for (uint64_t a = b->a0; a < b->a1; a++)
        for (uint64_t e = b->e0; e < b->e1; e++)
            if (blocked(s, a, e)) {
                const struct uturn__dp_fill f = block_fill(s, worker, b, a, e);
                uturn__dp_row_begin(&f);
            }
    struct uturn__dp_cand c;
    struct uturn__dp_work here = {0}; /* see uturn__dp_row_try */
    for (uint64_t j = b->a1; j < b->e0; j++)
        for (uint64_t a = b->a0; a < b->a1; a++)
            for (uint64_t e = b->e0; e < b->e1; e++) {
                if (!blocked(s, a, e))
                    continue;
                const struct uturn__dp_fill f = block_fill(s, worker, b, a, e);
                if (candidate(s, a, j, e, f.length, &c))
                    uturn__dp_row_try(&f, &c, 1, &here);
            }
    s->work[worker].cells += here.cells;
    s->work[worker].tests += here.tests;
}

/* The near splits, a < j < a1 (rows of the block) and e0 <= j < e (the
 * tile's columns), a descending and e ascending, which is when those rows
 * are done; then the row is finished. */
static void block_near(const struct solve *s, uint64_t worker,
                       const struct block *b)
{
    struct uturn__dp_cand *cand = s->cand[worker];
    for (uint64_t a = b->a1; a-- > b->a0;)
        for (uint64_t e = b->e0; e < b->e1; e++) {
            if (e - a > s->t->max_len)
                continue;
            if (!blocked(s, a, e)) {
                solve_cell(s, worker, a, e);
                continue;
            }
            const struct uturn__dp_fill f = block_fill(s, worker, b, a, e);
            size_t count = candidates(s, a, a + 1, b->a1, e, f.length, cand);
            count += candidates(s, a, b->e0, e, e, f.length, cand + count);
            uturn__dp_row_try(&f, cand, count, &s->work[worker]);
            uturn__dp_row_end(&f, &s->work[worker]);
        }
}

/* One tile: columns e in [2 + W t, 2 + W (t + 1)), a descending: the rows
 * whose splits all fall in the tile one by one, then the others in blocks
 * (one by one too when blocks are of one row). */
static void solve_tile(const struct solve *s, struct uturn__dp_pool *pool,
                       uint64_t worker, uint64_t tile)
{
    const uint64_t n    = s->t->n;
    const uint64_t e0   = 2 + s->width * tile;
    const uint64_t e1   = e0 + s->width < n + 2 ? e0 + s->width : n + 2;
    const uint64_t lo   = e0 > s->t->max_len ? e0 - s->t->max_len : 0;
    const uint64_t stop = s->height > 1 ? e0 - 1 : lo; /* lo <= e0 - 2 */
    uturn__dp_progress_publish(pool, tile, e1 - 2);
    uint64_t a = e1 - 2;
    while (a > stop) {
        a--;
        if (tile > 0)
            uturn__dp_progress_wait(pool, tile - 1, a);
        for (uint64_t e = e0 > a + 2 ? e0 : a + 2; e < e1; e++)
            if (e - a <= s->t->max_len)
                solve_cell(s, worker, a, e);
        uturn__dp_progress_publish(pool, tile, a);
    }
    while (a > lo) {
        const struct block b = {a - lo > s->height ? a - s->height : lo, a, e0,
                                e1};
        if (tile > 0)
            uturn__dp_progress_wait(pool, tile - 1, b.a0);
        block_far(s, worker, &b);
        block_near(s, worker, &b);
        a = b.a0;
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
    const uint64_t slots    = s->height > 1 ? s->height * s->width : 1;
    const size_t scratch_bytes =
        (size_t)(slots * uturn__dp_chunks(s->t->cap + 1)) * sizeof **s->scratch;
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
    struct solve s = {.t = t, .c = c};
    tile_shape(t, &s.width, &s.height);
    s.tiles = (t->n + s.width - 1) / s.width;
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
