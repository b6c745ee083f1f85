/*
 * uturn_mpi_run(): one executor run per rank between two votes. The first
 * vote sits in the gate (mpi_gate.c), before any callback of the model;
 * the second follows the run and carries the figures the combined report
 * needs, so a run that succeeds makes exactly two collective calls,
 * whatever its length. A failure adds one broadcast: the lowest failing
 * rank's message, which every rank then returns.
 */
#include "mpi_internal.h"

#include <stdio.h>
#include <string.h>

struct running {
    const uturn_mpi_plan_t *mp;
    const uturn_executor_t *ex;
    struct uturn__mpi_gate gate;
    uturn_mpi_run_options_t options;
    uturn_run_options_t run; /* what this rank's executor gets */
    uturn_stats_t seen;
    uturn_report_t report;
    uturn_status_t status; /* this rank's own */
    uturn_error_t error;   /* and what it said */
    struct uturn__mpi_durable durable;
};

/* This rank's checks of what it was given. */
static uturn_status_t check(struct running *r, const uturn_mpi_plan_t *mp,
                            const uturn_executor_t *ex,
                            const uturn_model_t *model)
{
    if (ex == NULL || model == NULL)
        return uturn__mpi_fail(&r->error, UTURN_E_INVALID_ARG,
                               "executor and model must not be NULL");
    uturn__mpi_model_read(model, &r->gate.user);
    if (r->gate.user.agree != NULL)
        return uturn__mpi_fail(&r->error, UTURN_E_INVALID_ARG,
                               "the model's agree is the MPI layer's own: "
                               "leave it NULL");
    if (mp->step_bytes != NULL && r->run.step_bytes != NULL)
        return uturn__mpi_fail(&r->error, UTURN_E_INVALID_ARG,
                               "the plan has this rank's per-step sizes: "
                               "leave the run options' step_bytes NULL");
    if (mp->step_bytes != NULL)
        r->run.step_bytes = mp->step_bytes;
    if (r->run.budget_bytes == 0)
        r->run.budget_bytes = mp->budget_bytes;
    return UTURN_OK;
}

static uturn_status_t begin(struct running *r, const uturn_mpi_plan_t *mp,
                            const uturn_executor_t *ex,
                            const uturn_model_t *model,
                            const uturn_mpi_run_options_t *options, bool sweep)
{
    memset(r, 0, sizeof *r);
    r->mp                    = mp;
    r->ex                    = ex;
    r->gate.comm             = mp->comm;
    r->gate.comm.collectives = 0;
    r->gate.comm.seconds     = 0;
    r->gate.state            = UTURN__GATE_CLOSED;
    uturn_stats_init(&r->seen);
    uturn_report_init(&r->report);
    uturn_error_init(&r->error);
    uturn__mpi_run_options_read(options, &r->options);
    uturn__mpi_core_options_read(r->options.run, &r->run);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(uturn__mpi_plan_of(mp), &s);
    r->gate.share_limit = s.budget_bytes;
    uturn_problem_t p;
    uturn_problem_init(&p);
    uturn_plan_problem(uturn__mpi_plan_of(mp), &p);
    /* A further sweep has no first sweep to end (no end votes), and
     * does not read options->run: no durable run either. */
    r->gate.online    = s.online && !sweep;
    r->gate.max_steps = p.max_steps;
    if (sweep)
        r->run.durable_dir = NULL;
    r->gate.on_request      = !sweep && r->run.sweeps_on_request;
    const uturn_status_t st = check(r, mp, ex, model);
    /* collective: made whatever this rank's checks found */
    const uturn_status_t ds = uturn__mpi_durable_begin(
        &r->durable, &r->gate, &r->run, st == UTURN_OK ? &r->error : NULL);
    return st != UTURN_OK ? st : ds;
}

/* This rank failed after its first callback, and the other ranks may be
 * waiting for it in an exchange of their callbacks: the job ends rather
 * than hang (uturn_mpi_run_options_t.local_callbacks). */
static void abort_job(struct running *r)
{
    const struct uturn__mpi_comm *c = &r->gate.comm;
    fprintf(stderr, "uturn_mpi: rank %d of %d: %s: %s; calling MPI_Abort\n",
            c->rank, c->size, uturn_status_name(r->status), r->error.message);
    fflush(stderr);
    MPI_Abort(c->comm, (int)r->status);
}

/* A failure of this rank alone after the gate opened: abort the job, or,
 * with local callbacks, leave no other rank waiting in an end vote. */
static void failed_alone(struct running *r)
{
    struct uturn__mpi_gate *g = &r->gate;
    if (r->status == UTURN_OK || g->agreed_failure || g->blameless)
        return;
    const bool local = r->options.local_callbacks;
    if (r->options.abort_on_failure || (!local && g->comm.size > 1))
        abort_job(r);
    if (g->online && !g->sweep_over)
        uturn__mpi_gate_catch_up(g);
}

/* A refusal every rank made together at the gate (no rank's model can
 * end the online plan's first sweep; sweeps_on_request differs), before
 * any callback of the model. */
static void refuse_together(struct running *r)
{
    r->status =
        uturn__mpi_fail(&r->error, UTURN_E_INVALID_ARG, "%s", r->gate.refusal);
    r->gate.agreed_failure = true;
}

/* The run's second vote: failures, and this rank's figures. */
static void last_vote(struct running *r, struct uturn__mpi_vote *v)
{
    const uturn_report_t *p = &r->report;
    uturn__mpi_vote_init(v);
    if (r->status != UTURN_OK && !r->gate.blameless)
        uturn__mpi_vote_fail(v, &r->gate.comm);
    v->high[0]        = p->measured_peak_bytes;
    v->total[0]       = p->measured_peak_bytes;
    v->high[1]        = p->planned_peak_bytes;
    v->total[1]       = p->budget_bytes;
    v->seconds_max[0] = p->wall_seconds;
    v->seconds_max[1] = p->forward_seconds;
    v->seconds_max[2] = p->adjoint_seconds;
    v->seconds_max[3] = p->copy_seconds;
    v->seconds_max[4] = p->overhead_seconds;
    v->seconds_max[5] = r->gate.comm.seconds;
    v->seconds_sum[0] = p->forward_seconds;
    v->seconds_sum[1] = p->adjoint_seconds;
    v->seconds_sum[2] = p->copy_seconds;
    for (uint64_t k = 1; k <= UTURN_MPI_LEVELS; k++) {
        uturn_level_report_t l;
        uturn_level_report_init(&l);
        if (uturn_executor_level_report(r->ex, k, &l) != UTURN_OK)
            break;
        v->high[2]      = k; /* the most levels any rank has */
        v->total[1 + k] = l.bytes_written;
        v->total[1 + UTURN_MPI_LEVELS + k] = l.bytes_read;
    }
    uturn__mpi_vote(&r->gate.comm, v);
}

static void combine(const struct running *r, const struct uturn__mpi_vote *v,
                    uturn_status_t agreed, bool ran, uturn_mpi_report_t *out)
{
    uturn_mpi_report_init(out);
    out->status       = agreed;
    out->ranks        = r->gate.comm.size;
    out->failed_rank  = v->failed != 0 ? (int)v->failed_rank : -1;
    out->failed_ranks = v->failed;
    out->collectives  = r->gate.comm.collectives;
    if (!ran)
        return;
    out->measured_peak_bytes_max = v->high[0];
    out->measured_peak_bytes_sum = v->total[0];
    out->planned_peak_bytes_max  = v->high[1];
    out->budget_bytes_sum        = v->total[1];
    out->wall_seconds_max        = v->seconds_max[0];
    out->forward_seconds_max     = v->seconds_max[1];
    out->adjoint_seconds_max     = v->seconds_max[2];
    out->copy_seconds_max        = v->seconds_max[3];
    out->overhead_seconds_max    = v->seconds_max[4];
    out->collective_seconds_max  = v->seconds_max[5];
    out->forward_seconds_sum     = v->seconds_sum[0];
    out->adjoint_seconds_sum     = v->seconds_sum[1];
    out->copy_seconds_sum        = v->seconds_sum[2];
    out->levels                  = v->high[2];
    for (uint64_t k = 1; k <= UTURN_MPI_LEVELS; k++) {
        out->level_bytes_written_sum[k - 1] = v->total[1 + k];
        out->level_bytes_read_sum[k - 1] = v->total[1 + UTURN_MPI_LEVELS + k];
    }
}

/* After the executor returned on this rank: the votes it still owes, the
 * agreed status and the combined report. */
static uturn_status_t settle(struct running *r, uturn_mpi_report_t *combined,
                             uturn_error_t *agreed_error)
{
    struct uturn__mpi_gate *g = &r->gate;
    if (g->state == UTURN__GATE_CLOSED)
        uturn__mpi_gate_vote(g, r->status != UTURN_OK);
    struct uturn__mpi_vote last;
    const struct uturn__mpi_vote *v = &g->vote;
    const bool ran                  = g->vote.failed == 0;
    if (ran) {
        if (g->refusal != NULL)
            refuse_together(r);
        failed_alone(r);
        uturn__mpi_durable_end(&r->durable, r->status != UTURN_OK);
        last_vote(r, &last);
        v = &last;
    }
    uturn_status_t agreed = UTURN_OK;
    if (v->failed != 0)
        agreed = uturn__mpi_agree_failure(
            &g->comm, v,
            (ran ? r->status != UTURN_OK : g->failed_here) ? &r->error : NULL,
            agreed_error);
    combine(r, v, agreed, ran, combined);
    return agreed;
}

/* A run (sweep false) or the next sweep of a held one, between the
 * gate's vote and the last. */
static uturn_status_t
collective(const uturn_mpi_plan_t *plan, uturn_executor_t *executor,
           const uturn_model_t *model, const uturn_mpi_run_options_t *options,
           uturn_stats_t *observed, uturn_report_t *report,
           uturn_mpi_report_t *combined, uturn_error_t *error, bool sweep)
{
    if (plan == NULL)
        return uturn__mpi_fail(error, UTURN_E_INVALID_ARG,
                               "the MPI plan must not be NULL");
    struct running r;
    r.status = begin(&r, plan, executor, model, options, sweep);
    if (r.status == UTURN_OK) {
        uturn_model_t gated;
        uturn__mpi_gate_model(&r.gate, &gated);
        r.status =
            sweep
                ? uturn_executor_sweep(executor, &gated, &r.seen, &r.report,
                                       &r.error)
                : uturn_executor_run(executor, uturn__mpi_plan_of(plan), &gated,
                                     &r.run, &r.seen, &r.report, &r.error);
    }
    uturn_mpi_report_t all;
    uturn_error_t agreed_error;
    uturn_error_init(&agreed_error);
    const uturn_status_t own    = r.status; /* before the agreement */
    const uturn_status_t agreed = settle(&r, &all, &agreed_error);
    uturn__mpi_durable_done(&r.durable, agreed);
    /* A failure elsewhere: this rank's trajectory goes too, as a failed
     * run or sweep drops the failing rank's (uturn_mpi_sweep()). */
    if (agreed != UTURN_OK && own == UTURN_OK) {
        uturn_executor_release(executor);
        r.report.trajectory_held = false;
    }
    uturn__mpi_export(observed, &r.seen, sizeof r.seen);
    uturn__mpi_export(report, &r.report, sizeof r.report);
    uturn__mpi_export(combined, &all, sizeof all);
    if (agreed != UTURN_OK)
        uturn__mpi_error_export(&agreed_error, error);
    return agreed;
}

uturn_status_t uturn_mpi_run(const uturn_mpi_plan_t *plan,
                             uturn_executor_t *executor,
                             const uturn_model_t *model,
                             const uturn_mpi_run_options_t *options,
                             uturn_stats_t *observed, uturn_report_t *report,
                             uturn_mpi_report_t *combined, uturn_error_t *error)
{
    return collective(plan, executor, model, options, observed, report,
                      combined, error, false);
}

uturn_status_t uturn_mpi_sweep(const uturn_mpi_plan_t *plan,
                               uturn_executor_t *executor,
                               const uturn_model_t *model,
                               const uturn_mpi_run_options_t *options,
                               uturn_stats_t *observed, uturn_report_t *report,
                               uturn_mpi_report_t *combined,
                               uturn_error_t *error)
{
    return collective(plan, executor, model, options, observed, report,
                      combined, error, true);
}
