/* The executor object, its slot costs, and the public run entry point. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "executor.h"

#include <stddef.h>
#include <string.h>
#include <time.h>

void uturn_model_init_size(uturn_model_t *model, size_t size)
{
    uturn_model_t d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    uturn__init_sized(model, size, &d, sizeof d);
}

void uturn_run_options_init_size(uturn_run_options_t *options, size_t size)
{
    uturn_run_options_t d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    uturn__init_sized(options, size, &d, sizeof d);
}

void uturn_report_init_size(uturn_report_t *report, size_t size)
{
    uturn_report_t d;
    memset(&d, 0, sizeof d);
    d.size          = sizeof d;
    d.failed_action = UTURN_NONE;
    d.failed_step   = UTURN_NONE;
    uturn__init_sized(report, size, &d, sizeof d);
}

void uturn_executor_options_init_size(uturn_executor_options_t *options,
                                      size_t size)
{
    uturn_executor_options_t d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    uturn__init_sized(options, size, &d, sizeof d);
}

void uturn_slot_cost_init_size(uturn_slot_cost_t *cost, size_t size)
{
    uturn_slot_cost_t d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    uturn__init_sized(cost, size, &d, sizeof d);
}

/* The plain functions, for programs built against older headers: each
 * writes its struct as it was when the function appeared. */
#undef uturn_model_init
#undef uturn_run_options_init
#undef uturn_report_init
#undef uturn_executor_options_init
#undef uturn_slot_cost_init

void uturn_model_init(uturn_model_t *model)
{
    uturn_model_init_size(model,
                          UTURN__SIZE_THROUGH(uturn_model_t, state_size));
}

void uturn_run_options_init(uturn_run_options_t *options)
{
    uturn_run_options_init_size(
        options, UTURN__SIZE_THROUGH(uturn_run_options_t, progress_every));
}

void uturn_report_init(uturn_report_t *report)
{
    uturn_report_init_size(report,
                           UTURN__SIZE_THROUGH(uturn_report_t, jemalloc));
}

void uturn_executor_options_init(uturn_executor_options_t *options)
{
    uturn_executor_options_init_size(
        options, UTURN__SIZE_THROUGH(uturn_executor_options_t, slot_alloc));
}

void uturn_slot_cost_init(uturn_slot_cost_t *cost)
{
    uturn_slot_cost_init_size(cost,
                              UTURN__SIZE_THROUGH(uturn_slot_cost_t, backend));
}

/* Internal callers pass their whole struct. */
#define uturn_run_options_init(p) uturn_run_options_init_size((p), sizeof *(p))
#define uturn_report_init(p)      uturn_report_init_size((p), sizeof *(p))
#define uturn_model_init(p)       uturn_model_init_size((p), sizeof *(p))
#define uturn_executor_options_init(p)                                         \
    uturn_executor_options_init_size((p), sizeof *(p))
#define uturn_slot_cost_init(p) uturn_slot_cost_init_size((p), sizeof *(p))

double uturn__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Copy the caller's struct over our defaults, honouring its size. */
static void copy_sized(void *dst, size_t dst_size, const void *src,
                       size_t src_size)
{
    const size_t n = src_size == 0 || src_size > dst_size ? dst_size : src_size;
    memcpy(dst, src, n);
}

/* A model whose size is set but smaller than the first uturn_model_t's
 * (0.1: up to state_size) holds no callbacks to speak of: say so, rather
 * than name a callback it seems to lack. */
static uturn_status_t check_model_size(const uturn_model_t *model,
                                       uturn_error_t *error)
{
    const size_t least = offsetof(uturn_model_t, is_last);
    if (model->size == 0 || model->size >= least)
        return UTURN_OK;
    return uturn__fail(error, UTURN_E_INVALID_ARG,
                       "the model's size is %zu bytes, less than any "
                       "uturn_model_t's (%zu); uturn_model_init() sets it",
                       model->size, least);
}

uturn_status_t uturn_executor_open(const uturn_executor_options_t *options,
                                   uturn_executor_t **out, uturn_error_t *error)
{
    if (out == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG, "out must not be NULL");
    *out = NULL;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    if (options != NULL)
        copy_sized(&o, sizeof o, options, options->size);
    uturn_allocator_t resolved;
    uturn__alloc_resolve(o.alloc, &resolved);
    uturn_executor_t *ex = uturn__alloc_zeroed(&resolved, 1, sizeof *ex);
    if (ex == NULL)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory for an executor");
    ex->alloc = resolved;
    uturn__storage_open(&ex->storage, o.slot_alloc);
    ex->io_buffers = o.io_buffers != 0 ? o.io_buffers : 2;
    const uturn_status_t st =
        o.io_buffers > UTURN__IO_MAX_BUFFERS
            ? uturn__fail(
                  error, UTURN_E_INVALID_ARG, "io_buffers is %llu; at most %d",
                  (unsigned long long)o.io_buffers, UTURN__IO_MAX_BUFFERS)
            : uturn__levels_open(ex, o.levels, o.level_count, error);
    if (st != UTURN_OK) {
        uturn_executor_free(ex);
        return st;
    }
    *out = ex;
    return UTURN_OK;
}

uturn_status_t uturn_executor_create(const uturn_allocator_t *alloc,
                                     uturn_executor_t **out,
                                     uturn_error_t *error)
{
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.alloc      = alloc;
    o.slot_alloc = alloc;
    return uturn_executor_open(&o, out, error);
}

void uturn__executor_trim(uturn_executor_t *ex)
{
    ex->storage.ops->resize(&ex->storage, 0);
    uturn__space_free(&ex->space, &ex->alloc);
    uturn__free(&ex->alloc, ex->gen, ex->gen_bytes);
    uturn__free(&ex->alloc, ex->hashes,
                (size_t)ex->hashes_cap * sizeof *ex->hashes);
    uturn__free(&ex->alloc, ex->records, (size_t)ex->records_cap);
    ex->gen         = NULL;
    ex->gen_bytes   = 0;
    ex->hashes      = NULL;
    ex->hashes_cap  = 0;
    ex->records     = NULL;
    ex->records_cap = 0;
    ex->peak_plan   = NULL;
}

void uturn_executor_trim(uturn_executor_t *executor)
{
    if (executor != NULL && (executor->held != NULL || executor->running))
        return; /* the held trajectory's or the running run's storage */
    if (executor != NULL)
        uturn__executor_trim(executor);
}

void uturn_executor_free(uturn_executor_t *executor)
{
    if (executor == NULL)
        return;
    uturn_executor_release(executor);
    uturn__executor_trim(executor);
    uturn__levels_close(executor);
    uturn__storage_close(&executor->storage);
    const uturn_allocator_t alloc = executor->alloc;
    uturn__free(&alloc, executor, sizeof *executor);
}

uint64_t uturn_executor_held_bytes(const uturn_executor_t *executor)
{
    return executor != NULL ? executor->storage.bytes : 0;
}

uturn_status_t uturn_executor_slot_cost(const uturn_executor_t *executor,
                                        uint64_t state_bytes,
                                        uturn_slot_cost_t *out)
{
    if (executor == NULL || out == NULL || state_bytes == 0)
        return UTURN_E_INVALID_ARG;
    uturn_slot_cost_t cost;
    uturn_slot_cost_init(&cost);
    uturn__storage_cost(&executor->storage, state_bytes, &cost);
    const size_t keep =
        out->size == 0 || out->size > sizeof cost ? sizeof cost : out->size;
    memcpy(out, &cost, keep);
    out->size = keep;
    return cost.stride != 0 ? UTURN_OK : UTURN_E_OVERFLOW;
}

uturn_status_t uturn_executor_slot_bytes(const uturn_executor_t *executor,
                                         uint64_t state_bytes, uint64_t *out)
{
    if (executor == NULL || out == NULL || state_bytes == 0)
        return UTURN_E_INVALID_ARG;
    return uturn__stride(state_bytes, out) ? UTURN_OK : UTURN_E_OVERFLOW;
}

uturn_status_t uturn_executor_budget(const uturn_executor_t *executor,
                                     uint64_t state_bytes, uint64_t slots,
                                     uint64_t *budget)
{
    if (executor == NULL || budget == NULL || state_bytes == 0)
        return UTURN_E_INVALID_ARG;
    uint64_t stride = 0, raw = 0;
    if (!uturn__stride(state_bytes, &stride) ||
        uturn__mul_u64(slots, stride, &raw) != UTURN_OK ||
        !uturn__storage_round(&executor->storage, raw, budget))
        return UTURN_E_OVERFLOW;
    return UTURN_OK;
}

uturn_status_t uturn_executor_capacity(const uturn_executor_t *executor,
                                       uint64_t state_bytes, uint64_t budget,
                                       uint64_t *slots)
{
    if (executor == NULL || slots == NULL || state_bytes == 0)
        return UTURN_E_INVALID_ARG;
    uint64_t stride = 0;
    if (!uturn__stride(state_bytes, &stride))
        return UTURN_E_OVERFLOW;
    const struct uturn__storage *st = &executor->storage;
    *slots                          = st->ops->usable(st, budget) / stride;
    return UTURN_OK;
}

/* The counts as they happened; what is the plan's own (its levels, dp's
 * exactness and unit, whether it is online) as the plan says, so that a
 * complete run's counts equal uturn_plan_stats(). The cost is the forward
 * cost plus the writes and reads of the stores and restores each level
 * saw. */
static void finish_observed(struct uturn__run *run, uturn_stats_t *observed)
{
    uturn_stats_t *s        = &run->seen;
    const uturn_stats_t *ps = &run->plan->stats;
    s->recomputed_steps =
        s->forward_steps > s->steps ? s->forward_steps - s->steps : 0;
    const uint64_t sweep = ps->forward_cost - ps->recompute_cost;
    s->forward_cost      = run->work_done - s->reverse_steps;
    s->recompute_cost   = s->forward_cost > sweep ? s->forward_cost - sweep : 0;
    s->recompute_factor = (double)s->forward_steps / (double)s->steps;
    s->fingerprint      = ps->fingerprint;
    s->levels           = run->plan->level_count;
    s->online           = ps->online;
    s->exact            = ps->exact;
    s->unit_bytes       = ps->unit_bytes;
    s->lower_bound_cost = ps->lower_bound_cost;
    s->planning_seconds = ps->planning_seconds;
    /* the sweeps run so far; a plan that knows its steps stores its
     * persistent checkpoints in the first forward, which sweep 1 follows;
     * an online plan learns them as it goes (its persist actions) */
    s->sweeps              = run->report.sweeps_done;
    s->persistent          = ps->online                     ? run->persisted
                             : run->report.sweeps_done != 0 ? ps->persistent
                                                            : 0;
    s->sweep_forward_steps = ps->sweep_forward_steps; /* the plan's */
    uturn_level_stats_t seen[UTURN__MAX_LEVELS];
    memset(seen, 0, sizeof seen);
    seen[0].stores   = run->ex->memory_report.stores;
    seen[0].restores = run->ex->memory_report.restores;
    for (uint64_t k = 1; k < s->levels && k <= run->ex->level_count; k++) {
        seen[k].stores   = run->ex->levels[k - 1].stores;
        seen[k].restores = run->ex->levels[k - 1].restores;
    }
    uturn__level_cost(s->forward_cost, run->plan->levels, seen, s->levels,
                      &s->cost);
    uturn__stats_export(s, observed);
}

static void finish_report(struct uturn__run *run, uturn_status_t status,
                          double started, uturn_stats_t *observed,
                          uturn_report_t *report)
{
    uturn_report_t *r               = &run->report;
    const struct uturn__storage *st = &run->ex->storage;
    r->status                       = status;
    r->wall_seconds                 = uturn__now() - started;
    r->forward_seconds              = run->spent[COST_FORWARD];
    r->adjoint_seconds              = run->spent[COST_ADJOINT];
    r->copy_seconds                 = run->spent[COST_COPY];
    const double model              = r->forward_seconds + r->adjoint_seconds;
    const double rest               = r->wall_seconds - model - r->copy_seconds;
    r->overhead_seconds             = rest > 0 ? rest : 0;
    r->jemalloc                     = false;
    r->storage_granule              = st->ops->granule(st);
    r->storage_alignment            = UTURN__SLOT_ALIGNMENT;
    r->storage_backend              = st->ops->name;
    if (report != NULL) {
        const size_t caller = report->size;
        copy_sized(report, sizeof *report, r, caller);
        report->size = caller == 0 ? sizeof *report : caller;
    }
    if (observed != NULL)
        finish_observed(run, observed);
}

/* A run that may be held for further sweeps lives on the heap from its
 * start: its I/O thread and its buffers point into it, so it is never
 * copied. NULL (and the status in *status): out of memory. */
static struct uturn__run *held_run(uturn_executor_t *ex,
                                   const struct uturn__run *start,
                                   uturn_status_t *status)
{
    struct uturn__run *run = uturn__alloc(&ex->alloc, sizeof *run);
    if (run == NULL) {
        *status = uturn__fail(start->error, UTURN_E_NOMEM,
                              "out of memory to hold the trajectory for "
                              "further sweeps");
        return NULL;
    }
    *run = *start;
    return run;
}

/* Sweeps on request: whether the run stops after sweep 1; a plan of
 * several sweeps that cannot pause (a parsed one) is refused. */
static uturn_status_t choose_on_request(struct uturn__run *run)
{
    if (!run->options.sweeps_on_request || run->plan->stats.sweeps <= 1)
        return UTURN_OK;
    if (run->plan->planner->pause_sweeps == NULL)
        return uturn__fail(run->error, UTURN_E_UNSUPPORTED,
                           "sweeps on request need a plan made by a "
                           "planner; run a parsed plan of several sweeps "
                           "without sweeps_on_request (every sweep in one "
                           "call)");
    run->on_request = true;
    return UTURN_OK;
}

/* After a call's actions: keep the run for its next sweep (on request,
 * paused between sweeps), or release its slots. true: kept. */
static bool keep_or_release(struct uturn__run *run, uturn_status_t status,
                            uint64_t forward_before)
{
    const struct uturn__planner *g = run->plan->planner;
    const bool more =
        status == UTURN_OK && run->on_request && g->paused(run->ex->gen);
    const uint64_t planned = run->plan->stats.sweeps;
    if (status == UTURN_OK) /* an unbounded plan's stream is one sweep */
        run->report.sweeps_done = run->on_request ? run->report.sweeps_done + 1
                                  : planned == UTURN_SWEEPS_UNBOUNDED ? 1
                                                                      : planned;
    else if (!run->on_request && run->steps != 0) /* the sweeps finished */
        run->report.sweeps_done = run->seen.reverse_steps / run->steps;
    run->report.sweep_forward_steps = run->seen.forward_steps - forward_before;
    run->report.trajectory_held     = more;
    if (!more)
        uturn__run_release(run);
    else /* what the held trajectory keeps */
        run->report.held_after_bytes = run->ex->storage.bytes;
    return more;
}

/* A call from a callback of a run or sweep on the same executor. */
static uturn_status_t refuse_reentry(uturn_error_t *error, const char *call)
{
    return uturn__fail(error, UTURN_E_INVALID_ARG,
                       "%s called from a callback of a run or sweep on the "
                       "same executor (one at a time; use another executor)",
                       call);
}

uturn_status_t uturn_executor_run(uturn_executor_t *executor,
                                  const uturn_plan_t *plan,
                                  const uturn_model_t *model,
                                  const uturn_run_options_t *options,
                                  uturn_stats_t *observed,
                                  uturn_report_t *report, uturn_error_t *error)
{
    if (executor == NULL || plan == NULL || model == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "executor, plan and model must not be NULL");
    if (executor->running)
        return refuse_reentry(error, "uturn_executor_run");
    if (executor->held != NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "the executor holds the trajectory of a run of "
                           "several sweeps: run its sweeps "
                           "(uturn_executor_sweep) or release it first");
    if (check_model_size(model, error) != UTURN_OK)
        return UTURN_E_INVALID_ARG;
    struct uturn__run run;
    memset(&run, 0, sizeof run);
    run.started = uturn__now();
    run.ex      = executor;
    run.plan    = plan;
    run.error   = error;
    uturn_model_init(&run.model);
    copy_sized(&run.model, sizeof run.model, model, model->size);
    uturn_run_options_init(&run.options);
    if (options != NULL)
        copy_sized(&run.options, sizeof run.options, options, options->size);
    uturn_report_init(&run.report);
    executor->running     = true;
    uturn_status_t status = choose_on_request(&run);
    struct uturn__run *r  = &run;
    if (status == UTURN_OK && run.on_request)
        r = held_run(executor, &run, &status);
    r = r != NULL ? r : &run;
    if (status == UTURN_OK)
        status = uturn__durable_open(r);
    if (status == UTURN_OK)
        status = uturn__run_prepare(r);
    if (status == UTURN_OK)
        status = uturn__run_actions(r);
    const bool kept = keep_or_release(r, status, 0);
    uturn__durable_close(r, status);
    executor->running = false;
    finish_report(r, status, r->started, observed, report);
    if (kept) {
        executor->held = r;
        r->error       = NULL; /* the caller's, for this call only */
    } else if (r != &run)
        uturn__free(&executor->alloc, r, sizeof *r);
    return status;
}

/* What keeps @p b from being the model of a further sweep of a run of
 * @p a (the run's forward, any turn and adjoint): the field's name, or
 * NULL. */
static const char *not_the_runs(const uturn_model_t *a, const uturn_model_t *b)
{
    if (a->forward != b->forward)
        return "forward";
    if (a->forward_record != b->forward_record)
        return "forward_record";
    if (a->record_bytes != b->record_bytes)
        return "record_bytes";
    if (a->state != b->state)
        return "state";
    if (a->state_bytes != b->state_bytes)
        return "state_bytes";
    if (a->save != b->save)
        return "save";
    if (a->load != b->load)
        return "load";
    if (a->state_size != b->state_size)
        return "state_size";
    return NULL;
}

uturn_status_t uturn_executor_sweep(uturn_executor_t *executor,
                                    const uturn_model_t *model,
                                    uturn_stats_t *observed,
                                    uturn_report_t *report,
                                    uturn_error_t *error)
{
    if (executor == NULL || model == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "executor and model must not be NULL");
    if (executor->running)
        return refuse_reentry(error, "uturn_executor_sweep");
    struct uturn__run *run = executor->held;
    if (run == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "the executor holds no trajectory: start a run "
                           "of several sweeps with sweeps_on_request");
    if (check_model_size(model, error) != UTURN_OK)
        return UTURN_E_INVALID_ARG;
    uturn_model_t next;
    uturn_model_init(&next);
    copy_sized(&next, sizeof next, model, model->size);
    const char *other = not_the_runs(&run->model, &next);
    if (other != NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "a further sweep takes the run's forward: its "
                           "model's %s is not the run's (forward, "
                           "forward_record, record_bytes, state, state_bytes, "
                           "save, load and state_size must be)",
                           other);
    if (next.turn == NULL || next.adjoint == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "a further sweep needs a turn and an adjoint "
                           "callback: its model's %s is NULL",
                           next.turn == NULL ? "turn" : "adjoint");
    run->model   = next;
    run->error   = error;
    run->started = uturn__now();
    memset(run->spent, 0, sizeof run->spent);
    const uint64_t before       = run->seen.forward_steps;
    executor->running           = true;
    const uturn_status_t status = uturn__run_next_sweep(run);
    const bool kept             = keep_or_release(run, status, before);
    executor->running           = false;
    finish_report(run, status, run->started, observed, report);
    run->error = NULL;
    if (!kept)
        uturn_executor_release(executor);
    return status;
}

void uturn_executor_release(uturn_executor_t *executor)
{
    if (executor == NULL || executor->held == NULL || executor->running)
        return; /* from a callback of its sweep: the sweep goes on */
    struct uturn__run *run = executor->held;
    executor->held         = NULL;
    if (run->report.trajectory_held) /* not yet released */
        uturn__run_release(run);
    uturn__free(&executor->alloc, run, sizeof *run);
}
