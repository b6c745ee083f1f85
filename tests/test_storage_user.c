/* The user backend (white-box, src/storage.h): the callbacks see every
 * call with the right ids, steps and bytes; a failing open, put or get is
 * UTURN_E_IO naming the callback, the step and the value it returned;
 * close is called once after every run that began, whichever way it
 * ended; the size field is honoured; nothing leaks. */
#include "counting_alloc.h"
#include "storage.h"

#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>

#define IDS   8
#define STATE 24

enum call { OPEN, PUT, GET, DROP, CLOSE };

struct keeper {
    unsigned char held[IDS][STATE];
    enum call calls[64];
    uint64_t ids[64], steps[64], bytes[64];
    int count;
    int fail_open, fail_put_at, fail_get_at; /* value to return / 1-based */
    int puts, gets, closes;
};

static void note(struct keeper *k, enum call c, uint64_t id, uint64_t step,
                 uint64_t bytes)
{
    cr_assert_lt(k->count, 64);
    k->calls[k->count] = c;
    k->ids[k->count]   = id;
    k->steps[k->count] = step;
    k->bytes[k->count] = bytes;
    k->count++;
}

static int k_open(void *user, uint64_t ids, uint64_t bytes)
{
    struct keeper *k = user;
    note(k, OPEN, ids, 0, bytes);
    return k->fail_open;
}

static int k_put(void *user, uint64_t id, uint64_t step, const void *src,
                 uint64_t bytes)
{
    struct keeper *k = user;
    note(k, PUT, id, step, bytes);
    if (++k->puts == k->fail_put_at)
        return 5;
    cr_assert(id < IDS && bytes <= STATE);
    memcpy(k->held[id], src, bytes);
    return 0;
}

static int k_get(void *user, uint64_t id, uint64_t step, void *dst,
                 uint64_t bytes)
{
    struct keeper *k = user;
    note(k, GET, id, step, bytes);
    if (++k->gets == k->fail_get_at)
        return -2;
    cr_assert(id < IDS && bytes <= STATE);
    memcpy(dst, k->held[id], bytes);
    return 0;
}

static void k_drop(void *user, uint64_t id)
{
    note(user, DROP, id, 0, 0);
}

static void k_close(void *user)
{
    struct keeper *k = user;
    note(k, CLOSE, 0, 0, 0);
    k->closes++;
}

static uturn_storage_callbacks_t callbacks(struct keeper *k)
{
    uturn_storage_callbacks_t cb = {
        .size  = sizeof cb,
        .user  = k,
        .open  = k_open,
        .put   = k_put,
        .get   = k_get,
        .drop  = k_drop,
        .close = k_close,
    };
    return cb;
}

struct level {
    counting_alloc_t counts;
    uturn_allocator_t alloc;
    struct uturn__storage st;
};

static uturn_status_t open_level(struct level *l,
                                 const uturn_storage_callbacks_t *cb)
{
    memset(l, 0, sizeof *l);
    l->alloc = counting_allocator(&l->counts);
    uturn_storage_t desc;
    uturn_storage_init(&desc);
    desc.kind      = UTURN_STORAGE_USER;
    desc.callbacks = cb;
    return uturn__storage_open_level(&l->st, &desc, &l->alloc);
}

static void close_level(struct level *l)
{
    uturn__storage_close(&l->st);
    cr_assert_eq(l->counts.live_blocks, 0, "nothing leaks");
}

static void state(unsigned char *p, uint64_t step)
{
    for (size_t i = 0; i < STATE; i++)
        p[i] = (unsigned char)(step * 17 + i);
}

static void assert_call(const struct keeper *k, int i, enum call c, uint64_t id,
                        uint64_t step, uint64_t bytes)
{
    cr_assert_eq(k->calls[i], c, "call %d", i);
    cr_assert_eq(k->ids[i], id, "call %d's id", i);
    cr_assert_eq(k->steps[i], step, "call %d's step", i);
    cr_assert_eq(k->bytes[i], bytes, "call %d's bytes", i);
}

Test(storage_user, costs_exactly_its_bytes)
{
    struct keeper k                    = {0};
    const uturn_storage_callbacks_t cb = callbacks(&k);
    struct level l;
    uint64_t c = 0;
    cr_assert_eq(open_level(&l, &cb), UTURN_OK);
    cr_assert_str_eq(l.st.ops->name, "user");
    cr_assert_eq(l.st.ops->granule(&l.st), 1);
    cr_assert(l.st.ops->cost(&l.st, 777, &c));
    cr_assert_eq(c, 777);
    cr_assert_eq(l.st.ops->usable(&l.st, 999), 999);
    cr_assert_eq(l.st.ops->resize(&l.st, 0), UTURN_OK);
    close_level(&l);
    cr_assert_eq(k.count, 0, "no run, no call");
}

Test(storage_user, callbacks_see_every_call)
{
    struct keeper k                    = {0};
    const uturn_storage_callbacks_t cb = callbacks(&k);
    struct level l;
    unsigned char in[STATE], out[STATE];
    cr_assert_eq(open_level(&l, &cb), UTURN_OK);
    cr_assert_eq(l.st.ops->begin_run(&l.st, IDS * 32, IDS), UTURN_OK);
    assert_call(&k, 0, OPEN, IDS, 0, IDS * 32);
    for (uint64_t id = 0; id < IDS; id++) {
        state(in, 40 + id);
        cr_assert_eq(l.st.ops->write(&l.st, id, id * 32, in, STATE, 40 + id),
                     UTURN_OK);
        assert_call(&k, 1 + (int)id, PUT, id, 40 + id, STATE);
    }
    for (uint64_t id = IDS; id-- > 0;) {
        state(in, 40 + id);
        cr_assert_eq(l.st.ops->read(&l.st, id, id * 32, out, STATE, 40 + id),
                     UTURN_OK);
        cr_assert_arr_eq(in, out, STATE);
        assert_call(&k, k.count - 1, GET, id, 40 + id, STATE);
        l.st.ops->drop(&l.st, id);
        assert_call(&k, k.count - 1, DROP, id, 0, 0);
    }
    cr_assert_eq(l.st.bytes_written, IDS * STATE);
    cr_assert_eq(l.st.bytes_read, IDS * STATE);
    cr_assert(l.st.write_seconds >= 0 && l.st.read_seconds >= 0);
    l.st.ops->end_run(&l.st);
    assert_call(&k, k.count - 1, CLOSE, 0, 0, 0);
    cr_assert_eq(k.count, 1 + 3 * IDS + 1);
    l.st.ops->end_run(&l.st);
    cr_assert_eq(k.closes, 1, "one close per run");
    close_level(&l);
    cr_assert_eq(k.closes, 1);
}

Test(storage_user, open_drop_and_close_may_be_null)
{
    struct keeper k              = {0};
    uturn_storage_callbacks_t cb = callbacks(&k);
    cb.open = NULL, cb.drop = NULL, cb.close = NULL;
    struct level l;
    unsigned char in[STATE] = {3}, out[STATE];
    cr_assert_eq(open_level(&l, &cb), UTURN_OK);
    cr_assert_eq(l.st.ops->begin_run(&l.st, 64, 2), UTURN_OK);
    cr_assert_eq(l.st.ops->write(&l.st, 1, 0, in, STATE, 9), UTURN_OK);
    cr_assert_eq(l.st.ops->read(&l.st, 1, 0, out, STATE, 9), UTURN_OK);
    l.st.ops->drop(&l.st, 1);
    l.st.ops->end_run(&l.st);
    cr_assert_eq(k.count, 2, "only put and get");
    close_level(&l);
}

Test(storage_user, put_and_get_are_required)
{
    struct keeper k              = {0};
    uturn_storage_callbacks_t cb = callbacks(&k);
    struct level l;
    cb.put = NULL;
    cr_assert_eq(open_level(&l, &cb), UTURN_E_INVALID_ARG);
    cr_assert(strstr(l.st.message, "put and get") != NULL, "%s", l.st.message);
    close_level(&l);
    cb     = callbacks(&k);
    cb.get = NULL;
    cr_assert_eq(open_level(&l, &cb), UTURN_E_INVALID_ARG);
    close_level(&l);
    cr_assert_eq(open_level(&l, NULL), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn__storage_user_open(&l.st, NULL), UTURN_E_INVALID_ARG);
    cr_assert_eq(k.count, 0);
}

/* A caller's struct from an older header: only the first `size` bytes
 * are read, whatever lies beyond. */
Test(storage_user, the_size_field_is_honoured)
{
    struct keeper k              = {0};
    uturn_storage_callbacks_t cb = callbacks(&k);
    struct level l;
    cb.size = offsetof(uturn_storage_callbacks_t, get);
    cr_assert_eq(open_level(&l, &cb), UTURN_E_INVALID_ARG, "get is beyond");
    close_level(&l);
    cb.size = offsetof(uturn_storage_callbacks_t, drop);
    cr_assert_eq(open_level(&l, &cb), UTURN_OK);
    cr_assert_eq(l.st.ops->begin_run(&l.st, 64, 2), UTURN_OK);
    l.st.ops->drop(&l.st, 0);
    l.st.ops->end_run(&l.st);
    close_level(&l);
    cr_assert_eq(k.count, 1, "open only: drop and close lie beyond size");
    k.count = 0;
    cb.size = 0; /* not set: the whole struct, as the executor reads it */
    cr_assert_eq(open_level(&l, &cb), UTURN_OK);
    cr_assert_eq(l.st.ops->begin_run(&l.st, 64, 2), UTURN_OK);
    l.st.ops->end_run(&l.st);
    close_level(&l);
    cr_assert_eq(k.closes, 1);
}

static void assert_has(const char *message, const char *part)
{
    cr_assert(strstr(message, part) != NULL, "\"%s\" not in: %s", part,
              message);
}

Test(storage_user, failing_put_is_an_io_error_naming_it)
{
    struct keeper k                    = {.fail_put_at = 2};
    const uturn_storage_callbacks_t cb = callbacks(&k);
    struct level l;
    unsigned char in[STATE] = {0};
    cr_assert_eq(open_level(&l, &cb), UTURN_OK);
    cr_assert_eq(l.st.ops->begin_run(&l.st, 64, 4), UTURN_OK);
    cr_assert_eq(l.st.ops->write(&l.st, 0, 0, in, STATE, 41), UTURN_OK);
    cr_assert_eq(l.st.ops->write(&l.st, 1, 32, in, STATE, 42), UTURN_E_IO);
    assert_has(l.st.message, "callback put");
    assert_has(l.st.message, "x_42");
    assert_has(l.st.message, "returned 5");
    cr_assert_eq(l.st.bytes_written, STATE, "the failed put is not counted");
    l.st.ops->end_run(&l.st);
    cr_assert_eq(k.closes, 1, "close after a failed put");
    close_level(&l);
}

Test(storage_user, failing_get_is_an_io_error_naming_it)
{
    struct keeper k                    = {.fail_get_at = 1};
    const uturn_storage_callbacks_t cb = callbacks(&k);
    struct level l;
    unsigned char in[STATE] = {0}, out[STATE];
    cr_assert_eq(open_level(&l, &cb), UTURN_OK);
    cr_assert_eq(l.st.ops->begin_run(&l.st, 64, 4), UTURN_OK);
    cr_assert_eq(l.st.ops->write(&l.st, 3, 0, in, STATE, 7), UTURN_OK);
    cr_assert_eq(l.st.ops->read(&l.st, 3, 0, out, STATE, 7), UTURN_E_IO);
    assert_has(l.st.message, "callback get");
    assert_has(l.st.message, "x_7 ");
    assert_has(l.st.message, "returned -2");
    assert_has(l.st.message, "slot id 3");
    cr_assert_eq(l.st.bytes_read, 0);
    close_level(&l); /* close ends the run */
    cr_assert_eq(k.closes, 1, "close after a failed get");
}

Test(storage_user, failing_open_is_an_io_error_and_still_closes)
{
    struct keeper k                    = {.fail_open = -3};
    const uturn_storage_callbacks_t cb = callbacks(&k);
    struct level l;
    unsigned char in[STATE] = {0};
    cr_assert_eq(open_level(&l, &cb), UTURN_OK);
    cr_assert_eq(l.st.ops->begin_run(&l.st, 96, 3), UTURN_E_IO);
    assert_has(l.st.message, "callback open returned -3");
    assert_has(l.st.message, "3 slots, 96 bytes");
    cr_assert_eq(k.closes, 1, "close gives back what open made");
    l.st.ops->end_run(&l.st);
    cr_assert_eq(k.closes, 1, "and only once");
    cr_assert_eq(l.st.ops->write(&l.st, 0, 0, in, STATE, 1),
                 UTURN_E_INVALID_ARG, "no run");
    k.fail_open = 0;
    cr_assert_eq(l.st.ops->begin_run(&l.st, 96, 3), UTURN_OK, "then it works");
    cr_assert_eq(l.st.ops->begin_run(&l.st, 96, 3), UTURN_E_INVALID_ARG);
    close_level(&l);
    cr_assert_eq(k.closes, 2);
}

Test(storage_user, allocation_failure_leaks_nothing)
{
    struct keeper k                    = {0};
    const uturn_storage_callbacks_t cb = callbacks(&k);
    struct uturn__storage st;
    counting_alloc_t counts   = {.fail_at = 1};
    const uturn_allocator_t a = counting_allocator(&counts);
    uturn_storage_t desc;
    uturn_storage_init(&desc);
    desc.kind      = UTURN_STORAGE_USER;
    desc.callbacks = &cb;
    cr_assert_eq(uturn__storage_open_level(&st, &desc, &a), UTURN_E_NOMEM);
    uturn__storage_close(&st);
    cr_assert_eq(counts.live_blocks, 0);
    cr_assert_eq(k.count, 0);
}
