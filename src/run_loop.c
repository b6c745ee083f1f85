/*
 * The executor's action loop. Time is sampled: when actions are short, one
 * action at a random gap of 1..2*SAMPLE_PERIOD-1 (mean SAMPLE_PERIOD) is
 * timed and stands for the gap, since a clock read costs about as much as a
 * short action. The gap is random because plans are periodic: a fixed even
 * period would, on store-all's store/advance/store/advance, only ever time
 * advances. Once timed actions take longer than LONG_ACTION on average,
 * every action is timed.
 */
#include "executor.h"

#define XXH_INLINE_ALL
#include <string.h>
#include <xxhash.h>

#define SAMPLE_PERIOD 32
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

static uturn_status_t callback_failed(struct uturn__run *run, const char *which,
                                      uint64_t step, int rc)
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

static uturn_status_t advance(struct uturn__run *run, const uturn_action_t *a)
{
    const uturn_model_t *m = &run->model;
    const bool hash_live   = run->hashes != NULL && m->state != NULL;
    for (uint64_t i = a->step; i < a->step_end; i++) {
        const int rc = m->forward(m->user, i);
        if (rc != 0)
            return callback_failed(run, "forward", i, rc);
        run->seen.forward_steps += 1;
        if (hash_live) {
            const uturn_status_t st =
                check_hash(run, i + 1, m->state, m->state_bytes);
            if (st != UTURN_OK)
                return st;
        }
    }
    return UTURN_OK;
}

static uint64_t state_bytes(const struct uturn__run *run, uint64_t step)
{
    const uturn_model_t *m = &run->model;
    return run->per_step ? m->state_size(m->user, step) : m->state_bytes;
}

/* A buffer for a new slot: from the pool, or allocated (per-step sizes,
 * where the allocator's count is read at every new high). */
static void *take_buffer(struct uturn__run *run, uint64_t k, uint64_t bytes)
{
    if (!run->per_step)
        return run->pool[--run->pool_free];
    void *buf = uturn__storage_alloc(&run->ex->storage, bytes);
    if (buf == NULL)
        return NULL;
    run->slot_bytes[k] = bytes;
    run->held_real += uturn__storage_block_cost(&run->ex->storage, buf, bytes);
    if (run->held_real > run->peak_real) {
        run->peak_real         = run->held_real;
        const uint64_t measure = uturn__storage_measure(&run->ex->storage);
        if (measure > run->report.measured_peak_bytes)
            run->report.measured_peak_bytes = measure;
    }
    return buf;
}

static void give_buffer(struct uturn__run *run, uint64_t k)
{
    if (!run->per_step) {
        run->pool[run->pool_free++] = run->slot[k];
    } else {
        run->held_real -= uturn__storage_block_cost(
            &run->ex->storage, run->slot[k], run->slot_bytes[k]);
        uturn__storage_free(&run->ex->storage, run->slot[k],
                            run->slot_bytes[k]);
        run->slot_bytes[k] = 0;
    }
    run->slot[k] = NULL;
}

/* Counts as the plan counts them: uniform slots at the plan's slot_bytes,
 * per-step states at their own size. */
static uint64_t counted_bytes(const struct uturn__run *run, uint64_t bytes)
{
    return run->per_step ? bytes : run->plan->stats.slot_bytes;
}

static void count_store(struct uturn__run *run, uint64_t bytes)
{
    uturn_stats_t *s = &run->seen;
    s->stores += 1;
    run->held_bytes += counted_bytes(run, bytes);
    const uint64_t held = s->stores - s->frees;
    s->peak_slots       = held > s->peak_slots ? held : s->peak_slots;
    s->peak_bytes =
        run->held_bytes > s->peak_bytes ? run->held_bytes : s->peak_bytes;
}

static uturn_status_t store(struct uturn__run *run, const uturn_action_t *a)
{
    const uturn_model_t *m = &run->model;
    const uint64_t bytes   = state_bytes(run, a->step);
    void *buf              = take_buffer(run, a->slot, bytes);
    if (buf == NULL)
        return failed(run, UTURN_E_NOMEM, a->step,
                      "out of memory for a slot of %llu bytes",
                      (unsigned long long)bytes);
    run->slot[a->slot] = buf;
    count_store(run, bytes);
    if (m->state != NULL) {
        memcpy(buf, m->state, (size_t)bytes);
        return UTURN_OK;
    }
    const int rc = m->save(m->user, a->step, buf, bytes);
    if (rc != 0)
        return callback_failed(run, "save", a->step, rc);
    return run->hashes != NULL ? check_hash(run, a->step, buf, bytes)
                               : UTURN_OK;
}

static uturn_status_t restore(struct uturn__run *run, const uturn_action_t *a)
{
    const uturn_model_t *m = &run->model;
    run->seen.restores += 1;
    if (m->state != NULL) {
        memcpy(m->state, run->slot[a->slot], (size_t)m->state_bytes);
        return UTURN_OK;
    }
    const uint64_t bytes =
        run->per_step ? run->slot_bytes[a->slot] : m->state_bytes;
    const int rc = m->load(m->user, a->step, run->slot[a->slot], bytes);
    return rc == 0 ? UTURN_OK : callback_failed(run, "load", a->step, rc);
}

static void free_slot(struct uturn__run *run, const uturn_action_t *a)
{
    const uint64_t bytes =
        run->per_step ? run->slot_bytes[a->slot] : run->model.state_bytes;
    run->held_bytes -= counted_bytes(run, bytes);
    run->seen.frees += 1;
    give_buffer(run, a->slot);
}

static uturn_status_t reverse(struct uturn__run *run, const uturn_action_t *a)
{
    const uturn_model_t *m = &run->model;
    const int rc           = m->adjoint(m->user, a->step);
    if (rc != 0)
        return callback_failed(run, "adjoint", a->step, rc);
    const uint64_t done  = ++run->seen.reverse_steps;
    const uint64_t every = run->options.progress_every != 0
                               ? run->options.progress_every
                               : (run->steps + 99) / 100;
    if (run->options.progress == NULL || (done % every != 0 && a->step != 0))
        return UTURN_OK;
    const int stop =
        run->options.progress(run->options.progress_user, done, run->steps);
    return stop == 0 ? UTURN_OK
                     : callback_failed(run, "progress", a->step, stop);
}

static uturn_status_t perform(struct uturn__run *run, const uturn_action_t *a)
{
    switch (a->op) {
    case UTURN_OP_ADVANCE:
        return advance(run, a);
    case UTURN_OP_STORE:
        return store(run, a);
    case UTURN_OP_RESTORE:
        return restore(run, a);
    case UTURN_OP_FREE:
        free_slot(run, a);
        return UTURN_OK;
    case UTURN_OP_TURN: {
        const int rc = run->model.turn(run->model.user);
        return rc == 0 ? UTURN_OK
                       : callback_failed(run, "turn", run->steps, rc);
    }
    case UTURN_OP_REVERSE:
        return reverse(run, a);
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

/* Perform one action, timing it when its turn in the sample comes. */
static uturn_status_t timed(struct uturn__run *run, const uturn_action_t *a)
{
    if (--run->countdown != 0)
        return perform(run, a);
    const double start               = uturn__now();
    const uturn_status_t status      = perform(run, a);
    const double spent               = uturn__now() - start;
    const enum uturn__cost_kind kind = cost_kind(a->op);
    if (kind != COST_NONE)
        run->spent[kind] += spent * (double)run->weight;
    /* Decide on a running mean, not on this one action: a gap that
     * depended on the action just timed would bias the estimate when long
     * and short actions alternate (store-all's store/advance). */
    run->mean_spent += (spent - run->mean_spent) / 8.0;
    run->weight    = run->mean_spent > LONG_ACTION ? 1 : next_gap(run);
    run->countdown = run->weight;
    return status;
}

uturn_status_t uturn__run_actions(struct uturn__run *run)
{
    uturn_cursor_t *cursor = NULL;
    if (uturn_cursor_create(run->plan, &run->ex->alloc, &cursor) != UTURN_OK)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for a cursor");
    run->countdown        = 1;
    run->weight           = 1;
    run->random           = 0x9e3779b97f4a7c15u;
    uturn_status_t status = UTURN_OK;
    uturn_action_t a;
    while (status == UTURN_OK && uturn_cursor_next(cursor, &a)) {
        status = timed(run, &a);
        if (status == UTURN_OK) {
            run->index += 1;
            run->seen.actions += 1;
        }
    }
    run->report.actions_done = run->index;
    uturn_cursor_free(cursor);
    return status;
}
