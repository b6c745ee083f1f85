/*
 * online with sweeps = k >= 2 (uniform slots, 4 to UTURN_SWEEPS_MAX_SLOTS,
 * one level): several reverse sweeps over one forward whose step count is
 * found as the run goes (online_sweeps.h has the two ways the sweeps
 * after the first are laid out; online_sweeps_keep.c chooses).
 *
 * Sweep 1 is the online plan of s slots (online_slots.h), x_0 marked
 * persistent right after its store. The end tells n; the layout of the
 * family of several sweeps (sweeps.h) for the k - 1 sweeps left is
 * placed (unbounded: for the steady state, fresh), and after sweep 1 the
 * stream goes on with that layout's generator. An unbounded plan as a
 * stream is sweep 1 and the free of x_0, each further sweep on request.
 */
#include "online_sweeps.h"

static size_t w16(size_t bytes)
{
    return (bytes + 15) / 16 * 16;
}

void uturn__ow_offsets(uint64_t s, size_t off[OW_PARTS + 1])
{
    off[OW_OS] = w16(sizeof(struct ow));
    off[OW_L]  = off[OW_OS] + w16(uturn__os_state_bytes(s));
    for (int i = OW_L; i < OW_GEN; i++)
        off[i + 1] = off[i] + w16((size_t)s * 8);
    off[OW_PARTS] = off[OW_GEN] + w16(uturn__sw_gen_bytes(s));
}

void *uturn__ow_part(void *state, int part)
{
    size_t off[OW_PARTS + 1];
    uturn__ow_offsets(((struct ow *)state)->s, off);
    return (unsigned char *)state + off[part];
}

static void *part(void *state, int i)
{
    return uturn__ow_part(state, i);
}

static const void *cpart(const void *state, int i)
{
    return uturn__ow_part((void *)(uintptr_t)state, i);
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    const uturn_problem_t *p = &plan->problem;
    if (p->slots > UTURN__SWEEPS_MAX_SLOTS)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "online plans of several sweeps take at most "
                           "%llu slots; %llu asked",
                           (unsigned long long)UTURN__SWEEPS_MAX_SLOTS,
                           (unsigned long long)p->slots);
    if (p->sweeps > UTURN__SWEEPS_MAX && p->sweeps != UTURN_SWEEPS_UNBOUNDED)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "plans take at most %llu sweeps; %llu asked (or "
                           "UTURN_SWEEPS_UNBOUNDED)",
                           (unsigned long long)UTURN__SWEEPS_MAX,
                           (unsigned long long)p->sweeps);
    size_t off[OW_PARTS + 1];
    uturn__ow_offsets(p->slots, off);
    const uturn_status_t st =
        uturn__online_capacity(plan, p->slots, off[OW_PARTS], error);
    plan->stats.sweeps = p->sweeps;
    return st;
}

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    size_t off[OW_PARTS + 1];
    uturn__ow_offsets(plan->stats.slots, off);
    *bytes = off[OW_PARTS];
    return UTURN_OK;
}

static void start(const uturn_plan_t *plan, void *state)
{
    struct ow *o = state;
    *o           = (struct ow){.k         = plan->problem.sweeps,
                               .s         = plan->stats.slots,
                               .max_steps = plan->problem.max_steps,
                               .phase     = OW_FIRST};
    uturn__os_init(part(state, OW_OS), o->s, o->max_steps);
    ((struct uturn__os_hdr *)part(state, OW_OS))->keep_x0 = 1;
    o->d.x.L                                              = part(state, OW_L);
    o->d.p                                                = part(state, OW_P);
    o->d.cap                                              = o->s;
}

/* The end at n: sweep 1's reversal, and the layout of the sweeps left
 * (fresh or kept, whichever takes fewer forward steps). */
static void place(struct ow *o, void *state)
{
    struct uturn__os_view v = uturn__os_view(part(state, OW_OS));
    uturn__os_end_sweep(&v);
    const uint64_t n           = v.h->n;
    struct uturn__sw_layout *x = &o->d.x;
    x->n                       = n;
    x->s                       = o->s < n + 1 ? o->s : n + 1;
    x->steady                  = o->k == UTURN_SWEEPS_UNBOUNDED;
    x->k                       = x->steady ? 1 : o->k - 1;
    o->total                   = uturn__ow_choose(o, state);
    if (o->pausing)
        uturn__sw_gen_pause(part(state, OW_GEN));
    o->overflow = v.h->overflow || o->total == UINT64_MAX;
}

/* Sweep 1: the online plan, x_0 marked persistent after its store. */
static size_t first(struct ow *o, void *state, uturn_action_t *out,
                    size_t capacity)
{
    const struct uturn__os_hdr *h = part(state, OW_OS);
    if (h->phase == OS_START) {
        uturn__os_fill(part(state, OW_OS), out, capacity); /* store, advance */
        out[2] = out[1];
        uturn__put(out + 1, UTURN_OP_PERSIST, 0, 0, out[0].slot);
        return 3;
    }
    if (uturn__os_sweeping(h) && o->max_steps != 0 && h->m >= o->max_steps)
        place(o, state); /* max_steps: the sweep ends by itself */
    if (o->phase == OW_KEEP)
        return 0;
    return uturn__os_fill(part(state, OW_OS), out, capacity);
}

/* Sweep 1 is done: pause, end an unbounded stream, or go on. */
static void sweep_1_done(struct ow *o)
{
    o->phase =
        o->k == UTURN_SWEEPS_UNBOUNDED && !o->pausing ? OW_FREE : OW_REST;
    o->paused = o->pausing;
}

/* After sweep 1: x_0 restored, then the layout's generator. */
static size_t rest(struct ow *o, void *state, uturn_action_t *out,
                   size_t capacity)
{
    size_t count = 0;
    if (!o->restored) {
        o->restored = 1;
        count += uturn__put(out, UTURN_OP_RESTORE, 0, 0, o->d.x.base_slot);
    }
    return count + uturn__sw_gen_fill(part(state, OW_GEN), out + count,
                                      capacity - count);
}

static size_t fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct ow *o = state;
    size_t count = 0;
    if (o->paused || o->overflow)
        return 0;
    if (o->phase == OW_FIRST || o->phase == OW_KEEP) {
        count = o->phase == OW_FIRST ? first(o, state, out, capacity) : 0;
        if (count == 0 && o->phase == OW_KEEP)
            count = uturn__ow_keep_fill(o, state, out, capacity);
        if (count != 0)
            return count;
        sweep_1_done(o);
        if (o->paused)
            return 0;
    }
    if (o->phase == OW_REST)
        return rest(o, state, out, capacity);
    if (o->phase == OW_FREE) {
        o->phase = OW_DONE;
        return uturn__put(out, UTURN_OP_FREE, 0, 0, o->d.x.base_slot);
    }
    return 0;
}

static bool awaits_end(const void *state)
{
    const struct ow *o            = state;
    const struct uturn__os_hdr *h = cpart(state, OW_OS);
    return o->phase == OW_FIRST && uturn__os_sweeping(h);
}

static uturn_status_t end(void *state)
{
    struct ow *o = state;
    if (!awaits_end(state))
        return UTURN_E_INVALID_ARG;
    place(o, state);
    return o->overflow ? UTURN_E_OVERFLOW : UTURN_OK;
}

static uint64_t steps_known(const void *state)
{
    return ((const struct uturn__os_hdr *)cpart(state, OW_OS))->n;
}

static uint64_t forward_total(const void *state)
{
    return steps_known(state) != 0 ? ((const struct ow *)state)->total
                                   : UINT64_MAX;
}

static void pause_sweeps(void *state)
{
    struct ow *o = state;
    o->pausing   = 1;
    if (o->phase == OW_REST) /* the layout's generator has started */
        uturn__sw_gen_pause(part(state, OW_GEN));
}

static bool paused(const void *state)
{
    const struct ow *o = state;
    return o->paused ||
           (o->phase == OW_REST && uturn__sw_gen_paused(cpart(state, OW_GEN)));
}

static void resume(void *state)
{
    struct ow *o = state;
    if (o->paused)
        o->paused = 0; /* sweep 2 comes from the layout */
    else if (o->phase == OW_REST)
        uturn__sw_gen_resume(part(state, OW_GEN));
}

/* The slots, max_steps and sweeps fix the stream; the constant tells it
 * from the online plans of one sweep, and from the streams before x_n
 * could be kept ("onlinesw"). */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    uturn__hash_u64(h, 0x6f6e6c6e73773278ull); /* "onlnsw2x" */
    uturn__hash_u64(h, plan->stats.slots);
    uturn__hash_u64(h, plan->problem.max_steps);
    uturn__hash_u64(h, plan->problem.sweeps);
}

static bool sized(const uturn_plan_t *plan)
{
    (void)plan;
    return false;
}

const struct uturn__planner uturn__online_sweeps = {
    .id            = UTURN_PLANNER_ONLINE,
    .name          = "online",
    .prepare       = prepare,
    .state_size    = state_size,
    .start         = start,
    .fill          = fill,
    .fingerprint   = fingerprint,
    .awaits_end    = awaits_end,
    .end           = end,
    .steps_known   = steps_known,
    .forward_total = forward_total,
    .sized         = sized,
    .pause_sweeps  = pause_sweeps,
    .paused        = paused,
    .resume        = resume,
};
