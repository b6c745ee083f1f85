#define _GNU_SOURCE /* nftw, posix_fallocate, unshare */
/* The file backend's space (white-box, src/storage_file.h): a request the
 * file system cannot hold is refused before anything is made, naming the
 * directory, the bytes free and the bytes needed; out of space while
 * preallocating (injected, and for real on a tiny tmpfs when running as
 * root) is a clean error; a file system without fallocate gets a sparse
 * file; resize changes the file's length during a run; allocation
 * failures leak nothing. */
#include "file_rig.h"

#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

#define STATE  40
#define STRIDE 48

static void assert_has(const char *message, const char *part)
{
    cr_assert(strstr(message, part) != NULL, "\"%s\" not in: %s", part,
              message);
}

static void assert_has_number(const char *message, uint64_t n)
{
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)n);
    assert_has(message, text);
}

Test(storage_file_space, request_larger_than_the_file_system_is_refused)
{
    struct rig r;
    struct statvfs s;
    rig_open(&r, "/tmp");
    cr_assert_eq(statvfs(r.parent, &s), 0);
    const uint64_t bytes = (uint64_t)s.f_blocks * s.f_frsize * 2 + 4096;
    cr_assert_eq(rig_begin(&r, bytes, 8), UTURN_E_INFEASIBLE, "%s",
                 r.st.message);
    assert_has(r.st.message, r.parent);
    assert_has(r.st.message, "bytes free");
    assert_has_number(r.st.message, bytes);
    cr_assert_eq(scratch_count(r.parent), 0, "nothing made");
    r.st.ops->end_run(&r.st);
    cr_assert_eq(rig_begin(&r, UINT64_MAX, 8), UTURN_E_INFEASIBLE);
    cr_assert_eq(scratch_count(r.parent), 0);
    cr_assert_eq(rig_begin(&r, 4096, 8), UTURN_OK, "a refusal changes nothing");
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

Test(storage_file_space, out_of_space_while_preallocating_is_refused)
{
    const int errs[] = {ENOSPC, EDQUOT, EFBIG};
    for (size_t i = 0; i < sizeof errs / sizeof *errs; i++) {
        struct rig r;
        struct faults x = {.fallocate_err = errs[i]};
        rig_open(&r, "/tmp");
        rig_faults(&r, &x);
        cr_assert_eq(rig_begin(&r, 1 << 20, 8), UTURN_E_INFEASIBLE);
        assert_has(r.st.message, r.parent);
        assert_has(r.st.message, "/slots");
        assert_has(r.st.message, "bytes free");
        assert_has_number(r.st.message, 1 << 20);
        assert_has(r.st.message, strerror(errs[i]));
        cr_assert_eq(scratch_count(r.parent), 0, "begin_run undid itself");
        r.st.ops->end_run(&r.st);
        rig_close(&r);
    }
}

Test(storage_file_space, failing_preallocation_is_an_io_error)
{
    struct rig r;
    struct faults x = {.fallocate_err = EIO};
    rig_open(&r, "/tmp");
    rig_faults(&r, &x);
    cr_assert_eq(rig_begin(&r, 1 << 16, 8), UTURN_E_IO);
    assert_has(r.st.message, "cannot preallocate");
    assert_has(r.st.message, r.parent);
    assert_has(r.st.message, strerror(EIO));
    cr_assert_eq(scratch_count(r.parent), 0);
    rig_close(&r);
}

Test(storage_file_space, without_fallocate_the_file_is_sparse)
{
    const int errs[] = {EOPNOTSUPP, ENOSYS, EINVAL};
    for (size_t i = 0; i < sizeof errs / sizeof *errs; i++) {
        struct rig r;
        struct faults x = {.fallocate_err = errs[i]};
        char run[PATH_MAX], slots[PATH_MAX];
        unsigned char in[STATE], out[STATE];
        struct stat s;
        rig_open(&r, "/tmp");
        rig_faults(&r, &x);
        cr_assert_eq(rig_begin(&r, 4 * STRIDE, 4), UTURN_OK, "%s",
                     r.st.message);
        rig_paths(&r, run, slots);
        cr_assert_eq(stat(slots, &s), 0);
        cr_assert_eq(s.st_size, 4 * STRIDE);
        fill_state(in, STATE, 9);
        cr_assert_eq(r.st.ops->write(&r.st, 3, 3 * STRIDE, in, STATE, 9),
                     UTURN_OK);
        cr_assert_eq(r.st.ops->read(&r.st, 3, 3 * STRIDE, out, STATE, 9),
                     UTURN_OK);
        cr_assert_arr_eq(in, out, STATE);
        r.st.ops->end_run(&r.st);
        rig_close(&r);
    }
}

static off_t file_size(const struct rig *r)
{
    char run[PATH_MAX], slots[PATH_MAX];
    struct stat s;
    rig_paths(r, run, slots);
    cr_assert_eq(stat(slots, &s), 0);
    return s.st_size;
}

Test(storage_file_space, resize_sets_the_file_length_during_a_run)
{
    struct rig r;
    struct statvfs v;
    unsigned char in[STATE] = {1, 2, 3};
    rig_open(&r, "/tmp");
    cr_assert_eq(r.st.ops->resize(&r.st, 4096), UTURN_E_INVALID_ARG,
                 "no file outside a run");
    assert_has(r.st.message, r.parent);
    cr_assert_eq(rig_begin(&r, 4 * STRIDE, 16), UTURN_OK);
    cr_assert_eq(r.st.ops->resize(&r.st, 16 * STRIDE), UTURN_OK, "%s",
                 r.st.message);
    cr_assert_eq(file_size(&r), 16 * STRIDE);
    cr_assert_eq(r.st.bytes, 16 * STRIDE);
    cr_assert_eq(r.st.ops->write(&r.st, 15, 15 * STRIDE, in, STATE, 1),
                 UTURN_OK, "room past the old end");
    cr_assert_eq(r.st.ops->resize(&r.st, 8 * STRIDE), UTURN_OK);
    cr_assert_eq(file_size(&r), 8 * STRIDE);
    cr_assert_eq(r.st.ops->write(&r.st, 15, 15 * STRIDE, in, STATE, 1),
                 UTURN_E_INVALID_ARG, "past the new end");
    cr_assert_eq(statvfs(r.parent, &v), 0);
    const uint64_t huge = (uint64_t)v.f_blocks * v.f_frsize * 2;
    cr_assert_eq(r.st.ops->resize(&r.st, huge), UTURN_E_INFEASIBLE);
    assert_has(r.st.message, "bytes free");
    cr_assert_eq(r.st.bytes, 8 * STRIDE, "a refused resize changes nothing");
    cr_assert_eq(r.st.ops->resize(&r.st, 0), UTURN_OK);
    cr_assert_eq(file_size(&r), 0);
    r.st.ops->end_run(&r.st);
    cr_assert_eq(r.st.ops->resize(&r.st, 0), UTURN_OK);
    rig_close(&r);
}

Test(storage_file_space, allocation_failures_leak_nothing)
{
    for (uint64_t k = 1; k <= 3; k++) {
        counting_alloc_t counts   = {.fail_at = k};
        const uturn_allocator_t a = counting_allocator(&counts);
        struct uturn__storage st;
        uturn_storage_t desc;
        uturn_storage_init(&desc);
        desc.directory = "/tmp";
        cr_assert_eq(uturn__storage_open_level(&st, &desc, &a), UTURN_E_NOMEM,
                     "allocation %llu", (unsigned long long)k);
        cr_assert(strstr(st.message, "out of memory") != NULL);
        uturn__storage_close(&st);
        cr_assert_eq(counts.live_blocks, 0);
    }
    struct rig r;
    unsigned char in[STATE] = {0};
    rig_open(&r, "/tmp");
    /* Overlapped (the default): the checksum table is made whole when the
     * run begins, so its failure is the beginning's, and leaves nothing. */
    r.counts.fail_at = r.counts.total_allocs + 1;
    cr_assert_eq(rig_begin(&r, 4 * STRIDE, 4), UTURN_E_NOMEM);
    assert_has(r.st.message, "checksums");
    cr_assert_eq(scratch_count(r.parent), 0);
    r.counts.fail_at = 0;
    /* Synchronous: the table grows as slots are written. */
    ((struct uturn__file *)r.st.impl)->synchronous = true;
    cr_assert_eq(rig_begin(&r, 4 * STRIDE, 4), UTURN_OK);
    r.counts.fail_at = r.counts.total_allocs + 1;
    cr_assert_eq(r.st.ops->write(&r.st, 0, 0, in, STATE, 5), UTURN_E_NOMEM);
    assert_has(r.st.message, "checksums");
    r.counts.fail_at = 0;
    cr_assert_eq(r.st.ops->write(&r.st, 0, 0, in, STATE, 5), UTURN_OK);
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

/* A tmpfs of `bytes` at a new mount point in a mount namespace of this
 * worker's own (gone when it exits); false when this process may not
 * make one (not root, or no CAP_SYS_ADMIN). */
static bool tiny_tmpfs(char point[PATH_MAX], uint64_t bytes)
{
    char options[64];
    snprintf(options, sizeof options, "size=%llu", (unsigned long long)bytes);
    if (geteuid() != 0 || unshare(CLONE_NEWNS) != 0 ||
        mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return false;
    if (!scratch_make("/tmp", point))
        return false;
    if (mount("tmpfs", point, "tmpfs", 0, options) == 0)
        return true;
    rmdir(point);
    return false;
}

static void fill_up(const char *path)
{
    static const unsigned char block[4096];
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert(fd >= 0);
    while (write(fd, block, sizeof block) > 0)
        continue;
    close(fd);
}

Test(storage_file_space, real_out_of_space_on_a_tiny_tmpfs)
{
    char point[PATH_MAX], filler[PATH_MAX];
    if (!tiny_tmpfs(point, 256 << 10))
        cr_skip_test("needs root with CAP_SYS_ADMIN (a tmpfs of its own)");
    struct rig r;
    unsigned char in[4096] = {7};
    rig_open(&r, point);
    cr_assert_eq(rig_begin(&r, 1 << 20, 4), UTURN_E_INFEASIBLE);
    assert_has(r.st.message, "bytes free");
    assert_has(r.st.message, r.parent);
    cr_assert_eq(scratch_count(r.parent), 0);
    cr_assert_eq(rig_begin(&r, 64 << 10, 4), UTURN_OK, "%s", r.st.message);
    cr_assert(r.st.on_tmpfs);
    r.st.ops->end_run(&r.st);
    /* A sparse file, and the disk filled behind it: the kernel's own
     * ENOSPC on a write. */
    struct faults x = {.fallocate_err = EOPNOTSUPP};
    rig_faults(&r, &x);
    cr_assert_eq(rig_begin(&r, 128 << 10, 4), UTURN_OK, "%s", r.st.message);
    scratch_join(filler, point, "filler");
    fill_up(filler);
    uturn_status_t s = UTURN_OK;
    for (uint64_t off = 0; off < (128 << 10) && s == UTURN_OK; off += 4096)
        s = r.st.ops->write(&r.st, 0, off, in, sizeof in, 3);
    cr_assert_eq(s, UTURN_E_IO);
    assert_has(r.st.message, strerror(ENOSPC));
    assert_has(r.st.message, "x_3 ");
    r.st.ops->end_run(&r.st);
    unlink(filler);
    rig_close(&r);
    umount2(point, MNT_DETACH);
    rmdir(point);
}
