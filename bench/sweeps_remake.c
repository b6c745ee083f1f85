/*
 * What freeing a persistent checkpoint and making it again could buy, on
 * the grid of the TwoLevel comparison (docs/model.md section 13, "How far
 * any plan could go").
 *
 * Plans better than uturn's family on small chains (the exhaustive search
 * of tests/test_sweeps.c) do this in the sweeps between the first and the
 * last: once segment i+1 is reversed, its base x_{p_{i+1}} (kept for the
 * next sweep) is freed, segment i is reversed with that slot as scratch,
 * and x_{p_{i+1}} is made again from a checkpoint of segment i once the
 * part above that checkpoint is reversed. For one segment of L states
 * from its base with c slots (the base's and the freed one included),
 * ending with the top made again, the least forward steps of every plan
 * of that shape are Q(L, c):
 *
 *   Q(L, c) = min( t(L, c - 1),                  keep the top throughout
 *                  t(L, c) + L,                   make it from the base
 *                  min_p p + G(L - p, c - 1) + t(p, c - 1) )
 *   G(L, c) = min( t(L, c) + L,                   the same, base dropped
 *                  min_p p + G(L - p, c - 1) + t(p, c - 1) )
 *
 * (advance p states and store, reverse the part above making the top
 * again from its own checkpoint, then the part below with one slot less,
 * since the top is held). A sweep of the family with m persistent
 * checkpoints and c = s - m + 1 slots per segment costs sum t(L_i, c);
 * with the trick, every segment below the top costs Q(L_i, c + 1). The
 * family's sweep is exact (t is convex in L: equal lengths); for the
 * trick the program gives the sweep at equal lengths (a plan) and a lower
 * bound over every choice of lengths (m times the lower convex hull of Q
 * at (n + 1) / m), so the most the trick could save on each case. The
 * first row, n = 9 with 2 slots, is a case the exhaustive search reaches:
 * its optimum for 5 sweeps (92) takes 18 in each sweep between the first
 * and the last, by this trick. Beside each case, the repetition number of
 * the family's longest segment with its c slots and with all s: where
 * they are equal, freed slots save the segment no forward step per state,
 * only a constant (t(l, c) = r l - beta(c + 1, r - 1)), while making the
 * checkpoint again takes a forward step per state it passes; so the trick
 * can save at most that constant (on short chains, all of its saving).
 * Counts, not times. usage: sweeps_remake
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

#define LMAX 10002 /* states per segment: up to n + 1, n = 10000 */
#define CMAX 72    /* slots per segment: 20 + 50 + 2 */

struct tables {
    uint64_t t[LMAX + 1][CMAX];
    uint64_t g[LMAX + 1][CMAX];
    uint64_t q[LMAX + 1][CMAX];
};

static uint64_t t_of(uint64_t l, uint64_t c)
{
    return l <= 1 ? 0 : uturn__bin_t(l, c);
}

/* min_p p + G(l - p, c - 1) + t(p, c - 1): split, remake above. */
static uint64_t split_remake(const struct tables *x, uint64_t l, uint64_t c)
{
    uint64_t best = UINT64_MAX;
    for (uint64_t p = 1; p < l; p++) {
        const uint64_t v = p + x->g[l - p][c - 1] + x->t[p][c - 1];
        best             = v < best ? v : best;
    }
    return best;
}

static void fill(struct tables *x)
{
    for (uint64_t l = 0; l <= LMAX; l++)
        for (uint64_t c = 1; c < CMAX; c++)
            x->t[l][c] = t_of(l, c);
    for (uint64_t c = 1; c < CMAX; c++)
        for (uint64_t l = 1; l <= LMAX; l++) {
            const uint64_t base = x->t[l][c] + l;
            const uint64_t sp   = c >= 2 ? split_remake(x, l, c) : UINT64_MAX;
            x->g[l][c]          = sp < base ? sp : base;
            uint64_t q          = UINT64_MAX;
            if (c >= 2) {
                q = x->t[l][c - 1];
                q = base < q ? base : q;
                q = sp < q ? sp : q;
            }
            x->q[l][c] = q;
        }
}

/* The lower convex hull of Q(., c) over l = 1 .. top, at the real point
 * at: a lower bound on the mean of Q over lengths of mean at. */
static double hull_at(const struct tables *x, uint64_t c, uint64_t top,
                      double at)
{
    uint64_t *h = malloc(sizeof *h * (top + 1)), k = 0;
    if (h == NULL)
        abort();
    for (uint64_t l = 1; l <= top; l++) {
        const double y = (double)x->q[l][c];
        while (k >= 2) {
            const double x1 = (double)h[k - 2], y1 = (double)x->q[h[k - 2]][c];
            const double x2 = (double)h[k - 1], y2 = (double)x->q[h[k - 1]][c];
            if ((y2 - y1) * ((double)l - x2) < (y - y2) * (x2 - x1))
                break;
            k--; /* h[k-1] is on or above the chord */
        }
        h[k++] = l;
    }
    double v = 0;
    for (uint64_t i = 0; i + 1 < k; i++)
        if ((double)h[i] <= at && at <= (double)h[i + 1]) {
            const double y1 = (double)x->q[h[i]][c];
            const double y2 = (double)x->q[h[i + 1]][c];
            v               = y1 +
                (y2 - y1) * (at - (double)h[i]) / (double)(h[i + 1] - h[i]);
            break;
        }
    free(h);
    return v;
}

struct sweep {
    uint64_t family, fm; /* the family's sweep and its m */
    uint64_t remake, rm; /* with the trick, equal lengths */
    double least;        /* with the trick, any lengths: at least */
};

/* Segment i of m over n + 1 states at equal lengths (the top the last). */
static uint64_t length(uint64_t n, uint64_t m, uint64_t i)
{
    return (n + 1) / m + (i >= m - (n + 1) % m);
}

static struct sweep one_case(const struct tables *x, uint64_t n, uint64_t s)
{
    struct sweep w = {UINT64_MAX, 0, UINT64_MAX, 0, 0};
    w.least        = 1e300;
    for (uint64_t m = 1; m <= s; m++) {
        const uint64_t c = s - m + 1;
        uint64_t f = 0, r = 0;
        for (uint64_t i = 0; i < m; i++) {
            const uint64_t l  = length(n, m, i);
            const uint64_t tl = x->t[l][c];
            f += tl;
            r += i + 1 < m && x->q[l][c + 1] < tl ? x->q[l][c + 1] : tl;
        }
        if (f < w.family)
            w.family = f, w.fm = m;
        if (r < w.remake)
            w.remake = r, w.rm = m;
        /* Q(l, c + 1) <= t(l, c), so m Q-hull((n+1)/m) bounds every
         * length choice, the top segment's included. */
        const double mean = (double)(n + 1) / (double)m;
        const double low =
            m == 1 ? (double)f : (double)m * hull_at(x, c + 1, n + 2 - m, mean);
        w.least = low < w.least ? low : w.least;
    }
    return w;
}

static void row(const struct tables *x, uint64_t n, uint64_t ram, uint64_t disk,
                double *sum)
{
    const uint64_t s     = ram + disk;
    const struct sweep w = one_case(x, n, s);
    /* the family's longest segment: its repetition number with the
     * family's c slots, and with all s (the most any freed slots give) */
    const uint64_t c = s - w.fm + 1, l = (n + w.fm) / w.fm;
    printf("| %llu | %llu + %llu | %llu (%llu) | %llu → %llu | %llu (%llu) "
           "| %.1f | %.3f %% |\n",
           (unsigned long long)n, (unsigned long long)ram,
           (unsigned long long)disk, (unsigned long long)w.family,
           (unsigned long long)w.fm, (unsigned long long)uturn__bin_rep(l, c),
           (unsigned long long)uturn__bin_rep(l, s),
           (unsigned long long)w.remake, (unsigned long long)w.rm, w.least,
           100.0 * (1 - w.least / (double)w.family));
    if (sum != NULL) {
        sum[0] += (double)w.family;
        sum[1] += (double)w.remake;
        sum[2] += w.least;
    }
}

int main(void)
{
    static struct tables x;
    fill(&x);
    const uint64_t ns[2] = {1000, 10000}, rams[3] = {5, 10, 20};
    const uint64_t disks[3] = {10, 20, 50};
    double sum[3]           = {0};
    printf("| n | RAM + disk | family's sweep (m) | a segment's repetition "
           "number: c slots → all s | with the trick, equal lengths (m) | "
           "with the trick, any lengths: at least | at most fewer |\n| --- "
           "| --- | --- | --- | --- | --- | --- |\n");
    row(&x, 9, 1, 1, NULL); /* the exhaustive search's case, not summed */
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++)
            for (int d = 0; d < 3; d++)
                row(&x, ns[a], rams[b], disks[d], sum);
    printf("\n| summed over the grid | family's sweep | with the trick, "
           "equal lengths | with the trick, at least | at most fewer |\n| "
           "--- | --- | --- | --- | --- |\n| n = 1000 and 10000 | %.0f | %.0f "
           "| %.1f | %.3f %% |\n",
           sum[0], sum[1], sum[2], 100.0 * (1 - sum[2] / sum[0]));
    return 0;
}
