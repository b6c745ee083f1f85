/*
 * Resuming a durable run (executor.h): the generator taken to the point's
 * action without performing anything, then every checkpoint the point
 * names re-made through a store of its own (its file's bytes made the
 * live state first), the live state and the adjoint loaded, and the counts
 * set to the point's. The run then goes on with the very actions the
 * killed run would have performed, so no forward step is taken again
 * beyond the work since the point.
 */
#include "executor.h"

#include <stdlib.h>
#include <string.h>

/* The generator at action m->action: its batch in ex->batch, from *from.
 * *from may be *count (the point came right after the batch's last
 * action; one inside an advance is in the batch that has it): what the
 * run asks after a batch (an online plan: is this state the last?) then
 * comes once it resumes. */
/* The persist actions before the point, counted as if performed. */
static void count_persisted(void *context, const uturn_action_t *a, size_t n)
{
    struct uturn__run *run = context;
    for (size_t i = 0; i < n; i++)
        run->persisted += a[i].op == UTURN_OP_PERSIST;
}

static uturn_status_t skip(struct uturn__run *run, size_t *from, size_t *count)
{
    struct uturn__drun *d           = run->durable;
    const struct uturn__manifest *m = &d->resume;
    const struct uturn__replay r    = {run->plan,
                                       &run->ex->gen,
                                       &run->ex->gen_bytes,
                                       &run->ex->alloc,
                                       run->ex->batch,
                                       m,
                                       d->shares,
                                       d->nshares,
                                       count_persisted,
                                       run};
    uint64_t done                   = 0;
    const bool went                 = uturn__replay_to(&r, &done, count);
    const bool inside               = went && done + *count > m->action;
    uturn_action_t *a = &run->ex->batch[inside ? m->action - done : 0];
    if (!went || (m->into != 0 && (!inside || a->op != UTURN_OP_ADVANCE ||
                                   m->into >= a->step_end - a->step)))
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "durable directory %s: its point's action %llu "
                           "(%llu steps into it) is not in this plan",
                           d->path, (unsigned long long)m->action,
                           (unsigned long long)m->into);
    a->step += m->into;
    d->shifted_action = m->action;
    d->shifted_by     = m->into;
    *from             = (size_t)(m->action - done);
    if (run->online)
        uturn__run_online_known(run);
    return UTURN_OK;
}

/* A point's file made the live state x_step (bytes). */
static uturn_status_t load_live(struct uturn__run *run, const char *name,
                                uint64_t step, uint64_t bytes, uint64_t hash)
{
    const struct uturn__drun *d = run->durable;
    const uturn_model_t *md     = &run->model;
    unsigned char *buf          = NULL;
    uint64_t len                = 0;
    const int rc                = uturn__dfile_read(d->dirfd, name, &buf, &len);
    if (rc != 0 || len != bytes || uturn__dfile_hash(buf, len) != hash ||
        (md->state != NULL && len > md->state_bytes)) {
        free(buf);
        return uturn__fail(run->error, UTURN_E_IO,
                           "durable directory %s: %s changed while the run "
                           "resumed",
                           d->path, name);
    }
    int cb = 0;
    if (md->state != NULL)
        memcpy(md->state, buf, (size_t)len);
    else
        cb = md->load(md->user, step, buf, len);
    free(buf);
    return cb == 0 ? UTURN_OK
                   : uturn__run_callback_failed(run, "load", step, cb);
}

/* Every checkpoint of the point stored again, from its file. */
static uturn_status_t remake_slots(struct uturn__run *run)
{
    struct uturn__drun *d           = run->durable;
    const struct uturn__manifest *m = &d->resume;
    char name[96];
    for (uint64_t i = 0; i < m->nslots; i++) {
        const struct uturn__dslot *s = &m->slots[i];
        uturn__dfile_state_name(s->step, s->hash, name, sizeof name);
        uturn_status_t st = load_live(run, name, s->step, s->bytes, s->hash);
        const uturn_action_t a = {
            .op = UTURN_OP_STORE, .step = s->step, .slot = s->slot};
        if (st == UTURN_OK)
            st = uturn__run_perform(run, &a);
        if (st == UTURN_OK)
            st = uturn__durable_stored(run, &a);
        if (st != UTURN_OK)
            return st;
        d->held[s->slot] =
            (struct uturn__dheld){s->step, s->hash, s->bytes, true};
    }
    return UTURN_OK;
}

/* The live state and the adjoint of the point. */
static uturn_status_t remake_live(struct uturn__run *run)
{
    const struct uturn__drun *d     = run->durable;
    const struct uturn__manifest *m = &d->resume;
    char name[96];
    uturn_status_t st = UTURN_OK;
    if (m->live != UTURN_NONE) {
        uturn__dfile_point_name("live", m->point, name, sizeof name);
        st = load_live(run, name, m->live, m->live_bytes, m->live_hash);
    }
    run->live = m->live;
    if (st != UTURN_OK)
        return st;
    unsigned char *buf = NULL;
    uint64_t len       = 0;
    uturn__dfile_point_name("adjoint", m->point, name, sizeof name);
    const int rc = uturn__dfile_read(d->dirfd, name, &buf, &len);
    if (rc != 0 || len != m->adjoint_bytes ||
        uturn__dfile_hash(buf, len) != m->adjoint_hash) {
        free(buf);
        return uturn__fail(run->error, UTURN_E_IO,
                           "durable directory %s: %s changed while the run "
                           "resumed",
                           d->path, name);
    }
    const int cb = run->model.load_adjoint(run->model.user, buf, len);
    free(buf);
    return cb == 0 ? UTURN_OK
                   : uturn__fail(run->error, UTURN_E_CALLBACK,
                                 "the load_adjoint callback returned %d", cb);
}

/* The point's counts, which the run goes on from. */
static void set_counts(struct uturn__run *run, const struct uturn__dcounts *c)
{
    uturn_stats_t *s = &run->seen;
    s->forward_steps = c->forward;
    s->reverse_steps = c->reverse;
    s->stores        = c->stores;
    s->restores      = c->restores;
    s->frees         = c->frees;
    s->peak_slots    = c->peak_slots;
    s->peak_bytes    = c->peak_bytes;
    run->work_done   = c->work_done;
    run->memory_peak = c->memory_peak;
    for (uint64_t k = 1; k < run->levels && k <= run->ex->level_count; k++) {
        struct uturn__level_store *ls = &run->ex->levels[k - 1];
        ls->stores                    = c->level_stores[k];
        ls->restores                  = c->level_restores[k];
        ls->peak = c->level_peak[k] > ls->held ? c->level_peak[k] : ls->held;
    }
}

uturn_status_t uturn__durable_resume(struct uturn__run *run, size_t *from,
                                     size_t *count)
{
    const struct uturn__manifest *m = &run->durable->resume;
    uturn_status_t st               = skip(run, from, count);
    if (st == UTURN_OK)
        st = remake_slots(run);
    if (st == UTURN_OK)
        st = remake_live(run);
    if (st == UTURN_OK)
        st = uturn__durable_records_load(run);
    if (st != UTURN_OK)
        return st;
    set_counts(run, &m->counts);
    run->index                        = m->action;
    run->report.resumed_action        = m->action;
    run->report.resumed_forward_steps = m->counts.forward;
    run->report.durable_point         = m->point;
    run->work_next                    = run->options.on_progress != NULL
                                            ? run->work_done + run->work_every
                                            : UINT64_MAX;
    return UTURN_OK;
}
