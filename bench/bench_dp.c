/*
 * dp at the sizes real chains have (issue 12), through the public API.
 * The chains are the issue's: step_bytes random 1..8, step_costs random
 * 1..10 (fixed seed per chain), budget half of store-all's need.
 *
 *   bench_dp exact REPEATS THREADS N...
 *       exact plans, unit 1 byte; table_bytes raised to 8 GiB (n = 1000
 *       needs about 2.7 GB): median, fastest and slowest of REPEATS
 *       uturn_plan_create() calls.
 *   bench_dp approx REPEATS THREADS N
 *       the approximate planner: time, cost, certified lower bound and
 *       cost / bound.
 *   bench_dp quality CHAINS N
 *       CHAINS random chains of N steps planned exactly and approximately:
 *       approximate cost / exact optimum, worst and median.
 *   bench_dp generous
 *       the generous budget (200 one-byte states, 1 MiB) and its
 *       absurd step counts (2^63 - 1 and 10^10 steps, 3 slots).
 * Timings are reported, never compared with a threshold (bench/README.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uturn.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

struct chain {
    uint64_t n, budget;
    uint64_t *bytes, *costs;
};

static struct chain make_chain(uint64_t n, uint64_t seed)
{
    struct chain c = {.n = n};
    c.bytes        = malloc(n * sizeof *c.bytes);
    c.costs        = malloc(n * sizeof *c.costs);
    if (c.bytes == NULL || c.costs == NULL)
        exit(2);
    uint64_t all = 0;
    for (uint64_t i = 0; i < n; i++) {
        c.bytes[i] = 1 + next_random(&seed) % 8;
        c.costs[i] = 1 + next_random(&seed) % 10;
        all += c.bytes[i];
    }
    c.budget = all / 2;
    return c;
}

static void free_chain(struct chain *c)
{
    free(c->bytes);
    free(c->costs);
}

static uturn_problem_t problem(const struct chain *c, uturn_dp_mode_t mode,
                               uint64_t threads)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_DP;
    p.steps        = c->n;
    p.slot_bytes   = 8;
    p.budget_bytes = c->budget;
    p.step_bytes   = c->bytes;
    p.step_costs   = c->costs;
    p.threads      = threads;
    p.dp_mode      = mode;
    p.table_bytes  = (uint64_t)8 << 30;
    if (mode == UTURN_DP_EXACT)
        p.unit_bytes = 1;
    return p;
}

/* One plan: its stats and the wall time of uturn_plan_create(). */
static double plan_once(const uturn_problem_t *p, uturn_stats_t *st)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const double start = now();
    if (uturn_plan_create(p, NULL, &plan, &err) != UTURN_OK) {
        fprintf(stderr, "bench_dp: %s\n", err.message);
        exit(1);
    }
    const double spent = now() - start;
    uturn_stats_init(st);
    uturn_plan_stats(plan, st);
    uturn_plan_free(plan);
    return spent;
}

/* REPEATS runs: median, fastest and slowest. */
static void timed(const uturn_problem_t *p, int repeats, const char *what)
{
    double *t = malloc((size_t)repeats * sizeof *t);
    if (t == NULL)
        exit(2);
    uturn_stats_t st;
    for (int r = 0; r < repeats; r++)
        t[r] = plan_once(p, &st);
    qsort(t, (size_t)repeats, sizeof *t, by_value);
    printf("%-11s n=%-6llu threads=%llu  seconds median %8.3f  [%.3f, %.3f] "
           "of %d   cost %llu  exact %d  lower bound %llu  cost/bound %.4f\n",
           what, (unsigned long long)p->steps, (unsigned long long)p->threads,
           t[repeats / 2], t[0], t[repeats - 1], repeats,
           (unsigned long long)st.forward_cost, (int)st.exact,
           (unsigned long long)st.lower_bound_cost,
           (double)st.forward_cost / (double)st.lower_bound_cost);
    fflush(stdout);
    free(t);
}

static int exact_runs(int argc, char **argv)
{
    const int repeats      = atoi(argv[2]);
    const uint64_t threads = strtoull(argv[3], NULL, 10);
    for (int k = 4; k < argc; k++) {
        struct chain c          = make_chain(strtoull(argv[k], NULL, 10), 0);
        const uturn_problem_t p = problem(&c, UTURN_DP_EXACT, threads);
        timed(&p, repeats, "exact");
        free_chain(&c);
    }
    return 0;
}

static int approx_runs(char **argv)
{
    struct chain c = make_chain(strtoull(argv[4], NULL, 10), 0);
    const uturn_problem_t p =
        problem(&c, UTURN_DP_APPROXIMATE, strtoull(argv[3], NULL, 10));
    timed(&p, atoi(argv[2]), "approximate");
    free_chain(&c);
    return 0;
}

static int quality(char **argv)
{
    const int chains = atoi(argv[2]);
    const uint64_t n = strtoull(argv[3], NULL, 10);
    double *ratio = malloc((size_t)chains * sizeof *ratio), worst_bound = 1;
    if (ratio == NULL)
        return 2;
    for (int k = 0; k < chains; k++) {
        struct chain c     = make_chain(n, 1000 + (uint64_t)k);
        uturn_problem_t pe = problem(&c, UTURN_DP_EXACT, 1);
        uturn_problem_t pa = problem(&c, UTURN_DP_APPROXIMATE, 1);
        uturn_stats_t e, a;
        plan_once(&pe, &e);
        plan_once(&pa, &a);
        ratio[k]       = (double)a.forward_cost / (double)e.forward_cost;
        const double b = (double)a.forward_cost / (double)a.lower_bound_cost;
        worst_bound    = b > worst_bound ? b : worst_bound;
        printf("chain %2d  exact %llu  approximate %llu (%.4f)  lower bound "
               "%llu (cost/bound %.4f)\n",
               k, (unsigned long long)e.forward_cost,
               (unsigned long long)a.forward_cost, ratio[k],
               (unsigned long long)a.lower_bound_cost, b);
        free_chain(&c);
    }
    qsort(ratio, (size_t)chains, sizeof *ratio, by_value);
    printf("approximate / exact over %d chains of %llu steps: median %.4f, "
           "worst %.4f; worst cost/bound %.4f\n",
           chains, (unsigned long long)n, ratio[chains / 2], ratio[chains - 1],
           worst_bound);
    free(ratio);
    return 0;
}

static void refusal(uint64_t n)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_DP;
    p.steps            = n;
    p.slots            = 3;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const double start      = now();
    const uturn_status_t rc = uturn_plan_create(&p, NULL, &plan, &err);
    printf("steps %llu, 3 slots: %s in %.6f s (%s)\n", (unsigned long long)n,
           uturn_status_name(rc), now() - start, err.message);
    uturn_plan_free(plan);
}

static int generous(void)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_DP;
    p.steps        = 200;
    p.slot_bytes   = 1;
    p.budget_bytes = 1024 * 1024;
    uturn_stats_t st;
    double t = plan_once(&p, &st);
    printf("200 one-byte states, 1 MiB: %.6f s, forward_steps %llu\n", t,
           (unsigned long long)st.forward_steps);
    p.steps        = 1000;
    p.budget_bytes = 1000;
    t              = plan_once(&p, &st);
    printf("1000 one-byte states, 1000 bytes: %.6f s, forward_steps %llu, "
           "unit %llu\n",
           t, (unsigned long long)st.forward_steps,
           (unsigned long long)st.unit_bytes);
    refusal(9223372036854775807ull);
    refusal(10000000000ull);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "exact") == 0)
        return exact_runs(argc, argv);
    if (argc == 5 && strcmp(argv[1], "approx") == 0)
        return approx_runs(argv);
    if (argc == 4 && strcmp(argv[1], "quality") == 0)
        return quality(argv);
    if (argc == 2 && strcmp(argv[1], "generous") == 0)
        return generous();
    fprintf(stderr, "usage: bench_dp exact REPEATS THREADS N... | approx "
                    "REPEATS THREADS N | quality CHAINS N | generous\n");
    return 1;
}
