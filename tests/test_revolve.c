/*
 * revolve against independent truth: the closed form of docs/model.md section 4
 * written out here, a brute-force dynamic program for small n, the reference
 * numbers, and a full validation walk of every plan on a grid.
 */
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>
#include <uturn.h>

__extension__ typedef unsigned __int128 u128;

/* ---- independent truth ------------------------------------------------ */

/* beta(s, r) = C(s + r, s), exactly, or cap when it is at least cap. The
 * partial products C(base + i, i) only grow, so stopping early is safe. */
static u128 beta_capped(uint64_t s, uint64_t r, u128 cap)
{
    const uint64_t k    = s < r ? s : r;
    const uint64_t base = s < r ? r : s;
    u128 value          = 1;
    for (uint64_t i = 1; i <= k && value < cap; i++)
        value = value * (u128)(base + i) / i;
    return value < cap ? value : cap;
}

static u128 beta(uint64_t s, uint64_t r)
{
    return beta_capped(s, r, ~(u128)0 >> 1);
}

/* t(l, s) = r*l - beta(s+1, r-1), r the least with beta(s, r) >= l
 * (found by doubling, then bisection). */
static u128 closed_t(uint64_t l, uint64_t s)
{
    if (l <= 1)
        return 0; /* nothing to run */
    uint64_t hi = 1;
    while (beta_capped(s, hi, l) < l)
        hi *= 2;
    uint64_t lo = hi / 2 + 1; /* beta(s, hi/2) < l, or hi = 1 */
    if (hi == 1)
        lo = 1;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (beta_capped(s, mid, l) >= l)
            hi = mid;
        else
            lo = mid + 1;
    }
    const uint64_t r = lo;
    return (u128)r * l - beta(s + 1, r - 1);
}

static uint64_t closed_forward(uint64_t n, uint64_t s)
{
    const u128 t = closed_t(n + 1, s);
    cr_assert(t <= UINT64_MAX, "n=%llu s=%llu overflows", (unsigned long long)n,
              (unsigned long long)s);
    return (uint64_t)t;
}

#define DP_L   61 /* states: n <= 60 */
#define DP_C   41 /* slots: s <= 40 */
#define DP_INF UINT64_MAX

/* F(l, c): least forward steps to reverse l states x_a .. x_{a+l-1} when
 * x_a sits in one of c slots (brute force over every first split j). */
static void fill_dp(uint64_t F[DP_L + 1][DP_C + 1])
{
    for (uint64_t c = 0; c <= DP_C; c++)
        F[1][c] = 0;
    for (uint64_t l = 2; l <= DP_L; l++) {
        F[l][0] = DP_INF;
        F[l][1] = l * (l - 1) / 2;
        for (uint64_t c = 2; c <= DP_C; c++) {
            uint64_t best = DP_INF;
            for (uint64_t j = 1; j < l; j++) {
                if (F[l - j][c - 1] == DP_INF || F[j][c] == DP_INF)
                    continue;
                const uint64_t cost = j + F[l - j][c - 1] + F[j][c];
                if (cost < best)
                    best = cost;
            }
            F[l][c] = best;
        }
    }
}

/* ---- helpers ------------------------------------------------------------ */

static uturn_status_t revolve(uint64_t n, uint64_t s,
                              const uturn_allocator_t *alloc,
                              uturn_plan_t **plan, uturn_error_t *err)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_REVOLVE;
    p.steps   = n;
    p.slots   = s;
    uturn_error_init(err);
    return uturn_plan_create(&p, alloc, plan, err);
}

static void expect_no_leak(const counting_alloc_t *c)
{
    cr_assert_eq(c->live_blocks, 0, "%llu blocks leaked",
                 (unsigned long long)c->live_blocks);
    cr_assert_eq(c->size_mismatches, 0);
}

/* Predicted stats; checks the fields any revolve plan must have. */
static void predicted(const uturn_plan_t *plan, uint64_t n, uint64_t s,
                      uturn_stats_t *st)
{
    uturn_stats_init(st);
    cr_assert_eq(uturn_plan_stats(plan, st), UTURN_OK);
    cr_assert_eq(st->steps, n);
    cr_assert_eq(st->slots, s, "n=%llu s=%llu", (unsigned long long)n,
                 (unsigned long long)s);
    cr_assert_eq(st->reverse_steps, n);
    cr_assert_eq(st->recomputed_steps, st->forward_steps - n);
}

/* Walk every plan with n in [n_lo, n_hi], s in [1, s_hi]. */
static void walk_range(uint64_t n_lo, uint64_t n_hi, uint64_t s_hi)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = n_lo; n <= n_hi; n++) {
        for (uint64_t s = 1; s <= s_hi; s++) {
            uturn_plan_t *plan = NULL;
            uturn_error_t err;
            cr_assert_eq(revolve(n, s, &alloc, &plan, &err), UTURN_OK,
                         "n=%llu s=%llu: %s", (unsigned long long)n,
                         (unsigned long long)s, err.message);
            uturn_stats_t pred, seen;
            predicted(plan, n, s, &pred);
            uturn_stats_init(&seen);
            uturn_error_init(&err);
            cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK,
                         "n=%llu s=%llu: %s", (unsigned long long)n,
                         (unsigned long long)s, err.message);
            const uint64_t want = closed_forward(n, s);
#define SAME(field)                                                            \
    cr_assert_eq(seen.field, pred.field,                                       \
                 "n=%llu s=%llu " #field ": seen %llu predicted %llu",         \
                 (unsigned long long)n, (unsigned long long)s,                 \
                 (unsigned long long)seen.field,                               \
                 (unsigned long long)pred.field)
            SAME(forward_steps);
            SAME(reverse_steps);
            SAME(stores);
            SAME(restores);
            SAME(frees);
            SAME(peak_slots);
            SAME(actions);
#undef SAME
            cr_assert_eq(seen.forward_steps, want, "n=%llu s=%llu",
                         (unsigned long long)n, (unsigned long long)s);
            cr_assert_eq(seen.reverse_steps, n);
            cr_assert_leq(seen.peak_slots, s, "n=%llu s=%llu peak %llu",
                          (unsigned long long)n, (unsigned long long)s,
                          (unsigned long long)seen.peak_slots);
            cr_assert_geq(seen.peak_slots, 1);
            uturn_plan_free(plan);
        }
    }
    expect_no_leak(&counts);
}

/* ---- forward steps ------------------------------------------------------- */

/* The closed form of this file agrees with the brute force where both
 * apply, so the grid below is checked against a trusted formula. */
Test(revolve, closed_form_matches_brute_force)
{
    static uint64_t F[DP_L + 1][DP_C + 1];
    fill_dp(F);
    for (uint64_t n = 1; n + 1 <= DP_L; n++)
        for (uint64_t s = 1; s <= 40; s++)
            cr_assert_eq(closed_forward(n, s), F[n + 1][s], "n=%llu s=%llu",
                         (unsigned long long)n, (unsigned long long)s);
}

Test(revolve, forward_steps_brute_force)
{
    static uint64_t F[DP_L + 1][DP_C + 1];
    fill_dp(F);
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = 1; n + 1 <= DP_L; n++) {
        for (uint64_t s = 1; s <= 40; s++) {
            uturn_plan_t *plan = NULL;
            uturn_error_t err;
            cr_assert_eq(revolve(n, s, &alloc, &plan, &err), UTURN_OK);
            uturn_stats_t st;
            predicted(plan, n, s, &st);
            cr_assert_eq(st.forward_steps, F[n + 1][s],
                         "n=%llu s=%llu: %llu, brute force %llu",
                         (unsigned long long)n, (unsigned long long)s,
                         (unsigned long long)st.forward_steps,
                         (unsigned long long)F[n + 1][s]);
            uturn_plan_free(plan);
        }
    }
    expect_no_leak(&counts);
}

Test(revolve, forward_steps_closed_form_grid)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = 1; n <= 400; n++) {
        for (uint64_t s = 1; s <= 40; s++) {
            uturn_plan_t *plan = NULL;
            uturn_error_t err;
            cr_assert_eq(revolve(n, s, &alloc, &plan, &err), UTURN_OK,
                         "n=%llu s=%llu: %s", (unsigned long long)n,
                         (unsigned long long)s, err.message);
            uturn_stats_t st;
            predicted(plan, n, s, &st);
            const uint64_t want = closed_forward(n, s);
            cr_assert_eq(
                st.forward_steps, want, "n=%llu s=%llu: %llu, closed form %llu",
                (unsigned long long)n, (unsigned long long)s,
                (unsigned long long)st.forward_steps, (unsigned long long)want);
            cr_assert_leq(st.peak_slots, s);
            cr_assert_eq(st.restores, n);
            cr_assert_eq(st.frees, st.stores);
            cr_assert_eq(st.actions, 3 * n + 1 + st.stores + st.frees,
                         "n=%llu s=%llu", (unsigned long long)n,
                         (unsigned long long)s);
            uturn_plan_free(plan);
        }
    }
    expect_no_leak(&counts);
}

Test(revolve, reference_numbers)
{
    static const struct {
        uint64_t n, s, forward;
    } ref[]                       = {{100, 5, 320},
                                     {100, 10, 225},
                                     {1000, 10, 3640},
                                     {10000, 20, 37980},
                                     {100000, 50, 375200}};
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        /* The closed form of this file gives the reference numbers too. */
        cr_assert_eq(closed_forward(ref[i].n, ref[i].s), ref[i].forward);
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        cr_assert_eq(revolve(ref[i].n, ref[i].s, &alloc, &plan, &err),
                     UTURN_OK);
        uturn_stats_t st, seen;
        predicted(plan, ref[i].n, ref[i].s, &st);
        cr_assert_eq(st.forward_steps, ref[i].forward, "n=%llu s=%llu: %llu",
                     (unsigned long long)ref[i].n, (unsigned long long)ref[i].s,
                     (unsigned long long)st.forward_steps);
        uturn_stats_init(&seen);
        cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK, "%s",
                     err.message);
        cr_assert_eq(seen.forward_steps, ref[i].forward);
        cr_assert_eq(seen.stores, st.stores);
        cr_assert_eq(seen.peak_slots, st.peak_slots);
        cr_assert_eq(seen.actions, st.actions);
        cr_assert_leq(seen.peak_slots, ref[i].s);
        uturn_plan_free(plan);
    }
    expect_no_leak(&counts);
}

Test(revolve, enough_slots_is_one_sweep)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    static const uint64_t ns[]    = {1, 2, 3, 7, 64, 1000, 123456};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const uint64_t n    = ns[i];
        const uint64_t ss[] = {n, n + 1, 2 * n, n + 1000};
        for (size_t j = 0; j < 4; j++) {
            uturn_plan_t *plan = NULL;
            uturn_error_t err;
            cr_assert_eq(revolve(n, ss[j], &alloc, &plan, &err), UTURN_OK);
            uturn_stats_t st;
            predicted(plan, n, ss[j], &st);
            cr_assert_eq(st.forward_steps, n, "n=%llu s=%llu",
                         (unsigned long long)n, (unsigned long long)ss[j]);
            cr_assert_eq(st.recomputed_steps, 0);
            cr_assert_leq(st.peak_slots, n);
            uturn_plan_free(plan);
        }
    }
    expect_no_leak(&counts);
}

Test(revolve, one_slot_is_quadratic)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    static const uint64_t ns[]    = {1, 2, 3, 10, 999, 100000, 4000000000ull};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const uint64_t n   = ns[i];
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        cr_assert_eq(revolve(n, 1, &alloc, &plan, &err), UTURN_OK);
        uturn_stats_t st;
        predicted(plan, n, 1, &st);
        cr_assert_eq(st.forward_steps, n * (n + 1) / 2, "n=%llu",
                     (unsigned long long)n);
        cr_assert_eq(st.peak_slots, 1);
        cr_assert_eq(st.stores, 1);
        uturn_plan_free(plan);
    }
    expect_no_leak(&counts);
}

/* ---- walks --------------------------------------------------------------- */

Test(revolve, walk_n_1_to_100)
{
    walk_range(1, 100, 40);
}

Test(revolve, walk_n_101_to_200)
{
    walk_range(101, 200, 40);
}

Test(revolve, walk_n_201_to_300)
{
    walk_range(201, 300, 40);
}

Test(revolve, walk_n_301_to_400)
{
    walk_range(301, 400, 40);
}

/* ---- huge n ------------------------------------------------------------ */

Test(revolve, huge_n_exact)
{
    const uint64_t n              = 1000000000000ull;
    static const uint64_t ss[]    = {1, 2, 3, 4, 5, 10, 20, 50, 64, 1000};
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++) {
        const u128 want    = closed_t(n + 1, ss[i]);
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        const uturn_status_t st = revolve(n, ss[i], &alloc, &plan, &err);
        if (want > UINT64_MAX) {
            cr_assert_eq(st, UTURN_E_OVERFLOW, "s=%llu: %s",
                         (unsigned long long)ss[i], uturn_status_name(st));
            cr_assert_null(plan);
            cr_assert_eq(err.status, UTURN_E_OVERFLOW);
            continue;
        }
        cr_assert_eq(st, UTURN_OK, "s=%llu: %s", (unsigned long long)ss[i],
                     err.message);
        uturn_stats_t stats;
        predicted(plan, n, ss[i], &stats);
        cr_assert_eq(stats.forward_steps, (uint64_t)want,
                     "s=%llu: %llu, exact %llu", (unsigned long long)ss[i],
                     (unsigned long long)stats.forward_steps,
                     (unsigned long long)(uint64_t)want);
        cr_assert_leq(stats.peak_slots, ss[i]);
        uturn_plan_free(plan);
    }
    expect_no_leak(&counts);
}

Test(revolve, huge_n_s50_and_s1)
{
    const uint64_t n = 1000000000000ull;
    /* s = 50: r = 12 (C(62,12) >= n+1 > C(61,11)), t = 12(n+1) - C(62,11). */
    const u128 want = (u128)12 * (n + 1) - beta(51, 11);
    cr_assert(beta(50, 11) < (u128)n + 1 && beta(50, 12) >= (u128)n + 1);
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    cr_assert_eq(revolve(n, 50, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    uturn_stats_t st;
    predicted(plan, n, 50, &st);
    cr_assert_eq(st.forward_steps, (uint64_t)want);
    cr_assert_eq(st.recomputed_steps, (uint64_t)want - n);
    uturn_plan_free(plan);

    /* s = 1: n(n+1)/2 is about 5e23 > 2^64. */
    cr_assert((u128)n * (n + 1) / 2 > UINT64_MAX);
    plan = (uturn_plan_t *)&plan; /* must be reset to NULL */
    cr_assert_eq(revolve(n, 1, NULL, &plan, &err), UTURN_E_OVERFLOW);
    cr_assert_null(plan);
    cr_assert_eq(err.status, UTURN_E_OVERFLOW);
    cr_assert_neq(err.message[0], '\0');
}

/* ---- capacity ------------------------------------------------------------ */

Test(revolve, needs_a_capacity)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    cr_assert_eq(p.planner, UTURN_PLANNER_REVOLVE);
    p.steps            = 10;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INVALID_ARG);
    cr_assert_null(plan);
    cr_assert_eq(err.status, UTURN_E_INVALID_ARG);
    cr_assert_neq(err.message[0], '\0');

    /* slot_bytes alone is no capacity either. */
    p.slot_bytes = 64;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INVALID_ARG);
    cr_assert_null(plan);
}

Test(revolve, budget_below_one_slot)
{
    static const uint64_t budgets[] = {1, 63};
    for (size_t i = 0; i < 2; i++) {
        uturn_problem_t p;
        uturn_problem_init(&p);
        p.steps            = 10;
        p.slot_bytes       = 64;
        p.budget_bytes     = budgets[i];
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        uturn_error_init(&err);
        cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err),
                     UTURN_E_INFEASIBLE);
        cr_assert_null(plan);
        cr_assert_eq(err.status, UTURN_E_INFEASIBLE);
        cr_assert_eq(err.minimum_slots, 1);
        cr_assert_eq(err.minimum_bytes, 64);
        cr_assert_neq(err.message[0], '\0');
    }
}

struct budget_case {
    uint64_t n, slot_bytes, budget;
};

Test(revolve, budget_gives_floor_slots)
{
    static const struct budget_case cases[] = {
        {100, 64, 64},  {100, 64, 127},    {100, 64, 128}, {100, 64, 320},
        {100, 64, 383}, {1000, 100, 1099}, {50, 7, 1000},  {1, 8, 8},
        {3, 1, 2},      {400, 3, 100}};
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint64_t s = cases[i].budget / cases[i].slot_bytes;
        uturn_problem_t p;
        uturn_problem_init(&p);
        p.steps            = cases[i].n;
        p.slot_bytes       = cases[i].slot_bytes;
        p.budget_bytes     = cases[i].budget;
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        uturn_error_init(&err);
        cr_assert_eq(uturn_plan_create(&p, &alloc, &plan, &err), UTURN_OK, "%s",
                     err.message);
        uturn_stats_t st, seen;
        uturn_stats_init(&st);
        cr_assert_eq(uturn_plan_stats(plan, &st), UTURN_OK);
        cr_assert_eq(st.slots, s, "case %zu: slots %llu", i,
                     (unsigned long long)st.slots);
        cr_assert_eq(st.slot_bytes, cases[i].slot_bytes);
        cr_assert_eq(st.budget_bytes, cases[i].budget);
        cr_assert_eq(st.forward_steps, closed_forward(cases[i].n, s));
        cr_assert_eq(st.peak_bytes, st.peak_slots * cases[i].slot_bytes);
        cr_assert_leq(st.peak_bytes, cases[i].budget);
        uturn_problem_t resolved;
        uturn_problem_init(&resolved);
        cr_assert_eq(uturn_plan_problem(plan, &resolved), UTURN_OK);
        cr_assert_eq(resolved.slots, s);
        uturn_stats_init(&seen);
        cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK, "%s",
                     err.message);
        cr_assert_eq(seen.peak_bytes, st.peak_bytes);
        cr_assert_eq(seen.peak_slots, st.peak_slots);
        cr_assert_leq(seen.peak_bytes, cases[i].budget);
        uturn_plan_free(plan);
    }
    expect_no_leak(&counts);
}

Test(revolve, bad_arguments)
{
    uturn_problem_t p;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;

    uturn_problem_init(&p); /* zero steps */
    p.slots = 3;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_E_INVALID_ARG);

    uturn_problem_init(&p); /* slots and budget both */
    p.steps        = 10;
    p.slots        = 3;
    p.slot_bytes   = 8;
    p.budget_bytes = 100;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INVALID_ARG);
    cr_assert_null(plan);

    uturn_problem_init(&p); /* budget without slot_bytes */
    p.steps        = 10;
    p.budget_bytes = 100;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INVALID_ARG);

    uturn_problem_init(&p); /* a stride is for periodic only */
    p.steps  = 10;
    p.slots  = 3;
    p.stride = 2;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INVALID_ARG);
    cr_assert_null(plan);

    cr_assert_eq(uturn_plan_create(NULL, NULL, &plan, &err),
                 UTURN_E_INVALID_ARG);
    uturn_problem_init(&p);
    p.steps = 10;
    p.slots = 3;
    cr_assert_eq(uturn_plan_create(&p, NULL, NULL, &err), UTURN_E_INVALID_ARG);
}

/* Every failure, including an out-of-memory in the middle, leaves nothing
 * allocated. */
Test(revolve, allocation_failures_leak_nothing)
{
    for (uint64_t fail = 1; fail <= 4; fail++) {
        counting_alloc_t counts       = {0};
        counts.fail_at                = fail;
        const uturn_allocator_t alloc = counting_allocator(&counts);
        uturn_plan_t *plan            = NULL;
        uturn_error_t err;
        const uturn_status_t st = revolve(50, 4, &alloc, &plan, &err);
        if (st == UTURN_OK) {
            uturn_stats_t seen;
            uturn_stats_init(&seen);
            const uturn_status_t w = uturn_plan_walk(plan, &seen, &err);
            cr_assert(w == UTURN_OK || w == UTURN_E_NOMEM, "%s",
                      uturn_status_name(w));
            uturn_plan_free(plan);
        } else {
            cr_assert_eq(st, UTURN_E_NOMEM);
            cr_assert_null(plan);
        }
        expect_no_leak(&counts);
    }
}
