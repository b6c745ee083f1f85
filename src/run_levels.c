/*
 * Storage levels beyond memory in a run: plan slots base_k .. base_k +
 * slots_k - 1 live in level k, each level a backend of its own (a file, the
 * user's callbacks) with its own slot space. Every level's run begins
 * before the first callback and ends on every exit path, so a file level
 * leaves nothing behind. A file level's reads and writes go to the run's
 * I/O thread (run_io.c) unless it asked to be synchronous; a user level's
 * callbacks are called in the run's thread.
 */
#include "executor.h"

#include <string.h>

uturn_status_t uturn__levels_open(uturn_executor_t *ex,
                                  const uturn_storage_t *levels, uint64_t count,
                                  uturn_error_t *error)
{
    if (count == 0)
        return UTURN_OK;
    if (levels == NULL || count >= UTURN__MAX_LEVELS)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "levels must hold 1 to %d storage descriptions",
                           UTURN__MAX_LEVELS - 1);
    ex->levels =
        uturn__alloc_zeroed(&ex->alloc, (size_t)count, sizeof *ex->levels);
    if (ex->levels == NULL)
        return uturn__fail(error, UTURN_E_NOMEM, "out of memory for levels");
    for (uint64_t k = 0; k < count; k++) {
        uturn_storage_t desc;
        uturn_storage_init(&desc);
        memcpy(&desc, &levels[k],
               levels[k].size != 0 && levels[k].size < sizeof desc
                   ? levels[k].size
                   : sizeof desc);
        struct uturn__storage *st = &ex->levels[k].storage;
        const uturn_status_t s =
            uturn__storage_open_level(st, &desc, &ex->alloc);
        ex->level_count = k + 1; /* closed by levels_close either way */
        ex->levels[k].overlapped =
            desc.kind == UTURN_STORAGE_FILE && !desc.synchronous;
        const bool known =
            desc.kind == UTURN_STORAGE_FILE || desc.kind == UTURN_STORAGE_USER;
        if (s != UTURN_OK && !known)
            return uturn__fail(error, UTURN_E_INVALID_ARG,
                               "storage level %llu: kind %d is neither "
                               "UTURN_STORAGE_FILE nor UTURN_STORAGE_USER",
                               (unsigned long long)k, (int)desc.kind);
        if (s != UTURN_OK)
            return uturn__fail(
                error, s, "storage level %llu: %s", (unsigned long long)k,
                st->message[0] != '\0' ? st->message
                                       : "a user level needs its callbacks");
    }
    return UTURN_OK;
}

void uturn__levels_close(uturn_executor_t *ex)
{
    for (uint64_t k = 0; k < ex->level_count; k++) {
        struct uturn__level_store *ls = &ex->levels[k];
        if (ls->running)
            ls->storage.ops->end_run(&ls->storage);
        if (ls->storage.ops != NULL)
            ls->storage.ops->close(&ls->storage);
        uturn__space_free(&ls->space, &ex->alloc);
    }
    uturn__free(&ex->alloc, ex->levels,
                (size_t)ex->level_count * sizeof *ex->levels);
    ex->levels      = NULL;
    ex->level_count = 0;
}

/* Lay level k's slots out and begin its run. */
static uturn_status_t begin_one(struct uturn__run *run, uint64_t k)
{
    const uturn_plan_t *p         = run->plan;
    struct uturn__level_store *ls = &run->ex->levels[k - 1];
    const uint64_t slots          = p->levels[k].slots;
    const uint64_t peak = run->online ? slots : p->level_stats[k].peak_slots;
    uint64_t bytes      = 0;
    if (uturn__mul_u64(peak, run->stride, &bytes) != UTURN_OK)
        return uturn__fail(run->error, UTURN_E_OVERFLOW,
                           "level %llu's slots pass 2^64 bytes",
                           (unsigned long long)k);
    const struct uturn__space_plan layout = {.sized  = false,
                                             .span   = slots,
                                             .peak   = peak,
                                             .stride = run->stride,
                                             .region = bytes};
    if (uturn__space_begin(&ls->space, &run->ex->alloc, &layout) != UTURN_OK)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for level %llu's tables",
                           (unsigned long long)k);
    struct uturn__storage *st = &ls->storage;
    st->message[0]            = '\0';
    const uturn_status_t s    = st->ops->begin_run(st, bytes, ls->space.ids);
    if (s != UTURN_OK)
        return uturn__fail(run->error, s, "storage level %llu (%s): %s",
                           (unsigned long long)k, p->levels[k].name,
                           st->message);
    ls->running = true;
    return UTURN_OK;
}

/* Memory for states on their way to or from a level, after level 0's
 * slots: with an overlapped level the executor's io_buffers, else one (a
 * save/load model's staging). */
uint64_t uturn__level_buffers_for(const uturn_executor_t *ex,
                                  uint64_t level_count)
{
    if (level_count <= 1)
        return 0;
    for (uint64_t k = 1; k < level_count && k <= ex->level_count; k++)
        if (ex->levels[k - 1].overlapped)
            return ex->io_buffers;
    return 1;
}

uint64_t uturn__level_buffers(const uturn_executor_t *ex,
                              const uturn_plan_t *plan)
{
    return uturn__level_buffers_for(ex, plan->level_count);
}

static bool any_overlapped(const struct uturn__run *run)
{
    for (uint64_t k = 1; k < run->levels; k++)
        if (run->ex->levels[k - 1].overlapped)
            return true;
    return false;
}

static uturn_status_t check_levels(const struct uturn__run *run)
{
    const uturn_plan_t *p = run->plan;
    if (p->level_count > 1 + run->ex->level_count)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "the plan has %llu storage levels; the executor "
                           "has storage for %llu (give "
                           "uturn_executor_options_t.levels)",
                           (unsigned long long)p->level_count,
                           (unsigned long long)run->ex->level_count + 1);
    if (run->sized)
        return uturn__fail(run->error, UTURN_E_UNSUPPORTED,
                           "storage levels with states of different sizes "
                           "are not run yet: give uniform states");
    return UTURN_OK;
}

uturn_status_t uturn__run_levels_begin(struct uturn__run *run)
{
    const uturn_plan_t *p = run->plan;
    run->levels           = p->level_count;
    run->level_base[0]    = 0;
    for (uint64_t k = 0; k < run->ex->level_count; k++) {
        struct uturn__level_store *ls = &run->ex->levels[k];
        ls->stores = ls->restores = ls->held = ls->peak = 0;
        ls->wait_seconds                                = 0;
        ls->storage.bytes_written = ls->storage.bytes_read = 0;
        ls->storage.write_seconds = ls->storage.read_seconds = 0;
    }
    for (uint64_t k = 1; k < p->level_count; k++)
        run->level_base[k] = run->level_base[k - 1] + p->levels[k - 1].slots;
    if (p->level_count <= 1)
        return UTURN_OK;
    uturn_status_t st = check_levels(run);
    for (uint64_t k = 1; st == UTURN_OK && k < p->level_count; k++) {
        st = begin_one(run, k);
        run->report.lossy |= run->ex->levels[k - 1].storage.lossy;
    }
    if (st != UTURN_OK || !any_overlapped(run))
        return st;
    if (uturn__io_start(&run->io, run->ex->levels, run->buffer, run->buffers,
                        run->stride) != UTURN_OK)
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "no thread for the levels' I/O (give the "
                           "levels synchronous = true to run without one)");
    return UTURN_OK;
}

/* Level 0's counts: what the levels beyond it did not take. */
static void report_memory(struct uturn__run *run)
{
    uturn_level_report_t *r = &run->ex->memory_report;
    uturn_level_report_init(r);
    uint64_t stores = run->seen.stores, restores = run->seen.restores;
    for (uint64_t k = 1; k < run->levels && k <= run->ex->level_count; k++) {
        stores -= run->ex->levels[k - 1].stores;
        restores -= run->ex->levels[k - 1].restores;
    }
    r->stores     = stores;
    r->restores   = restores;
    r->peak_slots = run->levels > 1 ? run->memory_peak : run->seen.peak_slots;
}

void uturn__run_levels_end(struct uturn__run *run)
{
    uturn__io_stop(&run->io);
    report_memory(run);
    for (uint64_t k = 0; k < run->ex->level_count; k++) {
        struct uturn__level_store *ls = &run->ex->levels[k];
        if (ls->running)
            ls->storage.ops->end_run(&ls->storage);
        ls->running = false;
    }
}

void uturn_level_report_init_size(uturn_level_report_t *report, size_t size)
{
    if (report == NULL)
        return;
    uturn_level_report_t zero;
    memset(&zero, 0, sizeof zero);
    zero.size = sizeof zero;
    memcpy(report, &zero, size < sizeof zero ? size : sizeof zero);
    report->size = size;
}

uturn_status_t uturn_executor_level_report(const uturn_executor_t *executor,
                                           uint64_t level,
                                           uturn_level_report_t *out)
{
    if (executor == NULL || out == NULL || level > executor->level_count)
        return UTURN_E_INVALID_ARG;
    uturn_level_report_t r = executor->memory_report;
    if (level != 0) {
        const struct uturn__level_store *ls = &executor->levels[level - 1];
        const struct uturn__storage *st     = &ls->storage;
        r = (uturn_level_report_t){.stores        = ls->stores,
                                   .restores      = ls->restores,
                                   .peak_slots    = ls->peak,
                                   .bytes_written = st->bytes_written,
                                   .bytes_read    = st->bytes_read,
                                   .write_seconds = st->write_seconds,
                                   .read_seconds  = st->read_seconds,
                                   .wait_seconds  = ls->wait_seconds,
                                   .overlapped    = ls->overlapped,
                                   .on_tmpfs      = st->on_tmpfs};
    }
    const size_t caller =
        out->size != 0 && out->size < sizeof r ? out->size : sizeof r;
    r.size = caller;
    memcpy(out, &r, caller);
    return UTURN_OK;
}
