/*
 * dp against independent truth written out here:
 *  - uniform sizes and costs: the binomial closed form t(n+1, s) of
 *    docs/model.md section 4, for every n <= 200 and s <= 20;
 *  - per-step sizes and costs, n <= 8: an exhaustive search over every
 *    nested schedule, in bytes (no units, no table);
 *  - n <= 7: a shortest-path search over every valid action sequence
 *    (nested or not), which dp must equal when all sizes are equal and may
 *    only lose to when they differ (the issue's example: 75 against 81).
 * Every plan built here is also walked by the validator within its budget.
 */
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

__extension__ typedef unsigned __int128 u128;

#define INF   UINT64_MAX
#define MAX_N 8 /* largest chain of the exhaustive searches */

/* ---- the binomial closed form (docs/model.md section 4) ---------------------- */

/* beta(s, r) = C(s + r, s), or cap when it is at least cap (the partial
 * products C(base + i, i) only grow, so stopping early is safe). */
static u128 beta_capped(uint64_t s, uint64_t r, u128 cap)
{
    const uint64_t k    = s < r ? s : r;
    const uint64_t base = s < r ? r : s;
    u128 value          = 1;
    for (uint64_t i = 1; i <= k && value < cap; i++)
        value = value * (u128)(base + i) / i;
    return value < cap ? value : cap;
}

/* t(l, s) = r*l - beta(s+1, r-1), r the least with beta(s, r) >= l. */
static uint64_t closed_t(uint64_t l, uint64_t s)
{
    if (l <= 1)
        return 0;
    uint64_t r = 1;
    while (beta_capped(s, r, l) < l)
        r++;
    return (uint64_t)((u128)r * l - beta_capped(s + 1, r - 1, ~(u128)0 >> 1));
}

/* ---- a small fixed-seed PRNG (splitmix64) -------------------------------- */

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static uint64_t pick(uint64_t *state, uint64_t lo, uint64_t hi)
{
    return lo + next_random(state) % (hi - lo + 1);
}

/* ---- instances ----------------------------------------------------------- */

struct instance {
    uint64_t n;
    uint64_t bytes[MAX_N]; /* size of x_i */
    uint64_t costs[MAX_N]; /* cost of F_i */
};

static uint64_t cost_between(const struct instance *in, uint64_t a, uint64_t b)
{
    uint64_t c = 0;
    for (uint64_t i = a; i < b; i++)
        c += in->costs[i];
    return c;
}

static uint64_t sum_bytes(const struct instance *in)
{
    uint64_t total = 0;
    for (uint64_t i = 0; i < in->n; i++)
        total += in->bytes[i];
    return total;
}

static void random_instance(uint64_t *rng, uint64_t n_max, bool uniform,
                            struct instance *in)
{
    in->n              = pick(rng, 1, n_max);
    const uint64_t one = pick(rng, 1, 8);
    for (uint64_t i = 0; i < in->n; i++) {
        in->bytes[i] = uniform ? one : pick(rng, 1, 8);
        in->costs[i] = pick(rng, 1, 10);
    }
}

static void describe(const struct instance *in, uint64_t budget, char *out,
                     size_t cap)
{
    size_t len =
        (size_t)snprintf(out, cap, "n=%llu budget=%llu sizes",
                         (unsigned long long)in->n, (unsigned long long)budget);
    for (uint64_t i = 0; i < in->n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, " %llu",
                                (unsigned long long)in->bytes[i]);
    len += (size_t)snprintf(out + len, len < cap ? cap - len : 0, " costs");
    for (uint64_t i = 0; i < in->n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, " %llu",
                                (unsigned long long)in->costs[i]);
}

/* ---- truth 1: every nested schedule, in bytes ---------------------------- */

/* Least cost to reverse x_a .. x_{e-1} (x_n by the turn) when x_a is held
 * and `free_bytes` more bytes may be stored: advance from x_a to some x_j;
 * reverse it at once when j = e-1, else store it, reverse [j, e) in what is
 * left and free it; then reverse [a, j). Plain recursion, every j. */
static uint64_t nested(const struct instance *in, uint64_t a, uint64_t e,
                       uint64_t free_bytes)
{
    if (e == a + 1)
        return 0;
    uint64_t best = INF;
    for (uint64_t j = a + 1; j < e; j++) {
        uint64_t right = 0;
        if (j != e - 1) {
            if (in->bytes[j] > free_bytes)
                continue;
            right = nested(in, j, e, free_bytes - in->bytes[j]);
        }
        const uint64_t left = nested(in, a, j, free_bytes);
        if (left == INF || right == INF)
            continue;
        const uint64_t total = cost_between(in, a, j) + left + right;
        best                 = total < best ? total : best;
    }
    return best;
}

static uint64_t nested_optimum(const struct instance *in, uint64_t budget)
{
    if (in->bytes[0] > budget)
        return INF;
    return nested(in, 0, in->n + 1, budget - in->bytes[0]);
}

/* ---- truth 2: every valid action sequence ---------------------------------
 * Dijkstra over (live, held, pos): live is x_0 .. x_n or LIVE_NONE; held a
 * bitmask over x_0 .. x_{n-1}; pos = n+1 before the turn, i+1 when reverse i
 * is next, 0 when all is done. Storing x_n is left out: it is never needed,
 * since turning at once where it was stored does at least as well. */

struct search {
    const struct instance *in;
    uint64_t budget, live_none, npos;
    uint64_t *dist;
    uint64_t *heap; /* (distance << 32) | state */
    size_t heap_len;
    uint64_t held_bytes[1u << MAX_N];
};

static uint64_t encode(const struct search *s, uint64_t live, uint64_t held,
                       uint64_t pos)
{
    return (live * (1ull << s->in->n) + held) * s->npos + pos;
}

static void heap_push(struct search *s, uint64_t key)
{
    size_t i   = s->heap_len++;
    s->heap[i] = key;
    while (i > 0 && s->heap[(i - 1) / 2] > s->heap[i]) {
        const uint64_t t     = s->heap[i];
        s->heap[i]           = s->heap[(i - 1) / 2];
        s->heap[(i - 1) / 2] = t;
        i                    = (i - 1) / 2;
    }
}

static uint64_t heap_pop(struct search *s)
{
    const uint64_t top = s->heap[0];
    s->heap[0]         = s->heap[--s->heap_len];
    for (size_t i = 0;;) {
        size_t m = i;
        for (size_t c = 2 * i + 1; c <= 2 * i + 2 && c < s->heap_len; c++)
            m = s->heap[c] < s->heap[m] ? c : m;
        if (m == i)
            break;
        const uint64_t t = s->heap[i];
        s->heap[i]       = s->heap[m];
        s->heap[m]       = t;
        i                = m;
    }
    return top;
}

static void relax(struct search *s, uint64_t d, uint64_t live, uint64_t held,
                  uint64_t pos)
{
    const uint64_t id = encode(s, live, held, pos);
    if (d < s->dist[id]) {
        s->dist[id] = d;
        heap_push(s, d << 32 | id);
    }
}

/* Every action that applies in (live, held, pos), at distance d. */
static void expand(struct search *s, uint64_t d, uint64_t live, uint64_t held,
                   uint64_t pos)
{
    const uint64_t n = s->in->n;
    if (live < n) {
        relax(s, d + s->in->costs[live], live + 1, held, pos); /* advance */
        const uint64_t bit = 1ull << live;
        if (!(held & bit) &&
            s->held_bytes[held] + s->in->bytes[live] <= s->budget)
            relax(s, d, live, held | bit, pos); /* store */
    }
    for (uint64_t i = 0; i < n; i++) {
        if (held >> i & 1) {
            relax(s, d, i, held, pos);                   /* restore */
            relax(s, d, live, held & ~(1ull << i), pos); /* free */
        }
    }
    if (live == n && pos == n + 1)
        relax(s, d, n, held, n); /* turn */
    if (pos >= 1 && pos <= n && live == pos - 1)
        relax(s, d, s->live_none, held, pos - 1); /* reverse */
}

/* The least total advance cost of any valid plan, or INF. */
static uint64_t any_optimum(const struct instance *in, uint64_t budget)
{
    struct search s   = {.in = in, .budget = budget};
    const uint64_t n  = in->n;
    s.live_none       = n + 1;
    s.npos            = n + 2;
    const size_t size = (size_t)((n + 2) * (1ull << n) * (n + 2));
    s.dist            = malloc(size * sizeof *s.dist);
    s.heap            = malloc(size * (2 * n + 4) * sizeof *s.heap);
    cr_assert(s.dist != NULL && s.heap != NULL);
    for (size_t i = 0; i < size; i++)
        s.dist[i] = INF;
    for (uint64_t m = 0; m < 1ull << n; m++)
        for (uint64_t i = 0; i < n; i++)
            s.held_bytes[m] += (m >> i & 1) ? in->bytes[i] : 0;
    uint64_t best = INF;
    relax(&s, 0, 0, 0, n + 1);
    while (s.heap_len > 0 && best == INF) {
        const uint64_t key = heap_pop(&s), d = key >> 32;
        uint64_t id = key & 0xffffffffu;
        if (d != s.dist[id])
            continue;
        const uint64_t pos = id % s.npos;
        id /= s.npos;
        if (pos == 0)
            best = d;
        else
            expand(&s, d, id >> n, id & ((1ull << n) - 1), pos);
    }
    free(s.dist);
    free(s.heap);
    return best;
}

/* ---- dp through the public API ------------------------------------------- */

static uturn_status_t dp_create(const struct instance *in, uint64_t budget,
                                uint64_t unit, uturn_plan_t **plan,
                                uturn_error_t *err)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_DP;
    p.steps        = in->n;
    p.budget_bytes = budget;
    p.step_bytes   = in->bytes;
    p.step_costs   = in->costs;
    p.unit_bytes   = unit;
    uturn_error_init(err);
    return uturn_plan_create(&p, NULL, plan, err);
}

/* dp's forward_cost for the instance; the plan is walked by the validator,
 * which must see the same counts and stay within the budget. */
static uint64_t dp_cost(const struct instance *in, uint64_t budget,
                        uint64_t unit)
{
    char what[200];
    describe(in, budget, what, sizeof what);
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    cr_assert_eq(dp_create(in, budget, unit, &plan, &err), UTURN_OK,
                 "%s unit=%llu: %s", what, (unsigned long long)unit,
                 err.message);
    uturn_stats_t pred, seen;
    uturn_stats_init(&pred);
    uturn_stats_init(&seen);
    cr_assert_eq(uturn_plan_stats(plan, &pred), UTURN_OK);
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK,
                 "%s: walk: %s (action %llu)", what, err.message,
                 (unsigned long long)err.action);
    cr_assert_eq(seen.forward_cost, pred.forward_cost, "%s: walked %llu", what,
                 (unsigned long long)seen.forward_cost);
    cr_assert_eq(seen.forward_steps, pred.forward_steps, "%s", what);
    cr_assert_eq(seen.peak_bytes, pred.peak_bytes, "%s", what);
    cr_assert_eq(seen.reverse_steps, in->n, "%s", what);
    cr_assert_leq(seen.peak_bytes, budget, "%s: peak %llu", what,
                  (unsigned long long)seen.peak_bytes);
    uturn_plan_free(plan);
    return pred.forward_cost;
}

/* ---- 1. uniform: the binomial closed form -------------------------------- */

static uturn_status_t dp_uniform(uint64_t n, uint64_t s,
                                 const uturn_allocator_t *alloc,
                                 uturn_plan_t **plan, uturn_error_t *err)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_DP;
    p.steps   = n;
    p.slots   = s;
    uturn_error_init(err);
    return uturn_plan_create(&p, alloc, plan, err);
}

/* Every n, except under sanitizers (Debug + ASan/UBSan is about 18 times
 * slower here: the full grid took 23 s of CPU in RelWithDebInfo, and every
 * n <= 60 plus every 7th n still took 70 s): there every n <= 60 and then
 * n = 64, 100, 127, 150, 200 only. */
static bool grid_n(uint64_t n)
{
#ifdef UTURN_TEST_SANITIZED
    return n <= 60 || n == 64 || n == 100 || n == 127 || n == 150 || n == 200;
#else
    (void)n;
    return true;
#endif
}

static void uniform_grid(uint64_t s_lo, uint64_t s_hi)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = 1; n <= 200; n++) {
        for (uint64_t s = s_lo; s <= s_hi && grid_n(n); s++) {
            uturn_plan_t *plan = NULL;
            uturn_error_t err;
            cr_assert_eq(dp_uniform(n, s, &alloc, &plan, &err), UTURN_OK,
                         "n=%llu s=%llu: %s", (unsigned long long)n,
                         (unsigned long long)s, err.message);
            uturn_stats_t st;
            uturn_stats_init(&st);
            cr_assert_eq(uturn_plan_stats(plan, &st), UTURN_OK);
            const uint64_t want = closed_t(n + 1, s);
            cr_assert_eq(st.forward_steps, want,
                         "n=%llu s=%llu: dp %llu, closed form %llu",
                         (unsigned long long)n, (unsigned long long)s,
                         (unsigned long long)st.forward_steps,
                         (unsigned long long)want);
            cr_assert_eq(st.forward_cost, want, "n=%llu s=%llu",
                         (unsigned long long)n, (unsigned long long)s);
            cr_assert_eq(st.reverse_steps, n);
            cr_assert_leq(st.peak_slots, s, "n=%llu s=%llu",
                          (unsigned long long)n, (unsigned long long)s);
            uturn_plan_free(plan);
        }
    }
    cr_assert_eq(counts.live_blocks, 0, "%llu blocks leaked",
                 (unsigned long long)counts.live_blocks);
}

/* The closed form of this file, checked on the reference numbers of docs/model.md. */
Test(dp, closed_form_reference_numbers)
{
    cr_assert_eq(closed_t(101, 5), 320);
    cr_assert_eq(closed_t(101, 10), 225);
    cr_assert_eq(closed_t(1001, 10), 3640);
    cr_assert_eq(closed_t(10001, 20), 37980);
    cr_assert_eq(closed_t(11, 1), 55);  /* n(n+1)/2 */
    cr_assert_eq(closed_t(11, 10), 10); /* s >= n: one sweep */
}

/* Split by s so that Criterion's two jobs share the work evenly. */
Test(dp, uniform_closed_form_s_1_to_9)
{
    uniform_grid(1, 9);
}
Test(dp, uniform_closed_form_s_10_to_14)
{
    uniform_grid(10, 14);
}
Test(dp, uniform_closed_form_s_15_to_17)
{
    uniform_grid(15, 17);
}
Test(dp, uniform_closed_form_s_18_to_20)
{
    uniform_grid(18, 20);
}

/* Walked plans agree with their predictions and stay within s slots. */
Test(dp, uniform_walks)
{
    for (uint64_t n = 1; n <= 60; n++) {
        for (uint64_t s = 1; s <= 8; s++) {
            uturn_plan_t *plan = NULL;
            uturn_error_t err;
            cr_assert_eq(dp_uniform(n, s, NULL, &plan, &err), UTURN_OK);
            uturn_stats_t pred, seen;
            uturn_stats_init(&pred);
            uturn_stats_init(&seen);
            cr_assert_eq(uturn_plan_stats(plan, &pred), UTURN_OK);
            cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK,
                         "n=%llu s=%llu: %s", (unsigned long long)n,
                         (unsigned long long)s, err.message);
            cr_assert_eq(seen.forward_steps, closed_t(n + 1, s));
            cr_assert_eq(seen.forward_steps, pred.forward_steps);
            cr_assert_eq(seen.actions, pred.actions);
            cr_assert_eq(seen.stores, pred.stores);
            cr_assert_eq(seen.peak_slots, pred.peak_slots);
            cr_assert_leq(seen.peak_slots, s);
            uturn_plan_free(plan);
        }
    }
}

/* ---- 2. per-step sizes and costs: every nested schedule ------------------ */

/* Every budget from x_0's size to store-all, for `count` random chains. */
static void nested_sweep(uint64_t seed, int count, uint64_t unit)
{
    uint64_t rng = seed;
    for (int k = 0; k < count; k++) {
        struct instance in;
        random_instance(&rng, MAX_N, false, &in);
        for (uint64_t b = in.bytes[0]; b <= sum_bytes(&in); b++) {
            const uint64_t want = nested_optimum(&in, b);
            const uint64_t got  = dp_cost(&in, b, unit);
            char what[200];
            describe(&in, b, what, sizeof what);
            cr_assert_eq(got, want, "%s unit=%llu: dp %llu, nested %llu", what,
                         (unsigned long long)unit, (unsigned long long)got,
                         (unsigned long long)want);
        }
    }
}

Test(dp, nested_exhaustive_auto_unit)
{
    nested_sweep(1, 300, 0);
}
Test(dp, nested_exhaustive_unit_1)
{
    nested_sweep(2, 300, 1);
}

/* Sizes that share a factor: the automatic unit is their gcd, exactly. */
Test(dp, nested_exhaustive_common_factor)
{
    uint64_t rng = 3;
    for (int k = 0; k < 100; k++) {
        struct instance in;
        random_instance(&rng, MAX_N, false, &in);
        for (uint64_t i = 0; i < in.n; i++)
            in.bytes[i] *= 24;
        for (uint64_t b = in.bytes[0]; b <= sum_bytes(&in); b += 5)
            cr_assert_eq(dp_cost(&in, b, 0), nested_optimum(&in, b),
                         "k=%d budget=%llu", k, (unsigned long long)b);
    }
}

/* A unit that does not divide the sizes: dp is exact for the sizes rounded
 * up to the unit and the budget rounded down, and its plan fits in bytes. */
Test(dp, nested_exhaustive_coarse_unit)
{
    uint64_t rng = 7;
    for (int k = 0; k < 200; k++) {
        struct instance in, rounded;
        random_instance(&rng, MAX_N, false, &in);
        const uint64_t u = pick(&rng, 2, 5);
        rounded          = in;
        for (uint64_t i = 0; i < in.n; i++)
            rounded.bytes[i] = (in.bytes[i] + u - 1) / u * u;
        for (uint64_t b = in.bytes[0]; b <= sum_bytes(&in); b++) {
            const uint64_t want = nested_optimum(&rounded, b / u * u);
            if (want == INF) { /* x_0 rounded up is above the budget */
                uturn_plan_t *plan = NULL;
                uturn_error_t err;
                cr_assert_eq(dp_create(&in, b, u, &plan, &err),
                             UTURN_E_INFEASIBLE, "k=%d b=%llu", k,
                             (unsigned long long)b);
                cr_assert_eq(err.minimum_bytes, rounded.bytes[0]);
                continue;
            }
            const uint64_t got = dp_cost(&in, b, u);
            cr_assert_eq(got, want, "k=%d unit=%llu budget=%llu: dp %llu", k,
                         (unsigned long long)u, (unsigned long long)b,
                         (unsigned long long)got);
            cr_assert_geq(got, nested_optimum(&in, b));
        }
    }
}

/* Only x_0 fits: every x_k is reached from x_0 again. Store-all: one
 * sweep. Below x_0: infeasible, naming x_0's size. */
Test(dp, budget_extremes)
{
    uint64_t rng = 4;
    for (int k = 0; k < 100; k++) {
        struct instance in;
        random_instance(&rng, MAX_N, false, &in);
        in.bytes[0]      = 9; /* above every other size: nothing else fits */
        uint64_t from_x0 = 0;
        for (uint64_t j = 1; j <= in.n; j++)
            from_x0 += cost_between(&in, 0, j);
        cr_assert_eq(dp_cost(&in, 9, 0), from_x0, "k=%d", k);
        cr_assert_eq(dp_cost(&in, sum_bytes(&in), 0),
                     cost_between(&in, 0, in.n), "k=%d", k);
        uturn_plan_t *plan = (uturn_plan_t *)&plan;
        uturn_error_t err;
        cr_assert_eq(dp_create(&in, 8, 0, &plan, &err), UTURN_E_INFEASIBLE);
        cr_assert_null(plan);
        cr_assert_eq(err.minimum_bytes, 9);
    }
}

/* ---- 3. every valid action sequence -------------------------------------- */

/* The issue's example: a non-nested plan costs 75, the best nested 81. */
Test(dp, issue_example_non_nested_beats_dp)
{
    const struct instance in = {.n     = 7,
                                .bytes = {5, 6, 5, 7, 7, 5, 8},
                                .costs = {5, 3, 9, 8, 10, 3, 9}};
    cr_assert_eq(any_optimum(&in, 15), 75);
    cr_assert_eq(nested_optimum(&in, 15), 81);
    cr_assert_eq(dp_cost(&in, 15, 0), 81);
    cr_assert_eq(dp_cost(&in, 15, 1), 81);
}

/* The search itself, on cases known in closed form. */
Test(dp, any_search_knowns)
{
    struct instance in = {.n = 7};
    for (uint64_t i = 0; i < 7; i++) {
        in.bytes[i] = 1;
        in.costs[i] = 1;
    }
    for (uint64_t s = 1; s <= 8; s++)
        cr_assert_eq(any_optimum(&in, s), closed_t(8, s), "s=%llu",
                     (unsigned long long)s);
    cr_assert_eq(any_optimum(&in, 0), INF); /* x_0 must be stored */
}

/* Equal sizes: nested schedules are optimal, so dp equals the search. */
Test(dp, any_equals_dp_when_sizes_equal)
{
    uint64_t rng = 5;
    for (int k = 0; k < 300; k++) {
        struct instance in;
        random_instance(&rng, 7, true, &in);
        const uint64_t b    = pick(&rng, in.bytes[0], sum_bytes(&in) + 3);
        const uint64_t want = any_optimum(&in, b);
        char what[200];
        describe(&in, b, what, sizeof what);
        cr_assert_eq(dp_cost(&in, b, 0), want, "%s: any %llu", what,
                     (unsigned long long)want);
    }
}

/* Sizes that differ: dp is a valid plan, so never below the search. */
Test(dp, dp_never_below_any)
{
    uint64_t rng = 6;
    for (int k = 0; k < 200; k++) {
        struct instance in;
        random_instance(&rng, 7, false, &in);
        for (int t = 0; t < 3; t++) {
            const uint64_t b   = pick(&rng, in.bytes[0], sum_bytes(&in));
            const uint64_t opt = any_optimum(&in, b);
            const uint64_t got = dp_cost(&in, b, 0);
            char what[200];
            describe(&in, b, what, sizeof what);
            cr_assert_geq(got, opt, "%s: dp %llu below the optimum %llu", what,
                          (unsigned long long)got, (unsigned long long)opt);
            cr_assert_eq(got, nested_optimum(&in, b), "%s", what);
        }
    }
}

/* docs/model.md section 3: slots is the capacity the plan was made for, not its
 * peak (uniform states); with sizes the capacity is the byte budget. */
Test(dp, uniform_slots_report_the_capacity)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_DP;
    p.steps            = 5;
    p.slots            = 20;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cr_assert_eq(s.slots, 20);
    cr_assert_eq(s.peak_slots, 5);
    uturn_plan_free(plan);
}

/* ---- 4. approximate plans and certified bounds --------------------------- */

static uturn_stats_t dp_mode_stats(const struct instance *in, uint64_t budget,
                                   uint64_t unit, uturn_dp_mode_t mode)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_DP;
    p.steps            = in->n;
    p.budget_bytes     = budget;
    p.slot_bytes       = 8;
    p.step_bytes       = in->bytes;
    p.step_costs       = in->costs;
    p.unit_bytes       = unit;
    p.dp_mode          = mode;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    uturn_stats_t s, seen;
    uturn_stats_init(&s);
    uturn_stats_init(&seen);
    uturn_plan_stats(plan, &s);
    cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_eq(seen.forward_cost, s.forward_cost);
    cr_assert_leq(seen.peak_bytes, budget);
    uturn_plan_free(plan);
    return s;
}

/* Every nested schedule, every budget: the approximate planner is never
 * below the optimum and its bound never above; a coarse unit's plan is not
 * claimed exact unless the unit divides every size, and its bound is
 * certified; exact plans are their own bound. */
Test(dp, bounds_bracket_the_nested_optimum)
{
    uint64_t rng = 8;
    for (int k = 0; k < 150; k++) {
        struct instance in;
        random_instance(&rng, MAX_N, false, &in);
        const uint64_t u = pick(&rng, 2, 4);
        for (uint64_t b = in.bytes[0]; b <= sum_bytes(&in); b++) {
            const uint64_t opt    = nested_optimum(&in, b);
            const uturn_stats_t e = dp_mode_stats(&in, b, 0, UTURN_DP_AUTO);
            cr_assert(e.exact);
            cr_assert_eq(e.lower_bound_cost, e.forward_cost);
            cr_assert_eq(e.forward_cost, opt);
            const uturn_stats_t a =
                dp_mode_stats(&in, b, 0, UTURN_DP_APPROXIMATE);
            /* Exact only when store-all fits (no approximation needed). */
            cr_assert(!a.exact || a.forward_cost == opt);
            cr_assert_geq(a.forward_cost, opt);
            cr_assert_leq(a.lower_bound_cost, opt, "k=%d b=%llu", k,
                          (unsigned long long)b);
            if (b / u < (in.bytes[0] + u - 1) / u)
                continue; /* x_0 rounded up does not fit */
            const uturn_stats_t c = dp_mode_stats(&in, b, u, UTURN_DP_AUTO);
            cr_assert_geq(c.forward_cost, opt);
            cr_assert_leq(c.lower_bound_cost, opt, "k=%d b=%llu u=%llu", k,
                          (unsigned long long)b, (unsigned long long)u);
            cr_assert_eq(c.unit_bytes, u);
            if (!c.exact)
                continue;
            for (uint64_t i = 0; i < in.n; i++)
                cr_assert_eq(in.bytes[i] % u, 0);
        }
    }
}
