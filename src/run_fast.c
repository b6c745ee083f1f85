/*
 * The executor's fast loop, for the common run: uniform slots at fixed
 * strides in addressable memory, one contiguous state copied with memcpy,
 * the plan's slot indices used as they are, no verify mode. Everything an
 * action needs sits in locals the compiler keeps in registers, and the
 * action switch is inline in the batch loop: with 64-byte states an
 * action costs a few nanoseconds, so a call and a register spill per
 * action would be most of it. Counts go back to the run when the loop
 * ends or fails; the peak bytes follow from the peak slots (every slot
 * counts as the plan's slot_bytes).
 */
#include "executor.h"

#include <string.h>

/* The action code is inlined into the batch loop (see above). */
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

bool uturn__run_fast_applies(const struct uturn__run *run)
{
    return !run->sized && run->contiguous && run->hashes == NULL &&
           !run->online && run->record_bytes == 0 && run->levels <= 1 &&
           run->ex->space.remap == UTURN__REMAP_NONE;
}

/* The loop's working set, in locals while it runs. */
struct fast {
    unsigned char *base;
    void *state;
    size_t bytes;
    uint64_t stride;
    const uint64_t *costs;
    int (*forward)(void *, uint64_t);
    int (*adjoint)(void *, uint64_t);
    void *user;
    uint64_t forward_steps, stores, restores, frees, reversed, peak;
    uint64_t work_done, work_next, index;
};

static void load_fast(const struct uturn__run *run, struct fast *f)
{
    *f = (struct fast){
        .base      = run->base,
        .state     = run->model.state,
        .bytes     = (size_t)run->state_bytes,
        .stride    = run->stride,
        .costs     = run->plan->step_costs,
        .forward   = run->model.forward,
        .adjoint   = run->model.adjoint,
        .user      = run->model.user,
        .work_done = run->work_done,
        .work_next = run->work_next,
        .index     = run->index,
    };
}

static void save_fast(struct uturn__run *run, const struct fast *f)
{
    uturn_stats_t *s  = &run->seen;
    s->forward_steps  = f->forward_steps;
    s->stores         = f->stores;
    s->restores       = f->restores;
    s->frees          = f->frees;
    s->reverse_steps  = f->reversed;
    s->peak_slots     = f->peak;
    s->peak_bytes     = f->peak * run->plan->stats.slot_bytes;
    run->work_done    = f->work_done;
    run->index        = f->index;
}

/* The old progress callback (every progress_every reverse steps). */
static uturn_status_t old_progress(struct uturn__run *run, const struct fast *f,
                                   uint64_t step)
{
    const uint64_t every = run->options.progress_every != 0
                               ? run->options.progress_every
                               : run->steps >= UINT64_MAX - 99
                                     ? 1
                                     : (run->steps + 99) / 100;
    if (f->reversed % every != 0 && step != 0)
        return UTURN_OK;
    const int stop =
        run->options.progress(run->options.progress_user, f->reversed,
                              uturn__run_reverse_total(run));
    return stop == 0 ? UTURN_OK
                     : uturn__run_callback_failed(run, "progress", step, stop);
}

/* A callback or a progress report asked to stop: the counts so far. */
static uturn_status_t stop(struct uturn__run *run, const struct fast *f,
                           const char *which, uint64_t step, int rc)
{
    save_fast(run, f);
    return rc != 0 ? uturn__run_callback_failed(run, which, step, rc)
                   : UTURN_OK;
}

/* Progress by work, when its threshold is met. */
static uturn_status_t work_progress(struct uturn__run *run, struct fast *f)
{
    save_fast(run, f);
    const uturn_status_t st = uturn__run_progress(run);
    f->work_next            = run->work_next;
    return st;
}

HOT uturn_status_t fast_advance(struct uturn__run *run,
                                          struct fast *f,
                                          const uturn_action_t *a)
{
    for (uint64_t i = a->step; i < a->step_end; i++) {
        const int rc = f->forward(f->user, i);
        if (rc != 0)
            return stop(run, f, "forward", i, rc);
        f->forward_steps += 1;
        f->work_done += f->costs != NULL ? f->costs[i] : 1;
        if (f->work_done >= f->work_next) {
            const uturn_status_t st = work_progress(run, f);
            if (st != UTURN_OK)
                return st;
        }
    }
    return UTURN_OK;
}

HOT uturn_status_t fast_reverse(struct uturn__run *run,
                                          struct fast *f,
                                          const uturn_action_t *a)
{
    const int rc = f->adjoint(f->user, a->step);
    if (rc != 0)
        return stop(run, f, "adjoint", a->step, rc);
    f->reversed += 1;
    f->work_done += 1;
    uturn_status_t st = UTURN_OK;
    if (f->work_done >= f->work_next)
        st = work_progress(run, f);
    if (st == UTURN_OK && run->options.progress != NULL) {
        save_fast(run, f);
        st = old_progress(run, f, a->step);
    }
    return st;
}

/* One action of the fast loop. */
HOT uturn_status_t fast_one(struct uturn__run *run, struct fast *f,
                                      const uturn_action_t *a)
{
    switch (a->op) {
    case UTURN_OP_ADVANCE:
        return fast_advance(run, f, a);
    case UTURN_OP_STORE: {
        memcpy(f->base + a->slot * f->stride, f->state, f->bytes);
        f->stores += 1;
        const uint64_t held = f->stores - f->frees;
        f->peak             = held > f->peak ? held : f->peak;
        return UTURN_OK;
    }
    case UTURN_OP_RESTORE:
        memcpy(f->state, f->base + a->slot * f->stride, f->bytes);
        f->restores += 1;
        return UTURN_OK;
    case UTURN_OP_FREE:
        f->frees += 1;
        return UTURN_OK;
    case UTURN_OP_TURN: {
        const int rc = run->model.turn(f->user);
        return rc == 0 ? UTURN_OK : stop(run, f, "turn", run->steps, rc);
    }
    case UTURN_OP_REVERSE:
        return fast_reverse(run, f, a);
    case UTURN_OP_PERSIST:
        return UTURN_OK;
    }
    save_fast(run, f);
    return uturn__fail_at(run->error, UTURN_E_INVALID_PLAN, f->index, 0,
                          UTURN_NONE, "unknown op %d (action %llu)",
                          (int)a->op, (unsigned long long)f->index);
}

/* One batch; a sampled action is timed around the same code. */
static uturn_status_t fast_batch(struct uturn__run *run, struct fast *f,
                                 const uturn_action_t *batch, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        uturn_status_t st = UTURN_OK;
        if (--run->countdown != 0) {
            st = fast_one(run, f, &batch[i]);
        } else {
            const double t0 = uturn__now();
            st              = fast_one(run, f, &batch[i]);
            uturn__run_sampled(run, batch[i].op, uturn__now() - t0);
        }
        if (st != UTURN_OK)
            return st;
        f->index += 1;
    }
    return UTURN_OK;
}

uturn_status_t uturn__run_fast(struct uturn__run *run)
{
    const struct uturn__planner *g = run->plan->planner;
    uturn_action_t *batch          = run->ex->batch;
    struct fast f;
    load_fast(run, &f);
    size_t count = 0;
    while ((count = g->fill(run->ex->gen, batch, UTURN__BATCH)) != 0) {
        const uturn_status_t st = fast_batch(run, &f, batch, count);
        if (st != UTURN_OK) {
            run->index = f.index; /* the failing action's index */
            return st;
        }
    }
    save_fast(run, &f);
    return UTURN_OK;
}
