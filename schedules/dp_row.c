/*
 * One row of dp's dynamic program: row[m] = min over candidates of
 * cost + left[m] + right[m - shift]. Every table (exact, short, banded,
 * coarse) fills its rows here.
 *
 * Skipping work without changing a cell. Every candidate is non-increasing
 * in m (F is), and so is the row built so far (a minimum of such
 * functions; a candidate skipped on a chunk is skipped only where it could
 * not lower the row, so the row is at every moment the minimum of the
 * candidates tried). Take chunk k (cells 16k .. 16k+15) and
 *   b = cost + left[16k+15] + right[at or past (16k+15) - shift],
 * read from the rows' summaries: the candidate is at least b on the whole
 * chunk, and on every earlier chunk too. If row[16k'] <= b for a chunk
 * k' <= k, then on chunk k' the row is already at most b, so the candidate
 * changes nothing there. Chunks are visited from the last down: one bound
 * clears every earlier chunk whose first cell is at most it, and only the
 * chunks where the candidate may win are relaxed. A relaxed chunk is
 * exactly the plain loop's work, so every cell ends as the plain minimum
 * (ties go to the first candidate reaching the minimum, as in order).
 *
 * The loops over one chunk have a fixed trip count of 16, which the
 * compiler turns into vector code even at -O2.
 */
#include "dp.h"

#define SENTINEL UINT32_MAX /* above every sum of three costs below INF */

static const uint32_t zero_cells[UTURN__DP_CHUNK];

const struct uturn__dp_ref uturn__dp_zero = {zero_cells, zero_cells, 1};

/* Per-candidate constants of the chunk loop. (A row's last cell is read
 * only where the chunk is past its end: it is a cache miss, and most
 * candidates never need it.) */
struct prep {
    uint64_t left_chunks, right_chunks, left_sums, right_sums;
};

static struct prep prepare(const struct uturn__dp_cand *c)
{
    struct prep p;
    p.left_chunks  = uturn__dp_chunks(c->left.length);
    p.right_chunks = uturn__dp_chunks(c->right.length);
    p.left_sums    = p.left_chunks * UTURN__DP_SUMS;
    p.right_sums   = p.right_chunks * UTURN__DP_SUMS;
    return p;
}

static uint32_t last(const struct uturn__dp_ref *r)
{
    return r->cells[r->length - 1];
}

/* The candidate's least value on cells .. hi (hi >= shift; see the top of
 * the file): the summary entry of hi, and of the first 4-cell step ending
 * at or past hi - shift. */
static uint32_t bound(const struct uturn__dp_cand *c, const struct prep *p,
                      uint64_t hi)
{
    const uint64_t l = hi / UTURN__DP_STEP;
    const uint64_t r = (hi - c->shift) / UTURN__DP_STEP;
    return c->cost + c->left.summary[l < p->left_sums ? l : p->left_sums - 1] +
           c->right.summary[r < p->right_sums ? r : p->right_sums - 1];
}

static void min_both(uint32_t *restrict o, const uint32_t *restrict l,
                     const uint32_t *restrict r, uint32_t cost)
{
    for (unsigned i = 0; i < UTURN__DP_CHUNK; i++) {
        const uint32_t v = cost + l[i] + r[i];
        o[i]             = v < o[i] ? v : o[i];
    }
}

static void min_one(uint32_t *restrict o, const uint32_t *restrict x,
                    uint32_t cost)
{
    for (unsigned i = 0; i < UTURN__DP_CHUNK; i++) {
        const uint32_t v = cost + x[i];
        o[i]             = v < o[i] ? v : o[i];
    }
}

static void min_const(uint32_t *restrict o, uint32_t v)
{
    for (unsigned i = 0; i < UTURN__DP_CHUNK; i++)
        o[i] = v < o[i] ? v : o[i];
}

/* The same three with the winner's index recorded (strictly smaller only,
 * so the first candidate reaching the minimum keeps it). */
static void arg_both(uint32_t *restrict o, uint32_t *restrict a,
                     const uint32_t *restrict l, const uint32_t *restrict r,
                     uint32_t cost, uint32_t index)
{
    for (unsigned i = 0; i < UTURN__DP_CHUNK; i++) {
        const uint32_t v = cost + l[i] + r[i];
        a[i]             = v < o[i] ? index : a[i];
        o[i]             = v < o[i] ? v : o[i];
    }
}

static void arg_one(uint32_t *o, uint32_t *a, const uint32_t *x, uint32_t cost,
                    uint32_t index)
{
    for (unsigned i = 0; i < UTURN__DP_CHUNK; i++) {
        const uint32_t v = cost + x[i];
        a[i]             = v < o[i] ? index : a[i];
        o[i]             = v < o[i] ? v : o[i];
    }
}

/* Cell by cell, for the chunks where the shift or a row's end falls
 * inside (at most two per candidate, and the whole of a one-chunk row)
 * when winners are recorded. Cells past the row's end are left alone:
 * finish() pads them. */
static void relax_cells(const struct uturn__dp_fill *f,
                        const struct uturn__dp_cand *c, uint64_t k,
                        uint32_t index)
{
    const uint64_t first = k * UTURN__DP_CHUNK;
    const uint64_t from  = first > c->shift ? first : c->shift;
    const uint64_t end   = first + UTURN__DP_CHUNK;
    const uint64_t to    = end < f->length ? end : f->length;
    for (uint64_t m = from; m < to; m++) {
        const uint32_t v = c->cost + uturn__dp_at(&c->left, m) +
                           uturn__dp_at(&c->right, m - c->shift);
        if (v < f->cells[m]) {
            f->cells[m] = v;
            if (f->arg != NULL)
                f->arg[m] = index;
        }
    }
}

/* A chunk where the shift or the right row's padded end falls inside,
 * without winners to record: the right row's 16 reads gathered first,
 * then the vector loop (cell by cell, this was a sixth of the fill at
 * n = 500). Below the shift the gathered read is INF: those cells get
 * cost + left + INF, at least INF, which lowers no cell below INF, and
 * finish() caps every cell at INF, so every cell ends as before. The
 * candidate so extended is still non-increasing in m (its value below
 * the shift is at least its value at the shift), which is all the bounds
 * need. No sum overflows: each term is at most INF < 2^30. */
static void relax_edge(const struct uturn__dp_fill *f,
                       const struct uturn__dp_cand *c, const struct prep *p,
                       uint64_t k)
{
    const uint64_t first  = k * UTURN__DP_CHUNK;
    const uint64_t padded = p->right_chunks * UTURN__DP_CHUNK;
    /* The last cell only when a read is past the padded end: it is a
     * cache miss, and the shift's chunk (the common case) never needs
     * it (9% of the fill at n = 500 when always read). */
    const bool past     = first + UTURN__DP_CHUNK > c->shift + padded;
    const uint32_t tail = past ? last(&c->right) : 0;
    uint32_t r[UTURN__DP_CHUNK];
    for (unsigned i = 0; i < UTURN__DP_CHUNK; i++) {
        const uint64_t m = first + i;
        r[i]             = m < c->shift            ? UTURN__DP_INF
                           : m - c->shift < padded ? c->right.cells[m - c->shift]
                                                   : tail;
    }
    uint32_t *o = f->cells + first;
    if (k < p->left_chunks)
        min_both(o, c->left.cells + first, r, c->cost);
    else
        min_one(o, r, c->cost + last(&c->left));
}

/* Relax chunk k: the vector loops when every read is inside the padded
 * rows or past their ends (constant), else cell by cell. */
static void relax(const struct uturn__dp_fill *f,
                  const struct uturn__dp_cand *c, const struct prep *p,
                  uint64_t k, uint32_t index)
{
    const uint64_t first = k * UTURN__DP_CHUNK;
    const bool right_in =
        first >= c->shift &&
        first - c->shift + UTURN__DP_CHUNK <= p->right_chunks * UTURN__DP_CHUNK;
    const bool right_past =
        first >= c->shift && first - c->shift >= (uint64_t)c->right.length;
    if (!right_in && !right_past) {
        if (f->arg == NULL)
            relax_edge(f, c, p, k);
        else
            relax_cells(f, c, k, index);
        return;
    }
    const bool left_in = k < p->left_chunks;
    const uint32_t *l  = c->left.cells + first;
    const uint32_t *r  = c->right.cells + (first - c->shift);
    uint32_t *o        = f->cells + first;
    uint32_t *a        = f->arg != NULL ? f->arg + first : NULL;
    if (left_in && right_in) {
        if (a != NULL)
            arg_both(o, a, l, r, c->cost, index);
        else
            min_both(o, l, r, c->cost);
    } else if (left_in || right_in) {
        const uint32_t add = left_in ? last(&c->right) : last(&c->left);
        if (a != NULL)
            arg_one(o, a, left_in ? l : r, c->cost + add, index);
        else
            min_one(o, left_in ? l : r, c->cost + add);
    } else if (a != NULL) {
        relax_cells(f, c, k, index);
    } else {
        min_const(o, c->cost + last(&c->left) + last(&c->right));
    }
}

/* One candidate over the fill's chunks, last chunk first. */
static void try_candidate(const struct uturn__dp_fill *f,
                          const struct uturn__dp_cand *c, uint32_t index,
                          struct uturn__dp_work *work)
{
    const struct prep p = prepare(c);
    const uint64_t q    = c->shift / UTURN__DP_CHUNK;
    const uint64_t k0   = q > f->k_lo ? q : f->k_lo;
    uint64_t tests = 0, chunks = 0;
    for (uint64_t k = f->k_hi; k > k0;) {
        k--;
        const uint32_t b =
            bound(c, &p, k * UTURN__DP_CHUNK + UTURN__DP_CHUNK - 1);
        tests++;
#ifdef UTURN_DP_BENCH_NO_BOUNDS
        f->scratch[k] = UINT32_MAX; /* bench builds: relax every chunk */
        tests--;
#endif
        if (b < f->scratch[k]) {
            relax(f, c, &p, k, index);
            f->scratch[k] = f->cells[k * UTURN__DP_CHUNK];
            chunks++;
            continue;
        }
        /* scratch[k] is the row's first cell of chunk k, and the row is
         * non-increasing (a minimum of non-increasing candidates), so
         * scratch is too: when scratch[k - 4] <= b, so are the three
         * after it. Four at a time first, then one by one: the same k
         * as the plain scan, with fewer branches (6 of 7 alternating
         * runs at n = 500 were faster, 4.2 to 6.0 s against 5.4 to 8.0). */
        while (k >= k0 + 4 && f->scratch[k - 4] <= b)
            k -= 4;
        while (k > k0 && f->scratch[k - 1] <= b)
            k--;
    }
    work->tests += tests;
    work->cells += chunks * UTURN__DP_CHUNK;
}

/* Cap at INF, pad the last chunk with the last cell, write the summary. */
static void finish(const struct uturn__dp_fill *f)
{
    const uint64_t from = (uint64_t)f->k_lo * UTURN__DP_CHUNK;
    const uint64_t to   = (uint64_t)f->k_hi * UTURN__DP_CHUNK;
    const uint64_t end  = to < f->length ? to : f->length;
    for (uint64_t m = from; m < end; m++)
        f->cells[m] = f->cells[m] < UTURN__DP_INF ? f->cells[m] : UTURN__DP_INF;
    for (uint64_t m = end > from ? end : from; m < to; m++)
        f->cells[m] = f->cells[f->length - 1];
    const uint64_t s_to = (uint64_t)f->k_hi * UTURN__DP_SUMS;
    for (uint64_t s = (uint64_t)f->k_lo * UTURN__DP_SUMS; s < s_to; s++) {
        const uint64_t at = s * UTURN__DP_STEP + UTURN__DP_STEP - 1;
        f->summary[s]     = f->cells[at < f->length ? at : f->length - 1];
    }
}

void uturn__dp_row_begin(const struct uturn__dp_fill *f)
{
    const uint64_t from = (uint64_t)f->k_lo * UTURN__DP_CHUNK;
    const uint64_t to   = (uint64_t)f->k_hi * UTURN__DP_CHUNK;
    for (uint64_t m = from; m < to; m++)
        f->cells[m] = SENTINEL;
    for (uint64_t k = f->k_lo; k < f->k_hi; k++)
        f->scratch[k] = SENTINEL;
}

void uturn__dp_row_try(const struct uturn__dp_fill *f,
                       const struct uturn__dp_cand *cand, size_t count,
                       struct uturn__dp_work *work)
{
    /* Counted here and added once: the workers' counters sit side by
     * side, and a write per candidate would bounce their cache line. */
    struct uturn__dp_work here = {0};
    for (size_t i = 0; i < count; i++)
        try_candidate(f, &cand[i], (uint32_t)i, &here);
    work->cells += here.cells;
    work->tests += here.tests;
}

void uturn__dp_row_end(const struct uturn__dp_fill *f,
                       struct uturn__dp_work *work)
{
    finish(f);
    work->rows += 1;
}

void uturn__dp_row_fill(const struct uturn__dp_fill *f,
                        const struct uturn__dp_cand *cand, size_t count,
                        struct uturn__dp_work *work)
{
    uturn__dp_row_begin(f);
    uturn__dp_row_try(f, cand, count, work);
    uturn__dp_row_end(f, work);
}
