/* The online planner's state block and its first sweep: the held set,
 * the bytes mode, and one read per forward step (see online.h). */
#include "online.h"

#include <string.h>

size_t uturn__ol_state_bytes(uint64_t slots, uint64_t max_steps)
{
    (void)max_steps;
    if (slots == 0 || slots > ((uint64_t)1 << 24))
        return 0;
    const uint64_t words = VEC_WORDS * (slots + 1) + MAT_WORDS * slots * slots;
    return sizeof(struct hdr) + (size_t)words * sizeof(uint64_t);
}

void uturn__ol_init(void *state, uint64_t cap, uint64_t max_steps)
{
    struct hdr *h = state;
    memset(h, 0, sizeof *h);
    h->cap       = cap;
    h->s         = cap;
    h->max_steps = max_steps;
    h->lim2      = (cap + 1) * (cap + 2) / 2;
    h->phase     = PH_START;
    struct view v = uturn__ol_view(state);
    /* Slot 0 must come off the stack first: x_0 goes there. */
    for (uint64_t i = 0; i < cap; i++)
        v.freestk[i] = cap - 1 - i;
    h->nfree = cap;
    /* The band rule starts with region 1 (all slots) and its band -1. */
    v.P[0]       = 0;
    v.R[1]       = 0; /* R holds r + 1, so 0 means "no band yet" */
    v.Q[1]       = 1;
    h->next_trig = 1;
    h->sched     = 1;
    h->tri       = 1;
}

void uturn__ol_start(void *state, uint64_t slots, uint64_t max_steps)
{
    uturn__ol_init(state, slots, max_steps);
}

void uturn__ol_start_bytes(void *state, uint64_t max_slots, uint64_t max_steps,
                        uint64_t budget_bytes)
{
    uturn__ol_init(state, max_slots, max_steps);
    struct hdr *h = state;
    h->bytes      = 1;
    h->budget     = budget_bytes;
    h->s_cur      = 1;
}

int uturn__ol_status(const void *state)
{
    return ((const struct hdr *)state)->status;
}

uint64_t uturn__ol_steps(const void *state)
{
    return ((const struct hdr *)state)->n;
}

uint64_t uturn__ol_forward(const void *state)
{
    const struct hdr *h = state;
    if (h->phase != PH_REVERSE && h->phase != PH_DONE)
        return 0;
    return h->overflow ? INF : h->predicted;
}

uint64_t uturn__ol_min_bytes(const void *state)
{
    return ((const struct hdr *)state)->size0;
}

/* Record a refused call. Only a missing size or an infeasible budget stop
 * the plan; a call out of order leaves it as it was. */
int uturn__ol_fail(struct hdr *h, int status)
{
    h->status = status;
    if (status == UTURN__OL_NEED_SIZE || status == UTURN_E_INFEASIBLE)
        h->fatal = 1;
    return status;
}

/* Drop held[q] (q >= 1) from the arrays; returns its slot. */
static uint64_t remove_held(struct view *v, uint64_t q)
{
    struct hdr *h       = v->h;
    const uint64_t slot = v->hslot[q];
    for (uint64_t i = q; i + 1 < h->k; i++) {
        v->held[i]   = v->held[i + 1];
        v->hslot[i]  = v->hslot[i + 1];
        v->hbytes[i] = v->hbytes[i + 1];
    }
    h->k--;
    uturn__ol_push(v, slot);
    return slot;
}

static uint64_t append_held(struct view *v, uint64_t step, uint64_t bytes)
{
    struct hdr *h       = v->h;
    const uint64_t slot = uturn__ol_pop(v);
    v->held[h->k]       = step;
    v->hslot[h->k]      = slot;
    v->hbytes[h->k]     = bytes;
    h->k++;
    return slot;
}

/* Slots that fit whatever states come: x_0 at its size, every other slot
 * at the largest size seen (x_1 .. x_m), capped by the arrays. */
uint64_t uturn__ol_bytes_slots(const struct hdr *h, uint64_t size_max)
{
    if (size_max == 0)
        return h->cap;
    const uint64_t extra = (h->budget - h->size0) / size_max;
    return extra >= h->cap ? h->cap : 1 + extra;
}

int uturn__ol_set_size(void *state, uint64_t step, uint64_t bytes)
{
    struct hdr *h = state;
    if (!h->bytes) /* a plan of slots: sizes are not its business */
        return UTURN_E_UNSUPPORTED;
    if (h->fatal) /* stopped (a read came before a size): for good */
        return UTURN_E_INVALID_ARG;
    if (step == 0 && h->phase == PH_START) {
        h->size0 = bytes;
        if (bytes > h->budget)
            return uturn__ol_fail(h, UTURN_E_INFEASIBLE);
        h->have_size = 1;
        return UTURN_OK;
    }
    if (h->phase != PH_SWEEP || step != h->m)
        return uturn__ol_fail(h, UTURN_E_INVALID_ARG);
    h->size_live = bytes;
    h->have_size = 1;
    return UTURN_OK;
}

size_t uturn__ol_sweep_start(struct view *v, uturn_action_t *out)
{
    struct hdr *h = v->h;
    if (h->bytes && !h->have_size) {
        uturn__ol_fail(h, UTURN__OL_NEED_SIZE);
        return 0;
    }
    const uint64_t slot = append_held(v, 0, h->size0);
    size_t count        = uturn__put(out, UTURN_OP_STORE, 0, 0, slot);
    count += uturn__put(out + count, UTURN_OP_ADVANCE, 0, 1, 0);
    h->m             = 1;
    h->phase         = PH_SWEEP;
    h->after_advance = 1;
    h->have_size     = 0;
    return count;
}

/* Bytes mode: fold the live size in and free what no longer fits; returns
 * the actions written (frees), at most room. */
static size_t bytes_shrink(struct view *v, uturn_action_t *out, size_t room)
{
    struct hdr *h    = v->h;
    const uint64_t m = h->m;
    if (h->size_live > h->size_max)
        h->size_max = h->size_live;
    h->s_cur     = uturn__ol_bytes_slots(h, h->size_max);
    size_t count = 0;
    while (h->k > h->s_cur && count < room) {
        const uint64_t q = uturn__ol_cheapest(v, m, h->k);
        count += uturn__put(out + count, UTURN_OP_FREE, 0, 0, remove_held(v, q));
    }
    return count;
}


/* One first-sweep read: the decisions about x_m, then advance m m+1. */
size_t uturn__ol_sweep_step(struct view *v, uturn_action_t *out, size_t cap)
{
    struct hdr *h    = v->h;
    const uint64_t m = h->m;
    size_t count     = 0;
    if (h->bytes) {
        if (!h->have_size) {
            uturn__ol_fail(h, UTURN__OL_NEED_SIZE);
            return 0;
        }
        count = bytes_shrink(v, out, cap - 3);
        if (h->k > h->s_cur) {
            h->after_advance = 0;
            return count;
        }
    }
    const struct decision dd = uturn__ol_decide(v, m);
    if (dd.store) {
        if (dd.victim > 0)
            count += uturn__put(out + count, UTURN_OP_FREE, 0, 0,
                         remove_held(v, dd.victim));
        const uint64_t slot = append_held(v, m, h->size_live);
        count += uturn__put(out + count, UTURN_OP_STORE, m, 0, slot);
    }
    count += uturn__put(out + count, UTURN_OP_ADVANCE, m, m + 1, 0);
    h->m             = m + 1;
    h->after_advance = 1;
    h->have_size     = 0;
    return count;
}
