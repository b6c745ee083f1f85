/* One test per API row of docs/bad-input.md: the status each bad input
 * gets, and the words its message must contain. */
#include <criterion/criterion.h>
#include <string.h>
#include <uturn.h>

static uturn_problem_t base(uturn_planner_t planner)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = planner;
    p.steps   = 10;
    p.slots   = 4;
    return p;
}

/* Create a plan from p; expect status and a message containing `words`. */
static void expect(const uturn_problem_t *p, uturn_status_t status,
                   const char *words)
{
    uturn_plan_t *plan = (uturn_plan_t *)1;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(p, NULL, &plan, &err), status, "%s: %s",
                 uturn_status_name(status), err.message);
    cr_assert_null(plan);
    cr_assert_eq(err.status, status);
    cr_assert(strstr(err.message, words) != NULL, "'%s' lacks '%s'",
              err.message, words);
}

Test(bad_input, null_pointers)
{
    uturn_plan_t *plan = NULL;
    uturn_problem_t p  = base(UTURN_PLANNER_REVOLVE);
    cr_assert_eq(uturn_plan_create(NULL, NULL, &plan, NULL),
                 UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_plan_create(&p, NULL, NULL, NULL), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_plan_stats(NULL, NULL), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_plan_parse(NULL, 5, NULL, &plan, NULL),
                 UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_plan_parse(NULL, 0, NULL, &plan, NULL),
                 UTURN_E_INVALID_ARG); /* NULL whatever the length */
    uturn_plan_free(NULL);             /* a no-op */
}

Test(bad_input, zero_steps)
{
    uturn_problem_t p = base(UTURN_PLANNER_REVOLVE);
    p.steps           = 0;
    expect(&p, UTURN_E_INVALID_ARG, "steps must be at least 1");
}

Test(bad_input, zero_slots_and_no_budget)
{
    uturn_problem_t p = base(UTURN_PLANNER_REVOLVE);
    p.slots           = 0;
    expect(&p, UTURN_E_INVALID_ARG, "needs a capacity");
}

Test(bad_input, budget_below_one_state)
{
    uturn_problem_t p = base(UTURN_PLANNER_REVOLVE);
    p.slots           = 0;
    p.slot_bytes      = 1024;
    p.budget_bytes    = 1000;
    expect(&p, UTURN_E_INFEASIBLE, "at least 1 slot (1024 bytes)");
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_plan_t *plan = NULL;
    uturn_plan_create(&p, NULL, &plan, &err);
    cr_assert_eq(err.minimum_bytes, 1024);
}

Test(bad_input, slots_and_budget_together)
{
    uturn_problem_t p = base(UTURN_PLANNER_REVOLVE);
    p.slot_bytes      = 8;
    p.budget_bytes    = 64;
    expect(&p, UTURN_E_INVALID_ARG, "not both");
}

Test(bad_input, budget_without_slot_bytes)
{
    uturn_problem_t p = base(UTURN_PLANNER_REVOLVE);
    p.slots           = 0;
    p.budget_bytes    = 64;
    expect(&p, UTURN_E_INVALID_ARG, "needs slot_bytes");
}

Test(bad_input, stride_above_steps)
{
    uturn_problem_t p = base(UTURN_PLANNER_PERIODIC);
    p.slots           = 0;
    p.stride          = 11;
    expect(&p, UTURN_E_INVALID_ARG, "valid strides are 1..10");
}

Test(bad_input, stride_for_another_planner)
{
    uturn_problem_t p = base(UTURN_PLANNER_REVOLVE);
    p.stride          = 2;
    expect(&p, UTURN_E_INVALID_ARG, "periodic planner only");
}

Test(bad_input, unknown_planner)
{
    uturn_problem_t p = base((uturn_planner_t)42);
    expect(&p, UTURN_E_INVALID_ARG, "unknown planner");
    uturn_planner_t out = UTURN_PLANNER_SQRT;
    cr_assert_eq(uturn_planner_from_name("quicksort", &out),
                 UTURN_E_INVALID_ARG);
    cr_assert_eq(out, UTURN_PLANNER_SQRT, "left alone on failure");
}

Test(bad_input, counts_overflow)
{
    uturn_problem_t p = base(UTURN_PLANNER_REVOLVE);
    p.steps           = 1000000000000ull;
    p.slots           = 1;
    expect(&p, UTURN_E_OVERFLOW, "do not fit in 64 bits");
    p.steps = UINT64_MAX;
    p.slots = 5;
    expect(&p, UTURN_E_OVERFLOW, "at most");
}

Test(bad_input, store_all_short_of_slots)
{
    uturn_problem_t p = base(UTURN_PLANNER_STORE_ALL);
    expect(&p, UTURN_E_INFEASIBLE, "store-all needs 10 slots");
}

Test(bad_input, periodic_short_of_slots)
{
    uturn_problem_t p = base(UTURN_PLANNER_PERIODIC);
    p.slots           = 3;
    /* k = 3: m = 4, L = 1, max(m + L - 1, m + k - 3) = 4 */
    expect(&p, UTURN_E_INFEASIBLE, "periodic needs at least 4 slots");
}

Test(bad_input, per_step_arrays_for_another_planner)
{
    const uint64_t sizes[10] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
    uturn_problem_t p        = base(UTURN_PLANNER_REVOLVE);
    p.step_bytes             = sizes;
    expect(&p, UTURN_E_UNSUPPORTED, "use dp");
}

Test(bad_input, dp_zero_size_or_cost)
{
    uint64_t sizes[10] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
    uint64_t costs[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    uturn_problem_t p  = base(UTURN_PLANNER_DP);
    p.slots            = 0;
    p.budget_bytes     = 64;
    p.step_bytes       = sizes;
    p.step_costs       = costs;
    sizes[3]           = 0;
    expect(&p, UTURN_E_INVALID_ARG, "step_bytes[3] is 0");
    sizes[3] = 8;
    costs[7] = 0;
    expect(&p, UTURN_E_INVALID_ARG, "step_costs[7] is 0");
}

Test(bad_input, dp_costs_past_32_bits)
{
    uint64_t costs[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 200000000};
    uturn_problem_t p  = base(UTURN_PLANNER_DP);
    p.step_costs       = costs;
    expect(&p, UTURN_E_UNSUPPORTED, "dp counts costs in 32 bits");
}

Test(bad_input, dp_budget_below_x0)
{
    const uint64_t sizes[10] = {100, 8, 8, 8, 8, 8, 8, 8, 8, 8};
    uturn_problem_t p        = base(UTURN_PLANNER_DP);
    p.slots                  = 0;
    p.budget_bytes           = 99;
    p.step_bytes             = sizes;
    expect(&p, UTURN_E_INFEASIBLE, "dp needs at least 100 bytes to hold x_0");
}

Test(bad_input, executor_plan_without_slot_bytes)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    uturn_problem_t p  = base(UTURN_PLANNER_REVOLVE);
    uturn_plan_t *plan = (uturn_plan_t *)1;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_plan(ex, &p, &plan, &err), UTURN_E_INVALID_ARG);
    cr_assert_null(plan);
    cr_assert(strstr(err.message, "must give the size of a state"), "%s",
              err.message);
    uturn_executor_free(ex);
}

/* A storage kind that is none of the two is named as such. */
Test(bad_input, an_unknown_storage_kind_is_named)
{
    uturn_storage_t lv;
    uturn_storage_init(&lv);
    lv.kind = (uturn_storage_kind_t)9;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels             = &lv;
    o.level_count        = 1;
    uturn_executor_t *ex = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_open(&o, &ex, &e), UTURN_E_INVALID_ARG);
    cr_assert(strstr(e.message, "kind 9 is neither") != NULL, "%s", e.message);
    cr_assert_null(ex);
}

/* An infeasible budget at the executor's real slot cost: the message says
 * what the caller gave beside what holds slots. */
Test(bad_input, an_infeasible_budget_names_the_budget_given)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_STORE_ALL;
    p.steps            = 10;
    p.slot_bytes       = 8;
    p.budget_bytes     = 100;
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_plan(ex, &p, &plan, &e), UTURN_E_INFEASIBLE);
    cr_assert(strstr(e.message, "of the 100 bytes given") != NULL, "%s",
              e.message);
    uturn_executor_free(ex);
}
