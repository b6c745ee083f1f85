/*
 * hrevolve plan creation time: uturn_plan_create() for n steps over two
 * levels, memory (free) and a disk with write and read costs, repeated;
 * prints every time (wall and CPU), the median and the range (the upper
 * median for an even count), the plan's cost and counts,
 * and whether a walk of the plan (validated, not timed) agrees.
 * usage: bench_hrevolve [REPEATS [STEPS MEM_SLOTS DISK_SLOTS W R]]
 *        (default: 3  10000 20 500 5 5)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <uturn.h>

#define MAX_REPEATS 100

static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now(void)
{
    return clock_seconds(CLOCK_MONOTONIC);
}

/* The machine is shared: CPU time says what the planner cost even when
 * other work takes the cores. */
static double cpu(void)
{
    return clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t arg(int argc, char **argv, int i, uint64_t fallback)
{
    return argc > i ? strtoull(argv[i], NULL, 10) : fallback;
}

/* Walk the plan through the validator and compare with its stats. */
static int check(const uturn_plan_t *plan, const uturn_stats_t *st)
{
    uturn_stats_t seen;
    uturn_error_t err;
    uturn_stats_init(&seen);
    uturn_error_init(&err);
    const double start      = now();
    const uturn_status_t rc = uturn_plan_walk(plan, &seen, &err);
    const double spent      = now() - start;
    const int same          = rc == UTURN_OK && seen.cost == st->cost &&
                     seen.forward_steps == st->forward_steps &&
                     seen.actions == st->actions &&
                     seen.peak_slots == st->peak_slots;
    printf("walk: %s, %s the prediction (%.3f s)\n",
           rc == UTURN_OK ? "valid" : err.message,
           same ? "equal to" : "DIFFERENT from", spent);
    return same ? 0 : 1;
}

static void print_stats(const uturn_plan_t *plan, const uturn_stats_t *st)
{
    printf("cost %llu, forward_steps %llu, actions %llu, stores %llu, "
           "restores %llu, peak_slots %llu\n",
           (unsigned long long)st->cost, (unsigned long long)st->forward_steps,
           (unsigned long long)st->actions, (unsigned long long)st->stores,
           (unsigned long long)st->restores,
           (unsigned long long)st->peak_slots);
    for (uint64_t k = 0; k < st->levels; k++) {
        uturn_level_stats_t ls;
        uturn_level_stats_init(&ls);
        uturn_plan_level_stats(plan, k, &ls);
        printf("  level %llu %-5s slots %4llu w %llu r %llu: stores %llu, "
               "restores %llu, peak_slots %llu\n",
               (unsigned long long)k, ls.name, (unsigned long long)ls.slots,
               (unsigned long long)ls.write_cost,
               (unsigned long long)ls.read_cost, (unsigned long long)ls.stores,
               (unsigned long long)ls.restores,
               (unsigned long long)ls.peak_slots);
    }
}

/* Create the plan `repeats` times, print the times; the last plan, or
 * NULL on failure. */
static uturn_plan_t *timed(const uturn_problem_t *p, int repeats)
{
    double times[MAX_REPEATS], cpus[MAX_REPEATS];
    uturn_plan_t *plan = NULL;
    for (int i = 0; i < repeats; i++) {
        uturn_plan_free(plan);
        plan = NULL;
        uturn_error_t err;
        uturn_error_init(&err);
        const double start      = now();
        const double start_cpu  = cpu();
        const uturn_status_t rc = uturn_plan_create(p, NULL, &plan, &err);
        cpus[i]                 = cpu() - start_cpu;
        times[i]                = now() - start;
        if (rc != UTURN_OK) {
            fprintf(stderr, "bench_hrevolve: %s\n", err.message);
            return NULL;
        }
        printf("  run %d: %.3f s wall, %.3f s CPU\n", i + 1, times[i], cpus[i]);
    }
    qsort(times, (size_t)repeats, sizeof times[0], by_value);
    qsort(cpus, (size_t)repeats, sizeof cpus[0], by_value);
    printf("planning time: median %.3f s, range %.3f .. %.3f s (wall); "
           "median %.3f s, range %.3f .. %.3f s (CPU)\n",
           times[repeats / 2], times[0], times[repeats - 1], cpus[repeats / 2],
           cpus[0], cpus[repeats - 1]);
    return plan;
}

int main(int argc, char **argv)
{
    const int repeats = (int)arg(argc, argv, 1, 3);
    if (repeats < 1 || repeats > MAX_REPEATS) {
        fprintf(stderr, "bench_hrevolve: REPEATS is 1 to %d\n", MAX_REPEATS);
        return 2;
    }
    uturn_level_t levels[2];
    uturn_level_init(&levels[0]);
    uturn_level_init(&levels[1]);
    levels[0].name       = "mem";
    levels[0].slots      = arg(argc, argv, 3, 20);
    levels[1].name       = "disk";
    levels[1].slots      = arg(argc, argv, 4, 500);
    levels[1].write_cost = arg(argc, argv, 5, 5);
    levels[1].read_cost  = arg(argc, argv, 6, 5);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner     = UTURN_PLANNER_HREVOLVE;
    p.steps       = arg(argc, argv, 2, 10000);
    p.levels      = levels;
    p.level_count = 2;
    printf("hrevolve n=%llu, mem %llu slots, disk %llu slots w=%llu r=%llu; "
           "%d repetitions of uturn_plan_create\n",
           (unsigned long long)p.steps, (unsigned long long)levels[0].slots,
           (unsigned long long)levels[1].slots,
           (unsigned long long)levels[1].write_cost,
           (unsigned long long)levels[1].read_cost, repeats);
    uturn_plan_t *plan = timed(&p, repeats);
    if (plan == NULL)
        return 2;
    uturn_stats_t st;
    uturn_stats_init(&st);
    uturn_plan_stats(plan, &st);
    print_stats(plan, &st);
    const int rc = check(plan, &st);
    uturn_plan_free(plan);
    return rc;
}
