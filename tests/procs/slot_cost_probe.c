/*
 * Prints what the executor's storage charges for slots and the plans a
 * budget buys, for tests/procs/same_in_every_process.sh, which runs it in
 * processes with different allocation histories and allocators and
 * requires the same output from each. With --churn it first allocates and
 * frees large blocks, which moves glibc's dynamic mmap threshold (the old
 * probe of malloc then answered 1,048,584 instead of 1,052,656 bytes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

static void churn(void)
{
    static const size_t sizes[] = {1u << 20, 200000, 3u << 20, 131072};
    for (int round = 0; round < 4; round++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            char *p = malloc(sizes[i]);
            if (p != NULL)
                memset(p, 1, sizes[i]); /* touched, so it is really used */
            free(p);
        }
}

static int print_plan(uturn_executor_t *ex, uturn_planner_t planner,
                      uint64_t state, uint64_t budget)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = planner;
    p.steps            = 1000;
    p.slot_bytes       = state;
    p.budget_bytes     = budget;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    if (uturn_executor_plan(ex, &p, &plan, &err) != UTURN_OK) {
        printf("plan %s %llu %llu: %s\n", uturn_planner_name(planner),
               (unsigned long long)state, (unsigned long long)budget,
               err.message);
        return 0;
    }
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    printf("plan %s %llu %llu: slots %llu forward_steps %llu fingerprint "
           "%016llx\n",
           uturn_planner_name(planner), (unsigned long long)state,
           (unsigned long long)budget, (unsigned long long)s.slots,
           (unsigned long long)s.forward_steps,
           (unsigned long long)s.fingerprint);
    uturn_plan_free(plan);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--churn") == 0)
        churn();
    uturn_executor_t *ex = NULL;
    if (uturn_executor_create(NULL, &ex, NULL) != UTURN_OK)
        return 1;
    static const uint64_t states[] = {8, 1000, 4000, 200000, 1048576, 4194304};
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
        uturn_slot_cost_t c;
        uturn_slot_cost_init(&c);
        uturn_executor_slot_cost(ex, states[i], &c);
        uint64_t b = 0;
        uturn_executor_budget(ex, states[i], 7, &b);
        printf("state %llu: stride %llu alignment %llu granule %llu backend "
               "%s; 7 slots need %llu\n",
               (unsigned long long)states[i], (unsigned long long)c.stride,
               (unsigned long long)c.alignment, (unsigned long long)c.granule,
               c.backend, (unsigned long long)b);
        print_plan(ex, UTURN_PLANNER_REVOLVE, states[i], 20u << 20);
        print_plan(ex, UTURN_PLANNER_PERIODIC, states[i], 64u << 20);
    }
    uturn_executor_free(ex);
    return 0;
}
