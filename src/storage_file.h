/*
 * The file backend's own state, shared by its files: storage_file.c (the
 * operations table, open and close, a run's beginning and end),
 * storage_file_dir.c (the run's directory, its lock and the cleaning of
 * directories crashed runs left), storage_file_space.c (free space, tmpfs,
 * the preallocated file) and storage_file_io.c (checksummed reads and
 * writes). Only the backend and its white-box tests include this header.
 */
#ifndef UTURN_STORAGE_FILE_H_INCLUDED
#define UTURN_STORAGE_FILE_H_INCLUDED

#include "storage.h"
#include "storage_sums.h"

#include <sys/types.h>

/* The names inside a run's directory. */
#define UTURN__FILE_LOCK  "lock"
#define UTURN__FILE_SLOTS "slots"

/*
 * The system calls the backend's I/O goes through. The defaults are the
 * calls themselves; a white-box test swaps in its own to make any one of
 * them fail (uturn__storage_file_set_io), which is the only way to reach
 * most error paths on a healthy disk. Each has the contract of the call
 * it stands for: pwrite and pread return a count or -1 with errno set,
 * fallocate returns an error number as posix_fallocate does, openat a
 * descriptor or -1 with errno set.
 */
struct uturn__file_io {
    ssize_t (*pwrite)(void *context, int fd, const void *src, size_t bytes,
                      off_t offset);
    ssize_t (*pread)(void *context, int fd, void *dst, size_t bytes,
                     off_t offset);
    int (*fallocate)(void *context, int fd, off_t offset, off_t bytes);
    int (*openat)(void *context, int dir_fd, const char *name, int flags,
                  mode_t mode);
    void *context;
};


struct uturn__file {
    char *parent;        /* the directory runs go in (no trailing '/') */
    size_t parent_size;  /* bytes allocated for parent */
    char *run_dir;       /* the run's directory's path, "" between runs */
    size_t run_dir_size; /* bytes allocated for run_dir */
    bool synchronous;    /* no I/O thread: checksums grow as written */
    bool active;         /* begin_run succeeded and end_run has not run */
    bool cleaned;        /* crashed runs' directories were looked for */
    int parent_fd, run_fd, lock_fd, slots_fd; /* -1: not open */
    uint64_t ids;                             /* the run's ids are below this */
    struct uturn__sums sums;                  /* per id; kept from run to run */
    struct uturn__file_io io;
};

static inline struct uturn__file *uturn__file_of(struct uturn__storage *st)
{
    return st->impl;
}

/* Set st->message (vsnprintf) and return status. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
uturn_status_t
uturn__file_fail(struct uturn__storage *st, uturn_status_t status,
                 const char *fmt, ...);

/* storage_file_dir.c: before anything is made, remove directories of
 * crashed runs in the parent whose lock can be taken (best effort); then
 * make the run's directory and its locked lock file. On failure nothing
 * is left behind. */
void uturn__file_clean_stale(struct uturn__storage *st);
uturn_status_t uturn__file_dir_make(struct uturn__storage *st);
/* Remove the slots file, the lock and the run's directory (whichever
 * exist) and close their descriptors. */
void uturn__file_dir_remove(struct uturn__storage *st);

/* storage_file_space.c: st->on_tmpfs from the parent (fd, or -1: by
 * path); the free-space check; the run's file, preallocated. */
void uturn__file_detect_tmpfs(struct uturn__storage *st, int fd);
uturn_status_t uturn__file_check_space(struct uturn__storage *st,
                                       uint64_t bytes);
uturn_status_t uturn__file_make_slots(struct uturn__storage *st,
                                      uint64_t bytes);
/* Make the open file `bytes` long (grow: preallocate; shrink: cut). */
uturn_status_t uturn__file_set_length(struct uturn__storage *st,
                                      uint64_t bytes);

/* storage_file_io.c: the operations on slots. */
uturn_status_t uturn__file_write(struct uturn__storage *st, uint64_t id,
                                 uint64_t offset, const void *src,
                                 uint64_t bytes, uint64_t step);
uturn_status_t uturn__file_read(struct uturn__storage *st, uint64_t id,
                                uint64_t offset, void *dst, uint64_t bytes,
                                uint64_t step);
void uturn__file_drop(struct uturn__storage *st, uint64_t id);
/* Room in the checksum table for ids up to id. */
uturn_status_t uturn__file_reserve(struct uturn__storage *st, uint64_t id);
/* Every id holds nothing (a new run). */
void uturn__file_forget_all(struct uturn__storage *st);

/* The default system calls (storage_file_io.c). */
void uturn__file_io_default(struct uturn__file_io *io);
/* Tests: the calls to go through (a NULL member, or io NULL: the real
 * call). */
void uturn__storage_file_set_io(struct uturn__storage *st,
                                const struct uturn__file_io *io);

#endif
