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
    /* The ring's 2 W + 2 rows and their summaries, and one worker's rows
     * of winners and scratch (each further thread adds one more). */
    const uint64_t n = c->n;
    const uint64_t ring =
        (2 * W + 3) *
        (uturn__dp_chunks(M + 1) * (UTURN__DP_CHUNK + UTURN__DP_SUMS) * 4 + 16);
    uint64_t bytes = 0;
    if (M >= UTURN__DP_INF ||
        uturn__mul_u64(n + 2, 8 + 4 + 1, &bytes) != UTURN_OK || bytes > limit ||
        ring > limit - bytes)
        return UINT64_MAX;
    bytes += ring;
    for (uint64_t j = 0; j + W < n + 1 && bytes <= limit; j++)
        bytes += uturn__dp_band_length(c, j, M);
    return bytes <= limit ? bytes : UINT64_MAX;
}

/* The ring of band value rows shared by the workers: RING rows, row j in
 * slot j % RING. */
#define RING(W) (2 * (W) + 2)

struct ring {
    uint32_t *cells, *summary;
    uint32_t length[RING(UTURN__DP_BAND_MAX)];
    uint64_t stride, rows; /* cells per ring row, ring rows */
};

/* One worker's scratch. */
struct lane {
    uint32_t *arg, *scratch;
    struct uturn__dp_cand *cand;
    uint64_t *next; /* candidate index -> k */
    struct uturn__dp_work work;
};

struct job {
    struct uturn__dp_band *b;
    struct ring ring;
    struct lane *lanes;
};

/* Band row j's values: from the ring, or the short row once n+1-j <= W. */
static struct uturn__dp_ref band_row(const struct uturn__dp_band *b,
                                     const struct ring *r, uint64_t j)
{
    if (j + b->W >= b->chain->n + 1)
        return uturn__dp_table_row(b->rows, j, b->chain->n + 1);
    const uint64_t slot = j % r->rows;
    return (struct uturn__dp_ref){
        r->cells + slot * r->stride,
        r->summary + slot * (r->stride / UTURN__DP_STEP), r->length[slot]};
}

/* Candidates of band row j (n + 1 - j > W), k ascending. */
static size_t band_candidates(const struct uturn__dp_band *b,
                              const struct ring *r, struct lane *l, uint64_t j,
                              uint64_t length)
{
    const struct uturn__dp_chain *c = b->chain;
    size_t count                    = 0;
    for (uint64_t k = j + 1; k <= j + b->W; k++) {
        const bool inline_right = k == c->n;
        const uint64_t u        = inline_right ? 0 : c->units[k];
        if (u >= length)
            continue;
        l->next[count]   = k;
        l->cand[count++] = (struct uturn__dp_cand){
            .left  = uturn__dp_table_row(b->rows, j, k),
            .right = inline_right ? uturn__dp_zero : band_row(b, r, k),
            .shift = (uint32_t)u,
            .cost  = (uint32_t)uturn__dp_cost(c, j, k)};
    }
    return count;
}

/* The winners of chunks [k_lo, k_hi) of row j, and the kept copy. */
static void band_keep(struct uturn__dp_band *b, const struct lane *l,
                      const struct uturn__dp_fill *f, uint64_t j)
{
    uint8_t *out       = b->next + b->next_offset[j];
    const uint64_t to  = (uint64_t)f->k_hi * UTURN__DP_CHUNK;
    const uint64_t end = to < f->length ? to : f->length;
    for (uint64_t m = (uint64_t)f->k_lo * UTURN__DP_CHUNK; m < end; m++)
        out[m] =
            f->cells[m] < UTURN__DP_INF ? (uint8_t)(l->next[l->arg[m]] - j) : 0;
    if (b->keep_index == NULL || b->keep_index[j] == UINT64_MAX)
        return;
    const uint64_t i = b->keep_index[j], k = f->k_lo;
    const size_t chunks = f->k_hi - f->k_lo;
    memcpy(b->keep + i * b->keep_stride + k * UTURN__DP_CHUNK,
           f->cells + k * UTURN__DP_CHUNK,
           chunks * UTURN__DP_CHUNK * sizeof *f->cells);
    memcpy(b->keep_summary + i * (b->keep_stride / UTURN__DP_STEP) +
               k * UTURN__DP_SUMS,
           f->summary + k * UTURN__DP_SUMS,
           chunks * UTURN__DP_SUMS * sizeof *f->summary);
}

/* Chunks [k_lo, k_hi) of band row j (clipped to the row). */
static void band_fill(struct job *job, struct lane *l, uint64_t j,
                      uint64_t k_lo, uint64_t k_hi, bool writes_length)
{
    struct uturn__dp_band *b = job->b;
    struct ring *r           = &job->ring;
    const uint64_t len       = uturn__dp_band_length(b->chain, j, b->M);
    const uint64_t slot      = j % r->rows;
    const uint64_t hi =
        k_hi < uturn__dp_chunks(len) ? k_hi : uturn__dp_chunks(len);
    if (writes_length)
        r->length[slot] = (uint32_t)len;
    if (k_lo >= hi)
        return;
    const size_t count            = band_candidates(b, r, l, j, len);
    const struct uturn__dp_fill f = {
        .cells   = r->cells + slot * r->stride,
        .summary = r->summary + slot * (r->stride / UTURN__DP_STEP),
        .arg     = l->arg,
        .length  = (uint32_t)len,
        .k_lo    = (uint32_t)k_lo,
        .k_hi    = (uint32_t)hi,
        .scratch = l->scratch};
    uturn__dp_row_fill(&f, l->cand, count, &l->work);
    band_keep(b, l, &f, j);
}

/* Worker w fills chunks [w C / T, (w + 1) C / T) of every row, j
 * descending. Cell m of row j reads rows j + 1 .. j + W at cells <= m, in
 * any lower worker's chunks, so every worker below w must be past row
 * j + 1 (which also keeps each worker behind every lower one). Row j's
 * ring slot held row j + RING, read last while row j + RING - W is being
 * filled, by any worker: once the last worker is past row j + RING - W - 1,
 * every other worker is past row j + RING - W (the last one waited for
 * them), so the slot is free. With RING >= W + 3 nobody waits in a
 * circle. */
static void band_task(struct uturn__dp_pool *pool, void *ctx, uint64_t w)
{
    struct job *job          = ctx;
    struct uturn__dp_band *b = job->b;
    const uint64_t T         = uturn__dp_pool_workers(pool);
    const uint64_t C = uturn__dp_chunks(b->M + 1), n = b->chain->n;
    const uint64_t gap = job->ring.rows - b->W;
    for (uint64_t j = n + 1; j-- > 0;) {
        if (j + b->W >= n + 1)
            continue;
        for (uint64_t below = 0; below < w; below++)
            uturn__dp_progress_wait(pool, below, j + 1);
        if (w + 1 < T && j + gap - 1 <= n)
            uturn__dp_progress_wait(pool, T - 1, j + gap - 1);
        band_fill(job, &job->lanes[w], j, w * C / T, (w + 1) * C / T, w == 0);
        uturn__dp_progress_publish(pool, w, j);
    }
}

static uturn_status_t ring_alloc(struct ring *r, const struct uturn__dp_band *b,
                                 const uturn_allocator_t *alloc, bool free)
{
    r->rows            = RING(b->W);
    r->stride          = uturn__dp_chunks(b->M + 1) * UTURN__DP_CHUNK;
    const size_t cells = (size_t)(r->rows * r->stride) * sizeof *r->cells;
    if (free) {
        uturn__free(alloc, r->cells, cells);
        uturn__free(alloc, r->summary, cells / UTURN__DP_STEP);
        return UTURN_OK;
    }
    r->cells   = uturn__alloc(alloc, cells);
    r->summary = uturn__alloc(alloc, cells / UTURN__DP_STEP);
    return r->cells != NULL && r->summary != NULL ? UTURN_OK : UTURN_E_NOMEM;
}

static uturn_status_t lane_alloc(struct lane *l, const struct uturn__dp_band *b,
                                 uint64_t stride,
                                 const uturn_allocator_t *alloc, bool free)
{
    const size_t one   = (size_t)stride * sizeof *l->arg;
    const size_t cands = (size_t)b->W * sizeof *l->cand;
    const size_t nexts = (size_t)b->W * sizeof *l->next;
    if (free) {
        uturn__free(alloc, l->arg, one);
        uturn__free(alloc, l->scratch, one / UTURN__DP_CHUNK);
        uturn__free(alloc, l->cand, cands);
        uturn__free(alloc, l->next, nexts);
        return UTURN_OK;
    }
    l->arg     = uturn__alloc(alloc, one);
    l->scratch = uturn__alloc(alloc, one / UTURN__DP_CHUNK);
    l->cand    = uturn__alloc(alloc, cands);
    l->next    = uturn__alloc(alloc, nexts);
    return l->arg && l->scratch && l->cand && l->next ? UTURN_OK
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

/* Run the workers; lanes and ring are the caller's. */
static uturn_status_t band_run(struct job *job, uint64_t workers,
                               const uturn_allocator_t *alloc)
{
    uturn_status_t status = UTURN_OK;
    for (uint64_t w = 0; w < workers && status == UTURN_OK; w++)
        status =
            lane_alloc(&job->lanes[w], job->b, job->ring.stride, alloc, false);
    if (status == UTURN_OK)
        status = uturn__dp_pool_run(workers, workers, band_task, job, alloc);
    if (status == UTURN_OK) {
        const struct uturn__dp_ref top = band_row(job->b, &job->ring, 0);
        job->b->band_value             = uturn__dp_at(&top, job->b->M);
    }
    for (uint64_t w = 0; w < workers; w++)
        lane_alloc(&job->lanes[w], job->b, job->ring.stride, alloc, true);
    return status;
}

uturn_status_t uturn__dp_band_solve(struct uturn__dp_band *b, uint64_t threads,
                                    const uturn_allocator_t *alloc,
                                    struct uturn__dp_work *work)
{
    if (b->W < 2 || b->W > UTURN__DP_BAND_MAX)
        return UTURN_E_UNSUPPORTED; /* never: dp_approx.c picks 2..16 */
    const uint64_t chunks  = uturn__dp_chunks(b->M + 1);
    const uint64_t workers = threads < 1        ? 1
                             : threads < chunks ? threads
                                                : chunks;
    struct job job         = {.b = b};
    job.lanes = uturn__alloc_zeroed(alloc, workers, sizeof *job.lanes);
    uturn_status_t status =
        job.lanes != NULL ? band_layout(b, alloc) : UTURN_E_NOMEM;
    if (status == UTURN_OK)
        status = ring_alloc(&job.ring, b, alloc, false);
    if (status == UTURN_OK)
        status = band_run(&job, workers, alloc);
    for (uint64_t w = 0; job.lanes != NULL && w < workers; w++) {
        work->cells += job.lanes[w].work.cells;
        work->tests += job.lanes[w].work.tests;
        work->rows += job.lanes[w].work.rows;
    }
    ring_alloc(&job.ring, b, alloc, true);
    uturn__free(alloc, job.lanes, (size_t)workers * sizeof *job.lanes);
    return status;
}

uint64_t uturn__dp_band_next(const struct uturn__dp_band *b, uint64_t j,
                             uint64_t m)
{
    assert(j + b->W < b->chain->n + 1);
    const uint64_t len = uturn__dp_band_length(b->chain, j, b->M);
    return j + b->next[b->next_offset[j] + (m < len ? m : len - 1)];
}
