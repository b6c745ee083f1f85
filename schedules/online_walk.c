/* The online planner's end and the actions of its reversal: free what the
 * plan does not use, turn, then each range from the top with revolve's
 * split inside (see online.h). */
#include "online.h"

int uturn__ol_end_sweep(struct view *v)
{
    struct hdr *h = v->h;
    h->n          = h->m;
    uint64_t s    = h->s;
    if (h->bytes)
        s = uturn__ol_bytes_slots(h, h->size_max);
    struct best b;
    uturn__ol_dp(v, s, h->n, &b);
    h->nranges = uturn__ol_ranges(v, s, h->n, &b);
    h->overflow  = b.cost == INF || b.cost > INF - h->n;
    h->predicted = h->overflow ? INF : h->n + b.cost;
    for (uint64_t i = 0; i < h->k; i++)
        v->used[i] = 0;
    for (uint64_t x = 0; x < h->nranges; x++)
        v->used[v->rb[x]] = 1;
    h->phase     = PH_REVERSE;
    h->rstage    = RS_FREE;
    h->free_scan = 0;
    h->cur_range = h->nranges;
    return h->overflow ? UTURN_E_OVERFLOW : UTURN_OK;
}

int uturn__ol_end(void *state)
{
    struct view v = uturn__ol_view(state);
    if (v.h->phase != PH_SWEEP || !v.h->after_advance)
        return uturn__ol_fail(v.h, UTURN_E_INVALID_ARG);
    return uturn__ol_end_sweep(&v);
}

/* Start range x: move its base up to its start if the plan says so. */
static size_t range_begin(struct view *v, uturn_action_t *out)
{
    struct hdr *h    = v->h;
    const uint64_t x = --h->cur_range;
    const uint64_t bi = v->rb[x], e = v->re[x];
    const uint64_t end  = x + 1 < h->nranges ? v->re[x + 1] : h->n;
    const uint64_t slot = v->hslot[bi];
    size_t count        = 0;
    const bool moved    = e > v->held[bi];
    if (moved) {
        count += uturn__put(out, UTURN_OP_RESTORE, v->held[bi], 0, slot);
        count += uturn__put(out + count, UTURN_OP_ADVANCE, v->held[bi], e, 0);
        count += uturn__put(out + count, UTURN_OP_FREE, 0, 0, slot);
        count += uturn__put(out + count, UTURN_OP_STORE, e, 0, slot);
    }
    uturn__walk_begin(&h->walk, e, end - e, v->rc[x], slot, moved);
    h->rstage = RS_WALK;
    return count;
}

/* The current range's next actions; the next range once it is done. */
static size_t walk(struct view *v, uturn_action_t *out)
{
    struct hdr *h                     = v->h;
    const struct uturn__walk_mem mem = {v->stk, v->freestk, &h->nfree};
    bool done                         = false;
    const size_t count = uturn__walk_step(&h->walk, &mem, out, &done);
    if (done) {
        h->rstage = RS_RANGE;
        if (h->cur_range == 0)
            h->phase = PH_DONE;
    }
    return count;
}

/* One step of the reversal: at most UTURN__FILL_MIN actions. */
static size_t reverse_step(struct view *v, uturn_action_t *out)
{
    struct hdr *h = v->h;
    switch (h->rstage) {
    case RS_FREE:
        while (h->free_scan < h->k && v->used[h->free_scan])
            h->free_scan++;
        if (h->free_scan == h->k) {
            h->rstage = RS_TURN;
            return 0;
        }
        uturn__ol_push(v, v->hslot[h->free_scan]);
        return uturn__put(out, UTURN_OP_FREE, 0, 0, v->hslot[h->free_scan++]);
    case RS_TURN:
        h->rstage = RS_RANGE;
        return uturn__put(out, UTURN_OP_TURN, 0, 0, 0);
    case RS_RANGE:
        return range_begin(v, out);
    default:
        return walk(v, out);
    }
}

size_t uturn__ol_fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct view v = uturn__ol_view(state);
    struct hdr *h = v.h;
    if (capacity < UTURN__FILL_MIN || h->fatal)
        return 0;
    if (h->phase == PH_START)
        return uturn__ol_sweep_start(&v, out);
    if (h->phase == PH_SWEEP) {
        if (h->max_steps == 0 || h->m < h->max_steps)
            return uturn__ol_sweep_step(&v, out, capacity);
        if (uturn__ol_end_sweep(&v) == UTURN_E_INVALID_ARG)
            return 0;
    }
    size_t count = 0;
    while (h->phase == PH_REVERSE && count + UTURN__FILL_MIN <= capacity)
        count += reverse_step(&v, out + count);
    return count;
}
bool uturn__ol_awaits_end(const void *state)
{
    const struct hdr *h = state;
    return h->phase == PH_SWEEP && h->after_advance && !h->fatal;
}
