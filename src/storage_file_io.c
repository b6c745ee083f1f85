/*
 * A file level's reads and writes. Each state written gets an XXH3-64
 * checksum, seeded with its step, kept in memory per slot id (never in
 * the file: what damaged the file could damage a checksum beside it); a
 * read checks the id holds that step with those bytes, reads them all and
 * compares the checksum, and on any mismatch fails naming the step and
 * the file, with the destination cleared, so a damaged checkpoint is an
 * error and never a wrong gradient.
 */
#define _GNU_SOURCE /* pread, pwrite, openat with C11 */
#include "storage_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The most one call moves: Linux moves at most 0x7ffff000 bytes per call
 * anyway, and a count this size fits ssize_t everywhere. */
#define CHUNK ((size_t)1 << 30)

static ssize_t sys_pwrite(void *context, int fd, const void *src, size_t bytes,
                          off_t offset)
{
    (void)context;
    return pwrite(fd, src, bytes, offset);
}

static ssize_t sys_pread(void *context, int fd, void *dst, size_t bytes,
                         off_t offset)
{
    (void)context;
    return pread(fd, dst, bytes, offset);
}

static int sys_fallocate(void *context, int fd, off_t offset, off_t bytes)
{
    (void)context;
    return posix_fallocate(fd, offset, bytes);
}

static int sys_openat(void *context, int dir_fd, const char *name, int flags,
                      mode_t mode)
{
    (void)context;
    return openat(dir_fd, name, flags, mode);
}

void uturn__file_io_default(struct uturn__file_io *io)
{
    io->pwrite    = sys_pwrite;
    io->pread     = sys_pread;
    io->fallocate = sys_fallocate;
    io->openat    = sys_openat;
    io->context   = NULL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The slot lies inside the run's file and its id below the run's ids:
 * anything else is the executor's mistake, refused before any I/O. */
static uturn_status_t check_slot(struct uturn__storage *st, uint64_t id,
                                 uint64_t offset, uint64_t bytes, uint64_t step)
{
    const struct uturn__file *f = uturn__file_of(st);
    uint64_t end                = 0;
    if (!f->active)
        return uturn__file_fail(st, UTURN_E_INVALID_ARG,
                                "checkpoint x_%llu: the file level in %s is "
                                "not in a run",
                                (unsigned long long)step, f->parent);
    if (id >= f->ids)
        return uturn__file_fail(st, UTURN_E_INVALID_ARG,
                                "checkpoint x_%llu: slot id %llu is not "
                                "below the run's %llu",
                                (unsigned long long)step,
                                (unsigned long long)id,
                                (unsigned long long)f->ids);
    if (uturn__add_u64(offset, bytes, &end) != UTURN_OK || end > st->bytes ||
        bytes > SIZE_MAX)
        return uturn__file_fail(
            st, UTURN_E_INVALID_ARG,
            "checkpoint x_%llu (%llu bytes at offset %llu) lies past the end "
            "of %s/%s (%llu bytes)",
            (unsigned long long)step, (unsigned long long)bytes,
            (unsigned long long)offset, f->run_dir, UTURN__FILE_SLOTS,
            (unsigned long long)st->bytes);
    return UTURN_OK;
}

/* Room in the checksum table for id (id < ids). */
uturn_status_t uturn__file_reserve(struct uturn__storage *st, uint64_t id)
{
    struct uturn__file *f = uturn__file_of(st);
    if (uturn__sums_reserve(&f->sums, &st->alloc, id, f->ids))
        return UTURN_OK;
    return uturn__file_fail(st, UTURN_E_NOMEM,
                            "out of memory for the checksums of %llu slots",
                            (unsigned long long)(id + 1));
}

static uturn_status_t write_all(struct uturn__storage *st, uint64_t offset,
                                const unsigned char *src, uint64_t bytes,
                                uint64_t step)
{
    const struct uturn__file *f = uturn__file_of(st);
    uint64_t done               = 0;
    while (done < bytes) {
        const uint64_t left = bytes - done;
        const size_t n      = left > CHUNK ? CHUNK : (size_t)left;
        const ssize_t wrote = f->io.pwrite(
            f->io.context, f->slots_fd, src + done, n, (off_t)(offset + done));
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote <= 0)
            return uturn__file_fail(
                st, UTURN_E_IO,
                "writing checkpoint x_%llu to %s/%s (%llu bytes at offset "
                "%llu): %s",
                (unsigned long long)step, f->run_dir, UTURN__FILE_SLOTS,
                (unsigned long long)bytes, (unsigned long long)offset,
                wrote < 0 ? strerror(errno) : "nothing was written");
        done += (uint64_t)wrote;
    }
    return UTURN_OK;
}

uturn_status_t uturn__file_write(struct uturn__storage *st, uint64_t id,
                                 uint64_t offset, const void *src,
                                 uint64_t bytes, uint64_t step)
{
    struct uturn__file *f = uturn__file_of(st);
    uturn_status_t status = check_slot(st, id, offset, bytes, step);
    if (status == UTURN_OK)
        status = uturn__file_reserve(st, id);
    if (status != UTURN_OK)
        return status;
    /* Whatever the id held is being overwritten. */
    uturn__sums_drop(&f->sums, id);
    const double start = now();
    status             = write_all(st, offset, src, bytes, step);
    st->write_seconds += now() - start;
    if (status != UTURN_OK)
        return status;
    uturn__sums_record(&f->sums, id, src, bytes, step);
    st->bytes_written += bytes;
    return UTURN_OK;
}

/* A read that ends early: the file was cut short under the run. */
static uturn_status_t truncated(struct uturn__storage *st, uint64_t offset,
                                uint64_t bytes, uint64_t done, uint64_t step)
{
    const struct uturn__file *f = uturn__file_of(st);
    struct stat s;
    const long long size =
        fstat(f->slots_fd, &s) == 0 ? (long long)s.st_size : -1;
    return uturn__file_fail(
        st, UTURN_E_IO,
        "checkpoint x_%llu in %s/%s: the file ends %llu bytes into the state "
        "(%llu bytes at offset %llu; the file has %lld bytes): it was "
        "truncated",
        (unsigned long long)step, f->run_dir, UTURN__FILE_SLOTS,
        (unsigned long long)done, (unsigned long long)bytes,
        (unsigned long long)offset, size);
}

static uturn_status_t read_all(struct uturn__storage *st, uint64_t offset,
                               unsigned char *dst, uint64_t bytes,
                               uint64_t step)
{
    const struct uturn__file *f = uturn__file_of(st);
    uint64_t done               = 0;
    while (done < bytes) {
        const uint64_t left = bytes - done;
        const size_t n      = left > CHUNK ? CHUNK : (size_t)left;
        const ssize_t got = f->io.pread(f->io.context, f->slots_fd, dst + done,
                                        n, (off_t)(offset + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got == 0)
            return truncated(st, offset, bytes, done, step);
        if (got < 0)
            return uturn__file_fail(
                st, UTURN_E_IO,
                "reading checkpoint x_%llu from %s/%s (%llu bytes at offset "
                "%llu): %s",
                (unsigned long long)step, f->run_dir, UTURN__FILE_SLOTS,
                (unsigned long long)bytes, (unsigned long long)offset,
                strerror(errno));
        done += (uint64_t)got;
    }
    return UTURN_OK;
}

/* The id holds x_step, of these bytes. */
static uturn_status_t check_held(struct uturn__storage *st, uint64_t id,
                                 uint64_t bytes, uint64_t step)
{
    const struct uturn__file *f = uturn__file_of(st);
    const enum uturn__sum_verdict v =
        uturn__sums_held(&f->sums, id, bytes, step);
    if (v == UTURN__SUM_EMPTY)
        return uturn__file_fail(st, UTURN_E_IO,
                                "checkpoint x_%llu in %s/%s: slot id %llu "
                                "holds no state",
                                (unsigned long long)step, f->run_dir,
                                UTURN__FILE_SLOTS, (unsigned long long)id);
    if (v == UTURN__SUM_OTHER) {
        const struct uturn__sum *s = &f->sums.at[id];
        return uturn__file_fail(
            st, UTURN_E_IO,
            "checkpoint x_%llu in %s/%s: slot id %llu holds x_%llu (%llu "
            "bytes), not %llu bytes of x_%llu",
            (unsigned long long)step, f->run_dir, UTURN__FILE_SLOTS,
            (unsigned long long)id, (unsigned long long)s->step,
            (unsigned long long)s->bytes, (unsigned long long)bytes,
            (unsigned long long)step);
    }
    return UTURN_OK;
}

uturn_status_t uturn__file_read(struct uturn__storage *st, uint64_t id,
                                uint64_t offset, void *dst, uint64_t bytes,
                                uint64_t step)
{
    const struct uturn__file *f = uturn__file_of(st);
    uturn_status_t status       = check_slot(st, id, offset, bytes, step);
    if (status == UTURN_OK)
        status = check_held(st, id, bytes, step);
    if (status != UTURN_OK)
        return status;
    const double start = now();
    status             = read_all(st, offset, dst, bytes, step);
    st->read_seconds += now() - start;
    if (status == UTURN_OK &&
        uturn__sums_check(&f->sums, id, dst, bytes, step) != UTURN__SUM_SAME)
        status = uturn__file_fail(st, UTURN_E_IO,
                                  "checkpoint x_%llu in %s/%s: checksum "
                                  "mismatch (the file was changed or "
                                  "damaged)",
                                  (unsigned long long)step, f->run_dir,
                                  UTURN__FILE_SLOTS);
    if (status != UTURN_OK) {
        if (bytes != 0)
            memset(dst, 0, (size_t)bytes);
        return status;
    }
    st->bytes_read += bytes;
    return UTURN_OK;
}

void uturn__file_drop(struct uturn__storage *st, uint64_t id)
{
    uturn__sums_drop(&uturn__file_of(st)->sums, id);
}

void uturn__file_forget_all(struct uturn__storage *st)
{
    uturn__sums_forget(&uturn__file_of(st)->sums);
}
