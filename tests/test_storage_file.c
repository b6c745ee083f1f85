#define _GNU_SOURCE /* nftw, posix_fallocate */
/* The file backend's slots (white-box, src/storage_file.h): states round
 * trip at their offsets; a damaged or truncated file, a wrong step and
 * every failing system call are clean errors naming the step and the
 * file, never wrong bytes; and whatever happens, nothing is left under
 * the parent and nothing leaks. Space (free-space checks, ENOSPC, resize)
 * is in test_storage_file_space.c; the run directory, its lock and the
 * cleaning of stale directories in test_storage_file_dir.c. */
#include "file_rig.h"

#define STATE  40 /* bytes of a state */
#define STRIDE 48 /* its slot's stride */
#define SLOTS  64

static void write_slot(struct rig *r, uint64_t id, uint64_t step)
{
    unsigned char buf[STATE];
    fill_state(buf, sizeof buf, step);
    cr_assert_eq(r->st.ops->write(&r->st, id, id * STRIDE, buf, STATE, step),
                 UTURN_OK, "%s", r->st.message);
}

static void read_slot(struct rig *r, uint64_t id, uint64_t step)
{
    unsigned char buf[STATE], want[STATE];
    fill_state(want, sizeof want, step);
    cr_assert_eq(r->st.ops->read(&r->st, id, id * STRIDE, buf, STATE, step),
                 UTURN_OK, "%s", r->st.message);
    cr_assert_arr_eq(buf, want, STATE, "x_%llu from id %llu",
                     (unsigned long long)step, (unsigned long long)id);
}

static uturn_status_t try_read(struct rig *r, uint64_t id, uint64_t step,
                               unsigned char buf[STATE])
{
    memset(buf, 0xa5, STATE);
    return r->st.ops->read(&r->st, id, id * STRIDE, buf, STATE, step);
}

static void assert_zeroed(const unsigned char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(buf[i], 0, "a failed read leaves no bytes behind");
}

Test(storage_file, costs_exactly_its_bytes)
{
    struct rig r;
    rig_open(&r, "/tmp");
    uint64_t c = 0;
    cr_assert_str_eq(r.st.ops->name, "file");
    cr_assert_eq(r.st.ops->granule(&r.st), 1);
    cr_assert(r.st.ops->cost(&r.st, 12345, &c));
    cr_assert_eq(c, 12345);
    cr_assert_eq(r.st.ops->usable(&r.st, 999), 999);
    cr_assert_eq(r.st.ops->resize(&r.st, 0), UTURN_OK);
    rig_close(&r);
}

Test(storage_file, round_trip_of_many_slots_at_offsets)
{
    struct rig r;
    rig_open(&r, "/tmp");
    cr_assert_eq(rig_begin(&r, SLOTS * STRIDE, SLOTS), UTURN_OK, "%s",
                 r.st.message);
    cr_assert_eq(r.st.bytes, SLOTS * STRIDE);
    for (uint64_t id = 0; id < SLOTS; id++)
        write_slot(&r, id, 1000 + id);
    /* Reads in an order unlike the writes, then overwrites. */
    for (uint64_t k = 0; k < SLOTS; k++)
        read_slot(&r, (k * 37) % SLOTS, 1000 + (k * 37) % SLOTS);
    for (uint64_t id = 0; id < SLOTS; id += 3) {
        r.st.ops->drop(&r.st, id);
        write_slot(&r, id, 5000 + id);
    }
    for (uint64_t id = 0; id < SLOTS; id++)
        read_slot(&r, id, (id % 3 == 0 ? 5000 : 1000) + id);
    const uint64_t writes = SLOTS + (SLOTS + 2) / 3;
    cr_assert_eq(r.st.bytes_written, writes * STATE);
    cr_assert_eq(r.st.bytes_read, 2 * SLOTS * STATE);
    cr_assert(r.st.write_seconds >= 0 && r.st.read_seconds >= 0);
    r.st.ops->end_run(&r.st);
    cr_assert_eq(r.st.bytes, 0);
    rig_close(&r);
}

Test(storage_file, file_is_preallocated_at_its_length)
{
    struct rig r;
    rig_open(&r, "/tmp");
    const uint64_t bytes = 1 << 20;
    cr_assert_eq(rig_begin(&r, bytes, 4), UTURN_OK, "%s", r.st.message);
    char run[PATH_MAX], slots[PATH_MAX];
    rig_paths(&r, run, slots);
    struct stat s;
    cr_assert_eq(stat(slots, &s), 0);
    cr_assert_eq((uint64_t)s.st_size, bytes);
    cr_assert_geq((uint64_t)s.st_blocks * 512, bytes,
                  "blocks are reserved, not a sparse file");
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

/* Write x_42 into id 3 and x_7 into id 5; the file's path. */
static void two_states(struct rig *r, char slots[PATH_MAX])
{
    char run[PATH_MAX];
    cr_assert_eq(rig_begin(r, SLOTS * STRIDE, SLOTS), UTURN_OK, "%s",
                 r->st.message);
    write_slot(r, 3, 42);
    write_slot(r, 5, 7);
    rig_paths(r, run, slots);
}

Test(storage_file, flipped_byte_is_an_error_naming_step_and_file)
{
    struct rig r;
    char slots[PATH_MAX];
    unsigned char buf[STATE], byte = 0;
    rig_open(&r, "/tmp");
    two_states(&r, slots);
    const int fd = open(slots, O_RDWR);
    cr_assert(fd >= 0);
    cr_assert_eq(pread(fd, &byte, 1, 3 * STRIDE + 17), 1);
    byte ^= 0x10;
    cr_assert_eq(pwrite(fd, &byte, 1, 3 * STRIDE + 17), 1);
    close(fd);
    cr_assert_eq(try_read(&r, 3, 42, buf), UTURN_E_IO);
    cr_assert(strstr(r.st.message, "checkpoint x_42 in ") != NULL, "%s",
              r.st.message);
    cr_assert(strstr(r.st.message, slots) != NULL, "%s", r.st.message);
    cr_assert(strstr(r.st.message, "checksum mismatch") != NULL, "%s",
              r.st.message);
    assert_zeroed(buf, STATE);
    read_slot(&r, 5, 7); /* the others are intact */
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

Test(storage_file, truncated_file_is_an_error_naming_step_and_file)
{
    struct rig r;
    char slots[PATH_MAX];
    unsigned char buf[STATE];
    rig_open(&r, "/tmp");
    two_states(&r, slots);
    cr_assert_eq(truncate(slots, 3 * STRIDE + 10), 0);
    cr_assert_eq(try_read(&r, 3, 42, buf), UTURN_E_IO);
    cr_assert(strstr(r.st.message, "checkpoint x_42 in ") != NULL, "%s",
              r.st.message);
    cr_assert(strstr(r.st.message, slots) != NULL, "%s", r.st.message);
    cr_assert(strstr(r.st.message, "truncated") != NULL, "%s", r.st.message);
    assert_zeroed(buf, STATE);
    cr_assert_eq(try_read(&r, 5, 7, buf), UTURN_E_IO, "past the new end");
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

Test(storage_file, wrong_step_or_empty_slot_is_an_error)
{
    struct rig r;
    char slots[PATH_MAX];
    unsigned char buf[STATE];
    rig_open(&r, "/tmp");
    two_states(&r, slots);
    cr_assert_eq(try_read(&r, 3, 41, buf), UTURN_E_IO);
    cr_assert(strstr(r.st.message, "x_41") && strstr(r.st.message, "x_42"),
              "%s", r.st.message);
    cr_assert(strstr(r.st.message, slots) != NULL, "%s", r.st.message);
    cr_assert_eq(r.st.ops->read(&r.st, 3, 3 * STRIDE, buf, STATE - 1, 42),
                 UTURN_E_IO, "another length");
    r.st.ops->drop(&r.st, 3);
    cr_assert_eq(try_read(&r, 3, 42, buf), UTURN_E_IO);
    cr_assert(strstr(r.st.message, "holds no state") != NULL, "%s",
              r.st.message);
    cr_assert_eq(try_read(&r, 9, 42, buf), UTURN_E_IO, "never written");
    read_slot(&r, 5, 7);
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

Test(storage_file, slots_outside_the_run_are_refused)
{
    struct rig r;
    unsigned char buf[STATE] = {0};
    rig_open(&r, "/tmp");
    cr_assert_eq(r.st.ops->write(&r.st, 0, 0, buf, STATE, 1),
                 UTURN_E_INVALID_ARG, "no run yet");
    cr_assert_eq(rig_begin(&r, 4 * STRIDE, 4), UTURN_OK);
    cr_assert_eq(rig_begin(&r, 4 * STRIDE, 4), UTURN_E_INVALID_ARG,
                 "one run at a time");
    cr_assert_eq(r.st.ops->write(&r.st, 4, 0, buf, STATE, 1),
                 UTURN_E_INVALID_ARG, "id past the run's ids");
    cr_assert_eq(r.st.ops->write(&r.st, 3, 3 * STRIDE + 9, buf, STATE, 1),
                 UTURN_E_INVALID_ARG, "past the end of the file");
    cr_assert(strstr(r.st.message, "x_1 ") != NULL, "%s", r.st.message);
    cr_assert_eq(r.st.ops->write(&r.st, 3, UINT64_MAX - 2, buf, STATE, 1),
                 UTURN_E_INVALID_ARG, "offset + bytes wraps");
    r.st.ops->end_run(&r.st);
    r.st.ops->end_run(&r.st); /* twice is harmless */
    rig_close(&r);
}

Test(storage_file, checksums_do_not_outlive_their_run)
{
    struct rig r;
    unsigned char buf[STATE];
    rig_open(&r, "/tmp");
    cr_assert_eq(rig_begin(&r, 8 * STRIDE, 8), UTURN_OK);
    write_slot(&r, 2, 11);
    r.st.ops->end_run(&r.st);
    cr_assert_eq(rig_begin(&r, 16 * STRIDE, 16), UTURN_OK);
    cr_assert_eq(try_read(&r, 2, 11, buf), UTURN_E_IO, "a new run is empty");
    write_slot(&r, 15, 3);
    read_slot(&r, 15, 3);
    cr_assert_eq(r.st.bytes_written, STATE, "counts are per run");
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

Test(storage_file, short_transfers_and_eintr_still_round_trip)
{
    struct rig r;
    struct faults x = {.max_chunk = 7, .eintr_every = 3};
    rig_open(&r, "/tmp");
    rig_faults(&r, &x);
    cr_assert_eq(rig_begin(&r, SLOTS * STRIDE, SLOTS), UTURN_OK);
    for (uint64_t id = 0; id < SLOTS; id++)
        write_slot(&r, id, id);
    for (uint64_t id = 0; id < SLOTS; id++)
        read_slot(&r, id, id);
    cr_assert_gt(x.pwrite_calls, SLOTS * (STATE / 7));
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

/* A run of 6 writes and 6 reads with the k-th pwrite (or pread) failing:
 * the status of the first failure (UTURN_OK if none did). */
static uturn_status_t faulty_run(struct rig *r, struct faults *x)
{
    unsigned char buf[STATE];
    cr_assert_eq(rig_begin(r, 6 * STRIDE, 6), UTURN_OK, "%s", r->st.message);
    for (uint64_t id = 0; id < 6; id++) {
        fill_state(buf, STATE, 100 + id);
        const uturn_status_t s =
            r->st.ops->write(&r->st, id, id * STRIDE, buf, STATE, 100 + id);
        if (s != UTURN_OK) {
            char why[sizeof r->st.message];
            memcpy(why, r->st.message, sizeof why);
            cr_assert_eq(try_read(r, id, 100 + id, buf), UTURN_E_IO,
                         "a failed write leaves its id empty");
            memcpy(r->st.message, why, sizeof why);
            return s;
        }
    }
    for (uint64_t id = 0; id < 6; id++) {
        const uturn_status_t s = try_read(r, id, 100 + id, buf);
        if (s != UTURN_OK) {
            assert_zeroed(buf, STATE);
            return s;
        }
    }
    (void)x;
    return UTURN_OK;
}

static void assert_names(const struct rig *r, uint64_t step, const char *what)
{
    char step_text[32];
    snprintf(step_text, sizeof step_text, "x_%llu ", (unsigned long long)step);
    cr_assert(strstr(r->st.message, step_text) != NULL, "%s", r->st.message);
    cr_assert(strstr(r->st.message, r->parent) != NULL, "%s", r->st.message);
    cr_assert(strstr(r->st.message, "/slots") != NULL, "%s", r->st.message);
    cr_assert(strstr(r->st.message, what) != NULL, "%s", r->st.message);
}

Test(storage_file, every_pwrite_failing_in_turn_is_clean)
{
    for (int k = 1; k <= 6; k++) {
        struct rig r;
        struct faults x = {.fail_pwrite_at = k, .err = k % 2 ? EIO : ENOSPC};
        rig_open(&r, "/tmp");
        rig_faults(&r, &x);
        cr_assert_eq(faulty_run(&r, &x), UTURN_E_IO, "pwrite %d", k);
        assert_names(&r, 100 + (uint64_t)k - 1, strerror(x.err));
        cr_assert(strstr(r.st.message, "writing") != NULL, "%s", r.st.message);
        r.st.ops->end_run(&r.st);
        cr_assert_eq(scratch_count(r.parent), 0, "end_run after pwrite %d", k);
        rig_close(&r);
    }
}

Test(storage_file, every_pread_failing_in_turn_is_clean)
{
    for (int k = 1; k <= 6; k++) {
        struct rig r;
        struct faults x = {.fail_pread_at = k, .err = EIO};
        rig_open(&r, "/tmp");
        rig_faults(&r, &x);
        cr_assert_eq(faulty_run(&r, &x), UTURN_E_IO, "pread %d", k);
        assert_names(&r, 100 + (uint64_t)k - 1, strerror(EIO));
        cr_assert(strstr(r.st.message, "reading") != NULL, "%s", r.st.message);
        r.st.ops->end_run(&r.st);
        cr_assert_eq(scratch_count(r.parent), 0, "end_run after pread %d", k);
        rig_close(&r);
    }
}

Test(storage_file, no_calls_fail_means_no_errors)
{
    struct rig r;
    struct faults x = {0};
    rig_open(&r, "/tmp");
    rig_faults(&r, &x);
    cr_assert_eq(faulty_run(&r, &x), UTURN_OK, "%s", r.st.message);
    cr_assert_eq(x.pwrite_calls, 6);
    cr_assert_eq(x.pread_calls, 6);
    uturn__storage_close(&r.st); /* close ends the run itself */
    cr_assert_eq(scratch_count(r.parent), 0);
    rig_close(&r);
}
