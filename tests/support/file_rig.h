/* The file backend under test (white-box: src/storage_file.h): a level
 * opened on a fresh scratch parent with a counting allocator, and system
 * calls that fail on demand. Header-only (static inline); include after
 * defining _GNU_SOURCE. */
#ifndef UTURN_FILE_RIG_H_INCLUDED
#define UTURN_FILE_RIG_H_INCLUDED

#include "counting_alloc.h"
#include "scratch_dir.h"
#include "storage_file.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>

struct rig {
    counting_alloc_t counts;
    uturn_allocator_t alloc;
    struct uturn__storage st;
    char parent[PATH_MAX];
};

/* A file level in a new directory under base. */
static inline void rig_open(struct rig *r, const char *base)
{
    memset(r, 0, sizeof *r);
    r->alloc = counting_allocator(&r->counts);
    cr_assert(scratch_make(base, r->parent), "mkdtemp under %s: %s", base,
              strerror(errno));
    uturn_storage_t desc;
    uturn_storage_init(&desc);
    desc.directory = r->parent;
    cr_assert_eq(uturn__storage_open_level(&r->st, &desc, &r->alloc), UTURN_OK,
                 "%s", r->st.message);
    cr_assert_eq(scratch_count(r->parent), 0, "open makes nothing");
}

/* Close the level: nothing leaked, nothing left in the parent. */
static inline void rig_close(struct rig *r)
{
    uturn__storage_close(&r->st);
    const int left = scratch_count(r->parent);
    scratch_remove(r->parent);
    cr_assert_eq(left, 0, "the parent holds %d entries after close", left);
    cr_assert_eq(r->counts.live_blocks, 0, "%llu blocks leaked",
                 (unsigned long long)r->counts.live_blocks);
    cr_assert_eq(r->counts.size_mismatches, 0);
}

static inline uturn_status_t rig_begin(struct rig *r, uint64_t bytes,
                                       uint64_t ids)
{
    return r->st.ops->begin_run(&r->st, bytes, ids);
}

/* The run's directory and its slots file (exactly one run in parent). */
static inline void rig_paths(const struct rig *r, char run[PATH_MAX],
                             char slots[PATH_MAX])
{
    cr_assert_eq(scratch_find(r->parent, "uturn-", run), 1,
                 "one run directory in %s", r->parent);
    scratch_join(slots, run, UTURN__FILE_SLOTS);
}

/* System calls that fail on demand (the context of the io table). */
struct faults {
    int pwrite_calls, pread_calls;
    int fail_pwrite_at, fail_pread_at; /* 1-based call; 0: never */
    int err;                           /* errno of a failing call */
    size_t max_chunk;                  /* 0: whole; else at most this */
    int eintr_every;                   /* every n-th call: EINTR; 0: never */
    int fallocate_err;                 /* returned by fallocate; 0: real */
    const char *fail_open;             /* openat of this name fails */
};

static inline bool fault_eintr(const struct faults *x, int call)
{
    return x->eintr_every != 0 && call % x->eintr_every == 0;
}

static inline ssize_t fault_pwrite(void *context, int fd, const void *src,
                                   size_t bytes, off_t offset)
{
    struct faults *x = context;
    const int call   = ++x->pwrite_calls;
    if (call == x->fail_pwrite_at || fault_eintr(x, call)) {
        errno = call == x->fail_pwrite_at ? x->err : EINTR;
        return -1;
    }
    if (x->max_chunk != 0 && bytes > x->max_chunk)
        bytes = x->max_chunk;
    return pwrite(fd, src, bytes, offset);
}

static inline ssize_t fault_pread(void *context, int fd, void *dst,
                                  size_t bytes, off_t offset)
{
    struct faults *x = context;
    const int call   = ++x->pread_calls;
    if (call == x->fail_pread_at || fault_eintr(x, call)) {
        errno = call == x->fail_pread_at ? x->err : EINTR;
        return -1;
    }
    if (x->max_chunk != 0 && bytes > x->max_chunk)
        bytes = x->max_chunk;
    return pread(fd, dst, bytes, offset);
}

static inline int fault_fallocate(void *context, int fd, off_t offset,
                                  off_t bytes)
{
    const struct faults *x = context;
    return x->fallocate_err != 0 ? x->fallocate_err
                                 : posix_fallocate(fd, offset, bytes);
}

static inline int fault_openat(void *context, int dir_fd, const char *name,
                               int flags, mode_t mode)
{
    const struct faults *x = context;
    if (x->fail_open != NULL && strcmp(name, x->fail_open) == 0) {
        errno = x->err;
        return -1;
    }
    return openat(dir_fd, name, flags, mode);
}

static inline void rig_faults(struct rig *r, struct faults *x)
{
    const struct uturn__file_io io = {fault_pwrite, fault_pread,
                                      fault_fallocate, fault_openat, x};
    uturn__storage_file_set_io(&r->st, &io);
}

/* A state that tells its step and id apart from every other: n bytes. */
static inline void fill_state(unsigned char *p, size_t n, uint64_t step)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(step * 131 + i * 7 + 1);
}

#endif
