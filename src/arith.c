/* Checked and exact integer arithmetic: counts never wrap. */
#include "internal.h"

#include <assert.h>

uturn_status_t uturn__mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_mul_overflow(a, b, out) ? UTURN_E_OVERFLOW : UTURN_OK;
}

uturn_status_t uturn__add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_add_overflow(a, b, out) ? UTURN_E_OVERFLOW : UTURN_OK;
}

/* C(a + b, k) for k = min(a, b), built up as C(a+b-k+i, i) for i = 1..k,
 * each an integer; the sequence only grows, so saturating is safe. */
uturn__u128 uturn__binomial_capped(uint64_t a, uint64_t b, uturn__u128 cap)
{
    const uint64_t k    = a < b ? a : b;
    const uint64_t base = (a < b ? b : a);
    uturn__u128 value   = 1;
    for (uint64_t i = 1; i <= k; i++) {
        if (value >= cap)
            return cap;
        /* value = C(base + i - 1, i - 1); value * (base + i) / i is exact.
         * value < cap <= 2^127 / 2^64 keeps the product in 128 bits. */
        value = value * ((uturn__u128)base + i) / i; /* base + i may pass
                                                       2^64 */
    }
    return value < cap ? value : cap;
}

uint64_t uturn__isqrt(uint64_t x)
{
    uint64_t lo = 0;
    uint64_t hi = x < 2 ? x : (x >> 1) + 1;
    if (hi > 4294967295u)
        hi = 4294967295u;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (mid * mid <= x)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

uint64_t uturn__ceil_div(uint64_t a, uint64_t b)
{
    assert(b > 0);
    return a / b + (a % b != 0);
}
