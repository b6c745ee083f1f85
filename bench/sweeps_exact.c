/*
 * How close uturn's plan of several sweeps comes to the true optimum
 * (docs/model.md section 13, "How close the family comes"): the least
 * forward steps of any action sequence of K sweeps with s slots, found by
 * search, beside the plan of `revolve --sweeps K` and, per further sweep,
 * beside the plan of `--sweeps unbounded` and B, the lower bound on one
 * sweep from any s stored states (sweeps_least.h).
 *
 * The search is a shortest path, sweep after sweep and, inside a sweep,
 * layer after layer: layer t holds the nodes (live state, stored set)
 * from which adjoint step t (the turn, for t = n) is next. Moves: advance
 * (cost 1), store into a free slot, free a slot to store (only when every
 * slot is held: a free can always wait until then), drop the live state
 * (free: a restore). Exact reductions: x_0 is held from the start (the
 * only way back to it); no state is stored twice; a live state that is
 * also stored is the same node as no live state (restores cost nothing),
 * so a live x_i is never one held. Counts, not times.
 * usage: sweeps_exact            the grid of bench/RESULTS.md
 *        sweeps_exact N S K...   those cases (N <= 126, 2 <= S <= 8)
 */
#include "sweeps_least.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef uturn__u128 mask_t;
#define NMAX   126
#define SMAX   8
#define NONE   UINT32_MAX
#define BIT(b) ((mask_t)1 << (b))

struct stack {
    uint32_t *at;
    size_t len, cap;
};

struct seed {
    uint32_t d, node;
};

struct space {
    int n, held;                    /* held: states besides x_0, at most */
    uint64_t M;                     /* stored sets of x_1 .. x_n */
    mask_t *masks;                  /* by rank */
    uint64_t off[SMAX + 1];         /* first rank of each set size */
    uint64_t C[NMAX + 1][SMAX + 1]; /* binomials */
    uint32_t *dist;                 /* node = live * M + rank; live 0: none */
    struct stack now, next;         /* this distance, the next */
    struct seed *seeds;
};

static int pop(mask_t m)
{
    return __builtin_popcountll((uint64_t)m) +
           __builtin_popcountll((uint64_t)(m >> 64));
}

static int low(mask_t m)
{
    const uint64_t lo = (uint64_t)m;
    return lo != 0 ? __builtin_ctzll(lo)
                   : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

static bool has(mask_t m, int b)
{
    return (m >> b & 1) != 0;
}

/* Sets of a size are ranked in the combinatorial number system. */
static uint64_t rank_of(const struct space *sp, mask_t m)
{
    uint64_t r = 0;
    int i      = 0;
    for (; m != 0; m &= m - 1)
        r += sp->C[low(m) - 1][++i];
    return sp->off[i] + r;
}

static void *held_or_exit(void *p)
{
    if (p == NULL) {
        fputs("sweeps_exact: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

static void *grab(size_t bytes)
{
    return held_or_exit(malloc(bytes));
}

static void push(struct stack *q, uint32_t v)
{
    if (q->len == q->cap) {
        q->cap = 2 * q->cap + 1024;
        q->at  = held_or_exit(realloc(q->at, q->cap * sizeof *q->at));
    }
    q->at[q->len++] = v;
}

static void list_sets(struct space *sp, int from, mask_t m, int left)
{
    if (left == 0) {
        sp->masks[rank_of(sp, m)] = m;
        return;
    }
    for (int b = from; b <= sp->n; b++)
        list_sets(sp, b + 1, m | BIT(b), left - 1);
}

static void space_open(struct space *sp, int n, int s)
{
    memset(sp, 0, sizeof *sp);
    sp->n    = n;
    sp->held = s - 1 < n ? s - 1 : n;
    for (int a = 0; a <= NMAX; a++)
        for (int b = 0; b <= SMAX; b++)
            sp->C[a][b] = b == 0   ? 1
                          : a == 0 ? 0
                                   : sp->C[a - 1][b - 1] + sp->C[a - 1][b];
    for (int j = 0; j <= sp->held; j++) {
        sp->off[j] = sp->M;
        sp->M += sp->C[n][j];
    }
    sp->masks = grab(sp->M * sizeof *sp->masks);
    for (int j = 0; j <= sp->held; j++)
        list_sets(sp, 1, 0, j);
    sp->dist  = grab((size_t)(n + 1) * sp->M * sizeof *sp->dist);
    sp->seeds = grab(sp->M * sizeof *sp->seeds);
}

static void space_close(struct space *sp)
{
    free(sp->masks);
    free(sp->dist);
    free(sp->seeds);
    free(sp->now.at);
    free(sp->next.at);
}

static void relax(struct space *sp, uint32_t node, uint32_t d, bool step)
{
    if (d + step < sp->dist[node]) {
        sp->dist[node] = d + step;
        push(step ? &sp->next : &sp->now, node);
    }
}

/* Every move from one node at distance d. */
static void moves(struct space *sp, uint32_t node, uint32_t d)
{
    const uint64_t M = sp->M, r = node % M;
    const int live = (int)(node / M), n = sp->n;
    const mask_t m = sp->masks[r];
    if (live == 0) { /* restore x (x_0 or a held one), advance once */
        for (mask_t from = m | 1; from != 0; from &= from - 1) {
            const int x = low(from);
            if (x < n && !has(m, x + 1))
                relax(sp, (uint32_t)((uint64_t)(x + 1) * M + r), d, true);
        }
        return;
    }
    relax(sp, (uint32_t)r, d, false); /* drop the live state */
    if (live < n && !has(m, live + 1))
        relax(sp, (uint32_t)((uint64_t)(live + 1) * M + r), d, true);
    if (sp->held == 0)
        return;
    if (pop(m) < sp->held) {
        relax(sp, (uint32_t)rank_of(sp, m | BIT(live)), d, false);
        return;
    }
    for (mask_t out = m; out != 0; out &= out - 1) /* free one to store */
        relax(sp, (uint32_t)rank_of(sp, (m & ~BIT(low(out))) | BIT(live)), d,
              false);
}

static int by_distance(const void *a, const void *b)
{
    const uint32_t x = ((const struct seed *)a)->d;
    const uint32_t y = ((const struct seed *)b)->d;
    return (x > y) - (x < y);
}

/* The layer's start nodes from in[] (by stored set): live none, or x_n
 * right after the turn when it is not held. Sorted by distance. */
static size_t seed(struct space *sp, const uint32_t *in, bool after_turn)
{
    const size_t nodes = (size_t)(sp->n + 1) * sp->M;
    for (size_t i = 0; i < nodes; i++)
        sp->dist[i] = NONE;
    size_t count = 0;
    for (uint64_t r = 0; r < sp->M; r++) {
        if (in[r] == NONE)
            continue;
        const bool live = after_turn && !has(sp->masks[r], sp->n);
        const uint32_t at =
            (uint32_t)((live ? (uint64_t)sp->n * sp->M : 0) + r);
        sp->dist[at]       = in[r];
        sp->seeds[count++] = (struct seed){in[r], at};
    }
    qsort(sp->seeds, count, sizeof *sp->seeds, by_distance);
    return count;
}

/* One layer: out[r], the least distance at which adjoint step t (the
 * turn, t = n) can run with stored set r; NONE where it cannot. */
static void layer(struct space *sp, const uint32_t *in, bool after_turn, int t,
                  uint32_t *out)
{
    const size_t count = seed(sp, in, after_turn);
    size_t next_seed   = 0;
    uint32_t d         = count > 0 ? sp->seeds[0].d : 0;
    while (next_seed < count || sp->now.len > 0) {
        for (; next_seed < count && sp->seeds[next_seed].d == d; next_seed++)
            push(&sp->now, sp->seeds[next_seed].node);
        while (sp->now.len > 0) {
            const uint32_t node = sp->now.at[--sp->now.len];
            if (sp->dist[node] == d)
                moves(sp, node, d);
        }
        const struct stack swap = sp->now;
        sp->now                 = sp->next;
        sp->next                = swap;
        d++;
    }
    for (uint64_t r = 0; r < sp->M; r++) {
        const bool held = t == 0 || has(sp->masks[r], t);
        out[r]          = sp->dist[(held ? 0 : (uint64_t)t * sp->M) + r];
    }
}

/* One sweep: the turn, then adjoint steps n-1 .. 0; in[] and the result
 * are by the set stored between sweeps (no live state). */
static void sweep(struct space *sp, uint32_t *in, uint32_t *work)
{
    for (int t = sp->n; t >= 0; t--) {
        layer(sp, in, t == sp->n - 1, t, work);
        memcpy(in, work, sp->M * sizeof *in);
    }
}

static uint64_t least_of(const struct space *sp, const uint32_t *v)
{
    uint64_t best = UINT64_MAX;
    for (uint64_t r = 0; r < sp->M; r++)
        best = v[r] < best ? v[r] : best;
    return best;
}

/* The optimum of k sweeps, for k = 1 .. K, into opt[1 .. K]. */
static void optimum(int n, int s, int K, uint64_t *opt)
{
    struct space sp;
    space_open(&sp, n, s);
    uint32_t *in = grab(sp.M * sizeof *in), *work = grab(sp.M * sizeof *in);
    for (uint64_t r = 0; r < sp.M; r++)
        in[r] = NONE;
    in[rank_of(&sp, 0)] = 0; /* x_0 live and held, nothing else */
    for (int k = 1; k <= K; k++) {
        sweep(&sp, in, work);
        opt[k] = least_of(&sp, in);
    }
    free(in);
    free(work);
    space_close(&sp);
}

/* One row. A further sweep of the optimum: the mean of opt(k) - opt(k-1)
 * over the later half of k (optimal plans may alternate sweeps). */
static void row(int n, int s, int K)
{
    uint64_t opt[SMAX * 4 + 2];
    optimum(n, s, K, opt);
    const int from    = K / 2 + 1;
    const double mean = (double)(opt[K] - opt[from - 1]) / (K - from + 1);
    const uint64_t fam =
        plan_counts((uint64_t)n, (uint64_t)s, UTURN_SWEEPS_UNBOUNDED)
            .sweep_forward_steps;
    const uint64_t B = least_sweep((uint64_t)n, (uint64_t)s);
    const uint64_t all =
        plan_counts((uint64_t)n, (uint64_t)s, (uint64_t)K).forward_steps;
    printf("| %d | %d | %d | %llu | %llu | %.2f %% | %.2f (k = %d..%d) | %llu "
           "| %.2f | %llu | %.1f %% |\n",
           n, s, K, (unsigned long long)opt[K], (unsigned long long)all,
           100.0 * ((double)all / (double)opt[K] - 1), mean, from, K,
           (unsigned long long)fam, (double)fam - mean, (unsigned long long)B,
           fam > B ? 100.0 * ((double)fam - mean) / (double)(fam - B) : 0.0);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    static const int grid[][3] = {
        {20, 2, 8}, {40, 2, 8}, {80, 2, 8},  {120, 2, 8}, {20, 3, 8},
        {40, 3, 8}, {80, 3, 8}, {120, 3, 8}, {20, 4, 8},  {40, 4, 8},
        {60, 4, 6}, {80, 4, 6}, {100, 4, 6}, {20, 5, 8},  {30, 5, 8},
        {40, 5, 6}, {20, 6, 6}, {30, 6, 6}};
    printf("| n | s | K | optimum, K sweeps | uturn, K sweeps | uturn above "
           "| a further sweep: optimum | uturn | saved per sweep | bound B "
           "| share of uturn - B saved |\n"
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | "
           "--- |\n");
    if (argc > 1) {
        for (int a = 1; a + 2 < argc; a += 3) {
            const int n = atoi(argv[a]), s = atoi(argv[a + 1]);
            const int K = atoi(argv[a + 2]);
            if (n < 1 || n > NMAX || s < 2 || s > SMAX || K < 2 || K > 32)
                return fputs("sweeps_exact: N <= 126, 2 <= S <= 8, "
                             "2 <= K <= 32\n",
                             stderr),
                       1;
            row(n, s, K);
        }
        return 0;
    }
    for (size_t i = 0; i < sizeof grid / sizeof grid[0]; i++)
        row(grid[i][0], grid[i][1], grid[i][2]);
    return 0;
}
