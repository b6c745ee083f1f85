/*
 * The executor against a hand-written loop, at every state size, measured
 * side by side in one process (the machines are shared and noisy, so only
 * ratios of interleaved runs mean much). The hand loop uses the same
 * callbacks, allocates its slot memory once (one mapping) and walks a
 * prebuilt array of the same plan's actions, so generating actions counts
 * against the executor.
 *
 *  1. warm runs, store-all and revolve (10% of store-all's memory), at
 *     64 B, 4 KiB, 64 KiB, 1 MiB and 16 MiB states: executor / hand, the
 *     median of REPS interleaved pairs and their range;
 *  2. copy throughput with empty callbacks (every byte the run stores and
 *     restores, over its time) against the hand loop's memcpy of the same
 *     bytes to the same kind of addresses;
 *  3. a first (cold) run of a fresh executor against a cold hand loop;
 *  4. the alternating sequence store-all -> revolve 50/10/2 % -> periodic
 *     10 % on one executor, three times, against a hand loop that obeys the
 *     same budgets (shrinks to each run's budget before it, grows when it
 *     needs more): each run's ratio, and minor page faults per run against
 *     the bytes the executor's storage grew by;
 *  5. deterministic figures: allocations and page faults per run of a
 *     repeated plan;
 *  6. store-all (64 KiB states, 128 MiB) right after a periodic 10 % run,
 *     whose budget shrank the executor's region; right after the same run
 *     given store-all's budget (options.budget_bytes), which keeps it; and
 *     store-all repeated; each against a hand loop that keeps all its
 *     pages: what growing the region again (faulting its pages in anew)
 *     costs.
 *
 * Never a test: a missed target never fails; a failed run or differing
 * results do (exit 2).
 * usage: bench_executor [REPS [ROUNDS]]   (default 11 and 11: ROUNDS is
 *        how often section 4 runs its cycle; its summary gives each plan's
 *        median ratio over the rounds)
 *        bench_executor --cycle ROUNDS          (section 4 alone)
 *        bench_executor --regrow                (section 6 alone)
 *        bench_executor --pairs PLANNER BYTES [empty]   (one row of
 *        section 1, or with empty of section 2; REPS=k in the
 *        environment sets the pairs)
 * BENCH_CLOCK=cpu times both sides by the thread's CPU time instead of
 * wall time (steadier on a loaded machine; see exec_common.c).
 *        bench_executor --one PLANNER BYTES exec|hand[-empty] [RUNS]
 *        (RUNS runs of one side, the first cold, -empty with empty
 *        callbacks as in section 2: for callgrind and perf)
 */
#include "counting_alloc.h"
#include "exec_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reps = 11;
static int rounds = 11; /* of section 4's cycle */

static const uint64_t sizes[] = {64, 4 * KIB, 64 * KIB, MIB, 16 * MIB};
#define SIZES (sizeof sizes / sizeof sizes[0])

/* Steps for a state size: about 64 MiB of states, at least 16 steps. */
static uint64_t steps_for(uint64_t bytes)
{
    const uint64_t n = 64 * MIB / bytes;
    return n < 16 ? 16 : n > (1u << 20) ? (1u << 20) : n;
}

struct pair_stats {
    double median, lo, hi;   /* executor / hand */
    double exec_ns, hand_ns; /* median per action */
};

static void model_for(struct model *m, uint64_t bytes, bool empty)
{
    m->words = bytes / 8;
    m->state = xmalloc((size_t)bytes);
    m->empty = empty;
}

/* REPS interleaved pairs on one executor and one hand region, warm. */
static struct pair_stats warm_pairs(uturn_executor_t *ex,
                                    const uturn_plan_t *plan,
                                    struct model *m)
{
    struct actions a;
    actions_of(plan, &a);
    struct region r = {0};
    region_fit(&r, a.span * ((8 * m->words + 15) / 16 * 16));
    exec_run(ex, plan, m, NULL);
    const uint64_t acc = m->acc;
    hand_run(&a, &r, m);
    if (m->acc != acc)
        die("the executor and the hand loop disagree");
    double *ratio = xmalloc((size_t)reps * sizeof *ratio);
    double *te = xmalloc((size_t)reps * sizeof *te);
    double *th = xmalloc((size_t)reps * sizeof *th);
    for (int i = 0; i < reps; i++) {
        const bool exec_first = i % 2 == 0;
        if (!exec_first)
            th[i] = hand_run(&a, &r, m);
        te[i] = exec_run(ex, plan, m, NULL);
        if (exec_first)
            th[i] = hand_run(&a, &r, m);
        ratio[i] = te[i] / th[i];
    }
    struct pair_stats s;
    double lo, hi;
    summarize(ratio, reps, &s.median, &s.lo, &s.hi);
    summarize(te, reps, &s.exec_ns, &lo, &hi);
    summarize(th, reps, &s.hand_ns, &lo, &hi);
    s.exec_ns *= 1e9 / (double)a.count;
    s.hand_ns *= 1e9 / (double)a.count;
    free(ratio), free(te), free(th);
    region_free(&r);
    actions_free(&a);
    return s;
}

static uint64_t budget_for(uturn_planner_t planner, uint64_t n, uint64_t b,
                           double fraction)
{
    (void)planner;
    const uint64_t stride = (b + 15) / 16 * 16;
    const double raw      = fraction * (double)n * (double)stride;
    uint64_t budget       = (uint64_t)raw;
    return budget < 3 * stride + 8192 ? 3 * stride + 8192 : budget;
}

/* Section 1: warm ratios. */
static void section_warm(void)
{
    printf("\n## 1. Warm runs: executor / hand loop (median of %d pairs, "
           "range)\n\n",
           reps);
    printf("| state | steps | planner | ratio | range | executor ns/action | "
           "hand ns/action |\n|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < SIZES; k++) {
        const uint64_t b = sizes[k], n = steps_for(b);
        struct model m;
        model_for(&m, b, false);
        uturn_executor_t *ex = NULL;
        uturn_executor_create(NULL, &ex, NULL);
        const uturn_planner_t pl[2] = {UTURN_PLANNER_STORE_ALL,
                                       UTURN_PLANNER_REVOLVE};
        for (int p = 0; p < 2; p++) {
            uturn_plan_t *plan = bench_plan(
                ex, pl[p], n, b, p == 0 ? 0 : budget_for(pl[p], n, b, 0.1));
            const struct pair_stats s = warm_pairs(ex, plan, &m);
            printf("| %llu B | %llu | %s | %.3f | %.3f..%.3f | %.1f | %.1f |\n",
                   (unsigned long long)b, (unsigned long long)n,
                   uturn_planner_name(pl[p]), s.median, s.lo, s.hi,
                   s.exec_ns, s.hand_ns);
            uturn_plan_free(plan);
        }
        uturn_executor_free(ex);
        free(m.state);
    }
}

/* Section 2: copy throughput with empty callbacks. */
static void section_copies(void)
{
    printf("\n## 2. Copy throughput, empty callbacks: executor as %% of the "
           "hand loop's memcpy (median of %d pairs, range)\n\n",
           reps);
    printf("| state | steps | bytes copied per run | executor GB/s | "
           "throughput | range |\n|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < SIZES; k++) {
        const uint64_t b = sizes[k], n = steps_for(b);
        struct model m;
        model_for(&m, b, true);
        uturn_executor_t *ex = NULL;
        uturn_executor_create(NULL, &ex, NULL);
        uturn_plan_t *plan =
            bench_plan(ex, UTURN_PLANNER_STORE_ALL, n, b, 0);
        const struct pair_stats s = warm_pairs(ex, plan, &m);
        const double copied       = 2.0 * (double)n * (double)b;
        const double gbs = copied / (s.exec_ns * 1e-9 * (double)(5 * n + 1));
        printf("| %llu B | %llu | %.0f MiB | %.2f | %.1f %% | %.1f..%.1f %% "
               "|\n",
               (unsigned long long)b, (unsigned long long)n, copied / 1048576,
               gbs / 1e9, 100.0 / s.median, 100.0 / s.hi, 100.0 / s.lo);
        uturn_plan_free(plan);
        uturn_executor_free(ex);
        free(m.state);
    }
}

/* One cold pair: a fresh executor's first run, a fresh region's first. */
static void cold_pair(uturn_planner_t planner, uint64_t n, uint64_t b,
                      struct model *m, const struct actions *a, double *te,
                      double *th, bool exec_first)
{
    for (int k = 0; k < 2; k++) {
        if ((k == 0) == exec_first) {
            uturn_executor_t *ex = NULL;
            uturn_executor_create(NULL, &ex, NULL);
            uturn_plan_t *plan = bench_plan(ex, planner, n, b, 0);
            *te                = exec_run(ex, plan, m, NULL);
            uturn_plan_free(plan);
            uturn_executor_free(ex);
        } else {
            struct region r = {0};
            region_fit(&r, a->span * ((b + 15) / 16 * 16));
            *th = hand_run(a, &r, m);
            region_free(&r);
        }
    }
}

/* Section 3: first runs, store-all (every slot's pages touched first). */
static void section_cold(void)
{
    printf("\n## 3. First (cold) run of store-all: a fresh executor / a "
           "fresh hand loop (median of %d pairs, range)\n\n",
           reps);
    printf("| state | steps | ratio | range |\n|---|---|---|---|\n");
    for (size_t k = 0; k < SIZES; k++) {
        const uint64_t b = sizes[k], n = steps_for(b);
        struct model m;
        model_for(&m, b, false);
        uturn_executor_t *ex = NULL;
        uturn_executor_create(NULL, &ex, NULL);
        uturn_plan_t *plan = bench_plan(ex, UTURN_PLANNER_STORE_ALL, n, b, 0);
        struct actions a;
        actions_of(plan, &a);
        uturn_plan_free(plan);
        uturn_executor_free(ex);
        double *ratio = xmalloc((size_t)reps * sizeof *ratio);
        for (int i = 0; i < reps; i++) {
            double te = 0, th = 0;
            cold_pair(UTURN_PLANNER_STORE_ALL, n, b, &m, &a, &te, &th,
                      i % 2 == 0);
            ratio[i] = te / th;
        }
        double med, lo, hi;
        summarize(ratio, reps, &med, &lo, &hi);
        printf("| %llu B | %llu | %.3f | %.3f..%.3f |\n",
               (unsigned long long)b, (unsigned long long)n, med, lo, hi);
        free(ratio);
        actions_free(&a);
        free(m.state);
    }
}

/* The alternating sequence: a line search probing coarse budgets, then a
 * fine gradient. */
struct step_of_cycle {
    uturn_planner_t planner;
    double fraction; /* of store-all's memory */
};
static const struct step_of_cycle cycle[] = {
    {UTURN_PLANNER_STORE_ALL, 1.0}, {UTURN_PLANNER_REVOLVE, 0.5},
    {UTURN_PLANNER_REVOLVE, 0.1},   {UTURN_PLANNER_REVOLVE, 0.02},
    {UTURN_PLANNER_PERIODIC, 0.1}};
#define CYCLE (sizeof cycle / sizeof cycle[0])

struct cycle_run {
    double exec, hand;
    uint64_t exec_faults, hand_faults, grown;
};

/* One run of the cycle on both sides, each obeying the budget. */
static struct cycle_run cycle_run(uturn_executor_t *ex, struct region *r,
                                  struct model *m, uint64_t n, uint64_t b,
                                  const struct step_of_cycle *c)
{
    const uint64_t stride = (b + 15) / 16 * 16;
    const uint64_t budget = (uint64_t)(c->fraction * (double)(n * stride));
    uturn_plan_t *plan    = bench_plan(ex, c->planner, n, b, budget);
    struct actions a;
    actions_of(plan, &a);
    struct cycle_run out;
    uturn_report_t rep;
    uturn_report_init(&rep);
    uint64_t f0 = minor_faults();
    out.exec    = exec_run(ex, plan, m, &rep);
    out.exec_faults = minor_faults() - f0;
    out.grown       = rep.held_after_bytes > rep.held_before_bytes
                          ? rep.held_after_bytes - rep.held_before_bytes
                          : 0;
    /* The hand loop: shrink to the budget first, then to what it needs. */
    region_fit(r, r->bytes > budget / 4096 * 4096 ? budget / 4096 * 4096
                                                  : r->bytes);
    const uint64_t need = a.span * stride;
    region_fit(r, r->bytes > need ? r->bytes : need);
    f0              = minor_faults();
    out.hand        = hand_run(&a, r, m);
    out.hand_faults = minor_faults() - f0;
    actions_free(&a);
    uturn_plan_free(plan);
    return out;
}

/* Each plan's median ratio and range over the rounds of section 4. */
static void cycle_summary(double *ratio)
{
    printf("\n| plan | median ratio over %d rounds | range |\n|---|---|---|\n",
           rounds);
    for (size_t k = 0; k < CYCLE; k++) {
        double med, lo, hi;
        summarize(ratio + k * (size_t)rounds, rounds, &med, &lo, &hi);
        printf("| %s %.0f %% | %.3f | %.3f..%.3f |\n",
               uturn_planner_name(cycle[k].planner), 100 * cycle[k].fraction,
               med, lo, hi);
    }
}

/* Section 4: the alternating sequence, 64 KiB states. */
static void section_cycle(void)
{
    const uint64_t b = 64 * KIB, n = 2048;
    printf("\n## 4. Alternating plans on one executor (64 KiB states, %llu "
           "steps; store-all holds 128 MiB): each run against a hand loop "
           "obeying the same budget\n\n",
           (unsigned long long)n);
    printf("| cycle | plan | ratio | executor faults | allowed (grown/page "
           "+ 1%%) | hand faults |\n|---|---|---|---|---|---|\n");
    struct model m;
    model_for(&m, b, false);
    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    struct region r = {0};
    double *ratio = xmalloc(CYCLE * (size_t)rounds * sizeof *ratio);
    for (int round = 0; round < rounds; round++)
        for (size_t k = 0; k < CYCLE; k++) {
            const struct cycle_run c =
                cycle_run(ex, &r, &m, n, b, &cycle[k]);
            const double allowed = (double)c.grown / 4096 * 1.01 + 1;
            ratio[k * (size_t)rounds + (size_t)round] = c.exec / c.hand;
            printf("| %d | %s %.0f %% | %.3f | %llu | %.0f | %llu |\n",
                   round + 1, uturn_planner_name(cycle[k].planner),
                   100 * cycle[k].fraction, c.exec / c.hand,
                   (unsigned long long)c.exec_faults, allowed,
                   (unsigned long long)c.hand_faults);
        }
    cycle_summary(ratio);
    free(ratio);
    region_free(&r);
    uturn_executor_free(ex);
    free(m.state);
}

/* Section 5: what a repeated plan costs besides its time. */
static void section_counts(void)
{
    printf("\n## 5. A repeated plan (revolve, 64 KiB states, 2048 steps, 10 "
           "%% of store-all): allocations and page faults per run\n\n");
    printf("| run | allocations | minor faults |\n|---|---|---|\n");
    counting_alloc_t counts   = {0};
    const uturn_allocator_t a = counting_allocator(&counts);
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.alloc              = &a;
    uturn_executor_t *ex = NULL;
    uturn_executor_open(&o, &ex, NULL);
    struct model m;
    model_for(&m, 64 * KIB, false);
    uturn_plan_t *plan = bench_plan(ex, UTURN_PLANNER_REVOLVE, 2048, 64 * KIB,
                                    budget_for(0, 2048, 64 * KIB, 0.1));
    for (int run = 1; run <= 5; run++) {
        const uint64_t allocs = counts.total_allocs;
        const uint64_t f0     = minor_faults();
        exec_run(ex, plan, &m, NULL);
        printf("| %d | %llu | %llu |\n", run,
               (unsigned long long)(counts.total_allocs - allocs),
               (unsigned long long)(minor_faults() - f0));
    }
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    free(m.state);
}

/* A run of plan with options.budget_bytes = budget (0: the plan's). */
static void run_within(uturn_executor_t *ex, const uturn_plan_t *plan,
                       struct model *m, uint64_t budget)
{
    bench_model_reset(m);
    const uturn_model_t d = bench_model(m);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.budget_bytes = budget;
    if (uturn_executor_run(ex, plan, &d, &o, NULL, NULL, NULL) != UTURN_OK)
        die("a run of section 6");
}

/* One of section 6's rows: store-all on ex right after `before` (untimed,
 * with options.budget_bytes = before_budget), against the hand loop on r,
 * which keeps store-all's pages throughout. */
static void regrow_row(const char *name, uturn_executor_t *ex,
                       const uturn_plan_t *before, uint64_t before_budget,
                       const uturn_plan_t *all, const struct actions *a,
                       struct region *r, struct model *m)
{
    double *ratio = xmalloc((size_t)reps * sizeof *ratio);
    double *te    = xmalloc((size_t)reps * sizeof *te);
    double *th    = xmalloc((size_t)reps * sizeof *th);
    double *fe    = xmalloc((size_t)reps * sizeof *fe);
    double *fh    = xmalloc((size_t)reps * sizeof *fh);
    for (int i = 0; i < reps; i++) {
        const bool exec_first = i % 2 == 0;
        uint64_t f0           = 0;
        if (!exec_first) {
            f0    = minor_faults();
            th[i] = hand_run(a, r, m);
            fh[i] = (double)(minor_faults() - f0);
        }
        run_within(ex, before, m, before_budget);
        f0    = minor_faults();
        te[i] = exec_run(ex, all, m, NULL);
        fe[i] = (double)(minor_faults() - f0);
        if (exec_first) {
            f0    = minor_faults();
            th[i] = hand_run(a, r, m);
            fh[i] = (double)(minor_faults() - f0);
        }
        ratio[i] = te[i] / th[i];
    }
    double med, lo, hi, e, h, x, y;
    summarize(ratio, reps, &med, &lo, &hi);
    summarize(te, reps, &e, &x, &y);
    summarize(th, reps, &h, &x, &y);
    double faults_e, faults_h;
    summarize(fe, reps, &faults_e, &x, &y);
    summarize(fh, reps, &faults_h, &x, &y);
    printf("| %s | %.3f | %.3f..%.3f | %.1f | %.1f | %.0f | %.0f |\n", name,
           med, lo, hi, 1e3 * e, 1e3 * h, faults_e, faults_h);
    free(ratio), free(te), free(th), free(fe), free(fh);
}

/* Section 6: store-all after a smaller budget, and repeated. */
static void section_regrow(void)
{
    const uint64_t b = 64 * KIB, n = 2048, stride = (b + 15) / 16 * 16;
    printf("\n## 6. Store-all after a smaller budget (64 KiB states, %llu "
           "steps, 128 MiB) on one executor, against a hand loop that keeps "
           "its pages (median of %d pairs, range; faults per run, "
           "median)\n\n",
           (unsigned long long)n, reps);
    printf("| store-all run | ratio | range | executor ms | hand ms | "
           "executor faults | hand faults |\n|---|---|---|---|---|---|---|\n");
    struct model m;
    model_for(&m, b, false);
    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    uturn_plan_t *all =
        bench_plan(ex, UTURN_PLANNER_STORE_ALL, n, b, n * stride);
    uturn_plan_t *small = bench_plan(ex, UTURN_PLANNER_PERIODIC, n, b,
                                     (uint64_t)(0.1 * (double)(n * stride)));
    struct actions a;
    actions_of(all, &a);
    struct region r = {0};
    region_fit(&r, a.span * stride);
    hand_run(&a, &r, &m);
    exec_run(ex, all, &m, NULL);
    regrow_row("right after periodic 10 %", ex, small, 0, all, &a, &r, &m);
    regrow_row("right after periodic 10 % run with store-all's budget", ex,
               small, n * stride, all, &a, &r, &m);
    regrow_row("right after store-all (repeated)", ex, all, 0, all, &a, &r,
               &m);
    region_free(&r);
    actions_free(&a);
    uturn_plan_free(small);
    uturn_plan_free(all);
    uturn_executor_free(ex);
    free(m.state);
}

/* --one PLANNER BYTES exec|hand: one warm run of one side. */
static int one(int argc, char **argv)
{
    if (argc != 5 && argc != 6)
        die("usage: bench_executor --one PLANNER BYTES exec|hand[-empty] "
            "[RUNS]");
    uturn_planner_t planner;
    if (uturn_planner_from_name(argv[2], &planner) != UTURN_OK)
        die("unknown planner");
    const uint64_t b = strtoull(argv[3], NULL, 10), n = steps_for(b);
    const bool exec = strncmp(argv[4], "exec", 4) == 0;
    struct model m;
    model_for(&m, b, strstr(argv[4], "-empty") != NULL);
    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    uturn_plan_t *plan = bench_plan(
        ex, planner, n, b,
        planner == UTURN_PLANNER_STORE_ALL ? 0 : budget_for(0, n, b, 0.1));
    struct actions a;
    actions_of(plan, &a);
    struct region r = {0};
    region_fit(&r, a.span * ((b + 15) / 16 * 16));
    const int runs = argc == 6 ? atoi(argv[5]) : 1;
    double t       = 0;
    for (int i = 0; i < runs; i++)
        t = exec ? exec_run(ex, plan, &m, NULL) : hand_run(&a, &r, &m);
    printf("%s %s %llu B: %llu actions, %.3f s\n", argv[4], argv[2],
           (unsigned long long)b, (unsigned long long)a.count, t);
    region_free(&r);
    actions_free(&a);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    free(m.state);
    return 0;
}

/* --pairs PLANNER BYTES [empty]: section 1's (or, empty, section 2's)
 * figure for one plan and state size, REPS pairs. */
static int pairs(int argc, char **argv)
{
    uturn_planner_t planner;
    if ((argc != 4 && argc != 5) ||
        uturn_planner_from_name(argv[2], &planner) != UTURN_OK)
        die("usage: bench_executor --pairs PLANNER BYTES [empty]");
    const uint64_t b = strtoull(argv[3], NULL, 10), n = steps_for(b);
    struct model m;
    model_for(&m, b, argc == 5);
    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    uturn_plan_t *plan = bench_plan(
        ex, planner, n, b,
        planner == UTURN_PLANNER_STORE_ALL ? 0 : budget_for(0, n, b, 0.1));
    const struct pair_stats s = warm_pairs(ex, plan, &m);
    printf("%s %llu B%s: executor / hand %.3f (%.3f..%.3f, %d pairs), "
           "%.1f / %.1f ns per action\n",
           argv[2], (unsigned long long)b, argc == 5 ? " empty" : "",
           s.median, s.lo, s.hi, reps, s.exec_ns, s.hand_ns);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    free(m.state);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--one") == 0)
        return one(argc, argv);
    if (argc > 1 && strcmp(argv[1], "--pairs") == 0) {
        reps = getenv("REPS") != NULL ? atoi(getenv("REPS")) : reps;
        return pairs(argc, argv);
    }
    if (argc == 2 && strcmp(argv[1], "--regrow") == 0) {
        section_regrow();
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--cycle") == 0) {
        rounds = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
        section_cycle();
        return 0;
    }
    if (argc > 1)
        reps = atoi(argv[1]);
    if (argc > 2)
        rounds = atoi(argv[2]);
    if (reps < 3 || rounds < 1)
        die("REPS must be at least 3, ROUNDS at least 1");
    printf("# Executor against a hand-written loop (REPS = %d, %s)\n", reps,
           cpu_clock() ? "thread CPU time (BENCH_CLOCK=cpu)" : "wall time");
    section_warm();
    section_copies();
    section_cold();
    section_cycle();
    section_counts();
    section_regrow();
    return 0;
}
