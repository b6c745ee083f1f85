/*
 * Cases where the ranks agree. "uniform" is the report's uneven case: the
 * same byte budget on every rank and states of different sizes, so that
 * ranks planning alone get different slot counts and plans (checked: the
 * fingerprints of their own plans differ), while the agreed plan is one
 * plan, whose run gives the reference gradient on every rank.
 */
#include "mpi_test.h"

#include <stdio.h>
#include <stdlib.h>

#define UNIFORM_STEPS  200u
#define UNIFORM_BUDGET (96u * 1024u) /* 12 slots of 8000 bytes, 6 of 16000 */
#define SIZED_STEPS    60u
#define SIZED_BUDGET   (48u * 1024u)

/* What each rank would plan alone: its own capacity and fingerprint. */
static bool alone(MPI_Comm comm, const uturn_executor_t *ex,
                  const uturn_problem_t *p, uint64_t *slots)
{
    uturn_plan_t *own = NULL;
    uturn_stats_t s;
    uturn_stats_init(&s);
    bool ok = check(uturn_executor_plan(ex, p, &own, NULL) == UTURN_OK &&
                        uturn_plan_stats(own, &s) == UTURN_OK,
                    "a rank's own plan");
    uturn_plan_free(own);
    *slots   = s.slots;
    int size = 0;
    MPI_Comm_size(comm, &size);
    /* With more than one rank the plans made alone disagree: the report's
     * bug, which the layer exists for. */
    ok &= check(size == 1 || !same_everywhere(comm, s.fingerprint),
                "ranks planning alone disagree");
    return ok;
}

static bool check_info(MPI_Comm comm, const uturn_mpi_plan_info_t *in,
                       uint64_t own_slots)
{
    int size = 0;
    MPI_Comm_size(comm, &size);
    bool ok = check(in->slots == min_over(comm, own_slots),
                    "the agreed capacity is the least");
    ok &= check(in->own_slots == own_slots, "own_slots");
    ok &= check(in->limiting_rank == size - 1, "the limiting rank");
    ok &= check(same_everywhere(comm, in->fingerprint), "one fingerprint");
    ok &= check(in->collectives == 3, "three collectives");
    /* The limiting rank alone would make the agreed plan; the others,
     * with more slots, would recompute less. */
    ok &= check(in->own_forward_cost_max == in->forward_cost &&
                    in->own_forward_cost_min <= in->own_forward_cost &&
                    in->own_forward_cost <= in->forward_cost,
                "own costs");
    if (in->rank == 0)
        printf("  agreed %llu slots (rank %d limits), forward_cost %llu; "
               "alone %llu .. %llu; plan %llu bytes, %.4f s\n",
               (unsigned long long)in->slots, in->limiting_rank,
               (unsigned long long)in->forward_cost,
               (unsigned long long)in->own_forward_cost_min,
               (unsigned long long)in->own_forward_cost_max,
               (unsigned long long)in->plan_bytes, in->planning_seconds);
    return ok;
}

bool case_uniform(MPI_Comm comm, bool saveload)
{
    chain_t c;
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const uint64_t m = 1000u * (uint64_t)(rank + 1);
    bool ok = check(chain_init(&c, comm, m, m, UNIFORM_STEPS), "chain_init");
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "executor");
    uturn_problem_t p;
    uniform_problem(&c, UNIFORM_BUDGET, &p);
    uint64_t own = 0;
    ok &= alone(comm, ex, &p, &own);
    uturn_mpi_plan_t *mp = NULL;
    uturn_mpi_plan_info_t info;
    const bool planned = plan_checked(comm, ex, &p, &mp, &info);
    ok &= planned;
    if (planned) {
        ok &= check_info(comm, &info, own);
        ok &= run_and_compare(mp, ex, &c, saveload, UNIFORM_BUDGET);
    }
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    chain_free(&c);
    return ok;
}

/* States that grow with the step, at a rate of each rank's own, so that
 * the ranks' ratios of size to budget differ from step to step. */
bool case_sized(MPI_Comm comm)
{
    chain_t c;
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const uint64_t r = (uint64_t)rank;
    bool ok =
        check(chain_init(&c, comm, 200 * (r + 1), 400 + 300 * r, SIZED_STEPS),
              "chain_init");
    uint64_t sizes[SIZED_STEPS];
    for (uint64_t i = 0; i < SIZED_STEPS; i++)
        sizes[i] = chain_bytes(&c, i);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner            = UTURN_PLANNER_DP;
    p.steps              = SIZED_STEPS;
    p.step_bytes         = sizes;
    p.budget_bytes       = SIZED_BUDGET;
    p.threads            = 1 + r % 3; /* never part of what ranks agree on */
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "executor");
    uturn_mpi_plan_t *mp = NULL;
    uturn_mpi_plan_info_t in;
    uturn_mpi_plan_info_init(&in);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_plan_create(comm, ex, &p, NULL, &mp, &in, &err);
    ok &= check(st == UTURN_OK, err.message);
    if (st == UTURN_OK) {
        ok &= check(in.units == UTURN_MPI_UNITS && in.collectives == 4,
                    "1024 units, four collectives");
        ok &= check(same_everywhere(comm, in.fingerprint), "fingerprint");
        ok &= check(in.own_forward_cost != 0, "own optimum computed");
        if (rank == 0)
            printf("  %llu units: forward_cost %llu agreed, %llu .. %llu "
                   "alone; plan %llu bytes, %.4f s\n",
                   (unsigned long long)in.units,
                   (unsigned long long)in.forward_cost,
                   (unsigned long long)in.own_forward_cost_min,
                   (unsigned long long)in.own_forward_cost_max,
                   (unsigned long long)in.plan_bytes, in.planning_seconds);
        ok &= run_and_compare(mp, ex, &c, false, SIZED_BUDGET);
    }
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    chain_free(&c);
    return ok;
}

/* Plans the ranks made themselves, the same on every rank: adopted and
 * run. */
bool case_adopt(MPI_Comm comm)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 500, 500, 100), "chain_init");
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = 100;
    p.slots            = 7;
    uturn_plan_t *plan = NULL;
    ok &= check(uturn_plan_create(&p, NULL, &plan, NULL) == UTURN_OK, "plan");
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "executor");
    uturn_mpi_plan_t *mp = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_plan_adopt(comm, plan, NULL, &mp, NULL, &err);
    ok &= check(st == UTURN_OK, err.message);
    ok &= check(uturn_mpi_plan_core(mp) == plan, "the plan is borrowed");
    if (st == UTURN_OK)
        ok &= run_and_compare(mp, ex, &c, false, UINT64_MAX);
    uturn_mpi_plan_free(mp);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    chain_free(&c);
    return ok;
}

/* A counting allocator: every byte the layer takes through options.alloc
 * (the MPI plan, its sizes, the agreed plan) must come back by
 * uturn_mpi_plan_free(), whether the creation succeeded or failed. Leak
 * checking under MPI needs this: LeakSanitizer cannot tell Open MPI's
 * allocations from ours, so the sanitizer builds run MPI tests without it. */
struct counter {
    int64_t live, blocks;
};

static void *count_alloc(void *user, size_t bytes)
{
    struct counter *c = user;
    c->live += (int64_t)bytes;
    c->blocks += 1;
    return malloc(bytes);
}

static void count_free(void *user, void *p, size_t bytes)
{
    struct counter *c = user;
    c->live -= (int64_t)bytes;
    c->blocks -= 1;
    free(p);
}

static bool create_counted(MPI_Comm comm, const uturn_problem_t *p,
                           bool succeeds, struct counter *count)
{
    const uturn_allocator_t a = {count_alloc, count_free, count};
    uturn_mpi_options_t o;
    uturn_mpi_options_init(&o);
    o.alloc              = &a;
    uturn_executor_t *ex = NULL;
    bool ok = check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "ex");
    uturn_mpi_plan_t *mp = NULL;
    const uturn_status_t st =
        uturn_mpi_plan_create(comm, ex, p, &o, &mp, NULL, NULL);
    ok &= check((st == UTURN_OK) == succeeds, "the creation's outcome");
    ok &= check(!succeeds || count->blocks > 0, "the layer used the allocator");
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    ok &=
        check(count->live == 0 && count->blocks == 0, "every block given back");
    return ok;
}

bool case_alloc(MPI_Comm comm)
{
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    struct counter count = {0, 0};
    uint64_t sizes[SIZED_STEPS];
    for (uint64_t i = 0; i < SIZED_STEPS; i++)
        sizes[i] = 1600 + 64 * i * (uint64_t)(rank + 1);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps        = SIZED_STEPS;
    p.slot_bytes   = 4000;
    p.budget_bytes = SIZED_BUDGET;
    bool ok        = create_counted(comm, &p, true, &count);
    p.budget_bytes = rank == size - 1 ? 100 : SIZED_BUDGET;
    ok &= create_counted(comm, &p, false, &count);
    p.planner      = UTURN_PLANNER_DP;
    p.slot_bytes   = 0;
    p.step_bytes   = sizes;
    p.budget_bytes = SIZED_BUDGET;
    ok &= create_counted(comm, &p, true, &count);
    p.budget_bytes = rank == size - 1 ? 100 : SIZED_BUDGET;
    ok &= create_counted(comm, &p, false, &count);
    return ok;
}

/* dp with uniform states of a different size on every rank, and step
 * costs of a rank's own: one plan, whose costs are the largest per step
 * (here 1 + i % 3 + the last rank), as a plan made alone from those
 * costs at the agreed capacity. */
bool case_dp_uniform(MPI_Comm comm)
{
    chain_t c;
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const uint64_t m = 500u * (uint64_t)(rank + 1);
    bool ok = check(chain_init(&c, comm, m, m, SIZED_STEPS), "chain_init");
    uint64_t costs[SIZED_STEPS], most[SIZED_STEPS];
    for (uint64_t i = 0; i < SIZED_STEPS; i++) {
        costs[i] = 1 + i % 3 + (uint64_t)rank;
        most[i]  = 1 + i % 3 + (uint64_t)(size - 1);
    }
    uturn_problem_t p;
    uniform_problem(&c, SIZED_BUDGET, &p);
    p.planner            = UTURN_PLANNER_DP;
    p.step_costs         = costs;
    p.threads            = 1 + (uint64_t)rank % 3; /* the plan alone: 1 */
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_create(NULL, &ex, NULL) == UTURN_OK, "ex");
    uturn_mpi_plan_t *mp = NULL;
    uturn_mpi_plan_info_t in;
    uturn_mpi_plan_info_init(&in);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_plan_create(comm, ex, &p, NULL, &mp, &in, &err);
    ok &= check(st == UTURN_OK, err.message);
    uturn_problem_t alone;
    uturn_problem_init(&alone);
    alone.planner      = UTURN_PLANNER_DP;
    alone.steps        = SIZED_STEPS;
    alone.slots        = in.slots;
    alone.slot_bytes   = 1; /* as the layer plans dp: in slots */
    alone.step_costs   = most;
    uturn_plan_t *want = NULL;
    uturn_stats_t s;
    uturn_stats_init(&s);
    ok &= check(uturn_plan_create(&alone, NULL, &want, NULL) == UTURN_OK &&
                    uturn_plan_stats(want, &s) == UTURN_OK,
                "the plan made alone");
    ok &= check(st == UTURN_OK && in.fingerprint == s.fingerprint &&
                    in.collectives == 4,
                "the largest costs, four collectives");
    if (st == UTURN_OK)
        ok &= run_and_compare(mp, ex, &c, false, SIZED_BUDGET);
    uturn_plan_free(want);
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    chain_free(&c);
    return ok;
}
