/*
 * A durable point against the plan's own actions (executor.h): before any
 * callback, the actions up to the point are walked (a cursor of the plan;
 * an online plan told its n where the manifest found it) and what they
 * leave (the checkpoints held, slot by slot, the live state, the counts)
 * must be exactly what the manifest says. A manifest that passes its
 * checksum but says anything else (edited, or another plan's with the same
 * fingerprint) would resume into a wrong gradient: it is refused.
 */
#include "executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the actions up to the point leave. */
struct walked {
    uint64_t *held; /* step by slot, UTURN_NONE: empty */
    uint64_t cap, live, forward, reverse, stores, restores, frees;
    bool ok;
};

static bool hold(struct walked *w, uint64_t slot, uint64_t step)
{
    if (slot >= w->cap) {
        const uint64_t cap = slot + 1 > 2 * w->cap ? slot + 1 : 2 * w->cap;
        uint64_t *g        = realloc(w->held, cap * sizeof *g);
        if (g == NULL)
            return false;
        for (uint64_t k = w->cap; k < cap; k++)
            g[k] = UTURN_NONE;
        w->held = g;
        w->cap  = cap;
    }
    w->held[slot] = step;
    return true;
}

static bool apply(struct walked *w, const uturn_action_t *a)
{
    switch (a->op) {
    case UTURN_OP_ADVANCE:
        w->forward += a->step_end - a->step;
        w->live = a->step_end;
        return true;
    case UTURN_OP_STORE:
        w->stores += 1;
        return hold(w, a->slot, a->step);
    case UTURN_OP_RESTORE:
        w->restores += 1;
        w->live = a->step;
        return true;
    case UTURN_OP_FREE:
        w->frees += 1;
        return a->slot >= w->cap || (w->held[a->slot] = UTURN_NONE, true);
    case UTURN_OP_REVERSE:
        w->reverse += 1;
        w->live = UTURN_NONE;
        return true;
    default:
        return true;
    }
}

static void apply_all(void *context, const uturn_action_t *a, size_t n)
{
    struct walked *w = context;
    for (size_t i = 0; i < n && w->ok; i++)
        w->ok = apply(w, &a[i]);
}

/* Walk the plan's first m->action actions and `into` steps of the next,
 * with a generator of its own. */
static bool walk(const struct uturn__drun *d, const uturn_plan_t *plan,
                 const struct uturn__manifest *m, struct walked *w)
{
    const struct uturn__planner *g = plan->planner;
    size_t bytes                   = 0;
    const uturn_allocator_t *alloc = &plan->alloc;
    unsigned char *gen             = g->state_size(plan, &bytes) == UTURN_OK
                                         ? uturn__alloc(alloc, bytes)
                                         : NULL;
    uturn_action_t *batch = uturn__alloc(alloc, UTURN__BATCH * sizeof *batch);
    bool ok               = gen != NULL && batch != NULL;
    uint64_t done         = 0;
    size_t count          = 0;
    if (ok) {
        g->start(plan, gen);
        const struct uturn__replay r = {
            plan,      &gen,       &bytes,    alloc,
            batch,     m,          d->shares, d->nshares,
            apply_all, w};
        ok = uturn__replay_to(&r, &done, &count) && w->ok;
    }
    const uturn_action_t *a =
        ok && m->into != 0 ? &batch[m->action - done] : NULL;
    if (a != NULL) {
        ok = done + count > m->action && a->op == UTURN_OP_ADVANCE &&
             m->into < a->step_end - a->step;
        w->forward += m->into;
        w->live = a->step + m->into;
    }
    uturn__free(alloc, gen, bytes);
    uturn__free(alloc, batch, UTURN__BATCH * sizeof *batch);
    return ok;
}

/* The first thing the manifest says that the walk does not, or NULL. */
static const char *differs(const struct walked *w,
                           const struct uturn__manifest *m)
{
    uint64_t held = 0;
    for (uint64_t k = 0; k < w->cap; k++)
        held += w->held[k] != UTURN_NONE;
    if (held != m->nslots)
        return "the checkpoints held";
    for (uint64_t i = 0; i < m->nslots; i++)
        if (m->slots[i].slot >= w->cap ||
            w->held[m->slots[i].slot] != m->slots[i].step)
            return "a checkpoint's slot or step";
    if (w->live != m->live)
        return "the live state";
    const struct uturn__dcounts *c = &m->counts;
    if (w->forward != c->forward || w->reverse != c->reverse ||
        w->stores != c->stores || w->restores != c->restores ||
        w->frees != c->frees)
        return "the counts";
    return NULL;
}

uturn_status_t uturn__durable_verify(struct uturn__run *run,
                                     const struct uturn__manifest *m)
{
    struct walked w  = {NULL, 0, 0, 0, 0, 0, 0, 0, true};
    w.live           = 0; /* x_0, before any action */
    const bool went  = walk(run->durable, run->plan, m, &w);
    const char *what = went ? differs(&w, m) : "its action";
    free(w.held);
    if (what == NULL)
        return UTURN_OK;
    return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                       "durable directory %s: its point %llu is not where "
                       "this plan's actions lead (they differ in %s): "
                       "another plan's, or an edited manifest; remove it "
                       "(uturn durable remove)",
                       run->durable->path, (unsigned long long)m->point, what);
}
