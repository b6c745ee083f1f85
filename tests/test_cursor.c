/* uturn_cursor_read() yields exactly the stream uturn_cursor_next() does,
 * for every planner, batch size, and mix of the two. */
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <string.h>
#include <uturn.h>

/* Field by field: the struct has padding, which memcmp would compare. */
static bool same(const uturn_action_t *a, const uturn_action_t *b)
{
    return a->op == b->op && a->step == b->step && a->step_end == b->step_end &&
           a->slot == b->slot;
}

static uturn_plan_t *plan_for(uturn_planner_t planner, uint64_t n,
                              uint64_t slots)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = planner;
    p.steps            = n;
    p.slots            = slots;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    return plan;
}

/* The whole stream through uturn_cursor_next(). */
static uturn_action_t *stream(const uturn_plan_t *plan, size_t *len)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    uturn_action_t *all = calloc(s.actions + 1, sizeof *all);
    uturn_cursor_t *c   = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    size_t n = 0;
    while (n <= s.actions && uturn_cursor_next(c, &all[n]))
        n++;
    cr_assert_eq(n, s.actions);
    uturn_cursor_free(c);
    *len = n;
    return all;
}

Test(cursor, read_matches_next_for_every_batch_size)
{
    const uturn_planner_t planners[] = {
        UTURN_PLANNER_STORE_ALL, UTURN_PLANNER_PERIODIC, UTURN_PLANNER_SQRT,
        UTURN_PLANNER_REVOLVE};
    for (size_t p = 0; p < 4; p++) {
        uturn_plan_t *plan   = plan_for(planners[p], 97, 97);
        size_t len           = 0;
        uturn_action_t *want = stream(plan, &len);
        for (size_t batch = 1; batch <= 300; batch += (batch < 10 ? 1 : 37)) {
            counting_alloc_t counts       = {0};
            const uturn_allocator_t alloc = counting_allocator(&counts);
            uturn_cursor_t *c             = NULL;
            cr_assert_eq(uturn_cursor_create(plan, &alloc, &c), UTURN_OK);
            uturn_action_t buf[300];
            size_t at = 0, got = 0;
            /* Alternate a single next() with a batch read(). */
            for (int turn = 0;; turn++) {
                if (turn % 2 == 0) {
                    uturn_action_t one;
                    if (!uturn_cursor_next(c, &one))
                        break;
                    cr_assert(same(&one, &want[at++]));
                    continue;
                }
                cr_assert_eq(uturn_cursor_read(c, buf, batch, &got), UTURN_OK);
                if (got == 0)
                    break;
                cr_assert_leq(got, batch);
                for (size_t i = 0; i < got; i++)
                    cr_assert(same(&buf[i], &want[at++]),
                              "planner %zu batch %zu action %zu", p, batch,
                              at - 1);
            }
            cr_assert_eq(at, len, "planner %zu batch %zu", p, batch);
            cr_assert_eq(uturn_cursor_read(c, buf, batch, &got), UTURN_OK);
            cr_assert_eq(got, 0);
            uturn_cursor_free(c);
            cr_assert_eq(counts.live_blocks, 0);
        }
        free(want);
        uturn_plan_free(plan);
    }
}

Test(cursor, read_rejects_bad_arguments)
{
    uturn_plan_t *plan = plan_for(UTURN_PLANNER_REVOLVE, 5, 2);
    uturn_cursor_t *c  = NULL;
    uturn_cursor_create(plan, NULL, &c);
    uturn_action_t buf[4];
    size_t got = 0;
    cr_assert_eq(uturn_cursor_read(c, buf, 0, &got), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_cursor_read(c, NULL, 4, &got), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_cursor_read(NULL, buf, 4, &got), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_cursor_read(c, buf, 4, NULL), UTURN_E_INVALID_ARG);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}
