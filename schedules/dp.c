/* dp: the planner (problem checks, unit choice, generator, counts); the
 * dynamic program itself is in dp_table.c. */
#include "dp.h"

#include <string.h>

struct node {
    uint64_t a, e, m, slot; /* segment [a, e), m units free, base slot */
};

struct state {
    const struct uturn__dp *dp;
    struct node cur;
    uint64_t depth;
    bool live;
    int phase; /* 0 start, 1 running, 2 done */
    struct node stack[];
};

static size_t leaf(struct state *st, uturn_action_t *out)
{
    size_t count = 0;
    if (!st->live)
        uturn__put(out + count++, UTURN_OP_RESTORE, st->cur.a, 0, st->cur.slot);
    uturn__put_reverse(out + count++, st->cur.a, st->dp->n);
    if (st->depth == 0) {
        uturn__put(out + count++, UTURN_OP_FREE, 0, 0, 0);
        st->phase = 2;
        return count;
    }
    st->cur = st->stack[--st->depth];
    uturn__put(out + count++, UTURN_OP_FREE, 0, 0, st->cur.slot + 1);
    st->live = false;
    return count;
}

static size_t split(struct state *st, uturn_action_t *out)
{
    const struct node n = st->cur;
    const uint64_t j    = uturn__dp_split(st->dp, n.a, n.e, n.m);
    size_t count        = 0;
    if (!st->live)
        uturn__put(out + count++, UTURN_OP_RESTORE, n.a, 0, n.slot);
    uturn__put(out + count++, UTURN_OP_ADVANCE, n.a, j, 0);
    const struct node left = {n.a, j, n.m, n.slot};
    if (j == n.e - 1) {
        uturn__put_reverse(out + count++, j, st->dp->n);
        st->cur  = left;
        st->live = false;
        return count;
    }
    uturn__put(out + count++, UTURN_OP_STORE, j, 0, n.slot + 1);
    st->stack[st->depth++] = left;
    st->cur  = (struct node){j, n.e, n.m - st->dp->units[j], n.slot + 1};
    st->live = true;
    return count;
}

static size_t fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct state *st = state;
    size_t count     = 0;
    if (st->phase == 0 && capacity > 0) {
        uturn__put(out + count++, UTURN_OP_STORE, 0, 0, 0);
        st->phase = 1;
    }
    while (st->phase == 1 && count + 3 <= capacity)
        count += st->cur.e - st->cur.a == 1 ? leaf(st, out + count)
                                            : split(st, out + count);
    return count;
}

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    const uint64_t frames = plan->problem.steps + 1;
    if (frames > (SIZE_MAX - sizeof(struct state)) / sizeof(struct node))
        return UTURN_E_NOMEM;
    *bytes = sizeof(struct state) + (size_t)frames * sizeof(struct node);
    return UTURN_OK;
}

static void start(const uturn_plan_t *plan, void *state)
{
    struct state *st = state;
    st->dp           = plan->data;
    st->depth        = 0;
    st->live         = true;
    st->phase        = 0;
    st->cur = (struct node){0, st->dp->n + 1, st->dp->M - st->dp->units[0], 0};
}

/* Bytes of x_i: per step, or the uniform slot (1 when only slots given). */
static uint64_t bytes_of(const uturn_plan_t *plan, uint64_t i)
{
    if (plan->step_bytes != NULL)
        return plan->step_bytes[i];
    return plan->problem.slot_bytes != 0 ? plan->problem.slot_bytes : 1;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        const uint64_t t = a % b;
        a                = b;
        b                = t;
    }
    return a;
}

/* The budget in bytes: given, or the slot capacity at the uniform size. */
static uturn_status_t budget_of(const uturn_plan_t *plan, uint64_t *out)
{
    if (plan->problem.budget_bytes != 0) {
        *out = plan->problem.budget_bytes;
        return UTURN_OK;
    }
    return uturn__mul_u64(plan->problem.slots, bytes_of(plan, 0), out);
}

/* Given unit, or the gcd of the sizes when its table fits, or the budget
 * spread over as many units as fit. */
static uturn_status_t choose_unit(const uturn_plan_t *plan, uint64_t budget,
                                  uint64_t *unit, uturn_error_t *error)
{
    const uint64_t n = plan->problem.steps;
    uint64_t g       = 0;
    for (uint64_t i = 0; i < n; i++)
        g = gcd(g, bytes_of(plan, i));
    *unit = plan->problem.unit_bytes != 0 ? plan->problem.unit_bytes : g;
    const uint64_t bytes = uturn__dp_table_bytes(n, budget / *unit);
    if (bytes != 0 && bytes <= UTURN_DP_TABLE_BYTES)
        return UTURN_OK;
    const uint64_t row_bytes = uturn__dp_table_bytes(n, 0);
    const uint64_t fit_units =
        row_bytes == 0 || row_bytes > UTURN_DP_TABLE_BYTES
            ? 0
            : UTURN_DP_TABLE_BYTES / row_bytes - 1;
    if (fit_units == 0)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "dp's table for %llu steps needs more than its "
                           "limit of %llu bytes at any resolution",
                           (unsigned long long)n,
                           (unsigned long long)UTURN_DP_TABLE_BYTES);
    const uint64_t fit_unit = uturn__ceil_div(budget, fit_units);
    if (plan->problem.unit_bytes == 0) {
        *unit = fit_unit;
        return UTURN_OK;
    }
    return uturn__fail(
        error, UTURN_E_UNSUPPORTED,
        "dp's table at a unit of %llu bytes would pass its "
        "limit of %llu bytes; a unit of %llu bytes (%llu "
        "units) fits",
        (unsigned long long)*unit, (unsigned long long)UTURN_DP_TABLE_BYTES,
        (unsigned long long)fit_unit, (unsigned long long)(budget / fit_unit));
}

static void dp_free(uturn_plan_t *plan)
{
    struct uturn__dp *dp = plan->data;
    if (dp == NULL)
        return;
    const uturn_allocator_t *a = &plan->alloc;
    const uint64_t n           = dp->n;
    uturn__free(a, dp->units, (size_t)n * sizeof *dp->units);
    uturn__free(a, dp->prefix, (size_t)(n + 1) * sizeof *dp->prefix);
    uturn__free(a, dp->offset, (size_t)(n + 3) * sizeof *dp->offset);
    uturn__free(a, dp->zero, (size_t)(dp->M + 1) * sizeof *dp->zero);
    uturn__free(a, dp->table,
                dp->table_rows * (size_t)(dp->M + 1) * sizeof *dp->table);
    uturn__free(a, dp, sizeof *dp);
    plan->data = NULL;
}

/* Units, cost prefix sums and row offsets: everything but the table. */
static void fill_arrays(const uturn_plan_t *plan, struct uturn__dp *dp)
{
    const uint64_t n = dp->n;
    dp->prefix[0]    = 0;
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t u = uturn__ceil_div(bytes_of(plan, i), dp->unit);
        dp->units[i]     = u <= dp->M ? (uint32_t)u : UINT32_MAX;
        dp->prefix[i + 1] =
            dp->prefix[i] + (plan->step_costs ? plan->step_costs[i] : 1);
    }
    dp->offset[2] = 0;
    for (uint64_t l = 3; l <= n + 2; l++)
        dp->offset[l] = dp->offset[l - 1] + (n + 1) - (l - 1) + 1;
    dp->table_rows = (size_t)dp->offset[n + 2];
}

static uturn_status_t build(uturn_plan_t *plan, uint64_t unit, uint64_t M)
{
    const uturn_allocator_t *a = &plan->alloc;
    const uint64_t n           = plan->problem.steps;
    struct uturn__dp *dp       = uturn__alloc_zeroed(a, 1, sizeof *dp);
    if (dp == NULL)
        return UTURN_E_NOMEM;
    *dp             = (struct uturn__dp){.n = n, .M = M, .unit = unit};
    plan->data      = dp;
    plan->data_free = dp_free;
    dp->units       = uturn__alloc_zeroed(a, n, sizeof *dp->units);
    dp->prefix      = uturn__alloc_zeroed(a, n + 1, sizeof *dp->prefix);
    dp->offset      = uturn__alloc_zeroed(a, n + 3, sizeof *dp->offset);
    dp->zero        = uturn__alloc_zeroed(a, M + 1, sizeof *dp->zero);
    if (dp->units == NULL || dp->prefix == NULL || dp->offset == NULL ||
        dp->zero == NULL)
        return UTURN_E_NOMEM;
    fill_arrays(plan, dp);
    dp->table =
        uturn__alloc(a, dp->table_rows * (size_t)(M + 1) * sizeof *dp->table);
    if (dp->table == NULL)
        return UTURN_E_NOMEM;
    uturn__dp_solve(dp);
    return UTURN_OK;
}

/* Count one action into the plan's stats; held[k] is the size in slot k. */
static void count_action(uturn_plan_t *plan, const uturn_action_t *a,
                         uint64_t *held, uint64_t *held_bytes,
                         uint64_t *held_slots)
{
    const struct uturn__dp *dp = plan->data;
    uturn_stats_t *s           = &plan->stats;
    s->actions += 1;
    if (a->op == UTURN_OP_ADVANCE) {
        s->forward_steps += a->step_end - a->step;
        s->forward_cost += dp->prefix[a->step_end] - dp->prefix[a->step];
    } else if (a->op == UTURN_OP_STORE) {
        held[a->slot] = bytes_of(plan, a->step);
        *held_bytes += held[a->slot];
        *held_slots += 1;
        s->stores += 1;
        s->peak_slots =
            *held_slots > s->peak_slots ? *held_slots : s->peak_slots;
        s->peak_bytes =
            *held_bytes > s->peak_bytes ? *held_bytes : s->peak_bytes;
    } else if (a->op == UTURN_OP_FREE) {
        *held_bytes -= held[a->slot];
        *held_slots -= 1;
        s->frees += 1;
    } else if (a->op == UTURN_OP_RESTORE) {
        s->restores += 1;
    } else if (a->op == UTURN_OP_REVERSE) {
        s->reverse_steps += 1;
    }
}

/* dp's counts come from walking its own generator (O(n^2): each split
 * looks its best j up again), with sizes and costs counted exactly. */
static uturn_status_t count_all(uturn_plan_t *plan)
{
    const uturn_allocator_t *a = &plan->alloc;
    const uint64_t n           = plan->problem.steps;
    size_t bytes               = 0;
    if (state_size(plan, &bytes) != UTURN_OK)
        return UTURN_E_NOMEM;
    void *st       = uturn__alloc(a, bytes);
    uint64_t *held = uturn__alloc_zeroed(a, n + 1, sizeof *held);
    if (st == NULL || held == NULL) {
        uturn__free(a, st, bytes);
        uturn__free(a, held, (size_t)(n + 1) * sizeof *held);
        return UTURN_E_NOMEM;
    }
    start(plan, st);
    uturn_action_t buf[64];
    uint64_t held_bytes = 0, held_slots = 0;
    for (size_t got; (got = fill(st, buf, 64)) != 0;)
        for (size_t i = 0; i < got; i++)
            count_action(plan, &buf[i], held, &held_bytes, &held_slots);
    uturn__free(a, st, bytes);
    uturn__free(a, held, (size_t)(n + 1) * sizeof *held);
    const struct uturn__dp *dp = plan->data;
    plan->stats.recompute_cost = plan->stats.forward_cost - dp->prefix[n];
    /* Uniform slots have a capacity (docs/model.md: not the peak); slots of
     * different sizes have a byte budget instead, and use 0 .. peak-1. */
    plan->stats.slots =
        plan->step_bytes == NULL ? plan->problem.slots : plan->stats.peak_slots;
    plan->slot_span = plan->stats.peak_slots;
    return UTURN_OK;
}

static uturn_status_t check_inputs(const uturn_plan_t *plan,
                                   uturn_error_t *error)
{
    const uint64_t n = plan->problem.steps;
    uint64_t total   = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (plan->step_bytes != NULL && plan->step_bytes[i] == 0)
            return uturn__fail(error, UTURN_E_INVALID_ARG,
                               "step_bytes[%llu] is 0: every state has a "
                               "size",
                               (unsigned long long)i);
        const uint64_t c = plan->step_costs ? plan->step_costs[i] : 1;
        if (c == 0)
            return uturn__fail(error, UTURN_E_INVALID_ARG,
                               "step_costs[%llu] is 0: every step costs at "
                               "least 1",
                               (unsigned long long)i);
        total = total + c < total ? UINT64_MAX : total + c;
    }
    uint64_t worst = 0; /* every step recomputed from x_0: n times each */
    if (uturn__mul_u64(total, n, &worst) != UTURN_OK || worst >= UTURN__DP_INF)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "dp counts costs in 32 bits: steps times the sum "
                           "of the costs must stay below %u",
                           UTURN__DP_INF);
    if (!plan->has_capacity)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "dp needs a capacity: budget_bytes (or slots for "
                           "uniform states)");
    if (plan->step_bytes != NULL && plan->problem.budget_bytes == 0)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "with step_bytes, dp needs budget_bytes");
    return UTURN_OK;
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    uint64_t budget = 0, unit = 0;
    uturn_status_t status = check_inputs(plan, error);
    if (status != UTURN_OK)
        return status;
    if (budget_of(plan, &budget) != UTURN_OK)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "the budget does not fit in 64 bits");
    status = choose_unit(plan, budget, &unit, error);
    if (status != UTURN_OK)
        return status;
    const uint64_t first = uturn__ceil_div(bytes_of(plan, 0), unit) * unit;
    if (first > budget)
        return uturn__fail_infeasible(
            error, 1, first,
            "dp needs at least %llu bytes to hold x_0 (%llu bytes in units "
            "of %llu); the budget is %llu bytes",
            (unsigned long long)first, (unsigned long long)bytes_of(plan, 0),
            (unsigned long long)unit, (unsigned long long)budget);
    if (build(plan, unit, budget / unit) != UTURN_OK ||
        count_all(plan) != UTURN_OK)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory for dp's table (%llu bytes)",
                           (unsigned long long)uturn__dp_table_bytes(
                               plan->problem.steps, budget / unit));
    if (plan->step_bytes == NULL && plan->problem.slot_bytes == 0)
        plan->stats.peak_bytes = 0; /* slots only: bytes unknown */
    return UTURN_OK;
}

/* The stream follows from the steps, the capacity in units (budget and
 * unit, or slots), the sizes and the costs. */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    const struct uturn__dp *dp = plan->data;
    uturn__hash_u64(h, plan->problem.steps);
    uturn__hash_u64(h, dp->M);
    uturn__hash_u64(h, dp->unit);
    uturn__hash_array(h, plan->step_bytes, plan->problem.steps);
    uturn__hash_array(h, plan->step_costs, plan->problem.steps);
    uturn__hash_u64(h, plan->step_bytes == NULL ? plan->problem.slot_bytes : 0);
}

const struct uturn__planner uturn__dp = {
    .id         = UTURN_PLANNER_DP,
    .name       = "dp",
    .prepare    = prepare,
    .state_size = state_size,
    .start      = start,
    .fill       = fill,
    .fingerprint = fingerprint,
};
