/* With jemalloc as the process's allocator, nothing about slots changes:
 * the executor's storage is its own pages, so the slot cost, the capacity
 * a budget buys and the measured peak are exactly what they are under
 * glibc (tests/slot_cost_probe.c compares the two processes), and the
 * measured peak is the planned one, never above the budget. */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>
#include <uturn.h>

static double live[500]; /* 4000-byte state */

static int fwd(void *user, uint64_t step)
{
    (void)user;
    for (size_t i = 0; i < 500; i++)
        live[i] = live[i] * 0.5 + (double)step;
    return 0;
}

static int noop_turn(void *user)
{
    (void)user;
    return 0;
}

static int noop_adjoint(void *user, uint64_t step)
{
    (void)user;
    (void)step;
    return 0;
}

Test(jemalloc, slot_cost_is_computed_not_the_allocators)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    uturn_slot_cost_t cost;
    uturn_slot_cost_init(&cost);
    cr_assert_eq(uturn_executor_slot_cost(ex, 4000, &cost), UTURN_OK);
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    cr_assert_eq(cost.stride, 4000, "4000 is a multiple of 16");
    cr_assert_eq(cost.granule, page);
    cr_assert_str_eq(cost.backend, "pages");
    const uturn_planner_t planners[] = {
        UTURN_PLANNER_REVOLVE, UTURN_PLANNER_PERIODIC, UTURN_PLANNER_SQRT};
    for (size_t p = 0; p < 3; p++) {
        uturn_problem_t pr;
        uturn_problem_init(&pr);
        pr.planner         = planners[p];
        pr.steps           = 200;
        pr.slot_bytes      = 4000;
        pr.budget_bytes    = 40 * 4000;
        uturn_plan_t *plan = NULL;
        cr_assert_eq(uturn_executor_plan(ex, &pr, &plan, NULL), UTURN_OK);
        uturn_stats_t predicted;
        uturn_stats_init(&predicted);
        uturn_plan_stats(plan, &predicted);
        /* Whole pages of the budget, then whole slots of it. */
        const uint64_t slots = 160000 / page * page / 4000;
        if (p == 0)
            cr_assert_eq(predicted.slots, slots);
        uturn_model_t m;
        uturn_model_init(&m);
        m.forward     = fwd;
        m.turn        = noop_turn;
        m.adjoint     = noop_adjoint;
        m.state       = live;
        m.state_bytes = 4000;
        uturn_report_t rep;
        uturn_report_init(&rep);
        cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, &rep, NULL),
                     UTURN_OK);
        const uint64_t want =
            (predicted.peak_slots * 4000 + page - 1) / page * page;
        cr_assert_eq(rep.planned_peak_bytes, want);
        cr_assert_geq(rep.measured_peak_bytes, rep.planned_peak_bytes);
        cr_assert_leq(rep.measured_peak_bytes, pr.budget_bytes);
        uturn_plan_free(plan);
    }
    uturn_executor_free(ex);
}
