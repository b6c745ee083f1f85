/* The executor object and the public run entry point. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "executor.h"

#include <string.h>
#include <time.h>

void uturn_model_init(uturn_model_t *model)
{
    if (model == NULL)
        return;
    memset(model, 0, sizeof *model);
    model->size = sizeof *model;
}

void uturn_run_options_init(uturn_run_options_t *options)
{
    if (options == NULL)
        return;
    memset(options, 0, sizeof *options);
    options->size = sizeof *options;
}

void uturn_report_init(uturn_report_t *report)
{
    if (report == NULL)
        return;
    memset(report, 0, sizeof *report);
    report->size          = sizeof *report;
    report->failed_action = UTURN_NONE;
    report->failed_step   = UTURN_NONE;
}

double uturn__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uturn_status_t uturn_executor_create(const uturn_allocator_t *alloc,
                                     uturn_executor_t **out,
                                     uturn_error_t *error)
{
    if (out == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG, "out must not be NULL");
    *out = NULL;
    uturn_allocator_t resolved;
    uturn__alloc_resolve(alloc, &resolved);
    uturn_executor_t *ex = uturn__alloc_zeroed(&resolved, 1, sizeof *ex);
    if (ex == NULL)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory for an executor");
    ex->alloc = resolved;
    uturn__storage_open(&ex->storage, alloc);
    *out = ex;
    return UTURN_OK;
}

void uturn_executor_free(uturn_executor_t *executor)
{
    if (executor == NULL)
        return;
    uturn__pool_trim(executor);
    uturn__storage_close(&executor->storage);
    const uturn_allocator_t alloc = executor->alloc;
    uturn__free(&alloc, executor, sizeof *executor);
}

uturn_status_t uturn_executor_slot_bytes(const uturn_executor_t *executor,
                                         uint64_t state_bytes, uint64_t *out)
{
    if (executor == NULL || out == NULL || state_bytes == 0)
        return UTURN_E_INVALID_ARG;
    return uturn__storage_cost(&executor->storage, state_bytes, out);
}

uturn_status_t uturn_executor_plan(const uturn_executor_t *executor,
                                   const uturn_problem_t *problem,
                                   uturn_plan_t **out, uturn_error_t *error)
{
    if (out != NULL)
        *out = NULL;
    if (executor == NULL || problem == NULL || out == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "executor, problem and out must not be NULL");
    uturn_problem_t real;
    uturn__problem_copy(problem, &real);
    if (real.slot_bytes == 0)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "slot_bytes must be the size of one state");
    const uturn_status_t status = uturn__storage_cost(
        &executor->storage, real.slot_bytes, &real.slot_bytes);
    if (status != UTURN_OK)
        return uturn__fail(error, status, "cannot size a slot of %llu bytes",
                           (unsigned long long)problem->slot_bytes);
    return uturn_plan_create(&real, &executor->alloc, out, error);
}

/* Copy the caller's struct over our defaults, honouring its size. */
static void copy_sized(void *dst, size_t dst_size, const void *src,
                       size_t src_size)
{
    const size_t n = src_size == 0 || src_size > dst_size ? dst_size : src_size;
    memcpy(dst, src, n);
}

static void finish_report(struct uturn__run *run, uturn_status_t status,
                          double started, uturn_stats_t *observed,
                          uturn_report_t *report)
{
    uturn_report_t *r   = &run->report;
    r->status           = status;
    r->wall_seconds     = uturn__now() - started;
    r->forward_seconds  = run->spent[COST_FORWARD];
    r->adjoint_seconds  = run->spent[COST_ADJOINT];
    r->copy_seconds     = run->spent[COST_COPY];
    const double model  = r->forward_seconds + r->adjoint_seconds;
    const double rest   = r->wall_seconds - model - r->copy_seconds;
    r->overhead_seconds = rest > 0 ? rest : 0;
    r->jemalloc         = run->ex->storage.kind == UTURN__STORAGE_JEMALLOC;
    if (report != NULL) {
        const size_t caller = report->size;
        copy_sized(report, sizeof *report, r, caller);
        report->size = caller == 0 ? sizeof *report : caller;
    }
    if (observed != NULL) {
        uturn_stats_t *s = &run->seen;
        s->recomputed_steps =
            s->forward_steps > s->steps ? s->forward_steps - s->steps : 0;
        s->forward_cost     = s->forward_steps;
        s->recompute_cost   = s->recomputed_steps;
        s->recompute_factor = (double)s->forward_steps / (double)s->steps;
        uturn__stats_export(s, observed);
    }
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
    const double started = uturn__now();
    struct uturn__run run;
    memset(&run, 0, sizeof run);
    run.ex    = executor;
    run.plan  = plan;
    run.error = error;
    uturn_model_init(&run.model);
    copy_sized(&run.model, sizeof run.model, model, model->size);
    uturn_run_options_init(&run.options);
    if (options != NULL)
        copy_sized(&run.options, sizeof run.options, options, options->size);
    uturn_report_init(&run.report);
    uturn_status_t status = uturn__run_prepare(&run);
    if (status == UTURN_OK)
        status = uturn__run_actions(&run);
    uturn__run_release(&run);
    finish_report(&run, status, started, observed, report);
    return status;
}
