/*
 * periodic: checkpoints x_0, x_k, x_2k, .. below n (m = ceil(n/k) of them).
 * The last segment (length L = n - (m-1)k) stores its interior states in
 * the first sweep and is never recomputed. Every earlier segment is replayed
 * once from its checkpoint, storing the interior states it will need:
 * x_{ik+1} .. x_{ik+k-2}. Its last state x_{ik+k-1} is reversed as soon as
 * the replay reaches it, so it is never stored (the textbook scheme stores
 * it, which costs one slot and one copy for nothing; docs/model.md 4).
 * State x_{ik+t} lives in slot i+t, so the slots used are 0..peak-1.
 */
#include "planner.h"

#include <assert.h>

enum phase {
    FORWARD,   /* store x_{ik}, advance a whole segment */
    LAST_FILL, /* last segment: advance one step, store */
    LAST_REV,  /* last segment: restore, reverse, free */
    SEG_START, /* earlier segment: restore its checkpoint */
    SEG_FILL,  /* replay: advance one step, store */
    SEG_REV,   /* restore, reverse, free, down to the checkpoint */
    DONE
};

struct state {
    uint64_t n, k, m, last; /* last = (m-1)k, start of the last segment */
    uint64_t seg, t;
    enum phase phase;
};

static uturn_status_t counts(uint64_t n, uint64_t k, uturn_stats_t *out)
{
    const uint64_t m        = uturn__ceil_div(n, k);
    const uint64_t len_last = n - (m - 1) * k;
    const uint64_t replayed = (m - 1) * (k >= 2 ? k - 2 : 0);
    uint64_t actions        = 0;
    out->reverse_steps      = n;
    out->restores           = n;
    out->stores             = m + (len_last - 1) + replayed;
    out->frees              = out->stores;
    out->peak_slots         = uturn__periodic_peak(n, k);
    /* n advances, n restores, n reverses, the turn, stores and frees. */
    if (uturn__periodic_forward(n, k, &out->forward_steps) != UTURN_OK ||
        uturn__mul_u64(n, 3, &actions) != UTURN_OK ||
        uturn__add_u64(actions, 1, &actions) != UTURN_OK ||
        uturn__add_u64(actions, out->stores, &actions) != UTURN_OK ||
        uturn__add_u64(actions, out->frees, &out->actions) != UTURN_OK)
        return UTURN_E_OVERFLOW;
    return UTURN_OK;
}

uturn_status_t uturn__periodic_prepare_stride(uturn_plan_t *plan, uint64_t k,
                                              uturn_error_t *error)
{
    const uint64_t n = plan->problem.steps;
    assert(k >= 1 && k <= n);
    plan->problem.stride = k;
    if (counts(n, k, &plan->stats) != UTURN_OK)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "the counts of %llu steps at stride %llu do not "
                           "fit in 64 bits",
                           (unsigned long long)n, (unsigned long long)k);
    const uint64_t peak = plan->stats.peak_slots;
    if (plan->problem.slots < peak) {
        char given[128];
        uturn__capacity_text(&plan->problem, given, sizeof given);
        return uturn__fail_infeasible(error, peak, plan->problem.slot_bytes,
                                      "%s with stride %llu needs %llu slots "
                                      "for %llu steps; %s",
                                      plan->planner->name,
                                      (unsigned long long)k,
                                      (unsigned long long)peak,
                                      (unsigned long long)n, given);
    }
    plan->slot_span   = peak;
    plan->stats.slots = plan->has_capacity ? plan->problem.slots : peak;
    return UTURN_OK;
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    const uint64_t n = plan->problem.steps;
    if (plan->problem.stride != 0)
        return uturn__periodic_prepare_stride(plan, plan->problem.stride,
                                              error);
    if (!plan->has_capacity)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "periodic needs a stride or a capacity (slots, "
                           "or a byte budget) to choose one");
    /* Choosing is O(sqrt n): keep it well under a second. */
    if (n > UTURN__PERIODIC_CHOOSE_MAX)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "periodic chooses a stride for at most 2^40 "
                           "steps (it takes O(sqrt n)); give a stride for "
                           "%llu steps",
                           (unsigned long long)n);
    uint64_t k = 0, min_slots = 0;
    if (!uturn__periodic_choose(n, plan->problem.slots, &k, &min_slots)) {
        char given[128];
        uturn__capacity_text(&plan->problem, given, sizeof given);
        return uturn__fail_infeasible(
            error, min_slots, plan->problem.slot_bytes,
            "periodic needs at least %llu slots "
            "for %llu steps; %s",
            (unsigned long long)min_slots, (unsigned long long)n, given);
    }
    return uturn__periodic_prepare_stride(plan, k, error);
}

uturn_status_t uturn__periodic_state_size(const uturn_plan_t *plan,
                                          size_t *bytes)
{
    (void)plan;
    *bytes = sizeof(struct state);
    return UTURN_OK;
}

void uturn__periodic_start(const uturn_plan_t *plan, void *state)
{
    struct state *s = state;
    s->n            = plan->problem.steps;
    s->k            = plan->problem.stride;
    s->m            = uturn__ceil_div(s->n, s->k);
    s->last         = (s->m - 1) * s->k;
    s->seg          = 0;
    s->t            = 0;
    s->phase        = s->m > 1 ? FORWARD : LAST_FILL;
}

/* Restore x_{base+t} from slot seg+t, reverse it and free the slot. */
static size_t undo(uturn_action_t *out, uint64_t base, uint64_t seg, uint64_t t)
{
    uturn__put(out, UTURN_OP_RESTORE, base + t, 0, seg + t);
    uturn__put(out + 1, UTURN_OP_REVERSE, base + t, 0, 0);
    uturn__put(out + 2, UTURN_OP_FREE, 0, 0, seg + t);
    return 3;
}

/* The first sweep: whole segments, then the last one step by step. */
static size_t forward_unit(struct state *s, uturn_action_t *out)
{
    if (s->phase == FORWARD) {
        const uint64_t a = s->seg * s->k;
        uturn__put(out, UTURN_OP_STORE, a, 0, s->seg);
        uturn__put(out + 1, UTURN_OP_ADVANCE, a, a + s->k, 0);
        if (++s->seg == s->m - 1)
            s->phase = LAST_FILL;
        return 2;
    }
    const uint64_t x = s->last + s->t; /* live state */
    size_t count     = uturn__put(out, UTURN_OP_STORE, x, 0, s->m - 1 + s->t);
    if (x + 1 < s->n) {
        count += uturn__put(out + count, UTURN_OP_ADVANCE, x, x + 1, 0);
        s->t++;
        return count;
    }
    count += uturn__put(out + count, UTURN_OP_ADVANCE, x, s->n, 0);
    count += uturn__put(out + count, UTURN_OP_TURN, 0, 0, 0);
    s->phase = LAST_REV;
    return count;
}

/* Move to the segment before the current one, or finish. */
static void next_segment(struct state *s, uint64_t seg)
{
    s->phase = seg == 0 ? DONE : SEG_START;
    s->seg   = seg == 0 ? 0 : seg - 1;
}

/* The reverse sweep: undo the last segment, then replay the others. */
static size_t reverse_unit(struct state *s, uturn_action_t *out)
{
    const uint64_t base = s->seg * s->k;
    switch (s->phase) {
    case LAST_REV: {
        const size_t count = undo(out, s->last, s->m - 1, s->t);
        if (s->t-- == 0)
            next_segment(s, s->m - 1);
        return count;
    }
    case SEG_START:
        if (s->k == 1) { /* a one-state segment: just undo its checkpoint */
            s->t     = 0;
            s->phase = SEG_REV;
            return 0;
        }
        s->t     = 1;
        s->phase = SEG_FILL;
        return uturn__put(out, UTURN_OP_RESTORE, base, 0, s->seg);
    case SEG_FILL:
        if (s->t + 1 < s->k) {
            const uint64_t x = base + s->t;
            uturn__put(out, UTURN_OP_ADVANCE, x - 1, x, 0);
            uturn__put(out + 1, UTURN_OP_STORE, x, 0, s->seg + s->t);
            s->t++;
            return 2;
        }
        uturn__put(out, UTURN_OP_ADVANCE, base + s->k - 2, base + s->k - 1, 0);
        uturn__put(out + 1, UTURN_OP_REVERSE, base + s->k - 1, 0, 0);
        s->t     = s->k - 2;
        s->phase = SEG_REV;
        return 2;
    default: {
        const size_t count = undo(out, base, s->seg, s->t);
        if (s->t-- == 0)
            next_segment(s, s->seg);
        return count;
    }
    }
}

size_t uturn__periodic_fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct state *s = state;
    size_t count    = 0;
    while (count + 3 <= capacity && s->phase != DONE) {
        if (s->phase == FORWARD || s->phase == LAST_FILL)
            count += forward_unit(s, out + count);
        else
            count += reverse_unit(s, out + count);
    }
    return count;
}

/* Given the stride, the stream is the same for every capacity. */
void uturn__periodic_fingerprint(const uturn_plan_t *plan,
                                 struct uturn__hasher *h)
{
    uturn__hash_u64(h, plan->problem.steps);
    uturn__hash_u64(h, plan->problem.stride);
}

const struct uturn__planner uturn__periodic = {
    .id         = UTURN_PLANNER_PERIODIC,
    .name       = "periodic",
    .prepare    = prepare,
    .state_size = uturn__periodic_state_size,
    .start      = uturn__periodic_start,
    .fill       = uturn__periodic_fill,
    .fingerprint = uturn__periodic_fingerprint,
};
