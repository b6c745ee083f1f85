/*
 * Overlapped I/O for file levels: one thread per run performs every read,
 * write and drop of the overlapped levels, one at a time in the order the
 * run asked for them. Order is the whole of the safety argument: a read
 * queued after the write of the same slot sees that write, and a slot the
 * plan frees and stores again is written after every earlier job on it has
 * finished, so a slot is free only when its write or read has.
 *
 * States in flight sit in buffers reserved in the memory region (after
 * level 0's slots, counted in the budget). A store copies the state into a
 * free buffer and goes on while the write completes (write-behind); the
 * run looks ahead in its batch of actions and reads the next restores
 * into free buffers before they are due (read-ahead), keeping one buffer
 * for stores so a store never waits for a read that waits for it.
 *
 * The first failed job stops the queue: later jobs are skipped, and the
 * run's next call into this file (or its end) returns the failure, with
 * the step whose write or read failed.
 */
#include "executor.h"

#include <string.h>

static uturn_status_t perform(struct uturn__io *io,
                              const struct uturn__io_job *j)
{
    struct uturn__storage *st = &io->levels[j->level - 1].storage;
    switch (j->op) {
    case UTURN__IO_WRITE:
        return st->ops->write(st, j->id, j->offset, io->bufs[j->buf].addr,
                              j->bytes, j->step);
    case UTURN__IO_READ:
        return st->ops->read(st, j->id, j->offset, io->bufs[j->buf].addr,
                             j->bytes, j->step);
    case UTURN__IO_DROP:
        st->ops->drop(st, j->id);
        return UTURN_OK;
    }
    return UTURN_E_IO;
}

/* A job is done (under the lock): its buffer changes hands. */
static void finish(struct uturn__io *io, const struct uturn__io_job *j,
                   uturn_status_t status, bool skipped)
{
    if (status != UTURN_OK && !skipped && io->failed == UTURN_OK) {
        io->failed       = status;
        io->failed_level = j->level;
        io->failed_step  = j->step;
    }
    if (j->op == UTURN__IO_WRITE)
        io->bufs[j->buf].state = UTURN__BUF_FREE;
    if (j->op == UTURN__IO_READ) {
        io->bufs[j->buf].state  = UTURN__BUF_READY;
        io->bufs[j->buf].status = status;
    }
}

static void *worker(void *arg)
{
    struct uturn__io *io = arg;
    pthread_mutex_lock(&io->mu);
    for (;;) {
        while (io->head == io->tail && !io->stop)
            pthread_cond_wait(&io->work, &io->mu);
        if (io->head == io->tail)
            break;
        const struct uturn__io_job j = io->jobs[io->head % UTURN__IO_JOBS];
        const bool skip              = io->failed != UTURN_OK || io->stop;
        pthread_mutex_unlock(&io->mu);
        const uturn_status_t status = skip ? UTURN_E_IO : perform(io, &j);
        pthread_mutex_lock(&io->mu);
        io->head += 1;
        finish(io, &j, status, skip);
        pthread_cond_broadcast(&io->done);
    }
    pthread_mutex_unlock(&io->mu);
    return NULL;
}

uturn_status_t uturn__io_start(struct uturn__io *io,
                               struct uturn__level_store *levels,
                               unsigned char *buffers, uint64_t count,
                               uint64_t stride)
{
    memset(io, 0, sizeof *io);
    io->levels = levels;
    io->nbufs  = count;
    for (uint64_t b = 0; b < count; b++)
        io->bufs[b].addr = buffers + b * stride;
    if (pthread_mutex_init(&io->mu, NULL) != 0)
        return UTURN_E_NOMEM;
    if (pthread_cond_init(&io->work, NULL) != 0) {
        pthread_mutex_destroy(&io->mu);
        return UTURN_E_NOMEM;
    }
    if (pthread_cond_init(&io->done, NULL) != 0) {
        pthread_cond_destroy(&io->work);
        pthread_mutex_destroy(&io->mu);
        return UTURN_E_NOMEM;
    }
    if (pthread_create(&io->thread, NULL, worker, io) != 0) {
        pthread_cond_destroy(&io->done);
        pthread_cond_destroy(&io->work);
        pthread_mutex_destroy(&io->mu);
        return UTURN_E_NOMEM;
    }
    io->started = true;
    return UTURN_OK;
}

void uturn__io_stop(struct uturn__io *io)
{
    if (!io->started)
        return;
    pthread_mutex_lock(&io->mu);
    io->stop = true;
    pthread_cond_signal(&io->work);
    pthread_mutex_unlock(&io->mu);
    pthread_join(io->thread, NULL);
    pthread_cond_destroy(&io->done);
    pthread_cond_destroy(&io->work);
    pthread_mutex_destroy(&io->mu);
    io->started = false;
}

/* Wait for the worker (under the lock), the time charged to level. */
static void wait_done(struct uturn__io *io, double *waited)
{
    const double start = uturn__now();
    pthread_cond_wait(&io->done, &io->mu);
    *waited += uturn__now() - start;
}

uturn_status_t uturn__io_acquire(struct uturn__io *io, double *waited,
                                 uint64_t *buf)
{
    pthread_mutex_lock(&io->mu);
    for (;;) {
        if (io->failed != UTURN_OK)
            break;
        uint64_t b = 0;
        while (b < io->nbufs && io->bufs[b].state != UTURN__BUF_FREE)
            b++;
        if (b < io->nbufs) {
            io->bufs[b].state = UTURN__BUF_FILLING;
            *buf              = b;
            break;
        }
        wait_done(io, waited);
    }
    const uturn_status_t failed = io->failed;
    pthread_mutex_unlock(&io->mu);
    return failed;
}

void uturn__io_release(struct uturn__io *io, uint64_t buf)
{
    pthread_mutex_lock(&io->mu);
    if (io->bufs[buf].state == UTURN__BUF_READY)
        io->prefetched -= 1;
    io->bufs[buf].state = UTURN__BUF_FREE;
    pthread_mutex_unlock(&io->mu);
}

/* Queue a job (under the lock), waiting while the queue is full. */
static void push(struct uturn__io *io, const struct uturn__io_job *j,
                 double *waited)
{
    while (io->tail - io->head == UTURN__IO_JOBS && io->failed == UTURN_OK)
        wait_done(io, waited);
    io->jobs[io->tail % UTURN__IO_JOBS] = *j;
    io->tail += 1;
    pthread_cond_signal(&io->work);
}

uturn_status_t uturn__io_submit(struct uturn__io *io,
                                const struct uturn__io_job *j,
                                uint64_t slot, double *waited)
{
    pthread_mutex_lock(&io->mu);
    if (j->op == UTURN__IO_WRITE)
        io->bufs[j->buf].state = UTURN__BUF_WRITING;
    if (j->op == UTURN__IO_READ) {
        io->bufs[j->buf].state = UTURN__BUF_READING;
        io->bufs[j->buf].slot  = slot;
        io->bufs[j->buf].step  = j->step;
        io->prefetched += 1;
    }
    push(io, j, waited);
    const uturn_status_t failed = io->failed;
    pthread_mutex_unlock(&io->mu);
    return failed;
}

bool uturn__io_find(struct uturn__io *io, uint64_t slot, uint64_t step,
                    uint64_t *buf)
{
    bool found = false;
    pthread_mutex_lock(&io->mu);
    for (uint64_t b = 0; b < io->nbufs && !found; b++) {
        const struct uturn__io_buf *x = &io->bufs[b];
        found = (x->state == UTURN__BUF_READING ||
                 x->state == UTURN__BUF_READY) &&
                x->slot == slot && x->step == step;
        *buf = found ? b : *buf;
    }
    pthread_mutex_unlock(&io->mu);
    return found;
}

uturn_status_t uturn__io_wait_read(struct uturn__io *io, uint64_t buf,
                                   double *waited)
{
    pthread_mutex_lock(&io->mu);
    while (io->bufs[buf].state == UTURN__BUF_READING)
        wait_done(io, waited);
    const uturn_status_t status = io->bufs[buf].status;
    pthread_mutex_unlock(&io->mu);
    return status;
}

uturn_status_t uturn__io_drain(struct uturn__io *io, double *waited)
{
    pthread_mutex_lock(&io->mu);
    while (io->head != io->tail)
        wait_done(io, waited);
    const uturn_status_t failed = io->failed;
    pthread_mutex_unlock(&io->mu);
    return failed;
}

/* A free buffer for a read-ahead, without waiting, keeping one for
 * stores; false when there is none. */
bool uturn__io_spare(struct uturn__io *io, uint64_t *buf)
{
    bool found = false;
    pthread_mutex_lock(&io->mu);
    if (io->failed == UTURN_OK && io->prefetched + 1 < io->nbufs) {
        for (uint64_t b = 0; b < io->nbufs && !found; b++) {
            found = io->bufs[b].state == UTURN__BUF_FREE;
            *buf  = found ? b : *buf;
        }
        if (found)
            io->bufs[*buf].state = UTURN__BUF_FILLING;
    }
    pthread_mutex_unlock(&io->mu);
    return found;
}
