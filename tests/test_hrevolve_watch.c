/*
 * Planning that takes long (issue 22, finding 8: hrevolve at 60000 steps
 * over memory 30 and disk 30 ran minutes with no output, inside the
 * documented limits). hrevolve reports its progress through the
 * problem's callback, and its pruned search stops at a limit of
 * evaluations, counted, not timed. The white-box part runs the build
 * with a small limit: a stop there is UTURN_E_UNSUPPORTED, and the tables
 * a limit leaves room for are the same as an unlimited build's.
 */
#include "counting_alloc.h"
#include "hrevolve.h"

#include <criterion/criterion.h>
#include <string.h>
#include <uturn.h>

struct seen {
    uint64_t calls, last_done, total, stop_at;
    bool monotone;
};

static int watch(void *user, uint64_t done, uint64_t total)
{
    struct seen *s = user;
    s->monotone &= done >= s->last_done && done <= total;
    s->last_done = done;
    s->total     = total;
    s->calls += 1;
    return s->stop_at != 0 && s->calls >= s->stop_at;
}

static uturn_problem_t two_levels(uint64_t n, uturn_level_t lv[2])
{
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].slots      = 6;
    lv[1].slots      = 12;
    lv[1].write_cost = 3;
    lv[1].read_cost  = 3;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner     = UTURN_PLANNER_HREVOLVE;
    p.steps       = n;
    p.levels      = lv;
    p.level_count = 2;
    return p;
}

Test(hrevolve_watch, progress_is_reported_to_the_end_and_not_kept)
{
    uturn_level_t lv[2];
    uturn_problem_t p  = two_levels(3000, lv);
    struct seen s      = {.monotone = true};
    p.progress         = watch;
    p.progress_user    = &s;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    cr_assert_geq(s.calls, 10, "about every 1%%: %llu calls",
                  (unsigned long long)s.calls);
    cr_assert_leq(s.calls, 200);
    cr_assert(s.monotone);
    cr_assert_eq(s.last_done, s.total, "the last report is the end");
    /* The plan is the same as without the callback, and keeps none. */
    uturn_problem_t plain = two_levels(3000, lv);
    uturn_plan_t *other   = NULL;
    cr_assert_eq(uturn_plan_create(&plain, NULL, &other, NULL), UTURN_OK);
    uturn_stats_t a, b;
    uturn_stats_init(&a);
    uturn_stats_init(&b);
    uturn_plan_stats(plan, &a);
    uturn_plan_stats(other, &b);
    cr_assert_eq(a.fingerprint, b.fingerprint);
    cr_assert_eq(a.cost, b.cost);
    uturn_problem_t kept;
    uturn_problem_init(&kept);
    uturn_plan_problem(plan, &kept);
    cr_assert_null(kept.progress);
    cr_assert_null(kept.progress_user);
    uturn_plan_free(plan);
    uturn_plan_free(other);
}

Test(hrevolve_watch, a_progress_that_says_stop_stops_planning)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_level_t lv[2];
    uturn_problem_t p  = two_levels(3000, lv);
    struct seen s      = {.monotone = true, .stop_at = 3};
    p.progress         = watch;
    p.progress_user    = &s;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, &alloc, &plan, &err), UTURN_E_CALLBACK,
                 "%s", err.message);
    cr_assert_null(plan);
    cr_assert_eq(s.calls, 3, "no report after the one that said stop");
    cr_assert(strstr(err.message, "progress") != NULL, "%s", err.message);
    cr_assert_eq(counts.live_blocks, 0, "nothing leaks");
}

/* The search counts its evaluations and stops past the limit; a limit
 * above what it needs changes nothing. */
Test(hrevolve_watch, the_search_stops_at_its_limit_of_evaluations)
{
    const struct uturn__hr_level levels[2] = {{6, 0, 0}, {12, 3, 3}};
    counting_alloc_t counts                = {0};
    const uturn_allocator_t a              = counting_allocator(&counts);
    struct uturn__hr_tables *t             = NULL;
    cr_assert_eq(uturn__hr_build(&a, 2000, levels, 2, &t), UTURN_OK);
    const uint64_t need = t->evals;
    const uint64_t cost = t->cost[1][uturn__hr_entry(t, 2000, 12)];
    cr_assert_gt(need, 1000, "the search evaluated something");
    uturn__hr_free(&a, t);
    t = NULL;
    cr_assert_eq(
        uturn__hr_build_watched(&a, 2000, levels, 2, need / 2, NULL, &t),
        UTURN_E_UNSUPPORTED);
    cr_assert_null(t);
    cr_assert_eq(uturn__hr_build_watched(&a, 2000, levels, 2, need, NULL, &t),
                 UTURN_OK);
    cr_assert_eq(t->evals, need);
    cr_assert_eq(t->cost[1][uturn__hr_entry(t, 2000, 12)], cost);
    uturn__hr_free(&a, t);
    cr_assert_eq(counts.live_blocks, 0, "a stopped build frees its tables");
}
