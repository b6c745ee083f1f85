/*
 * periodic's arithmetic: peak slots and forward steps of a stride, and the
 * choice of stride for a slot capacity. With m = ceil(n/k) checkpoints and
 * a last segment of L = n - (m-1)k states, a stride needs
 * max(m + L - 1, m + k - 3) slots (n when m = 1) and n + (m-1)(k-1) steps.
 */
#include "planner.h"

#include <assert.h>

uint64_t uturn__periodic_peak(uint64_t n, uint64_t k)
{
    assert(k >= 1 && k <= n);
    const uint64_t m = uturn__ceil_div(n, k);
    if (m == 1)
        return n;
    const uint64_t len_last = n - (m - 1) * k;
    const uint64_t sweep    = m + len_last - 1;
    const uint64_t replay   = m + k - 3;
    return sweep > replay ? sweep : replay;
}

uturn_status_t uturn__periodic_forward(uint64_t n, uint64_t k, uint64_t *out)
{
    const uint64_t m = uturn__ceil_div(n, k);
    /* (m-1)(k-1) < (m-1)k < n, so only the sum can overflow. */
    return uturn__add_u64(n, (m - 1) * (k - 1), out);
}

struct choice {
    uint64_t k, forward, peak;
    bool found;
};

/* Keep the candidate stride k if it fits and beats the best so far. */
static void consider(struct choice *best, uint64_t n, uint64_t slots,
                     uint64_t k)
{
    const uint64_t peak = uturn__periodic_peak(n, k);
    uint64_t forward    = 0;
    if (peak > slots || uturn__periodic_forward(n, k, &forward) != UTURN_OK)
        return;
    const bool better =
        !best->found || forward < best->forward ||
        (forward == best->forward &&
         (peak < best->peak || (peak == best->peak && k < best->k)));
    if (better)
        *best = (struct choice){k, forward, peak, true};
}

/* With m >= 2 checkpoints the strides are k in [ceil(n/m), (n-1)/(m-1)];
 * forward steps grow with k there, so the smallest k that fits is the best
 * of them. It must satisfy m + L - 1 <= slots and m + k - 3 <= slots. */
static void consider_checkpoints(struct choice *best, uint64_t n,
                                 uint64_t slots, uint64_t m)
{
    uint64_t lo       = uturn__ceil_div(n, m);
    const uint64_t hi = (n - 1) / (m - 1);
    if (n + m - 1 > slots) {
        const uint64_t need = uturn__ceil_div(n + m - 1 - slots, m - 1);
        lo                  = lo > need ? lo : need;
    }
    if (lo <= hi && slots + 3 >= m + lo)
        consider(best, n, slots, lo);
}

static uint64_t min_of(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* The least peak of any stride: used to name the minimum when none fits.
 * For m checkpoints, peak(k) = max(n + m - 1 - (m-1)k, m + k - 3) falls
 * then rises in k, crossing near k = (n + 2) / m. */
static uint64_t min_peak(uint64_t n)
{
    uint64_t best        = n;
    const uint64_t m_top = uturn__isqrt(n) + 1;
    for (uint64_t m = 2; m <= m_top && m <= n; m++) {
        const uint64_t lo = uturn__ceil_div(n, m), hi = (n - 1) / (m - 1);
        if (lo > hi)
            continue;
        const uint64_t cross = (n + 2) / m;
        const uint64_t a     = cross < lo ? lo : min_of(cross, hi);
        const uint64_t b     = min_of(a + 1, hi);
        best                 = min_of(best, min_of(uturn__periodic_peak(n, a),
                                                   uturn__periodic_peak(n, b)));
    }
    const uint64_t k_top = uturn__ceil_div(n, m_top);
    for (uint64_t k = 2; k <= k_top && k <= n; k++)
        if (uturn__ceil_div(n, k) > m_top)
            best = min_of(best, uturn__periodic_peak(n, k));
    return best;
}

/* Few checkpoints (m <= sqrt n) are searched by m, short strides
 * (k < n / sqrt n) by k: O(sqrt n) work, exact. */
bool uturn__periodic_choose(uint64_t n, uint64_t slots, uint64_t *k,
                            uint64_t *min_slots)
{
    struct choice best = {0, 0, 0, false};
    consider(&best, n, slots, 1);
    consider(&best, n, slots, n);
    const uint64_t m_top  = uturn__isqrt(n) + 1;
    const uint64_t m_stop = slots < n ? slots + 1 : n;
    for (uint64_t m = 2; m <= m_top && m <= m_stop; m++)
        consider_checkpoints(&best, n, slots, m);
    const uint64_t k_top = uturn__ceil_div(n, m_top);
    for (uint64_t kk = 2; kk <= k_top && kk <= n && kk <= slots + 1; kk++)
        if (uturn__ceil_div(n, kk) > m_top)
            consider(&best, n, slots, kk);
    if (best.found) {
        *k = best.k;
        return true;
    }
    *min_slots = min_peak(n);
    return false;
}
