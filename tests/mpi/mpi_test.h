/*
 * The MPI layer's test program (run under mpirun by ctest): one case per
 * invocation, `mpi_layer CASE`. Every verdict is collective: a case passes
 * when it passed on every rank, and rank 0 prints "ok CASE" or the ranks
 * print "FAIL" lines.
 */
#ifndef UTURN_MPI_TEST_H_INCLUDED
#define UTURN_MPI_TEST_H_INCLUDED

#include "mpi_chain.h"

#include <uturn_mpi.h>

/* Record a failed check on this rank (prints "FAIL rank R: WHAT"). */
bool check(bool cond, const char *what);
/* Whether @p cond holds on every rank. */
bool everywhere(MPI_Comm comm, bool cond);
/* Whether @p v is the same on every rank. */
bool same_everywhere(MPI_Comm comm, uint64_t v);
uint64_t min_over(MPI_Comm comm, uint64_t v);
uint64_t max_over(MPI_Comm comm, uint64_t v);
uint64_t sum_over(MPI_Comm comm, uint64_t v);
/* @p err says @p status and its message begins with @p prefix. */
bool failed_as(uturn_status_t got, const uturn_error_t *err,
               uturn_status_t status, const char *prefix);
/* Plan @p p across @p comm into *mp (its info in *info): true when it
 * planned, else a failed check with the library's message. */
bool plan_checked(MPI_Comm comm, uturn_executor_t *ex, const uturn_problem_t *p,
                  uturn_mpi_plan_t **mp, uturn_mpi_plan_info_t *info);
/* The uniform problem of the tests: revolve, @p c's steps and state. */
void uniform_problem(const chain_t *c, uint64_t budget, uturn_problem_t *p);
/* Run @p mp on @p c and compare the gradient with the reference. */
bool run_and_compare(const uturn_mpi_plan_t *mp, uturn_executor_t *ex,
                     chain_t *c, bool saveload, uint64_t budget);

/* The cases: true when they passed on this rank. */
bool case_uniform(MPI_Comm comm, bool saveload);
bool case_sized(MPI_Comm comm);
bool case_adopt(MPI_Comm comm);
bool case_alloc(MPI_Comm comm);
bool case_dp_uniform(MPI_Comm comm);
bool case_infeasible(MPI_Comm comm);
bool case_sized_infeasible(MPI_Comm comm);
bool case_run_infeasible(MPI_Comm comm);
bool case_durable_refused(MPI_Comm comm);
bool case_disagree(MPI_Comm comm);
bool case_fingerprint(MPI_Comm comm);
bool case_midrun(MPI_Comm comm);
bool case_levels(MPI_Comm comm);
bool case_online(MPI_Comm comm);
bool case_online_sized(MPI_Comm comm);
bool case_stuck(MPI_Comm comm, bool abort_on_failure);
bool case_online_fail(MPI_Comm comm);
bool case_online_no_end(MPI_Comm comm);
bool case_online_sweeps(MPI_Comm comm);
bool case_sweeps(MPI_Comm comm);
bool case_levels_sweeps(MPI_Comm comm);
bool case_sweeps_fail(MPI_Comm comm);
bool case_sweeps_refused(MPI_Comm comm);
bool case_sweep_ignores_run(MPI_Comm comm);
bool case_sweeps_request_differs(MPI_Comm comm);
/* A plan of several sweeps run across ranks (mpi_cases_sweeps.c): in one
 * call, or on request (then each further sweep by uturn_mpi_sweep, and one
 * past the last refused everywhere); every sweep's gradient the
 * reference's, the plan's counts, the measured peak within budget (0: not
 * checked). */
bool run_sweeps(chain_t *c, uturn_executor_t *ex, const uturn_mpi_plan_t *mp,
                bool on_request, uint64_t budget);
/* The run's gradient (c->xbar) against the reference, bit for bit. */
bool same_gradient(chain_t *c);

#endif
