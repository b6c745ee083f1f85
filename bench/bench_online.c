#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/*
 * bench_online: how close the online planner comes to the offline optimum
 * t(n+1, s), and what its decisions cost.
 *
 *  ratios [S...]  for each s (default 2 3 4 5 10 20 50): every n from 1 to
 *                 2 C(s+3, 3) (at least 10^4), plus 10^5 and 10^6; the
 *                 worst ratio of
 *                 forward_steps to t(n+1, s), where it occurs, and the worst
 *                 over n >= 100. The sweep is driven once per s; at every n
 *                 a copy of the generator state (a flat block) is told the
 *                 end and its predicted count read (tests/online_sweep.c
 *                 checks that the prediction is what the realised plan
 *                 does, for every n <= 2000 and s <= 40).
 *  decide         ns per first-sweep step of the planner's decisions
 *                 (reads through a cursor), next to a forward step of the
 *                 built-in Burgers model (256 points).
 *  bytes          states of different sizes: the online plan (sizes given
 *                 as they come) against dp planned offline with every size
 *                 known, on random chains.
 *
 * White-box (schedules/online.h) for the copies of the generator state.
 */
#include "../examples/burgers_model.h"
#include "online.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* C(a, b) in 128 bits, saturating. */
static uint64_t choose(uint64_t a, uint64_t b)
{
    if (b > a)
        return 0;
    b               = b < a - b ? b : a - b;
    __extension__ unsigned __int128 r = 1;
    for (uint64_t i = 1; i <= b; i++) {
        r = r * (a - b + i) / i;
        if (r > UINT64_MAX)
            return UINT64_MAX;
    }
    return (uint64_t)r;
}

/* t(l, s) = r l - C(s + r, s + 1), r least with C(s + r, s) >= l. */
static uint64_t optimum(uint64_t l, uint64_t s)
{
    if (l <= 1)
        return 0;
    if (s == 1)
        return l * (l - 1) / 2;
    uint64_t r = 0;
    while (choose(s + r, s) < l)
        r++;
    return r * l - choose(s + r, s + 1);
}

struct worst {
    double ratio, ratio100;
    uint64_t at, at100;
};

static void note(struct worst *w, uint64_t n, double q)
{
    if (q > w->ratio)
        w->ratio = q, w->at = n;
    if (n >= 100 && q > w->ratio100)
        w->ratio100 = q, w->at100 = n;
}

/* The predicted forward steps if the end came now (a copy is ended). */
static uint64_t if_ended(const void *state, void *copy, size_t bytes)
{
    memcpy(copy, state, bytes);
    uturn__ol_end(copy);
    return uturn__ol_forward(copy);
}

static void one_s(uint64_t s)
{
    const size_t bytes = uturn__ol_state_bytes(s, 0);
    void *state = malloc(bytes), *copy = malloc(bytes);
    uturn__ol_start(state, s, 0);
    /* The range, and at least every n to 10^4 (small s reach
     * their worst case past 2 C(s+3, 3): s = 2 at n = 44). */
    const uint64_t range = 2 * choose(s + 3, 3);
    const uint64_t last  = range > 10000 ? range : 10000;
    struct worst w      = {0};
    uturn_action_t a[16];
    uint64_t n = 0, e5 = 0, e6 = 0;
    const double t0 = now();
    while (n < 1000000) {
        const size_t got = uturn__ol_fill(state, a, 16);
        if (got == 0 || a[got - 1].op != UTURN_OP_ADVANCE)
            break;
        n = a[got - 1].step_end;
        if (n > last && n != 100000 && n != 1000000)
            continue;
        const double q =
            (double)if_ended(state, copy, bytes) / (double)optimum(n + 1, s);
        if (n <= last)
            note(&w, n, q);
        e5 = n == 100000 ? (uint64_t)(q * 1e6) : e5;
        e6 = n == 1000000 ? (uint64_t)(q * 1e6) : e6;
    }
    printf("| %llu | 1..%llu | %.4f (n = %llu) | %.4f (n = %llu) | %.4f | "
           "%.4f | %.0f s |\n",
           (unsigned long long)s, (unsigned long long)last, w.ratio,
           (unsigned long long)w.at, w.ratio100, (unsigned long long)w.at100,
           (double)e5 / 1e6, (double)e6 / 1e6, now() - t0);
    fflush(stdout);
    free(state);
    free(copy);
}

static void ratios(int argc, char **argv)
{
    printf("| s | n | worst ratio | worst for n >= 100 | n = 10^5 | "
           "n = 10^6 | time |\n|---|---|---|---|---|---|---|\n");
    static const uint64_t dflt[] = {2, 3, 4, 5, 10, 20, 50};
    if (argc > 2)
        for (int i = 2; i < argc; i++)
            one_s(strtoull(argv[i], NULL, 10));
    else
        for (size_t i = 0; i < sizeof dflt / sizeof dflt[0]; i++)
            one_s(dflt[i]);
}

/* ns per first-sweep step through a cursor (the planner's decisions). */
static double decide_ns(uint64_t s, uint64_t n)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_ONLINE;
    p.slots   = s;
    uturn_plan_t *plan = NULL;
    uturn_plan_create(&p, NULL, &plan, NULL);
    uturn_cursor_t *c = NULL;
    uturn_cursor_create(plan, NULL, &c);
    uturn_action_t a[64];
    size_t count = 0;
    uint64_t m   = 0;
    const double t0 = now();
    while (m < n && uturn_cursor_read(c, a, 64, &count) == UTURN_OK &&
           count > 0)
        m = a[count - 1].step_end;
    const double t = now() - t0;
    uturn_cursor_free(c);
    uturn_plan_free(plan);
    return 1e9 * t / (double)n;
}

static void decide(void)
{
    burgers_t *b = NULL;
    burgers_create(256, 100000, &b);
    uturn_model_t m;
    burgers_model(b, &m);
    const double t0 = now();
    for (uint64_t i = 0; i < 100000; i++)
        m.forward(m.user, i);
    const double step = 1e9 * (now() - t0) / 100000.0;
    burgers_free(b);
    printf("| s | ns per first-sweep step (decision and read) | a Burgers "
           "forward step, 256 points |\n|---|---|---|\n");
    static const uint64_t ss[] = {2, 5, 20, 50, 200};
    for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++)
        printf("| %llu | %.1f | %.1f ns |\n", (unsigned long long)ss[i],
               decide_ns(ss[i], 1000000), step);
}

/* The online plan's forward steps for these sizes and budget. */
static uint64_t online_bytes(const uint64_t *sizes, uint64_t n,
                             uint64_t budget)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_ONLINE;
    p.budget_bytes = budget;
    uturn_plan_t *plan = NULL;
    uturn_cursor_t *c  = NULL;
    if (uturn_plan_create(&p, NULL, &plan, NULL) != UTURN_OK ||
        uturn_cursor_create(plan, NULL, &c) != UTURN_OK)
        return 0;
    uturn_cursor_set_size(c, 0, sizes[0]);
    uturn_action_t a[64];
    size_t count = 0;
    bool ended   = false;
    while (uturn_cursor_read(c, a, 64, &count) == UTURN_OK && count > 0) {
        const uturn_action_t *l = &a[count - 1];
        if (ended || l->op != UTURN_OP_ADVANCE)
            continue;
        if (l->step_end == n)
            ended = uturn_cursor_end(c) == UTURN_OK;
        else
            uturn_cursor_set_size(c, l->step_end, sizes[l->step_end]);
    }
    uturn_stats_t st;
    uturn_stats_init(&st);
    uturn_cursor_stats(c, &st);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
    return ended ? st.forward_steps : 0;
}

static uint64_t dp_bytes(const uint64_t *sizes, uint64_t n, uint64_t budget)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_DP;
    p.steps        = n;
    p.step_bytes   = sizes;
    p.budget_bytes = budget;
    uturn_plan_t *plan = NULL;
    if (uturn_plan_create(&p, NULL, &plan, NULL) != UTURN_OK)
        return 0;
    uturn_stats_t st;
    uturn_stats_init(&st);
    uturn_plan_stats(plan, &st);
    uturn_plan_free(plan);
    return st.forward_steps;
}

/* Random chains: smooth growth, and noise; budgets of 4 and 12 mean
 * states. */
static void bytes(void)
{
    printf("| chain | n | budget (mean states) | online forward | dp "
           "forward (offline) | ratio |\n|---|---|---|---|---|---|\n");
    srand(7);
    uint64_t sizes[400];
    for (int trial = 0; trial < 12; trial++) {
        const uint64_t n = 100 + (uint64_t)(rand() % 300);
        uint64_t total   = 0;
        for (uint64_t i = 0; i < n; i++) {
            sizes[i] = trial % 2 == 0 ? 16 * (10 + i * 20 / n)
                                      : 16 * (10 + (uint64_t)(rand() % 20));
            total += sizes[i];
        }
        const uint64_t k      = trial % 4 < 2 ? 4 : 12;
        const uint64_t budget = total / n * k;
        const uint64_t on = online_bytes(sizes, n, budget);
        const uint64_t dp = dp_bytes(sizes, n, budget);
        printf("| %s | %llu | %llu | %llu | %llu | %.3f |\n",
               trial % 2 == 0 ? "growing" : "noisy", (unsigned long long)n,
               (unsigned long long)k, (unsigned long long)on,
               (unsigned long long)dp, dp != 0 ? (double)on / (double)dp : 0);
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "ratios";
    if (strcmp(what, "ratios") == 0)
        ratios(argc, argv);
    else if (strcmp(what, "decide") == 0)
        decide();
    else if (strcmp(what, "bytes") == 0)
        bytes();
    else
        fprintf(stderr, "usage: bench_online ratios [S...] | decide | bytes\n");
    return 0;
}
