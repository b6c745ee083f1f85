/*
 * How much does dp lose by being nested? Over random chains (n <= 7, sizes
 * 1..8, costs 1..10) and every feasible budget (x_0's size to store-all),
 * compare dp's forward_cost with the optimum over ALL valid action
 * sequences (Dijkstra over live state, held set and reverse position, as in
 * tests/test_dp.c). Prints how often the optimum is strictly below dp, and
 * the largest absolute and relative gaps with their exact instances.
 * usage: dp_search [INSTANCES [SEED]]   (default: 3000 1)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <uturn.h>

#define MAX_N 7
#define INF   UINT64_MAX

struct instance {
    uint64_t n, bytes[MAX_N], costs[MAX_N];
};

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t pick(uint64_t *state, uint64_t lo, uint64_t hi)
{
    return lo + next_random(state) % (hi - lo + 1);
}

/* ---- the all-sequences optimum (Dijkstra) -------------------------------- */

struct search {
    const struct instance *in;
    uint64_t budget, npos;
    uint64_t *dist, *heap;
    size_t heap_len;
    uint64_t held_bytes[1u << MAX_N];
};

static void heap_push(struct search *s, uint64_t key)
{
    size_t i   = s->heap_len++;
    s->heap[i] = key;
    while (i > 0 && s->heap[(i - 1) / 2] > s->heap[i]) {
        const uint64_t t     = s->heap[i];
        s->heap[i]           = s->heap[(i - 1) / 2];
        s->heap[(i - 1) / 2] = t;
        i                    = (i - 1) / 2;
    }
}

static uint64_t heap_pop(struct search *s)
{
    const uint64_t top = s->heap[0];
    s->heap[0]         = s->heap[--s->heap_len];
    for (size_t i = 0;;) {
        size_t m = i;
        for (size_t c = 2 * i + 1; c <= 2 * i + 2 && c < s->heap_len; c++)
            m = s->heap[c] < s->heap[m] ? c : m;
        if (m == i)
            break;
        const uint64_t t = s->heap[i];
        s->heap[i]       = s->heap[m];
        s->heap[m]       = t;
        i                = m;
    }
    return top;
}

static void relax(struct search *s, uint64_t d, uint64_t live, uint64_t held,
                  uint64_t pos)
{
    const uint64_t id = (live * (1ull << s->in->n) + held) * s->npos + pos;
    if (d < s->dist[id]) {
        s->dist[id] = d;
        heap_push(s, d << 32 | id);
    }
}

/* live n+1 is "undefined"; pos n+1 before the turn, i+1 when reverse i is
 * next, 0 when done. x_n is never stored (turning at once is as good). */
static void expand(struct search *s, uint64_t d, uint64_t live, uint64_t held,
                   uint64_t pos)
{
    const uint64_t n = s->in->n;
    if (live < n) {
        relax(s, d + s->in->costs[live], live + 1, held, pos);
        const uint64_t bit = 1ull << live;
        if (!(held & bit) &&
            s->held_bytes[held] + s->in->bytes[live] <= s->budget)
            relax(s, d, live, held | bit, pos);
    }
    for (uint64_t i = 0; i < n; i++) {
        if (held >> i & 1) {
            relax(s, d, i, held, pos);
            relax(s, d, live, held & ~(1ull << i), pos);
        }
    }
    if (live == n && pos == n + 1)
        relax(s, d, n, held, n);
    if (pos >= 1 && pos <= n && live == pos - 1)
        relax(s, d, n + 1, held, pos - 1);
}

static uint64_t any_optimum(const struct instance *in, uint64_t budget)
{
    struct search s   = {.in = in, .budget = budget, .npos = in->n + 2};
    const uint64_t n  = in->n;
    const size_t size = (size_t)((n + 2) * (1ull << n) * (n + 2));
    s.dist            = malloc(size * sizeof *s.dist);
    s.heap            = malloc(size * (2 * n + 4) * sizeof *s.heap);
    if (s.dist == NULL || s.heap == NULL)
        exit(2);
    for (size_t i = 0; i < size; i++)
        s.dist[i] = INF;
    for (uint64_t m = 0; m < 1ull << n; m++)
        for (uint64_t i = 0; i < n; i++)
            s.held_bytes[m] += (m >> i & 1) ? in->bytes[i] : 0;
    uint64_t best = INF;
    relax(&s, 0, 0, 0, n + 1);
    while (s.heap_len > 0 && best == INF) {
        const uint64_t key = heap_pop(&s), d = key >> 32;
        uint64_t id = key & 0xffffffffu;
        if (d != s.dist[id])
            continue;
        const uint64_t pos = id % s.npos;
        id /= s.npos;
        if (pos == 0)
            best = d;
        else
            expand(&s, d, id >> n, id & ((1ull << n) - 1), pos);
    }
    free(s.dist);
    free(s.heap);
    return best;
}

/* ---- dp ------------------------------------------------------------------ */

static uint64_t dp_cost(const struct instance *in, uint64_t budget)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_DP;
    p.steps            = in->n;
    p.budget_bytes     = budget;
    p.step_bytes       = in->bytes;
    p.step_costs       = in->costs;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_stats_t st;
    uturn_stats_init(&st);
    if (uturn_plan_create(&p, NULL, &plan, &err) != UTURN_OK ||
        uturn_plan_stats(plan, &st) != UTURN_OK) {
        fprintf(stderr, "dp_search: %s\n", err.message);
        exit(2);
    }
    uturn_plan_free(plan);
    return st.forward_cost;
}

/* ---- the study ----------------------------------------------------------- */

struct worst {
    struct instance in;
    uint64_t budget, dp, opt;
};

static void print_instance(const char *label, const struct worst *w)
{
    printf("%s: n=%llu budget=%llu sizes", label, (unsigned long long)w->in.n,
           (unsigned long long)w->budget);
    for (uint64_t i = 0; i < w->in.n; i++)
        printf("%s%llu", i ? "," : " ", (unsigned long long)w->in.bytes[i]);
    printf(" costs");
    for (uint64_t i = 0; i < w->in.n; i++)
        printf("%s%llu", i ? "," : " ", (unsigned long long)w->in.costs[i]);
    printf(": all-sequences %llu, dp %llu (gap %llu, %.2f%%)\n",
           (unsigned long long)w->opt, (unsigned long long)w->dp,
           (unsigned long long)(w->dp - w->opt),
           100.0 * (double)(w->dp - w->opt) / (double)w->opt);
}

struct tally {
    uint64_t pairs[MAX_N + 1], strict[MAX_N + 1], chains_with_gap;
    struct worst abs_w, rel_w;
};

static double relative(const struct worst *w)
{
    return (double)(w->dp - w->opt) / (double)w->opt;
}

/* Every budget of one chain; false when dp beats the optimum (a bug). */
static bool study(const struct instance *in, struct tally *t)
{
    uint64_t total = 0;
    for (uint64_t i = 0; i < in->n; i++)
        total += in->bytes[i];
    bool any_gap = false;
    for (uint64_t b = in->bytes[0]; b <= total; b++) {
        const struct worst w = {*in, b, dp_cost(in, b), any_optimum(in, b)};
        if (w.dp < w.opt) {
            print_instance("BUG: dp below the optimum", &w);
            return false;
        }
        t->pairs[in->n] += 1;
        if (w.dp == w.opt)
            continue;
        t->strict[in->n] += 1;
        any_gap = true;
        if (w.dp - w.opt > t->abs_w.dp - t->abs_w.opt)
            t->abs_w = w;
        if (t->rel_w.opt == 0 || relative(&w) > relative(&t->rel_w))
            t->rel_w = w;
    }
    t->chains_with_gap += any_gap;
    return true;
}

static void report(const struct tally *t, long count)
{
    printf("dp_search: %ld random chains (n 1..%d, sizes 1..8, costs 1..10), "
           "every budget from x_0's size to store-all\n",
           count, MAX_N);
    printf("%3s %10s %12s %8s\n", "n", "pairs", "opt < dp", "share");
    uint64_t all = 0, all_strict = 0;
    for (int n = 1; n <= MAX_N; n++) {
        const uint64_t p = t->pairs[n], s = t->strict[n];
        printf("%3d %10llu %12llu %7.3f%%\n", n, (unsigned long long)p,
               (unsigned long long)s, p ? 100.0 * (double)s / (double)p : 0.0);
        all += p;
        all_strict += s;
    }
    printf("all %10llu %12llu %7.3f%%  (chains with a gap at some budget: "
           "%llu of %ld)\n",
           (unsigned long long)all, (unsigned long long)all_strict,
           all ? 100.0 * (double)all_strict / (double)all : 0.0,
           (unsigned long long)t->chains_with_gap, count);
    if (all_strict != 0) {
        print_instance("largest absolute gap", &t->abs_w);
        print_instance("largest relative gap", &t->rel_w);
    }
}

int main(int argc, char **argv)
{
    const long count = argc > 1 ? atol(argv[1]) : 3000;
    uint64_t rng     = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    static struct tally t;
    for (long k = 0; k < count; k++) {
        struct instance in = {.n = pick(&rng, 1, MAX_N)};
        for (uint64_t i = 0; i < in.n; i++) {
            in.bytes[i] = pick(&rng, 1, 8);
            in.costs[i] = pick(&rng, 1, 10);
        }
        if (!study(&in, &t))
            return 1;
    }
    report(&t, count);
    return 0;
}
