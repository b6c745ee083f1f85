/*
 * uturn across MPI ranks: one plan for every rank, each with its own part
 * of the state and its own budget. Rank r holds 1000 (r + 1) chains
 * x_{i+1} = x_i / (1 + h x_i), so the ranks' states differ while their
 * budgets are the same: alone, each would plan for a different number of
 * slots, and the ranks would soon be at different actions. J is the sum
 * of x_n^2 / 2 over every rank, so dJ/dx_0 = x_n / (1 + n h x_0)^2.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <uturn_mpi.h>

#define STEPS  500u
#define BUDGET (1u << 20) /* bytes of checkpoints, on every rank */
#define H      0.01

typedef struct part {
    double *x, *xbar;
    size_t n;
} part_t;

static int forward(void *user, uint64_t step)
{
    part_t *p = user;
    (void)step;
    for (size_t k = 0; k < p->n; k++)
        p->x[k] /= 1 + H * p->x[k];
    return 0;
}

static int turn(void *user)
{
    part_t *p = user;
    for (size_t k = 0; k < p->n; k++)
        p->xbar[k] = p->x[k];
    return 0;
}

static int adjoint(void *user, uint64_t step)
{
    part_t *p = user;
    (void)step;
    for (size_t k = 0; k < p->n; k++)
        p->xbar[k] /= (1 + H * p->x[k]) * (1 + H * p->x[k]);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    part_t p = {.n = 1000 * (size_t)(rank + 1)};
    p.x      = malloc(p.n * sizeof *p.x);
    p.xbar   = malloc(p.n * sizeof *p.xbar);
    for (size_t k = 0; k < p.n; k++)
        p.x[k] = 1.0 + 0.001 * (double)k;

    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    uturn_problem_t problem;
    uturn_problem_init(&problem);
    problem.steps        = STEPS;
    problem.slot_bytes   = p.n * sizeof(double); /* this rank's state */
    problem.budget_bytes = BUDGET;               /* this rank's budget */
    uturn_model_t model;
    uturn_model_init(&model);
    model.user        = &p;
    model.forward     = forward;
    model.turn        = turn;
    model.adjoint     = adjoint;
    model.state       = p.x;
    model.state_bytes = p.n * sizeof(double);

    /* Collective: the same status on every rank, and one plan. */
    uturn_mpi_plan_t *plan = NULL;
    uturn_mpi_plan_info_t info;
    uturn_mpi_plan_info_init(&info);
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_status_t st = uturn_mpi_plan_create(MPI_COMM_WORLD, ex, &problem,
                                              NULL, &plan, &info, &err);
    if (st == UTURN_OK)
        st = uturn_mpi_run(plan, ex, &model, NULL, NULL, NULL, NULL, &err);

    int ok = st == UTURN_OK, all = 0;
    for (size_t k = 0; ok && k < p.n; k++) {
        const double x0 = 1.0 + 0.001 * (double)k, s = 1 + STEPS * H * x0;
        ok = fabs(p.xbar[k] - x0 / (s * s * s)) <= 1e-12 * p.xbar[k];
    }
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (st != UTURN_OK && rank == 0)
        printf("%s: %s\n", uturn_status_name(st), err.message);
    if (st == UTURN_OK && rank == 0)
        printf("%d ranks, one plan: %llu slots (rank %d's budget limits "
               "them), %llu forward steps; gradient %s\n",
               info.ranks, (unsigned long long)info.slots,
               info.limiting_rank, (unsigned long long)info.forward_cost,
               all ? "ok" : "FAIL");
    uturn_mpi_plan_free(plan); /* collective, before MPI_Finalize */
    uturn_executor_free(ex);
    free(p.x);
    free(p.xbar);
    MPI_Finalize();
    return all ? 0 : 1;
}
