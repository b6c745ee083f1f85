#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/*
 * bench_online: how close the online planner comes to the offline optimum
 * t(n+1, s), and what its decisions cost.
 *
 *  ratios [S...]  for each s (default 2 to 10, 12, 16, 20, 50, 100, 256,
 *                 1000, 10^4, 10^5): every n up to 10^4 (10^3 past 1000
 *                 slots), then n within 40 of every beta(s, r) - 1 (where
 *                 the ratio peaks) and every 0.2% between, up to 10^7; the
 *                 worst ratio of forward_steps to t(n+1, s), where it
 *                 occurs, the worst over n >= 100, and the n where the
 *                 rules of issue 23 fail (not exactly t(n+1, s) up to
 *                 (s+1)(s+2)/2; any recomputation with n <= s). The sweep
 *                 is driven once per s; at each sampled n a copy of the
 *                 generator state (a flat block) is told the end and its
 *                 predicted count read (tests/online_sweep.c and
 *                 tests/online_scale.c check that the prediction is what
 *                 the realised plan does).
 *  decide         ns per first-sweep step of the planner's decisions
 *                 (reads through a cursor), next to a forward step of the
 *                 built-in Burgers model (256 points); median of 3.
 *  bytes          states of different sizes: the online plan (sizes given
 *                 as they come) against dp planned offline with every size
 *                 known, on random chains.
 *  wide           byte budgets of 10^3, 10^4 and 10^5 states at x_1's
 *                 size, past the 256 the online family plans: sizes alike,
 *                 or growing to twice over the run (the plan gives up
 *                 slots as they grow): ns per first-sweep step (median of
 *                 3), forward steps, and their ratio to t(n+1, s) for the
 *                 s at x_1 and for the slots left at the end.
 *
 * White-box (schedules/planner.h) for the copies of the generator state.
 */
#include "../examples/burgers_model.h"
#include "planner.h"

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
    b                                 = b < a - b ? b : a - b;
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

/* The online plan of s slots, its generator (white box: the planner the
 * plan chose, online.c or online_slots.c) and two state blocks. */
struct sweep {
    uturn_plan_t *plan;
    const struct uturn__planner *g;
    size_t bytes;
    void *state, *copy;
};

static bool sweep_open(struct sweep *w, uint64_t s)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_ONLINE;
    p.slots   = s;
    memset(w, 0, sizeof *w);
    if (uturn_plan_create(&p, NULL, &w->plan, NULL) != UTURN_OK)
        return false;
    w->g = w->plan->planner;
    w->g->state_size(w->plan, &w->bytes);
    w->state = malloc(w->bytes);
    w->copy  = malloc(w->bytes);
    if (w->state == NULL || w->copy == NULL)
        return false;
    w->g->start(w->plan, w->state);
    return true;
}

static void sweep_close(struct sweep *w)
{
    free(w->state);
    free(w->copy);
    uturn_plan_free(w->plan);
}

/* The forward steps if the end came now (a copy is ended). */
static uint64_t if_ended(struct sweep *w)
{
    memcpy(w->copy, w->state, w->bytes);
    w->g->end(w->copy);
    return w->g->forward_total(w->copy);
}

struct worst {
    double ratio, ratio100;
    uint64_t at, at100, checked, inexact, recomputed;
};

static void note(struct worst *w, uint64_t s, uint64_t n, uint64_t fw)
{
    const uint64_t best = optimum(n + 1, s);
    const double q      = (double)fw / (double)best;
    w->checked += 1;
    w->inexact += n <= (s + 1) * (s + 2) / 2 && fw != best;
    w->recomputed += n <= s && fw != n;
    if (q > w->ratio)
        w->ratio = q, w->at = n;
    if (n >= 100 && q > w->ratio100)
        w->ratio100 = q, w->at100 = n;
}

/* Sample n: every n up to every_to, within 40 of every beta(s, r) - 1
 * (where the ratio peaks), and every 0.2% between. */
static bool sampled(uint64_t s, uint64_t n, uint64_t every_to, double *next,
                    uint64_t *r)
{
    if (n <= every_to)
        return true;
    while (choose(s + *r, s) - 1 + 40 < n)
        *r += 1;
    const uint64_t b = choose(s + *r, s) - 1;
    if (n + 40 >= b) /* within 40 of b (b + 40 >= n holds) */
        return true;
    if ((double)n < *next)
        return false;
    *next = (double)n * 1.002;
    return true;
}

static void one_s(uint64_t s, uint64_t top)
{
    struct sweep sw;
    if (!sweep_open(&sw, s)) {
        printf("| %llu | cannot plan |\n", (unsigned long long)s);
        return;
    }
    const uint64_t every_to = s <= 1000 ? 10000 : 1000;
    struct worst w          = {0};
    uturn_action_t a[16];
    uint64_t n = 0, r = 1;
    double next     = 0;
    const double t0 = now();
    while (n < top) {
        const size_t got = sw.g->fill(sw.state, a, 16);
        if (got == 0 || a[got - 1].op != UTURN_OP_ADVANCE)
            break;
        n = a[got - 1].step_end;
        if (sampled(s, n, every_to, &next, &r))
            note(&w, s, n, if_ended(&sw));
    }
    printf("| %llu | 1..%llu, %llu sampled to %llu | %.4f (n = %llu) | %.4f "
           "(n = %llu) | %llu | %llu | %.0f s |\n",
           (unsigned long long)s, (unsigned long long)every_to,
           (unsigned long long)w.checked, (unsigned long long)n, w.ratio,
           (unsigned long long)w.at, w.ratio100, (unsigned long long)w.at100,
           (unsigned long long)w.inexact, (unsigned long long)w.recomputed,
           now() - t0);
    fflush(stdout);
    sweep_close(&sw);
}

static void ratios(int argc, char **argv)
{
    printf("| s | n | worst ratio | worst for n >= 100 | not t(n+1, s) up "
           "to (s+1)(s+2)/2 | recomputed with n <= s | time "
           "|\n|---|---|---|---|---|---|---|\n");
    static const uint64_t dflt[] = {2,  3,   4,   5,    6,     7,
                                    8,  9,   10,  12,   16,    20,
                                    50, 100, 256, 1000, 10000, 100000};
    const uint64_t top           = 10000000;
    if (argc > 2)
        for (int i = 2; i < argc; i++)
            one_s(strtoull(argv[i], NULL, 10), top);
    else
        for (size_t i = 0; i < sizeof dflt / sizeof dflt[0]; i++)
            one_s(dflt[i], top);
}

/* ns per first-sweep step through a cursor (the planner's decisions). */
static double decide_ns(uint64_t s, uint64_t n)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.slots            = s;
    uturn_plan_t *plan = NULL;
    uturn_plan_create(&p, NULL, &plan, NULL);
    uturn_cursor_t *c = NULL;
    uturn_cursor_create(plan, NULL, &c);
    uturn_action_t a[64];
    size_t count    = 0;
    uint64_t m      = 0;
    const double t0 = now();
    while (m < n && uturn_cursor_read(c, a, 64, &count) == UTURN_OK &&
           count > 0)
        m = a[count - 1].step_end;
    const double t = now() - t0;
    uturn_cursor_free(c);
    uturn_plan_free(plan);
    return 1e9 * t / (double)n;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of three runs of f(s, n). */
static double median3(double (*f)(uint64_t, uint64_t), uint64_t s, uint64_t n)
{
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = f(s, n);
    qsort(t, 3, sizeof t[0], by_value);
    return t[1];
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
    printf("| s | n | ns per first-sweep step (decision and read), median "
           "of 3 | a Burgers forward step, 256 points |\n|---|---|---|---"
           "|\n");
    static const uint64_t ss[] = {2, 5, 20, 50, 200, 1000, 10000, 100000};
    for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++) {
        const uint64_t n = ss[i] >= 10000 ? 10000000 : 1000000;
        printf("| %llu | %llu | %.1f | %.1f ns |\n", (unsigned long long)ss[i],
               (unsigned long long)n, median3(decide_ns, ss[i], n), step);
        fflush(stdout);
    }
}

/* The online plan's forward steps for these sizes and budget. */
static uint64_t online_bytes(const uint64_t *sizes, uint64_t n, uint64_t budget)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.budget_bytes     = budget;
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
    p.planner          = UTURN_PLANNER_DP;
    p.steps            = n;
    p.step_bytes       = sizes;
    p.budget_bytes     = budget;
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
        const uint64_t on     = online_bytes(sizes, n, budget);
        const uint64_t dp     = dp_bytes(sizes, n, budget);
        printf("| %s | %llu | %llu | %llu | %llu | %.3f |\n",
               trial % 2 == 0 ? "growing" : "noisy", (unsigned long long)n,
               (unsigned long long)k, (unsigned long long)on,
               (unsigned long long)dp, dp != 0 ? (double)on / (double)dp : 0);
    }
}

/* Sizes for the wide budgets: alike (64 bytes), or growing from 64 to
 * 128 bytes over the run. */
static uint64_t wide_size(bool grow, uint64_t i, uint64_t n)
{
    return grow ? 64 + 64 * i / n : 64;
}

struct wide {
    double ns;
    uint64_t forward;
};

/* A byte budget of s states at x_1's size, n steps: the first sweep timed
 * (ns per step: the decisions, the frees as the states grow, and the
 * reads), then the reversal read for the counts. */
static struct wide wide_run(uint64_t s, uint64_t n, bool grow)
{
    struct wide w = {0, 0};
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.budget_bytes     = s * 64 + 63;
    uturn_plan_t *plan = NULL;
    uturn_cursor_t *c  = NULL;
    if (uturn_plan_create(&p, NULL, &plan, NULL) != UTURN_OK ||
        uturn_cursor_create(plan, NULL, &c) != UTURN_OK)
        return w;
    uturn_cursor_set_size(c, 0, 64);
    uturn_action_t a[64];
    size_t count    = 0;
    bool ended      = false;
    const double t0 = now();
    while (!ended && uturn_cursor_read(c, a, 64, &count) == UTURN_OK &&
           count > 0) {
        const uturn_action_t *l = &a[count - 1];
        if (l->op != UTURN_OP_ADVANCE)
            continue;
        if (l->step_end == n)
            ended = uturn_cursor_end(c) == UTURN_OK;
        else
            uturn_cursor_set_size(c, l->step_end,
                                  wide_size(grow, l->step_end, n));
    }
    w.ns = 1e9 * (now() - t0) / (double)n;
    while (uturn_cursor_read(c, a, 64, &count) == UTURN_OK && count > 0)
        ;
    uturn_stats_t st;
    uturn_stats_init(&st);
    uturn_cursor_stats(c, &st);
    w.forward = ended ? st.forward_steps : 0;
    uturn_cursor_free(c);
    uturn_plan_free(plan);
    return w;
}

static double wide_ns(uint64_t s, uint64_t n)
{
    return wide_run(s, n, (s & 1) != 0).ns; /* odd s: growing sizes */
}

static void wide(void)
{
    printf("| states at x_1's size (s) | n | sizes | ns per first-sweep "
           "step, median of 3 | forward steps | slots at the end (e) | "
           "forward / t(n+1, s) | forward / t(n+1, e) |\n"
           "|---|---|---|---|---|---|---|---|\n");
    static const uint64_t ss[] = {1000, 10000, 100000};
    for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++)
        for (int grow = 0; grow < 2; grow++) {
            const uint64_t s = ss[i], n = s >= 10000 ? 10000000 : 1000000;
            const double ns     = median3(wide_ns, s + (uint64_t)grow, n);
            const struct wide w = wide_run(s + (uint64_t)grow, n, grow);
            const uint64_t sg   = s + (uint64_t)grow;
            const uint64_t e =
                1 + (sg * 64 + 63 - 64) / wide_size(grow, n - 1, n);
            printf("| %llu | %llu | %s | %.1f | %llu | %llu | %.4f | %.4f "
                   "|\n",
                   (unsigned long long)sg, (unsigned long long)n,
                   grow ? "64 to 128 bytes" : "64 bytes", ns,
                   (unsigned long long)w.forward, (unsigned long long)e,
                   (double)w.forward / (double)optimum(n + 1, sg),
                   (double)w.forward / (double)optimum(n + 1, e));
            fflush(stdout);
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
    else if (strcmp(what, "wide") == 0)
        wide();
    else
        fprintf(stderr, "usage: bench_online ratios [S...] | decide | "
                        "bytes | wide\n");
    return 0;
}
