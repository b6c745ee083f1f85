/*
 * A durable run's start and end (executor.h): the options and the model
 * checked, the directory made and locked, a point to resume from read and
 * checked against the plan and the model, all before the first callback;
 * at the end the lock given back, and a complete run's files removed.
 */
#define _GNU_SOURCE
#include "executor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a durable run cannot do (yet) or lacks. */
static uturn_status_t check_run(const struct uturn__run *run)
{
    const uturn_run_options_t *o = &run->options;
    const uturn_model_t *m       = &run->model;
    if (m->save_adjoint == NULL || m->load_adjoint == NULL ||
        m->adjoint_bytes == 0)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "a durable run needs the model's adjoint_bytes, "
                           "save_adjoint and load_adjoint (the adjoint state "
                           "a resumed run goes on with)");
    if (!(o->durable_interval >= 0) || isinf(o->durable_interval))
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "durable_interval must be a finite number of "
                           "seconds, 0 or more");
    if (o->durable_mode < UTURN_DURABLE_NEW ||
        o->durable_mode > UTURN_DURABLE_AUTO)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "durable_mode %d is none of UTURN_DURABLE_NEW, "
                           "_RESUME and _AUTO",
                           o->durable_mode);
    if (o->durable_tag != NULL && strlen(o->durable_tag) >= UTURN__DURABLE_TAG)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "durable_tag has %zu bytes; at most %d",
                           strlen(o->durable_tag), UTURN__DURABLE_TAG - 1);
    if (o->durable_dir[0] == '\0')
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "durable_dir is empty: give the directory's "
                           "path (NULL: not a durable run)");
    if (o->sweeps_on_request)
        return uturn__fail(run->error, UTURN_E_UNSUPPORTED,
                           "durable runs do not support sweeps on request "
                           "yet");
    return UTURN_OK;
}

/* The point in the directory against this plan and model. */
static uturn_status_t check_identity(const struct uturn__run *run,
                                     const struct uturn__manifest *m)
{
    const struct uturn__drun *d = run->durable;
    const uint64_t levels =
        run->plan->level_count > 1 ? run->plan->level_count : 1;
    const char *what =
        m->fingerprint != run->plan->stats.fingerprint ? "plan (fingerprint)"
        : m->steps != run->plan->stats.steps           ? "plan (steps)"
        : m->levels != levels                          ? "plan (levels)"
        : m->state_bytes != run->model.state_bytes     ? "model (state_bytes)"
        : m->adjoint_bytes != run->model.adjoint_bytes ? "model (adjoint_bytes)"
        : m->records != 0 && m->record_bytes != run->model.record_bytes
            ? "model (record_bytes)"
        : strcmp(m->tag, d->tag) != 0 ? "model (durable_tag)"
                                      : NULL;
    if (what == NULL)
        return UTURN_OK;
    return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                       "durable directory %s holds point %llu of another %s; "
                       "resume it with its own, or remove it (uturn durable "
                       "remove %s)",
                       d->path, (unsigned long long)m->point, what, d->path);
}

/* The directory's manifest cannot be read (why): a file of the user's
 * under a manifest's name (or a manifest damaged at its first line: the
 * two look the same), or a run's damaged point, which a new run would
 * write over and a resume cannot use. */
static uturn_status_t unreadable(struct uturn__run *run, const char *why)
{
    struct uturn__drun *d = run->durable;
    char name[64];
    uturn__dfile_manifest_name(run->options.durable_resume_point, name,
                               sizeof name);
    if (!uturn__dfile_says_durable(d->dirfd, name))
        return uturn__fail(run->error, UTURN_E_IO,
                           "durable directory %s: its file %s is no durable "
                           "run's, or is damaged at its start; move it, or "
                           "use another directory (%s)",
                           d->path, name, why);
    if (run->options.durable_mode == UTURN_DURABLE_NEW)
        return uturn__fail(run->error, UTURN_E_IO,
                           "durable directory %s holds a damaged point (%s); "
                           "a new run starts once it is removed (uturn "
                           "durable remove)",
                           d->path, why);
    return uturn__fail(run->error, UTURN_E_IO,
                       "durable directory %s cannot be resumed: %s", d->path,
                       why);
}

/* Read the directory's point as the mode asks: none, or one to resume. */
static uturn_status_t read_point(struct uturn__run *run)
{
    struct uturn__drun *d = run->durable;
    const int mode        = run->options.durable_mode;
    char why[256];
    const int rc =
        uturn__durable_load(d->dirfd, run->options.durable_resume_point,
                            &d->resume, why, sizeof why);
    if (rc != 0 && rc != UTURN__DURABLE_NONE)
        return unreadable(run, why);
    if (rc == UTURN__DURABLE_NONE && mode == UTURN_DURABLE_RESUME)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "durable directory %s holds no durable point to "
                           "resume",
                           d->path);
    if (rc == 0 && mode == UTURN_DURABLE_NEW) {
        uturn__manifest_clear(&d->resume);
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "durable directory %s holds a point of an earlier "
                           "run; resume it (UTURN_DURABLE_RESUME or _AUTO) "
                           "or remove it (uturn durable remove %s)",
                           d->path, d->path);
    }
    d->resuming = rc == 0;
    if (d->resuming) {
        d->point          = d->resume.point;
        uturn_status_t st = check_identity(run, &d->resume);
        if (st == UTURN_OK)
            st = uturn__durable_shares_load(run);
        return st == UTURN_OK ? uturn__durable_verify(run, &d->resume) : st;
    }
    /* a fresh start: what a run killed before its first point left */
    struct uturn__manifest none;
    memset(&none, 0, sizeof none);
    none.live = UTURN_NONE;
    uturn__dfile_sweep(d->dirfd, &none, NULL, 0);
    return UTURN_OK;
}

/* A run refused before any callback leaves what it found: the lock file
 * it made goes (uturn__dfile_lock counts a lock on a removed file as
 * held), and the directory when it made it and it is empty. */
static void leave_as_found(struct uturn__drun *d, bool made_dir, bool made_lock)
{
    if (made_lock && d->lockfd >= 0)
        unlinkat(d->dirfd, "lock", 0);
    if (made_dir && d->real[0] != '\0')
        rmdir(d->real);
}

static uturn_status_t open_dir(struct uturn__run *run)
{
    struct uturn__drun *d = run->durable;
    const char *path      = run->options.durable_dir;
    const char *shown     = d->path;
    const bool made_dir   = mkdir(path, 0700) == 0;
    if (!made_dir && errno != EEXIST)
        return uturn__fail(run->error, UTURN_E_IO,
                           "durable directory %s cannot be made: %s", shown,
                           strerror(errno));
    d->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d->dirfd < 0)
        return uturn__fail(run->error, UTURN_E_IO,
                           "durable directory %s cannot be opened: %s", shown,
                           strerror(errno));
    if (realpath(path, d->real) == NULL)
        d->real[0] = '\0';
    const bool made_lock =
        faccessat(d->dirfd, "lock", F_OK, AT_SYMLINK_NOFOLLOW) != 0;
    const int rc = uturn__dfile_lock(d->dirfd, &d->lockfd);
    if (rc == EWOULDBLOCK)
        return uturn__fail(run->error, UTURN_E_IO,
                           "durable directory %s is in use by another run "
                           "(its lock is held); one run at a time",
                           shown);
    if (rc != 0)
        return uturn__fail(run->error, UTURN_E_IO,
                           "durable directory %s cannot be locked: %s", shown,
                           uturn__dfile_lock_why(rc));
    const uturn_status_t st = read_point(run);
    if (st != UTURN_OK)
        leave_as_found(d, made_dir, made_lock);
    return st;
}

/* The directory as messages name it (uturn__durable_shown), to keep. */
static char *shown_path(const char *dir)
{
    char *shown = malloc(UTURN__SHOWN_CAP);
    if (shown != NULL)
        uturn__durable_shown(dir, shown);
    return shown;
}

uturn_status_t uturn__durable_open(struct uturn__run *run)
{
    run->live                  = 0; /* the caller's x_0, before any action */
    run->report.resumed_action = UTURN_NONE;
    if (run->options.durable_dir == NULL)
        return UTURN_OK;
    uturn_status_t st = check_run(run);
    if (st != UTURN_OK)
        return st;
    struct uturn__drun *d = calloc(1, sizeof *d);
    char *path            = shown_path(run->options.durable_dir);
    /* the scratch for the adjoint now: a size that cannot be had is
     * refused before any callback, not at the first point */
    unsigned char *scratch = d != NULL && run->model.adjoint_bytes <= SIZE_MAX
                                 ? malloc((size_t)run->model.adjoint_bytes)
                                 : NULL;
    if (d != NULL && scratch == NULL && path != NULL) {
        free(d);
        free(path);
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for the durable run's %llu bytes "
                           "of adjoint state (adjoint_bytes)",
                           (unsigned long long)run->model.adjoint_bytes);
    }
    if (d == NULL || path == NULL) {
        free(d);
        free(path);
        free(scratch);
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for a durable run");
    }
    d->dirfd = d->lockfd = -1;
    d->path              = path;
    d->records.name      = "records";
    d->shifted_action    = UTURN_NONE;
    d->share_file.name   = "shares";
    d->scratch           = scratch;
    d->scratch_cap       = run->model.adjoint_bytes;
    d->interval          = run->options.durable_interval;
    d->next_due          = run->started + d->interval;
    d->request           = run->options.durable_request;
    snprintf(d->tag, sizeof d->tag, "%s",
             run->options.durable_tag != NULL ? run->options.durable_tag : "");
    run->durable = d;
    return open_dir(run);
}

void uturn__durable_close(struct uturn__run *run, uturn_status_t status)
{
    struct uturn__drun *d = run->durable;
    if (d == NULL)
        return;
    /* a run across processes: its layer removes the parts, once the
     * commit record is gone (a kill in between must leave a point) */
    const bool layer = run->options.durable_commit != NULL;
    if (status == UTURN_OK && !layer && d->dirfd >= 0 &&
        uturn__dfile_sweep(d->dirfd, NULL, NULL, 0) == 0 && d->real[0] != '\0')
        rmdir(d->real); /* only when empty; where it was, whatever the
                           process's working directory is now */
    if (d->lockfd >= 0)
        close(d->lockfd);
    if (d->dirfd >= 0)
        close(d->dirfd);
    uturn__manifest_clear(&d->resume);
    uturn__durable_records_free(d);
    free(d->held);
    free(d->scratch);
    free(d->path);
    free(d);
    run->durable = NULL;
}

/* The slot table has room for plan slot `slot`. */
static bool reach(struct uturn__drun *d, uint64_t slot)
{
    if (slot < d->held_cap)
        return true;
    const uint64_t cap =
        slot + 1 > 2 * d->held_cap ? slot + 1 : 2 * d->held_cap;
    struct uturn__dheld *g = realloc(d->held, cap * sizeof *g);
    if (g == NULL)
        return false;
    for (uint64_t k = d->held_cap; k < cap; k++)
        g[k] = (struct uturn__dheld){UTURN_NONE, 0, 0, false};
    d->held     = g;
    d->held_cap = cap;
    return true;
}

uturn_status_t uturn__durable_stored(struct uturn__run *run,
                                     const uturn_action_t *a)
{
    struct uturn__drun *d = run->durable;
    if (!reach(d, a->slot))
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for the durable run's slot table");
    d->held[a->slot] = (struct uturn__dheld){a->step, 0, 0, false};
    return UTURN_OK;
}

void uturn__durable_freed(struct uturn__run *run, uint64_t slot)
{
    struct uturn__drun *d = run->durable;
    if (slot < d->held_cap)
        d->held[slot].step = UTURN_NONE;
}
