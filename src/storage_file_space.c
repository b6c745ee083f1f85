/*
 * A file level's space: whether its directory is memory (tmpfs, where
 * "disk" checkpoints take RAM the budget does not see), whether the run's
 * file fits (statvfs, checked before anything is made, so that a request
 * the disk cannot hold fails at once and by name), and the file itself,
 * preallocated so that the run cannot run out of space halfway through.
 */
#define _GNU_SOURCE /* statfs, O_NOFOLLOW */
#include "storage_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/vfs.h>
#endif

#define TMPFS_MAGIC_NUMBER 0x01021994u
#define RAMFS_MAGIC_NUMBER 0x858458f6u

_Static_assert(sizeof(off_t) == 8, "a file level needs 64-bit offsets");

void uturn__file_detect_tmpfs(struct uturn__storage *st, int fd)
{
#if defined(__linux__)
    const struct uturn__file *f = uturn__file_of(st);
    struct statfs s;
    const int rc = fd >= 0 ? fstatfs(fd, &s) : statfs(f->parent, &s);
    st->on_tmpfs = false;
    if (rc != 0)
        return;
    /* ramfs is memory too, and does not even have tmpfs's limit. */
    const uint64_t type = (uint64_t)(unsigned long)s.f_type;
    st->on_tmpfs = type == TMPFS_MAGIC_NUMBER || type == RAMFS_MAGIC_NUMBER;
#else
    (void)fd;
    st->on_tmpfs = false;
#endif
}

/* The bytes an unprivileged process may still take there; false when the
 * file system cannot say. */
static bool free_bytes(const struct uturn__file *f, uint64_t *out)
{
    struct statvfs s;
    if (fstatvfs(f->parent_fd, &s) != 0)
        return false;
    if (__builtin_mul_overflow((uint64_t)s.f_bavail, (uint64_t)s.f_frsize, out))
        *out = UINT64_MAX;
    return true;
}

uturn_status_t uturn__file_check_space(struct uturn__storage *st,
                                       uint64_t bytes)
{
    const struct uturn__file *f = uturn__file_of(st);
    uint64_t avail              = 0;
    /* When statvfs cannot tell, preallocation still will. */
    if (!free_bytes(f, &avail) || bytes <= avail)
        return UTURN_OK;
    return uturn__file_fail(st, UTURN_E_INFEASIBLE,
                            "the directory %s has %llu bytes free, fewer "
                            "than the %llu bytes of checkpoints the file "
                            "level needs",
                            f->parent, (unsigned long long)avail,
                            (unsigned long long)bytes);
}

static uturn_status_t no_room(struct uturn__storage *st, uint64_t bytes,
                              int err)
{
    const struct uturn__file *f = uturn__file_of(st);
    uint64_t avail              = 0;
    if (!free_bytes(f, &avail))
        avail = 0;
    return uturn__file_fail(st, UTURN_E_INFEASIBLE,
                            "no room for %llu more bytes in %s/%s (%llu "
                            "bytes free in %s): %s",
                            (unsigned long long)bytes, f->run_dir,
                            UTURN__FILE_SLOTS, (unsigned long long)avail,
                            f->parent, strerror(err));
}

/* Grow the file from `from` bytes by `extra`, with blocks reserved where
 * the file system can, else as a sparse file (ftruncate). */
static uturn_status_t preallocate(struct uturn__storage *st, uint64_t from,
                                  uint64_t extra)
{
    struct uturn__file *f = uturn__file_of(st);
    if (extra == 0)
        return UTURN_OK;
    int err = 0;
    do {
        err = f->io.fallocate(f->io.context, f->slots_fd, (off_t)from,
                              (off_t)extra);
    } while (err == EINTR);
    if (err == EOPNOTSUPP || err == ENOSYS || err == EINVAL)
        err = ftruncate(f->slots_fd, (off_t)(from + extra)) == 0 ? 0 : errno;
    if (err == 0)
        return UTURN_OK;
    if (err == ENOSPC || err == EDQUOT || err == EFBIG)
        return no_room(st, extra, err);
    return uturn__file_fail(st, UTURN_E_IO,
                            "cannot preallocate %llu bytes for %s/%s: %s",
                            (unsigned long long)extra, f->run_dir,
                            UTURN__FILE_SLOTS, strerror(err));
}

static uturn_status_t check_length(struct uturn__storage *st, uint64_t bytes)
{
    if (bytes <= (uint64_t)INT64_MAX)
        return UTURN_OK;
    return uturn__file_fail(st, UTURN_E_OVERFLOW,
                            "%llu bytes of checkpoints do not fit in one "
                            "file (at most 2^63 - 1 bytes)",
                            (unsigned long long)bytes);
}

uturn_status_t uturn__file_make_slots(struct uturn__storage *st, uint64_t bytes)
{
    struct uturn__file *f       = uturn__file_of(st);
    const uturn_status_t status = check_length(st, bytes);
    if (status != UTURN_OK)
        return status;
    f->slots_fd =
        f->io.openat(f->io.context, f->run_fd, UTURN__FILE_SLOTS,
                     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (f->slots_fd < 0)
        return uturn__file_fail(st, UTURN_E_IO, "cannot create %s/%s: %s",
                                f->run_dir, UTURN__FILE_SLOTS, strerror(errno));
    return preallocate(st, 0, bytes);
}

uturn_status_t uturn__file_set_length(struct uturn__storage *st, uint64_t bytes)
{
    struct uturn__file *f = uturn__file_of(st);
    uturn_status_t status = check_length(st, bytes);
    if (status == UTURN_OK && bytes < st->bytes &&
        ftruncate(f->slots_fd, (off_t)bytes) != 0)
        status = uturn__file_fail(st, UTURN_E_IO,
                                  "cannot shorten %s/%s to %llu bytes: %s",
                                  f->run_dir, UTURN__FILE_SLOTS,
                                  (unsigned long long)bytes, strerror(errno));
    if (status == UTURN_OK && bytes > st->bytes)
        status = uturn__file_check_space(st, bytes - st->bytes);
    if (status == UTURN_OK && bytes > st->bytes)
        status = preallocate(st, st->bytes, bytes - st->bytes);
    if (status == UTURN_OK)
        st->bytes = bytes;
    return status;
}
