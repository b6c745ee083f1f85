#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/*
 * bench_online_reverse: what an online plan's reversal costs per action,
 * next to revolve's whole plan for the same n and s (issue 23: no dearer).
 * Both are read through a cursor, 256 actions at a time; the online
 * plan's reversal is what it hands out once the end is told at step n.
 *
 *  time            ns per action, on five cases (s = 5 to 10^5, n = 10^6
 *                  and 10^7): seven pairs of runs, the order alternating
 *                  within each pair so that a drift in the machine's speed
 *                  falls on both alike; the medians, and the median of the
 *                  pairs' ratios.
 *  time S N PAIRS  the same for one case, with PAIRS pairs (odd; more
 *                  pairs settle a difference of a percent or two, which
 *                  seven leave in the noise).
 *  ir online|revolve S N
 *                  one run, whose reads to be measured are all made inside
 *                  measured_reads(): under valgrind --tool=callgrind
 *                  --toggle-collect=measured_reads the instructions counted
 *                  are theirs alone, which no load on the machine changes
 *                  (bench/online_reverse_ir.sh). Prints the actions read.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uturn.h>

#define PAIRS      7
#define MOST_PAIRS 1001

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every action left in c, counted; kept out of line for callgrind. */
__attribute__((noinline)) static uint64_t measured_reads(uturn_cursor_t *c)
{
    uturn_action_t a[256];
    size_t count     = 0;
    uint64_t actions = 0;
    while (uturn_cursor_read(c, a, 256, &count) == UTURN_OK && count > 0)
        actions += count;
    return actions;
}

/* A cursor on revolve's plan, or on the online plan once the end is told
 * at step n (its first sweep read here, not measured). */
static uturn_cursor_t *open_cursor(bool online, uint64_t s, uint64_t n,
                                   uturn_plan_t **plan)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.slots = s;
    if (online)
        p.planner = UTURN_PLANNER_ONLINE;
    else
        p.steps = n;
    uturn_cursor_t *c = NULL;
    if (uturn_plan_create(&p, NULL, plan, NULL) != UTURN_OK ||
        uturn_cursor_create(*plan, NULL, &c) != UTURN_OK) {
        fprintf(stderr, "bench_online_reverse: no plan for s %llu\n",
                (unsigned long long)s);
        exit(1);
    }
    uturn_action_t a[256];
    size_t count = 0;
    while (online && uturn_cursor_read(c, a, 256, &count) == UTURN_OK &&
           count > 0)
        if (a[count - 1].op == UTURN_OP_ADVANCE && a[count - 1].step_end == n) {
            uturn_cursor_end(c);
            break;
        }
    return c;
}

static double ns_per_action(bool online, uint64_t s, uint64_t n)
{
    uturn_plan_t *plan     = NULL;
    uturn_cursor_t *c      = open_cursor(online, s, n, &plan);
    const double t0        = now();
    const uint64_t actions = measured_reads(c);
    const double t         = now() - t0;
    uturn_cursor_free(c);
    uturn_plan_free(plan);
    return 1e9 * t / (double)actions;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int k)
{
    qsort(v, (size_t)k, sizeof v[0], by_value);
    return v[k / 2];
}

/* One case, in pairs (at most MOST_PAIRS): one row of the table. */
static void timed_case(uint64_t s, uint64_t n, int pairs)
{
    double on[MOST_PAIRS], rv[MOST_PAIRS], q[MOST_PAIRS];
    for (int k = 0; k < pairs; k++) {
        if (k % 2 == 0) {
            on[k] = ns_per_action(true, s, n);
            rv[k] = ns_per_action(false, s, n);
        } else {
            rv[k] = ns_per_action(false, s, n);
            on[k] = ns_per_action(true, s, n);
        }
        q[k] = on[k] / rv[k];
    }
    printf("| %llu | %llu | %.2f | %.2f | %.3f |\n", (unsigned long long)s,
           (unsigned long long)n, median(on, pairs), median(rv, pairs),
           median(q, pairs));
    fflush(stdout);
}

static void table_head(void)
{
    printf("| s | n | online reversal, ns per action | revolve's plan, ns "
           "per action | online / revolve |\n|---|---|---|---|---|\n");
}

static void timed(void)
{
    table_head();
    static const uint64_t cases[][2] = {{5, 1000000},
                                        {20, 1000000},
                                        {256, 1000000},
                                        {1000, 10000000},
                                        {100000, 10000000}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        timed_case(cases[i][0], cases[i][1], PAIRS);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "time";
    if (strcmp(what, "time") == 0 && argc == 2) {
        timed();
        return 0;
    }
    if (strcmp(what, "time") == 0 && argc == 5) {
        const uint64_t s = strtoull(argv[2], NULL, 10);
        const uint64_t n = strtoull(argv[3], NULL, 10);
        const int pairs  = atoi(argv[4]);
        if (s < 1 || n < 1 || pairs < 1 || pairs > MOST_PAIRS) {
            fprintf(stderr,
                    "bench_online_reverse: time S N PAIRS needs "
                    "S, N >= 1 and 1 <= PAIRS <= %d\n",
                    MOST_PAIRS);
            return 2;
        }
        table_head();
        timed_case(s, n, pairs);
        return 0;
    }
    if (strcmp(what, "ir") == 0 && argc == 5) {
        const bool online  = strcmp(argv[2], "online") == 0;
        const uint64_t s   = strtoull(argv[3], NULL, 10);
        const uint64_t n   = strtoull(argv[4], NULL, 10);
        uturn_plan_t *plan = NULL;
        uturn_cursor_t *c  = open_cursor(online, s, n, &plan);
        printf("actions %llu\n", (unsigned long long)measured_reads(c));
        uturn_cursor_free(c);
        uturn_plan_free(plan);
        return 0;
    }
    fprintf(stderr, "usage: bench_online_reverse time [S N PAIRS] | ir "
                    "online|revolve S N\n");
    return 2;
}
