/*
 * Certified lower bounds on the least cost of any nested plan within a
 * byte budget, for plans dp cannot prove optimal (approximate or coarse
 * unit). Both are relaxations solved exactly, in bytes (never in units).
 *
 * First sweep (a knapsack). A nested plan reverses [0, n+1) by a first
 * sweep from x_0 to x_n (cost LB = F_0 .. F_{n-1}) that stores some x_i,
 * 0 < i < n, all held until the turn, so their bytes sum to at most the
 * budget less x_0's. Every other x_i (0 < i < n) is gone once the sweep
 * passes it, and must be recomputed before reverse i: F_{i-1} runs at
 * least once more. So
 *   cost >= LB + sum over unstored i of c_{i-1}
 *        >= LB + sum_{0<i<n} c_{i-1} - max { sum_S c_{i-1} : bytes(S) <= B -
 * s_0 } and the fractional knapsack (items by c_{i-1}/s_i, the last one cut)
 * bounds that maximum from above. Rounded up: costs are integers.
 *
 * Uniform relaxation. Make every state as small as the smallest and every
 * step as cheap as the cheapest: any plan of the chain is a plan of that
 * chain and costs no less. Its optimum over all plans is revolve's,
 * c_min * t(n + 1, s) with s = floor(B / s_min) slots (docs/model.md section
 * 4). This one matters when the budget is tight.
 */
#include "dp.h"

#include <stdlib.h>

struct item {
    uint64_t value, weight; /* c_{i-1}, s_i */
};

/* Value per weight, best first (exact, in 128 bits). */
static int by_ratio(const void *x, const void *y)
{
    const struct item *a = x, *b = y;
    const uturn__u128 l = (uturn__u128)a->value * b->weight;
    const uturn__u128 r = (uturn__u128)b->value * a->weight;
    return l > r ? -1 : l < r ? 1 : 0;
}

static uint64_t bytes_at(const uturn_plan_t *plan, uint64_t i)
{
    if (plan->step_bytes != NULL)
        return plan->step_bytes[i];
    return plan->problem.slot_bytes != 0 ? plan->problem.slot_bytes : 1;
}

static uint64_t cost_at(const uturn_plan_t *plan, uint64_t i)
{
    return plan->step_costs != NULL ? plan->step_costs[i] : 1;
}

/* floor of the fractional knapsack's value over sorted items. */
static uint64_t knapsack(const struct item *items, uint64_t count,
                         uint64_t capacity)
{
    uint64_t value = 0;
    for (uint64_t k = 0; k < count; k++) {
        if (items[k].weight <= capacity) {
            capacity -= items[k].weight;
            value += items[k].value;
            continue;
        }
        value += (uint64_t)((uturn__u128)items[k].value * capacity /
                            items[k].weight);
        break;
    }
    return value;
}

static bool first_sweep_bound(const uturn_plan_t *plan, uint64_t budget,
                              uint64_t *bound)
{
    const uint64_t n   = plan->problem.steps;
    const size_t bytes = (size_t)(n > 1 ? n - 1 : 1) * sizeof(struct item);
    struct item *items = uturn__alloc(&plan->alloc, bytes);
    if (items == NULL)
        return false;
    uint64_t sweep = 0, second = 0;
    for (uint64_t i = 0; i < n; i++)
        sweep += cost_at(plan, i);
    for (uint64_t i = 1; i < n; i++) {
        items[i - 1] = (struct item){cost_at(plan, i - 1), bytes_at(plan, i)};
        second += items[i - 1].value;
    }
    qsort(items, (size_t)(n - 1), sizeof *items, by_ratio);
    const uint64_t keep = knapsack(items, n - 1, budget - bytes_at(plan, 0));
    uturn__free(&plan->alloc, items, bytes);
    *bound = sweep + second - (keep < second ? keep : second);
    return true;
}

/* t(l, s) of docs/model.md section 4 (revolve's forward steps). */
static uint64_t revolve_steps(uint64_t l, uint64_t s)
{
    if (s >= l - 1) /* s + 1 >= l, without s + 1 wrapping at 2^64 - 1 */
        return l - 1;
    const uturn__u128 cap = (uturn__u128)1 << 100;
    uint64_t r            = 1;
    while (uturn__binomial_capped(s, r, cap) < l)
        r++;
    return (uint64_t)((uturn__u128)r * l -
                      uturn__binomial_capped(s + 1, r - 1, cap));
}

static uint64_t uniform_bound(const uturn_plan_t *plan, uint64_t budget)
{
    const uint64_t n  = plan->problem.steps;
    uint64_t size_min = UINT64_MAX, cost_min = UINT64_MAX;
    for (uint64_t i = 0; i < n; i++) {
        size_min = bytes_at(plan, i) < size_min ? bytes_at(plan, i) : size_min;
        cost_min = cost_at(plan, i) < cost_min ? cost_at(plan, i) : cost_min;
    }
    const uturn__u128 b =
        (uturn__u128)cost_min * revolve_steps(n + 1, budget / size_min);
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

uturn_status_t uturn__dp_lower_bound(const uturn_plan_t *plan, uint64_t budget,
                                     uint64_t *bound)
{
    uint64_t a = 0;
    if (!first_sweep_bound(plan, budget, &a))
        return UTURN_E_NOMEM;
    const uint64_t b = uniform_bound(plan, budget);
    *bound           = a > b ? a : b;
    return UTURN_OK;
}
