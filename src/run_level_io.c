/*
 * A run's stores into, restores from and frees of levels beyond memory.
 * A state goes through a buffer in the memory region: the run's thread
 * fills it (memcpy or the model's save) and the level writes it, inline or
 * on the I/O thread (run_io.c); a restore reads into a buffer (ahead of
 * time when it can) and the run's thread copies it out. A contiguous state
 * on a run without an I/O thread skips the buffer.
 */
#include "executor.h"

#define NO_BUFFER UINT64_MAX

static struct uturn__level_store *level_of(struct uturn__run *run,
                                           uint64_t level)
{
    return &run->ex->levels[level - 1];
}

/* A level's failure: its own message, with the step and the action. */
static uturn_status_t level_failed(struct uturn__run *run, uint64_t level,
                                   uturn_status_t status, uint64_t step)
{
    const struct uturn__storage *st = &level_of(run, level)->storage;
    run->report.failed_action       = run->index;
    run->report.failed_step         = step;
    return uturn__fail_at(run->error, status, run->index, 0, step,
                          "level %llu (%s): %s (action %llu)",
                          (unsigned long long)level,
                          run->plan->levels[level].name,
                          st->message[0] != '\0' ? st->message
                                                 : "an earlier I/O failed",
                          (unsigned long long)run->index);
}

/* The I/O thread's first failure, reported at whichever call sees it. */
static uturn_status_t io_failed(struct uturn__run *run)
{
    return level_failed(run, run->io.failed_level, run->io.failed,
                        run->io.failed_step);
}

uturn_status_t uturn__level_buffer(struct uturn__run *run, uint64_t level,
                                   uint64_t *buf, unsigned char **addr)
{
    *buf  = NO_BUFFER;
    *addr = run->contiguous ? NULL : run->buffer;
    if (!run->io.started)
        return UTURN_OK;
    double *waited = &level_of(run, level)->wait_seconds;
    if (uturn__io_acquire(&run->io, waited, buf) != UTURN_OK)
        return io_failed(run);
    *addr = run->io.bufs[*buf].addr;
    return UTURN_OK;
}

void uturn__level_release(struct uturn__run *run, uint64_t buf)
{
    if (buf != NO_BUFFER)
        uturn__io_release(&run->io, buf);
}

static void count_held(struct uturn__level_store *ls, int64_t change)
{
    ls->held += (uint64_t)change;
    ls->peak = ls->held > ls->peak ? ls->held : ls->peak;
}

uturn_status_t uturn__level_put(struct uturn__run *run, uint64_t level,
                                const uturn_action_t *a, uint64_t buf,
                                const void *src, uint64_t bytes)
{
    struct uturn__level_store *ls = level_of(run, level);
    const uint64_t local          = a->slot - run->level_base[level];
    uint64_t id                   = 0;
    if (!uturn__space_take_id(&ls->space, &run->ex->alloc, local, &id)) {
        uturn__level_release(run, buf);
        return uturn__fail(run->error, UTURN_E_INVALID_PLAN,
                           "level %llu holds more slots than the plan's peak",
                           (unsigned long long)level);
    }
    ls->stores += 1;
    count_held(ls, 1);
    if (ls->overlapped) {
        const struct uturn__io_job j = {.op     = UTURN__IO_WRITE,
                                        .level  = level,
                                        .buf    = buf,
                                        .id     = id,
                                        .offset = id * run->stride,
                                        .bytes  = bytes,
                                        .step   = a->step};
        return uturn__io_submit(&run->io, &j, a->slot, &ls->wait_seconds) ==
                       UTURN_OK
                   ? UTURN_OK
                   : io_failed(run);
    }
    const uturn_status_t st = ls->storage.ops->write(
        &ls->storage, id, id * run->stride, src, bytes, a->step);
    uturn__level_release(run, buf);
    return st == UTURN_OK ? UTURN_OK : level_failed(run, level, st, a->step);
}

/* Queue the read of x_step from plan slot `slot` into buf. */
static uturn_status_t queue_read(struct uturn__run *run, uint64_t level,
                                 const uturn_action_t *a, uint64_t buf)
{
    struct uturn__level_store *ls = level_of(run, level);
    const uint64_t id =
        uturn__space_id(&ls->space, a->slot - run->level_base[level]);
    const struct uturn__io_job j = {.op     = UTURN__IO_READ,
                                    .level  = level,
                                    .buf    = buf,
                                    .id     = id,
                                    .offset = id * run->stride,
                                    .bytes  = uturn__run_data_bytes(run,
                                                                   a->step),
                                    .step   = a->step};
    return uturn__io_submit(&run->io, &j, a->slot, &ls->wait_seconds);
}

/* An overlapped restore: the read ahead, or one queued now, waited for. */
static uturn_status_t get_overlapped(struct uturn__run *run, uint64_t level,
                                     const uturn_action_t *a, uint64_t *buf)
{
    struct uturn__level_store *ls = level_of(run, level);
    if (!uturn__io_find(&run->io, a->slot, a->step, buf)) {
        if (uturn__io_acquire(&run->io, &ls->wait_seconds, buf) != UTURN_OK)
            return io_failed(run);
        if (queue_read(run, level, a, *buf) != UTURN_OK)
            return io_failed(run);
    }
    const uturn_status_t st =
        uturn__io_wait_read(&run->io, *buf, &ls->wait_seconds);
    if (st == UTURN_OK)
        return UTURN_OK;
    uturn__level_release(run, *buf);
    *buf = NO_BUFFER;
    return run->io.failed != UTURN_OK ? io_failed(run)
                                      : level_failed(run, level, st, a->step);
}

uturn_status_t uturn__level_get(struct uturn__run *run, uint64_t level,
                                const uturn_action_t *a, uint64_t bytes,
                                uint64_t *buf, const void **src)
{
    struct uturn__level_store *ls = level_of(run, level);
    ls->restores += 1;
    if (ls->overlapped) {
        const uturn_status_t st = get_overlapped(run, level, a, buf);
        *src = st == UTURN_OK ? run->io.bufs[*buf].addr : NULL;
        return st;
    }
    unsigned char *dst      = NULL;
    uturn_status_t st       = uturn__level_buffer(run, level, buf, &dst);
    dst                     = dst != NULL ? dst : run->model.state;
    const uint64_t id =
        uturn__space_id(&ls->space, a->slot - run->level_base[level]);
    if (st == UTURN_OK)
        st = ls->storage.ops->read(&ls->storage, id, id * run->stride, dst,
                                   bytes, a->step);
    *src = dst;
    if (st == UTURN_OK)
        return UTURN_OK;
    uturn__level_release(run, *buf);
    *buf = NO_BUFFER;
    return level_failed(run, level, st, a->step);
}

uturn_status_t uturn__level_free(struct uturn__run *run, uint64_t level,
                                 const uturn_action_t *a)
{
    struct uturn__level_store *ls = level_of(run, level);
    const uint64_t local          = a->slot - run->level_base[level];
    const uint64_t id             = uturn__space_id(&ls->space, local);
    uturn__space_drop_id(&ls->space, local, id);
    count_held(ls, -1);
    if (!ls->overlapped) {
        ls->storage.ops->drop(&ls->storage, id);
        return UTURN_OK;
    }
    const struct uturn__io_job j = {
        .op = UTURN__IO_DROP, .level = level, .id = id, .step = a->step};
    return uturn__io_submit(&run->io, &j, a->slot, &ls->wait_seconds) ==
                   UTURN_OK
               ? UTURN_OK
               : io_failed(run);
}

/* Read the next restores of the batch ahead, from position `from` on,
 * into spare buffers; stop at a store into a level (a later restore may
 * need what it writes) or when no buffer is spare. */
void uturn__level_ahead(struct uturn__run *run, const uturn_action_t *batch,
                        size_t from, size_t count)
{
    struct uturn__io *io = &run->io;
    size_t i             = io->scan > from ? io->scan : from;
    for (; i < count; i++) {
        const uturn_action_t *a = &batch[i];
        if (a->op != UTURN_OP_STORE && a->op != UTURN_OP_RESTORE)
            continue;
        const uint64_t k = uturn__run_level(run, a->slot);
        if (k == 0)
            continue;
        if (a->op == UTURN_OP_STORE)
            break;
        uint64_t buf = 0;
        if (!level_of(run, k)->overlapped ||
            uturn__io_find(io, a->slot, a->step, &buf))
            continue;
        if (!uturn__io_spare(io, &buf) || queue_read(run, k, a, buf) != UTURN_OK)
            break;
    }
    io->scan = i;
}

uturn_status_t uturn__levels_drain(struct uturn__run *run)
{
    if (!run->io.started)
        return UTURN_OK;
    double waited = 0;
    const uturn_status_t st = uturn__io_drain(&run->io, &waited);
    level_of(run, 1)->wait_seconds += waited;
    return st == UTURN_OK ? UTURN_OK : io_failed(run);
}
