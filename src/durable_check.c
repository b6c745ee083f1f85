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

/* Walk the plan's first m->action actions and `into` steps of the next. */
static bool walk(const uturn_plan_t *plan, const struct uturn__manifest *m,
                 struct walked *w)
{
    uturn_cursor_t *c = NULL;
    if (uturn_cursor_create(plan, NULL, &c) != UTURN_OK)
        return false;
    uturn_action_t a[UTURN__BATCH];
    uint64_t done = 0;
    bool ok       = true;
    while (ok && done < m->action) {
        size_t got        = 0;
        const size_t want = m->action - done < UTURN__BATCH
                                ? (size_t)(m->action - done)
                                : UTURN__BATCH;
        ok = uturn_cursor_read(c, a, want, &got) == UTURN_OK && got != 0;
        for (size_t i = 0; ok && i < got; i++)
            ok = apply(w, &a[i]);
        done += got;
        if (ok && m->found != 0 && a[got - 1].op == UTURN_OP_ADVANCE &&
            a[got - 1].step_end == m->found && plan->planner->end != NULL)
            ok = uturn_cursor_end(c) == UTURN_OK;
    }
    size_t got = 0;
    if (ok && m->into != 0)
        ok = uturn_cursor_read(c, a, 1, &got) == UTURN_OK && got == 1 &&
             a[0].op == UTURN_OP_ADVANCE && m->into < a[0].step_end - a[0].step;
    if (ok && m->into != 0) {
        w->forward += m->into;
        w->live = a[0].step + m->into;
    }
    uturn_cursor_free(c);
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
    struct walked w  = {NULL, 0, 0, 0, 0, 0, 0, 0};
    w.live           = 0; /* x_0, before any action */
    const bool went  = walk(run->plan, m, &w);
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
