/*
 * dp at the sizes real chains have: the regressions of issue 12 ("what was
 * seen"), asserted as work and memory (never time), and the approximate
 * planner's contract (valid plans within the budget, a cost no lower than
 * the exact optimum, a certified bound no higher). White-box where a count
 * the API does not show is needed (schedules/dp.h).
 */
#include "counting_alloc.h"
#include "dp.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

/* An allocator that records the largest block and the peak of live bytes
 * (counting_alloc.h records neither). */
struct tracking {
    uint64_t live, peak, largest, blocks;
};

static void *track_alloc(void *user, size_t size)
{
    struct tracking *t = user;
    void *p            = malloc(size);
    if (p == NULL)
        return NULL;
    t->live += size;
    t->blocks += 1;
    t->peak    = t->live > t->peak ? t->live : t->peak;
    t->largest = size > t->largest ? size : t->largest;
    return p;
}

static void track_free(void *user, void *ptr, size_t size)
{
    struct tracking *t = user;
    t->live -= size;
    t->blocks -= 1;
    free(ptr);
}

static uturn_allocator_t tracker(struct tracking *t)
{
    memset(t, 0, sizeof *t);
    return (uturn_allocator_t){track_alloc, track_free, t};
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uturn_problem_t dp_problem(uint64_t n)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_DP;
    p.steps   = n;
    return p;
}

/* Walk the plan: valid, within its budget, counts as predicted. */
static uturn_stats_t checked(const uturn_plan_t *plan, uint64_t budget)
{
    uturn_stats_t pred, seen;
    uturn_stats_init(&pred);
    uturn_stats_init(&seen);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_stats(plan, &pred), UTURN_OK);
    cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK, "walk: %s",
                 err.message);
    cr_assert_eq(seen.forward_steps, pred.forward_steps);
    cr_assert_eq(seen.forward_cost, pred.forward_cost);
    cr_assert_eq(seen.actions, pred.actions);
    cr_assert_eq(seen.peak_slots, pred.peak_slots);
    cr_assert_eq(seen.reverse_steps, pred.steps);
    if (budget != 0)
        cr_assert_leq(seen.peak_bytes, budget);
    cr_assert_leq(pred.lower_bound_cost, pred.forward_cost,
                  "bound %llu above the plan's cost %llu",
                  (unsigned long long)pred.lower_bound_cost,
                  (unsigned long long)pred.forward_cost);
    return pred;
}

/* ---- what was seen --------------------------------------------------------
 */

/* n = 1000 uniform 1-byte states, 1000-byte budget: store-all fits, so the
 * optimum is one sweep (it used to pick a 2-byte unit and return 1500). */
Test(dp_scale, auto_unit_keeps_the_optimum)
{
    uturn_problem_t p  = dp_problem(1000);
    p.slot_bytes       = 1;
    p.budget_bytes     = 1000;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    const uturn_stats_t s = checked(plan, 1000);
    cr_assert_eq(s.forward_steps, 1000);
    cr_assert(s.exact);
    cr_assert_eq(s.unit_bytes, 1);
    cr_assert_eq(s.lower_bound_cost, 1000);
    uturn_plan_free(plan);
}

/* The gcd unit with a budget below store-all: sizes that share a factor
 * of 3 are planned at 3 bytes a unit, exactly. */
Test(dp_scale, auto_unit_is_the_gcd)
{
    uint64_t bytes[60], costs[60], rng = 5;
    for (int i = 0; i < 60; i++) {
        bytes[i] = 3 * (1 + next_random(&rng) % 8);
        costs[i] = 1 + next_random(&rng) % 10;
    }
    uturn_problem_t p  = dp_problem(60);
    p.slot_bytes       = 24;
    p.budget_bytes     = 200;
    p.step_bytes       = bytes;
    p.step_costs       = costs;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    const uturn_stats_t s = checked(plan, 200);
    cr_assert(s.exact);
    cr_assert_eq(s.unit_bytes, 3);
    cr_assert_eq(s.lower_bound_cost, s.forward_cost);
    uturn_plan_free(plan);
}

/* n = 200, budget 1 MiB, 1-byte states (it took 28.7 s and 1.05 GB for
 * store-all): the plan and everything allocated are those of a budget of
 * exactly store-all's need, 200 bytes. */
Test(dp_scale, generous_budget_costs_no_more_than_store_all)
{
    struct tracking big, need;
    uturn_allocator_t a_big = tracker(&big), a_need = tracker(&need);
    uturn_problem_t p      = dp_problem(200);
    p.slot_bytes           = 1;
    p.budget_bytes         = 1024 * 1024;
    uturn_plan_t *plan_big = NULL, *plan_need = NULL;
    cr_assert_eq(uturn_plan_create(&p, &a_big, &plan_big, NULL), UTURN_OK);
    p.budget_bytes = 200;
    cr_assert_eq(uturn_plan_create(&p, &a_need, &plan_need, NULL), UTURN_OK);
    cr_assert_leq(big.peak, need.peak,
                  "1 MiB budget: peak %llu bytes, "
                  "store-all's budget: %llu",
                  (unsigned long long)big.peak, (unsigned long long)need.peak);
    cr_assert_leq(big.largest, need.largest);
    cr_assert_lt(big.largest, 64 * 1024, "a block of %llu bytes",
                 (unsigned long long)big.largest);
    const uturn_stats_t s = checked(plan_big, 0);
    cr_assert_eq(s.forward_steps, 200);
    cr_assert_eq(s.peak_bytes, 200);
    uturn_plan_free(plan_big);
    uturn_plan_free(plan_need);
    cr_assert_eq(big.blocks, 0);
    cr_assert_eq(need.blocks, 0);
}

/* Prepare dp on a problem without going through uturn_plan_create, so the
 * plan (and the dp data, with its counters) survives a refusal. */
static uturn_status_t prepare(const uturn_problem_t *p,
                              const uturn_allocator_t *alloc,
                              uturn_plan_t **plan, uturn_error_t *err)
{
    cr_assert_eq(uturn__plan_new(alloc, plan, err), UTURN_OK);
    cr_assert_eq(uturn__problem_resolve(p, &(*plan)->problem,
                                        &(*plan)->has_capacity, err),
                 UTURN_OK);
    (*plan)->planner = &uturn__dp;
    return uturn__dp.prepare(*plan, err);
}

static void refused_without_a_step_loop(uint64_t n, uturn_dp_mode_t mode)
{
    struct tracking t;
    const uturn_allocator_t a = tracker(&t);
    uturn_problem_t p         = dp_problem(n);
    p.slots                   = 3;
    p.dp_mode                 = mode;
    uturn_plan_t *plan        = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(prepare(&p, &a, &plan, &err), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(err.message, "table_bytes"), "%s", err.message);
    const struct uturn__dp *dp = plan->data;
    cr_assert_not_null(dp);
    cr_assert_eq(dp->work.step_loops, 0, "%llu steps visited",
                 (unsigned long long)dp->work.step_loops);
    cr_assert_lt(t.peak, 16 * 1024, "%llu bytes held",
                 (unsigned long long)t.peak);
    uturn_plan_free(plan);
    cr_assert_eq(t.blocks, 0);
    /* Through the public call too. */
    plan = (uturn_plan_t *)&plan;
    cr_assert_eq(uturn_plan_create(&p, &a, &plan, NULL), UTURN_E_UNSUPPORTED);
    cr_assert_null(plan);
    cr_assert_lt(t.peak, 16 * 1024);
}

/* --steps 9223372036854775807 --slots 3 looped over every step before any
 * limit check; 10^10 steps took 26 s to be refused. */
Test(dp_scale, absurd_steps_are_refused_at_once, .timeout = 60)
{
    refused_without_a_step_loop(9223372036854775807ull, UTURN_DP_AUTO);
    refused_without_a_step_loop(10000000000ull, UTURN_DP_AUTO);
    refused_without_a_step_loop(UINT64_MAX, UTURN_DP_APPROXIMATE);
}

/* The exact table alone asked for (dp_mode exact), with steps few enough
 * for the approximate planner: still refused before any per-step loop. */
Test(dp_scale, exact_table_out_of_reach_is_refused_at_once)
{
    refused_without_a_step_loop(1000000, UTURN_DP_EXACT);
    refused_without_a_step_loop(100000, UTURN_DP_EXACT);
}

/* ---- the modes --------------------------------------------------------------
 */

Test(dp_scale, unknown_mode_is_invalid)
{
    uturn_problem_t p = dp_problem(10);
    p.slots           = 3;
    p.dp_mode         = (uturn_dp_mode_t)7;
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "dp_mode"), "%s", err.message);
}

/* A table that passes table_bytes: refused in exact mode, approximate in
 * automatic mode (and the stats say so). */
Test(dp_scale, small_limit_goes_approximate)
{
    uturn_problem_t p = dp_problem(300);
    p.slots           = 40;
    p.table_bytes     = 4 * 1024 * 1024;
    p.dp_mode         = UTURN_DP_EXACT;
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(err.message, "table_bytes"), "%s", err.message);
    p.dp_mode = UTURN_DP_AUTO;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    const uturn_stats_t s = checked(plan, 0);
    cr_assert(!s.exact);
    cr_assert_leq(s.lower_bound_cost, s.forward_cost);
    const struct uturn__dp *dp = plan->data;
    cr_assert_leq(dp->work.table_bytes, p.table_bytes);
    uturn_plan_free(plan);
}

/* ---- the approximate planner against the exact one ------------------------
 */

struct chain {
    uint64_t n, budget;
    uint64_t *bytes, *costs;
};

static struct chain random_chain(uint64_t seed, uint64_t n, double share)
{
    struct chain c = {.n = n};
    c.bytes        = malloc(n * sizeof *c.bytes);
    c.costs        = malloc(n * sizeof *c.costs);
    cr_assert(c.bytes && c.costs);
    uint64_t all = 0;
    for (uint64_t i = 0; i < n; i++) {
        c.bytes[i] = 1 + next_random(&seed) % 8;
        c.costs[i] = 1 + next_random(&seed) % 10;
        all += c.bytes[i];
    }
    c.budget = (uint64_t)((double)all * share);
    c.budget = c.budget > c.bytes[0] ? c.budget : c.bytes[0];
    return c;
}

static uturn_stats_t plan_chain(const struct chain *c, uturn_dp_mode_t mode,
                                uint64_t threads, uturn_plan_t **out)
{
    uturn_problem_t p  = dp_problem(c->n);
    p.slot_bytes       = 8;
    p.budget_bytes     = c->budget;
    p.step_bytes       = c->bytes;
    p.step_costs       = c->costs;
    p.dp_mode          = mode;
    p.threads          = threads;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    const uturn_stats_t s = checked(plan, c->budget);
    if (out != NULL)
        *out = plan;
    else
        uturn_plan_free(plan);
    return s;
}

/* Approximate plans are valid, never below the exact optimum, and their
 * bound never above it, at budgets from x_0 alone to near store-all. */
Test(dp_scale, approximate_brackets_the_optimum)
{
    static const double shares[] = {0.0, 0.02, 0.05, 0.1, 0.25, 0.5, 0.9};
    for (uint64_t seed = 1; seed <= 6; seed++) {
        for (size_t k = 0; k < sizeof shares / sizeof shares[0]; k++) {
            struct chain c = random_chain(seed, 40 + 20 * seed, shares[k]);
            const uturn_stats_t ex = plan_chain(&c, UTURN_DP_EXACT, 1, NULL);
            const uturn_stats_t ap =
                plan_chain(&c, UTURN_DP_APPROXIMATE, 1, NULL);
            cr_assert(ex.exact);
            cr_assert_geq(ap.forward_cost, ex.forward_cost,
                          "seed %llu share %.2f", (unsigned long long)seed,
                          shares[k]);
            cr_assert_leq(ap.lower_bound_cost, ex.forward_cost,
                          "seed %llu share %.2f: bound %llu above the "
                          "optimum %llu",
                          (unsigned long long)seed, shares[k],
                          (unsigned long long)ap.lower_bound_cost,
                          (unsigned long long)ex.forward_cost);
            free(c.bytes);
            free(c.costs);
        }
    }
}

/* The same approximate plan, action for action, for any thread count. */
static void same_stream(const uturn_plan_t *a, const uturn_plan_t *b)
{
    uturn_cursor_t *ca = NULL, *cb = NULL;
    cr_assert_eq(uturn_cursor_create(a, NULL, &ca), UTURN_OK);
    cr_assert_eq(uturn_cursor_create(b, NULL, &cb), UTURN_OK);
    uturn_action_t x, y;
    for (;;) {
        const bool more = uturn_cursor_next(ca, &x);
        cr_assert_eq(more, uturn_cursor_next(cb, &y));
        if (!more)
            break;
        cr_assert(x.op == y.op && x.step == y.step &&
                  x.step_end == y.step_end && x.slot == y.slot);
    }
    uturn_cursor_free(ca);
    uturn_cursor_free(cb);
}

/* 1, 2 and 3 threads: the same actions and the same fingerprint, exact
 * and approximate. */
Test(dp_scale, threads_give_the_same_plan)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        struct chain c = random_chain(seed, 200, 0.3);
        for (int mode = 0; mode < 2; mode++) {
            const uturn_dp_mode_t m =
                mode == 0 ? UTURN_DP_EXACT : UTURN_DP_APPROXIMATE;
            uturn_plan_t *one      = NULL;
            const uturn_stats_t s1 = plan_chain(&c, m, 1, &one);
            for (uint64_t threads = 2; threads <= 3; threads++) {
                uturn_plan_t *more    = NULL;
                const uturn_stats_t s = plan_chain(&c, m, threads, &more);
                same_stream(one, more);
                cr_assert_eq(s.fingerprint, s1.fingerprint, "%llu threads",
                             (unsigned long long)threads);
                cr_assert_eq(s.forward_cost, s1.forward_cost);
                cr_assert_eq(s.lower_bound_cost, s1.lower_bound_cost);
                uturn_plan_free(more);
            }
            uturn_plan_free(one);
        }
        free(c.bytes);
        free(c.costs);
    }
}

/* More threads than dp takes is an error naming the limit, not a clamp. */
Test(dp_scale, absurd_thread_counts_are_refused)
{
    uturn_problem_t p  = dp_problem(10);
    p.slots            = 3;
    p.threads          = UTURN_DP_MAX_THREADS;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_plan_free(plan);
    p.threads = UTURN_DP_MAX_THREADS + 1ull;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INVALID_ARG);
    cr_assert_null(plan);
    cr_assert(strstr(err.message, "at most 1024 threads"), "%s", err.message);
}

/* A budget too small for a checkpoint every few dozen steps: the coarse
 * grid (or, with x_0 alone, the plan that restarts from x_0) still gives a
 * valid plan. */
Test(dp_scale, tight_budget_approximate_is_valid)
{
    struct chain c             = random_chain(9, 1500, 0.004);
    uturn_plan_t *plan         = NULL;
    const uturn_stats_t s      = plan_chain(&c, UTURN_DP_APPROXIMATE, 2, &plan);
    const struct uturn__dp *dp = plan->data;
    cr_assert_eq(dp->top.kind, UTURN__DP_COARSE);
    cr_assert_geq(s.forward_cost, s.lower_bound_cost);
    uturn_plan_free(plan);
    c.budget                 = c.bytes[0];
    const uturn_stats_t only = plan_chain(&c, UTURN_DP_APPROXIMATE, 1, NULL);
    uint64_t from_x0 = 0, prefix = 0;
    for (uint64_t k = 0; k < c.n; k++) {
        prefix += c.costs[k];
        from_x0 += prefix;
    }
    cr_assert_eq(only.forward_cost, from_x0);
    free(c.bytes);
    free(c.costs);
}
