/*
 * dp's table against the straightforward solver it replaced, kept here as
 * the reference (every row M + 1 cells, every split tried on every cell,
 * rows by length): on random chains every cell must be equal. That covers
 * each speed-up at once (row clipping, the budget cut to store-all's need,
 * the e-tiles, the bounds that skip splits, the short-row path) and the
 * thread pool, whose tables must be equal bit for bit for any count.
 * White-box: reads the plan's table through schedules/dp.h.
 */
#include "counting_alloc.h"
#include "dp.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#define REF_INF 0x3fffffffu

/* Debug + ASan/UBSan runs about 20 times slower: fewer chains there. */
#ifdef UTURN_TEST_SANITIZED
#define CHAINS 60
#else
#define CHAINS 300
#endif

/* ---- the reference: today's solver before this change ------------------- */

struct ref {
    uint64_t n, M;
    const uint32_t *units;
    const uint64_t *prefix;
    uint64_t *offset; /* offset[l]: first row of segments of l states */
    uint32_t *zero, *table;
};

static uint32_t *ref_row(const struct ref *r, uint64_t a, uint64_t e)
{
    return r->table + (r->offset[e - a] + a) * (r->M + 1);
}

static void ref_segment(struct ref *r, uint64_t a, uint64_t e)
{
    uint32_t *row = ref_row(r, a, e);
    for (uint64_t m = 0; m <= r->M; m++)
        row[m] = 3 * REF_INF;
    for (uint64_t j = a + 1; j < e; j++) {
        const uint32_t c     = (uint32_t)(r->prefix[j] - r->prefix[a]);
        const uint32_t *left = j - a == 1 ? r->zero : ref_row(r, a, j);
        if (j == e - 1) {
            for (uint64_t m = 0; m <= r->M; m++)
                row[m] = c + left[m] < row[m] ? c + left[m] : row[m];
        } else if (r->units[j] <= r->M) {
            const uint32_t *right = ref_row(r, j, e);
            for (uint64_t m = r->units[j]; m <= r->M; m++) {
                const uint32_t v = c + left[m] + right[m - r->units[j]];
                row[m]           = v < row[m] ? v : row[m];
            }
        }
    }
    for (uint64_t m = 0; m <= r->M; m++)
        row[m] = row[m] < REF_INF ? row[m] : REF_INF;
}

static void ref_solve(struct ref *r)
{
    const uint64_t n = r->n;
    r->offset        = calloc(n + 3, sizeof *r->offset);
    for (uint64_t l = 3; l <= n + 2; l++)
        r->offset[l] = r->offset[l - 1] + (n + 1) - (l - 1) + 1;
    r->zero  = calloc(r->M + 1, sizeof *r->zero);
    r->table = malloc(r->offset[n + 2] * (r->M + 1) * sizeof *r->table);
    cr_assert(r->offset && r->zero && r->table);
    for (uint64_t l = 2; l <= n + 1; l++)
        for (uint64_t a = 0; a + l <= n + 1; a++)
            ref_segment(r, a, a + l);
}

static void ref_free(struct ref *r)
{
    free(r->offset);
    free(r->zero);
    free(r->table);
}

/* ---- random chains --------------------------------------------------------
 */

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t pick(uint64_t *state, uint64_t lo, uint64_t hi)
{
    return lo + next_random(state) % (hi - lo + 1);
}

struct chain {
    uint64_t n, budget, unit, threads;
    uint64_t bytes[200], costs[200];
};

/* Sizes 1..8 (times a common factor sometimes), costs 1..10, a budget
 * between x_0 and just below store-all's need. */
static void random_chain(uint64_t *rng, uint64_t n_max, struct chain *c)
{
    c->n                  = pick(rng, 2, n_max);
    const uint64_t factor = pick(rng, 0, 3) == 0 ? pick(rng, 2, 6) : 1;
    uint64_t all          = 0;
    for (uint64_t i = 0; i < c->n; i++) {
        c->bytes[i] = pick(rng, 1, 8) * factor;
        c->costs[i] = pick(rng, 1, 10);
        all += c->bytes[i];
    }
    c->budget  = pick(rng, c->bytes[0], all - 1);
    c->unit    = 0;
    c->threads = 1;
}

/* Blocks handed out poisoned: a table whose block was freed by an earlier
 * plan would otherwise start with that plan's cells, and a cell the fill
 * skipped could pass a comparison. */
static void *poisoned(void *user, size_t size)
{
    (void)user;
    void *p = malloc(size);
    if (p != NULL)
        memset(p, 0xa5, size);
    return p;
}

static void release(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

static const uturn_allocator_t poison = {poisoned, release, NULL};

static uturn_plan_t *make(const struct chain *c, uturn_dp_mode_t mode)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_DP;
    p.steps            = c->n;
    p.budget_bytes     = c->budget;
    p.slot_bytes       = 8;
    p.step_bytes       = c->bytes;
    p.step_costs       = c->costs;
    p.unit_bytes       = c->unit;
    p.threads          = c->threads;
    p.dp_mode          = mode;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, &poison, &plan, &err), UTURN_OK, "%s",
                 err.message);
    return plan;
}

/* Every cell of the plan's table equals the reference's. */
static void compare(const struct chain *c, uint64_t *cells)
{
    uturn_plan_t *plan         = make(c, UTURN_DP_EXACT);
    const struct uturn__dp *dp = plan->data;
    if (dp->top.kind != UTURN__DP_TABLE) { /* store-all: no table */
        uturn_plan_free(plan);
        return;
    }
    struct ref r = {.n      = c->n,
                    .M      = dp->top.m,
                    .units  = dp->chain.units,
                    .prefix = dp->chain.prefix};
    ref_solve(&r);
    for (uint64_t a = 0; a <= c->n; a++)
        for (uint64_t e = a + 2; e <= c->n + 1; e++)
            for (uint64_t m = 0; m <= r.M; m++) {
                const uint32_t got  = uturn__dp_value(&dp->table, a, e, m);
                const uint32_t want = ref_row(&r, a, e)[m];
                cr_assert_eq(got, want,
                             "n=%llu budget=%llu: F(%llu, %llu, %llu) = %u, "
                             "reference %u",
                             (unsigned long long)c->n,
                             (unsigned long long)c->budget,
                             (unsigned long long)a, (unsigned long long)e,
                             (unsigned long long)m, got, want);
                *cells += 1;
            }
    cr_assert_eq(dp->table.cap, r.M);
    ref_free(&r);
    uturn_plan_free(plan);
}

Test(dp_table, every_cell_equals_the_reference)
{
    uint64_t rng = 11, cells = 0;
    for (int k = 0; k < CHAINS; k++) {
        struct chain c;
        random_chain(&rng, k < CHAINS * 5 / 6 ? 40 : 120, &c);
        compare(&c, &cells);
    }
    cr_assert_gt(cells, CHAINS * 3000, "only %llu cells compared",
                 (unsigned long long)cells);
}

/* Long rows (hundreds of units): the chunked path with bounds does the
 * work here, not the short-row path. */
Test(dp_table, long_rows_equal_the_reference)
{
    uint64_t rng = 12, cells = 0;
    for (int k = 0; k < CHAINS / 50; k++) {
        struct chain c;
        random_chain(&rng, 150, &c);
        c.n = 150;
        for (uint64_t i = 0; i < c.n; i++) {
            c.bytes[i] = pick(&rng, 1, 8);
            c.costs[i] = pick(&rng, 1, 10);
        }
        c.budget = 60 * (uint64_t)(k + 2) + c.bytes[0];
        compare(&c, &cells);
    }
}

/* A unit that does not divide the sizes: the reference runs on the same
 * rounded-up units. */
Test(dp_table, coarse_unit_equals_the_reference)
{
    uint64_t rng = 13, cells = 0;
    for (int k = 0; k < 100; k++) {
        struct chain c;
        random_chain(&rng, 40, &c);
        c.unit = pick(&rng, 2, 5);
        if (c.budget / c.unit < (c.bytes[0] + c.unit - 1) / c.unit)
            continue; /* x_0 rounded up does not fit */
        compare(&c, &cells);
    }
}

/* The table is the same bit for bit for every thread count. */
Test(dp_table, threads_give_the_same_table)
{
    uint64_t rng = 14;
    for (int k = 0; k < CHAINS / 8; k++) {
        struct chain c;
        random_chain(&rng, k < CHAINS / 10 ? 60 : 150, &c);
        uturn_plan_t *one          = make(&c, UTURN_DP_EXACT);
        const struct uturn__dp *d1 = one->data;
        for (uint64_t t = 2; t <= 4; t++) {
            c.threads                  = t;
            uturn_plan_t *many         = make(&c, UTURN_DP_EXACT);
            const struct uturn__dp *dt = many->data;
            cr_assert_eq(dt->table.cell_count, d1->table.cell_count);
            cr_assert(memcmp(dt->table.cells, d1->table.cells,
                             (size_t)d1->table.cell_count * 4) == 0,
                      "n=%llu threads=%llu: tables differ",
                      (unsigned long long)c.n, (unsigned long long)t);
            uturn_plan_free(many);
        }
        uturn_plan_free(one);
    }
}

/* The work of the half-budget case the issue measures, counted exactly:
 * n = 150, sizes 1..8, costs 1..10, budget half of store-all, unit 1 byte.
 * The bound is the 0.4 of n^3 M / 6 (the old solver did 1.0). */
Test(dp_table, half_budget_work_is_bounded)
{
    uint64_t rng   = 150;
    struct chain c = {.n = 150, .threads = 1, .unit = 1};
    uint64_t all   = 0;
    for (uint64_t i = 0; i < c.n; i++) {
        c.bytes[i] = 1 + next_random(&rng) % 8;
        c.costs[i] = 1 + next_random(&rng) % 10;
        all += c.bytes[i];
    }
    c.budget                   = all / 2;
    uturn_plan_t *plan         = make(&c, UTURN_DP_EXACT);
    const struct uturn__dp *dp = plan->data;
    const double full = (double)c.n * c.n * c.n * (double)dp->top.m / 6;
    const double work = (double)(dp->work.cells + dp->work.tests);
    cr_assert_lt(work, 0.4 * full, "work %.3g = %.3f of n^3 M / 6", work,
                 work / full);
    uturn_plan_free(plan);
}

/* The tile's width and the block's height only order the cells: every
 * shape gives the automatic shape's table bit for bit, and that table is
 * checked against the reference on the first chains. (Tests' tables are
 * small, so the automatic shape is the widest tile with rows one by one;
 * width 1 is the a-descending order alone, one column at a time, n + 1 one
 * tile; heights above 1 are the blocks of large tables.) */
Test(dp_table, tile_shapes_give_the_same_table)
{
    uint64_t rng = 15, compared = 0, cells = 0;
    for (int k = 0; k < 12; k++) {
        struct chain c;
        random_chain(&rng, 150, &c);
        uturn_plan_t *plan         = make(&c, UTURN_DP_EXACT);
        const struct uturn__dp *dp = plan->data;
        if (dp->top.kind != UTURN__DP_TABLE) {
            uturn_plan_free(plan);
            continue;
        }
        if (compared < 15)
            compare(&c, &cells);
        const uint64_t shapes[][2] = {
            {1, 1},  {2, 1}, {3, 1}, {5, 1},  {2, 2},       {3, 5},
            {8, 16}, {5, 3}, {1, 4}, {32, 8}, {c.n + 1, 1}, {c.n + 1, 7}};
        for (size_t w = 0; w < sizeof shapes / sizeof shapes[0]; w++) {
            struct uturn__dp_table t;
            struct uturn__dp_work work = {0};
            cr_assert_eq(uturn__dp_table_alloc(&t, &dp->chain, c.n + 1,
                                               dp->table.cap, &plan->alloc),
                         UTURN_OK);
            t.width  = shapes[w][0];
            t.height = shapes[w][1];
            cr_assert_eq(uturn__dp_table_solve(&t, &dp->chain, 1 + (w % 2),
                                               &plan->alloc, &work),
                         UTURN_OK);
            cr_assert_eq(t.cell_count, dp->table.cell_count);
            cr_assert(
                memcmp(t.cells, dp->table.cells, (size_t)t.cell_count * 4) == 0,
                "n=%llu width=%llu height=%llu: tables differ",
                (unsigned long long)c.n, (unsigned long long)t.width,
                (unsigned long long)t.height);
            uturn__dp_table_free(&t, &plan->alloc);
            compared += 1;
        }
        uturn_plan_free(plan);
    }
    cr_assert_gt(compared, 80, "only %llu tables compared",
                 (unsigned long long)compared);
    cr_assert_gt(cells, 10000, "only %llu cells checked against the reference",
                 (unsigned long long)cells);
}
