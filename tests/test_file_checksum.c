#define _GNU_SOURCE /* mkdtemp, nftw, pread, pwrite, open_memstream */
/*
 * A file level's checksum covers every byte of every state. States of 1,
 * 17, 64 and 4099 bytes (one byte; one past a 16-byte unit; whole units;
 * past a page, and not a multiple of 16) are damaged at their first,
 * middle and last byte, so that a checksum over a prefix of each state
 * (the first 18 bytes, say) misses the damage in the larger ones:
 *  - in the backend itself (white-box, src/storage_file.h): the read of
 *    the damaged state fails with UTURN_E_IO naming the step, the file
 *    and the mismatch, and the other states still read back;
 *  - under a run, overlapped and synchronous, through the state and
 *    through save/load: a plan that keeps every state on the disk level
 *    (plan text, so which state is restored when is known), a state the
 *    run will restore much later damaged from inside an adjoint callback.
 *    The run fails with UTURN_E_IO naming that step and the file, never
 *    UTURN_OK, and no adjoint callback ever sees a state other than the
 *    one it should; the executor then runs the plan again to success.
 * The damaged state is found in the file by its bytes at a slot boundary
 * (the public header says slots start at multiples of 16 and take the
 * stride), not by the backend's own layout code.
 */
#include "damaged_chain.h"
#include "file_rig.h"

#include <stdio.h>
#include <time.h>
#include <uturn.h>

#define ULL(x)    ((unsigned long long)(x))
#define STEPS     DC_STEPS
#define VICTIM    DC_VICTIM
#define MAX_BYTES DC_MAX_BYTES

static const uint64_t sizes[] = {1, 17, 64, MAX_BYTES};

#define state_of dc_state_of

/* ---- the backend alone ------------------------------------------------- */

/* Three states of `bytes` in ids 0, 1, 2 (x_40, x_41, x_42); damage byte
 * `pos` of id 1; its read fails, the others read back. */
static void backend_case(uint64_t bytes, uint64_t pos)
{
    uint64_t stride = 0;
    cr_assert(uturn__stride(bytes, &stride));
    struct rig r;
    rig_open(&r, "/tmp");
    cr_assert_eq(rig_begin(&r, 3 * stride, 3), UTURN_OK, "%s", r.st.message);
    unsigned char buf[MAX_BYTES], want[MAX_BYTES];
    for (uint64_t id = 0; id < 3; id++) {
        state_of(40 + id, buf, bytes);
        cr_assert_eq(
            r.st.ops->write(&r.st, id, id * stride, buf, bytes, 40 + id),
            UTURN_OK, "%s", r.st.message);
    }
    char run[PATH_MAX], slots[PATH_MAX];
    rig_paths(&r, run, slots);
    const int fd = open(slots, O_RDWR);
    cr_assert(fd >= 0);
    unsigned char byte = 0;
    const off_t at     = (off_t)(stride + pos);
    cr_assert_eq(pread(fd, &byte, 1, at), 1);
    byte ^= 0xa5;
    cr_assert_eq(pwrite(fd, &byte, 1, at), 1);
    close(fd);
    cr_assert_eq(r.st.ops->read(&r.st, 1, stride, buf, bytes, 41), UTURN_E_IO,
                 "%llu bytes damaged at byte %llu read back as good",
                 ULL(bytes), ULL(pos));
    cr_assert(strstr(r.st.message, "checkpoint x_41 in ") != NULL, "%s",
              r.st.message);
    cr_assert(strstr(r.st.message, slots) != NULL, "%s", r.st.message);
    cr_assert(strstr(r.st.message, "checksum mismatch") != NULL, "%s",
              r.st.message);
    for (uint64_t id = 0; id < 3; id += 2) {
        state_of(40 + id, want, bytes);
        cr_assert_eq(
            r.st.ops->read(&r.st, id, id * stride, buf, bytes, 40 + id),
            UTURN_OK, "%s", r.st.message);
        cr_assert_arr_eq(buf, want, bytes);
    }
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

/* The first, a middle and the last byte of a state of `bytes`. */
static uint64_t position(uint64_t bytes, int which)
{
    return which == 0 ? 0 : which == 1 ? bytes / 2 : bytes - 1;
}

Test(file_checksum, the_backend_sees_a_damaged_byte_anywhere_in_a_state)
{
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int which = 0; which < 3; which++)
            backend_case(sizes[s], position(sizes[s], which));
}

/* ---- under a run -------------------------------------------------------- */

/* The chain and the all-on-disk plan: tests/support/damaged_chain.h. */
static uturn_plan_t *all_on_disk(void)
{
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_plan_t *plan = dc_all_on_disk(&err);
    cr_assert_not_null(plan, "%s", err.message);
    return plan;
}

struct setting {
    uint64_t bytes, pos;
    bool synchronous, save_load;
};

static void expect_caught(uturn_executor_t *ex, const uturn_plan_t *plan,
                          struct dc_model *m, const struct setting *c)
{
    m->damage_pos         = (int64_t)c->pos;
    const uturn_model_t d = dc_describe(m, c->save_load);
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_executor_run(ex, plan, &d, NULL, NULL, &rep, &err);
    cr_assert(m->damaged && !m->lost, "the damage was never made");
    cr_assert(!m->bad_sizes, "save or load was asked for another size");
    cr_assert_eq(st, UTURN_E_IO,
                 "%llu-byte states, byte %llu of x_%u damaged (sync %d, "
                 "save/load %d): the run returned %s, its adjoints saw %llu "
                 "wrong states",
                 ULL(c->bytes), ULL(c->pos), VICTIM, c->synchronous,
                 c->save_load, uturn_status_name(st), ULL(m->wrong_states));
    cr_assert_eq(err.status, UTURN_E_IO);
    cr_assert_eq(rep.failed_step, VICTIM, "%s", err.message);
    char named[32];
    snprintf(named, sizeof named, "checkpoint x_%u ", VICTIM);
    cr_assert(strstr(err.message, named) != NULL, "%s", err.message);
    cr_assert(strstr(err.message, m->where) != NULL, "%s", err.message);
    cr_assert(strstr(err.message, "checksum mismatch") != NULL, "%s",
              err.message);
    cr_assert_eq(m->wrong_states, 0, "an adjoint saw a damaged state");
    cr_assert_eq(m->adjoints, STEPS - 1 - VICTIM, "the run went on");
}

static void run_case(const struct setting *c)
{
    char parent[PATH_MAX];
    cr_assert(scratch_make("/tmp", parent));
    uturn_executor_t *ex = NULL;
    cr_assert_eq(dc_file_executor(parent, c->synchronous, &ex), UTURN_OK);
    struct dc_model m = {.bytes = c->bytes, .parent = parent};
    cr_assert_eq(uturn_executor_slot_bytes(ex, c->bytes, &m.stride), UTURN_OK);
    uturn_plan_t *plan = all_on_disk();
    expect_caught(ex, plan, &m, c);
    cr_assert_eq(scratch_count(parent), 0, "the failed run left files");
    /* The executor is whole: the same plan undamaged runs through. */
    m.damage_pos          = -1;
    const uturn_model_t d = dc_describe(&m, c->save_load);
    cr_assert_eq(uturn_executor_run(ex, plan, &d, NULL, NULL, NULL, NULL),
                 UTURN_OK);
    cr_assert_eq(m.adjoints, STEPS);
    cr_assert_eq(m.wrong_states, 0);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    cr_assert_eq(scratch_count(parent), 0);
    scratch_remove(parent);
}

static void every_size_and_position(bool synchronous)
{
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int which = 0; which < 3; which++) {
            const uint64_t pos = position(sizes[s], which);
            if (which > 0 && pos == position(sizes[s], which - 1))
                continue; /* a one-byte state has one position */
            for (int save_load = 0; save_load < 2; save_load++) {
                const struct setting c = {.bytes       = sizes[s],
                                          .pos         = pos,
                                          .synchronous = synchronous,
                                          .save_load   = save_load == 1};
                run_case(&c);
            }
        }
}

Test(file_checksum, an_overlapped_run_stops_at_a_damaged_byte_anywhere)
{
    every_size_and_position(false);
}

Test(file_checksum, a_synchronous_run_stops_at_a_damaged_byte_anywhere)
{
    every_size_and_position(true);
}
