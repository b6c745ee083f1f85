/*
 * Uniform states: the ranks agree on a capacity. Each rank counts the
 * slots its own budget holds at its own real slot cost (a rank with twice
 * the state in the same budget holds half the slots), the least of them
 * is the capacity every rank can hold, and every rank plans for it at
 * face value. The plan then depends only on shared inputs, so every rank
 * builds the same one; its fingerprint, which leaves out the bytes a slot
 * counts as, is what the last vote compares.
 */
#include "mpi_internal.h"

#include <string.h>

/* dp's costs, when given, are combined over the ranks after the first
 * vote; room for them is taken before it, so that running out of memory
 * is a failure the vote sees. */
static void costs_room(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    if (p->step_costs == NULL)
        return;
    if (p->steps <= SIZE_MAX / 2 / sizeof *mk->units)
        mk->units = uturn__mpi_alloc(mk->options.alloc,
                                     (size_t)p->steps * 2 * sizeof *mk->units);
    if (mk->units == NULL) {
        uturn__mpi_making_failf(mk, UTURN_E_NOMEM, 0, 0,
                                "out of memory for the costs of %llu steps",
                                (unsigned long long)p->steps);
        return;
    }
    memcpy(mk->units, p->step_costs, (size_t)p->steps * sizeof *mk->units);
}

void uturn__mpi_uniform_prepare(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    costs_room(mk);
    uturn_error_t e;
    uturn_status_t st =
        uturn_executor_slot_bytes(mk->ex, p->slot_bytes, &mk->stride);
    if (st == UTURN_OK && p->levels != NULL) {
        uturn__mpi_levels_prepare(mk);
        return;
    }
    if (st == UTURN_OK && p->budget_bytes != 0)
        st = uturn_executor_capacity(mk->ex, p->slot_bytes, p->budget_bytes,
                                     &mk->own_slots);
    else if (st == UTURN_OK)
        mk->own_slots = p->slots != 0 ? p->slots : UINT64_MAX;
    if (st != UTURN_OK) {
        uturn__mpi_fail(&e, st, "slots of %llu bytes cannot be costed",
                        (unsigned long long)p->slot_bytes);
        uturn__mpi_making_fail(mk, st, &e);
    }
}

/* This rank holds fewer than the @p least slots the planner needs. */
static void too_small(struct uturn__mpi_making *mk, uint64_t least)
{
    const uturn_problem_t *p = &mk->problem;
    uint64_t bytes           = 0;
    uturn_executor_budget(mk->ex, p->slot_bytes, least, &bytes);
    uturn_error_t e;
    if (mk->level_count != 0)
        uturn__mpi_fail(&e, UTURN_E_INFEASIBLE,
                        "its memory level holds %llu slots of %llu bytes "
                        "here; %s needs %llu in memory for %llu steps",
                        (unsigned long long)mk->own_slots,
                        (unsigned long long)p->slot_bytes,
                        uturn_planner_name(p->planner),
                        (unsigned long long)least,
                        (unsigned long long)p->steps);
    else
    uturn__mpi_fail(
        &e, UTURN_E_INFEASIBLE,
        "its budget of %llu bytes holds %llu slots of %llu "
        "bytes here (%llu bytes each); %s needs %llu for %llu "
        "steps, a budget of %llu bytes",
        (unsigned long long)p->budget_bytes, (unsigned long long)mk->own_slots,
        (unsigned long long)p->slot_bytes, (unsigned long long)mk->stride,
        uturn_planner_name(p->planner), (unsigned long long)least,
        (unsigned long long)p->steps, (unsigned long long)bytes);
    e.minimum_slots = least;
    e.minimum_bytes = bytes;
    uturn__mpi_making_fail(mk, UTURN_E_INFEASIBLE, &e);
}

/* The plan for @p slots at face value (0: none needed). A slot counts as
 * this rank's stride, so that the plan's stats are in this rank's bytes;
 * except for dp, whose fingerprint includes its memory unit (the gcd of
 * the sizes): there a slot counts as 1, the same on every rank. */
static uturn_status_t plan_for(struct uturn__mpi_making *mk, uint64_t slots,
                               const uint64_t *level_slots,
                               const uturn_allocator_t *alloc,
                               uturn_plan_t **plan, uturn_error_t *e)
{
    uturn_problem_t a = mk->problem;
    a.budget_bytes    = 0;
    a.slots           = slots;
    a.slot_bytes      = a.planner == UTURN_PLANNER_DP ? 1 : mk->stride;
    a.step_costs      = a.step_costs != NULL ? mk->units : NULL;
    uturn_level_t levels[UTURN_MPI_LEVELS];
    uturn__mpi_levels_problem(mk, level_slots, levels, &a);
    return uturn_plan_create(&a, alloc, plan, e);
}

/* The agreed capacity was below the planner's least: every rank below it
 * fails with its own figures (the first vote cannot know the least). */
static void blame(struct uturn__mpi_making *mk, uturn_status_t st,
                  const uturn_error_t *e)
{
    const uint64_t least = st == UTURN_OK ? 1 : e->minimum_slots;
    if (least == 0)
        uturn__mpi_making_fail(mk, st, e); /* the same on every rank */
    else if (mk->own_slots < least)
        too_small(mk, least);
}

static void compare(struct uturn__mpi_making *mk, uint64_t agreed)
{
    if (!mk->options.compare)
        return;
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(mk->plan, &s);
    mk->own_cost = s.forward_cost;
    if (mk->own_slots == agreed &&
        memcmp(mk->level_own, mk->level_slots,
               (size_t)mk->level_count * sizeof *mk->level_own) == 0)
        return;
    uturn_plan_t *own = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    const uint64_t slots = mk->own_slots == UINT64_MAX ? 0 : mk->own_slots;
    if (plan_for(mk, slots, mk->level_own, NULL, &own, &e) == UTURN_OK &&
        uturn_plan_stats(own, &s) == UTURN_OK)
        mk->own_cost = s.forward_cost;
    uturn_plan_free(own);
}

void uturn__mpi_make_uniform(struct uturn__mpi_making *mk,
                             const struct uturn__mpi_vote *first)
{
    const uint64_t agreed = first->low[0];
    mk->agreed_slots      = agreed == UINT64_MAX ? 0 : agreed;
    uturn__mpi_levels_agree(mk, first);
    /* In a code that advances in lockstep a step takes as long as its
     * slowest rank. */
    if (mk->problem.step_costs != NULL)
        uturn__mpi_max_u64(&mk->comm, mk->units, mk->problem.steps);
    mk->limiting = mk->own_slots == agreed;
    uturn_error_t e;
    uturn_error_init(&e);
    uturn_plan_t *plan = NULL;
    const uint64_t ask = agreed == UINT64_MAX ? 0 : agreed > 0 ? agreed : 1;
    const uturn_status_t st =
        plan_for(mk, ask, mk->level_slots, &mk->mp->alloc.counted, &plan, &e);
    if (st == UTURN_E_INFEASIBLE || (st == UTURN_OK && agreed == 0)) {
        uturn_plan_free(plan);
        blame(mk, st, &e);
        return;
    }
    if (st != UTURN_OK) {
        uturn__mpi_making_fail(mk, st, &e);
        return;
    }
    mk->plan = plan;
    compare(mk, agreed);
}
