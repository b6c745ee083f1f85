/*
 * online with sweeps = k >= 2 (uniform slots, 4 to UTURN_SWEEPS_MAX_SLOTS,
 * one level): several reverse sweeps over one forward whose step count is
 * found as the run goes.
 *
 * Sweep 1 is the online plan of s slots (online_slots.h), its first
 * forward and its reversal, with x_0 marked persistent right after its
 * store and left in its slot when the reversal is done. The end tells n:
 * then the layout of the family of several sweeps (sweeps.h) for the
 * k - 1 sweeps left is placed, exactly as revolve places it for n steps
 * and k - 1 sweeps (unbounded: for the steady state), and after sweep 1
 * the stream goes on with `restore 0` and that layout's generator: its
 * first forward from x_0 (storing its persistent checkpoints), then its
 * sweeps. So the forward steps are those of the online plan for n plus
 * those of revolve's plan of k - 1 sweeps over n steps; an unbounded plan
 * as a stream is sweep 1 and the free of x_0, each further sweep on
 * request taking the steady layout's.
 *
 * The state block: the header below, the online planner's state, the
 * layout's lengths, starts and scratch (s words each), and the layout's
 * generator (uturn__sw_gen_bytes(s)). The header's layout points into the
 * block itself, so the block is not to be copied.
 */
#include "online_slots.h"
#include "sweeps.h"

enum { OW_FIRST, OW_REST, OW_FREE, OW_DONE };

struct ow {
    uint64_t k; /* sweeps, or UTURN_SWEEPS_UNBOUNDED */
    uint64_t s, max_steps;
    uint64_t total; /* forward steps of the whole stream, once ended */
    int phase, pausing, paused, restored, overflow;
    struct uturn__sw_data d; /* the layout of the sweeps after sweep 1 */
};

static size_t w8(size_t bytes)
{
    return (bytes + 15) / 16 * 16;
}

/* Offsets in the block: the online state, the lengths, the starts, the
 * scratch, the layout's generator; [5] is the whole block. */
static void offsets(uint64_t s, size_t off[6])
{
    off[0] = w8(sizeof(struct ow));
    off[1] = off[0] + w8(uturn__os_state_bytes(s));
    off[2] = off[1] + w8((size_t)s * 8);
    off[3] = off[2] + w8((size_t)s * 8);
    off[4] = off[3] + w8((size_t)s * 8);
    off[5] = off[4] + w8(uturn__sw_gen_bytes(s));
}

static void *part(void *state, int i)
{
    size_t off[6];
    offsets(((struct ow *)state)->s, off);
    return (unsigned char *)state + off[i];
}

static const void *cpart(const void *state, int i)
{
    return part((void *)(uintptr_t)state, i);
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
    size_t off[6];
    offsets(p->slots, off);
    const uturn_status_t st = uturn__online_capacity(plan, p->slots, off[5],
                                                     error);
    plan->stats.sweeps = p->sweeps;
    return st;
}

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    size_t off[6];
    offsets(plan->stats.slots, off);
    *bytes = off[5];
    return UTURN_OK;
}

static void start(const uturn_plan_t *plan, void *state)
{
    struct ow *o = state;
    *o           = (struct ow){.k         = plan->problem.sweeps,
                               .s         = plan->stats.slots,
                               .max_steps = plan->problem.max_steps,
                               .phase     = OW_FIRST};
    uturn__os_init(part(state, 0), o->s, o->max_steps);
    ((struct uturn__os_hdr *)part(state, 0))->keep_x0 = 1;
    o->d.x.L = part(state, 1);
    o->d.p   = part(state, 2);
    o->d.cap = o->s;
}

/* The end at n: sweep 1's reversal, and the layout of the sweeps left. */
static void place(struct ow *o, void *state)
{
    struct uturn__os_view v = uturn__os_view(part(state, 0));
    uturn__os_end_sweep(&v);
    const uint64_t n          = v.h->n;
    struct uturn__sw_layout *x = &o->d.x;
    x->n                       = n;
    x->s                       = o->s < n + 1 ? o->s : n + 1;
    x->steady                  = o->k == UTURN_SWEEPS_UNBOUNDED;
    x->k                       = x->steady ? 1 : o->k - 1;
    const uint64_t cost        = uturn__sw_best(x, part(state, 3));
    x->scratch_slot            = x->m;
    o->d.p[0]                  = 0;
    for (uint64_t i = 1; i < x->m; i++)
        o->d.p[i] = o->d.p[i - 1] + x->L[i - 1];
    uturn__sw_gen_start(part(state, 4), &o->d, true);
    if (o->pausing)
        uturn__sw_gen_pause(part(state, 4));
    o->overflow = v.h->overflow || cost == UINT64_MAX ||
                  (!x->steady && cost > UINT64_MAX - v.h->predicted);
    o->total    = o->overflow ? UINT64_MAX
                  : x->steady ? v.h->predicted
                              : v.h->predicted + cost;
}

/* Sweep 1: the online plan, x_0 marked persistent after its store. */
static size_t first(struct ow *o, void *state, uturn_action_t *out,
                    size_t capacity)
{
    const struct uturn__os_hdr *h = part(state, 0);
    if (h->phase == OS_START) {
        uturn__os_fill(part(state, 0), out, capacity); /* store, advance */
        out[2] = out[1];
        uturn__put(out + 1, UTURN_OP_PERSIST, 0, 0, out[0].slot);
        return 3;
    }
    if ((h->phase == OS_BAND || h->phase == OS_MERGE) && o->max_steps != 0 &&
        h->m >= o->max_steps)
        place(o, state); /* max_steps: the sweep ends by itself */
    const size_t count = uturn__os_fill(part(state, 0), out, capacity);
    if (count != 0)
        return count;
    /* sweep 1 is done: pause, end an unbounded stream, or go on */
    o->phase  = o->k == UTURN_SWEEPS_UNBOUNDED && !o->pausing ? OW_FREE
                                                              : OW_REST;
    o->paused = o->pausing;
    return 0;
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
    return count + uturn__sw_gen_fill(part(state, 4), out + count,
                                      capacity - count);
}

static size_t fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct ow *o = state;
    size_t count = 0;
    if (o->paused || o->overflow)
        return 0;
    if (o->phase == OW_FIRST) {
        count = first(o, state, out, capacity);
        if (count != 0 || o->paused)
            return count;
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
    const struct uturn__os_hdr *h = cpart(state, 0);
    return o->phase == OW_FIRST &&
           (h->phase == OS_BAND || h->phase == OS_MERGE);
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
    return ((const struct uturn__os_hdr *)cpart(state, 0))->n;
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
        uturn__sw_gen_pause(part(state, 4));
}

static bool paused(const void *state)
{
    const struct ow *o = state;
    return o->paused ||
           (o->phase == OW_REST && uturn__sw_gen_paused(cpart(state, 4)));
}

static void resume(void *state)
{
    struct ow *o = state;
    if (o->paused)
        o->paused = 0; /* sweep 2 comes from the layout */
    else if (o->phase == OW_REST)
        uturn__sw_gen_resume(part(state, 4));
}

/* The slots, max_steps and sweeps fix the stream; the constant tells it
 * from the online plans of one sweep. */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    uturn__hash_u64(h, 0x6f6e6c696e657377ull); /* "onlinesw" */
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
