/*
 * A durable directory as a whole: its point read and checked (the
 * manifest's checksum and every file it names), and the public calls that
 * show it and remove it.
 */
#define _GNU_SOURCE
#include "durable.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What went wrong with a durable file: EINVAL is what reading says of a
 * link, a FIFO or anything else that is not a regular file. */
static const char *file_error(int rc)
{
    return rc == EINVAL ? "not a regular file (a link, a FIFO, ..)"
                        : strerror(rc);
}

/* Every file m names is there with its bytes; else why names it. */
static int check_files(int dirfd, const struct uturn__manifest *m, char *why,
                       size_t why_cap)
{
    char name[96];
    for (uint64_t i = 0; i <= m->nslots + 1; i++) {
        uint64_t bytes = 0, hash = 0;
        if (i < m->nslots) {
            uturn__dfile_state_name(m->slots[i].step, m->slots[i].hash, name,
                                    sizeof name);
            bytes = m->slots[i].bytes;
            hash  = m->slots[i].hash;
        } else if (i == m->nslots) {
            uturn__dfile_point_name("adjoint", m->point, name, sizeof name);
            bytes = m->adjoint_bytes;
            hash  = m->adjoint_hash;
        } else if (m->live != UTURN_NONE) {
            uturn__dfile_point_name("live", m->point, name, sizeof name);
            bytes = m->live_bytes;
            hash  = m->live_hash;
        } else
            break;
        const int rc = uturn__dfile_check(dirfd, name, bytes, hash);
        if (rc != 0) {
            snprintf(why, why_cap,
                     rc == EBADMSG ? "its file %s does not hold the bytes "
                                     "the manifest names (damaged)%s"
                                   : "its file %s: %s",
                     name, rc == EBADMSG ? "" : file_error(rc));
            return rc;
        }
    }
    return 0;
}

/* A file that only grows (step records, shares): its first count units
 * hold what the manifest's hash says (more may follow: a later point's,
 * cut short by a kill). */
static int check_grown(int dirfd, const char *name, uint64_t count,
                       uint64_t unit, uint64_t hash, char *why, size_t why_cap)
{
    if (count == 0)
        return 0;
    struct uturn__dgrow g = {name, 0, NULL};
    unsigned char *bytes  = NULL;
    const int rc = uturn__dgrow_load(dirfd, &g, count, unit, hash, &bytes);
    uturn__dgrow_free(&g);
    free(bytes);
    if (rc != 0)
        snprintf(why, why_cap,
                 rc == EBADMSG ? "its file %s does not hold what the "
                                 "manifest names (damaged)%s"
                               : "its file %s: %s",
                 name, rc == EBADMSG ? "" : file_error(rc));
    return rc;
}

int uturn__durable_load(int dirfd, uint64_t point, struct uturn__manifest *m,
                        char *why, size_t why_cap)
{
    unsigned char *text = NULL;
    uint64_t len        = 0;
    char name[64];
    uturn__dfile_manifest_name(point, name, sizeof name);
    int rc = uturn__dfile_read(dirfd, name, &text, &len);
    if (rc != 0) {
        snprintf(why, why_cap, "its manifest cannot be read: %s",
                 file_error(rc));
        return rc == ENOENT ? UTURN__DURABLE_NONE : rc;
    }
    char reason[160];
    const uturn_status_t st = uturn__manifest_parse(
        (const char *)text, (size_t)len, m, reason, sizeof reason);
    free(text);
    if (st != UTURN_OK) {
        snprintf(why, why_cap, "its manifest is damaged: %s", reason);
        return EBADMSG;
    }
    rc = check_files(dirfd, m, why, why_cap);
    if (rc == 0)
        rc = check_grown(dirfd, "records", m->records, m->record_bytes,
                         m->records_hash, why, why_cap);
    if (rc == 0)
        rc = check_grown(dirfd, "shares", m->shares, sizeof(uint64_t),
                         m->shares_hash, why, why_cap);
    if (rc != 0)
        uturn__manifest_clear(m);
    return rc;
}

void uturn_durable_info_init_size(uturn_durable_info_t *info, size_t size)
{
    if (info == NULL)
        return;
    memset(info, 0, size);
    info->size = size;
}

static void fill_info(const struct uturn__manifest *m,
                      uturn_durable_info_t *out)
{
    uturn_durable_info_t i;
    memset(&i, 0, sizeof i);
    i.size          = out->size;
    i.has_point     = true;
    i.point         = m->point;
    i.fingerprint   = m->fingerprint;
    i.steps         = m->steps;
    i.action        = m->action;
    i.into          = m->into;
    i.forward_steps = m->counts.forward;
    i.reverse_steps = m->counts.reverse;
    i.checkpoints   = m->nslots;
    i.bytes = m->adjoint_bytes + (m->live != UTURN_NONE ? m->live_bytes : 0);
    for (uint64_t k = 0; k < m->nslots; k++)
        i.bytes += m->slots[k].bytes;
    i.state_bytes   = m->state_bytes;
    i.adjoint_bytes = m->adjoint_bytes;
    snprintf(i.tag, sizeof i.tag, "%s", m->tag);
    i.in_use = out->in_use;
    memcpy(out, &i, out->size < sizeof i ? out->size : sizeof i);
}

static int open_dir(const char *directory)
{
    return open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

uturn_status_t uturn_durable_inspect(const char *directory,
                                     uturn_durable_info_t *info,
                                     uturn_error_t *error)
{
    return uturn_durable_inspect_point(directory, 0, info, error);
}

uturn_status_t uturn_durable_inspect_point(const char *directory,
                                           uint64_t point,
                                           uturn_durable_info_t *info,
                                           uturn_error_t *error)
{
    if (directory == NULL || info == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "directory and info must not be NULL");
    const size_t size = info->size != 0 ? info->size : sizeof *info;
    uturn_durable_info_init_size(info, size);
    char shown[UTURN__SHOWN_CAP];
    uturn__durable_shown(directory, shown);
    const int dirfd = open_dir(directory);
    if (dirfd < 0)
        return uturn__fail(error, UTURN_E_IO, "durable directory %s: %s", shown,
                           strerror(errno));
    info->in_use = uturn__dfile_locked(dirfd);
    struct uturn__manifest m;
    char why[256];
    int rc = uturn__durable_load(dirfd, point, &m, why, sizeof why);
    /* a running run replaces its point under us: its previous point's
     * files go once the new manifest is in place, so read again */
    for (int tries = 0; rc == ENOENT && info->in_use && tries < 100; tries++) {
        usleep(1000);
        rc = uturn__durable_load(dirfd, point, &m, why, sizeof why);
    }
    close(dirfd);
    if (rc == UTURN__DURABLE_NONE)
        return UTURN_OK; /* no point there */
    if (rc != 0)
        return uturn__fail(error, UTURN_E_IO, "durable directory %s: %s", shown,
                           why);
    fill_info(&m, info);
    uturn__manifest_clear(&m);
    return UTURN_OK;
}

uturn_status_t uturn_durable_remove(const char *directory, uturn_error_t *error)
{
    if (directory == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "directory must not be NULL");
    char shown[UTURN__SHOWN_CAP];
    uturn__durable_shown(directory, shown);
    const int dirfd = open_dir(directory);
    if (dirfd < 0)
        return uturn__fail(error, UTURN_E_IO, "durable directory %s: %s", shown,
                           strerror(errno));
    if (!uturn__dfile_ours(dirfd)) { /* nothing of a run: touch nothing */
        close(dirfd);
        return UTURN_OK;
    }
    int lock         = -1;
    char failed[64]  = ""; /* names a run writes are shorter */
    const int locked = uturn__dfile_lock(dirfd, &lock);
    const int rc     = locked != 0
                           ? locked
                           : uturn__dfile_sweep(dirfd, NULL, failed, sizeof failed);
    if (lock >= 0)
        close(lock);
    close(dirfd);
    if (locked == EWOULDBLOCK)
        return uturn__fail(error, UTURN_E_IO,
                           "durable directory %s is in use by a running "
                           "run; stop it first",
                           shown);
    if (locked != 0)
        return uturn__fail(error, UTURN_E_IO,
                           "durable directory %s cannot be locked to remove "
                           "it: %s; nothing removed",
                           shown, uturn__dfile_lock_why(locked));
    if (rc != 0 && failed[0] == '\0')
        return uturn__fail(error, UTURN_E_IO,
                           "durable directory %s: its files could not be "
                           "listed: %s; nothing removed",
                           shown, strerror(rc));
    if (rc != 0)
        return uturn__fail(error, UTURN_E_IO,
                           "durable directory %s: its file %s could not be "
                           "removed: %s; its lock stays, so that remove "
                           "can be tried again",
                           shown, failed, strerror(rc));
    rmdir(directory); /* only when empty: other files stay with it */
    return UTURN_OK;
}
