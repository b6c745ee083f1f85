/*
 * The PETSc layer's tests: one driver for every problem. A problem sets a
 * TS up (its functions and Jacobians; the method comes from the options),
 * gives x_0 and seeds the cost gradients after the solve. The driver
 * computes the reference gradients with PETSc's own memory trajectory
 * (storing every step, stages included) and then, in the same program,
 * the gradients with the "uturn" type at each budget asked for, and
 * checks every rank: the gradients (lambda and mu) equal the reference bit
 * for bit, the measured checkpoint peak is within the budget, and the
 * counts are what the plan says (revolve's t(n + 1, s) for fixed steps,
 * the online plan's ratio for adaptive ones). Rank 0 prints one line per
 * run and "ok" or "FAIL" lines; the exit status is 0 only when every
 * check passed on every rank.
 */
#ifndef UTURN_PETSC_DRIVER_H_INCLUDED
#define UTURN_PETSC_DRIVER_H_INCLUDED

#include <petscts.h>
#include <stdbool.h>
#include <stdint.h>
#include <uturn_petsc.h>

typedef struct problem {
    const char *name;
    void *ctx;
    PetscInt numcost; /* cost functions */
    bool with_mu;     /* gradients with respect to parameters too */
    /* Set the TS's functions and Jacobians (before TSSetFromOptions). */
    PetscErrorCode (*setup)(void *ctx, TS ts);
    /* A new solution vector holding x_0. */
    PetscErrorCode (*initial)(void *ctx, Vec *u);
    /* New gradient vectors, seeded from the final state u. */
    PetscErrorCode (*seed)(void *ctx, Vec u, Vec *lambda, Vec *mu);
} problem_t;

/* Solves and adjoints with trajectory type @p type, @p times of them on
 * one TS; the last gradients are left in new vectors *lambda and *mu (free
 * them with driver_free_gradients()), a uturn run's report in @p report
 * (NULL: none). */
PetscErrorCode driver_solve(const problem_t *p, const char *type, int times,
                            Vec **lambda, Vec **mu,
                            uturn_petsc_report_t *report);
PetscErrorCode driver_free_gradients(const problem_t *p, Vec **lambda,
                                     Vec **mu);

/* Run the test the options describe (see petsc_driver.c) on @p p. */
PetscErrorCode driver_run(const problem_t *p, bool *ok);

#endif
