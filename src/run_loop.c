/*
 * The executor's action loop. Actions come from the plan's generator in
 * batches straight into the executor's kept buffer (no cursor and no
 * allocation per run). Slots live in the storage region: a uniform slot at
 * id * stride, a sized one where the slot space placed it.
 *
 * Time is sampled: when actions are short, one action at a random gap of
 * 1..2*SAMPLE_PERIOD-1 (mean SAMPLE_PERIOD) is timed and stands for the
 * gap, since a clock read costs about as much as a short action. The gap
 * is random because plans are periodic: a fixed even period would, on
 * store-all's store/advance/store/advance, only ever time advances. Once
 * timed actions take longer than LONG_ACTION on average, every action is
 * timed.
 */
#include "executor.h"

#define XXH_INLINE_ALL
#include <string.h>
#include <xxhash.h>

#define SAMPLE_PERIOD 256
#define LONG_ACTION   2e-6

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static uturn_status_t
failed(struct uturn__run *run, uturn_status_t status, uint64_t step,
       const char *fmt, ...)
{
    char what[160];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    run->report.failed_action = run->index;
    run->report.failed_step   = step;
    return uturn__fail_at(run->error, status, run->index, 0, step,
                          "%s (action %llu)", what,
                          (unsigned long long)run->index);
}

uturn_status_t uturn__run_callback_failed(struct uturn__run *run,
                                          const char *which, uint64_t step,
                                          int rc)
{
    return failed(run, UTURN_E_CALLBACK, step,
                  "the %s callback returned %d at step %llu", which, rc,
                  (unsigned long long)step);
}

/* Verify mode: the first hash of x_i is kept, later ones must equal it. */
static uturn_status_t check_hash(struct uturn__run *run, uint64_t i,
                                 const void *bytes, uint64_t len)
{
    uint64_t h = XXH3_64bits(bytes, (size_t)len);
    h          = h != 0 ? h : 1; /* 0 means "not seen yet" */
    if (run->hashes[i] == 0) {
        run->hashes[i] = h;
        return UTURN_OK;
    }
    if (run->hashes[i] == h)
        return UTURN_OK;
    return failed(run, UTURN_E_NONDETERMINISTIC, i,
                  "x_%llu recomputed differs from its first computation "
                  "(the model is not deterministic)",
                  (unsigned long long)i);
}

/* The whole run's progress: work done out of the work predicted. */
uturn_status_t uturn__run_progress(struct uturn__run *run)
{
    run->work_next           = run->work_done + run->work_every;
    const uturn_progress_t p = {
        .size          = sizeof p,
        .done          = run->work_done,
        .total         = run->work_total,
        .forward_steps = run->seen.forward_steps,
        .reverse_steps = run->seen.reverse_steps,
        .steps         = run->steps,
        .seconds       = uturn__now() - run->started,
    };
    const int rc = run->options.on_progress(run->options.on_progress_user, &p);
    return rc == 0 ? UTURN_OK
                   : uturn__run_callback_failed(
                         run, "on_progress",
                         run->seen.reverse_steps != 0
                             ? run->steps - run->seen.reverse_steps
                             : run->seen.forward_steps,
                         rc);
}

static uturn_status_t advance(struct uturn__run *run, const uturn_action_t *a)
{
    const uturn_model_t *m = &run->model;
    const bool hash_live   = run->hashes != NULL && run->contiguous;
    const uint64_t *costs  = run->plan->step_costs;
    for (uint64_t i = a->step; i < a->step_end; i++) {
        if (run->online && run->options.verify) {
            const uturn_status_t st = uturn__run_reserve_steps(run, i + 1);
            if (st != UTURN_OK)
                return st;
        }
        const int rc = uturn__run_forward(run, i);
        if (rc != 0 && run->record_bytes != 0 && run->online &&
            i >= run->frontier)
            return uturn__fail(run->error, UTURN_E_NOMEM,
                               "out of memory for the record of step %llu",
                               (unsigned long long)i);
        if (rc != 0)
            return uturn__run_callback_failed(run, "forward", i, rc);
        run->seen.forward_steps += 1;
        run->work_done += costs != NULL ? costs[i] : 1;
        if (hash_live) {
            const uturn_status_t st =
                check_hash(run, i + 1, m->state, m->state_bytes);
            if (st != UTURN_OK)
                return st;
        }
        if (run->work_done >= run->work_next &&
            run->options.on_progress != NULL) {
            const uturn_status_t st = uturn__run_progress(run);
            if (st != UTURN_OK)
                return st;
        }
        if (run->durable != NULL && i + 1 < a->step_end) {
            run->live = i + 1;
            /* into the action as the plan has it: a resumed advance
             * starts where the point was, `shifted` steps in */
            const uint64_t shifted = run->index == run->durable->shifted_action
                                         ? run->durable->shifted_by
                                         : 0;
            const uturn_status_t st =
                uturn__durable_check(run, i + 1 - a->step + shifted);
            if (st != UTURN_OK)
                return st;
        }
    }
    return UTURN_OK;
}

uint64_t uturn__run_data_bytes(const struct uturn__run *run, uint64_t step)
{
    const uturn_model_t *m = &run->model;
    if (m->state_size != NULL && !run->contiguous)
        return m->state_size(m->user, step);
    return run->sizes != NULL ? run->sizes[step] : run->state_bytes;
}

/* A uniform slot holds state_bytes: a model whose state_size says more
 * for x_step is refused before a byte is written or read (sized runs
 * place each state by its own size instead). */
static uturn_status_t fits_slot(struct uturn__run *run, uint64_t step,
                                uint64_t bytes)
{
    if (bytes == 0 && run->model.state_size != NULL) /* save has nothing */
        return failed(run, UTURN_E_INVALID_ARG, step,
                      "the state_size callback gave 0 bytes for x_%llu (a "
                      "state is at least 1 byte)",
                      (unsigned long long)step);
    if (run->sized || bytes <= run->state_bytes)
        return UTURN_OK;
    return failed(run, UTURN_E_INVALID_ARG, step,
                  "the model's state_size gives x_%llu %llu bytes, more "
                  "than the %llu bytes (state_bytes) a slot of this plan "
                  "holds",
                  (unsigned long long)step, (unsigned long long)bytes,
                  (unsigned long long)run->state_bytes);
}

/* A sized slot's block: the stride of the larger of the plan's size and
 * the model's (the model may not exceed the plan). */
static uturn_status_t place_sized(struct uturn__run *run, uint64_t id,
                                  uint64_t step, uint64_t bytes);

static uturn_status_t slot_for_store(struct uturn__run *run,
                                     const uturn_action_t *a, uint64_t bytes,
                                     unsigned char **addr)
{
    uturn_executor_t *ex = run->ex;
    uint64_t id          = 0;
    if (!uturn__space_take_id(&ex->space, &ex->alloc, a->slot, &id))
        return failed(run, UTURN_E_INVALID_PLAN, a->step,
                      "the plan holds more slots than its peak of %llu",
                      (unsigned long long)run->plan->stats.peak_slots);
    if (!run->sized) {
        *addr = run->base + id * run->stride;
        return UTURN_OK;
    }
    const uturn_status_t st = place_sized(run, id, a->step, bytes);
    *addr                   = run->base + ex->space.offset[id];
    return st;
}

/* Moves a block down during compaction (memory: memmove). */
static void move_bytes(void *context, uint64_t to, uint64_t from,
                       uint64_t bytes)
{
    unsigned char *base = context;
    memmove(base + to, base + from, (size_t)bytes);
}

static uturn_status_t place_sized(struct uturn__run *run, uint64_t id,
                                  uint64_t step, uint64_t bytes)
{
    uturn_executor_t *ex = run->ex;
    const uint64_t room  = run->sizes != NULL ? run->sizes[step] : bytes;
    uint64_t stride      = 0;
    if (bytes > room)
        return failed(run, UTURN_E_INVALID_ARG, step,
                      "the model's x_%llu has %llu bytes, more than the %llu "
                      "the plan counts",
                      (unsigned long long)step, (unsigned long long)bytes,
                      (unsigned long long)room);
    if (!uturn__stride(room, &stride) ||
        !uturn__space_place(&ex->space, &ex->alloc, id, stride, move_bytes,
                            run->base))
        return failed(run, UTURN_E_NOMEM, step,
                      "no room for x_%llu (%llu bytes) in %llu bytes of "
                      "slots",
                      (unsigned long long)step, (unsigned long long)stride,
                      (unsigned long long)ex->storage.bytes);
    ex->space.step[id] = step;
    return UTURN_OK;
}

static void count_store(struct uturn__run *run, uint64_t step)
{
    uturn_stats_t *s = &run->seen;
    s->stores += 1;
    run->held_bytes += run->sizes != NULL ? run->sizes[step]
                       : run->sized       ? uturn__run_data_bytes(run, step)
                                          : run->plan->stats.slot_bytes;
    const uint64_t held = s->stores - s->frees;
    s->peak_slots       = held > s->peak_slots ? held : s->peak_slots;
    s->peak_bytes =
        run->held_bytes > s->peak_bytes ? run->held_bytes : s->peak_bytes;
}

/* A store into level k >= 1: the state copied or saved into a buffer
 * (or written from the state itself), then put. */
static uturn_status_t store_level(struct uturn__run *run,
                                  const uturn_action_t *a, uint64_t k)
{
    const uturn_model_t *m = &run->model;
    const uint64_t bytes   = uturn__run_data_bytes(run, a->step);
    uint64_t buf           = 0;
    unsigned char *addr    = NULL;
    uturn_status_t st      = fits_slot(run, a->step, bytes);
    if (st == UTURN_OK)
        st = uturn__level_buffer(run, k, &buf, &addr);
    if (st != UTURN_OK)
        return st;
    count_store(run, a->step);
    if (addr != NULL && run->contiguous)
        memcpy(addr, m->state, (size_t)bytes);
    if (!run->contiguous) {
        const int rc = m->save(m->user, a->step, addr, bytes);
        st           = rc == 0 ? UTURN_OK
                               : uturn__run_callback_failed(run, "save", a->step, rc);
        if (st == UTURN_OK && run->hashes != NULL)
            st = check_hash(run, a->step, addr, bytes);
    }
    if (st != UTURN_OK) {
        uturn__level_release(run, buf);
        return st;
    }
    return uturn__level_put(run, k, a, buf, addr != NULL ? addr : m->state,
                            bytes);
}

static uturn_status_t restore_level(struct uturn__run *run,
                                    const uturn_action_t *a, uint64_t k)
{
    const uturn_model_t *m = &run->model;
    const uint64_t bytes   = uturn__run_data_bytes(run, a->step);
    uint64_t buf           = 0;
    const void *src        = NULL;
    uturn_status_t st      = fits_slot(run, a->step, bytes);
    if (st != UTURN_OK)
        return st;
    run->seen.restores += 1;
    st = uturn__level_get(run, k, a, bytes, &buf, &src);
    if (st != UTURN_OK)
        return st;
    int rc = 0;
    if (run->contiguous && src != m->state)
        memcpy(m->state, src, (size_t)bytes);
    if (!run->contiguous)
        rc = m->load(m->user, a->step, src, bytes);
    uturn__level_release(run, buf);
    return rc == 0 ? UTURN_OK
                   : uturn__run_callback_failed(run, "load", a->step, rc);
}

static uturn_status_t store(struct uturn__run *run, const uturn_action_t *a)
{
    if (run->levels > 1) {
        const uint64_t k = uturn__run_level(run, a->slot);
        if (k != 0)
            return store_level(run, a, k);
    }
    const uturn_model_t *m = &run->model;
    const uint64_t bytes   = uturn__run_data_bytes(run, a->step);
    unsigned char *addr    = NULL;
    uturn_status_t st      = fits_slot(run, a->step, bytes);
    if (st == UTURN_OK)
        st = slot_for_store(run, a, bytes, &addr);
    if (st != UTURN_OK)
        return st;
    count_store(run, a->step);
    run->memory_held += 1;
    run->memory_peak = run->memory_held > run->memory_peak ? run->memory_held
                                                           : run->memory_peak;
    if (run->contiguous) {
        memcpy(addr, m->state, (size_t)bytes);
        return UTURN_OK;
    }
    const int rc = m->save(m->user, a->step, addr, bytes);
    if (rc != 0)
        return uturn__run_callback_failed(run, "save", a->step, rc);
    return run->hashes != NULL ? check_hash(run, a->step, addr, bytes)
                               : UTURN_OK;
}

unsigned char *uturn__run_slot_addr(const struct uturn__run *run, uint64_t slot)
{
    const struct uturn__space *sp = &run->ex->space;
    const uint64_t id             = uturn__space_id(sp, slot);
    return run->base + (run->sized ? sp->offset[id] : id * run->stride);
}

static uturn_status_t restore(struct uturn__run *run, const uturn_action_t *a)
{
    if (run->levels > 1) {
        const uint64_t k = uturn__run_level(run, a->slot);
        if (k != 0)
            return restore_level(run, a, k);
    }
    const uturn_model_t *m    = &run->model;
    const uint64_t bytes      = uturn__run_data_bytes(run, a->step);
    const unsigned char *addr = uturn__run_slot_addr(run, a->slot);
    const uturn_status_t st   = fits_slot(run, a->step, bytes);
    if (st != UTURN_OK)
        return st;
    run->seen.restores += 1;
    if (run->contiguous) {
        memcpy(m->state, addr, (size_t)bytes);
        return UTURN_OK;
    }
    const int rc = m->load(m->user, a->step, addr, bytes);
    return rc == 0 ? UTURN_OK
                   : uturn__run_callback_failed(run, "load", a->step, rc);
}

static uturn_status_t free_level(struct uturn__run *run,
                                 const uturn_action_t *a, uint64_t k)
{
    run->held_bytes -= run->plan->stats.slot_bytes;
    run->seen.frees += 1;
    return uturn__level_free(run, k, a);
}

static void free_slot(struct uturn__run *run, const uturn_action_t *a)
{
    struct uturn__space *sp = &run->ex->space;
    const uint64_t id       = uturn__space_id(sp, a->slot);
    if (run->sized) {
        const uint64_t step = sp->step[id];
        run->held_bytes -= run->sizes != NULL
                               ? run->sizes[step]
                               : uturn__run_data_bytes(run, step);
        uturn__space_unplace(sp, id);
    } else {
        run->held_bytes -= run->plan->stats.slot_bytes;
    }
    uturn__space_drop_id(sp, a->slot, id);
    run->seen.frees += 1;
    run->memory_held -= 1;
}

static uturn_status_t reverse(struct uturn__run *run, const uturn_action_t *a)
{
    const uturn_model_t *m = &run->model;
    const int rc           = m->adjoint(m->user, a->step);
    if (rc != 0)
        return uturn__run_callback_failed(run, "adjoint", a->step, rc);
    const uint64_t done = ++run->seen.reverse_steps;
    run->work_done += 1;
    if (run->work_done >= run->work_next && run->options.on_progress != NULL) {
        const uturn_status_t st = uturn__run_progress(run);
        if (st != UTURN_OK)
            return st;
    }
    const uint64_t every =
        run->options.progress_every != 0 ? run->options.progress_every
        : run->steps >= UINT64_MAX - 99  ? 1 /* not known yet (online) */
                                         : (run->steps + 99) / 100;
    if (run->options.progress == NULL || (done % every != 0 && a->step != 0))
        return UTURN_OK;
    const int stop = run->options.progress(run->options.progress_user, done,
                                           uturn__run_reverse_total(run));
    return stop == 0
               ? UTURN_OK
               : uturn__run_callback_failed(run, "progress", a->step, stop);
}

/* A durable run's view of an action: the live state and the slots. */
static uturn_status_t note_durable(struct uturn__run *run,
                                   const uturn_action_t *a)
{
    switch (a->op) {
    case UTURN_OP_ADVANCE:
        run->live = a->step_end;
        return UTURN_OK;
    case UTURN_OP_RESTORE:
        run->live = a->step;
        return UTURN_OK;
    case UTURN_OP_REVERSE:
        run->live = UTURN_NONE;
        return UTURN_OK;
    case UTURN_OP_STORE:
        return uturn__durable_stored(run, a);
    case UTURN_OP_FREE:
        uturn__durable_freed(run, a->slot);
        return UTURN_OK;
    default:
        return UTURN_OK;
    }
}

static uturn_status_t perform_op(struct uturn__run *run,
                                 const uturn_action_t *a);

/* One action, and what a durable run keeps of it. */
static uturn_status_t perform(struct uturn__run *run, const uturn_action_t *a)
{
    const uturn_status_t st = perform_op(run, a);
    return st == UTURN_OK && run->durable != NULL ? note_durable(run, a) : st;
}

uturn_status_t uturn__run_perform(struct uturn__run *run,
                                  const uturn_action_t *a)
{
    return perform(run, a);
}

static uturn_status_t perform_op(struct uturn__run *run,
                                 const uturn_action_t *a)
{
    switch (a->op) {
    case UTURN_OP_ADVANCE:
        return advance(run, a);
    case UTURN_OP_STORE:
        return store(run, a);
    case UTURN_OP_RESTORE:
        return restore(run, a);
    case UTURN_OP_FREE: {
        const uint64_t k = run->levels > 1 ? uturn__run_level(run, a->slot) : 0;
        if (k != 0)
            return free_level(run, a, k);
        free_slot(run, a);
        return UTURN_OK;
    }
    case UTURN_OP_TURN: {
        const int rc = run->model.turn(run->model.user);
        return rc == 0
                   ? UTURN_OK
                   : uturn__run_callback_failed(run, "turn", run->steps, rc);
    }
    case UTURN_OP_REVERSE:
        return reverse(run, a);
    case UTURN_OP_PERSIST:
        run->persisted += 1;
        return UTURN_OK; /* the slot simply stays until its free */
    }
    return failed(run, UTURN_E_INVALID_PLAN, UTURN_NONE, "unknown op %d",
                  (int)a->op);
}

static enum uturn__cost_kind cost_kind(uturn_op_t op)
{
    switch (op) {
    case UTURN_OP_ADVANCE:
        return COST_FORWARD;
    case UTURN_OP_STORE:
    case UTURN_OP_RESTORE:
        return COST_COPY;
    case UTURN_OP_TURN:
    case UTURN_OP_REVERSE:
        return COST_ADJOINT;
    default:
        return COST_NONE;
    }
}

/* xorshift64: a gap in 1 .. 2*SAMPLE_PERIOD-1. */
static uint64_t next_gap(struct uturn__run *run)
{
    uint64_t x = run->random;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    run->random = x;
    return 1 + x % (2 * SAMPLE_PERIOD - 1);
}

void uturn__run_sampled(struct uturn__run *run, uturn_op_t op, double spent)
{
    const enum uturn__cost_kind kind = cost_kind(op);
    if (kind != COST_NONE)
        run->spent[kind] += spent * (double)run->weight;
    /* Decide on a running mean, not on this one action: a gap that
     * depended on the action just timed would bias the estimate when long
     * and short actions alternate (store-all's store/advance). */
    run->mean_spent += (spent - run->mean_spent) / 8.0;
    run->weight    = run->mean_spent > LONG_ACTION ? 1 : next_gap(run);
    run->countdown = run->weight;
}

/* Perform one action and time it (its turn in the sample has come). */
static uturn_status_t timed(struct uturn__run *run, const uturn_action_t *a)
{
    const double start          = uturn__now();
    const uturn_status_t status = perform(run, a);
    uturn__run_sampled(run, a->op, uturn__now() - start);
    return status;
}

/* The generator's state for this plan, in the executor's kept buffer. */
uturn_status_t uturn__run_start_generator(struct uturn__run *run)
{
    uturn_executor_t *ex           = run->ex;
    const struct uturn__planner *g = run->plan->planner;
    size_t bytes                   = 0;
    if (g->state_size(run->plan, &bytes) != UTURN_OK)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "the plan's generator state does not fit");
    if (bytes > ex->gen_bytes) {
        unsigned char *grown = uturn__alloc(&ex->alloc, bytes);
        if (grown == NULL && run->online)
            return uturn__fail(run->error, UTURN_E_NOMEM,
                               "out of memory for %zu bytes of the online "
                               "plan's bookkeeping (about 160 bytes for each "
                               "of its %llu slots, outside the budget): plan "
                               "fewer slots",
                               bytes,
                               (unsigned long long)run->plan->stats.slots);
        if (grown == NULL)
            return uturn__fail(run->error, UTURN_E_NOMEM,
                               "out of memory for %zu bytes of generator "
                               "state",
                               bytes);
        uturn__free(&ex->alloc, ex->gen, ex->gen_bytes);
        ex->gen       = grown;
        ex->gen_bytes = bytes;
    }
    g->start(run->plan, ex->gen);
    return UTURN_OK;
}

/* Work predicted and the progress cadence. */
void uturn__run_start_counters(struct uturn__run *run)
{
    run->countdown  = 1;
    run->weight     = 1;
    run->random     = 0x9e3779b97f4a7c15u;
    run->work_total = run->online ? UTURN_NONE
                                  : run->plan->stats.forward_cost +
                                        uturn__run_reverse_total(run);
    run->work_every = run->options.on_progress_every != 0
                          ? run->options.on_progress_every
                      : run->online ? 1000 /* the total is unknown */
                                    : (run->work_total + 99) / 100;
    /* Without a whole-run progress callback the threshold is never met,
     * so the loops test one comparison and nothing else. */
    run->work_next =
        run->options.on_progress != NULL ? run->work_every : UINT64_MAX;
}

/* The actions of one batch from `from` on; a durable run's points come
 * between them when due. */
static uturn_status_t run_batch(struct uturn__run *run, size_t from,
                                size_t count)
{
    uturn_action_t *batch = run->ex->batch;
    const bool ahead      = run->io.started;
    uturn_status_t status = UTURN_OK;
    run->io.scan          = from;
    if (ahead)
        uturn__level_ahead(run, batch, from, count);
    for (size_t i = from; i < count && status == UTURN_OK; i++) {
        status = --run->countdown != 0 ? perform(run, &batch[i])
                                       : timed(run, &batch[i]);
        run->index += status == UTURN_OK;
        if (ahead)
            uturn__level_ahead(run, batch, i + 1, count);
        if (status == UTURN_OK && run->durable != NULL)
            status = uturn__durable_check(run, 0);
    }
    if (status == UTURN_OK && run->online)
        status = uturn__run_online_step(run, &batch[count - 1]);
    return status;
}

/* Every action, one by one, for every kind of run: those left in the
 * kept batch from `from` (a resumed run's), then the generator's. */
static uturn_status_t general_loop(struct uturn__run *run, size_t from,
                                   size_t count)
{
    const struct uturn__planner *g = run->plan->planner;
    /* x_0's size, unless a resumed run's replay told it already */
    uturn_status_t status = run->online && count == 0
                                ? uturn__run_online_step(run, NULL)
                                : UTURN_OK;
    if (status == UTURN_OK && count != 0)
        status = run_batch(run, from, count);
    while (status == UTURN_OK &&
           (count = g->fill(run->ex->gen, run->ex->batch, UTURN__BATCH)) != 0)
        status = run_batch(run, 0, count);
    return status;
}

/* The end of every call that ran actions: drain, count, last progress. */
static uturn_status_t finish_actions(struct uturn__run *run,
                                     uturn_status_t status)
{
    if (status == UTURN_OK)
        status = uturn__levels_drain(run);
    run->seen.actions        = run->index;
    run->report.actions_done = run->index;
    if (status == UTURN_OK && run->options.on_progress != NULL)
        status = uturn__run_progress(run);
    return status;
}

/* An unbounded plan's further sweep: its work joins the total, when the
 * plan gives it (revolve's layout, uniform costs); else it is unknown. */
static void grow_total(struct uturn__run *run)
{
    const uint64_t fw = run->plan->stats.sweep_forward_steps;
    uint64_t with_fw = 0, total = 0;
    const bool known = !run->online && run->plan->step_costs == NULL &&
                       fw != 0 && run->work_total != UTURN_NONE &&
                       uturn__add_u64(run->work_total, fw, &with_fw) ==
                           UTURN_OK &&
                       uturn__add_u64(with_fw, run->steps, &total) == UTURN_OK;
    run->work_total = known ? total : UTURN_NONE;
}

uturn_status_t uturn__run_next_sweep(struct uturn__run *run)
{
    if (run->plan->stats.sweeps == UTURN_SWEEPS_UNBOUNDED)
        grow_total(run);
    run->plan->planner->resume(run->ex->gen);
    return finish_actions(run, general_loop(run, 0, 0));
}

uturn_status_t uturn__run_actions(struct uturn__run *run)
{
    uturn_status_t status = uturn__run_start_generator(run);
    if (status != UTURN_OK)
        return status;
    uturn__run_start_counters(run);
    size_t from = 0, count = 0;
    if (run->durable != NULL && run->durable->resuming)
        status = uturn__durable_resume(run, &from, &count);
    if (status != UTURN_OK)
        return finish_actions(run, status);
    if (run->on_request) {
        run->plan->planner->pause_sweeps(run->ex->gen);
        status = general_loop(run, 0, 0); /* it adds to the counts it finds */
    } else if (run->durable != NULL)
        status = general_loop(run, from, count);
    else if (uturn__run_plain_applies(run))
        status = uturn__run_plain(run);
    else if (uturn__run_fast_applies(run))
        status = uturn__run_fast(run);
    else
        status = general_loop(run, 0, 0);
    if (status == UTURN_OK)
        status = uturn__run_online_done(run);
    return finish_actions(run, status);
}
