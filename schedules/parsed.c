/* parsed: a plan read from text replays its list of actions. */
#include "planner.h"

#include <string.h>

struct state {
    const uturn_action_t *actions;
    uint64_t count, next;
};

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    (void)plan;
    return uturn__fail(error, UTURN_E_INVALID_ARG,
                       "a parsed plan comes from uturn_plan_parse()");
}

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    (void)plan;
    *bytes = sizeof(struct state);
    return UTURN_OK;
}

static void start(const uturn_plan_t *plan, void *state)
{
    struct state *s = state;
    s->actions      = plan->actions;
    s->count        = plan->action_count;
    s->next         = 0;
}

static size_t fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct state *s     = state;
    const uint64_t left = s->count - s->next;
    const size_t n      = left < capacity ? (size_t)left : capacity;
    memcpy(out, s->actions + s->next, n * sizeof *out);
    s->next += n;
    return n;
}

const struct uturn__planner uturn__parsed = {
    .id         = UTURN_PLANNER_PARSED,
    .name       = "parsed",
    .prepare    = prepare,
    .state_size = state_size,
    .start      = start,
    .fill       = fill,
    /* The fingerprint is the parse's (planfile_line.c). */
};
