/*
 * The files of a durable directory (durable.h): written whole through a
 * temporary name of their own (never through a link) and fsync()ed before
 * the rename, read whole (regular files only: never a link or a FIFO),
 * checked against their XXH3-64, and the directory locked with flock().
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

int uturn__dfile_write_at(int fd, const void *bytes, uint64_t len, uint64_t at)
{
    const unsigned char *p = bytes;
    while (len > 0) {
        const size_t chunk = len > (1u << 30) ? (1u << 30) : (size_t)len;
        const ssize_t w    = pwrite(fd, p, chunk, (off_t)at);
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

int uturn__dfile_write(int dirfd, const char *name, const void *bytes,
                       uint64_t len)
{
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s.tmp", name);
    /* a file of our own, never one a link points to */
    unlinkat(dirfd, tmp, 0);
    const int fd = openat(
        dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno;
    int rc = uturn__dfile_write_at(fd, bytes, len, 0);
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
    *bytes = NULL;
    /* not through a link, and never waiting on a FIFO: regular files */
    const int fd =
        openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ELOOP ? EINVAL : errno;
    struct stat st;
    int rc = fstat(fd, &st) == 0 ? (S_ISREG(st.st_mode) ? 0 : EINVAL) : errno;
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

const char *uturn__dfile_lock_why(int rc)
{
    return rc == EINVAL ? "its file lock is not a regular file (a symlink, "
                          "a FIFO or a directory?)"
                        : strerror(rc);
}

bool uturn__dfile_locked(int dirfd)
{
    const int fd =
        openat(dirfd, "lock", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    /* a shared lock is refused while a run holds the exclusive one */
    const bool held = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                      flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return held;
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
    *fd = openat(dirfd, "lock",
                 O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    if (*fd < 0) /* a symlink; a directory */
        return errno == ELOOP || errno == EISDIR ? EINVAL : errno;
    struct stat st;
    if (fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(*fd);
        *fd = -1;
        return EINVAL;
    }
    int rc = flock(*fd, LOCK_EX | LOCK_NB) == 0 ? 0
             : errno == EWOULDBLOCK             ? EWOULDBLOCK
                                                : errno;
    /* A run refused before any callback removes a lock file it made
     * (uturn__durable_open): one opened before that and locked after it
     * is no lock at all, so it counts as held. */
    struct stat now;
    if (rc == 0 && (fstatat(dirfd, "lock", &now, AT_SYMLINK_NOFOLLOW) != 0 ||
                    now.st_ino != st.st_ino || now.st_dev != st.st_dev))
        rc = EWOULDBLOCK;
    if (rc == 0)
        return 0;
    close(*fd);
    *fd = -1;
    return rc;
}
