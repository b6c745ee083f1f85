/*
 * Taking a plan's generator to a durable point's action without
 * performing anything (executor.h): what the run learnt after each batch
 * it did whole is told the generator again (an online plan: the state the
 * model said was the last, and each state's share), so the actions come
 * out as they did. The resume's skip and the point's check before any
 * callback both go through here.
 */
#include "executor.h"

/* A share told again, the state grown as the run grew it. */
static bool told(const struct uturn__replay *r, uint64_t step)
{
    return uturn__gen_set_size(r->plan->planner, r->alloc, r->gen,
                               r->gen_bytes, step,
                               r->shares[step]) == UTURN_OK;
}

/* What the run learnt after a batch it did whole, told again. */
static bool learnt(const struct uturn__replay *r, size_t count)
{
    const struct uturn__planner *g = r->plan->planner;
    if (g->end == NULL || !g->awaits_end(*r->gen))
        return true;
    const uint64_t step = r->batch[count - 1].step_end;
    if (r->m->found != 0 && step == r->m->found)
        return g->end(*r->gen) == UTURN_OK;
    if (r->nshares == 0) /* a plan of slots: nothing to tell */
        return true;
    return step < r->nshares && told(r, step);
}

bool uturn__replay_to(const struct uturn__replay *r, uint64_t *done,
                      size_t *count)
{
    const struct uturn__planner *g  = r->plan->planner;
    const struct uturn__manifest *m = r->m;
    *done                           = 0;
    if (r->nshares != 0 && !told(r, 0))
        return false;
    for (;;) {
        *count             = g->fill(*r->gen, r->batch, UTURN__BATCH);
        const uint64_t end = *done + *count; /* the point may be inside */
        if (*count == 0 || end > m->action ||
            (end == m->action && m->into == 0))
            break;
        if (r->each != NULL)
            r->each(r->context, r->batch, *count);
        *done = end;
        if (!learnt(r, *count))
            return false;
    }
    if (*count != 0 && r->each != NULL)
        r->each(r->context, r->batch, (size_t)(m->action - *done));
    return *count != 0;
}
