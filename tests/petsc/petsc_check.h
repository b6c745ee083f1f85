/*
 * Checks and options of the PETSc layer's tests (petsc_check.c). Every
 * check is collective over PETSC_COMM_WORLD: it holds when it holds on
 * every rank.
 */
#ifndef UTURN_PETSC_CHECK_H_INCLUDED
#define UTURN_PETSC_CHECK_H_INCLUDED

#include <petscts.h>
#include <stdbool.h>
#include <stdint.h>
#include <uturn_petsc.h>

#define TEST_MAX_BUDGETS 16

typedef struct test_options {
    uint64_t states[TEST_MAX_BUDGETS]; /* 0: no budget */
    size_t count;
    uint64_t disk_states; /* 0: no disk level */
    char planner[32];
    bool online; /* -test_expect online */
    bool solution_only;
    bool uneven;    /* rank r: r states more */
    bool twice;     /* two solves on one TS */
    int last_stage; /* -test_last_stage: checkpoints keep the last stage
                       (1) or not (0); -1: not checked */
} test_options_t;

PetscErrorCode read_test_options(test_options_t *o);
/* Put the budget options of a run at @p states of this rank's states of
 * @p bytes each. */
PetscErrorCode set_budget_options(const test_options_t *o, uint64_t states,
                                  uint64_t bytes);
/* @p a and @p b hold the same bits on every rank. */
PetscErrorCode check_bitwise(Vec a, Vec b, bool *same);
/* Print the largest difference between @p a and @p b after @p what. */
PetscErrorCode print_difference(const char *what, Vec a, Vec b);
/* Check one run's report and print its line; a state is @p state_bytes
 * here (the budget was given in states). */
PetscErrorCode check_run(const test_options_t *o, uint64_t states,
                         uint64_t state_bytes, const uturn_petsc_report_t *r,
                         bool same, bool *ok);
/* Revolve's forward steps for l - 1 steps in s slots: t(l, s). */
uint64_t revolve_forward_steps(uint64_t l, uint64_t s);

#endif
