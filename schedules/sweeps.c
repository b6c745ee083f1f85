/*
 * revolve with sweeps = k >= 2: the first forward stores the persistent
 * checkpoints of the best layout (sweeps.h), then every sweep walks its
 * segments top down with revolve's generator (revolve_walk.c), the
 * segment's slots mapped onto the plan's: its base in slot i, the others
 * the scratch slots m .. s-1, or in the last sweep the slots i+1 .. s-1
 * the bases above it have left.
 */
#include "sweeps.h"

#include "hrevolve.h"
#include "revolve_node.h"

#include <string.h>

struct state {
    const struct uturn__sw_data *d;
    uint64_t next;  /* first forward: the next base to store */
    uint64_t sweep; /* 1 .. k; k + 1 when done */
    uint64_t seg;   /* the segment being walked */
    bool walking, first;
    bool pausing, paused; /* sweeps on request (planner.h) */
    bool done;            /* the stream has ended */
    uint64_t freeing;     /* unbounded: the next base to free, then done */
    struct uturn__rv_node cur;
    uint64_t depth, ws;
    bool live;
    uint64_t *map;
    void *hr; /* hrevolve's generator, for d->hr (after the map) */
    struct uturn__rv_node stack[];
};

static void data_free(uturn_plan_t *plan)
{
    struct uturn__sw_data *d = plan->data;
    if (d != NULL) {
        uturn__hr_free(&plan->alloc, d->hr);
        uturn__free(&plan->alloc, d->x.L, (size_t)d->cap * sizeof *d->x.L);
        uturn__free(&plan->alloc, d->p, (size_t)d->cap * sizeof *d->p);
        uturn__free(&plan->alloc, d, sizeof *d);
    }
    plan->data = NULL;
}

uturn_status_t uturn__sw_data_new(uturn_plan_t *plan, uint64_t s,
                                  uturn_error_t *error)
{
    struct uturn__sw_data *d = uturn__alloc_zeroed(&plan->alloc, 1, sizeof *d);
    if (d != NULL) {
        plan->data      = d;
        plan->data_free = data_free;
        d->x.s          = s;
        d->cap          = s;
        d->x.L          = uturn__alloc_zeroed(&plan->alloc, s, sizeof *d->x.L);
        d->p            = uturn__alloc_zeroed(&plan->alloc, s, sizeof *d->p);
    }
    if (d == NULL || d->x.L == NULL || d->p == NULL)
        return uturn__fail(error, UTURN_E_NOMEM, "out of memory planning");
    return UTURN_OK;
}

static uturn_status_t check_counts(const uturn_problem_t *p, uint64_t s,
                                   uturn_error_t *error);

/* What revolve refuses, in revolve's order, then the limits of several
 * sweeps for the s effective slots of `slots`. */
uturn_status_t uturn__sw_check(const uturn_plan_t *plan, uint64_t slots,
                               uint64_t *s_out, uturn_error_t *error)
{
    const uturn_problem_t *p = &plan->problem;
    if (!plan->has_capacity)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "revolve needs a capacity: slots, or a byte "
                           "budget and slot_bytes");
    if (slots == 0)
        return uturn__fail_infeasible(error, 1, p->slot_bytes,
                                      "revolve needs at least 1 slot (%llu "
                                      "bytes) to hold x_0",
                                      (unsigned long long)p->slot_bytes);
    if (p->steps >= UINT64_MAX - 1)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "revolve plans at most 2^64 - 3 steps");
    const uint64_t s = slots < p->steps + 1 ? slots : p->steps + 1;
    *s_out           = s;
    if (s > UTURN__SWEEPS_MAX_SLOTS)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "plans of several sweeps take at most %llu "
                           "effective slots (min(slots, steps + 1)); "
                           "this one has %llu",
                           (unsigned long long)UTURN__SWEEPS_MAX_SLOTS,
                           (unsigned long long)s);
    return check_counts(p, s, error);
}

/* What cannot be counted in 64 bits, refused before trying every m. An
 * unbounded plan counts the first forward and sweep 1 (k = 1 here). */
static uturn_status_t check_counts(const uturn_problem_t *p, uint64_t s,
                                   uturn_error_t *error)
{
    const bool open = p->sweeps == UTURN_SWEEPS_UNBOUNDED;
    if (p->sweeps > UTURN__SWEEPS_MAX && !open)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "plans take at most %llu sweeps; %llu asked (or "
                           "UTURN_SWEEPS_UNBOUNDED)",
                           (unsigned long long)UTURN__SWEEPS_MAX,
                           (unsigned long long)p->sweeps);
    const uint64_t k = open ? 1 : p->sweeps;
    /* the first sweep alone takes revolve's t(n+1, s): refuse at once
     * what cannot fit, before trying every m */
    if (uturn__bin_t(p->steps + 1, s) == UINT64_MAX)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "the forward steps of one sweep over %llu steps "
                           "with %llu slots do not fit in 64 bits",
                           (unsigned long long)p->steps, (unsigned long long)s);
    /* and every further sweep recomputes at least the n + 1 - s states
     * no slot holds */
    const uturn__u128 least = (uturn__u128)uturn__bin_t(p->steps + 1, s) +
                              (uturn__u128)(k - 1) * (p->steps + 1 - s);
    if (least > UINT64_MAX)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "%llu sweeps over %llu steps with %llu slots "
                           "take more than 2^64 forward steps",
                           (unsigned long long)p->sweeps,
                           (unsigned long long)p->steps, (unsigned long long)s);
    uint64_t reverses;
    if (uturn__mul_u64(k, p->steps, &reverses) != UTURN_OK)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "%llu sweeps of %llu steps: the reverse steps "
                           "do not fit in 64 bits",
                           (unsigned long long)p->sweeps,
                           (unsigned long long)p->steps);
    return UTURN_OK;
}

uturn_status_t uturn__sw_finish(uturn_plan_t *plan, uint64_t cost,
                                uturn_error_t *error)
{
    struct uturn__sw_data *d = plan->data;
    d->p[0]                  = 0;
    for (uint64_t i = 1; i < d->x.m; i++)
        d->p[i] = d->p[i - 1] + d->x.L[i - 1];
    if (cost == UINT64_MAX || uturn__sw_counts(&d->x, &plan->stats) != UTURN_OK)
        return uturn__fail(error, UTURN_E_OVERFLOW,
                           "the forward steps of %llu sweeps over %llu "
                           "steps do not fit in 64 bits",
                           (unsigned long long)d->x.k,
                           (unsigned long long)d->x.n);
    plan->stats.slots      = plan->problem.slots;
    plan->stats.sweeps     = plan->problem.sweeps;
    plan->stats.persistent = d->x.m;
    return UTURN_OK;
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    const uturn_problem_t *p = &plan->problem;
    uint64_t s               = 0;
    uturn_status_t status    = uturn__sw_check(plan, p->slots, &s, error);
    if (status == UTURN_OK)
        status = uturn__sw_data_new(plan, s, error);
    if (status != UTURN_OK)
        return status;
    struct uturn__sw_data *d = plan->data;
    d->x.n                   = p->steps;
    d->x.k                   = p->sweeps;
    d->x.steady              = p->sweeps == UTURN_SWEEPS_UNBOUNDED;
    uint64_t *scratch = uturn__alloc_zeroed(&plan->alloc, s, sizeof *scratch);
    if (scratch == NULL)
        return uturn__fail(error, UTURN_E_NOMEM, "out of memory planning");
    const uint64_t cost = uturn__sw_best(&d->x, scratch);
    uturn__free(&plan->alloc, scratch, (size_t)s * sizeof *scratch);
    d->x.scratch_slot = d->x.m;
    plan->slot_span   = s;
    return uturn__sw_finish(plan, cost, error);
}

size_t uturn__sw_gen_bytes(uint64_t c)
{
    /* a walk has at most c slots: its stack and its slot map */
    return sizeof(struct state) +
           (size_t)c * (sizeof(struct uturn__rv_node) + sizeof(uint64_t));
}

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    const struct uturn__sw_data *d = plan->data;
    *bytes = uturn__sw_gen_bytes(d->x.s > d->x.c_fixed ? d->x.s : d->x.c_fixed);
    size_t hr = 0;
    if (d->hr != NULL && uturn__hr_gen_size(d->hr, &hr) != UTURN_OK)
        return UTURN_E_NOMEM;
    if (hr > SIZE_MAX - *bytes)
        return UTURN_E_NOMEM;
    *bytes += hr;
    return UTURN_OK;
}

void uturn__sw_gen_start(void *state, const struct uturn__sw_data *d,
                         uint64_t stored)
{
    struct state *st = state;
    memset(st, 0, sizeof *st);
    st->d            = d;
    st->sweep        = 1;
    st->next         = stored;
    const uint64_t c = d->x.s > d->x.c_fixed ? d->x.s : d->x.c_fixed;
    st->map          = (uint64_t *)(st->stack + c);
    st->hr           = st->map + c;
}

static void start(const uturn_plan_t *plan, void *state)
{
    uturn__sw_gen_start(state, plan->data, 0);
}

/* The plan's slot for the layout's slot v. */
static uint64_t lab(const struct uturn__sw_data *d, uint64_t v)
{
    return d->label != NULL ? d->label[v] : v;
}

/* First forward: x_0, then x_{p_1} .. x_{p_{m-1}}, each stored in its
 * slot and marked persistent. */
static size_t first_forward(struct state *st, uturn_action_t *out,
                            size_t capacity)
{
    const struct uturn__sw_data *d = st->d;
    size_t count                   = 0;
    while (st->next < d->x.m && count + 3 <= capacity) {
        const uint64_t i = st->next++;
        if (i != 0)
            count += uturn__put(out + count, UTURN_OP_ADVANCE, d->p[i - 1],
                                d->p[i], 0);
        const uint64_t slot = lab(d, d->x.base_slot + i);
        count += uturn__put(out + count, UTURN_OP_STORE, d->p[i], 0, slot);
        count += uturn__put(out + count, UTURN_OP_PERSIST, 0, 0, slot);
    }
    return count;
}

/* Sweep st->sweep is the plan's last (never for an unbounded plan). */
static bool last_sweep(const struct state *st)
{
    return !st->d->x.steady && st->sweep == st->d->x.k;
}

/* Segment st->seg reversed by hrevolve with c slots of its level (the
 * map's), from its base live or read, kept unless the sweep is the last. */
static void begin_hr(struct state *st, uint64_t c)
{
    const struct uturn__sw_data *d     = st->d;
    const struct uturn__hr_tables *t   = d->hr;
    const uint64_t i                   = st->seg;
    const uint64_t cap                 = t->cap[d->hr_level];
    const struct uturn__hr_segment seg = {.a     = d->p[i],
                                          .l     = d->x.L[i] - 1,
                                          .n     = d->x.n,
                                          .m     = c < cap ? c : cap,
                                          .map   = st->map,
                                          .held  = true,
                                          .live  = st->live,
                                          .keep  = !last_sweep(st),
                                          .above = t->levels - 1 - d->hr_level};
    uturn__hr_gen_start(t, st->hr, &seg);
}

/* Put the walker at segment st->seg of sweep st->sweep. */
static void begin_segment(struct state *st)
{
    const struct uturn__sw_layout *x = &st->d->x;
    const uint64_t i = st->seg, top = x->m - 1;
    /* the last sweep of one level gives segment i the slots above it */
    const bool bonus     = last_sweep(st) && i != top && x->c_fixed == 0;
    const uint64_t c     = bonus ? x->s - i : uturn__sw_c(x);
    st->cur              = uturn__rv_node_of(st->d->p[i], x->L[i], c);
    st->ws               = st->cur.c;
    st->depth            = 0;
    st->live             = st->sweep == 1 && i == top && !st->d->cold;
    st->map[0]           = lab(st->d, x->base_slot + i);
    const uint64_t first = bonus ? x->base_slot + i + 1 : x->scratch_slot;
    for (uint64_t q = 1; q < st->ws; q++)
        st->map[q] = lab(st->d, first + q - 1);
    st->walking = true;
    if (st->d->hr != NULL)
        begin_hr(st, c);
}

/* The next segment, or the next sweep's top one; false after the last. */
static bool next_segment(struct state *st)
{
    if (st->seg != 0) {
        st->seg -= 1;
        return true;
    }
    st->done = last_sweep(st);
    st->sweep += 1;
    st->seg = st->d->x.m - 1;
    return !st->done;
}

/* The end of a sweep: pause there (sweeps on request, another to come),
 * or end an unbounded plan's stream with a free of each base. */
static size_t sweep_end(struct state *st, uturn_action_t *out, size_t capacity)
{
    size_t count = 0;
    if (st->pausing && !last_sweep(st)) {
        st->paused = true;
        return 0;
    }
    while (st->d->x.steady && st->freeing < st->d->x.m && count < capacity)
        count += uturn__put(out + count, UTURN_OP_FREE, 0, 0,
                            lab(st->d, st->d->x.base_slot + st->freeing++));
    st->done = st->d->x.steady && st->freeing == st->d->x.m;
    return count;
}

static size_t walk(struct state *st, uturn_action_t *out, size_t capacity)
{
    if (st->d->hr != NULL) { /* its fill says 0 only at the segment's end */
        const size_t count = uturn__hr_gen_fill(st->hr, out, capacity);
        st->walking        = count != 0;
        return count;
    }
    const struct uturn__sw_layout *x = &st->d->x;
    const bool top                   = st->seg == x->m - 1;
    /* the top segment ends at x_n (its last state is the turn) */
    const uint64_t last       = top ? x->n : UINT64_MAX;
    struct uturn__rv_walker w = {st->cur,  st->stack, st->depth,
                                 st->ws,   last,      st->map,
                                 st->live, false,     !last_sweep(st)};
    const size_t count        = uturn__rv_walk_fill_mapped(&w, out, capacity);
    st->cur                   = w.cur;
    st->depth                 = w.depth;
    st->live                  = w.live;
    if (w.done)
        st->walking = false;
    return count;
}

size_t uturn__sw_gen_fill(void *state, uturn_action_t *restrict out,
                          size_t capacity)
{
    struct state *st = state;
    if (st->paused)
        return 0;
    size_t count = first_forward(st, out, capacity);
    if (st->next < st->d->x.m)
        return count;
    if (!st->first) {
        st->first = true;
        st->seg   = st->d->x.m - 1;
        begin_segment(st);
    }
    while (!st->done && !st->paused && count + 3 <= capacity) {
        if (!st->walking && st->seg == 0 && (st->pausing || st->d->x.steady) &&
            !last_sweep(st)) {
            count += sweep_end(st, out + count, capacity - count);
            if (st->paused || st->done || st->freeing != 0)
                break;
        }
        if (!st->walking && !next_segment(st))
            break;
        if (!st->walking)
            begin_segment(st);
        count += walk(st, out + count, capacity - count);
    }
    return count;
}

void uturn__sw_gen_pause(void *state)
{
    ((struct state *)state)->pausing = true;
}

bool uturn__sw_gen_paused(const void *state)
{
    return ((const struct state *)state)->paused;
}

/* On from a pause at a sweep's end: the next sweep's top segment. */
void uturn__sw_gen_resume(void *state)
{
    struct state *st = state;
    if (!st->paused)
        return;
    st->paused = false;
    if (next_segment(st))
        begin_segment(st);
}

/* What decides the stream: the steps, effective slots and sweeps. */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    const struct uturn__sw_data *d = plan->data;
    uturn__hash_u64(h, d->x.n);
    uturn__hash_u64(h, d->x.s);
    uturn__hash_u64(h, d->x.k);
    if (d->x.c_fixed != 0) { /* on levels: where the bases and scratch go */
        uturn__hash_u64(h, d->x.c_fixed);
        uturn__hash_u64(h, d->x.base_slot);
        uturn__hash_u64(h, d->x.m);
    }
    if (d->hr != NULL) { /* hrevolve's segments: their level, every level */
        uturn__hash_u64(h, d->hr_level);
        uturn__hash_u64(h, d->x.m);
        for (uint64_t k = 0; k < plan->level_count; k++) {
            uturn__hash_u64(h, plan->levels[k].slots);
            uturn__hash_u64(h, plan->levels[k].write_cost);
            uturn__hash_u64(h, plan->levels[k].read_cost);
        }
    }
}

/* revolve's entry for sweeps >= 2 (same id and name). */
const struct uturn__planner uturn__revolve_sweeps = {
    .id           = UTURN_PLANNER_REVOLVE,
    .name         = "revolve",
    .prepare      = prepare,
    .state_size   = state_size,
    .start        = start,
    .fill         = uturn__sw_gen_fill,
    .fingerprint  = fingerprint,
    .pause_sweeps = uturn__sw_gen_pause,
    .paused       = uturn__sw_gen_paused,
    .resume       = uturn__sw_gen_resume,
};

/* revolve's entry for sweeps >= 2 on two levels (sweeps_levels.c). */
const struct uturn__planner uturn__revolve_sweeps_levels = {
    .id           = UTURN_PLANNER_REVOLVE,
    .name         = "revolve",
    .prepare      = uturn__sw_prepare_levels,
    .state_size   = state_size,
    .start        = start,
    .fill         = uturn__sw_gen_fill,
    .fingerprint  = fingerprint,
    .levels       = true,
    .pause_sweeps = uturn__sw_gen_pause,
    .paused       = uturn__sw_gen_paused,
    .resume       = uturn__sw_gen_resume,
};
