/*
 * A plan of several sweeps across ranks: one agreed plan (one
 * fingerprint). uturn_mpi_run runs every sweep, each rank within its
 * budget, the last sweep's gradient (every sweep seeds the same
 * functional) the reference's bit for bit with the plan's counts; with
 * sweeps on request it runs sweep 1, and uturn_mpi_sweep each further
 * one, every gradient the reference's, until the plan's last, after
 * which a further sweep fails on every rank.
 */
#include "mpi_test.h"

#include <string.h>

#define SWEEPS_STEPS  120u
#define SWEEPS_BUDGET (64u * 1024u)
#define SWEEPS_K      3u

bool run_sweeps(chain_t *c, uturn_executor_t *ex, const uturn_mpi_plan_t *mp,
                bool on_request, uint64_t budget)
{
    uturn_model_t model;
    chain_model(c, false, &model);
    chain_reset(c);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.sweeps_on_request = on_request;
    uturn_mpi_run_options_t mo;
    uturn_mpi_run_options_init(&mo);
    mo.run = &o;
    uturn_stats_t seen, want;
    uturn_stats_init(&seen);
    uturn_stats_init(&want);
    uturn_plan_stats(uturn_mpi_plan_core(mp), &want);
    const uint64_t k = want.sweeps;
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_status_t st =
        uturn_mpi_run(mp, ex, &model, &mo, &seen, &rep, NULL, &err);
    bool ok = check(st == UTURN_OK, err.message);
    ok &= check(same_gradient(c), "the gradient of the run's last sweep");
    for (uint64_t j = 2; on_request && j <= k; j++) {
        memset(c->xbar, 0, c->len[0] * sizeof *c->xbar);
        st = uturn_mpi_sweep(mp, ex, &model, NULL, &seen, &rep, NULL, &err);
        ok &= check(st == UTURN_OK, err.message);
        ok &= check(same_gradient(c), "a further sweep's gradient");
        ok &= check(rep.sweeps_done == j, "sweeps done");
    }
    ok &= check(rep.sweeps_done == k && !rep.trajectory_held,
                "every sweep, the trajectory released");
    ok &= check(seen.forward_steps == want.forward_steps &&
                    seen.stores == want.stores &&
                    seen.restores == want.restores &&
                    seen.persistent == want.persistent &&
                    seen.reverse_steps == k * c->steps,
                "the plan's counts");
    ok &= check(budget == 0 || rep.measured_peak_bytes <= budget,
                "within budget");
    if (on_request) /* no trajectory is held any more: every rank fails */
        ok &= check(uturn_mpi_sweep(mp, ex, &model, NULL, NULL, NULL, NULL,
                                    &err) == UTURN_E_INVALID_ARG,
                    "a sweep past the last is refused everywhere");
    return ok;
}

bool case_sweeps(MPI_Comm comm)
{
    chain_t c;
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const uint64_t m = 500u * (uint64_t)(rank + 1);
    bool ok = check(chain_init(&c, comm, m, m, SWEEPS_STEPS), "chain_init");
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "executor");
    uturn_problem_t p;
    uniform_problem(&c, SWEEPS_BUDGET, &p);
    p.sweeps             = SWEEPS_K;
    uturn_mpi_plan_t *mp = NULL;
    uturn_mpi_plan_info_t info;
    const bool planned = plan_checked(comm, ex, &p, &mp, &info);
    ok &= planned;
    if (planned) {
        ok &= check(same_everywhere(comm, info.fingerprint), "one plan");
        ok &= run_sweeps(&c, ex, mp, false, SWEEPS_BUDGET);
        ok &= run_sweeps(&c, ex, mp, true, SWEEPS_BUDGET);
    }
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    chain_free(&c);
    return ok;
}
