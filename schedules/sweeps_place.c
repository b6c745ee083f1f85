/*
 * Where the persistent checkpoints of a several-sweeps plan go (sweeps.h):
 * for m of them, lengths L_0 .. L_{m-1} summing to n + 1 that minimise
 * the forward steps. Each segment's cost is convex in its length: growing
 * segment i < m-1 from L - 1 to L states costs
 *   1 + (k-1) rep(L, c) + rep(L, s-i)
 * and the top one k rep(L, c), where rep(L, c) is revolve's repetition
 * number (t(L, c) - t(L-1, c)), nondecreasing in L. A separable convex
 * sum under one total is minimised by giving every segment all the
 * lengths whose marginal is below some level lambda, and the rest at
 * exactly lambda: we bisect for the least lambda whose lengths reach
 * n + 1.
 */
#include "sweeps.h"

#define INF UINT64_MAX

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t p;
    return __builtin_mul_overflow(a, b, &p) ? INF : p;
}

/* c: the slots of each segment in every sweep but the last (its base
 * and the s - m scratch slots), or c_fixed on levels. */
static uint64_t scratch_c(const struct uturn__sw_layout *x)
{
    return uturn__sw_c(x);
}

/* A segment's slots in the last sweep: s - i on one level, else c. */
static uint64_t last_c(const struct uturn__sw_layout *x, uint64_t i)
{
    return x->c_fixed != 0 ? x->c_fixed : x->s - i;
}

/* The cost of growing segment i to L >= 2 states. */
static uint64_t marginal(const struct uturn__sw_layout *x, uint64_t i,
                         uint64_t L)
{
    const uint64_t c = scratch_c(x);
    if (x->steady) /* every segment, every further sweep: t(L, c) */
        return uturn__bin_rep(L, c);
    if (i == x->m - 1)
        return sat_mul(x->k, uturn__bin_rep(L, c));
    const uint64_t mid = sat_mul(x->k - 1, uturn__bin_rep(L, c));
    return uturn__sat_add(uturn__sat_add(1, mid),
                          uturn__bin_rep(L, last_c(x, i)));
}

/* The most states segment i takes at level lambda (at least 1, at most
 * cap). */
static uint64_t length_at(const struct uturn__sw_layout *x, uint64_t i,
                          uint64_t lambda, uint64_t cap)
{
    uint64_t lo = 1, hi = cap;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (marginal(x, i, mid) <= lambda)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The states all segments take at lambda (saturating at n + 2). */
static uint64_t total_at(const struct uturn__sw_layout *x, uint64_t lambda,
                         uint64_t cap)
{
    uint64_t sum = 0;
    for (uint64_t i = 0; i < x->m && sum <= x->n + 1; i++)
        sum += length_at(x, i, lambda, cap);
    return sum;
}

/* Narrow [0, *hi] around the last m's level x->lambda (the least level
 * moves little from one m to the next): gallop from it; returns lo. */
static uint64_t bracket(const struct uturn__sw_layout *x, uint64_t want,
                        uint64_t cap, uint64_t *hi)
{
    uint64_t g = x->lambda < *hi ? x->lambda : *hi, step = 1;
    if (total_at(x, g, cap) >= want) {
        while (g != 0) { /* the answer is at most g */
            const uint64_t below = g > step ? g - step : 0;
            *hi                  = g;
            if (total_at(x, below, cap) < want)
                return below + 1;
            g = below;
            step *= 2;
        }
        *hi = 0;
        return 0;
    }
    while (g < *hi) { /* the answer is above g */
        const uint64_t above = *hi - g > step ? g + step : *hi;
        if (total_at(x, above, cap) >= want) {
            *hi = above;
            return g + 1;
        }
        g = above;
        step *= 2;
    }
    return *hi;
}

uint64_t uturn__sw_place(struct uturn__sw_layout *x)
{
    const uint64_t want = x->n + 1, cap = want - (x->m - 1);
    uint64_t hi = 0;
    for (uint64_t i = 0; i < x->m; i++) {
        const uint64_t top = cap >= 2 ? marginal(x, i, cap) : 0;
        hi                 = top > hi ? top : hi;
    }
    uint64_t lo = bracket(x, want, cap, &hi);
    while (lo < hi) { /* the least lambda whose lengths reach n + 1 */
        const uint64_t mid = lo + (hi - lo) / 2;
        if (total_at(x, mid, cap) >= want)
            hi = mid;
        else
            lo = mid + 1;
    }
    uint64_t sum = 0;
    for (uint64_t i = 0; i < x->m; i++) {
        x->L[i] = lo == 0 ? 1 : length_at(x, i, lo - 1, cap);
        sum += x->L[i];
    }
    for (uint64_t i = x->m; i-- > 0 && sum < want;) { /* top first */
        const uint64_t more = length_at(x, i, lo, cap) - x->L[i];
        const uint64_t give = more < want - sum ? more : want - sum;
        x->L[i] += give;
        sum += give;
    }
    x->lambda = lo;
    return uturn__sw_cost(x);
}

uint64_t uturn__sw_cost(const struct uturn__sw_layout *x)
{
    const uint64_t c = scratch_c(x);
    if (x->steady) {
        uint64_t cost = 0;
        for (uint64_t i = 0; i < x->m; i++)
            cost = uturn__sat_add(cost, uturn__bin_t(x->L[i], c));
        return cost;
    }
    uint64_t cost = sat_mul(x->k, uturn__bin_t(x->L[x->m - 1], c));
    for (uint64_t i = 0; i + 1 < x->m; i++) {
        const uint64_t mid = sat_mul(x->k - 1, uturn__bin_t(x->L[i], c));
        cost               = uturn__sat_add(cost, x->L[i]);
        cost               = uturn__sat_add(cost, mid);
        cost = uturn__sat_add(cost, uturn__bin_t(x->L[i], last_c(x, i)));
    }
    return cost;
}

uint64_t uturn__sw_best(struct uturn__sw_layout *x, uint64_t *scratch)
{
    struct uturn__sw_layout trial = *x;
    trial.L                       = scratch;
    uint64_t best = INF, best_m = 1;
    for (uint64_t m = 1; m <= x->s; m++) {
        trial.m             = m;
        const uint64_t cost = uturn__sw_place(&trial);
        if (cost < best || m == 1) {
            best   = cost;
            best_m = m;
            for (uint64_t i = 0; i < m; i++)
                x->L[i] = scratch[i];
        }
    }
    x->m = best_m;
    return best;
}
