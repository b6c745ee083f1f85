/*
 * The online planner with levels: its cursor (see online_disk.h). The
 * state is a header, three arrays of disk_slots words (the held
 * checkpoints' slots, the stack of free disk slots, the current
 * segment's slot map) and one hrevolve generator.
 */
#include "online_disk.h"

#include <string.h>

enum phase { SWEEP, THIN, TURN, SEGMENT, DONE, FAILED };

struct state {
    const struct uturn__od_plan *p;
    enum phase phase;
    bool after_advance; /* the last action handed out is the sweep's */
    uint64_t pos;       /* the live step of the first sweep */
    uint64_t stride, n, held, nfree, thin_next, seg;
};

static size_t gen_offset(const struct uturn__od_plan *p)
{
    const size_t raw =
        sizeof(struct state) + 3 * (size_t)p->disk_slots * sizeof(uint64_t);
    return (raw + 15) / 16 * 16;
}

static uint64_t *slots_of(struct state *s)
{
    return (uint64_t *)(void *)(s + 1);
}

static uint64_t *free_of(struct state *s)
{
    return slots_of(s) + s->p->disk_slots;
}

static uint64_t *map_of(struct state *s)
{
    return slots_of(s) + 2 * s->p->disk_slots;
}

static void *gen_of(struct state *s)
{
    return (unsigned char *)s + gen_offset(s->p);
}

uturn_status_t uturn__od_state_size(const uturn_plan_t *plan, size_t *bytes)
{
    const struct uturn__od_plan *p = plan->data;
    size_t gen                     = 0;
    const uturn_status_t st        = uturn__hr_gen_size(p->tables, &gen);
    if (st != UTURN_OK || gen > SIZE_MAX - gen_offset(p))
        return UTURN_E_NOMEM;
    *bytes = gen_offset(p) + gen;
    return UTURN_OK;
}

void uturn__od_start(const uturn_plan_t *plan, void *state)
{
    struct state *s = state;
    memset(s, 0, sizeof *s);
    s->p            = plan->data;
    s->phase        = SWEEP;
    s->stride       = s->p->stride;
    uint64_t *stack = free_of(s);
    for (uint64_t i = 0; i < s->p->disk_slots; i++) /* lowest on top */
        stack[i] = s->p->base_top + s->p->disk_slots - 1 - i;
    s->nfree = s->p->disk_slots;
}

/* One first-sweep read: the store for x_pos at a boundary, then the
 * advance; or the end by itself at max_steps, a full disk (THIN), or
 * the tables' reach passed (FAILED). Needs room for two actions. */
static size_t sweep_step(struct state *s, uturn_action_t *out)
{
    const struct uturn__od_plan *p = s->p;
    if (p->max_steps != 0 && s->pos == p->max_steps) {
        s->n     = s->pos;
        s->phase = TURN;
        return 0;
    }
    if (s->pos == p->reach) {
        s->phase = FAILED;
        return 0;
    }
    size_t count = 0;
    if (s->pos % s->stride == 0) {
        if (s->held == p->disk_slots) {
            s->phase     = THIN;
            s->thin_next = 0;
            return 0;
        }
        const uint64_t slot    = free_of(s)[--s->nfree];
        slots_of(s)[s->held++] = slot;
        count += uturn__put(out, UTURN_OP_STORE, s->pos, 0, slot);
    }
    count += uturn__put(out + count, UTURN_OP_ADVANCE, s->pos, s->pos + 1, 0);
    s->pos++;
    s->after_advance = true;
    return count;
}

/* Free the odd-numbered checkpoints, as many as there is room for; once
 * all are, keep the even ones in order and double the stride. */
static size_t thin_step(struct state *s, uturn_action_t *out, size_t room)
{
    uint64_t *slots = slots_of(s);
    size_t count    = 0;
    while (s->thin_next < s->held && count < room) {
        const uint64_t i = s->thin_next++;
        if (i % 2 == 0)
            continue;
        free_of(s)[s->nfree++] = slots[i];
        count += uturn__put(out + count, UTURN_OP_FREE, 0, 0, slots[i]);
    }
    if (s->thin_next < s->held)
        return count;
    for (uint64_t i = 0; 2 * i < s->held; i++)
        slots[i] = slots[2 * i];
    s->held = (s->held + 1) / 2;
    s->stride *= 2;
    s->phase = SWEEP;
    return count;
}

/* Start reversing held checkpoint seg's period: its slot and the free
 * disk slots on top of the stack, lent to the generator. */
static void segment_start(struct state *s)
{
    const struct uturn__od_plan *p  = s->p;
    const struct uturn__od_sweep sw = {s->held, s->stride, 0};
    const uint64_t m                = uturn__od_segment_slots(p, s->seg);
    uint64_t *map                   = map_of(s);
    map[0]                          = slots_of(s)[s->seg];
    for (uint64_t d = 1; d < m; d++)
        map[d] = free_of(s)[s->nfree - d];
    const struct uturn__hr_segment seg = {
        .a    = s->seg * s->stride,
        .l    = uturn__od_segment_steps(&sw, s->seg, s->n),
        .n    = s->n,
        .m    = m,
        .map  = map,
        .held = true};
    uturn__hr_gen_start(p->tables, gen_of(s), &seg);
    s->phase = SEGMENT;
}

/* The current period's next actions; at its end its checkpoint's slot is
 * free again (the generator freed it) and the previous one is next. */
static size_t segment_run(struct state *s, uturn_action_t *out, size_t room)
{
    const size_t got = uturn__hr_gen_fill(gen_of(s), out, room);
    if (got > 0)
        return got;
    free_of(s)[s->nfree++] = slots_of(s)[s->seg];
    if (s->seg == 0) {
        s->phase = DONE;
        return 0;
    }
    s->seg--;
    segment_start(s);
    return 0;
}

size_t uturn__od_fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct state *s  = state;
    size_t count     = 0;
    s->after_advance = false;
    for (;;) {
        const size_t room = capacity - count;
        if (s->phase == SWEEP && room >= 2) {
            count += sweep_step(s, out + count);
            if (s->after_advance)
                return count; /* the caller may say "last" here */
        } else if (s->phase == THIN && room >= 1) {
            count += thin_step(s, out + count, room);
        } else if (s->phase == TURN && room >= 1) {
            count += uturn__put(out + count, UTURN_OP_TURN, 0, 0, 0);
            s->seg = s->held - 1;
            segment_start(s);
        } else if (s->phase == SEGMENT && room >= 3) {
            count += segment_run(s, out + count, room);
        } else {
            return count;
        }
    }
}

bool uturn__od_awaits_end(const void *state)
{
    const struct state *s = state;
    return s->phase == SWEEP && s->after_advance;
}

uturn_status_t uturn__od_end(void *state)
{
    struct state *s = state;
    if (!uturn__od_awaits_end(s))
        return UTURN_E_INVALID_ARG;
    s->n             = s->pos;
    s->phase         = TURN;
    s->after_advance = false;
    return UTURN_OK;
}

uint64_t uturn__od_steps_known(const void *state)
{
    const struct state *s = state;
    return s->n;
}
