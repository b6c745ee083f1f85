/*
 * online with uniform slots, s >= 4, at any slot count: the planner for
 * a step count found as the run goes (see online_slots.h). plan.c picks
 * it for a uniform online problem of one level with at least 4 slots;
 * the online family (online.c) plans fewer slots and byte budgets.
 */
#include "online_slots.h"

#include <assert.h>

/* Round up to 8 bytes (sizes) and the same for offsets in a block whose
 * size was checked. */
static uturn__u128 words(uturn__u128 bytes)
{
    return (bytes + 7) / 8 * 8;
}

static size_t w8(size_t bytes)
{
    return (bytes + 7) / 8 * 8;
}

/* The band arrays (the reversal's stack fits in their place). */
static uturn__u128 band_bytes(uint64_t s)
{
    const uturn__u128 n    = (uturn__u128)s;
    const uturn__u128 band = words(sizeof(struct uturn__os_node) * (n + 2)) +
                             2 * words(4 * (n + 2)) + 4 * 8 * (n + 3) +
                             2 * words(4 * (n + 3));
    const uturn__u128 stack = sizeof(struct uturn__rv_node) * (n + 1);
    return band > stack ? band : stack;
}

size_t uturn__os_state_bytes(uint64_t s)
{
    if (s < 4 || s > UTURN_ONLINE_MAX_SLOTS)
        return 0;
    const uturn__u128 n = (uturn__u128)s;
    const uturn__u128 total =
        words(sizeof(struct uturn__os_hdr)) + 8 * (n + 1) +
        words(sizeof(struct uturn__os_ent) * (n + 2)) + band_bytes(s);
    return total > SIZE_MAX / 2 ? 0 : (size_t)total;
}

struct uturn__os_view uturn__os_view(void *state)
{
    struct uturn__os_view v;
    unsigned char *p = state;
    v.h              = state;
    const size_t s   = (size_t)v.h->cap;
    p += w8(sizeof(struct uturn__os_hdr));
    v.free_slots = (uint64_t *)(void *)p;
    p += 8 * (s + 1);
    v.e = (struct uturn__os_ent *)(void *)p;
    p += w8(sizeof(struct uturn__os_ent) * (s + 2));
    v.stack = (struct uturn__rv_node *)(void *)p;
    v.nodes = (struct uturn__os_node *)(void *)p;
    p += w8(sizeof(struct uturn__os_node) * (s + 2));
    v.spare = (uint32_t *)(void *)p;
    p += w8(4 * (s + 2));
    v.heap = (uint32_t *)(void *)p;
    p += w8(4 * (s + 2));
    const size_t wide = 8 * (s + 3);
    v.P               = (uint64_t *)(void *)p;
    v.R               = (uint64_t *)(void *)(p + wide);
    v.Q               = (uint64_t *)(void *)(p + 2 * wide);
    v.QM              = (uint64_t *)(void *)(p + 3 * wide);
    p += 4 * wide;
    v.QA = (uint32_t *)(void *)p;
    p += w8(4 * (s + 3));
    v.chain_node = (uint32_t *)(void *)p;
    return v;
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    const uturn_problem_t *p = &plan->problem;
    /* A budget that holds more than the most slots an online cursor can
     * keep: the plan uses that many (stats.slots says so). */
    uint64_t s =
        p->slots > UTURN_ONLINE_MAX_SLOTS ? UTURN_ONLINE_MAX_SLOTS : p->slots;
    if (p->slots > UTURN_ONLINE_MAX_SLOTS && p->budget_bytes == 0)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "online plans hold at most 2^30 slots (a cursor "
                           "keeps about 160 bytes for each); %llu asked",
                           (unsigned long long)p->slots);
    /* A run of at most max_steps steps holds at most x_0 .. x_n: slots past
     * max_steps + 1 would never be used, yet each costs bookkeeping and
     * the executor's storage, so the plan has no more (stats.slots says
     * so; its actions are those of the larger count). */
    if (p->max_steps != 0 && s > 4 && p->max_steps < s - 1)
        s = p->max_steps + 1 < 4 ? 4 : p->max_steps + 1;
    return uturn__online_capacity(plan, s, uturn__os_state_bytes(s), error);
}

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    *bytes = uturn__os_state_bytes(plan->stats.slots);
    return *bytes != 0 ? UTURN_OK : UTURN_E_NOMEM;
}

void uturn__os_init(void *state, uint64_t s, uint64_t max_steps)
{
    struct uturn__os_hdr *h = state;
    *h                      = (struct uturn__os_hdr){.s         = s,
                                                     .max_steps = max_steps,
                                                     .lim2      = (s + 1) * (s + 2) / 2,
                                                     .add       = s <= 6 ? 1 : 0,
                                                     .cap       = s,
                                                     .ks        = s,
                                                     .phase     = OS_START};
    struct uturn__os_view v = uturn__os_view(state);
    for (uint64_t i = s; i-- > 0;)
        uturn__os_push(&v, i); /* slot 0 on top */
}

static void start(const uturn_plan_t *plan, void *state)
{
    uturn__os_init(state, plan->stats.slots, plan->problem.max_steps);
}

size_t uturn__os_sweep_step(struct uturn__os_view *v, uturn_action_t *out)
{
    struct uturn__os_hdr *h = v->h;
    struct uturn__os_decision d;
    if (h->phase == OS_BAND && h->m >= h->lim2)
        uturn__os_to_merge(v);
    d = h->phase == OS_BAND ? uturn__os_band_step(v) : uturn__os_merge_step(v);
    size_t count = 0;
    if (d.free_slot != UTURN_NONE)
        count += uturn__put(out, UTURN_OP_FREE, 0, 0, d.free_slot);
    if (d.store)
        count += uturn__put(out + count, UTURN_OP_STORE, h->m, 0, d.slot);
    count += uturn__put(out + count, UTURN_OP_ADVANCE, h->m, h->m + 1, 0);
    h->m += 1;
    return count;
}

/* The first sweep's next actions: 0 once it is over (ended, or at
 * max_steps, where it ends by itself). */
static size_t sweep_fill(void *state, uturn_action_t *out)
{
    struct uturn__os_view v = uturn__os_view(state);
    struct uturn__os_hdr *h = v.h;
    if (h->phase == OS_START) {
        const uint64_t slot = uturn__os_pop(&v);
        uturn__os_band_start(&v, slot);
        h->phase = OS_BAND;
        h->m     = 1;
        uturn__put(out, UTURN_OP_STORE, 0, 0, slot);
        return 1 + uturn__put(out + 1, UTURN_OP_ADVANCE, 0, 1, 0);
    }
    if (uturn__os_sweeping(h)) {
        if (h->max_steps == 0 || h->m < h->max_steps)
            return uturn__os_sweep_step(&v, out);
        uturn__os_end_sweep(&v);
    }
    return 0;
}

size_t uturn__os_fill(void *state, uturn_action_t *out, size_t capacity)
{
    assert(capacity >= UTURN__FILL_MIN);
    const size_t count = sweep_fill(state, out);
    return count != 0 ? count : uturn__os_reverse_state(state, out, capacity);
}

/* fill(), counted: the first sweep action by action, the reversal not at
 * all (its counts are closed forms, added when asked: reversal_counts),
 * so that its cost per action stays revolve's. */
static size_t fill_counted(void *state, uturn_action_t *out, size_t capacity,
                           uturn_stats_t *counted, uint64_t *held)
{
    const struct uturn__os_hdr *h = state;
    if (!h->walking && h->phase < OS_REVERSE) { /* walking: reversing */
        const size_t count = sweep_fill(state, out);
        uturn__count_actions(counted, held, out, count);
        if (count != 0)
            return count;
    }
    return uturn__os_reverse_state(state, out, capacity);
}

/* The stream follows from the slots and max_steps; the constant tells it
 * from the streams of the online family's rules. */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    uturn__hash_u64(h, 0x6f6e6c696e653273ull); /* "online2s" */
    uturn__hash_u64(h, plan->stats.slots);
    uturn__hash_u64(h, plan->problem.max_steps);
}

static bool awaits_end(const void *state)
{
    const struct uturn__os_hdr *h = state;
    return uturn__os_sweeping(h);
}

static uturn_status_t end(void *state)
{
    struct uturn__os_view v = uturn__os_view(state);
    if (!awaits_end(state))
        return UTURN_E_INVALID_ARG;
    uturn__os_end_sweep(&v);
    return v.h->overflow ? UTURN_E_OVERFLOW : UTURN_OK;
}

static uint64_t steps_known(const void *state)
{
    return ((const struct uturn__os_hdr *)state)->n;
}

static uint64_t forward_total(const void *state)
{
    const struct uturn__os_hdr *h = state;
    return h->n != 0 ? h->predicted : UINT64_MAX;
}

static bool sized(const uturn_plan_t *plan)
{
    (void)plan;
    return false;
}

const struct uturn__planner uturn__online_slots = {
    .id              = UTURN_PLANNER_ONLINE,
    .name            = "online",
    .prepare         = prepare,
    .state_size      = state_size,
    .start           = start,
    .fill            = uturn__os_fill,
    .fill_counted    = fill_counted,
    .reversal_counts = uturn__os_reversal_counts,
    .fingerprint     = fingerprint,
    .levels          = false,
    .awaits_end      = awaits_end,
    .end             = end,
    .steps_known     = steps_known,
    .forward_total   = forward_total,
    .sized           = sized,
};
