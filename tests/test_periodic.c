/*
 * periodic, sqrt and store-all against the closed forms of docs/model.md
 * section 4, written out here, and the slot-budget stride choice against a
 * brute-force search over every stride.
 *
 * The textbook scheme stores every interior state of a replayed segment:
 * peak_slots = max(m + L - 1, m + k - 2) for m >= 2. The library stores
 * one state less per replayed segment (its last state is reversed the
 * moment the replay reaches it), so it reaches max(m + L - 1, m + k - 3);
 * the tests hold it to that, never above the textbook value, and equal to
 * it whenever L >= k - 1.
 */
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

__extension__ typedef unsigned __int128 u128;

#define ULL(x) ((unsigned long long)(x))

/* ---- independent truth ------------------------------------------------ */

static uint64_t segs(uint64_t n, uint64_t k)
{
    return n / k + (n % k != 0); /* no n + k - 1: n may be 2^64 - 1 */
}

static uint64_t last_len(uint64_t n, uint64_t k)
{
    return n - (segs(n, k) - 1) * k;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static uint64_t want_forward(uint64_t n, uint64_t k)
{
    return n + (segs(n, k) - 1) * (k - 1);
}

/* The library's contract: max(m + L - 1, m + k - 3), n when m = 1. */
static uint64_t want_peak(uint64_t n, uint64_t k)
{
    const uint64_t m = segs(n, k), L = last_len(n, k);
    if (m == 1)
        return n;
    return max_u64(m + L - 1, m + k - 3); /* m >= 2, k >= 1: no wrap */
}

/* The textbook scheme: max(m + L - 1, m + k - 2). */
static uint64_t design_peak(uint64_t n, uint64_t k)
{
    const uint64_t m = segs(n, k), L = last_len(n, k);
    if (m == 1)
        return n;
    return max_u64(m + L - 1, m + k - 2);
}

/* ceil(sqrt(n)) with integers only. */
static uint64_t ceil_sqrt(uint64_t n)
{
    uint64_t lo = 0, hi = 1ull << 32; /* hi^2 >= every uint64 n */
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if ((u128)mid * mid >= n)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* ---- helpers ------------------------------------------------------------ */

static void expect_no_leak(const counting_alloc_t *c)
{
    cr_assert_eq(c->live_blocks, 0, "%llu blocks leaked", ULL(c->live_blocks));
    cr_assert_eq(c->size_mismatches, 0);
}

static uturn_status_t make(uturn_planner_t planner, uint64_t n, uint64_t slots,
                           uint64_t stride, const uturn_allocator_t *alloc,
                           uturn_plan_t **plan, uturn_error_t *err)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = planner;
    p.steps   = n;
    p.slots   = slots;
    p.stride  = stride;
    uturn_error_init(err);
    return uturn_plan_create(&p, alloc, plan, err);
}

static void get_stats(const uturn_plan_t *plan, uturn_stats_t *st)
{
    uturn_stats_init(st);
    cr_assert_eq(uturn_plan_stats(plan, st), UTURN_OK);
}

static uint64_t chosen_stride(const uturn_plan_t *plan)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    cr_assert_eq(uturn_plan_problem(plan, &p), UTURN_OK);
    return p.stride;
}

/* Walk plan; observed counts must equal the predicted ones. */
static void walk_equals_stats(const uturn_plan_t *plan, const char *what,
                              uint64_t n, uint64_t k)
{
    uturn_stats_t pred, seen;
    uturn_error_t err;
    get_stats(plan, &pred);
    uturn_stats_init(&seen);
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK,
                 "%s n=%llu k=%llu: %s", what, ULL(n), ULL(k), err.message);
#define SAME(field)                                                            \
    cr_assert_eq(seen.field, pred.field,                                       \
                 "%s n=%llu k=%llu " #field ": seen %llu predicted %llu",      \
                 what, ULL(n), ULL(k), ULL(seen.field), ULL(pred.field))
    SAME(steps);
    SAME(forward_steps);
    SAME(recomputed_steps);
    SAME(reverse_steps);
    SAME(stores);
    SAME(restores);
    SAME(frees);
    SAME(peak_slots);
    SAME(peak_bytes);
    SAME(actions);
#undef SAME
}

/* Two plans produce the same action stream, action for action. */
static void same_stream(const uturn_plan_t *a, const uturn_plan_t *b,
                        uint64_t n)
{
    uturn_cursor_t *ca = NULL, *cb = NULL;
    cr_assert_eq(uturn_cursor_create(a, NULL, &ca), UTURN_OK);
    cr_assert_eq(uturn_cursor_create(b, NULL, &cb), UTURN_OK);
    uturn_action_t x, y;
    uint64_t index = 0;
    for (;;) {
        memset(&x, 0, sizeof x);
        memset(&y, 0, sizeof y);
        const bool more_a = uturn_cursor_next(ca, &x);
        const bool more_b = uturn_cursor_next(cb, &y);
        cr_assert_eq(more_a, more_b, "n=%llu: lengths differ at %llu", ULL(n),
                     ULL(index));
        if (!more_a)
            break;
        cr_assert(x.op == y.op && x.step == y.step &&
                      x.step_end == y.step_end && x.slot == y.slot,
                  "n=%llu action %llu differs: op %d %llu %llu %llu vs op %d "
                  "%llu %llu %llu",
                  ULL(n), ULL(index), (int)x.op, ULL(x.step), ULL(x.step_end),
                  ULL(x.slot), (int)y.op, ULL(y.step), ULL(y.step_end),
                  ULL(y.slot));
        index++;
    }
    cr_assert_gt(index, 0);
    uturn_cursor_free(ca);
    uturn_cursor_free(cb);
}

/* ---- periodic with a stride ---------------------------------------------- */

/* Every stride of every n in [lo, hi]: counts, closed forms and a walk. */
static void stride_range(uint64_t lo, uint64_t hi)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = lo; n <= hi; n++) {
        for (uint64_t k = 1; k <= n; k++) {
            uturn_plan_t *plan = NULL;
            uturn_error_t err;
            cr_assert_eq(
                make(UTURN_PLANNER_PERIODIC, n, 0, k, &alloc, &plan, &err),
                UTURN_OK, "n=%llu k=%llu: %s", ULL(n), ULL(k), err.message);
            uturn_stats_t st;
            get_stats(plan, &st);
            const uint64_t fwd = want_forward(n, k), peak = want_peak(n, k);
            cr_assert_eq(st.forward_steps, fwd, "n=%llu k=%llu: %llu vs %llu",
                         ULL(n), ULL(k), ULL(st.forward_steps), ULL(fwd));
            cr_assert_eq(st.peak_slots, peak, "n=%llu k=%llu: %llu vs %llu",
                         ULL(n), ULL(k), ULL(st.peak_slots), ULL(peak));
            cr_assert_eq(st.steps, n);
            cr_assert_eq(st.reverse_steps, n);
            cr_assert_eq(st.recomputed_steps, fwd - n);
            /* No capacity given: the plan gets exactly what it uses. */
            cr_assert_eq(st.slots, peak, "n=%llu k=%llu", ULL(n), ULL(k));
            cr_assert_eq(chosen_stride(plan), k);
            /* Never above the textbook value; equal when L >= k - 1. */
            cr_assert_leq(st.peak_slots, design_peak(n, k));
            if (last_len(n, k) + 1 >= k)
                cr_assert_eq(st.peak_slots, design_peak(n, k), "n=%llu k=%llu",
                             ULL(n), ULL(k));
            walk_equals_stats(plan, "periodic", n, k);
            uturn_plan_free(plan);
        }
    }
    expect_no_leak(&counts);
}

Test(periodic, strides_n_1_to_120)
{
    stride_range(1, 120);
}

Test(periodic, strides_n_121_to_200)
{
    stride_range(121, 200);
}

Test(periodic, strides_n_201_to_260)
{
    stride_range(201, 260);
}

Test(periodic, strides_n_261_to_300)
{
    stride_range(261, 300);
}

Test(periodic, hand_checked_examples)
{
    static const struct {
        uint64_t n, k, peak, design, forward;
    } cases[] = {
        {40, 4, 13, 13, 67},  /* docs/model.md's example */
        {8, 5, 4, 5, 12},     /* L = 3 < k - 1: one slot below the textbook */
        {10, 5, 6, 6, 14},    /* L = k */
        {10, 10, 10, 10, 10}, /* m = 1 stores every state */
        {10, 1, 10, 10, 10},  /* stride 1 is store-all */
        {100, 10, 19, 19, 181}, {101, 10, 18, 19, 191}, /* m = 11, L = 1 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_assert_eq(want_peak(cases[i].n, cases[i].k), cases[i].peak);
        cr_assert_eq(design_peak(cases[i].n, cases[i].k), cases[i].design);
        cr_assert_eq(want_forward(cases[i].n, cases[i].k), cases[i].forward);
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        cr_assert_eq(make(UTURN_PLANNER_PERIODIC, cases[i].n, 0, cases[i].k,
                          NULL, &plan, &err),
                     UTURN_OK);
        uturn_stats_t seen;
        uturn_stats_init(&seen);
        cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK);
        cr_assert_eq(seen.peak_slots, cases[i].peak, "case %zu: %llu", i,
                     ULL(seen.peak_slots));
        cr_assert_eq(seen.forward_steps, cases[i].forward);
        uturn_plan_free(plan);
    }
}

Test(periodic, large_n_counts)
{
    static const struct {
        uint64_t n, k;
    } cases[] = {{1000, 31},
                 {4097, 64},
                 {4097, 65},
                 {100000, 317},
                 {1000000000ull, 31623},
                 {1000000000000ull, 1000000ull}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint64_t n = cases[i].n, k = cases[i].k;
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        cr_assert_eq(make(UTURN_PLANNER_PERIODIC, n, 0, k, NULL, &plan, &err),
                     UTURN_OK, "%s", err.message);
        uturn_stats_t st;
        get_stats(plan, &st);
        cr_assert_eq(st.forward_steps, want_forward(n, k));
        cr_assert_eq(st.peak_slots, want_peak(n, k));
        if (n <= 100000)
            walk_equals_stats(plan, "periodic", n, k);
        uturn_plan_free(plan);
    }
}

Test(periodic, bad_strides)
{
    static const uint64_t ns[] = {1, 2, 10, 300};
    uturn_plan_t *plan         = NULL;
    uturn_error_t err;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const uint64_t n = ns[i];
        /* stride 0 means "choose", which needs a capacity */
        cr_assert_eq(make(UTURN_PLANNER_PERIODIC, n, 0, 0, NULL, &plan, &err),
                     UTURN_E_INVALID_ARG, "n=%llu", ULL(n));
        cr_assert_null(plan);
        cr_assert_eq(err.status, UTURN_E_INVALID_ARG);
        cr_assert_eq(
            make(UTURN_PLANNER_PERIODIC, n, 0, n + 1, NULL, &plan, &err),
            UTURN_E_INVALID_ARG, "n=%llu", ULL(n));
        cr_assert_null(plan);
        cr_assert_eq(
            make(UTURN_PLANNER_PERIODIC, n, n + 5, n + 1, NULL, &plan, &err),
            UTURN_E_INVALID_ARG, "n=%llu", ULL(n));
        cr_assert_eq(
            make(UTURN_PLANNER_PERIODIC, n, 0, UINT64_MAX, NULL, &plan, &err),
            UTURN_E_INVALID_ARG, "n=%llu", ULL(n));
        cr_assert_null(plan);
        /* a stride given to another planner */
        static const uturn_planner_t others[] = {
            UTURN_PLANNER_STORE_ALL, UTURN_PLANNER_SQRT, UTURN_PLANNER_REVOLVE};
        for (size_t j = 0; j < 3; j++) {
            cr_assert_eq(make(others[j], n, n, 1, NULL, &plan, &err),
                         UTURN_E_INVALID_ARG, "n=%llu planner %d", ULL(n),
                         (int)others[j]);
            cr_assert_null(plan);
            cr_assert_neq(err.message[0], '\0');
        }
    }
}

/* A fixed stride with a capacity below its peak names the peak. */
Test(periodic, stride_with_too_few_slots)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = 1; n <= 60; n++) {
        for (uint64_t k = 1; k <= n; k++) {
            const uint64_t peak = want_peak(n, k);
            uturn_plan_t *plan  = NULL;
            uturn_error_t err;
            if (peak > 1) {
                cr_assert_eq(make(UTURN_PLANNER_PERIODIC, n, peak - 1, k,
                                  &alloc, &plan, &err),
                             UTURN_E_INFEASIBLE, "n=%llu k=%llu", ULL(n),
                             ULL(k));
                cr_assert_null(plan);
                cr_assert_eq(err.minimum_slots, peak, "n=%llu k=%llu: %llu",
                             ULL(n), ULL(k), ULL(err.minimum_slots));
            }
            cr_assert_eq(
                make(UTURN_PLANNER_PERIODIC, n, peak, k, &alloc, &plan, &err),
                UTURN_OK, "n=%llu k=%llu: %s", ULL(n), ULL(k), err.message);
            uturn_stats_t st;
            get_stats(plan, &st);
            cr_assert_eq(st.slots, peak);
            cr_assert_eq(chosen_stride(plan), k);
            uturn_plan_free(plan);
            cr_assert_eq(make(UTURN_PLANNER_PERIODIC, n, peak + 7, k, &alloc,
                              &plan, &err),
                         UTURN_OK);
            get_stats(plan, &st);
            cr_assert_eq(st.slots, peak + 7, "capacity, not the peak");
            cr_assert_eq(st.peak_slots, peak);
            uturn_plan_free(plan);
        }
    }
    expect_no_leak(&counts);
}

/* ---- sqrt -----------------------------------------------------------------
 */

Test(sqrt, is_periodic_with_ceil_sqrt_stride)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = 1; n <= 300; n++) {
        const uint64_t k = ceil_sqrt(n);
        cr_assert(k * k >= n && (k - 1) * (k - 1) < n);
        uturn_plan_t *sq = NULL, *per = NULL;
        uturn_error_t err;
        cr_assert_eq(make(UTURN_PLANNER_SQRT, n, 0, 0, &alloc, &sq, &err),
                     UTURN_OK, "n=%llu: %s", ULL(n), err.message);
        cr_assert_eq(make(UTURN_PLANNER_PERIODIC, n, 0, k, &alloc, &per, &err),
                     UTURN_OK);
        cr_assert_eq(chosen_stride(sq), k, "n=%llu: stride %llu", ULL(n),
                     ULL(chosen_stride(sq)));
        uturn_stats_t a, b;
        get_stats(sq, &a);
        get_stats(per, &b);
        cr_assert_eq(a.forward_steps, want_forward(n, k));
        cr_assert_eq(a.peak_slots, want_peak(n, k));
        cr_assert_eq(a.forward_steps, b.forward_steps);
        cr_assert_eq(a.stores, b.stores);
        cr_assert_eq(a.actions, b.actions);
        same_stream(sq, per, n);
        walk_equals_stats(sq, "sqrt", n, k);
        uturn_plan_free(sq);
        uturn_plan_free(per);
    }
    expect_no_leak(&counts);
}

Test(sqrt, large_n)
{
    static const uint64_t ns[] = {1000000ull, 999999ull, 1000001ull,
                                  1000000000000ull, 18446744073709551615ull};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const uint64_t n = ns[i], k = ceil_sqrt(n);
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        const uturn_status_t st =
            make(UTURN_PLANNER_SQRT, n, 0, 0, NULL, &plan, &err);
        const u128 fwd = (u128)n + (u128)(segs(n, k) - 1) * (k - 1);
        if (fwd > UINT64_MAX) {
            cr_assert_eq(st, UTURN_E_OVERFLOW, "n=%llu: %s", ULL(n),
                         uturn_status_name(st));
            continue;
        }
        cr_assert_eq(st, UTURN_OK, "n=%llu: %s", ULL(n), err.message);
        uturn_stats_t s;
        get_stats(plan, &s);
        cr_assert_eq(chosen_stride(plan), k);
        cr_assert_eq(s.forward_steps, (uint64_t)fwd);
        cr_assert_eq(s.peak_slots, want_peak(n, k));
        uturn_plan_free(plan);
    }
}

Test(sqrt, capacity_below_its_peak)
{
    const uint64_t n = 100, k = 10, peak = want_peak(n, k);
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    cr_assert_eq(make(UTURN_PLANNER_SQRT, n, peak - 1, 0, NULL, &plan, &err),
                 UTURN_E_INFEASIBLE);
    cr_assert_null(plan);
    cr_assert_eq(err.minimum_slots, peak);
    cr_assert_eq(make(UTURN_PLANNER_SQRT, n, peak, 0, NULL, &plan, &err),
                 UTURN_OK);
    uturn_plan_free(plan);
}

/* ---- store-all ------------------------------------------------------------
 */

Test(store_all, counts_walk_and_stream)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = 1; n <= 300; n++) {
        uturn_plan_t *all = NULL, *per = NULL;
        uturn_error_t err;
        cr_assert_eq(make(UTURN_PLANNER_STORE_ALL, n, 0, 0, &alloc, &all, &err),
                     UTURN_OK, "n=%llu: %s", ULL(n), err.message);
        uturn_stats_t st;
        get_stats(all, &st);
        cr_assert_eq(st.forward_steps, n);
        cr_assert_eq(st.recomputed_steps, 0);
        cr_assert_eq(st.peak_slots, n);
        cr_assert_eq(st.stores, n);
        cr_assert_eq(st.restores, n);
        cr_assert_eq(st.frees, n);
        cr_assert_eq(st.reverse_steps, n);
        cr_assert_eq(st.actions, 5 * n + 1);
        cr_assert_eq(st.slots, n);
        walk_equals_stats(all, "store-all", n, 0);
        cr_assert_eq(make(UTURN_PLANNER_PERIODIC, n, 0, 1, &alloc, &per, &err),
                     UTURN_OK);
        same_stream(all, per, n);
        uturn_plan_free(all);
        uturn_plan_free(per);
    }
    expect_no_leak(&counts);
}

Test(store_all, needs_n_slots)
{
    static const uint64_t ns[] = {1, 2, 5, 300, 1000000};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const uint64_t n   = ns[i];
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        if (n > 1) {
            cr_assert_eq(
                make(UTURN_PLANNER_STORE_ALL, n, n - 1, 0, NULL, &plan, &err),
                UTURN_E_INFEASIBLE, "n=%llu", ULL(n));
            cr_assert_null(plan);
            cr_assert_eq(err.minimum_slots, n);
        }
        cr_assert_eq(make(UTURN_PLANNER_STORE_ALL, n, n, 0, NULL, &plan, &err),
                     UTURN_OK);
        uturn_plan_free(plan);
        cr_assert_eq(
            make(UTURN_PLANNER_STORE_ALL, n, n + 3, 0, NULL, &plan, &err),
            UTURN_OK);
        uturn_stats_t st;
        get_stats(plan, &st);
        cr_assert_eq(st.slots, n + 3);
        cr_assert_eq(st.peak_slots, n);
        uturn_plan_free(plan);
    }
    /* By budget: one byte short of n slots. */
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_STORE_ALL;
    p.steps            = 10;
    p.slot_bytes       = 16;
    p.budget_bytes     = 159;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INFEASIBLE);
    cr_assert_eq(err.minimum_slots, 10);
    cr_assert_eq(err.minimum_bytes, 160);
    p.budget_bytes = 160;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK);
    uturn_stats_t st;
    get_stats(plan, &st);
    cr_assert_eq(st.peak_bytes, 160);
    uturn_plan_free(plan);
}

/* ---- stride choice from a slot capacity ---------------------------------- */

struct brute {
    uint64_t *peak, *fwd;
};

/* The best stride for s slots by trying every k; 0 when none fits. */
static uint64_t brute_choose(const struct brute *b, uint64_t n, uint64_t s)
{
    uint64_t best = 0;
    for (uint64_t k = 1; k <= n; k++) {
        if (b->peak[k] > s)
            continue;
        if (best == 0 || b->fwd[k] < b->fwd[best] ||
            (b->fwd[k] == b->fwd[best] && b->peak[k] < b->peak[best]))
            best = k; /* k ascends: on a full tie the smaller k stays */
    }
    return best;
}

static void choose_check(uint64_t n, uint64_t s_step,
                         const uturn_allocator_t *alloc)
{
    struct brute b;
    b.peak = calloc(n + 1, sizeof *b.peak);
    b.fwd  = calloc(n + 1, sizeof *b.fwd);
    cr_assert(b.peak != NULL && b.fwd != NULL);
    uint64_t least = UINT64_MAX;
    for (uint64_t k = 1; k <= n; k++) {
        b.peak[k] = want_peak(n, k);
        b.fwd[k]  = want_forward(n, k);
        if (b.peak[k] < least)
            least = b.peak[k];
    }
    for (uint64_t s = 1; s <= n + 1; s += (s < 2 * least + 2 ? 1 : s_step)) {
        const uint64_t want = brute_choose(&b, n, s);
        uturn_plan_t *plan  = NULL;
        uturn_error_t err;
        const uturn_status_t st =
            make(UTURN_PLANNER_PERIODIC, n, s, 0, alloc, &plan, &err);
        if (want == 0) {
            cr_assert_eq(st, UTURN_E_INFEASIBLE, "n=%llu s=%llu: %s", ULL(n),
                         ULL(s), uturn_status_name(st));
            cr_assert_null(plan);
            cr_assert_eq(err.minimum_slots, least,
                         "n=%llu s=%llu: minimum %llu, brute force %llu",
                         ULL(n), ULL(s), ULL(err.minimum_slots), ULL(least));
            cr_assert_neq(err.message[0], '\0');
            continue;
        }
        cr_assert_eq(st, UTURN_OK, "n=%llu s=%llu: %s", ULL(n), ULL(s),
                     err.message);
        const uint64_t got = chosen_stride(plan);
        cr_assert_eq(got, want,
                     "n=%llu s=%llu: stride %llu (fwd %llu peak %llu), brute "
                     "force %llu (fwd %llu peak %llu)",
                     ULL(n), ULL(s), ULL(got),
                     ULL(got >= 1 && got <= n ? b.fwd[got] : 0),
                     ULL(got >= 1 && got <= n ? b.peak[got] : 0), ULL(want),
                     ULL(b.fwd[want]), ULL(b.peak[want]));
        uturn_stats_t stats;
        get_stats(plan, &stats);
        cr_assert_eq(stats.slots, s);
        cr_assert_eq(stats.forward_steps, b.fwd[want]);
        cr_assert_eq(stats.peak_slots, b.peak[want]);
        cr_assert_leq(stats.peak_slots, s);
        uturn_plan_free(plan);
    }
    free(b.peak);
    free(b.fwd);
}

Test(periodic_choose, every_capacity_n_1_to_150)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = 1; n <= 150; n++)
        choose_check(n, 1, &alloc);
    expect_no_leak(&counts);
}

Test(periodic_choose, every_capacity_n_151_to_300)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = 151; n <= 300; n++)
        choose_check(n, 1, &alloc);
    expect_no_leak(&counts);
}

Test(periodic_choose, larger_n)
{
    static const uint64_t ns[] = {1000, 1024, 4096, 4097, 10007};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        choose_check(ns[i], 1, NULL);
}

/* The choice walks valid too (a few capacities per n). */
Test(periodic_choose, chosen_plans_walk)
{
    for (uint64_t n = 1; n <= 120; n++) {
        for (uint64_t s = 1; s <= n + 1; s++) {
            uturn_plan_t *plan = NULL;
            uturn_error_t err;
            if (make(UTURN_PLANNER_PERIODIC, n, s, 0, NULL, &plan, &err) !=
                UTURN_OK)
                continue;
            walk_equals_stats(plan, "chosen", n, chosen_stride(plan));
            uturn_plan_free(plan);
        }
    }
}

Test(periodic_choose, by_budget)
{
    /* 100 steps of 24 bytes: the budget buys floor(budget / 24) slots. */
    static const uint64_t budgets[] = {24 * 19, 24 * 19 + 23, 24 * 30, 24 * 100,
                                       24 * 101};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
        uturn_problem_t p;
        uturn_problem_init(&p);
        p.planner          = UTURN_PLANNER_PERIODIC;
        p.steps            = 100;
        p.slot_bytes       = 24;
        p.budget_bytes     = budgets[i];
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        uturn_error_init(&err);
        cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK, "%s",
                     err.message);
        uturn_stats_t st;
        get_stats(plan, &st);
        cr_assert_eq(st.slots, budgets[i] / 24);
        cr_assert_eq(st.peak_bytes, st.peak_slots * 24);
        cr_assert_leq(st.peak_bytes, budgets[i]);
        uturn_plan_free(plan);
    }
    /* Below the least peak of any stride (18 for n = 100: k = 9 or 10). */
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_PERIODIC;
    p.steps        = 100;
    p.slot_bytes   = 24;
    p.budget_bytes = 24 * 18 - 1;
    uint64_t least = UINT64_MAX;
    for (uint64_t k = 1; k <= 100; k++)
        if (want_peak(100, k) < least)
            least = want_peak(100, k);
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(least, 18);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INFEASIBLE);
    cr_assert_eq(err.minimum_slots, least);
    cr_assert_eq(err.minimum_bytes, least * 24);
}
