/*
 * The files of a durable directory (durable.h): written whole through a
 * temporary name and fsync()ed before the rename, read whole, checked
 * against their XXH3-64, locked with flock(), and swept.
 */
#define _GNU_SOURCE
#include "durable.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t uturn__dfile_hash(const void *bytes, uint64_t len)
{
    return XXH3_64bits(bytes, (size_t)len);
}

void uturn__dfile_state_name(uint64_t step, uint64_t hash, char *out,
                             size_t cap)
{
    snprintf(out, cap, "state-%llu-%016llx", (unsigned long long)step,
             (unsigned long long)hash);
}

void uturn__dfile_point_name(const char *what, uint64_t point, char *out,
                             size_t cap)
{
    snprintf(out, cap, "%s-%llu", what, (unsigned long long)point);
}

void uturn__dfile_manifest_name(uint64_t point, char *out, size_t cap)
{
    if (point == 0)
        snprintf(out, cap, "manifest");
    else
        uturn__dfile_point_name("manifest", point, out, cap);
}

static int write_all(int fd, const unsigned char *p, uint64_t len)
{
    while (len > 0) {
        const size_t chunk = len > (1u << 30) ? (1u << 30) : (size_t)len;
        const ssize_t w    = write(fd, p, chunk);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        p += w;
        len -= (uint64_t)w;
    }
    return 0;
}

int uturn__dfile_write(int dirfd, const char *name, const void *bytes,
                       uint64_t len)
{
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s.tmp", name);
    const int fd =
        openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno;
    int rc = write_all(fd, bytes, len);
    if (rc == 0 && fsync(fd) != 0)
        rc = errno;
    if (close(fd) != 0 && rc == 0)
        rc = errno;
    if (rc == 0 && renameat(dirfd, tmp, dirfd, name) != 0)
        rc = errno;
    if (rc != 0)
        unlinkat(dirfd, tmp, 0);
    return rc;
}

int uturn__dfile_read(int dirfd, const char *name, unsigned char **bytes,
                      uint64_t *len)
{
    *bytes       = NULL;
    const int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    struct stat st;
    int rc = fstat(fd, &st) == 0 ? 0 : errno;
    unsigned char *buf =
        rc == 0 ? malloc(st.st_size > 0 ? (size_t)st.st_size : 1) : NULL;
    if (rc == 0 && buf == NULL)
        rc = ENOMEM;
    uint64_t done = 0;
    while (rc == 0 && done < (uint64_t)st.st_size) {
        const ssize_t r = pread(
            fd, buf + done, (size_t)((uint64_t)st.st_size - done), (off_t)done);
        if (r < 0 && errno == EINTR)
            continue;
        rc = r < 0 ? errno : r == 0 ? EIO : 0;
        done += r > 0 ? (uint64_t)r : 0;
    }
    close(fd);
    if (rc != 0) {
        free(buf);
        return rc;
    }
    *bytes = buf;
    *len   = done;
    return 0;
}

int uturn__dfile_check(int dirfd, const char *name, uint64_t len, uint64_t hash)
{
    unsigned char *bytes = NULL;
    uint64_t got         = 0;
    const int rc         = uturn__dfile_read(dirfd, name, &bytes, &got);
    if (rc != 0)
        return rc;
    const bool same = got == len && uturn__dfile_hash(bytes, got) == hash;
    free(bytes);
    return same ? 0 : EBADMSG;
}

int uturn__dfile_lock(int dirfd, int *fd)
{
    *fd = openat(dirfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (*fd < 0)
        return errno;
    if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    const int rc = errno == EWOULDBLOCK ? EWOULDBLOCK : errno;
    close(*fd);
    *fd = -1;
    return rc;
}

/* Whether the manifest m names file `name` (a state, its live state or
 * its adjoint). */
static bool named(const struct uturn__manifest *m, const char *name)
{
    char want[96];
    for (uint64_t i = 0; i < m->nslots; i++) {
        uturn__dfile_state_name(m->slots[i].step, m->slots[i].hash, want,
                                sizeof want);
        if (strcmp(want, name) == 0)
            return true;
    }
    uturn__dfile_point_name("adjoint", m->point, want, sizeof want);
    if (strcmp(want, name) == 0)
        return true;
    uturn__dfile_point_name("manifest", m->point, want, sizeof want);
    if (strcmp(want, name) == 0)
        return true;
    uturn__dfile_point_name("live", m->point, want, sizeof want);
    return m->live != UTURN_NONE && strcmp(want, name) == 0;
}

/* A name a durable run writes (and may remove). */
static bool ours(const char *name, bool all)
{
    const size_t len = strlen(name);
    if (len > 4 && strcmp(name + len - 4, ".tmp") == 0)
        return true;
    if (all && (strcmp(name, "manifest") == 0 || strcmp(name, "lock") == 0))
        return true;
    return strncmp(name, "state-", 6) == 0 || strncmp(name, "live-", 5) == 0 ||
           strncmp(name, "adjoint-", 8) == 0 ||
           strncmp(name, "manifest-", 9) == 0;
}

int uturn__dfile_sweep(int dirfd, const struct uturn__manifest *m)
{
    const int fd = dup(dirfd);
    DIR *d       = fd >= 0 ? fdopendir(fd) : NULL;
    if (d == NULL) {
        const int rc = errno;
        if (fd >= 0)
            close(fd);
        return rc;
    }
    rewinddir(d);
    int first = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (!ours(e->d_name, m == NULL) || (m != NULL && named(m, e->d_name)))
            continue;
        if (unlinkat(dirfd, e->d_name, 0) != 0 && errno != ENOENT && first == 0)
            first = errno;
    }
    closedir(d);
    return first;
}
