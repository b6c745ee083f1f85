/* With jemalloc in the process, slots live in the executor's own arena and
 * the allocator's figure is the planned peak, never above the budget. */
#include <criterion/criterion.h>
#include <string.h>
#include <uturn.h>

static double live[512]; /* 4 KiB state */

static int fwd(void *user, uint64_t step)
{
    (void)user;
    for (size_t i = 0; i < 512; i++)
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

Test(jemalloc, arena_measurement_matches_plan_and_budget)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    uint64_t real = 0;
    cr_assert_eq(uturn_executor_slot_bytes(ex, 4000, &real), UTURN_OK);
    cr_assert_eq(real, 4096, "jemalloc's size class for 4000 bytes");
    const uturn_planner_t planners[] = {
        UTURN_PLANNER_REVOLVE, UTURN_PLANNER_PERIODIC, UTURN_PLANNER_SQRT};
    for (size_t p = 0; p < 3; p++) {
        uturn_problem_t pr;
        uturn_problem_init(&pr);
        pr.planner         = planners[p];
        pr.steps           = 200;
        pr.slot_bytes      = 4000;
        pr.budget_bytes    = 40 * 4000; /* 40 slots of 4000, 39 of 4096 */
        uturn_plan_t *plan = NULL;
        cr_assert_eq(uturn_executor_plan(ex, &pr, &plan, NULL), UTURN_OK);
        uturn_stats_t predicted;
        uturn_stats_init(&predicted);
        uturn_plan_stats(plan, &predicted);
        cr_assert_eq(predicted.slot_bytes, 4096);
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
        cr_assert(rep.jemalloc);
        cr_assert_eq(rep.planned_peak_bytes, predicted.peak_slots * 4096);
        cr_assert_eq(rep.measured_peak_bytes, rep.planned_peak_bytes);
        cr_assert_leq(rep.measured_peak_bytes, pr.budget_bytes);
        uturn_plan_free(plan);
    }
    uturn_executor_free(ex);
}
