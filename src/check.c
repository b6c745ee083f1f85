/*
 * The validator: simulates an action stream against every rule of
 * the model (docs/model.md section 2) and counts what it sees. Tests, the parser,
 * uturn_plan_walk() and the CLI's check all go through it.
 */
#include "validator.h"

#include <stdio.h>
#include <string.h>

/* Take the per-step arrays (NULL: uniform) and the cost of one sweep. */
static void use_steps(uturn_validator_t *v, const uint64_t *step_bytes,
                      const uint64_t *step_costs)
{
    v->step_bytes = step_bytes;
    v->step_costs = step_costs;
    v->sweep_cost = v->steps;
    /* Saturated: a sweep past 2^64 makes every valid plan's forward cost
     * overflow first, which push reports. */
    for (uint64_t i = 0; step_costs != NULL && i < v->steps; i++)
        if (uturn__add_u64(v->sweep_cost, step_costs[i] - 1, &v->sweep_cost) !=
            UTURN_OK)
            v->sweep_cost = UINT64_MAX;
}

uturn_status_t uturn__validator_new(const uturn_allocator_t *alloc,
                                    const uturn_stats_t *limits,
                                    const uint64_t *step_bytes,
                                    const uint64_t *step_costs,
                                    uturn_validator_t **out)
{
    uturn_allocator_t resolved;
    uturn__alloc_resolve(alloc, &resolved);
    uturn_validator_t *v = uturn__alloc_zeroed(&resolved, 1, sizeof *v);
    if (v == NULL)
        return UTURN_E_NOMEM;
    v->alloc        = resolved;
    v->steps        = limits->steps;
    v->capacity     = limits->slots;
    v->slot_bytes   = limits->slot_bytes;
    v->budget_bytes = limits->budget_bytes;
    v->live         = 0;
    v->next_reverse = limits->steps;
    v->sweeps       = limits->sweeps > 1 ? limits->sweeps : 1;
    use_steps(v, step_bytes, step_costs);
    uturn_stats_init(&v->stats);
    v->stats.steps        = limits->steps;
    v->stats.slots        = limits->slots;
    v->stats.slot_bytes   = limits->slot_bytes;
    v->stats.budget_bytes = limits->budget_bytes;
    v->level_count        = 1;
    uturn_level_init(&v->levels[0]);
    v->levels[0].slots = limits->slots;
    *out               = v;
    return UTURN_OK;
}

void uturn__validator_set_levels(uturn_validator_t *v,
                                 const uturn_level_t *levels, uint64_t count)
{
    v->level_count = count;
    for (uint64_t k = 0; k < count; k++) {
        v->levels[k]      = levels[k];
        v->levels[k].name = NULL;
    }
}

/* The caller's per-step arrays need not outlive the call: copy them. */
static uturn_status_t own_steps(uturn_validator_t *v,
                                const uturn_problem_t *given)
{
    const uint64_t *const in[2] = {given->step_bytes, given->step_costs};
    for (int k = 0; k < 2; k++) {
        if (in[k] == NULL)
            continue;
        v->owned[k] =
            uturn__alloc_zeroed(&v->alloc, v->steps, sizeof(uint64_t));
        if (v->owned[k] == NULL)
            return UTURN_E_NOMEM;
        memcpy(v->owned[k], in[k], (size_t)v->steps * sizeof(uint64_t));
    }
    use_steps(v, v->owned[0], v->owned[1]);
    return UTURN_OK;
}

uturn_status_t uturn_validator_create(const uturn_problem_t *problem,
                                      const uturn_allocator_t *alloc,
                                      uturn_validator_t **out,
                                      uturn_error_t *error)
{
    if (out != NULL)
        *out = NULL;
    if (problem == NULL || out == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "problem and out must not be NULL");
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner             = UTURN_PLANNER_STORE_ALL;
    uturn_problem_t given = p;
    uturn__problem_copy(problem, &given);
    uturn_level_t levels[UTURN__MAX_LEVELS];
    uint64_t total        = 0;
    uturn_status_t status = uturn__levels_resolve(&given, levels, &total,
                                                  error);
    if (status != UTURN_OK)
        return status;
    /* steps 0: an online stream, n told later (checked as 1 for now). */
    p.steps        = given.steps != 0 ? given.steps : 1;
    p.slots        = given.level_count != 0 ? total : given.slots;
    p.slot_bytes   = given.slot_bytes;
    p.budget_bytes = given.budget_bytes;
    p.step_bytes   = given.step_bytes; /* slot_bytes defaults to the largest */
    uturn_problem_t resolved;
    bool has_capacity = false;
    status = uturn__problem_resolve(&p, &resolved, &has_capacity, error);
    if (status != UTURN_OK)
        return status;
    uturn_stats_t limits;
    uturn_stats_init(&limits);
    limits.steps        = resolved.steps;
    /* With per-step sizes and no slot count the budget is in bytes alone:
     * floor(budget / largest state) slots would refuse valid streams. */
    limits.slots = given.step_bytes != NULL && given.slots == 0 &&
                           given.level_count == 0
                       ? UINT64_MAX
                       : resolved.slots;
    limits.slot_bytes   = resolved.slot_bytes;
    limits.budget_bytes = resolved.budget_bytes;
    limits.steps        = given.steps;
    limits.sweeps       = given.sweeps;
    if (given.steps == 0 && (given.step_bytes != NULL || given.step_costs))
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "an online stream (steps 0) has no per-step "
                           "arrays");
    status              = uturn__validator_new(alloc, &limits, NULL, NULL, out);
    if (status == UTURN_OK && given.level_count != 0)
        uturn__validator_set_levels(*out, levels, given.level_count);
    if (status == UTURN_OK)
        status = own_steps(*out, &given);
    if (status != UTURN_OK) {
        uturn_validator_free(*out);
        *out = NULL;
        return uturn__fail(error, status, "out of memory for a validator");
    }
    return UTURN_OK;
}

void uturn_validator_free(uturn_validator_t *v)
{
    if (v == NULL)
        return;
    const uturn_allocator_t alloc = v->alloc;
    uturn__free(&alloc, v->slots, v->slots_len * sizeof *v->slots);
    uturn__slot_map_free(&v->far, &alloc);
    uturn__slot_map_free(&v->marks, &alloc);
    for (int k = 0; k < 2; k++)
        uturn__free(&alloc, v->owned[k], (size_t)v->steps * sizeof(uint64_t));
    uturn__free(&alloc, v, sizeof *v);
}

/* The first slot still holding a state, for the end-of-plan message. */
static uint64_t first_held(const uturn_validator_t *v)
{
    for (size_t k = 0; k < v->slots_len; k++)
        if (v->slots[k] != UTURN__EMPTY)
            return (uint64_t)k;
    return uturn__slot_map_first(&v->far);
}

/* "action K" or "action K (line L)": where an end rule broke. */
static void where(const uturn_validator_t *v, uint64_t line, char out[64])
{
    if (line != 0)
        snprintf(out, 64, "action %llu (line %llu)",
                 (unsigned long long)v->index, (unsigned long long)line);
    else
        snprintf(out, 64, "action %llu", (unsigned long long)v->index);
}

static uturn_status_t end_rules(uturn_validator_t *v, uint64_t line,
                                uturn_error_t *error)
{
    char at[64];
    where(v, line, at);
    if (!v->turned)
        return uturn__fail_at(error, UTURN_E_INVALID_PLAN, v->index, line,
                              v->steps,
                              "%s: end of plan: the plan ends "
                              "before the turn",
                              at);
    if (v->next_reverse != 0)
        return uturn__fail_at(error, UTURN_E_INVALID_PLAN, v->index, line,
                              v->next_reverse - 1,
                              "%s: end of plan: step %llu is never reversed",
                              at, (unsigned long long)(v->next_reverse - 1));
    if (v->sweep < v->sweeps && v->sweeps != UTURN_SWEEPS_UNBOUNDED)
        return uturn__fail_at(error, UTURN_E_INVALID_PLAN, v->index, line,
                              v->steps,
                              "%s: end of plan after sweep %llu of %llu", at,
                              (unsigned long long)v->sweep,
                              (unsigned long long)v->sweeps);
    if (v->held != 0) {
        const uint64_t k = first_held(v);
        return uturn__fail_at(error, UTURN_E_INVALID_PLAN, v->index, line,
                              uturn__slot_get(v, k) - 1,
                              "%s: end of plan: %llu slots are still held "
                              "(slot %llu holds x_%llu)",
                              at, (unsigned long long)v->held,
                              (unsigned long long)k,
                              (unsigned long long)(uturn__slot_get(v, k) - 1));
    }
    return UTURN_OK;
}

uturn_status_t uturn__validator_finish_line(uturn_validator_t *v,
                                            uturn_stats_t *observed,
                                            uint64_t line, uturn_error_t *error)
{
    uturn_stats_t *s = &v->stats;
    s->recomputed_steps =
        s->forward_steps > s->steps ? s->forward_steps - s->steps : 0;
    s->recompute_cost =
        s->forward_cost > v->sweep_cost ? s->forward_cost - v->sweep_cost : 0;
    s->recompute_factor =
        s->steps != 0 ? (double)s->forward_steps / (double)s->steps : 0.0;
    s->levels = v->level_count;
    /* an unbounded plan's stream is sweep 1; its plan says unbounded */
    s->sweeps = v->sweeps == UTURN_SWEEPS_UNBOUNDED ? v->sweeps : v->sweep;
    const bool fits = uturn__level_cost(s->forward_cost, v->levels,
                                        v->level_stats, v->level_count,
                                        &s->cost);
    if (observed != NULL)
        uturn__stats_export(s, observed);
    if (v->failed != UTURN_OK)
        return uturn__validator_push_line(v, NULL, 0, error);
    const uturn_status_t st = end_rules(v, line, error);
    if (st != UTURN_OK || fits)
        return st;
    char at[64];
    where(v, line, at);
    return uturn__fail_at(error, UTURN_E_INVALID_PLAN, v->index, line,
                          UTURN_NONE,
                          "%s: end of plan: its cost (forward cost plus "
                          "every write and read at the levels' costs) "
                          "passes 2^64",
                          at);
}

uturn_status_t uturn_validator_finish(uturn_validator_t *validator,
                                      uturn_stats_t *observed,
                                      uturn_error_t *error)
{
    if (validator == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "validator must not be NULL");
    return uturn__validator_finish_line(validator, observed, 0, error);
}

uturn_status_t uturn_plan_walk(const uturn_plan_t *plan,
                               uturn_stats_t *observed, uturn_error_t *error)
{
    if (plan == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG, "plan must not be NULL");
    /* An online plan that nothing ends runs to its max_steps. */
    uturn_stats_t shape         = plan->stats;
    const uturn_status_t closed = uturn__plan_closed(plan, "walked", error);
    if (closed != UTURN_OK)
        return closed;
    if (shape.online)
        shape.steps = plan->problem.max_steps;
    uturn_validator_t *v   = NULL;
    uturn_cursor_t *cursor = NULL;
    uturn_status_t status  = uturn__validator_new(
         &plan->alloc, &shape, plan->step_bytes, plan->step_costs, &v);
    if (status == UTURN_OK)
        uturn__validator_set_levels(v, plan->levels, plan->level_count);
    if (status == UTURN_OK)
        status = uturn_cursor_create(plan, NULL, &cursor);
    if (status != UTURN_OK) {
        status = uturn__fail(error, status, "out of memory for the walk");
        goto done;
    }
    uturn_action_t action;
    while (status == UTURN_OK && uturn_cursor_next(cursor, &action))
        status = uturn__validator_push_line(v, &action, 0, error);
    if (status == UTURN_OK) {
        v->stats.fingerprint = plan->stats.fingerprint; /* its stream */
        v->stats.sweep_forward_steps = plan->stats.sweep_forward_steps;
        status               = uturn_validator_finish(v, observed, error);
    }
done:
    uturn_cursor_free(cursor);
    uturn_validator_free(v);
    return status;
}

uturn_status_t uturn_validator_level_stats(const uturn_validator_t *validator,
                                           uint64_t level,
                                           uturn_level_stats_t *out)
{
    if (validator == NULL || out == NULL || level >= validator->level_count)
        return UTURN_E_INVALID_ARG;
    uturn_level_stats_t s = validator->level_stats[level];
    s.size                = sizeof s;
    s.slots               = validator->levels[level].slots;
    s.write_cost          = validator->levels[level].write_cost;
    s.read_cost           = validator->levels[level].read_cost;
    const size_t keep = out->size == 0 || out->size > sizeof s ? sizeof s
                                                               : out->size;
    memcpy(out, &s, keep);
    out->size = keep;
    return UTURN_OK;
}

uturn_status_t uturn_validator_set_steps(uturn_validator_t *validator,
                                         uint64_t steps, uturn_error_t *error)
{
    if (validator == NULL || steps == 0)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "validator must not be NULL and steps at least 1");
    if (validator->steps != 0)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "the validator knows its steps already (%llu)",
                           (unsigned long long)validator->steps);
    if (validator->reached > steps)
        return uturn__fail_at(error, UTURN_E_INVALID_PLAN, validator->index, 0,
                              validator->reached,
                              "the stream reached x_%llu, past the %llu "
                              "steps",
                              (unsigned long long)validator->reached,
                              (unsigned long long)steps);
    validator->steps        = steps;
    validator->next_reverse = steps;
    validator->stats.steps  = steps;
    return UTURN_OK;
}
