/*
 * Writing a durable point (executor.h): every held checkpoint not yet in
 * the directory (memory slots from the region, level slots read back once
 * their writes are done), the live state, the model's adjoint, then the
 * manifest: written under a temporary name, fsync()ed and renamed, with
 * the directory fsync()ed before and after, so that a kill at any moment
 * leaves the previous point whole. Files the new point does not name are
 * removed after it.
 */
#define _GNU_SOURCE
#include "executor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uturn_status_t io_failed(struct uturn__run *run, const char *what,
                                int rc)
{
    return uturn__fail(run->error, UTURN_E_IO,
                       "durable directory %s: %s could not be written: %s",
                       run->durable->path, what, strerror(rc));
}

/* Room for bytes in the scratch buffer. */
static unsigned char *scratch(struct uturn__run *run, uint64_t bytes)
{
    struct uturn__drun *d = run->durable;
    if (bytes <= d->scratch_cap)
        return d->scratch;
    unsigned char *g = realloc(d->scratch, (size_t)bytes);
    if (g == NULL)
        return NULL;
    d->scratch     = g;
    d->scratch_cap = bytes;
    return g;
}

/* The bytes of the state in plan slot k (x_step). */
static uturn_status_t slot_bytes(struct uturn__run *run, uint64_t k,
                                 uint64_t step, uint64_t bytes,
                                 const void **src)
{
    const uint64_t level = run->levels > 1 ? uturn__run_level(run, k) : 0;
    if (level == 0) {
        *src = uturn__run_slot_addr(run, k);
        return UTURN_OK;
    }
    struct uturn__level_store *ls = &run->ex->levels[level - 1];
    unsigned char *dst            = scratch(run, bytes);
    if (dst == NULL)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory to copy x_%llu for a durable point",
                           (unsigned long long)step);
    const uint64_t id = uturn__space_id(&ls->space, k - run->level_base[level]);
    const uturn_status_t st = ls->storage.ops->read(
        &ls->storage, id, id * run->stride, dst, bytes, step);
    if (st != UTURN_OK)
        return uturn__fail(run->error, st, "level %llu: %s",
                           (unsigned long long)level, ls->storage.message);
    *src = dst;
    return UTURN_OK;
}

/* Held slot k into the directory, unless it is there already. */
static uturn_status_t write_slot(struct uturn__run *run, uint64_t k)
{
    struct uturn__drun *d   = run->durable;
    struct uturn__dheld *h  = &d->held[k];
    const uint64_t bytes    = uturn__run_data_bytes(run, h->step);
    const void *src         = NULL;
    const uturn_status_t st = slot_bytes(run, k, h->step, bytes, &src);
    if (st != UTURN_OK)
        return st;
    char name[96];
    h->bytes = bytes;
    h->hash  = uturn__dfile_hash(src, bytes);
    uturn__dfile_state_name(h->step, h->hash, name, sizeof name);
    /* names are their contents: one already there is this state */
    if (faccessat(d->dirfd, name, F_OK, 0) != 0) {
        const int rc = uturn__dfile_write(d->dirfd, name, src, bytes);
        if (rc != 0)
            return io_failed(run, name, rc);
        run->report.durable_bytes += bytes;
    }
    h->durable = true;
    return UTURN_OK;
}

/* The live state (x_live) and the adjoint, as point P's files. */
static uturn_status_t write_live(struct uturn__run *run,
                                 struct uturn__manifest *m)
{
    const uturn_model_t *md = &run->model;
    struct uturn__drun *d   = run->durable;
    char name[96];
    if (m->live != UTURN_NONE) {
        const uint64_t bytes = uturn__run_data_bytes(run, m->live);
        const void *src      = md->state;
        unsigned char *buf   = md->state == NULL ? scratch(run, bytes) : NULL;
        if (md->state == NULL && buf == NULL)
            return uturn__fail(run->error, UTURN_E_NOMEM,
                               "out of memory for the live state");
        const int rc =
            buf != NULL ? md->save(md->user, m->live, buf, bytes) : 0;
        if (rc != 0)
            return uturn__run_callback_failed(run, "save", m->live, rc);
        src           = buf != NULL ? buf : src;
        m->live_bytes = bytes;
        m->live_hash  = uturn__dfile_hash(src, bytes);
        uturn__dfile_point_name("live", m->point, name, sizeof name);
        const int wr = uturn__dfile_write(d->dirfd, name, src, bytes);
        if (wr != 0)
            return io_failed(run, name, wr);
        run->report.durable_bytes += bytes;
    }
    unsigned char *adj = scratch(run, md->adjoint_bytes);
    if (adj == NULL)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for the adjoint state");
    const int rc = md->save_adjoint(md->user, adj, md->adjoint_bytes);
    if (rc != 0)
        return uturn__fail(run->error, UTURN_E_CALLBACK,
                           "the save_adjoint callback returned %d (durable "
                           "point %llu)",
                           rc, (unsigned long long)m->point);
    m->adjoint_hash = uturn__dfile_hash(adj, md->adjoint_bytes);
    uturn__dfile_point_name("adjoint", m->point, name, sizeof name);
    const int wr = uturn__dfile_write(d->dirfd, name, adj, md->adjoint_bytes);
    if (wr != 0)
        return io_failed(run, name, wr);
    run->report.durable_bytes += md->adjoint_bytes;
    return UTURN_OK;
}

/* The counts a resumed run goes on with. */
static void take_counts(const struct uturn__run *run, struct uturn__dcounts *c)
{
    const uturn_stats_t *s = &run->seen;
    memset(c, 0, sizeof *c);
    c->forward     = s->forward_steps;
    c->reverse     = s->reverse_steps;
    c->stores      = s->stores;
    c->restores    = s->restores;
    c->frees       = s->frees;
    c->peak_slots  = s->peak_slots;
    c->peak_bytes  = s->peak_bytes;
    c->work_done   = run->work_done;
    c->memory_peak = run->memory_peak;
    for (uint64_t k = 1; k < run->levels && k <= run->ex->level_count; k++) {
        c->level_stores[k]   = run->ex->levels[k - 1].stores;
        c->level_restores[k] = run->ex->levels[k - 1].restores;
        c->level_peak[k]     = run->ex->levels[k - 1].peak;
    }
}

/* The manifest's head: where the run stands. */
static void describe(const struct uturn__run *run, uint64_t into,
                     struct uturn__manifest *m)
{
    const struct uturn__drun *d = run->durable;
    memset(m, 0, sizeof *m);
    m->point       = d->point + 1;
    m->fingerprint = run->plan->stats.fingerprint;
    m->steps       = run->plan->stats.steps;
    m->found = run->online ? run->plan->planner->steps_known(run->ex->gen) : 0;
    m->state_bytes   = run->model.state_bytes;
    m->adjoint_bytes = run->model.adjoint_bytes;
    m->levels        = run->levels > 1 ? run->levels : 1;
    memcpy(m->tag, d->tag, sizeof m->tag);
    m->action = run->index;
    m->into   = into;
    m->live   = run->live;
    take_counts(run, &m->counts);
}

/* Every held slot, written where it is not yet, listed in m. */
static uturn_status_t write_slots(struct uturn__run *run,
                                  struct uturn__manifest *m)
{
    struct uturn__drun *d = run->durable;
    uint64_t held         = 0;
    for (uint64_t k = 0; k < d->held_cap; k++)
        held += d->held[k].step != UTURN_NONE;
    m->slots = held != 0 ? malloc(held * sizeof *m->slots) : NULL;
    if (held != 0 && m->slots == NULL)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for a durable point's manifest");
    for (uint64_t k = 0; k < d->held_cap; k++) {
        struct uturn__dheld *h = &d->held[k];
        if (h->step == UTURN_NONE)
            continue;
        const uturn_status_t st = h->durable ? UTURN_OK : write_slot(run, k);
        if (st != UTURN_OK)
            return st;
        m->slots[m->nslots++] =
            (struct uturn__dslot){k, h->step, h->bytes, h->hash};
    }
    return UTURN_OK;
}

/* The manifest in place, the directory synced around it; with a layer's
 * commit, as manifest-P, the previous point kept until it says every
 * process has point P. */
static uturn_status_t commit(struct uturn__run *run,
                             const struct uturn__manifest *m)
{
    struct uturn__drun *d        = run->durable;
    const uturn_run_options_t *o = &run->options;
    char *text                   = NULL;
    size_t len                   = 0;
    char name[64];
    uturn__dfile_manifest_name(o->durable_commit != NULL ? m->point : 0, name,
                               sizeof name);
    if (fsync(d->dirfd) != 0)
        return io_failed(run, "the directory", errno);
    if (uturn__manifest_format(m, &text, &len) != UTURN_OK)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for a durable point's manifest");
    int rc = uturn__dfile_write(d->dirfd, name, text, len);
    free(text);
    if (rc == 0 && fsync(d->dirfd) != 0)
        rc = errno;
    if (rc != 0)
        return io_failed(run, "the manifest", rc);
    run->report.durable_bytes += len;
    const int cb = o->durable_commit != NULL
                       ? o->durable_commit(o->durable_user, m->point)
                       : 0;
    if (cb != 0)
        return uturn__fail(run->error, UTURN_E_CALLBACK,
                           "the durable_commit callback returned %d (durable "
                           "point %llu)",
                           cb, (unsigned long long)m->point);
    d->point = m->point;
    uturn__dfile_sweep(d->dirfd, m, NULL, 0); /* a failure leaves files, no harm */
    return UTURN_OK;
}

/* The request is served up to `asked`: cleared, unless a larger one (a
 * stop) came meanwhile, from a signal handler between the test and the
 * store: compare and swap, so that it is never lost. */
static void served(volatile sig_atomic_t *request, int asked)
{
    sig_atomic_t now = *request;
    while (now != 0 && now <= asked &&
           !__atomic_compare_exchange_n(request, &now, 0, false,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        ;
}

uturn_status_t uturn__durable_check(struct uturn__run *run, uint64_t into)
{
    const struct uturn__drun *d  = run->durable;
    const uturn_run_options_t *o = &run->options;
    int due                      = d->request != NULL ? (int)*d->request : 0;
    if (due == 0 && d->interval > 0 && uturn__now() >= d->next_due)
        due = UTURN_DURABLE_POINT;
    const int rc =
        o->durable_agree != NULL ? o->durable_agree(o->durable_user, &due) : 0;
    if (rc != 0)
        return uturn__fail(run->error, UTURN_E_CALLBACK,
                           "the durable_agree callback returned %d (action "
                           "%llu)",
                           rc, (unsigned long long)run->index);
    return due != 0 ? uturn__durable_point(run, into, due) : UTURN_OK;
}

uturn_status_t uturn__durable_point(struct uturn__run *run, uint64_t into,
                                    int asked)
{
    struct uturn__drun *d = run->durable;
    const double started  = uturn__now();
    struct uturn__manifest m;
    describe(run, into, &m);
    uturn_status_t st = uturn__levels_drain(run);
    if (st == UTURN_OK)
        st = write_slots(run, &m);
    if (st == UTURN_OK)
        st = write_live(run, &m);
    if (st == UTURN_OK)
        st = uturn__durable_records(run, &m);
    if (st == UTURN_OK)
        st = commit(run, &m);
    uturn__manifest_clear(&m);
    const double now = uturn__now();
    run->report.durable_seconds += now - started;
    d->next_due = now + d->interval;
    if (st != UTURN_OK)
        return st;
    run->report.durable_points += 1;
    run->report.durable_point = d->point;
    if (d->request != NULL)
        served(d->request, asked);
    if (asked == UTURN_DURABLE_STOP)
        return uturn__fail(run->error, UTURN_E_STOPPED,
                           "stopped at durable point %llu in %s, as asked; "
                           "resume to finish",
                           (unsigned long long)d->point, d->path);
    return UTURN_OK;
}
