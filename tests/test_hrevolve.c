/*
 * hrevolve (storage levels, uniform states) against truth written out
 * here, independently of schedules/hrevolve*.c:
 *  - the reference costs of docs/model.md section 4 (284, 2755, 938, 320),
 *    with every plan walked through the validator, level by level;
 *  - one level is revolve: t(n+1, s) of docs/model.md section 4 for every
 *    n <= 300 and s <= 20;
 *  - an exhaustive search over every valid plan (Dijkstra over the live
 *    position, the next state to reverse and what every slot holds) on
 *    small chains of one, two and three levels with costs that do not
 *    decrease with the level: hrevolve's cost is that optimum;
 *  - predicted counts, total and per level, equal a walk of the plan on
 *    random cases;
 *  - refusals: past the limits (before anything of size n is allocated:
 *    the same few allocations whatever n), decreasing costs, no slot,
 *    per-step costs;
 *  - the fingerprint follows every level's slots and costs.
 */
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

__extension__ typedef unsigned __int128 u128;

#define ULL(x)     ((unsigned long long)(x))
#define MAX_LEVELS 4

/* One level: slots, write cost, read cost. */
struct lv {
    uint64_t slots, w, r;
};

static void expect_no_leak(const counting_alloc_t *c)
{
    cr_assert_eq(c->live_blocks, 0, "%llu blocks leaked", ULL(c->live_blocks));
    cr_assert_eq(c->size_mismatches, 0);
}

/* An hrevolve problem over `count` levels; levels[] must outlive it. */
static void problem_of(uturn_problem_t *p, uturn_level_t *levels, uint64_t n,
                       const struct lv *lv, size_t count)
{
    for (size_t k = 0; k < count; k++) {
        uturn_level_init(&levels[k]);
        levels[k].slots      = lv[k].slots;
        levels[k].write_cost = lv[k].w;
        levels[k].read_cost  = lv[k].r;
    }
    uturn_problem_init(p);
    p->planner     = UTURN_PLANNER_HREVOLVE;
    p->steps       = n;
    p->slot_bytes  = 24;
    p->levels      = levels;
    p->level_count = count;
}

static uturn_plan_t *plan_of(const uturn_problem_t *p,
                             const uturn_allocator_t *alloc)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_plan_create(p, alloc, &plan, &err);
    cr_assert_eq(st, UTURN_OK, "n=%llu: %s: %s", ULL(p->steps),
                 uturn_status_name(st), err.message);
    return plan;
}

static uturn_stats_t stats_of(const uturn_plan_t *plan)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    cr_assert_eq(uturn_plan_stats(plan, &s), UTURN_OK);
    return s;
}

/* ---- walks: the whole plan through the validator ---------------------- */

/* uturn_plan_walk's counts must equal the plan's predictions. */
static void expect_walk_equal(const uturn_plan_t *plan)
{
    const uturn_stats_t pred = stats_of(plan);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_eq(seen.cost, pred.cost, "walk %llu, predicted %llu",
                 ULL(seen.cost), ULL(pred.cost));
    cr_assert_eq(seen.forward_steps, pred.forward_steps);
    cr_assert_eq(seen.reverse_steps, pred.reverse_steps);
    cr_assert_eq(seen.stores, pred.stores);
    cr_assert_eq(seen.restores, pred.restores);
    cr_assert_eq(seen.frees, pred.frees);
    cr_assert_eq(seen.peak_slots, pred.peak_slots);
    cr_assert_eq(seen.peak_bytes, pred.peak_bytes);
    cr_assert_eq(seen.actions, pred.actions);
}

static void expect_level_equal(const uturn_plan_t *plan,
                               const uturn_validator_t *v, uint64_t k)
{
    uturn_level_stats_t pred, seen;
    uturn_level_stats_init(&pred);
    uturn_level_stats_init(&seen);
    cr_assert_eq(uturn_plan_level_stats(plan, k, &pred), UTURN_OK);
    cr_assert_eq(uturn_validator_level_stats(v, k, &seen), UTURN_OK);
    cr_assert_eq(seen.stores, pred.stores, "level %llu stores %llu vs %llu",
                 ULL(k), ULL(seen.stores), ULL(pred.stores));
    cr_assert_eq(seen.restores, pred.restores, "level %llu restores", ULL(k));
    cr_assert_eq(seen.peak_slots, pred.peak_slots,
                 "level %llu peak %llu vs "
                 "%llu",
                 ULL(k), ULL(seen.peak_slots), ULL(pred.peak_slots));
    cr_assert_eq(seen.peak_bytes, pred.peak_bytes, "level %llu peak bytes",
                 ULL(k));
    cr_assert_leq(pred.peak_slots, pred.slots);
}

/* Every action through a validator made from the problem alone (not from
 * the plan), then each level's counts against the plan's. */
static void expect_levels_walk_equal(const uturn_plan_t *plan,
                                     const uturn_problem_t *p)
{
    uturn_validator_t *v = NULL;
    uturn_cursor_t *c    = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_validator_create(p, NULL, &v, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t a;
    while (uturn_cursor_next(c, &a))
        cr_assert_eq(uturn_validator_push(v, &a, &err), UTURN_OK, "%s",
                     err.message);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    cr_assert_eq(uturn_validator_finish(v, &seen, &err), UTURN_OK, "%s",
                 err.message);
    const uturn_stats_t pred = stats_of(plan);
    cr_assert_eq(seen.cost, pred.cost);
    cr_assert_eq(pred.levels, p->level_count);
    for (uint64_t k = 0; k < p->level_count; k++)
        expect_level_equal(plan, v, k);
    uturn_cursor_free(c);
    uturn_validator_free(v);
}

/* Plan, check both walks, return the predicted cost. */
static uint64_t planned_cost(uint64_t n, const struct lv *lv, size_t count)
{
    uturn_level_t levels[MAX_LEVELS];
    uturn_problem_t p;
    problem_of(&p, levels, n, lv, count);
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_plan_t *plan            = plan_of(&p, &alloc);
    expect_walk_equal(plan);
    expect_levels_walk_equal(plan, &p);
    const uint64_t cost = stats_of(plan).cost;
    uturn_plan_free(plan);
    expect_no_leak(&counts);
    return cost;
}

/* ---- the reference costs of docs/model.md section 4 ------------------- */

Test(hrevolve, reference_costs)
{
    static const struct lv a[] = {{5, 0, 0}, {100, 5, 5}};
    static const struct lv b[] = {{10, 0, 0}, {170, 5, 5}};
    static const struct lv c[] = {{4, 0, 0}, {8, 2, 2}, {16, 10, 10}};
    static const struct lv d[] = {{5, 0, 0}};
    cr_assert_eq(planned_cost(100, a, 2), 284);
    cr_assert_eq(planned_cost(1000, b, 2), 2755);
    cr_assert_eq(planned_cost(300, c, 3), 938);
    cr_assert_eq(planned_cost(100, d, 1), 320);
}

/* The optimum stores x_0 on disk in the first reference: the plan's first
 * action is a store into a disk slot (slot 5, after memory's 0 .. 4). */
Test(hrevolve, the_first_reference_stores_x0_on_disk)
{
    static const struct lv a[] = {{5, 0, 0}, {100, 5, 5}};
    uturn_level_t levels[2];
    uturn_problem_t p;
    problem_of(&p, levels, 100, a, 2);
    uturn_plan_t *plan = plan_of(&p, NULL);
    uturn_cursor_t *c  = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t first;
    cr_assert(uturn_cursor_next(c, &first));
    cr_assert_eq(first.op, UTURN_OP_STORE);
    cr_assert_eq(first.step, 0);
    cr_assert_eq(first.slot, 5);
    uturn_level_stats_t disk;
    uturn_level_stats_init(&disk);
    uturn_plan_level_stats(plan, 1, &disk);
    cr_assert_eq(disk.stores, 2);
    cr_assert_eq(disk.peak_bytes, 2 * 24);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}

/* ---- one level is revolve ---------------------------------------------- */

/* beta(s, r) = C(s + r, s), or cap when it is at least cap. */
static u128 beta_capped(uint64_t s, uint64_t r, u128 cap)
{
    const uint64_t k    = s < r ? s : r;
    const uint64_t base = s < r ? r : s;
    u128 value          = 1;
    for (uint64_t i = 1; i <= k && value < cap; i++)
        value = value * (u128)(base + i) / i;
    return value < cap ? value : cap;
}

/* t(n+1, s) = r(n+1) - beta(s+1, r-1), r least with beta(s, r) >= n+1. */
static uint64_t revolve_t(uint64_t n, uint64_t s)
{
    const uint64_t l = n + 1;
    uint64_t r       = 1;
    while (beta_capped(s, r, l) < l)
        r++;
    return (uint64_t)((u128)r * l - beta_capped(s + 1, r - 1, ~(u128)0 >> 1));
}

/* A plan without levels: one memory level of `slots` slots, costs 0. */
static uturn_plan_t *one_level_plan(uturn_planner_t planner, uint64_t n,
                                    uint64_t slots)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = planner;
    p.steps   = n;
    p.slots   = slots;
    return plan_of(&p, NULL);
}

Test(hrevolve, one_level_is_revolve_for_n_to_300_and_s_to_20)
{
    for (uint64_t s = 1; s <= 20; s++) {
        for (uint64_t n = 1; n <= 300; n++) {
            uturn_plan_t *h = one_level_plan(UTURN_PLANNER_HREVOLVE, n, s);
            uturn_plan_t *r = one_level_plan(UTURN_PLANNER_REVOLVE, n, s);
            const uturn_stats_t a = stats_of(h), b = stats_of(r);
            const uint64_t want = revolve_t(n, s);
            cr_assert_eq(a.forward_steps, want,
                         "n=%llu s=%llu: %llu, want "
                         "%llu",
                         ULL(n), ULL(s), ULL(a.forward_steps), ULL(want));
            cr_assert_eq(b.forward_steps, want);
            cr_assert_eq(a.cost, want);
            cr_assert_eq(a.slots, s);
            cr_assert_eq(a.levels, 1);
            cr_assert_leq(a.peak_slots, s);
            if (n <= 40 || n % 25 == 0)
                expect_walk_equal(h);
            uturn_plan_free(h);
            uturn_plan_free(r);
        }
    }
}

/* Given as one level with a name and no cost, the same. */
Test(hrevolve, one_given_level_is_revolve)
{
    static const struct lv m[] = {{7, 0, 0}};
    for (uint64_t n = 1; n <= 200; n += 7)
        cr_assert_eq(planned_cost(n, m, 1), revolve_t(n, 7));
}

/* ---- an exhaustive search over every valid plan ----------------------- */

/*
 * A search state packs the live position (n+1: undefined), the next state
 * to reverse (n: the turn; EXH_DONE: every state reversed) and, per level,
 * the set of positions 0 .. n-1 its slots hold (x_n is reversed the moment
 * it is reached, so no plan needs it in a slot). The moves, with their
 * costs, are what docs/model.md section 2 allows:
 *  - advance one step (1): a longer advance costs its steps, so unit
 *    steps lose nothing;
 *  - turn or reverse when the live position is the next one (0); the live
 *    state is then undefined, and held positions at or above the one just
 *    reversed are dropped, since advances only go forward and no later
 *    reverse can use them (dropping only frees room);
 *  - store the live position into a level with room (w_k), unless that
 *    level holds it already; restore a held position (r_k); free one (0).
 * Dijkstra then gives the least cost over every plan, nested or not, with
 * copies of a state in several levels allowed.
 */
#define EXH_BITS_MAX 22
#define EXH_DONE     15u

struct exh {
    uint64_t n;
    size_t count;
    struct lv lv[MAX_LEVELS];
    uint16_t *dist;
    uint32_t *stamp, gen;
    uint64_t *heap;
    size_t heap_len, heap_cap;
};

static void exh_init(struct exh *e)
{
    memset(e, 0, sizeof *e);
    e->dist     = malloc(sizeof *e->dist << EXH_BITS_MAX);
    e->stamp    = calloc((size_t)1 << EXH_BITS_MAX, sizeof *e->stamp);
    e->heap_cap = 1024;
    e->heap     = malloc(e->heap_cap * sizeof *e->heap);
    cr_assert(e->dist != NULL && e->stamp != NULL && e->heap != NULL);
}

static void exh_free(struct exh *e)
{
    free(e->dist);
    free(e->stamp);
    free(e->heap);
}

static void heap_push(struct exh *e, uint64_t item)
{
    if (e->heap_len == e->heap_cap) {
        e->heap_cap *= 2;
        e->heap = realloc(e->heap, e->heap_cap * sizeof *e->heap);
        cr_assert_not_null(e->heap);
    }
    size_t i = e->heap_len++;
    for (; i > 0 && e->heap[(i - 1) / 2] > item; i = (i - 1) / 2)
        e->heap[i] = e->heap[(i - 1) / 2];
    e->heap[i] = item;
}

static uint64_t heap_pop(struct exh *e)
{
    const uint64_t top  = e->heap[0];
    const uint64_t last = e->heap[--e->heap_len];
    size_t i            = 0;
    for (size_t c = 1; c < e->heap_len; c = 2 * i + 1) {
        if (c + 1 < e->heap_len && e->heap[c + 1] < e->heap[c])
            c++;
        if (e->heap[c] >= last)
            break;
        e->heap[i] = e->heap[c];
        i          = c;
    }
    if (e->heap_len > 0)
        e->heap[i] = last;
    return top;
}

static void relax(struct exh *e, uint32_t s, uint64_t d)
{
    if (e->stamp[s] == e->gen && e->dist[s] <= d)
        return;
    e->stamp[s] = e->gen;
    e->dist[s]  = (uint16_t)d;
    heap_push(e, d << 32 | s);
}

static unsigned level_shift(const struct exh *e, size_t q)
{
    return 8 + (unsigned)(q * e->n);
}

static uint32_t held_mask(const struct exh *e, uint32_t s, size_t q)
{
    return s >> level_shift(e, q) & ((1u << e->n) - 1);
}

/* The state after reversing x_i: live undefined, positions >= i gone. */
static uint32_t after_reverse(const struct exh *e, uint32_t s, uint32_t i)
{
    uint32_t t = (uint32_t)(e->n + 1) | (i == 0 ? EXH_DONE : i - 1) << 4;
    for (size_t q = 0; q < e->count; q++)
        t |= (held_mask(e, s, q) & ((1u << i) - 1)) << level_shift(e, q);
    return t;
}

/* Store, restore and free on level q; live is n+1 when undefined. */
static void level_moves(struct exh *e, uint32_t s, uint64_t d, size_t q,
                        uint32_t live)
{
    const uint32_t held  = held_mask(e, s, q);
    const unsigned shift = level_shift(e, q);
    if (live < e->n && !(held >> live & 1) &&
        (uint64_t)__builtin_popcount(held) < e->lv[q].slots)
        relax(e, s | 1u << (shift + live), d + e->lv[q].w);
    for (uint32_t p = 0; p < e->n; p++) {
        if (!(held >> p & 1))
            continue;
        if (p != live)
            relax(e, (s & ~15u) | p, d + e->lv[q].r);
        relax(e, s & ~(1u << (shift + p)), d);
    }
}

static void moves(struct exh *e, uint32_t s, uint64_t d)
{
    const uint32_t live = s & 15, next = s >> 4 & 15;
    if (live < next)
        relax(e, (s & ~15u) | (live + 1), d + 1);
    if (live == next)
        relax(e, after_reverse(e, s, next), d);
    for (size_t q = 0; q < e->count; q++)
        level_moves(e, s, d, q, live);
}

/* The least cost of any valid plan, or UINT64_MAX when there is none. */
static uint64_t exhaustive(struct exh *e, uint64_t n, const struct lv *lv,
                           size_t count)
{
    cr_assert_leq(8 + count * n, EXH_BITS_MAX);
    cr_assert_leq(n, 14);
    e->n     = n;
    e->count = count;
    memcpy(e->lv, lv, count * sizeof *lv);
    e->gen++;
    e->heap_len = 0;
    relax(e, (uint32_t)n << 4, 0); /* live x_0, next the turn */
    while (e->heap_len > 0) {
        const uint64_t item = heap_pop(e);
        const uint32_t s = (uint32_t)item, d = (uint32_t)(item >> 32);
        if (e->stamp[s] != e->gen || e->dist[s] != d)
            continue; /* a stale entry */
        if ((s >> 4 & 15) == EXH_DONE)
            return d;
        moves(e, s, d);
    }
    return UINT64_MAX;
}

static bool non_decreasing(const struct lv *lv, size_t count)
{
    for (size_t k = 1; k < count; k++)
        if (lv[k].w < lv[k - 1].w || lv[k].r < lv[k - 1].r)
            return false;
    return true;
}

static void expect_optimal(struct exh *e, uint64_t n, const struct lv *lv,
                           size_t count)
{
    const uint64_t best = exhaustive(e, n, lv, count);
    const uint64_t cost = planned_cost(n, lv, count);
    cr_assert_eq(cost, best,
                 "n=%llu c=(%llu,%llu) w=(%llu,%llu) r=(%llu,%llu): hrevolve "
                 "%llu, exhaustive %llu",
                 ULL(n), ULL(lv[0].slots), ULL(count > 1 ? lv[1].slots : 0),
                 ULL(lv[0].w), ULL(count > 1 ? lv[1].w : 0), ULL(lv[0].r),
                 ULL(count > 1 ? lv[1].r : 0), ULL(cost), ULL(best));
}

/* Two levels, slots 1..3 each, costs w_0, r_0 in {0, 1, 2} and w_1, r_1
 * in {0, 1, 2, 4}, never below level 0's: 81 cost settings. */
static unsigned two_levels(struct exh *e, uint64_t n)
{
    static const uint64_t low[] = {0, 1, 2}, high[] = {0, 1, 2, 4};
    unsigned cases = 0;
    for (uint64_t c0 = 1; c0 <= 3; c0++)
        for (uint64_t c1 = 1; c1 <= 3; c1++)
            for (unsigned g = 0; g < 144; g++) {
                const struct lv lv[] = {{c0, low[g % 3], low[g / 3 % 3]},
                                        {c1, high[g / 9 % 4], high[g / 36]}};
                if (!non_decreasing(lv, 2))
                    continue;
                expect_optimal(e, n, lv, 2);
                cases++;
            }
    return cases;
}

Test(hrevolve, exhaustive_two_levels_n_1_to_5)
{
    struct exh e;
    exh_init(&e);
    unsigned cases = 0;
    for (uint64_t n = 1; n <= 5; n++)
        cases += two_levels(&e, n);
    cr_assert_eq(cases, 5 * 9 * 81);
    exh_free(&e);
}

Test(hrevolve, exhaustive_two_levels_n_6)
{
    struct exh e;
    exh_init(&e);
    cr_assert_eq(two_levels(&e, 6), 9 * 81);
    exh_free(&e);
}

Test(hrevolve, exhaustive_two_levels_n_7)
{
    struct exh e;
    exh_init(&e);
    cr_assert_eq(two_levels(&e, 7), 9 * 81);
    exh_free(&e);
}

/* One level with costs: the dynamic program runs on level 0 too. */
Test(hrevolve, exhaustive_one_level_with_costs)
{
    struct exh e;
    exh_init(&e);
    for (uint64_t n = 1; n <= 8; n++)
        for (uint64_t c = 1; c <= 4; c++)
            for (unsigned g = 0; g < 16; g++) {
                const struct lv lv[] = {{c, g % 4, g / 4}};
                expect_optimal(&e, n, lv, 1);
            }
    exh_free(&e);
}

/* Three levels, slots 1..2 each, every non-decreasing triple of costs in
 * {0, 1, 2} for writes and for reads. */
Test(hrevolve, exhaustive_three_levels_n_1_to_4)
{
    struct exh e;
    exh_init(&e);
    unsigned cases = 0;
    for (uint64_t n = 1; n <= 4; n++)
        for (unsigned c = 0; c < 8; c++)
            for (unsigned g = 0; g < 729; g++) {
                const struct lv lv[] = {
                    {1 + (c & 1), g % 3, g / 27 % 3},
                    {1 + (c >> 1 & 1), g / 3 % 3, g / 81 % 3},
                    {1 + (c >> 2), g / 9 % 3, g / 243}};
                if (!non_decreasing(lv, 3))
                    continue;
                expect_optimal(&e, n, lv, 3);
                cases++;
            }
    cr_assert_eq(cases, 4 * 8 * 100);
    exh_free(&e);
}

/* ---- predicted counts against walks on random cases -------------------- */

/* splitmix64, a fixed seed: the same cases every run. */
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

/* 1 to 3 levels of 1 to max_slots slots, costs that never decrease. */
static size_t random_levels(uint64_t *seed, struct lv *lv, uint64_t max_slots)
{
    const size_t count = (size_t)pick(seed, 1, 3);
    uint64_t w = pick(seed, 0, 1), r = pick(seed, 0, 1);
    for (size_t k = 0; k < count; k++) {
        lv[k] = (struct lv){pick(seed, 1, max_slots), w, r};
        w += pick(seed, 0, 8);
        r += pick(seed, 0, 8);
    }
    return count;
}

Test(hrevolve, predicted_counts_equal_walks_on_random_cases)
{
    uint64_t seed = 14;
    for (int i = 0; i < 150; i++) {
        struct lv lv[MAX_LEVELS];
        const size_t count = random_levels(&seed, lv, 40);
        const uint64_t n   = pick(&seed, 1, 600);
        const uint64_t c   = planned_cost(n, lv, count);
        cr_assert_geq(c, n, "at least one sweep");
    }
}

/* ---- the pruned search against the plain recurrence -------------------- */

/*
 * The recurrence of schedules/hrevolve.h evaluated plainly, every split
 * tried, without the pruning, the closed form on a free level 0 or the
 * slot cap: A[k][l][m] and B[k][l][m] for l <= PLAIN_N, m <= PLAIN_C.
 */
#define PLAIN_N 80
#define PLAIN_C 12

struct plain {
    uint64_t A[MAX_LEVELS][PLAIN_N + 1][PLAIN_C + 1];
    uint64_t B[MAX_LEVELS][PLAIN_N + 1][PLAIN_C + 1];
};

static uint64_t sat(uint64_t a, uint64_t b)
{
    return a == UINT64_MAX || b == UINT64_MAX ? UINT64_MAX : a + b;
}

static void plain_entry(struct plain *p, const struct lv *lv, size_t k,
                        uint64_t l, uint64_t m)
{
    const uint64_t down = k == 0 ? UINT64_MAX : p->A[k - 1][l][lv[k - 1].slots];
    uint64_t best       = down;
    for (uint64_t j = 1; j <= l && m >= 1; j++) {
        const uint64_t v =
            sat(sat(j + lv[k].r, p->B[k][j - 1][m]), p->A[k][l - j][m - 1]);
        best = v < best ? v : best;
    }
    p->B[k][l][m]        = m >= 1 ? best : UINT64_MAX;
    const uint64_t store = sat(lv[k].w, p->B[k][l][m]);
    p->A[k][l][m]        = store < down ? store : down;
}

static uint64_t plain_cost(struct plain *p, uint64_t n, const struct lv *lv,
                           size_t count)
{
    for (size_t k = 0; k < count; k++)
        for (uint64_t l = 0; l <= n; l++)
            for (uint64_t m = 0; m <= lv[k].slots; m++) {
                if (l == 0)
                    p->A[k][0][m] = p->B[k][0][m] = 0;
                else
                    plain_entry(p, lv, k, l, m);
            }
    return p->A[count - 1][n][lv[count - 1].slots];
}

Test(hrevolve, equals_the_plain_recurrence_on_random_cases)
{
    static struct plain p; /* about 200 KiB: not on the stack */
    uint64_t seed = 2020;
    for (int i = 0; i < 200; i++) {
        struct lv lv[MAX_LEVELS];
        const size_t count = random_levels(&seed, lv, PLAIN_C);
        const uint64_t n   = pick(&seed, 1, PLAIN_N);
        cr_assert_eq(planned_cost(n, lv, count), plain_cost(&p, n, lv, count),
                     "case %d, n=%llu", i, ULL(n));
    }
}

/* ---- refusals ---------------------------------------------------------- */

/* Create must fail with `want` and a message holding every `words`. */
static void expect_refused(const uturn_problem_t *p, uturn_status_t want,
                           const char *const *words, size_t nwords)
{
    uturn_plan_t *plan = (uturn_plan_t *)1;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_plan_create(p, NULL, &plan, &err);
    cr_assert_eq(st, want, "%s: %s", uturn_status_name(st), err.message);
    cr_assert_null(plan);
    for (size_t i = 0; i < nwords; i++)
        cr_assert(strstr(err.message, words[i]) != NULL, "\"%s\" lacks \"%s\"",
                  err.message, words[i]);
}

/* What a refusal past the limits allocated: the counts that would grow
 * with n if anything of size n were allocated before the refusal. */
struct refusal_work {
    uint64_t allocs, peak_bytes;
};

/* Past the limits: refused from the steps and levels alone, before
 * anything of size n is allocated (include/uturn.h, uturn_plan_create);
 * the message gives the need and the alternative. The work is counted, not
 * timed: the allocations it made go to *work, and the caller checks that
 * they do not grow with n. A loop over n that allocates nothing would
 * pass here; at n = 10^12 and 2^64 - 1 it hangs instead, and the test's
 * TIMEOUT (tests/CMakeLists.txt) fails it. */
static void expect_past_limits(uint64_t n, const struct lv *lv, size_t count,
                               const char *need, struct refusal_work *work)
{
    uturn_level_t levels[MAX_LEVELS];
    uturn_problem_t p;
    problem_of(&p, levels, n, lv, count);
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_plan_t *plan            = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_plan_create(&p, &alloc, &plan, &err);
    cr_assert_eq(st, UTURN_E_UNSUPPORTED, "n=%llu: %s", ULL(n),
                 uturn_status_name(st));
    /* The plan object and a copy of its levels (2 blocks, under 1 KiB
     * here): a few blocks and bytes, whatever n. */
    cr_assert_leq(counts.total_allocs, 4, "n=%llu: %llu allocations", ULL(n),
                  ULL(counts.total_allocs));
    cr_assert_leq(counts.peak_bytes, 4096, "n=%llu: %llu bytes at once",
                  ULL(n), ULL(counts.peak_bytes));
    expect_no_leak(&counts);
    *work = (struct refusal_work){counts.total_allocs, counts.peak_bytes};
    const char *const words[] = {need, "bytes of tables", "split evaluations",
                                 "fewer steps or slots",
                                 "online planner's periodic disk schedule"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        cr_assert(strstr(err.message, words[i]) != NULL, "\"%s\" lacks \"%s\"",
                  err.message, words[i]);
}

Test(hrevolve, past_the_limits_is_refused_at_once)
{
    static const struct lv issue[] = {{20, 0, 0}, {500, 5, 5}};
    static const struct lv wide[]  = {{10, 0, 0}};
    struct refusal_work w[6];
    /* 10^12 steps: 6264 bytes of tables a step (plus a fixed header);
     * the work passes 2^64. */
    expect_past_limits(1000000000000ull, issue, 2, "needs 6264000000", &w[0]);
    expect_past_limits(1000000000000ull, issue, 2, "and over 2^64 split",
                       &w[1]);
    /* 10^5 steps: the tables fit (626 MB), the work does not. */
    expect_past_limits(100000, issue, 2, "2500006166750 split evaluations",
                       &w[2]);
    expect_past_limits(UINT64_MAX, issue, 2, "over 2^64 bytes", &w[3]);
    /* 10^7 steps on 10 free slots: little work, 136 bytes a step. */
    expect_past_limits(10000000, wide, 1, "needs 136000", &w[4]);
    expect_past_limits(10000000, wide, 1, "and 100000000 split", &w[5]);
    /* From 10^5 to 2^64 - 1 steps the refusal allocates the same: nothing
     * of size n (the levels are copied, so one level compares with one). */
    for (int i = 1; i < 4; i++) {
        cr_assert_eq(w[i].allocs, w[0].allocs, "case %d", i);
        cr_assert_eq(w[i].peak_bytes, w[0].peak_bytes, "case %d", i);
    }
    cr_assert_eq(w[5].allocs, w[4].allocs);
    cr_assert_eq(w[5].peak_bytes, w[4].peak_bytes);
}

/* The decreasing case that shows why: n = 7, one memory slot slow to read
 * (r = 4) and one disk slot free to read. The best plan over every plan
 * costs 20; the recurrence, were it run on these levels, gives 26. */
Test(hrevolve, decreasing_costs_are_refused)
{
    static const struct lv slow_read[] = {{1, 0, 4}, {1, 0, 0}};
    struct exh e;
    exh_init(&e);
    cr_assert_eq(exhaustive(&e, 7, slow_read, 2), 20);
    uturn_level_t levels[MAX_LEVELS];
    uturn_problem_t p;
    problem_of(&p, levels, 7, slow_read, 2);
    const char *const read[] = {"level 1 (level1) is cheaper to read than "
                                "level 0",
                                "optimum is not guaranteed"};
    expect_refused(&p, UTURN_E_UNSUPPORTED, read, 2);
    static const struct lv slow_write[] = {{5, 0, 0}, {10, 5, 5}, {10, 3, 5}};
    problem_of(&p, levels, 50, slow_write, 3);
    const char *const write[] = {"level 2 (level2) is cheaper to write"};
    expect_refused(&p, UTURN_E_UNSUPPORTED, write, 1);
    /* Equal costs are not a decrease. */
    static const struct lv equal[] = {{2, 3, 3}, {4, 3, 3}};
    cr_assert_eq(planned_cost(6, equal, 2), exhaustive(&e, 6, equal, 2));
    exh_free(&e);
}

Test(hrevolve, costs_past_2_to_the_24_are_refused)
{
    static const struct lv big[] = {{5, 0, 0}, {10, 5, (1u << 24) + 1}};
    uturn_level_t levels[MAX_LEVELS];
    uturn_problem_t p;
    problem_of(&p, levels, 50, big, 2);
    const char *const words[] = {"level 1", "up to 2^24"};
    expect_refused(&p, UTURN_E_UNSUPPORTED, words, 2);
    static const struct lv most[] = {{5, 0, 0}, {10, 5, 1u << 24}};
    problem_of(&p, levels, 50, most, 2);
    uturn_plan_free(plan_of(&p, NULL));
}

/* No slot at all: the capacity comes from a budget below one state, or a
 * level's bytes hold no state. */
Test(hrevolve, no_slot_is_infeasible)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner                 = UTURN_PLANNER_HREVOLVE;
    p.steps                   = 10;
    p.slot_bytes              = 100;
    p.budget_bytes            = 99;
    const char *const words[] = {"at least 1 slot"};
    expect_refused(&p, UTURN_E_INFEASIBLE, words, 1);
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_plan_t *plan = NULL;
    uturn_plan_create(&p, NULL, &plan, &err);
    cr_assert_eq(err.minimum_slots, 1);
    cr_assert_eq(err.minimum_bytes, 100);
    uturn_level_t levels[2];
    static const struct lv lv[] = {{4, 0, 0}, {1, 5, 5}};
    problem_of(&p, levels, 10, lv, 2);
    levels[1].slots = 0;
    levels[1].bytes = 23; /* below one 24-byte state */
    expect_refused(&p, UTURN_E_INFEASIBLE, NULL, 0);
}

Test(hrevolve, needs_a_capacity)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner                 = UTURN_PLANNER_HREVOLVE;
    p.steps                   = 10;
    const char *const words[] = {"hrevolve needs a capacity"};
    expect_refused(&p, UTURN_E_INVALID_ARG, words, 1);
}

Test(hrevolve, per_step_costs_and_sizes_are_unsupported)
{
    static const struct lv lv[]    = {{2, 0, 0}, {4, 1, 1}};
    static const uint64_t costs[4] = {1, 2, 3, 4};
    uturn_level_t levels[2];
    uturn_problem_t p;
    problem_of(&p, levels, 4, lv, 2);
    p.step_costs = costs;
    expect_refused(&p, UTURN_E_UNSUPPORTED, NULL, 0);
    p.step_costs = NULL;
    p.step_bytes = costs;
    expect_refused(&p, UTURN_E_UNSUPPORTED, NULL, 0);
}

/* ---- fingerprints ------------------------------------------------------ */

static uint64_t fingerprint_of(uint64_t n, const struct lv *lv, size_t count,
                               const char *name)
{
    uturn_level_t levels[MAX_LEVELS];
    uturn_problem_t p;
    problem_of(&p, levels, n, lv, count);
    levels[0].name     = name;
    uturn_plan_t *plan = plan_of(&p, NULL);
    uint64_t f         = 0;
    cr_assert_eq(uturn_plan_fingerprint(plan, &f), UTURN_OK);
    cr_assert_eq(stats_of(plan).fingerprint, f);
    uturn_plan_free(plan);
    return f;
}

Test(hrevolve, the_fingerprint_follows_every_level)
{
    static const struct lv base[] = {{5, 0, 0}, {20, 2, 3}, {30, 4, 6}};
    const uint64_t f              = fingerprint_of(60, base, 3, NULL);
    cr_assert_eq(fingerprint_of(60, base, 3, NULL), f, "deterministic");
    cr_assert_eq(fingerprint_of(60, base, 3, "ram"), f, "names are labels");
    cr_assert_neq(fingerprint_of(61, base, 3, NULL), f);
    cr_assert_neq(fingerprint_of(60, base, 2, NULL), f);
    uint64_t seen[9];
    for (size_t k = 0; k < 3; k++)
        for (size_t field = 0; field < 3; field++) {
            struct lv lv[3];
            memcpy(lv, base, sizeof lv);
            uint64_t *const x[] = {&lv[k].slots, &lv[k].w, &lv[k].r};
            *x[field] += 1;
            /* Keep the costs non-decreasing: raise the levels above. */
            for (size_t q = k + 1; q < 3 && field > 0; q++)
                *(field == 1 ? &lv[q].w : &lv[q].r) += 1;
            seen[3 * k + field] = fingerprint_of(60, lv, 3, NULL);
            cr_assert_neq(seen[3 * k + field], f, "level %zu field %zu", k,
                          field);
            for (size_t i = 0; i < 3 * k + field; i++)
                cr_assert_neq(seen[i], seen[3 * k + field]);
        }
    /* Another planner with the same steps and slots differs too. */
    uturn_plan_t *r = one_level_plan(UTURN_PLANNER_REVOLVE, 60, 5);
    uturn_plan_t *h = one_level_plan(UTURN_PLANNER_HREVOLVE, 60, 5);
    cr_assert_neq(stats_of(r).fingerprint, stats_of(h).fingerprint);
    uturn_plan_free(r);
    uturn_plan_free(h);
}

/* ---- out of memory ------------------------------------------------------ */

/* Every allocation in turn fails: UTURN_E_NOMEM, nothing leaked. */
Test(hrevolve, every_failed_allocation_is_nomem_without_leaks)
{
    static const struct lv lv[] = {{5, 0, 0}, {100, 5, 5}};
    uturn_level_t levels[2];
    uturn_problem_t p;
    problem_of(&p, levels, 300, lv, 2);
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_plan_free(plan_of(&p, &alloc));
    const uint64_t total = counts.total_allocs;
    cr_assert_gt(total, 5);
    for (uint64_t i = 1; i <= total; i++) {
        counting_alloc_t c        = {.fail_at = i};
        const uturn_allocator_t a = counting_allocator(&c);
        uturn_plan_t *plan        = NULL;
        cr_assert_eq(uturn_plan_create(&p, &a, &plan, NULL), UTURN_E_NOMEM,
                     "allocation %llu of %llu", ULL(i), ULL(total));
        expect_no_leak(&c);
    }
}
