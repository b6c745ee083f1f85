/*
 * Runs whose length is found as they go (online plans), and step records
 * (a small fixed-size record per step, written in the first sweep and
 * handed back on every recomputation). What grows with the steps (verify
 * hashes, records) is kept in the executor and grown as the first sweep
 * reaches new steps; it is outside the budget and reported.
 */
#include "executor.h"

#include <string.h>

/* Grow a kept byte table to at least need bytes, keeping its contents
 * (they are this run's: earlier steps' hashes and records). */
static bool grow(const uturn_allocator_t *a, unsigned char **table,
                 uint64_t *cap, uint64_t need)
{
    if (need <= *cap)
        return true;
    uint64_t more = *cap < 4096 ? 4096 : *cap;
    while (more < need)
        more = more > UINT64_MAX / 2 ? need : more * 2;
    if (more > SIZE_MAX)
        return false;
    unsigned char *grown = uturn__alloc_zeroed(a, (size_t)more, 1);
    if (grown == NULL)
        return false;
    if (*cap != 0)
        memcpy(grown, *table, (size_t)*cap);
    uturn__free(a, *table, (size_t)*cap);
    *table = grown;
    *cap   = more;
    return true;
}

uturn_status_t uturn__run_reserve_steps(struct uturn__run *run, uint64_t step)
{
    uturn_executor_t *ex = run->ex;
    if (run->options.verify) {
        unsigned char *t = (unsigned char *)ex->hashes;
        uint64_t cap     = ex->hashes_cap * sizeof *ex->hashes;
        if (!grow(&ex->alloc, &t, &cap, (step + 2) * sizeof *ex->hashes))
            return uturn__fail(run->error, UTURN_E_NOMEM,
                               "out of memory for the hashes of %llu states",
                               (unsigned long long)(step + 2));
        ex->hashes     = (uint64_t *)(void *)t;
        ex->hashes_cap = cap / sizeof *ex->hashes;
        run->hashes    = ex->hashes;
        run->report.verify_bytes = cap;
    }
    if (run->record_bytes != 0 &&
        !grow(&ex->alloc, &ex->records, &ex->records_cap,
              (step + 1) * run->record_bytes))
        return uturn__fail(run->error, UTURN_E_NOMEM,
                           "out of memory for the records of %llu steps",
                           (unsigned long long)(step + 1));
    run->report.record_bytes = ex->records_cap;
    return UTURN_OK;
}

int uturn__run_forward(struct uturn__run *run, uint64_t step)
{
    const uturn_model_t *m = &run->model;
    if (run->record_bytes == 0)
        return m->forward(m->user, step);
    const bool again = step < run->frontier;
    if (!again && run->online &&
        uturn__run_reserve_steps(run, step) != UTURN_OK)
        return -1; /* reported by the caller as an allocation failure */
    run->frontier = again ? run->frontier : step + 1;
    return m->forward_record(m->user, step,
                             run->ex->records + step * run->record_bytes,
                             again);
}

/* Bytes mode: x_step's share of the plan's budget B. The run holds
 * strides in a region of A bytes (its own budget at real cost), so a
 * state of stride s takes ceil(B s / A): shares that sum to at most B are
 * strides that sum to at most A, whatever B and A are (one process's
 * budget, or units agreed across processes). */
static uturn_status_t share_of(struct uturn__run *run, uint64_t step,
                               uint64_t *bytes_out, uint64_t *share)
{
    const uturn_model_t *m = &run->model;
    const uint64_t bytes   = m->state_size(m->user, step);
    *bytes_out             = bytes;
    if (bytes == 0)
        return uturn__fail(run->error, UTURN_E_INVALID_ARG,
                           "the state_size callback gave 0 bytes for x_%llu",
                           (unsigned long long)step);
    const uint64_t B       = run->plan->problem.budget_bytes;
    uint64_t stride        = 0;
    const bool fits        = uturn__stride(bytes, &stride) && run->room != 0;
    const uturn__u128 q    = fits ? ((uturn__u128)B * stride + run->room - 1) /
                                     run->room
                                  : 0;
    if (fits && q <= UINT64_MAX) {
        *share = (uint64_t)q;
        return UTURN_OK;
    }
    return uturn__fail(run->error, UTURN_E_INFEASIBLE,
                       "x_%llu (%llu bytes) cannot be planned within the "
                       "budget of %llu bytes",
                       (unsigned long long)step, (unsigned long long)bytes,
                       (unsigned long long)run->budget);
}

/* What this process found about x_step, and the layer's agreement (the
 * model's agree), which may only raise it. */
static uturn_status_t agree(struct uturn__run *run, uint64_t step, int *last,
                            uint64_t *share)
{
    const uturn_model_t *m = &run->model;
    if (m->agree == NULL)
        return UTURN_OK;
    const int mine       = *last;
    const uint64_t found = *share;
    const int rc         = m->agree(m->user, step, last, share);
    if (rc != 0)
        return uturn__run_callback_failed(run, "agree", step, rc);
    if ((*last != 0) < (mine != 0) || *share < found)
        return uturn__fail(run->error, UTURN_E_CALLBACK,
                           "the agree callback lowered what x_%llu's "
                           "process found (last %d to %d, share %llu to "
                           "%llu)",
                           (unsigned long long)step, mine, *last,
                           (unsigned long long)found,
                           (unsigned long long)*share);
    return UTURN_OK;
}

/* x_step is reached: is it the last (asked when @p ask), and in bytes mode
 * its share, agreed; then the plan ends there or takes the share. */
static uturn_status_t learn(struct uturn__run *run, uint64_t step, bool ask)
{
    const struct uturn__planner *g = run->plan->planner;
    const uturn_model_t *m         = &run->model;
    const bool sized = g->sized != NULL && g->sized(run->plan);
    if (!ask && !sized)
        return UTURN_OK;
    int last          = ask && m->is_last != NULL && m->is_last(m->user, step);
    uint64_t share = 0, bytes = 0;
    uturn_status_t st =
        sized ? share_of(run, step, &bytes, &share) : UTURN_OK;
    if (st == UTURN_OK)
        st = agree(run, step, &last, &share);
    if (st != UTURN_OK)
        return st;
    if (last != 0)
        st = g->end(run->ex->gen);
    else if (sized)
        st = uturn__gen_set_size(g, &run->ex->alloc, &run->ex->gen,
                                 &run->ex->gen_bytes, step, share);
    if (st == UTURN_OK && sized && last == 0 && run->durable != NULL)
        return uturn__durable_share(run, step, share);
    if (st == UTURN_OK)
        return UTURN_OK;
    if (st == UTURN_E_NOMEM) /* the plan's state, grown at x_1 */
        return uturn__fail(run->error, st,
                           "out of memory for the online plan's state at "
                           "x_%llu (the budget holds that many states: "
                           "about 160 bytes of state each)",
                           (unsigned long long)step);
    return last != 0
               ? uturn__fail(run->error, st,
                             "the online plan could not end at x_%llu",
                             (unsigned long long)step)
               : uturn__fail(run->error, st,
                             "x_%llu (%llu bytes here; a share of %llu of "
                             "the plan's %llu) cannot be planned within the "
                             "budget of %llu bytes",
                             (unsigned long long)step,
                             (unsigned long long)bytes,
                             (unsigned long long)share,
                             (unsigned long long)run->plan->problem.budget_bytes,
                             (unsigned long long)run->budget);
}

uturn_status_t uturn__run_online_step(struct uturn__run *run,
                                      const uturn_action_t *last)
{
    const struct uturn__planner *g = run->plan->planner;
    if (last == NULL) /* before the first fill: x_0's size */
        return learn(run, 0, false);
    uturn_status_t st = UTURN_OK;
    if (g->awaits_end(run->ex->gen))
        st = learn(run, last->step_end, true);
    uturn__run_online_known(run);
    return st;
}

void uturn__run_online_known(struct uturn__run *run)
{
    const struct uturn__planner *g = run->plan->planner;
    /* Known now: said by the model, or max_steps reached. */
    const uint64_t n = g->steps_known(run->ex->gen);
    if (n != 0) {
        run->steps        = n;
        run->seen.steps   = n;
        run->report.steps = n;
        const uint64_t fw = g->forward_total(run->ex->gen);
        const uint64_t rv = uturn__run_reverse_total(run); /* k n */
        run->work_total   = fw != UINT64_MAX && rv <= UINT64_MAX - fw
                                ? fw + rv
                                : UTURN_NONE;
    }
}

uturn_status_t uturn__run_online_done(struct uturn__run *run)
{
    const struct uturn__planner *g = run->plan->planner;
    if (!run->online || g->steps_known(run->ex->gen) != 0)
        return UTURN_OK;
    return uturn__fail(run->error, UTURN_E_INFEASIBLE,
                       "the online plan stopped its first sweep at x_%llu "
                       "before the model's last state (an online plan with "
                       "storage levels reaches its last level's slots "
                       "times its period, or its max_steps: give a larger "
                       "max_steps)",
                       (unsigned long long)run->seen.forward_steps);
}
