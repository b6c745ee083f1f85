/* Cursors: buffered pulls from a planner's generator. An online plan's
 * cursor also counts what it generates (its realised counts) and stops
 * every read at an advance of the first sweep, where the caller may say
 * that the live state is the last. */
#include "planner.h"

#include <string.h>

#define BUFFERED 64

struct uturn_cursor {
    uturn_allocator_t alloc;
    const struct uturn__planner *planner;
    size_t bytes; /* of this whole object */
    size_t head, count;
    bool done;
    bool online;   /* the planner has an end() */
    bool sweeping; /* online, and not ended yet: reads stop at ends */
    uint64_t held; /* online: slots held, for the peak */
    const uturn_plan_t *plan; /* online: its levels price stores, restores */
    uint64_t io_cost;         /* online: the write and read costs so far */
    bool costed;              /* online: some level has a write or read cost */
    bool lean;                /* online, counted by the planner, not costed */
    uturn_stats_t counted;    /* online: what was generated so far */
    uturn_status_t stopped;   /* online: a size's refusal that stopped it */
    uturn_action_t buffer[BUFFERED];
    unsigned char *state; /* the generator's, grown by some online plans */
    size_t state_bytes;
};

static const uturn_level_t *level_of(const uturn_cursor_t *c, uint64_t slot)
{
    const uturn_plan_t *p = c->plan;
    return &p->levels[uturn__level_of(p->levels, p->level_count, slot)];
}

void uturn__count_actions(uturn_stats_t *s, uint64_t *held,
                          const uturn_action_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        s->actions += 1;
        switch (a[i].op) {
        case UTURN_OP_ADVANCE:
            s->forward_steps += a[i].step_end - a[i].step;
            break;
        case UTURN_OP_STORE:
            s->stores += 1;
            *held += 1;
            s->peak_slots = *held > s->peak_slots ? *held : s->peak_slots;
            break;
        case UTURN_OP_FREE:
            s->frees += 1;
            *held -= 1;
            break;
        case UTURN_OP_RESTORE:
            s->restores += 1;
            break;
        case UTURN_OP_REVERSE:
            s->reverse_steps += 1;
            break;
        case UTURN_OP_PERSIST:
            s->persistent += 1;
            break;
        case UTURN_OP_TURN:
            break;
        }
    }
}

/* The write and read costs of generated actions (levels with costs). */
static void count_io(uturn_cursor_t *c, const uturn_action_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i].op == UTURN_OP_STORE)
            c->io_cost += level_of(c, a[i].slot)->write_cost;
        else if (a[i].op == UTURN_OP_RESTORE)
            c->io_cost += level_of(c, a[i].slot)->read_cost;
    }
}

/* generate() for an online plan the planner does not count, or whose
 * levels price stores and restores; out of line, so that the common
 * cases below call the planner's fill in their tails. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static size_t
generate_online(uturn_cursor_t *c, uturn_action_t *out, size_t cap)
{
    const struct uturn__planner *pl = c->planner;
    size_t n;
    if (pl->fill_counted != NULL)
        n = pl->fill_counted(c->state, out, cap, &c->counted, &c->held);
    else {
        n = pl->fill(c->state, out, cap);
        uturn__count_actions(&c->counted, &c->held, out, n);
    }
    if (c->costed)
        count_io(c, out, n);
    return n;
}

/* The generator's next actions, counted when the plan is online (by the
 * planner when it can count them faster). */
static size_t generate(uturn_cursor_t *c, uturn_action_t *out, size_t cap)
{
    const struct uturn__planner *pl = c->planner;
    if (c->lean)
        return pl->fill_counted(c->state, out, cap, &c->counted, &c->held);
    if (!c->online)
        return pl->fill(c->state, out, cap);
    return generate_online(c, out, cap);
}

uturn_status_t uturn_cursor_create(const uturn_plan_t *plan,
                                   const uturn_allocator_t *alloc,
                                   uturn_cursor_t **out)
{
    if (out != NULL)
        *out = NULL;
    if (plan == NULL || out == NULL)
        return UTURN_E_INVALID_ARG;
    size_t state_bytes    = 0;
    uturn_status_t status = plan->planner->state_size(plan, &state_bytes);
    if (status != UTURN_OK)
        return status;
    uturn_allocator_t resolved = plan->alloc;
    if (alloc != NULL)
        uturn__alloc_resolve(alloc, &resolved);
    const size_t bytes     = sizeof(uturn_cursor_t);
    uturn_cursor_t *cursor = uturn__alloc(&resolved, bytes);
    unsigned char *state   = uturn__alloc(&resolved, state_bytes);
    if (cursor == NULL || state == NULL) {
        uturn__free(&resolved, cursor, bytes);
        uturn__free(&resolved, state, state_bytes);
        return UTURN_E_NOMEM;
    }
    cursor->state       = state;
    cursor->state_bytes = state_bytes;
    cursor->alloc       = resolved;
    cursor->planner     = plan->planner;
    cursor->bytes       = bytes;
    cursor->head        = 0;
    cursor->count       = 0;
    cursor->done        = false;
    cursor->online      = plan->planner->end != NULL;
    cursor->sweeping    = cursor->online;
    cursor->held        = 0;
    cursor->plan        = plan;
    cursor->io_cost     = 0;
    cursor->costed      = false;
    for (uint64_t k = 0; k < plan->level_count; k++)
        cursor->costed |=
            plan->levels[k].write_cost != 0 || plan->levels[k].read_cost != 0;
    cursor->lean = cursor->online && !cursor->costed &&
                   plan->planner->fill_counted != NULL;
    uturn_stats_init(&cursor->counted);
    cursor->stopped       = UTURN_OK;
    cursor->counted.slots = plan->stats.slots;
    plan->planner->start(plan, cursor->state);
    *out = cursor;
    return UTURN_OK;
}

/* The slow path of uturn_cursor_next(), kept out of line so that the fast
 * path saves no registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool
refill(uturn_cursor_t *cursor, uturn_action_t *action)
{
    if (cursor->done)
        return false;
    cursor->count = generate(cursor, cursor->buffer, BUFFERED);
    cursor->head  = 0;
    if (cursor->count == 0) {
        cursor->done = true;
        return false;
    }
    *action      = cursor->buffer[0];
    cursor->head = 1;
    return true;
}

bool uturn_cursor_next(uturn_cursor_t *cursor, uturn_action_t *action)
{
    const size_t head = cursor->head;
    if (head == cursor->count)
        return refill(cursor, action);
    *action      = cursor->buffer[head];
    cursor->head = head + 1;
    return true;
}

/* A read that found no action: the end of the plan, or an online plan
 * that stopped before its end was said (a size refused or never given, a
 * plan with levels past its reach). */
static uturn_status_t stop_status(const uturn_cursor_t *c)
{
    if (!c->online || c->planner->steps_known(c->state) != 0)
        return UTURN_OK;
    if (c->stopped != UTURN_OK)
        return c->stopped;
    return c->plan->level_count > 1 ? UTURN_E_INFEASIBLE : UTURN_E_INVALID_ARG;
}

uturn_status_t uturn_cursor_read(uturn_cursor_t *cursor,
                                 uturn_action_t *actions, size_t capacity,
                                 size_t *count)
{
    if (cursor == NULL || actions == NULL || capacity == 0 || count == NULL)
        return UTURN_E_INVALID_ARG;
    size_t written = 0;
    while (written < capacity && cursor->head < cursor->count)
        actions[written++] = cursor->buffer[cursor->head++];
    /* Generate straight into the caller's array while it has room (an
     * online plan stops at an advance where the caller may end it; a
     * read that finds it stopped there, with nothing buffered, means the
     * caller did not end it: the sweep goes on). */
    bool go_on = written == 0;
    while (!cursor->done && capacity - written >= UTURN__FILL_MIN &&
           (go_on || !(cursor->sweeping &&
                       cursor->planner->awaits_end(cursor->state)))) {
        const size_t got =
            generate(cursor, actions + written, capacity - written);
        cursor->done = got == 0;
        written += got;
        go_on = false;
    }
    if (written > 0 && cursor->sweeping &&
        cursor->planner->awaits_end(cursor->state)) {
        *count = written;
        return UTURN_OK;
    }
    /* A tail too short for the generator goes through the buffer; an
     * online plan's read still stops at an advance where it may end. */
    while (written < capacity && uturn_cursor_next(cursor, actions + written)) {
        written++;
        if (cursor->sweeping && cursor->head == cursor->count &&
            cursor->planner->awaits_end(cursor->state))
            break;
    }
    *count = written;
    return written == 0 ? stop_status(cursor) : UTURN_OK;
}

uturn_status_t uturn_cursor_end(uturn_cursor_t *cursor)
{
    if (cursor == NULL)
        return UTURN_E_INVALID_ARG;
    if (!cursor->online)
        return UTURN_E_UNSUPPORTED;
    if (cursor->head != cursor->count ||
        !cursor->planner->awaits_end(cursor->state))
        return UTURN_E_INVALID_ARG;
    const uturn_status_t st = cursor->planner->end(cursor->state);
    cursor->sweeping        = st != UTURN_OK; /* no more ends to stop at */
    return st;
}

uturn_status_t uturn_cursor_set_size(uturn_cursor_t *cursor, uint64_t step,
                                     uint64_t bytes)
{
    if (cursor == NULL)
        return UTURN_E_INVALID_ARG;
    if (!cursor->online || cursor->planner->set_size == NULL)
        return UTURN_E_UNSUPPORTED;
    const uturn_status_t st =
        uturn__gen_set_size(cursor->planner, &cursor->alloc, &cursor->state,
                            &cursor->state_bytes, step, bytes);
    if (st == UTURN_E_INFEASIBLE || st == UTURN_E_NOMEM)
        cursor->stopped = st; /* the plan stops there */
    return st;
}

uturn_status_t uturn_cursor_stats(const uturn_cursor_t *cursor,
                                  uturn_stats_t *out)
{
    if (cursor == NULL || out == NULL)
        return UTURN_E_INVALID_ARG;
    if (!cursor->online)
        return UTURN_E_UNSUPPORTED; /* the plan's counts are its stats */
    uturn_stats_t s  = cursor->counted;
    const uint64_t n = cursor->planner->steps_known(cursor->state);
    if (cursor->planner->reversal_counts != NULL)
        cursor->planner->reversal_counts(cursor->state, &s);
    s.online = true;
    s.steps  = n != 0 ? n : UTURN_NONE;
    s.recomputed_steps =
        n != 0 && s.forward_steps >= n ? s.forward_steps - n : 0;
    s.forward_cost     = s.forward_steps;
    s.recompute_cost   = s.recomputed_steps;
    s.cost             = s.forward_cost + cursor->io_cost;
    s.levels           = cursor->plan->level_count;
    s.sweeps           = cursor->plan->stats.sweeps; /* 1, k or unbounded */
    s.recompute_factor = n != 0 ? (double)s.forward_steps / (double)n : 0.0;
    /* uniform slots: each counts as slot_bytes (bytes mode: 0, unknown) */
    if (uturn__mul_u64(s.peak_slots, cursor->plan->problem.slot_bytes,
                       &s.peak_bytes) != UTURN_OK)
        s.peak_bytes = UINT64_MAX;
    uturn__stats_export(&s, out);
    return UTURN_OK;
}

void uturn_cursor_free(uturn_cursor_t *cursor)
{
    if (cursor == NULL)
        return;
    const uturn_allocator_t alloc = cursor->alloc;
    uturn__free(&alloc, cursor->state, cursor->state_bytes);
    uturn__free(&alloc, cursor, cursor->bytes);
}
