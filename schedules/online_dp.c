/* The online planner's reversal: an exact dynamic program over blocks of
 * ranges for the checkpoints held at the end (see online.h). */
#include "online.h"

#include <string.h>
/* The capacity of a block's ranges at marginal level lam: range x (slots
 * s - j - x, weight w = K - 1 - x) takes the lengths whose marginal cost
 * r + w is at most lam, uturn__bin_beta(c, lam - w) of them (at least 1). Capped at
 * W + 1, which is all a caller compares against. */
static uint64_t block_capacity(uint64_t s, uint64_t j, uint64_t K,
                               uint64_t lam, uint64_t W)
{
    uint64_t sum = 0;
    for (uint64_t x = 0; x < K && sum < W; x++) {
        const uint64_t w = K - 1 - x;
        sum += uturn__bin_beta(s - j - x, lam > w ? lam - w : 0, W + 1);
    }
    return sum;
}

/* The least level whose capacity reaches W. The level lies between the
 * bottom range alone taking W / K and it taking all of W (its weight is
 * K - 1); `from` (0 or a level known to be low enough) starts the search. */
static uint64_t block_level(uint64_t s, uint64_t j, uint64_t K, uint64_t W,
                            uint64_t from)
{
    const uint64_t c0 = s - j;
    uint64_t lo = uturn__bin_rep((W + K - 1) / K, c0), hi = uturn__bin_rep(W, c0) + K - 1;
    lo          = from > lo ? from : lo;
    if (lo >= hi)
        return hi;
    if (block_capacity(s, j, K, lo, W) >= W)
        return lo; /* the usual case when walking W upwards */
    while (lo < hi) {
        const uint64_t lam = lo + (hi - lo) / 2;
        if (block_capacity(s, j, K, lam, W) >= W)
            hi = lam;
        else
            lo = lam + 1;
    }
    return lo;
}

/*
 * A block is K consecutive ranges j .. j+K-1 (slots s-j, s-j-1, ..)
 * covering W states from a checkpoint used in place; the ranges above the
 * first start above checkpoints held inside the block and pay the advance.
 * Summed over the block, that advance is (K-1)*T1 + sum w_x L_x - (sum of
 * the bases), w_x = K-1-x. With the bases' part left aside the block is a
 * separable convex problem: water-fill the marginal costs r + w_x up to
 * level lam (block_level), the lowest ranges first on ties so that every
 * start is as high as it can be (which lets the most checkpoints serve).
 * Writes the starts' offsets off[0..K-1]; returns sum t(L_x, c_x) +
 * w_x L_x, or INF.
 */
static void block_lengths(struct view *v, uint64_t s, uint64_t j,
                          uint64_t K, uint64_t W, uint64_t lam)
{
    uint64_t sum = 0;
    for (uint64_t x = 0; x < K; x++) {
        const uint64_t w = K - 1 - x;
        v->L[x] = lam > w + 1 ? uturn__bin_beta(s - j - x, lam - w - 1, W + 1) : 1;
        sum += v->L[x];
    }
    uint64_t rest = W - sum, acc = 0;
    for (uint64_t x = 0; x < K; x++) {
        const uint64_t w   = K - 1 - x;
        const uint64_t top = uturn__bin_beta(s - j - x, lam > w ? lam - w : 0, W + 1);
        const uint64_t add = top - v->L[x] < rest ? top - v->L[x] : rest;
        /* A range that took some of this level's units has repetition
         * number lam - w; one left at the level below has lam - w - 1.
         * asg[] keeps it until block_costs() needs it. */
        v->asg[x] = add > 0 ? lam - w : lam > w + 1 ? lam - w - 1 : 0;
        v->L[x] += add;
        rest -= add;
        v->off[x] = acc;
        acc += v->L[x];
    }
}

/* sum t(L_x, c_x) + w_x L_x over the block, from block_lengths()'s
 * repetition numbers (which it left in asg[]). */
static uint64_t block_costs(struct view *v, uint64_t s, uint64_t j,
                            uint64_t K)
{
    uint64_t cost = 0;
    for (uint64_t x = 0; x < K; x++) {
        const uint64_t w = K - 1 - x;
        cost = uturn__sat_add(cost, uturn__sat_add(uturn__bin_t_at(v->L[x], s - j - x, v->asg[x]),
                                     (uint64_t)((uturn__u128)w * v->L[x])));
    }
    return cost;
}

static uint64_t block_fill(struct view *v, uint64_t s, uint64_t j,
                           uint64_t K, uint64_t W, uint64_t lam)
{
    block_lengths(v, s, j, K, W, lam);
    return block_costs(v, s, j, K);
}

static uint64_t block_cost(struct view *v, uint64_t s, uint64_t j, uint64_t K,
                           uint64_t W)
{
    if (W < K)
        return INF;
    return block_fill(v, s, j, K, W, block_level(s, j, K, W, 0));
}

/* Bases for a block's upper ranges: from the top, the highest held
 * checkpoint at or below each start, strictly between held[i] and the
 * block's end (index i2). Fills B[x]; returns their sum or INF. */
static uint64_t assign_bases(struct view *v, uint64_t i, uint64_t i2,
                             uint64_t K)
{
    const uint64_t T1 = v->held[i];
    uint64_t sum = 0, lim = i2 - 1;
    for (uint64_t x = K - 1; x >= 1; x--) {
        const uint64_t e = T1 + v->off[x];
        while (lim > i && v->held[lim] > e)
            lim--;
        if (lim <= i)
            return INF;
        v->B[x] = lim;
        sum += v->held[lim];
        lim--;
    }
    return sum;
}

/* Cost of one block from held[i] (range j, K ranges) to `end` at held
 * index i2 (k for the top); INF when its bases cannot be found. *lam is a
 * level known to be low enough on entry and the block's level on return. */
static uint64_t block_total(struct view *v, uint64_t s, uint64_t i,
                            uint64_t j, uint64_t K, uint64_t i2, uint64_t end,
                            uint64_t *lam)
{
    const uint64_t W = end - v->held[i];
    if (W < K)
        return INF;
    *lam = block_level(s, j, K, W, *lam);
    if (K >= 2) {
        /* Necessary: the top range's start, at most W less its shortest
         * length, must have K - 1 held checkpoints above held[i] below it.
         * Most candidate blocks fail here, before any length is worked
         * out. */
        const uint64_t ctop = s - j - K + 1;
        const uint64_t low  = *lam > 1 ? uturn__bin_beta(ctop, *lam - 1, W + 1) : 1;
        if (low >= W || v->held[i] + W - low < v->held[i + K - 1])
            return INF;
    }
    block_lengths(v, s, j, K, W, *lam);
    const uint64_t bases = assign_bases(v, i, i2, K);
    if (bases == INF)
        return INF;
    const uturn__u128 t = (uturn__u128)block_costs(v, s, j, K) +
                   (uturn__u128)(K - 1) * v->held[i] - bases;
    return t >= INF ? INF : (uint64_t)t;
}

/* A lower bound for everything at or above held[i] with j ranges below:
 * the offline optimum of that many states less the sweep already done. */
static uint64_t region_bound(uint64_t W, uint64_t c)
{
    const uint64_t t = uturn__bin_t(W + 1, c);
    return t == INF ? INF : t - W;
}


/* Top blocks from tight state (i, j) to n. */
static void try_top(struct view *v, uint64_t s, uint64_t n, uint64_t i,
                    uint64_t j, uint64_t kmax, struct best *b)
{
    const uint64_t k = v->h->k, f = v->F[i * v->h->cap + j];
    for (uint64_t K = 1; K <= k - i && j + K <= s && K <= kmax; K++) {
        uint64_t lam     = 0;
        const uint64_t c = uturn__sat_add(f, block_total(v, s, i, j, K, k, n, &lam));
        if (c < b->cost)
            *b = (struct best){c, i, j, K};
    }
}

/* Blocks from tight state (i, j) to every tight (i2, j + K). For a fixed
 * K the block widens with i2, so its level only rises: it is walked up
 * rather than searched for each time. */
static void try_inner(struct view *v, uint64_t s, uint64_t i, uint64_t j,
                      uint64_t kmax, const struct best *b)
{
    const uint64_t k = v->h->k, cap = v->h->cap, f = v->F[i * cap + j];
    for (uint64_t K = 1; K <= kmax && j + K < s && i + K < k; K++) {
        uint64_t lam = 0;
        for (uint64_t i2 = i + K; i2 < k; i2++) {
            const uint64_t W  = v->held[i2] - v->held[i];
            const uint64_t lb = uturn__sat_add(f, region_bound(W, s - j));
            uint64_t *slot    = &v->F[i2 * cap + j + K];
            if (uturn__sat_add(lb, v->LB[i2 * cap + j + K]) >= b->cost ||
                lb >= *slot)
                continue;
            const uint64_t c = uturn__sat_add(
                f, block_total(v, s, i, j, K, i2, v->held[i2], &lam));
            if (c < *slot) {
                *slot                   = c;
                v->ch[i2 * cap + j + K] = i << 32 | K;
            }
        }
    }
}

/* The keep-all plan's cost: every held checkpoint used in place. */
static uint64_t keep_all(struct view *v, uint64_t s, uint64_t n)
{
    uint64_t c = 0;
    for (uint64_t i = 0; i < v->h->k; i++) {
        const uint64_t end = i + 1 < v->h->k ? v->held[i + 1] : n;
        c                  = uturn__sat_add(c, uturn__bin_t(end - v->held[i], s - i));
    }
    return c;
}

/* One pass of the DP with blocks of at most kmax ranges, pruned by the
 * best plan known so far. */
static void dp_pass(struct view *v, uint64_t s, uint64_t n, uint64_t kmax,
                    struct best *b)
{
    const uint64_t k = v->h->k, cap = v->h->cap;
    for (uint64_t i = 0; i < k; i++)
        for (uint64_t j = 0; j < s; j++)
            v->F[i * cap + j] = INF;
    v->F[0] = 0;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t least = INF; /* F[i][j'] for the j' < j seen so far */
        for (uint64_t j = 0; j <= i && j < s; j++) {
            const uint64_t f = v->F[i * cap + j];
            /* Fewer ranges below at no higher cost leave more slots to
             * everything above: such a state dominates this one. */
            const bool dominated = f >= least;
            least = f < least ? f : least;
            if (f == INF || dominated ||
                uturn__sat_add(f, v->LB[i * cap + j]) >= b->cost)
                continue;
            try_top(v, s, n, i, j, kmax, b);
            try_inner(v, s, i, j, kmax, b);
        }
    }
}

/* Find the best plan; b->K == 0 means keep-all is optimal. A first pass
 * with single-range blocks (no moved checkpoint, drops allowed) is cheap
 * and gives the bound that prunes most of the full pass. The full pass
 * must recompute F, since the first pass's F are only upper bounds. */
void uturn__ol_dp(struct view *v, uint64_t s, uint64_t n, struct best *b)
{
    const uint64_t k = v->h->k, cap = v->h->cap;
    const uint64_t floor_cost = region_bound(n, s);
    *b = (struct best){keep_all(v, s, n), 0, 0, 0};
    if (b->cost == floor_cost)
        return; /* the offline optimum: nothing can beat it */
    for (uint64_t i = 0; i < k; i++)
        for (uint64_t j = 0; j < s; j++)
            v->LB[i * cap + j] =
                j <= i ? region_bound(n - v->held[i], s - j) : INF;
    dp_pass(v, s, n, 1, b);
    if (b->cost == floor_cost || k <= 1)
        return;
    struct best full = *b;
    dp_pass(v, s, n, k, &full);
    if (full.cost < b->cost) {
        *b = full;
        return;
    }
    /* The full pass overwrote the choices; redo the first pass from the
     * same start so that they describe its plan again. */
    *b = (struct best){keep_all(v, s, n), 0, 0, 0};
    dp_pass(v, s, n, 1, b);
}

/* Write one block's ranges (x = j .. j+K-1) into re/rb/rc. */
static void emit_block(struct view *v, uint64_t s, uint64_t i, uint64_t j,
                       uint64_t K, uint64_t i2, uint64_t end)
{
    block_cost(v, s, j, K, end - v->held[i]);
    assign_bases(v, i, i2, K);
    for (uint64_t x = 0; x < K; x++) {
        v->re[j + x] = v->held[i] + v->off[x];
        v->rb[j + x] = x == 0 ? i : v->B[x];
        v->rc[j + x] = s - j - x;
    }
}

/* Turn the DP's choice into ranges; returns how many. */
uint64_t uturn__ol_ranges(struct view *v, uint64_t s, uint64_t n,
                            const struct best *b)
{
    const uint64_t k = v->h->k, cap = v->h->cap;
    if (b->K == 0) {
        for (uint64_t i = 0; i < k; i++) {
            v->re[i] = v->held[i];
            v->rb[i] = i;
            v->rc[i] = s - i;
        }
        return k;
    }
    emit_block(v, s, b->i, b->j, b->K, k, n);
    uint64_t i = b->i, j = b->j;
    while (j > 0) {
        const uint64_t c = v->ch[i * cap + j], pi = c >> 32, K = c & 0xffffffffu;
        emit_block(v, s, pi, j - K, K, i, v->held[i]);
        i = pi;
        j -= K;
    }
    return b->j + b->K;
}

uint64_t uturn__ol_reversal_cost(const uint64_t *held, uint64_t k, uint64_t n,
                              uint64_t s, void *scratch)
{
    uturn__ol_init(scratch, s, 0);
    struct view v = uturn__ol_view(scratch);
    memcpy(v.held, held, k * sizeof *held);
    v.h->k = k;
    struct best b;
    uturn__ol_dp(&v, s, n, &b);
    return b.cost;
}

/* ------------------------------------------------------------------ */
/* The reversal: generating it                                         */
/* ------------------------------------------------------------------ */
