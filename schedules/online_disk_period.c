/*
 * The online planner with levels: its period and the cost of its
 * realised plans (see online_disk.h).
 *
 * Per period the plan takes p forward steps, one disk write, one disk
 * read and R(p-1) = B_top(p-1, 1): the reversal of the period's other
 * states from its checkpoint on disk, with that one disk slot and every
 * faster slot. Minimising (w + r + R(p-1)) / p gives the asymptotically
 * optimal rate (Aupy and Herrmann 2017). The search goes to twice the
 * bound of their public code, max(beta(c, t1+1), 2 beta(c, t2) + 1) with
 * t1, t2 the least t with beta(c, t) > w + r and > w and c every slot
 * below the disk, and at most 8192.
 */
#include "online_disk.h"

#define SEARCH_CAP 8192u

/* C(c + t, c), saturated at 2^40 (only compared with small costs). */
static uint64_t beta_capped(uint64_t c, uint64_t t)
{
    const uturn__u128 cap = (uturn__u128)1 << 40;
    return (uint64_t)uturn__binomial_capped(c, t, cap);
}

static uint64_t search_bound(uint64_t below, uint64_t w, uint64_t r)
{
    uint64_t t1 = 0, t2 = 0;
    while (beta_capped(below, t1) <= w + r)
        t1++;
    while (beta_capped(below, t2) <= w)
        t2++;
    const uint64_t one   = beta_capped(below, t1 + 1);
    const uint64_t other = 2 * beta_capped(below, t2) + 1;
    const uint64_t bound = 2 * (one > other ? one : other);
    return bound < SEARCH_CAP ? bound : SEARCH_CAP;
}

static uturn_status_t too_big(uturn_error_t *error, uint64_t bound)
{
    return uturn__fail(error, UTURN_E_UNSUPPORTED,
                       "online with levels: choosing the period over %llu "
                       "steps passes hrevolve's limits (2^30 bytes of "
                       "tables, 10^11 split evaluations): give fewer "
                       "slots below the last level",
                       (unsigned long long)bound);
}

uturn_status_t uturn__od_period(const uturn_plan_t *plan,
                                const struct uturn__hr_level *levels,
                                uint64_t *period, uturn_error_t *error)
{
    struct uturn__hr_level lv[UTURN__MAX_LEVELS];
    const size_t count = (size_t)plan->level_count, top = count - 1;
    uint64_t below = 0;
    for (size_t k = 0; k < count; k++) {
        lv[k] = levels[k];
        below += k < top ? levels[k].slots : 0;
    }
    lv[top].slots = 1;
    const uint64_t bound =
        search_bound(below, lv[top].write_cost, lv[top].read_cost);
    struct uturn__hr_need need;
    uturn__hr_need(bound, lv, count, &need);
    if (need.bytes > UTURN_HREVOLVE_TABLE_BYTES ||
        need.work > UTURN_HREVOLVE_WORK)
        return too_big(error, bound);
    struct uturn__hr_tables *t = NULL;
    if (uturn__hr_build(&plan->alloc, bound, lv, count, &t) != UTURN_OK)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory for the period's tables");
    uint64_t best_p = 1, best_a = UINT64_MAX;
    for (uint64_t p = 1; p <= bound; p++) {
        const uint64_t a = lv[top].write_cost + lv[top].read_cost +
                           uturn__hr_b(t, top, p - 1, 1);
        if (best_a == UINT64_MAX ||
            (uturn__u128)a * best_p <= (uturn__u128)best_a * p) {
            best_a = a;
            best_p = p;
        }
    }
    uturn__hr_free(&plan->alloc, t);
    *period = best_p;
    return UTURN_OK;
}

/* The first sweep's rule alone: a store at every multiple of the stride
 * below n; a full disk at a boundary keeps the even-numbered ones and
 * doubles the stride, which leaves the next boundary at held * stride. */
void uturn__od_sweep_of(const struct uturn__od_plan *p, uint64_t n,
                        struct uturn__od_sweep *out)
{
    uint64_t held = 0, stride = p->stride, stores = 0;
    while (held * stride < n) {
        if (held == p->disk_slots) {
            held = (held + 1) / 2;
            stride *= 2;
            continue;
        }
        held++;
        stores++;
    }
    *out = (struct uturn__od_sweep){held, stride, stores};
}

/* Checkpoint i's own disk slot and those free while 0 .. i are held. */
uint64_t uturn__od_segment_slots(const struct uturn__od_plan *p, uint64_t i)
{
    const uint64_t m   = p->disk_slots - i;
    const uint64_t cap = p->tables->cap[p->top];
    return m < cap ? m : cap;
}

/* From x_{i S} to the state before the next checkpoint (or x_{n-1}). */
uint64_t uturn__od_segment_steps(const struct uturn__od_sweep *sw, uint64_t i,
                                 uint64_t n)
{
    const uint64_t end = i + 1 < sw->held ? (i + 1) * sw->stride : n;
    return end - 1 - i * sw->stride;
}

uint64_t uturn__od_cost(const struct uturn__od_plan *p, uint64_t n)
{
    struct uturn__od_sweep sw;
    uturn__od_sweep_of(p, n, &sw);
    uint64_t cost = n + sw.stores * p->write_cost;
    for (uint64_t i = 0; i < sw.held; i++)
        cost += p->read_cost + uturn__hr_b(p->tables, p->top,
                                           uturn__od_segment_steps(&sw, i, n),
                                           uturn__od_segment_slots(p, i));
    return cost;
}
