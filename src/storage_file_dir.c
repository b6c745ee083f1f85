/*
 * A file level's run directory: uturn-<pid>-<16 hex digits> under the
 * parent, mode 0700, holding a lock file the run keeps locked
 * (flock LOCK_EX, which belongs to the open file description: another
 * executor in the same process cannot take it either) and the slots file.
 *
 * Crashed runs leave their directories behind; each run first removes
 * those whose lock it can take. The rules that keep a live run's files
 * safe from that cleaning, wherever the two processes interleave:
 * - only names of exactly our form, owned by our user, are looked at, and
 *   only a directory holding nothing but "lock" and "slots" is emptied, so
 *   a stranger's files are never touched;
 * - a cleaner removes the slots file and the lock file while it holds the
 *   lock, and unlinks the lock before releasing it;
 * - a directory without a lock file is only rmdir'ed (an empty one: a run
 *   between its mkdir and its lock file, or one that crashed there);
 * - a run that finds its directory or its lock gone from under it
 *   (ENOENT, the lock held by a cleaner, or the lock file unlinked once it
 *   holds it) starts again under a new name.
 */
#define _GNU_SOURCE /* flock, getrandom, O_DIRECTORY, O_NOFOLLOW */
#include "storage_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Attempts at a directory of our own before giving up: each fails only
 * when a name repeats or a cleaner races us, both rare. */
#define MAKE_ATTEMPTS 16

#define RUN_PREFIX "uturn-"

/* 64 bits for a name that should not repeat: it needs to be unlikely, not
 * secret, so the clock stands in when neither source answers. */
static uint64_t random_bits(void)
{
    uint64_t bits = 0;
    if (getrandom(&bits, sizeof bits, GRND_NONBLOCK) == (ssize_t)sizeof bits)
        return bits;
    const int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        const ssize_t got = read(fd, &bits, sizeof bits);
        close(fd);
        if (got == (ssize_t)sizeof bits)
            return bits;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)ts.tv_sec ^
           (uint64_t)getpid() << 32;
}

/* "uturn-", 1 to 20 decimal digits, "-", 16 lowercase hex digits. */
static bool is_run_name(const char *name)
{
    const size_t prefix = sizeof RUN_PREFIX - 1;
    if (strncmp(name, RUN_PREFIX, prefix) != 0)
        return false;
    const char *p = name + prefix;
    size_t digits = strspn(p, "0123456789");
    if (digits == 0 || digits > 20 || p[digits] != '-')
        return false;
    p += digits + 1;
    return strspn(p, "0123456789abcdef") == 16 && p[16] == '\0';
}

/* The run directory's own name, after the parent's path. */
static const char *run_name(const struct uturn__file *f)
{
    const char *slash = strrchr(f->run_dir, '/');
    return slash != NULL ? slash + 1 : f->run_dir;
}

/* Does the directory hold nothing but a lock and a slots file? */
static bool holds_only_ours(int dir_fd)
{
    const int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir     = fd >= 0 ? fdopendir(fd) : NULL;
    if (dir == NULL) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    bool ours = true;
    for (struct dirent *e = readdir(dir); e != NULL && ours; e = readdir(dir))
        ours = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
               strcmp(e->d_name, UTURN__FILE_LOCK) == 0 ||
               strcmp(e->d_name, UTURN__FILE_SLOTS) == 0;
    closedir(dir);
    return ours;
}

/* A regular file still named in its directory (a cleaner that got there
 * first unlinked it before letting go of its lock). */
static bool still_linked(int fd)
{
    struct stat s;
    return fstat(fd, &s) == 0 && S_ISREG(s.st_mode) && s.st_nlink > 0;
}

/* Empty and remove one crashed run's directory, if its lock is free. */
static void clean_one(int parent_fd, const char *name)
{
    const int dir_fd = openat(parent_fd, name,
                              O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat s;
    if (dir_fd < 0)
        return;
    if (fstat(dir_fd, &s) != 0 || s.st_uid != geteuid()) {
        close(dir_fd);
        return;
    }
    const int lock_fd =
        openat(dir_fd, UTURN__FILE_LOCK,
               O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (lock_fd < 0) {
        /* No lock file: only an empty directory goes. */
        if (errno == ENOENT)
            unlinkat(parent_fd, name, AT_REMOVEDIR);
        close(dir_fd);
        return;
    }
    if (flock(lock_fd, LOCK_EX | LOCK_NB) == 0 && still_linked(lock_fd) &&
        holds_only_ours(dir_fd)) {
        unlinkat(dir_fd, UTURN__FILE_SLOTS, 0);
        unlinkat(dir_fd, UTURN__FILE_LOCK, 0);
        close(lock_fd);
        unlinkat(parent_fd, name, AT_REMOVEDIR);
    } else {
        close(lock_fd);
    }
    close(dir_fd);
}

void uturn__file_clean_stale(struct uturn__storage *st)
{
    const struct uturn__file *f = uturn__file_of(st);
    const int fd =
        openat(f->parent_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (dir == NULL) {
        if (fd >= 0)
            close(fd);
        return;
    }
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir))
        if (is_run_name(e->d_name))
            clean_one(f->parent_fd, e->d_name);
    closedir(dir);
}

/* The lock file, made and locked; *again when a cleaner got in first. */
static uturn_status_t take_lock(struct uturn__storage *st, bool *again)
{
    struct uturn__file *f = uturn__file_of(st);
    f->lock_fd =
        f->io.openat(f->io.context, f->run_fd, UTURN__FILE_LOCK,
                     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (f->lock_fd < 0) {
        *again = errno == ENOENT;
        return uturn__file_fail(st, UTURN_E_IO, "cannot create %s/%s: %s",
                                f->run_dir, UTURN__FILE_LOCK, strerror(errno));
    }
    if (flock(f->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        *again = errno == EWOULDBLOCK;
        return uturn__file_fail(st, UTURN_E_IO, "cannot lock %s/%s (flock): %s",
                                f->run_dir, UTURN__FILE_LOCK, strerror(errno));
    }
    if (!still_linked(f->lock_fd)) {
        *again = true;
        return uturn__file_fail(st, UTURN_E_IO, "%s was removed as it was made",
                                f->run_dir);
    }
    return UTURN_OK;
}

/* One attempt at a directory of our own with its lock taken. */
static uturn_status_t try_make(struct uturn__storage *st, bool *again)
{
    struct uturn__file *f = uturn__file_of(st);
    const char *sep       = strcmp(f->parent, "/") == 0 ? "" : "/";
    snprintf(f->run_dir, f->run_dir_size, "%s%s%s%ld-%016llx", f->parent, sep,
             RUN_PREFIX, (long)getpid(), (unsigned long long)random_bits());
    if (mkdirat(f->parent_fd, run_name(f), 0700) != 0) {
        *again = errno == EEXIST;
        const uturn_status_t status =
            uturn__file_fail(st, UTURN_E_IO, "cannot make the directory %s: %s",
                             f->run_dir, strerror(errno));
        f->run_dir[0] = '\0'; /* not ours: never removed */
        return status;
    }
    f->run_fd = openat(f->parent_fd, run_name(f),
                       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (f->run_fd < 0) {
        *again = errno == ENOENT;
        return uturn__file_fail(st, UTURN_E_IO, "cannot open %s: %s",
                                f->run_dir, strerror(errno));
    }
    return take_lock(st, again);
}

/* Remove what this run made of its directory (each name only if it made
 * it: its descriptor is open, or run_dir is set once mkdir succeeded),
 * unlinking the lock before letting go of it. The parent stays open. */
static void remove_made(struct uturn__file *f)
{
    if (f->slots_fd >= 0) {
        unlinkat(f->run_fd, UTURN__FILE_SLOTS, 0);
        close(f->slots_fd);
    }
    if (f->lock_fd >= 0) {
        unlinkat(f->run_fd, UTURN__FILE_LOCK, 0);
        close(f->lock_fd);
    }
    if (f->run_fd >= 0)
        close(f->run_fd);
    if (f->run_dir[0] != '\0' && f->parent_fd >= 0)
        unlinkat(f->parent_fd, run_name(f), AT_REMOVEDIR);
    f->slots_fd = f->lock_fd = f->run_fd = -1;
    f->run_dir[0]                        = '\0';
}

uturn_status_t uturn__file_dir_make(struct uturn__storage *st)
{
    uturn_status_t status = UTURN_OK;
    for (int attempt = 0; attempt < MAKE_ATTEMPTS; attempt++) {
        bool again = false;
        status     = try_make(st, &again);
        if (status == UTURN_OK || !again)
            return status;
        remove_made(uturn__file_of(st));
    }
    return status;
}

void uturn__file_dir_remove(struct uturn__storage *st)
{
    struct uturn__file *f = uturn__file_of(st);
    remove_made(f);
    if (f->parent_fd >= 0)
        close(f->parent_fd);
    f->parent_fd = -1;
}
