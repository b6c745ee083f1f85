/*
 * Revolve plan generation speed: walk every action of a plan through a
 * cursor, no printing, and report nanoseconds per action. Each case runs
 * several times; the best run is reported (the machines are shared).
 * Two consumers: uturn_cursor_next() (one call per action, as TOMS 799's
 * revolve() is called) and uturn_cursor_read() (batches of 256).
 * usage: bench_revolve [STEPS SLOTS]...   (default: 1e7 20 and 1e6 100)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <uturn.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One walk; returns seconds, and the actions and a checksum seen. */
static double walk(const uturn_plan_t *plan, uint64_t *actions,
                   uint64_t *checksum)
{
    uturn_cursor_t *cursor = NULL;
    if (uturn_cursor_create(plan, NULL, &cursor) != UTURN_OK)
        exit(2);
    uturn_action_t a;
    uint64_t count = 0, sum = 0;
    const double start = now();
    while (uturn_cursor_next(cursor, &a)) {
        count += 1;
        sum += a.step ^ a.slot;
    }
    const double spent = now() - start;
    uturn_cursor_free(cursor);
    *actions  = count;
    *checksum = sum;
    return spent;
}

static double walk_batched(const uturn_plan_t *plan, uint64_t *actions,
                           uint64_t *checksum)
{
    uturn_cursor_t *cursor = NULL;
    if (uturn_cursor_create(plan, NULL, &cursor) != UTURN_OK)
        exit(2);
    uturn_action_t batch[256];
    uint64_t count = 0, sum = 0;
    size_t got         = 0;
    const double start = now();
    while (uturn_cursor_read(cursor, batch, 256, &got) == UTURN_OK &&
           got != 0) {
        for (size_t i = 0; i < got; i++)
            sum += batch[i].step ^ batch[i].slot;
        count += got;
    }
    const double spent = now() - start;
    uturn_cursor_free(cursor);
    *actions  = count;
    *checksum = sum;
    return spent;
}

typedef double (*walker_fn)(const uturn_plan_t *, uint64_t *, uint64_t *);

/* Best of five walks; the action count must equal the prediction. */
static int time_walks(const uturn_plan_t *plan, walker_fn fn, const char *how,
                      uint64_t predicted)
{
    double best      = 1e30;
    uint64_t actions = 0, checksum = 0;
    for (int rep = 0; rep < 5; rep++) {
        const double t = fn(plan, &actions, &checksum);
        best           = t < best ? t : best;
    }
    if (actions != predicted)
        return fprintf(stderr, "walked %llu actions, predicted %llu\n",
                       (unsigned long long)actions,
                       (unsigned long long)predicted),
               2;
    printf("  %-18s %6.2f ns/action (best of 5; checksum %llu)\n", how,
           1e9 * best / (double)actions, (unsigned long long)checksum);
    return 0;
}

static int run_case(uint64_t steps, uint64_t slots)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_REVOLVE;
    p.steps            = steps;
    p.slots            = slots;
    uturn_plan_t *plan = NULL;
    if (uturn_plan_create(&p, NULL, &plan, NULL) != UTURN_OK)
        return 2;
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    printf("revolve n=%llu s=%llu: %llu actions\n", (unsigned long long)steps,
           (unsigned long long)slots, (unsigned long long)s.actions);
    int rc = time_walks(plan, walk, "uturn_cursor_next", s.actions);
    if (rc == 0)
        rc = time_walks(plan, walk_batched, "uturn_cursor_read", s.actions);
    uturn_plan_free(plan);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        const int rc = run_case(10000000, 20);
        return rc != 0 ? rc : run_case(1000000, 100);
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        const int rc = run_case(strtoull(argv[i], NULL, 10),
                                strtoull(argv[i + 1], NULL, 10));
        if (rc != 0)
            return rc;
    }
    return 0;
}
