/*
 * The user backend: a level of slots kept by the caller's callbacks
 * (device memory, a compressor, remote storage). The region has no
 * address and no length of its own: each state goes to put under its slot
 * id and comes back from get, and the level's capacity counts exactly the
 * bytes of its slots (granule 1), as the caller's storage is not the
 * memory the budget is about.
 *
 * The callbacks are copied at open, honouring their size field as the
 * library's other caller structs are (0, or more than this build knows:
 * the whole struct; fewer: those bytes, the rest NULL). close is called
 * after every run that began, on every exit path, including a run whose
 * open failed, so that it can give back whatever open had made.
 *
 * What goes through the callbacks is checksummed as a file level's states
 * are (storage_sums.h): a get that gives back other bytes than put was
 * given (short, stale, another slot's) stops the run naming the step,
 * where it once gave UTURN_OK and a wrong gradient. A level that declares
 * itself lossy (a lossy compressor) is not checked, and the run's report
 * says so.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "storage.h"
#include "storage_sums.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

struct user_level {
    uturn_storage_callbacks_t cb;
    bool active;             /* begin_run called and end_run not yet */
    uint64_t ids;            /* the run's ids are below this */
    struct uturn__sums sums; /* per id, unless lossy; freed after a run */
};

static struct user_level *user_of(struct uturn__storage *st)
{
    return st->impl;
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static uturn_status_t
fail(struct uturn__storage *st, uturn_status_t status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(st->message, sizeof st->message, fmt, args);
    va_end(args);
    return status;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What a run moved is counted from its beginning. */
static void reset_counts(struct uturn__storage *st)
{
    st->bytes_written = 0;
    st->bytes_read    = 0;
    st->write_seconds = 0;
    st->read_seconds  = 0;
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

/* Nothing to allocate: the length is only recorded, for the report. */
static uturn_status_t resize(struct uturn__storage *st, uint64_t bytes)
{
    st->bytes = bytes;
    return UTURN_OK;
}

static void end_run(struct uturn__storage *st)
{
    struct user_level *u = user_of(st);
    if (u == NULL || !u->active)
        return;
    u->active = false;
    st->bytes = 0;
    uturn__sums_free(&u->sums, &st->alloc); /* the run's: nothing is kept */
    if (u->cb.close != NULL)
        u->cb.close(u->cb.user);
}

static uturn_status_t begin_run(struct uturn__storage *st, uint64_t bytes,
                                uint64_t ids)
{
    struct user_level *u = user_of(st);
    if (u->active)
        return fail(st, UTURN_E_INVALID_ARG,
                    "a run is already using the storage callbacks");
    reset_counts(st);
    u->active    = true;
    u->ids       = ids;
    st->bytes    = bytes;
    const int rc = u->cb.open != NULL ? u->cb.open(u->cb.user, ids, bytes) : 0;
    if (rc == 0)
        return UTURN_OK;
    end_run(st);
    return fail(st, UTURN_E_IO,
                "storage callback open returned %d (%llu slots, %llu bytes)",
                rc, (unsigned long long)ids, (unsigned long long)bytes);
}

static uturn_status_t check_active(struct uturn__storage *st, uint64_t step)
{
    if (user_of(st)->active)
        return UTURN_OK;
    return fail(st, UTURN_E_INVALID_ARG,
                "checkpoint x_%llu: the storage callbacks are not in a run",
                (unsigned long long)step);
}

static uturn_status_t write_state(struct uturn__storage *st, uint64_t id,
                                  uint64_t offset, const void *src,
                                  uint64_t bytes, uint64_t step)
{
    struct user_level *u        = user_of(st);
    const uturn_status_t status = check_active(st, step);
    (void)offset;
    if (status != UTURN_OK)
        return status;
    if (!u->cb.lossy && !uturn__sums_reserve(&u->sums, &st->alloc, id, u->ids))
        return fail(st, UTURN_E_NOMEM,
                    "out of memory for the checksums of %llu slots",
                    (unsigned long long)(id + 1));
    uturn__sums_drop(&u->sums, id); /* whatever it held is replaced */
    const double start = now();
    const int rc       = u->cb.put(u->cb.user, id, step, src, bytes);
    st->write_seconds += now() - start;
    if (rc != 0)
        return fail(st, UTURN_E_IO,
                    "storage callback put returned %d for checkpoint x_%llu "
                    "(slot id %llu, %llu bytes)",
                    rc, (unsigned long long)step, (unsigned long long)id,
                    (unsigned long long)bytes);
    if (!u->cb.lossy)
        uturn__sums_record(&u->sums, id, src, bytes, step);
    st->bytes_written += bytes;
    return UTURN_OK;
}

/* A get whose bytes are not what put was given. */
static uturn_status_t changed(struct uturn__storage *st, uint64_t id,
                              void *dst, uint64_t bytes, uint64_t step,
                              enum uturn__sum_verdict v)
{
    if (bytes != 0)
        memset(dst, 0, (size_t)bytes);
    if (v == UTURN__SUM_CHANGED)
        return fail(st, UTURN_E_IO,
                    "storage callback get gave checkpoint x_%llu (slot id "
                    "%llu, %llu bytes) back with other bytes than put was "
                    "given: checksum mismatch (a level whose states change "
                    "on the way must declare itself lossy)",
                    (unsigned long long)step, (unsigned long long)id,
                    (unsigned long long)bytes);
    return fail(st, UTURN_E_IO,
                "checkpoint x_%llu: slot id %llu of the storage callbacks "
                "holds %s",
                (unsigned long long)step, (unsigned long long)id,
                v == UTURN__SUM_EMPTY ? "no state" : "another state");
}

static uturn_status_t read_state(struct uturn__storage *st, uint64_t id,
                                 uint64_t offset, void *dst, uint64_t bytes,
                                 uint64_t step)
{
    struct user_level *u        = user_of(st);
    const uturn_status_t status = check_active(st, step);
    (void)offset;
    if (status != UTURN_OK)
        return status;
    const enum uturn__sum_verdict held =
        u->cb.lossy ? UTURN__SUM_SAME
                    : uturn__sums_held(&u->sums, id, bytes, step);
    if (held != UTURN__SUM_SAME)
        return changed(st, id, dst, bytes, step, held);
    const double start = now();
    const int rc       = u->cb.get(u->cb.user, id, step, dst, bytes);
    st->read_seconds += now() - start;
    if (rc != 0)
        return fail(st, UTURN_E_IO,
                    "storage callback get returned %d for checkpoint x_%llu "
                    "(slot id %llu, %llu bytes)",
                    rc, (unsigned long long)step, (unsigned long long)id,
                    (unsigned long long)bytes);
    const enum uturn__sum_verdict v =
        u->cb.lossy ? UTURN__SUM_SAME
                    : uturn__sums_check(&u->sums, id, dst, bytes, step);
    if (v != UTURN__SUM_SAME)
        return changed(st, id, dst, bytes, step, v);
    st->bytes_read += bytes;
    return UTURN_OK;
}

static void drop(struct uturn__storage *st, uint64_t id)
{
    struct user_level *u = user_of(st);
    uturn__sums_drop(&u->sums, id); /* no-op outside a run: freed */
    if (u->active && u->cb.drop != NULL)
        u->cb.drop(u->cb.user, id);
}

static void close_user(struct uturn__storage *st)
{
    struct user_level *u = user_of(st);
    if (u == NULL)
        return;
    end_run(st);
    uturn__sums_free(&u->sums, &st->alloc);
    uturn__free(&st->alloc, u, sizeof *u);
    st->impl = NULL;
}

uturn_status_t uturn__storage_user_open(struct uturn__storage *st,
                                        const uturn_storage_callbacks_t *cb)
{
    if (cb == NULL)
        return fail(st, UTURN_E_INVALID_ARG,
                    "a user storage level needs its callbacks");
    uturn_storage_callbacks_t copy;
    memset(&copy, 0, sizeof copy);
    const size_t n =
        cb->size == 0 || cb->size > sizeof copy ? sizeof copy : cb->size;
    memcpy(&copy, cb, n);
    copy.size = sizeof copy;
    if (copy.put == NULL || copy.get == NULL)
        return fail(st, UTURN_E_INVALID_ARG,
                    "the storage callbacks need put and get (size %zu)",
                    cb->size);
    struct user_level *u = uturn__alloc_zeroed(&st->alloc, 1, sizeof *u);
    if (u == NULL)
        return fail(st, UTURN_E_NOMEM,
                    "out of memory for the storage callbacks");
    u->cb     = copy;
    st->impl  = u;
    st->lossy = copy.lossy;
    return UTURN_OK;
}

const struct uturn__storage_ops uturn__storage_user = {
    .name      = "user",
    .granule   = granule,
    .cost      = cost,
    .usable    = usable,
    .resize    = resize,
    .close     = close_user,
    .begin_run = begin_run,
    .end_run   = end_run,
    .write     = write_state,
    .read      = read_state,
    .drop      = drop,
};
