/*
 * The threads that fill one of dp's tables. A pool lives inside one call
 * (created and joined by uturn__dp_pool_run, so nothing outlives
 * uturn_plan_create and nothing is process-wide: unlike an OpenMP runtime,
 * it mixes with forking test runners and with MPI+OpenMP host codes).
 *
 * Workers take items (tiles) in order, or split rows by the number of
 * workers, and hand results to each other through progress slots: a slot
 * only ever decreases, and a waiter sleeps until the slot is at most the
 * value it needs. Tasks start only once every thread that could be made
 * is made (a start gate), so the worker count they see is final. Which
 * worker fills which cells never changes a cell (each cell is the minimum
 * of the same candidates in the same order), so a table is the same bit
 * for bit for any number of threads.
 */
#include "dp.h"

#include <pthread.h>
#include <stdatomic.h>

struct uturn__dp_pool {
    pthread_mutex_t lock;
    pthread_cond_t moved; /* a progress slot went down */
    _Atomic uint64_t *progress;
    uint64_t slots;
    uint64_t next_item;
    uint64_t workers; /* final once the gate opens */
    bool open;        /* the start gate */
    bool shared; /* more than one worker may run (fixed before any starts) */
    uturn__dp_task *task;
    void *ctx;
};

struct start {
    struct uturn__dp_pool *pool;
    uint64_t worker;
};

static void *thread_main(void *arg)
{
    const struct start *s    = arg;
    struct uturn__dp_pool *p = s->pool;
    pthread_mutex_lock(&p->lock);
    while (!p->open)
        pthread_cond_wait(&p->moved, &p->lock);
    pthread_mutex_unlock(&p->lock);
    p->task(p, p->ctx, s->worker);
    return NULL;
}

uint64_t uturn__dp_pool_workers(const struct uturn__dp_pool *p)
{
    return p->workers;
}

void uturn__dp_progress_wait(struct uturn__dp_pool *p, uint64_t slot,
                             uint64_t value)
{
    if (atomic_load_explicit(&p->progress[slot], memory_order_acquire) <= value)
        return;
    pthread_mutex_lock(&p->lock);
    while (atomic_load_explicit(&p->progress[slot], memory_order_acquire) >
           value)
        pthread_cond_wait(&p->moved, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void uturn__dp_progress_publish(struct uturn__dp_pool *p, uint64_t slot,
                                uint64_t value)
{
    if (!p->shared) {
        atomic_store_explicit(&p->progress[slot], value, memory_order_release);
        return; /* nobody to wake */
    }
    /* Under the lock, so that a waiter that has just seen the old value
     * is already waiting when the broadcast comes. */
    pthread_mutex_lock(&p->lock);
    atomic_store_explicit(&p->progress[slot], value, memory_order_release);
    pthread_cond_broadcast(&p->moved);
    pthread_mutex_unlock(&p->lock);
}

bool uturn__dp_pool_take(struct uturn__dp_pool *p, uint64_t count,
                         uint64_t *item)
{
    pthread_mutex_lock(&p->lock);
    const bool left = p->next_item < count;
    if (left)
        *item = p->next_item++;
    pthread_mutex_unlock(&p->lock);
    return left;
}

/* Start workers 1 .. threads-1; the ones that cannot be created are left
 * out (the work is shared by the others). */
static uint64_t spawn(struct uturn__dp_pool *p, uint64_t threads,
                      pthread_t *ids, struct start *starts)
{
    uint64_t made = 1;
    for (uint64_t w = 1; w < threads; w++) {
        starts[made] = (struct start){p, made};
        if (pthread_create(&ids[made], NULL, thread_main, &starts[made]) != 0)
            break;
        made++;
    }
    return made;
}

static uturn_status_t run(struct uturn__dp_pool *p, uint64_t threads,
                          const uturn_allocator_t *alloc)
{
    pthread_t *ids      = uturn__alloc(alloc, (size_t)threads * sizeof *ids);
    struct start *start = uturn__alloc(alloc, (size_t)threads * sizeof *start);
    uturn_status_t status = UTURN_E_NOMEM;
    if (ids != NULL && start != NULL) {
        p->shared           = threads > 1;
        const uint64_t made = spawn(p, threads, ids, start);
        pthread_mutex_lock(&p->lock);
        p->workers = made;
        p->open    = true;
        pthread_cond_broadcast(&p->moved);
        pthread_mutex_unlock(&p->lock);
        p->task(p, p->ctx, 0);
        for (uint64_t w = 1; w < made; w++)
            pthread_join(ids[w], NULL);
        status = UTURN_OK;
    }
    uturn__free(alloc, ids, (size_t)threads * sizeof *ids);
    uturn__free(alloc, start, (size_t)threads * sizeof *start);
    return status;
}

uturn_status_t uturn__dp_pool_run(uint64_t threads, uint64_t slots,
                                  uturn__dp_task *task, void *ctx,
                                  const uturn_allocator_t *alloc)
{
    struct uturn__dp_pool p = {.slots = slots, .task = task, .ctx = ctx};
    p.progress = uturn__alloc(alloc, (size_t)slots * sizeof *p.progress);
    if (p.progress == NULL)
        return UTURN_E_NOMEM;
    for (uint64_t i = 0; i < slots; i++)
        atomic_init(&p.progress[i], UINT64_MAX);
    uturn_status_t status = UTURN_E_NOMEM;
    if (pthread_mutex_init(&p.lock, NULL) == 0) {
        if (pthread_cond_init(&p.moved, NULL) == 0) {
            status = run(&p, threads > 0 ? threads : 1, alloc);
            pthread_cond_destroy(&p.moved);
        }
        pthread_mutex_destroy(&p.lock);
    }
    uturn__free(alloc, p.progress, (size_t)slots * sizeof *p.progress);
    return status;
}
