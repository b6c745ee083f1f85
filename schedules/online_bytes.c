/*
 * online with a byte budget whose sizes come as the run goes, at any
 * count. Every slot counts as the largest state seen so far (x_0 at its
 * own size), so the plan holds s = 1 + (budget - size(x_0)) / size_max
 * states, and never more bytes than the budget, whatever sizes arrive.
 *
 * x_1's size fixes the most slots the run can ever have (s only falls
 * after it). Up to UTURN_ONLINE_MAX_SLOTS_BYTES the online family plans
 * (online.h: its rules, and a reversal searched exactly over the held
 * set, which grows like s^4). Past it the plan takes the uniform planner
 * of any count (online_slots.h) at that s, and its state grows to match:
 * set_size() at x_1 asks for it (state_need), the caller moves the state
 * into a larger block (state_move). When a larger state later lowers s,
 * the checkpoints past it are freed by the merge rule, cheapest first,
 * before the decision about the live state; the merge keys are remade
 * once s has fallen by a 32nd (uturn__os_rekey(), O(k)), so a chain whose
 * states grow a little at every step costs O(s) in all for them.
 */
#include "online.h"
#include "online_slots.h"

#define FAMILY_MAX UTURN_ONLINE_MAX_SLOTS_BYTES

enum { OB_FAMILY, OB_SLOTS };

struct ob {
    uint64_t mode, budget, size0, size_max, size_live, max_steps;
    uint64_t want; /* family: the slots x_1's size allows, past FAMILY_MAX */
    int have_size, mid, fatal, status;
};

#define OB_OFF ((sizeof(struct ob) + 15) / 16 * 16)

static void *sub(void *state)
{
    return (unsigned char *)state + OB_OFF;
}

static const void *csub(const void *state)
{
    return (const unsigned char *)state + OB_OFF;
}

static struct uturn__os_view os_view(void *state)
{
    return uturn__os_view(sub(state));
}

/* The slots that fit when every state but x_0 counts as @p size bytes (a
 * size of 0 counts as 1). */
static uint64_t slots_for(const struct ob *o, uint64_t size)
{
    const uint64_t extra = (o->budget - o->size0) / (size == 0 ? 1 : size);
    return extra >= UTURN_ONLINE_MAX_SLOTS ? UTURN_ONLINE_MAX_SLOTS
                                           : 1 + extra;
}

/* The slot indices a plan may name: the family's, or the most x_1's size
 * can allow: x_0 (of 0 bytes, at the least) and every other state
 * counted as at least a byte, 1 + budget. */
static uint64_t span_of(uint64_t budget)
{
    const uint64_t most =
        budget < UTURN_ONLINE_MAX_SLOTS ? budget + 1 : UTURN_ONLINE_MAX_SLOTS;
    return most > FAMILY_MAX ? most : FAMILY_MAX;
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    return uturn__online_capacity(plan, span_of(plan->problem.budget_bytes),
                                  uturn__ol_state_bytes(FAMILY_MAX, 0),
                                  error);
}

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    (void)plan;
    *bytes = OB_OFF + uturn__ol_state_bytes(FAMILY_MAX, 0);
    return UTURN_OK;
}

static void start(const uturn_plan_t *plan, void *state)
{
    struct ob *o = state;
    *o = (struct ob){.mode      = OB_FAMILY,
                     .budget    = plan->problem.budget_bytes,
                     .max_steps = plan->problem.max_steps};
    uturn__ol_start_bytes(sub(state), FAMILY_MAX, o->max_steps, o->budget);
}

static int fail(struct ob *o, int status, bool fatal)
{
    o->status = status;
    o->fatal |= fatal;
    return status;
}

/* x_1's size in the family: past FAMILY_MAX slots, the state must grow. */
static void family_sized(struct ob *o, const void *family, uint64_t bytes)
{
    const struct hdr *fh = family;
    o->budget            = fh->budget;
    o->size0             = fh->size0;
    o->size_live         = bytes;
    o->have_size         = 1;
    const uint64_t s     = slots_for(o, bytes);
    o->want              = s > FAMILY_MAX ? s : 0;
}

static uturn_status_t set_size(void *state, uint64_t step, uint64_t bytes)
{
    struct ob *o = state;
    if (o->mode == OB_FAMILY) {
        const int st = uturn__ol_set_size(sub(state), step, bytes);
        if (st == UTURN_OK && step == 1)
            family_sized(o, csub(state), bytes);
        return uturn__ol_status_of(st);
    }
    const struct uturn__os_hdr *h = sub(state);
    if (o->fatal || !uturn__os_sweeping(h) || o->mid || step != h->m)
        return (uturn_status_t)fail(o, UTURN_E_INVALID_ARG, false);
    o->size_live = bytes;
    o->have_size = 1;
    return UTURN_OK;
}

static size_t state_need(const void *state)
{
    const struct ob *o = state;
    if (o->mode != OB_FAMILY || o->want == 0)
        return 0;
    const size_t bytes = uturn__os_state_bytes(o->want);
    return bytes == 0 || bytes > SIZE_MAX - OB_OFF ? SIZE_MAX
                                                   : OB_OFF + bytes;
}

/* The family held x_0 alone, in slot 0, and advanced to x_1: the uniform
 * planner of want slots at the same place. */
static void state_move(const void *old, void *fresh)
{
    struct ob *o = fresh;
    *o           = *(const struct ob *)old;
    uturn__os_init(sub(fresh), o->want, o->max_steps);
    struct uturn__os_view v = os_view(fresh);
    uturn__os_band_start(&v, uturn__os_pop(&v));
    v.h->phase = OS_BAND;
    v.h->m     = 1;
    o->mode    = OB_SLOTS;
    o->want    = 0;
}

/* Fold the live size in; free what no longer fits (at most room frees).
 * true: the held set fits the slots. */
static bool shrink(struct ob *o, struct uturn__os_view *v,
                   uturn_action_t *out, size_t room, size_t *count)
{
    struct uturn__os_hdr *h = v->h;
    o->size_max  = o->size_live > o->size_max ? o->size_live : o->size_max;
    const uint64_t s = slots_for(o, o->size_max);
    if (s < h->s) {
        if (h->phase == OS_BAND)
            uturn__os_to_merge(v);
        h->s = s;
    }
    while (h->k > h->s && *count < room)
        *count += uturn__put(out + *count, UTURN_OP_FREE, 0, 0,
                             uturn__os_evict(v));
    if (h->k > h->s)
        return false;
    if (h->phase == OS_MERGE && h->ks != h->s &&
        ((h->ks - h->s) * 32 >= h->ks || h->s < 64))
        uturn__os_rekey(v);
    return true;
}

/* One first-sweep read of the uniform planner: frees, then the decision
 * about x_m and the advance. */
static size_t slots_sweep(struct ob *o, struct uturn__os_view *v,
                          uturn_action_t *out, size_t capacity)
{
    if (!o->have_size) {
        fail(o, UTURN__OL_NEED_SIZE, true);
        return 0;
    }
    size_t count = 0;
    o->mid       = !shrink(o, v, out, capacity - 3, &count);
    if (o->mid)
        return count;
    o->have_size = 0;
    return count + uturn__os_sweep_step(v, out + count);
}

static size_t fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct ob *o = state;
    if (o->mode == OB_FAMILY) {
        if (o->want == 0)
            return uturn__ol_fill(sub(state), out, capacity);
        fail(o, UTURN_E_NOMEM, true); /* the state was not grown */
        return 0;
    }
    struct uturn__os_view v = os_view(state);
    if (o->fatal || capacity < UTURN__FILL_MIN)
        return 0;
    if (uturn__os_sweeping(v.h)) {
        if (o->max_steps == 0 || v.h->m < o->max_steps)
            return slots_sweep(o, &v, out, capacity);
        uturn__os_end_sweep(&v); /* max_steps: the sweep ends by itself */
    }
    return uturn__os_reverse_state(sub(state), out, capacity);
}

static size_t fill_counted(void *state, uturn_action_t *out, size_t capacity,
                           uturn_stats_t *counted, uint64_t *held)
{
    const struct ob *o = state;
    if (o->mode == OB_SLOTS && !o->fatal &&
        ((const struct uturn__os_hdr *)csub(state))->phase == OS_REVERSE) {
        struct uturn__os_view v = os_view(state);
        return uturn__os_reverse_counted(&v, out, capacity, counted, held);
    }
    const size_t count = fill(state, out, capacity);
    uturn__count_actions(counted, held, out, count);
    return count;
}

static bool awaits_end(const void *state)
{
    const struct ob *o = state;
    if (o->mode == OB_FAMILY)
        return uturn__ol_awaits_end(csub(state));
    return uturn__os_sweeping(csub(state)) && !o->mid && !o->fatal;
}

static uturn_status_t end(void *state)
{
    struct ob *o = state;
    if (o->mode == OB_FAMILY) {
        const int st = uturn__ol_end(sub(state));
        o->want      = st == UTURN_OK ? 0 : o->want;
        return uturn__ol_status_of(st);
    }
    if (!awaits_end(state))
        return (uturn_status_t)fail(o, UTURN_E_INVALID_ARG, false);
    struct uturn__os_view v = os_view(state);
    uturn__os_end_sweep(&v);
    return v.h->overflow ? UTURN_E_OVERFLOW : UTURN_OK;
}

static uint64_t steps_known(const void *state)
{
    const struct ob *o = state;
    return o->mode == OB_FAMILY
               ? uturn__ol_steps(csub(state))
               : ((const struct uturn__os_hdr *)csub(state))->n;
}

static uint64_t forward_total(const void *state)
{
    const struct ob *o = state;
    if (o->mode == OB_FAMILY)
        return uturn__ol_forward(csub(state));
    const struct uturn__os_hdr *h = csub(state);
    return h->n != 0 ? h->predicted : UINT64_MAX;
}

/* The budget and max_steps fix the stream for given sizes; the constant
 * tells it from the byte budgets of 0.3, capped at FAMILY_MAX slots. */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    uturn__hash_u64(h, 0x6f6e6c696e656232ull); /* "onlineb2" */
    uturn__hash_u64(h, plan->problem.budget_bytes);
    uturn__hash_u64(h, plan->problem.max_steps);
}

static bool sized(const uturn_plan_t *plan)
{
    (void)plan;
    return true;
}

const struct uturn__planner uturn__online_bytes = {
    .id            = UTURN_PLANNER_ONLINE,
    .name          = "online",
    .prepare       = prepare,
    .state_size    = state_size,
    .start         = start,
    .fill          = fill,
    .fill_counted  = fill_counted,
    .fingerprint   = fingerprint,
    .awaits_end    = awaits_end,
    .end           = end,
    .set_size      = set_size,
    .steps_known   = steps_known,
    .forward_total = forward_total,
    .sized         = sized,
    .state_need    = state_need,
    .state_move    = state_move,
};
