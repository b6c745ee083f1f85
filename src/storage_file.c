/*
 * The file backend: a level of slots on disk. Opening it only copies the
 * directory; each run then makes a directory of its own under it,
 * uturn-<pid>-<random>, holding a lock file it keeps locked for the run
 * (so that a later run's cleaning can tell a live run from a crashed one)
 * and one preallocated file for all the run's slots, each slot at the
 * offset the slot space gives it (never a file per checkpoint: creating
 * and removing files costs more than the writes, and a preallocated file
 * cannot run out of space halfway through a run). Every state written
 * carries a checksum, verified when it is read back, so a damaged file is
 * an error naming the step and never a wrong gradient. end_run removes
 * everything begin_run made, whichever way the run ended.
 *
 * The file exists only during a run: resize outside a run can only give
 * back (bytes 0); during one it makes the file that long. A level's
 * capacity counts exactly the bytes of its slots (granule 1), since the
 * disk is not the memory the budget is about.
 */
#define _GNU_SOURCE /* O_CLOEXEC, O_DIRECTORY with C11 */
#include "storage_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "/uturn-", a pid (at most 20 digits), "-", 16 hex digits, NUL. */
#define RUN_NAME_MAX (sizeof "/uturn-" + 20 + 1 + 16)

uturn_status_t uturn__file_fail(struct uturn__storage *st,
                                uturn_status_t status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(st->message, sizeof st->message, fmt, args);
    va_end(args);
    return status;
}

static uint64_t granule(const struct uturn__storage *st)
{
    (void)st;
    return 1;
}

static bool cost(const struct uturn__storage *st, uint64_t bytes, uint64_t *out)
{
    (void)st;
    *out = bytes;
    return true;
}

static uint64_t usable(const struct uturn__storage *st, uint64_t budget)
{
    (void)st;
    return budget;
}

/* What a run moved is counted from its beginning. */
static void reset_counts(struct uturn__storage *st)
{
    st->bytes_written = 0;
    st->bytes_read    = 0;
    st->write_seconds = 0;
    st->read_seconds  = 0;
}

static uturn_status_t open_parent(struct uturn__storage *st)
{
    struct uturn__file *f = uturn__file_of(st);
    f->parent_fd          = open(f->parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (f->parent_fd < 0)
        return uturn__file_fail(st, UTURN_E_IO,
                                "cannot open the directory %s for the file "
                                "level's checkpoints: %s",
                                f->parent, strerror(errno));
    return UTURN_OK;
}

/* A run's region of `bytes` with ids below `ids`. On failure, what was
 * made is removed before returning, so end_run has nothing left to do
 * (and calling it anyway is harmless). */
static uturn_status_t begin_run(struct uturn__storage *st, uint64_t bytes,
                                uint64_t ids)
{
    struct uturn__file *f = uturn__file_of(st);
    if (f->active)
        return uturn__file_fail(st, UTURN_E_INVALID_ARG,
                                "a run is already using %s", f->run_dir);
    reset_counts(st);
    uturn_status_t status = open_parent(st);
    if (status == UTURN_OK) {
        uturn__file_detect_tmpfs(st, f->parent_fd);
        /* Before the space check: what crashed runs left counts as used.
         * Once per executor: listing a directory many ranks share costs
         * a probe of every run in it. */
        if (!f->cleaned)
            uturn__file_clean_stale(st);
        f->cleaned = true;
        status = uturn__file_check_space(st, bytes);
    }
    if (status == UTURN_OK)
        status = uturn__file_dir_make(st);
    if (status == UTURN_OK)
        status = uturn__file_make_slots(st, bytes);
    if (status != UTURN_OK) {
        uturn__file_dir_remove(st);
        return status;
    }
    uturn__file_forget_all(st);
    f->ids = ids;
    /* Overlapped: the checksum table is whole before the I/O thread
     * starts, so no write allocates outside the run's thread. */
    if (!f->synchronous && ids != 0 &&
        uturn__file_reserve(st, ids - 1) != UTURN_OK) {
        uturn__file_dir_remove(st);
        return UTURN_E_NOMEM;
    }
    f->active = true;
    st->bytes = bytes;
    return UTURN_OK;
}

static void end_run(struct uturn__storage *st)
{
    struct uturn__file *f = uturn__file_of(st);
    if (f == NULL)
        return;
    uturn__file_dir_remove(st);
    uturn__file_forget_all(st);
    f->active = false;
    f->ids    = 0;
    st->bytes = 0;
}

static uturn_status_t resize(struct uturn__storage *st, uint64_t bytes)
{
    struct uturn__file *f = uturn__file_of(st);
    if (bytes == st->bytes)
        return UTURN_OK;
    if (!f->active)
        return uturn__file_fail(st, UTURN_E_INVALID_ARG,
                                "the file level in %s has no file outside a "
                                "run (begin_run makes it, %llu bytes asked)",
                                f->parent, (unsigned long long)bytes);
    return uturn__file_set_length(st, bytes);
}

static void free_impl(struct uturn__storage *st, struct uturn__file *f)
{
    uturn__sums_free(&f->sums, &st->alloc);
    uturn__free(&st->alloc, f->parent, f->parent_size);
    uturn__free(&st->alloc, f->run_dir, f->run_dir_size);
    uturn__free(&st->alloc, f, sizeof *f);
}

static void close_file(struct uturn__storage *st)
{
    struct uturn__file *f = uturn__file_of(st);
    if (f == NULL)
        return;
    end_run(st);
    free_impl(st, f);
    st->impl = NULL;
}

/* The directory as given, or $TMPDIR when set and not empty, or /tmp. */
static const char *directory_of(const char *directory)
{
    if (directory != NULL)
        return directory;
    const char *tmpdir = getenv("TMPDIR");
    return tmpdir != NULL && tmpdir[0] != '\0' ? tmpdir : "/tmp";
}

/* Copy the directory (without trailing slashes, but "/" stays "/") and
 * allocate room for a run directory's path beside it. */
static uturn_status_t copy_directory(struct uturn__storage *st,
                                     struct uturn__file *f, const char *dir)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    if (len > SIZE_MAX - RUN_NAME_MAX)
        return uturn__file_fail(st, UTURN_E_OVERFLOW,
                                "the directory's name is too long");
    f->parent_size  = len + 1;
    f->run_dir_size = len + RUN_NAME_MAX;
    f->parent       = uturn__alloc(&st->alloc, f->parent_size);
    f->run_dir      = uturn__alloc(&st->alloc, f->run_dir_size);
    if (f->parent == NULL || f->run_dir == NULL)
        return uturn__file_fail(st, UTURN_E_NOMEM,
                                "out of memory for the directory %s", dir);
    memcpy(f->parent, dir, len);
    f->parent[len] = '\0';
    f->run_dir[0]  = '\0';
    return UTURN_OK;
}

uturn_status_t uturn__storage_file_open(struct uturn__storage *st,
                                        const char *directory, bool synchronous)
{
    const char *dir = directory_of(directory);
    if (dir[0] == '\0')
        return uturn__file_fail(st, UTURN_E_INVALID_ARG,
                                "the file level's directory is empty (NULL "
                                "means $TMPDIR, else /tmp)");
    struct uturn__file *f = uturn__alloc_zeroed(&st->alloc, 1, sizeof *f);
    if (f == NULL)
        return uturn__file_fail(st, UTURN_E_NOMEM,
                                "out of memory for the file level");
    const uturn_status_t status = copy_directory(st, f, dir);
    if (status != UTURN_OK) {
        free_impl(st, f);
        return status;
    }
    f->synchronous = synchronous;
    f->parent_fd = f->run_fd = f->lock_fd = f->slots_fd = -1;
    uturn__file_io_default(&f->io);
    st->impl = f;
    /* Known before any run, so the executor can warn when it plans: a
     * directory that does not exist yet is simply not tmpfs. */
    uturn__file_detect_tmpfs(st, -1);
    return UTURN_OK;
}

void uturn__storage_file_set_io(struct uturn__storage *st,
                                const struct uturn__file_io *io)
{
    struct uturn__file *f = uturn__file_of(st);
    uturn__file_io_default(&f->io);
    if (io == NULL)
        return;
    /* A test replaces only the calls it fails; the rest stay real. */
    if (io->pwrite != NULL)
        f->io.pwrite = io->pwrite;
    if (io->pread != NULL)
        f->io.pread = io->pread;
    if (io->fallocate != NULL)
        f->io.fallocate = io->fallocate;
    if (io->openat != NULL)
        f->io.openat = io->openat;
    f->io.context = io->context;
}

const struct uturn__storage_ops uturn__storage_file = {
    .name      = "file",
    .granule   = granule,
    .cost      = cost,
    .usable    = usable,
    .resize    = resize,
    .close     = close_file,
    .begin_run = begin_run,
    .end_run   = end_run,
    .write     = uturn__file_write,
    .read      = uturn__file_read,
    .drop      = uturn__file_drop,
};
