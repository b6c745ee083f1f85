/*
 * bench_online_disk: the online planner with storage levels (the periodic
 * disk schedule) against hrevolve's offline optimum for the realised n.
 * For each configuration and each n, the online plan's cursor is walked
 * with the end said after n steps (its cost from uturn_cursor_stats(),
 * checked against uturn_plan_online_cost()), and hrevolve is planned for
 * that n over the same levels; the line gives online / optimum = ratio.
 * Public API only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <uturn.h>

struct config {
    const char *label;
    uint64_t count;
    uint64_t lv[3][3]; /* slots, write, read */
};

static const struct config configs[] = {
    {"mem 5; disk 2000 w=r=5", 2, {{5, 0, 0}, {2000, 5, 5}}},
    {"mem 10; disk 1000 w=r=5", 2, {{10, 0, 0}, {1000, 5, 5}}},
    {"mem 20; disk 500 w=r=5", 2, {{20, 0, 0}, {500, 5, 5}}},
    {"mem 10; disk 1000 w=2 r=20", 2, {{10, 0, 0}, {1000, 2, 20}}},
    {"mem 4; 16 w=r=2; 1000 w=r=10",
     3,
     {{4, 0, 0}, {16, 2, 2}, {1000, 10, 10}}},
};

static const uint64_t steps[] = {10,   50,   100,  200,  500,
                                 1000, 2000, 5000, 10000};

static uturn_plan_t *make(const struct config *c, uturn_planner_t planner,
                          uint64_t n)
{
    uturn_level_t lv[3];
    for (uint64_t k = 0; k < c->count; k++) {
        uturn_level_init(&lv[k]);
        lv[k].slots      = c->lv[k][0];
        lv[k].write_cost = c->lv[k][1];
        lv[k].read_cost  = c->lv[k][2];
    }
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = planner;
    p.steps            = planner == UTURN_PLANNER_ONLINE ? 0 : n;
    p.max_steps        = planner == UTURN_PLANNER_ONLINE ? n : 0;
    p.levels           = lv;
    p.level_count      = c->count;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    if (uturn_plan_create(&p, NULL, &plan, &err) != UTURN_OK) {
        fprintf(stderr, "bench_online_disk: %s: %s\n", c->label, err.message);
        exit(1);
    }
    return plan;
}

/* The realised cost: the cursor walked, "last" said after advance n-1 n. */
static uint64_t walked(const uturn_plan_t *plan, uint64_t n)
{
    uturn_cursor_t *c = NULL;
    if (uturn_cursor_create(plan, NULL, &c) != UTURN_OK)
        exit(1);
    uturn_action_t a[256];
    size_t count = 0;
    bool ended   = false;
    while (uturn_cursor_read(c, a, 256, &count) == UTURN_OK && count > 0) {
        const uturn_action_t *last = &a[count - 1];
        if (!ended && last->op == UTURN_OP_ADVANCE && last->step_end == n) {
            ended = true;
            if (uturn_cursor_end(c) != UTURN_OK)
                exit(1);
        }
    }
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_cursor_stats(c, &s);
    uturn_cursor_free(c);
    return s.steps == n ? s.cost : UINT64_MAX;
}

static uint64_t optimum(const struct config *c, uint64_t n)
{
    uturn_plan_t *plan = make(c, UTURN_PLANNER_HREVOLVE, n);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    uturn_plan_free(plan);
    return s.cost;
}

static void row(uint64_t n)
{
    printf("| %llu |", (unsigned long long)n);
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
        const struct config *c = &configs[i];
        /* max_steps = the largest n of the table: one plan for every row. */
        uturn_plan_t *plan  = make(c, UTURN_PLANNER_ONLINE, 10000);
        uint64_t predicted  = 0;
        const uint64_t cost = walked(plan, n);
        uturn_plan_online_cost(plan, n, &predicted, NULL);
        uturn_plan_free(plan);
        const uint64_t best = optimum(c, n);
        printf(" %llu / %llu = %.3f%s |", (unsigned long long)cost,
               (unsigned long long)best, (double)cost / (double)best,
               predicted == cost ? "" : " (prediction differs!)");
    }
    printf("\n");
}

int main(void)
{
    printf("| n |");
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++)
        printf(" %s |", configs[i].label);
    printf("\n| --- |");
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++)
        printf(" --- |");
    printf("\n");
    for (size_t j = 0; j < sizeof steps / sizeof steps[0]; j++)
        row(steps[j]);
    return 0;
}
