/*
 * Edges the fuzzers found (issue 22, finding 6: fuzz_planner reaching dp
 * and the validator), each once a wrong answer or a hang; their inputs
 * are also in tests/fuzz/crashes/. Truth: the byte arithmetic of the
 * requests themselves.
 */
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <string.h>
#include <uturn.h>

/* A plan for states of 1, 2^40 and 2^40 bytes in a budget of 2^41: units
 * of one byte pass dp's 32 bits. They were counted as 2^32 - 1, and the
 * plan held 2^41 + 1 bytes in a budget of 2^41. */
Test(dp_edges, states_past_32_bit_units_are_refused_not_shrunk)
{
    const uint64_t big     = (uint64_t)1 << 40;
    const uint64_t sizes[] = {1, big, big};
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_DP;
    p.steps            = 3;
    p.step_bytes       = sizes;
    p.budget_bytes     = 2 * big;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_plan_create(&p, NULL, &plan, &err);
    cr_assert_eq(st, UTURN_E_UNSUPPORTED, "%s: %s", uturn_status_name(st),
                 err.message);
    cr_assert(strstr(err.message, "32-bit units") != NULL, "%s", err.message);
    /* A unit that keeps them in 32 bits plans within the budget. */
    p.unit_bytes = big;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cr_assert_leq(s.peak_bytes, p.budget_bytes);
    cr_assert_eq(uturn_plan_walk(plan, NULL, &err), UTURN_OK, "%s",
                 err.message);
    uturn_plan_free(plan);
}

/* x_0 of 2^24 units of 2^40 bytes cannot fit 100 bytes: the least budget
 * named is 2^64 bytes or more, said as 2^64 - 1 (it once wrapped to 0). */
Test(dp_edges, the_least_budget_for_x0_saturates)
{
    const uint64_t big[] = {(uint64_t)1 << 63, 1};
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_DP;
    p.steps            = 2;
    p.step_bytes       = big;
    p.budget_bytes     = 100;
    p.unit_bytes       = ((uint64_t)1 << 40) + 1; /* 2^63 bytes: 2^23 units */
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_plan_create(&p, NULL, &plan, &err);
    cr_assert_eq(st, UTURN_E_INFEASIBLE, "%s: %s", uturn_status_name(st),
                 err.message);
    cr_assert_geq(err.minimum_bytes, big[0], "the least budget is %llu",
                  (unsigned long long)err.minimum_bytes);
}

/* A budget of 2^64 - 1 bytes over 1-byte states with a unit of 2^64 - 1:
 * dp's lower bound once looped forever (s + 1 wrapped to 0). */
Test(dp_edges, a_budget_of_2_to_the_64_ends, .timeout = 60)
{
    const uint64_t sizes[] = {1, 1, 1, 1};
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_DP;
    p.steps            = 4;
    p.step_bytes       = sizes;
    p.budget_bytes     = UINT64_MAX;
    p.unit_bytes       = UINT64_MAX;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    /* One unit of 2^64 - 1 bytes: x_0 alone fits, kept for the whole
     * reversal (t(5, 1) = 10 forward steps). */
    const uturn_status_t st = uturn_plan_create(&p, NULL, &plan, &err);
    cr_assert_eq(st, UTURN_OK, "%s: %s", uturn_status_name(st), err.message);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cr_assert_eq(s.forward_steps, 10);
    cr_assert_eq(uturn_plan_walk(plan, NULL, &err), UTURN_OK, "%s",
                 err.message);
    uturn_plan_free(plan);
}

/* The validator with per-step sizes {3, 7, 3} and a budget of 4 bytes:
 * x_0 (3 bytes) fits, and storing it is valid. floor(4 / 7) = 0 slots once
 * refused it. */
Test(dp_edges, a_validator_with_sizes_counts_bytes_not_slots)
{
    const uint64_t sizes[] = {3, 7, 3};
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps              = 3;
    p.step_bytes         = sizes;
    p.budget_bytes       = 4;
    uturn_validator_t *v = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, &err), UTURN_OK, "%s",
                 err.message);
    const uturn_action_t a[] = {
        {UTURN_OP_STORE, 0, 0, 0},   {UTURN_OP_ADVANCE, 0, 3, 0},
        {UTURN_OP_TURN, 0, 0, 0},    {UTURN_OP_RESTORE, 0, 0, 0},
        {UTURN_OP_ADVANCE, 0, 2, 0}, {UTURN_OP_REVERSE, 2, 0, 0},
        {UTURN_OP_RESTORE, 0, 0, 0}, {UTURN_OP_ADVANCE, 0, 1, 0},
        {UTURN_OP_REVERSE, 1, 0, 0}, {UTURN_OP_RESTORE, 0, 0, 0},
        {UTURN_OP_REVERSE, 0, 0, 0}, {UTURN_OP_FREE, 0, 0, 0}};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
        cr_assert_eq(uturn_validator_push(v, &a[i], &err), UTURN_OK,
                     "action %zu: %s", i, err.message);
    cr_assert_eq(uturn_validator_finish(v, NULL, &err), UTURN_OK, "%s",
                 err.message);
    /* 7 bytes do not fit in 4: storing x_1 breaks the byte budget. */
    uturn_validator_free(v);
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, &err), UTURN_OK);
    const uturn_action_t over[] = {{UTURN_OP_ADVANCE, 0, 1, 0},
                                   {UTURN_OP_STORE, 1, 0, 0}};
    cr_assert_eq(uturn_validator_push(v, &over[0], &err), UTURN_OK);
    cr_assert_eq(uturn_validator_push(v, &over[1], &err), UTURN_E_INVALID_PLAN);
    uturn_validator_free(v);
}

/* The approximate planner with each of its allocations failing in turn:
 * NOMEM every time, nothing left allocated. dp's lower bound once fell
 * back to a weaker bound when its allocation failed, and the approximate
 * planner then made another plan instead of saying NOMEM. */
Test(dp_edges, every_failed_allocation_is_nomem)
{
    uint64_t sizes[200];
    for (size_t i = 0; i < 200; i++)
        sizes[i] = 1 + (i * 7) % 13;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner               = UTURN_PLANNER_DP;
    p.dp_mode               = UTURN_DP_APPROXIMATE;
    p.steps                 = 200;
    p.step_bytes            = sizes;
    p.budget_bytes          = 100;
    counting_alloc_t counts = {0};
    uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_plan_t *plan      = NULL;
    cr_assert_eq(uturn_plan_create(&p, &alloc, &plan, NULL), UTURN_OK);
    uturn_plan_free(plan);
    const uint64_t calls = counts.total_allocs;
    cr_assert_gt(calls, 2, "the plan made %llu allocations",
                 (unsigned long long)calls);
    for (uint64_t k = 1; k <= calls; k++) {
        counts = (counting_alloc_t){.fail_at = k};
        alloc  = counting_allocator(&counts);
        uturn_error_t e;
        uturn_error_init(&e);
        const uturn_status_t st = uturn_plan_create(&p, &alloc, &plan, &e);
        cr_assert_eq(st, UTURN_E_NOMEM, "allocation %llu of %llu: %s (%s)",
                     (unsigned long long)k, (unsigned long long)calls,
                     uturn_status_name(st), e.message);
        cr_assert_null(plan);
        cr_assert_eq(counts.live_blocks, 0);
    }
}
