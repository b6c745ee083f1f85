/* The executor's preflight: model checks, the budget at real cost, and the
 * slot storage sized within it, all before the first callback. */
#include "executor.h"

#include <string.h>

static uturn_status_t check_callbacks(const struct uturn__run *run)
{
    const uturn_model_t *m = &run->model;
    const bool records     = m->record_bytes != 0;
    if ((records ? m->forward_record == NULL : m->forward == NULL) ||
        m->turn == NULL || m->adjoint == NULL)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "the model needs %s, turn and adjoint callbacks",
                           records ? "forward_record (record_bytes is set)"
                                   : "forward");
    if (m->state != NULL && m->state_bytes == 0)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "state_bytes must be the size of the state");
    if (m->state == NULL && (m->save == NULL || m->load == NULL))
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "the model needs a state buffer, or save and "
                           "load callbacks");
    if (m->state == NULL && m->state_bytes == 0 && m->state_size == NULL &&
        run->plan->step_bytes == NULL)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "with save/load the model needs state_bytes, a "
                           "state_size callback, or a plan with step_bytes");
    if (run->online && m->is_last == NULL && m->agree == NULL &&
        run->plan->problem.max_steps == 0)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "an online plan without max_steps needs the "
                           "model's is_last: its first sweep would never "
                           "end");
    const struct uturn__planner *g = run->plan->planner;
    if (run->online && g->sized(run->plan) && m->state_size == NULL)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "an online plan with a byte budget needs the "
                           "model's state_size (and save/load)");
    return UTURN_OK;
}

/* How states are sized: by the plan's step_bytes, else by the model's
 * state_size (save/load), else uniformly by state_bytes. */
static uturn_status_t choose_sizing(struct uturn__run *run)
{
    const uturn_model_t *m = &run->model;
    run->contiguous = m->state != NULL;
    run->sizes      = run->options.step_bytes != NULL ? run->options.step_bytes
                                                      : run->plan->step_bytes;
    run->sized =
        run->sizes != NULL || (!run->contiguous && m->state_size != NULL);
    if (run->online && !run->plan->planner->sized(run->plan))
        run->sized = false; /* uniform slots; sizes only bound each copy */
    uint64_t largest = 0;
    for (uint64_t i = 0; run->sizes != NULL && run->contiguous &&
                         i < run->plan->stats.steps;
         i++)
        largest = run->sizes[i] > largest ? run->sizes[i] : largest;
    if (largest > m->state_bytes)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "the plan holds states of up to %llu bytes; the "
                           "model's state buffer has %llu",
                           (unsigned long long)largest,
                           (unsigned long long)m->state_bytes);
    run->state_bytes = m->state_bytes;
    if (!run->sized && !uturn__stride(m->state_bytes, &run->stride))
        return uturn__fail(run->error, UTURN_E_OVERFLOW,
                           "slots of %llu bytes cannot be sized",
                           (unsigned long long)m->state_bytes);
    return UTURN_OK;
}

static uint64_t budget_of(const struct uturn__run *run)
{
    return run->options.budget_bytes != 0 ? run->options.budget_bytes
                                          : run->plan->stats.budget_bytes;
}

/* The largest state the run stores, for the message of a refusal (a walk
 * over the steps, on that path alone). */
static uint64_t largest_state(const struct uturn__run *run)
{
    uint64_t largest = 0;
    for (uint64_t i = 0; i < run->steps; i++) {
        const uint64_t b = uturn__run_data_bytes(run, i);
        largest          = b > largest ? b : largest;
    }
    return largest;
}

static uturn_status_t over_budget(const struct uturn__run *run)
{
    const uint64_t stride = run->sized ? largest_state(run) : run->stride;
    const uturn_status_t status = uturn__fail_infeasible(
        run->error, run->plan->stats.peak_slots, 0,
        "the plan needs %llu bytes of slots here (%llu slots%s%llu bytes "
        "each, as %s), above the budget of %llu bytes; plan with "
        "uturn_executor_plan() to fit it",
        (unsigned long long)run->need,
        (unsigned long long)run->plan->stats.peak_slots,
        run->sized ? ", states of up to " : " at ",
        (unsigned long long)stride,
        run->ex->storage.ops->name, (unsigned long long)run->budget);
    if (run->error != NULL)
        run->error->minimum_bytes = run->need;
    return status;
}

/* The most memory slots the plan holds at once (level 0's, with levels;
 * an online plan may use every one). */
static uint64_t memory_peak(const struct uturn__run *run)
{
    const uturn_plan_t *p = run->plan;
    if (run->online)
        return p->levels[0].slots;
    return p->level_count > 1 ? p->level_stats[0].peak_slots
                              : p->stats.peak_slots;
}

/* Level 0's slots at their peak and the buffers for the other levels. */
static uturn_status_t uniform_need(struct uturn__run *run, uint64_t *raw)
{
    uint64_t slots = 0;
    if (uturn__add_u64(memory_peak(run), run->buffers, &slots) == UTURN_OK &&
        uturn__mul_u64(slots, run->stride, raw) == UTURN_OK)
        return UTURN_OK;
    return uturn__fail(run->error, UTURN_E_OVERFLOW,
                       "%llu slots of %llu bytes do not fit in 64 bits",
                       (unsigned long long)memory_peak(run),
                       (unsigned long long)run->stride);
}

/* The region bytes the plan's peak takes, and the budget check. */
static uturn_status_t check_budget(struct uturn__run *run)
{
    uturn_status_t status = UTURN_OK;
    uint64_t raw          = 0;
    const struct uturn__storage *st0 = &run->ex->storage;
    run->buffers = uturn__level_buffers(run->ex, run->plan);
    if (run->online && run->sized) { /* sizes unknown: the whole budget */
        raw       = st0->ops->usable(st0, budget_of(run));
        run->room = raw;
    }
    else if (run->sized)
        status = uturn__run_sized_need(run, &raw);
    else /* an online plan's peak is unknown: every slot */
        status = uniform_need(run, &raw);
    if (status != UTURN_OK)
        return status;
    if (!uturn__storage_round(&run->ex->storage, raw, &run->need))
        return uturn__fail(run->error, UTURN_E_OVERFLOW,
                           "the plan's slots do not fit in 64 bits");
    run->report.slot_bytes         = run->sized ? 0 : run->stride;
    run->report.planned_peak_bytes = run->need;
    run->budget                    = budget_of(run);
    run->report.budget_bytes       = run->budget;
    return run->budget != 0 && run->need > run->budget ? over_budget(run)
                                                       : UTURN_OK;
}

/* The region for this run: at least the plan's need; what was kept from
 * earlier runs stays only as far as the budget allows (a run without a
 * budget keeps exactly its need). */
static uturn_status_t size_region(struct uturn__run *run)
{
    struct uturn__storage *st = &run->ex->storage;
    uint64_t keep             = st->bytes;
    if (run->budget == 0) {
        keep = run->need;
    } else {
        uint64_t limit = 0; /* the largest region cost within the budget */
        st->ops->cost(st, st->ops->usable(st, run->budget), &limit);
        keep = keep > limit ? limit : keep;
        keep                 = keep < run->need ? run->need : keep;
    }
    run->report.held_before_bytes = st->bytes;
    if (st->ops->resize(st, keep) != UTURN_OK)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for %llu bytes of slots",
                           (unsigned long long)keep);
    run->base                       = st->base;
    run->buffer = run->buffers != 0 ? st->base + memory_peak(run) * run->stride
                                    : NULL;
    run->report.io_buffer_bytes     = run->buffers * run->stride;
    run->report.measured_peak_bytes = st->bytes;
    return UTURN_OK;
}

static uturn_status_t lay_out(struct uturn__run *run)
{
    const bool levels                     = run->plan->level_count > 1;
    const struct uturn__space_plan layout = {
        .sized  = run->sized,
        .span   = levels ? run->plan->levels[0].slots : run->plan->slot_span,
        .peak   = memory_peak(run),
        .stride = run->stride,
        .region = run->ex->storage.bytes,
    };
    if (uturn__space_begin(&run->ex->space, &run->ex->alloc, &layout) !=
        UTURN_OK)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for the slot tables of %llu slots",
                           (unsigned long long)layout.span);
    return UTURN_OK;
}

/* Verify mode: a hash per state, kept in the executor between runs. */
static uturn_status_t prepare_hashes(struct uturn__run *run)
{
    uturn_executor_t *ex = run->ex;
    const uint64_t n     = run->steps + 1;
    run->record_bytes    = run->model.record_bytes;
    run->frontier        = 0;
    if (run->online) /* grown as the first sweep goes */
        return uturn__run_reserve_steps(run, 0);
    if (run->record_bytes != 0) {
        const uturn_status_t st = uturn__run_reserve_steps(run, run->steps);
        if (st != UTURN_OK)
            return st;
    }
    if (!run->options.verify)
        return UTURN_OK;
    if (n > ex->hashes_cap) {
        uint64_t *grown = uturn__alloc_zeroed(&ex->alloc, n, sizeof *grown);
        if (grown == NULL)
            return uturn__fail(run->error, UTURN_E_NOMEM,
                               "out of memory for %llu state hashes",
                               (unsigned long long)n);
        uturn__free(&ex->alloc, ex->hashes,
                    (size_t)ex->hashes_cap * sizeof *ex->hashes);
        ex->hashes     = grown;
        ex->hashes_cap = n;
    }
    memset(ex->hashes, 0, (size_t)n * sizeof *ex->hashes);
    run->hashes              = ex->hashes;
    run->report.verify_bytes = n * sizeof *ex->hashes;
    return UTURN_OK;
}

uturn_status_t uturn__run_prepare(struct uturn__run *run)
{
    run->online           = run->plan->planner->end != NULL;
    run->steps            = run->plan->stats.steps;
    /* Known before anything is checked: a run refused for its model
     * still keeps the executor to its budget (uturn__run_release). */
    run->budget           = budget_of(run);
    uturn_status_t status = check_callbacks(run);
    if (status == UTURN_OK)
        status = choose_sizing(run);
    if (status == UTURN_OK)
        status = check_budget(run);
    if (status == UTURN_OK)
        status = size_region(run);
    if (status == UTURN_OK)
        status = lay_out(run);
    if (status == UTURN_OK)
        status = uturn__run_levels_begin(run);
    if (status == UTURN_OK)
        status = prepare_hashes(run);
    if (status != UTURN_OK)
        return status;
    uturn_stats_init(&run->seen);
    run->seen.steps        = run->steps;
    run->seen.slots        = run->plan->stats.slots;
    run->seen.slot_bytes   = run->plan->stats.slot_bytes;
    run->seen.budget_bytes = run->budget;
    return UTURN_OK;
}

void uturn__run_release(struct uturn__run *run)
{
    struct uturn__storage *st = &run->ex->storage;
    uturn__run_levels_end(run);
    /* A run refused before its first callback still sets the budget the
     * executor keeps to afterwards. */
    uint64_t limit = 0;
    if (run->budget != 0 &&
        st->ops->cost(st, st->ops->usable(st, run->budget), &limit) &&
        st->bytes > limit)
        st->ops->resize(st, limit);
    /* Every slot is empty now; the region is kept for the next run within
     * this run's budget, or at this run's need without one (size_region
     * made it so; a failure before that leaves what the last run kept). */
    run->report.held_after_bytes = st->bytes;
    run->report.bookkeeping_bytes =
        uturn__space_table_bytes(&run->ex->space) + run->ex->gen_bytes +
        run->ex->hashes_cap * sizeof *run->ex->hashes;
}
