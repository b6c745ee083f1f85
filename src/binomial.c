/* Binomial arithmetic for the planners that reason about revolve's
 * counts over ranges of states (the online planners): beta, the
 * repetition number, t(l, c) and revolve's split, saturating at
 * UINT64_MAX (see internal.h). */
#include "internal.h"

#define INF UINT64_MAX

/* uturn__bin_beta(c, r) = C(c + r, c), or cap when it is at least cap. Each partial
 * product b * (n - k + i) / i is C(n - k + i, i), an exact division; it
 * takes the 128-bit path only when the product passes 64 bits, since the
 * DP calls this in its inner loop. */
uint64_t uturn__bin_beta(uint64_t c, uint64_t r, uint64_t cap)
{
    const uint64_t k = c < r ? c : r;
    uint64_t b       = 1;
    for (uint64_t i = 1; i <= k; i++) {
        const uint64_t f = c + r - k + i;
        uint64_t p;
        if (__builtin_mul_overflow(b, f, &p)) {
            const uturn__u128 q = (uturn__u128)b * f / i;
            if (q >= cap)
                return cap;
            b = (uint64_t)q;
        } else
            b = p / i;
        if (b >= cap)
            return cap;
    }
    return b;
}

/* The least r with uturn__bin_beta(c, r) >= l: the repetition number of a range of
 * l states reversed with c slots. */
uint64_t uturn__bin_rep(uint64_t l, uint64_t c)
{
    if (l <= 1)
        return 0;
    if (c == 1)
        return l - 1;
    /* Small r first, one multiply per r: the sweep's ranges are short. */
    uint64_t b = 1;
    for (uint64_t r = 1; r <= 32; r++) {
        uint64_t p;
        if (__builtin_mul_overflow(b, c + r, &p))
            break;
        b = p / r;
        if (b >= l)
            return r;
    }
    uint64_t lo = 1, hi = 1;
    while (uturn__bin_beta(c, hi, l) < l)
        hi *= 2;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (uturn__bin_beta(c, mid, l) >= l)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* t(l, c): forward steps revolve needs to reverse l states from a stored
 * first one with c slots, r*l - uturn__bin_beta(c+1, r-1); INF when it overflows. */
uint64_t uturn__bin_t(uint64_t l, uint64_t c)
{
    if (l <= 1)
        return 0;
    if (c == 1) {
        const uturn__u128 t = (uturn__u128)l * (l - 1) / 2;
        return t >= INF ? INF : (uint64_t)t;
    }
    const uint64_t r = uturn__bin_rep(l, c);
    const uturn__u128 rl    = (uturn__u128)r * l;
    const uturn__u128 sub   = uturn__bin_beta(c + 1, r - 1, INF);
    if (rl - sub >= INF)
        return INF;
    return (uint64_t)(rl - sub);
}

/* t(l, c) when the repetition number r is already known (l in
 * (uturn__bin_beta(c, r-1), uturn__bin_beta(c, r)], or r = 0 and l = 1); the DP's inner loop
 * knows it from the water level. */
uint64_t uturn__bin_t_at(uint64_t l, uint64_t c, uint64_t r)
{
    if (l <= 1 || r == 0)
        return 0;
    if (c == 1)
        return uturn__bin_t(l, 1);
    const uturn__u128 rl  = (uturn__u128)r * l;
    const uturn__u128 sub = uturn__bin_beta(c + 1, r - 1, INF);
    return rl - sub >= INF ? INF : (uint64_t)(rl - sub);
}

/* revolve's split of l >= 2 states with c slots: the smallest optimal j,
 * max(1, uturn__bin_beta(c, r-2), l - uturn__bin_beta(c-1, r)). */
uint64_t uturn__bin_split(uint64_t l, uint64_t c)
{
    const uint64_t r    = uturn__bin_rep(l, c);
    const uint64_t low  = r >= 2 ? uturn__bin_beta(c, r - 2, l) : 0;
    const uint64_t vcap = uturn__bin_beta(c - 1, r, l);
    uint64_t j          = l > vcap ? l - vcap : 0;
    j                   = j > low ? j : low;
    return j > 1 ? j : 1;
}
