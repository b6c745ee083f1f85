/*
 * A durable run's step records (uturn_model_t.record_bytes: what an
 * adaptive step keeps, written once in the first sweep and handed back on
 * every recomputation). They never change once written, so the file
 * `records` only grows: each point appends the records written since the
 * last (fsync()ed before the manifest that counts them), and the manifest
 * names how many there are and their XXH3-64, kept as a running hash. A
 * kill mid-append leaves bytes past the count the previous point names,
 * which nothing reads.
 */
#define _GNU_SOURCE
#include "executor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

static XXH3_state_t *state_of(struct uturn__drun *d)
{
    return d->records_hash;
}

static uturn_status_t failed(struct uturn__run *run, int rc)
{
    return uturn__fail(run->error, UTURN_E_IO,
                       "durable directory %s: the step records could not be "
                       "written: %s",
                       run->durable->path, strerror(rc));
}

static int append(int fd, const unsigned char *p, uint64_t len, uint64_t at)
{
    while (len > 0) {
        const ssize_t w =
            pwrite(fd, p, len > (1u << 30) ? (1u << 30) : len, (off_t)at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        p += w;
        at += (uint64_t)w;
        len -= (uint64_t)w;
    }
    return 0;
}

uturn_status_t uturn__durable_records(struct uturn__run *run,
                                      struct uturn__manifest *m)
{
    struct uturn__drun *d = run->durable;
    const uint64_t rb     = run->record_bytes;
    if (rb == 0)
        return UTURN_OK;
    if (d->records_done == 0 && d->records_hash == NULL) {
        d->records_hash = XXH3_createState();
        if (d->records_hash == NULL || XXH3_64bits_reset(state_of(d)))
            return uturn__fail(run->error, UTURN_E_NOMEM,
                               "out of memory for the records' hash");
    }
    const uint64_t upto = run->frontier;
    if (upto > d->records_done) {
        const int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
                          (d->records_done == 0 ? O_TRUNC : 0);
        const int fd = openat(d->dirfd, "records", flags, 0600);
        if (fd < 0)
            return failed(run, errno);
        const unsigned char *from = run->ex->records + d->records_done * rb;
        const uint64_t len        = (upto - d->records_done) * rb;
        int rc                    = append(fd, from, len, d->records_done * rb);
        if (rc == 0 && fsync(fd) != 0)
            rc = errno;
        close(fd);
        if (rc != 0)
            return failed(run, rc);
        XXH3_64bits_update(state_of(d), from, (size_t)len);
        run->report.durable_bytes += len;
        d->records_done = upto;
    }
    m->records      = d->records_done;
    m->record_bytes = rb;
    m->records_hash = XXH3_64bits_digest(state_of(d));
    return UTURN_OK;
}

uturn_status_t uturn__durable_records_load(struct uturn__run *run)
{
    struct uturn__drun *d           = run->durable;
    const struct uturn__manifest *m = &d->resume;
    if (m->records == 0 || run->record_bytes == 0)
        return UTURN_OK;
    unsigned char *bytes = NULL;
    uint64_t len         = 0;
    const uint64_t want  = m->records * m->record_bytes;
    uturn_status_t st    = uturn__run_reserve_steps(run, m->records);
    const int rc         = uturn__dfile_read(d->dirfd, "records", &bytes, &len);
    d->records_hash      = XXH3_createState();
    if (st == UTURN_OK &&
        (rc != 0 || len < want || d->records_hash == NULL ||
         XXH3_64bits_reset(state_of(d)) ||
         XXH3_64bits_update(state_of(d), bytes, (size_t)want) ||
         XXH3_64bits_digest(state_of(d)) != m->records_hash))
        st = uturn__fail(run->error, UTURN_E_IO,
                         "durable directory %s: its step records changed "
                         "while the run resumed",
                         d->path);
    if (st == UTURN_OK) {
        memcpy(run->ex->records, bytes, (size_t)want);
        run->frontier   = m->records;
        d->records_done = m->records;
    }
    free(bytes);
    return st;
}

void uturn__durable_records_free(struct uturn__drun *d)
{
    if (d->records_hash != NULL)
        XXH3_freeState(state_of(d));
    d->records_hash = NULL;
}
