/*
 * The names of a durable directory's files (durable.h), and the sweep that
 * removes the ones a point no longer names. Only names a durable run
 * writes are ever removed, matched whole: state-STEP-HASH (STEP decimal,
 * HASH 16 lower-case hex digits), live-P, adjoint-P, manifest-P, each
 * possibly with ".tmp", and manifest.tmp; manifest and lock only when the
 * whole directory goes. A file of the user's called state-of-the-art.txt
 * stays. Checkpoints are looked up in a sorted copy of the manifest's, so
 * a sweep costs O(files log checkpoints). Also how messages name the
 * directory.
 */
#define _GNU_SOURCE
#include "durable.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void uturn__durable_shown(const char *dir, char *out)
{
    const size_t len = strlen(dir);
    if (len < UTURN__SHOWN_CAP)
        memcpy(out, dir, len + 1);
    else
        snprintf(out, UTURN__SHOWN_CAP, "...%s",
                 dir + len - (UTURN__SHOWN_CAP - 4));
}

void uturn__dfile_state_name(uint64_t step, uint64_t hash, char *out,
                             size_t cap)
{
    snprintf(out, cap, "state-%" PRIu64 "-%016" PRIx64, step, hash);
}

void uturn__dfile_point_name(const char *what, uint64_t point, char *out,
                             size_t cap)
{
    snprintf(out, cap, "%s-%" PRIu64, what, point);
}

void uturn__dfile_manifest_name(uint64_t point, char *out, size_t cap)
{
    if (point == 0)
        snprintf(out, cap, "manifest");
    else
        uturn__dfile_point_name("manifest", point, out, cap);
}

/* A decimal number at *p (no sign, no leading zero but "0"), moved past;
 * false when there is none or it does not fit. */
static bool number(const char **p, uint64_t *out)
{
    const char *q = *p;
    uint64_t v    = 0;
    while (*q >= '0' && *q <= '9') {
        const uint64_t d = (uint64_t)(*q - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = 10 * v + d;
        q++;
    }
    const bool ok = q > *p && (q - *p == 1 || **p != '0');
    *p            = q;
    *out          = v;
    return ok;
}

/* 16 lower-case hex digits at *p, moved past. */
static bool hex16(const char **p, uint64_t *out)
{
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) {
        const char c = (*p)[i];
        const int d  = c >= '0' && c <= '9'   ? c - '0'
                       : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                              : -1;
        if (d < 0)
            return false;
        v = 16 * v + (uint64_t)d;
    }
    *p += 16;
    *out = v;
    return true;
}

/* The kind of a durable file name, with its numbers; 0: not one. */
enum kind { NOT_OURS, STATE, LIVE, ADJOINT, MANIFEST_P, TMP_ONLY };

struct parsed {
    enum kind kind;
    uint64_t a, b; /* state: step and hash; the others: the point */
    bool tmp;
};

static struct parsed parse(const char *name)
{
    struct parsed r = {NOT_OURS, 0, 0, false};
    static const struct {
        const char *prefix;
        enum kind kind;
    } kinds[] = {{"state-", STATE},
                 {"live-", LIVE},
                 {"adjoint-", ADJOINT},
                 {"manifest-", MANIFEST_P}};
    if (strcmp(name, "manifest.tmp") == 0)
        return (struct parsed){TMP_ONLY, 0, 0, true};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const size_t n = strlen(kinds[k].prefix);
        const char *p  = name + n;
        if (strncmp(name, kinds[k].prefix, n) != 0 || !number(&p, &r.a))
            continue;
        if (kinds[k].kind == STATE && (*p++ != '-' || !hex16(&p, &r.b)))
            return r;
        r.tmp = strcmp(p, ".tmp") == 0;
        if (*p == '\0' || r.tmp)
            r.kind = kinds[k].kind;
        return r;
    }
    return r;
}

static int by_state(const void *x, const void *y)
{
    const struct uturn__dslot *a = x, *b = y;
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    return a->hash < b->hash ? -1 : a->hash > b->hash;
}

/* Whether the point m (its checkpoints sorted in `sorted`) names f. */
static bool named(const struct uturn__manifest *m,
                  const struct uturn__dslot *sorted, const struct parsed *f)
{
    if (f->tmp)
        return false;
    switch (f->kind) {
    case STATE: {
        const struct uturn__dslot key = {0, f->a, 0, f->b};
        return m->nslots != 0 && bsearch(&key, sorted, (size_t)m->nslots,
                                         sizeof key, by_state) != NULL;
    }
    case LIVE:
        return m->live != UTURN_NONE && f->a == m->point;
    case ADJOINT:
    case MANIFEST_P:
        return f->a == m->point;
    default:
        return false;
    }
}

/* The directory's entries from the first, as a stream the caller closes;
 * NULL with errno set. A dup shares dirfd's position, which an earlier
 * read may have left anywhere: hence the rewind. */
static DIR *entries_of(int dirfd)
{
    const int fd = dup(dirfd);
    DIR *d       = fd >= 0 ? fdopendir(fd) : NULL;
    if (d == NULL) {
        const int err = errno;
        if (fd >= 0)
            close(fd);
        errno = err;
        return NULL;
    }
    rewinddir(d);
    return d;
}

/* Unlink name (gone already is fine); 0, or errno with the name kept in
 * failed (cap bytes) when it is the first failure. */
static int unlink_one(int dirfd, const char *name, int first, char *failed,
                      size_t cap)
{
    if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT || first != 0)
        return first;
    const int err = errno;
    if (failed != NULL)
        snprintf(failed, cap, "%s", name);
    return err;
}

/* Remove what m does not name (everything when m is NULL, but the
 * manifest and the lock: those go last, once the rest is gone). */
static int sweep_dir(int dirfd, DIR *d, const struct uturn__manifest *m,
                     const struct uturn__dslot *sorted, char *failed,
                     size_t cap)
{
    int first = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        const struct parsed f = parse(e->d_name);
        const bool whole = m == NULL && (strcmp(e->d_name, "records") == 0 ||
                                         strcmp(e->d_name, "shares") == 0);
        if (!whole &&
            (f.kind == NOT_OURS || (m != NULL && named(m, sorted, &f))))
            continue;
        first = unlink_one(dirfd, e->d_name, first, failed, cap);
    }
    return first;
}

int uturn__dfile_sweep(int dirfd, const struct uturn__manifest *m, char *failed,
                       size_t cap)
{
    struct uturn__dslot *sorted = NULL;
    if (m != NULL && m->nslots != 0) {
        sorted = malloc((size_t)m->nslots * sizeof *sorted);
        if (sorted == NULL)
            return ENOMEM;
        memcpy(sorted, m->slots, (size_t)m->nslots * sizeof *sorted);
        qsort(sorted, (size_t)m->nslots, sizeof *sorted, by_state);
    }
    DIR *d = entries_of(dirfd);
    int rc = d == NULL ? errno : 0;
    if (d != NULL) {
        rc = sweep_dir(dirfd, d, m, sorted, failed, cap);
        closedir(d);
    }
    free(sorted);
    /* a removal that failed part way leaves what marks a durable run, so
     * that it can be tried again */
    if (m == NULL && rc == 0)
        rc = unlink_one(dirfd, "manifest", 0, failed, cap);
    if (m == NULL && rc == 0)
        rc = unlink_one(dirfd, "lock", 0, failed, cap);
    return rc;
}

bool uturn__dfile_says_durable(int dirfd, const char *name)
{
    static const char head[] = "uturn-durable ";
    char got[sizeof head - 1];
    const int fd =
        openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return false;
    struct stat st;
    const ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
                          ? read(fd, got, sizeof got)
                          : -1; /* a FIFO or a device: not a manifest */
    close(fd);
    return n == (ssize_t)sizeof got && memcmp(got, head, sizeof got) == 0;
}

bool uturn__dfile_ours(int dirfd)
{
    DIR *d = entries_of(dirfd);
    if (d == NULL)
        return false;
    bool any = false, ours = false;
    for (struct dirent *e = readdir(d); e != NULL && !ours; e = readdir(d)) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        any                   = true;
        const struct parsed f = parse(e->d_name);
        ours                  = strcmp(e->d_name, "lock") == 0 ||
               ((strcmp(e->d_name, "manifest") == 0 ||
                 (f.kind == MANIFEST_P && !f.tmp)) &&
                uturn__dfile_says_durable(dirfd, e->d_name));
    }
    closedir(d);
    return ours || !any;
}
