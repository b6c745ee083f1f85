/*
 * A durable run's per-step data (executor.h), in files that only grow
 * (durable_grow.c): the step records (uturn_model_t.record_bytes: what an
 * adaptive step keeps, written once in the first sweep and handed back on
 * every recomputation) in `records`, and an online plan's shares (the
 * part of the budget each state takes, with sizes given as the run goes)
 * in `shares`, which a resume hands the plan again as it replays its
 * first sweep.
 */
#include "executor.h"

#include <stdlib.h>
#include <string.h>

static uturn_status_t failed(struct uturn__run *run, const char *what, int rc)
{
    return uturn__fail(run->error, UTURN_E_IO,
                       "durable directory %s: %s could not be written: %s",
                       run->durable->path, what, strerror(rc));
}

uturn_status_t uturn__durable_share(struct uturn__run *run, uint64_t step,
                                    uint64_t share)
{
    struct uturn__drun *d = run->durable;
    if (step != d->nshares) /* each state's once, in order */
        return UTURN_OK;
    if (d->nshares == d->shares_cap) {
        const uint64_t cap = d->shares_cap < 1024 ? 1024 : 2 * d->shares_cap;
        uint64_t *g        = realloc(d->shares, cap * sizeof *g);
        if (g == NULL)
            return uturn__fail(run->error, UTURN_E_NOMEM,
                               "out of memory for the durable run's shares");
        d->shares     = g;
        d->shares_cap = cap;
    }
    d->shares[d->nshares++] = share;
    return UTURN_OK;
}

uturn_status_t uturn__durable_records(struct uturn__run *run,
                                      struct uturn__manifest *m)
{
    struct uturn__drun *d = run->durable;
    uint64_t written      = 0;
    int rc                = 0;
    if (run->record_bytes != 0)
        rc = uturn__dgrow_append(d->dirfd, &d->records, run->ex->records,
                                 run->record_bytes, run->frontier, &written);
    if (rc != 0)
        return failed(run, "the step records", rc);
    run->report.durable_bytes += written;
    if (d->nshares != 0)
        rc = uturn__dgrow_append(d->dirfd, &d->share_file,
                                 (const unsigned char *)d->shares,
                                 sizeof *d->shares, d->nshares, &written);
    if (rc != 0)
        return failed(run, "the shares", rc);
    run->report.durable_bytes += d->nshares != 0 ? written : 0;
    m->records      = d->records.done;
    m->record_bytes = d->records.done != 0 ? run->record_bytes : 0;
    m->records_hash = uturn__dgrow_digest(&d->records);
    m->shares       = d->share_file.done;
    m->shares_hash  = uturn__dgrow_digest(&d->share_file);
    return UTURN_OK;
}

uturn_status_t uturn__durable_shares_load(struct uturn__run *run)
{
    struct uturn__drun *d           = run->durable;
    const struct uturn__manifest *m = &d->resume;
    if (m->shares == 0)
        return UTURN_OK;
    unsigned char *bytes = NULL;
    const int rc = uturn__dgrow_load(d->dirfd, &d->share_file, m->shares,
                                     sizeof *d->shares, m->shares_hash, &bytes);
    if (rc != 0)
        return uturn__fail(run->error, UTURN_E_IO,
                           "durable directory %s: its file shares does not "
                           "hold what the manifest names",
                           d->path);
    d->shares     = (uint64_t *)(void *)bytes;
    d->nshares    = m->shares;
    d->shares_cap = m->shares;
    return UTURN_OK;
}

uturn_status_t uturn__durable_records_load(struct uturn__run *run)
{
    struct uturn__drun *d           = run->durable;
    const struct uturn__manifest *m = &d->resume;
    if (m->records == 0 || run->record_bytes == 0)
        return UTURN_OK;
    unsigned char *bytes = NULL;
    uturn_status_t st    = uturn__run_reserve_steps(run, m->records);
    const int rc =
        st == UTURN_OK
            ? uturn__dgrow_load(d->dirfd, &d->records, m->records,
                                m->record_bytes, m->records_hash, &bytes)
            : 0;
    if (st == UTURN_OK && rc != 0)
        st = uturn__fail(run->error, UTURN_E_IO,
                         "durable directory %s: its step records changed "
                         "while the run resumed",
                         d->path);
    if (st == UTURN_OK) {
        memcpy(run->ex->records, bytes, (size_t)(m->records * m->record_bytes));
        run->frontier = m->records;
    }
    free(bytes);
    return st;
}

void uturn__durable_records_free(struct uturn__drun *d)
{
    uturn__dgrow_free(&d->records);
    uturn__dgrow_free(&d->share_file);
    free(d->shares);
    d->shares = NULL;
}
