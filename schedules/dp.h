/*
 * dp: optimal nested checkpointing for chains whose states differ in size
 * and whose steps differ in cost (after Beaumont et al. 2019, "Optimal
 * checkpointing for heterogeneous chains"). Shared by the dp_*.c files:
 *   dp.c         the planner's interface and the action generator
 *   dp_admit.c   checks, unit, the chain in units (no per-step loop before
 *                the O(1) limits hold)
 *   dp_build.c   what to build: store-all, the exact table, or the
 *                approximate planner (dp_approx.c)
 *   dp_count.c   the plan's counts, by walking the generator
 *   dp_row.c     one row of the dynamic program (bounds, vector loops)
 *   dp_table.c   the exact table: layout, size, splits
 *   dp_fill.c    the exact table's fill: its order (tiles), its cells
 *   dp_pool.c    the threads that fill a table, and their hand-offs
 *   dp_band.c    the approximate planner's banded suffix
 *   dp_coarse.c  the approximate planner's coarse grid
 *   dp_bound.c   certified lower bounds for plans that are not exact
 *
 * F(a, e, m): the least cost to reverse x_a .. x_{e-1} (x_n by the turn)
 * when x_a sits in a slot and m more memory units are free:
 *   F(a, a+1, m) = 0
 *   F(a, e, m)   = min over a < j < e of  cost(F_a .. F_{j-1})
 *                  + F(a, j, m)                       (the left part)
 *                  + 0                 if j = e-1     (x_j reversed at once)
 *                  + F(j, e, m - u_j)  otherwise      (x_j stored)
 * The plan stores x_0 (u_0 units) and reverses F(0, n+1, M - u_0).
 *
 * Facts the speed-ups rest on (each proved where it is used):
 *  - F is non-increasing in m (more memory never hurts);
 *  - U(a, e) = u_{a+1} + .. + u_{e-2} units store every interior state,
 *    and then F(a, e, m) = LB(a, e) = cost(F_a .. F_{e-2}), one sweep; no
 *    plan does better, so F(a, e, m) = LB(a, e) for every m >= U(a, e).
 */
#ifndef UTURN_DP_H_INCLUDED
#define UTURN_DP_H_INCLUDED

#include "planner.h"

#define UTURN__DP_INF   0x3fffffffu /* above every finite cost */
#define UTURN__DP_CHUNK 16u         /* cells per chunk: one cache line */
#define UTURN__DP_STEP  16u         /* cells per summary entry */
#define UTURN__DP_SUMS  (UTURN__DP_CHUNK / UTURN__DP_STEP) /* per chunk */

/* Work done, counted exactly (the same for every thread count): bench
 * builds and tests read it, the plan never depends on it. */
struct uturn__dp_work {
    uint64_t cells;       /* min-plus updates of one cell */
    uint64_t tests;       /* chunk bounds evaluated (one min-plus each) */
    uint64_t rows;        /* rows filled */
    uint64_t table_bytes; /* bytes of every table and row index held */
    uint64_t step_loops;  /* per-step loop iterations before the tables */
};

/* The chain in memory units. */
struct uturn__dp_chain {
    uint64_t n;        /* steps; states are x_0 .. x_n */
    uint64_t unit;     /* bytes per unit */
    uint32_t *units;   /* units of x_i, i < n (saturated at UINT32_MAX) */
    uint64_t *prefix;  /* prefix[i] = cost of F_0 .. F_{i-1}, i <= n */
    uint64_t *uprefix; /* uprefix[i] = u_0 + .. + u_{i-1}, i <= n */
};

/* Cost of F_a .. F_{b-1}. */
static inline uint64_t uturn__dp_cost(const struct uturn__dp_chain *c,
                                      uint64_t a, uint64_t b)
{
    return c->prefix[b] - c->prefix[a];
}

/* U(a, e): units of x_{a+1} .. x_{e-2} (0 when e - a <= 2). */
static inline uint64_t uturn__dp_interior(const struct uturn__dp_chain *c,
                                          uint64_t a, uint64_t e)
{
    return e - a <= 2 ? 0 : c->uprefix[e - 1] - c->uprefix[a + 1];
}

/* ---- rows (dp_row.c) ---------------------------------------------------- */

/* A row is `length` cells padded with its last value to whole chunks, and
 * a summary, one entry per chunk: summary[k] = row[min(16k + 15,
 * length - 1)]. A read past the end gives the last cell (the row is
 * constant there). (Entries every 4 cells halved the cells relaxed but
 * cost as many cache misses as they saved: a chunk is one cache line.) */
struct uturn__dp_ref {
    const uint32_t *cells;
    const uint32_t *summary;
    uint32_t length;
};

/* One candidate of a cell m: cost + left[m] + right[m - shift], m >=
 * shift. Every candidate is non-increasing in m. */
struct uturn__dp_cand {
    struct uturn__dp_ref left, right;
    uint32_t shift;
    uint32_t cost;
};

/* The zero row (of length 1), for a left part of one state or an inline
 * right part. */
extern const struct uturn__dp_ref uturn__dp_zero;

/* Chunks [k_lo, k_hi) of a row: row[m] = min over the candidates, in their
 * order, with the same result as trying every candidate on every cell.
 * arg, when not NULL, receives for each cell the index of the first
 * candidate reaching the minimum. */
struct uturn__dp_fill {
    uint32_t *cells;   /* the row, padded to whole chunks */
    uint32_t *summary; /* its summary */
    uint32_t *arg;     /* or NULL */
    uint32_t length;
    uint32_t k_lo, k_hi;
    uint32_t *scratch; /* one uint32_t per chunk of the row */
};
void uturn__dp_row_fill(const struct uturn__dp_fill *f,
                        const struct uturn__dp_cand *cand, size_t count,
                        struct uturn__dp_work *work);
/* The same in three parts, for a row whose candidates come in several
 * batches (dp_fill.c's blocks): begin, try each batch, end. The row's
 * cells and scratch must not change between the parts; the result is the
 * minimum over every candidate tried, in whatever batches. (arg, when
 * not NULL, numbers the candidates from 0 in each batch.) */
void uturn__dp_row_begin(const struct uturn__dp_fill *f);
void uturn__dp_row_try(const struct uturn__dp_fill *f,
                       const struct uturn__dp_cand *cand, size_t count,
                       struct uturn__dp_work *work);
void uturn__dp_row_end(const struct uturn__dp_fill *f,
                       struct uturn__dp_work *work);

/* Chunks of a row of `length` cells. */
static inline uint64_t uturn__dp_chunks(uint64_t length)
{
    return (length + UTURN__DP_CHUNK - 1) / UTURN__DP_CHUNK;
}

/* Read a row (clamped at its end). */
static inline uint32_t uturn__dp_at(const struct uturn__dp_ref *r, uint64_t m)
{
    return r->cells[m < r->length ? m : r->length - 1];
}

/* ---- the exact table (dp_table.c; the fill: dp_fill.c) ---------------- */

/* Rows F(a, e, .) for every segment with 2 <= e - a <= max_len, 0 <= a,
 * e <= n + 1, each of min(cap, U(a, e)) + 1 cells. max_len n + 1: the
 * exact table; smaller: the short rows of the approximate planner. */
struct uturn__dp_table {
    uint64_t n, max_len, cap;
    uint64_t *base;    /* base[a]: index of row (a, a + 2) */
    uint64_t *offset;  /* offset[row]: first cell (a multiple of 16) */
    uint32_t *length;  /* length[row]: cells */
    uint32_t *cells;   /* every row, padded */
    uint32_t *summary; /* summary of the row at offset o: summary + o/16 */
    uint64_t rows, cell_count;
    uint64_t width;  /* columns per tile of the fill, and */
    uint64_t height; /* rows per block (1: one by one); 0 (the defaults):
                        from the table's size (dp_fill.c). They order the
                        fill, never change a cell. */
};

/* The least bytes one row takes: its offset and length, one chunk and its
 * summary. */
#define UTURN__DP_ROW_BYTES (8u + 4u + 4u * (UTURN__DP_CHUNK + UTURN__DP_SUMS))

/* Rows of the table with these dimensions, or 0 when that overflows. */
uint64_t uturn__dp_table_rows(uint64_t n, uint64_t max_len);
/* Bytes of the table for the chain (cells, summaries and index), or
 * UINT64_MAX when past `limit`; O(rows) after an O(1) check. */
uint64_t uturn__dp_table_bytes(const struct uturn__dp_chain *c,
                               uint64_t max_len, uint64_t cap, uint64_t limit);
/* Allocate the table (the caller frees it with uturn__dp_table_free). */
uturn_status_t uturn__dp_table_alloc(struct uturn__dp_table *t,
                                     const struct uturn__dp_chain *c,
                                     uint64_t max_len, uint64_t cap,
                                     const uturn_allocator_t *alloc);
void uturn__dp_table_free(struct uturn__dp_table *t,
                          const uturn_allocator_t *alloc);
/* Fill every row with `threads` threads (dp_fill.c). */
uturn_status_t uturn__dp_table_solve(struct uturn__dp_table *t,
                                     const struct uturn__dp_chain *c,
                                     uint64_t threads,
                                     const uturn_allocator_t *alloc,
                                     struct uturn__dp_work *work);
/* The row of (a, e), e - a >= 2 (the zero row for e - a == 1). */
struct uturn__dp_ref uturn__dp_table_row(const struct uturn__dp_table *t,
                                         uint64_t a, uint64_t e);
/* F(a, e, m) (0 for e - a == 1). */
uint32_t uturn__dp_value(const struct uturn__dp_table *t, uint64_t a,
                         uint64_t e, uint64_t m);
/* The best split j of [a, e) with m units free (the smallest if tied). */
uint64_t uturn__dp_split(const struct uturn__dp_table *t,
                         const struct uturn__dp_chain *c, uint64_t a,
                         uint64_t e, uint64_t m);

/* ---- the plan (dp.c, dp_admit.c, dp_count.c) --------------------------- */

/* How a segment of the plan's split tree is reversed. */
enum uturn__dp_kind {
    UTURN__DP_TABLE,     /* by the exact table (or the short rows) */
    UTURN__DP_STORE_ALL, /* storing every state: split a + 1 */
    UTURN__DP_SWEEP,     /* storing nothing: split e - 1 */
    UTURN__DP_BAND,      /* by the banded suffix (dp_band.c) */
    UTURN__DP_COARSE     /* by the coarse grid (dp_coarse.c) */
};

struct uturn__dp_node {
    uint64_t a, e, m, slot; /* segment [a, e), m units free, base slot */
    uint64_t kind;
};

struct uturn__dp_band;

struct uturn__dp {
    struct uturn__dp_chain chain;
    struct uturn__dp_table table; /* exact, or the band's short rows */
    struct uturn__dp_band *band;  /* approximate plans only */
    struct uturn__dp_node top;    /* the plan: reverse [0, n+1) so */
    struct uturn__dp_work work;
    bool exact;
    uint64_t lower_bound;
};

/* Decide what dp builds for plan, build it and set dp->top (dp_admit.c). */
uturn_status_t uturn__dp_build(uturn_plan_t *plan, struct uturn__dp *dp,
                               uturn_error_t *error);
/* Free everything dp holds but dp itself. */
void uturn__dp_release(struct uturn__dp *dp, const uturn_allocator_t *alloc);
/* The split of node n and its two children (dp.c). The right child is
 * meaningless when the split is n->e - 1 (reversed at once). */
uint64_t uturn__dp_decide(const struct uturn__dp *dp,
                          const struct uturn__dp_node *n,
                          struct uturn__dp_node *left,
                          struct uturn__dp_node *right);
/* The plan's counts, by walking the generator (dp_count.c). */
uturn_status_t uturn__dp_count(uturn_plan_t *plan, uturn_error_t *error);
uturn_status_t uturn__dp_state_size(const uturn_plan_t *plan, size_t *bytes);
void uturn__dp_start(const uturn_plan_t *plan, void *state);
size_t uturn__dp_fill(void *state, uturn_action_t *out, size_t capacity);
/* Certified lower bound on the least cost of any nested plan within
 * budget bytes (dp_bound.c), into *bound; UTURN_E_NOMEM when its table
 * cannot be allocated (a bound of 0 would change the plan's choices). */
uturn_status_t uturn__dp_lower_bound(const uturn_plan_t *plan, uint64_t budget,
                                     uint64_t *bound);

/* ---- threads (dp_pool.c) ------------------------------------------------ */

struct uturn__dp_pool;
typedef void uturn__dp_task(struct uturn__dp_pool *pool, void *ctx,
                            uint64_t worker);
/* Run task(pool, ctx, w) on `threads` workers, w = 0 on the calling
 * thread, and join them (fewer when threads cannot be created: the tasks
 * share out the items, so the work gets done). Every progress slot starts
 * at UINT64_MAX ("nothing done"). */
uturn_status_t uturn__dp_pool_run(uint64_t threads, uint64_t slots,
                                  uturn__dp_task *task, void *ctx,
                                  const uturn_allocator_t *alloc);
/* Block until progress[slot] <= value. */
void uturn__dp_progress_wait(struct uturn__dp_pool *p, uint64_t slot,
                             uint64_t value);
/* Lower progress[slot] to value and wake the waiters. */
void uturn__dp_progress_publish(struct uturn__dp_pool *p, uint64_t slot,
                                uint64_t value);
/* Workers running the task (at most the threads asked for). */
uint64_t uturn__dp_pool_workers(const struct uturn__dp_pool *p);
/* Take the next of `count` items, in order; false when none is left. */
bool uturn__dp_pool_take(struct uturn__dp_pool *p, uint64_t count,
                         uint64_t *item);

#endif
