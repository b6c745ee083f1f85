/* Plan objects: the planner registry, creation, counts and freeing. */
#include "planner.h"

#include <stdio.h>
#include <string.h>

/* The only table of planners: src/ reaches planners through it alone. */
static const struct uturn__planner *const registry[] = {
    &uturn__store_all,
    &uturn__periodic,
    &uturn__sqrt,
    &uturn__revolve,
    &uturn__dp,
    &uturn__hrevolve,
    &uturn__online,
    &uturn__parsed,
    &uturn__online_disk,
    &uturn__online_slots,
    &uturn__online_bytes,
    &uturn__online_sweeps,
    &uturn__revolve_sweeps,
    &uturn__revolve_sweeps_levels,
};

static const struct uturn__planner *find(uturn_planner_t id)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (registry[i]->id == id)
            return registry[i];
    return NULL;
}

const char *uturn_planner_name(uturn_planner_t planner)
{
    const struct uturn__planner *p = find(planner);
    return p != NULL ? p->name : NULL;
}

void uturn__planner_names(char *out, size_t capacity, const char *last)
{
    size_t used = 0;
    out[0]      = '\0';
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++) {
        const struct uturn__planner *p = registry[i];
        if (p->id == UTURN_PLANNER_PARSED || find(p->id) != p)
            continue; /* parsed is not asked for; online_disk is online */
        const int n = snprintf(out + used, capacity - used, "%s%s",
                               used != 0 ? ", " : "", p->name);
        used += n > 0 && (size_t)n < capacity - used ? (size_t)n : 0;
    }
    if (last != NULL)
        snprintf(out + used, capacity - used, " %s", last);
}

uturn_status_t uturn_planner_from_name(const char *name, uturn_planner_t *out)
{
    if (name == NULL || out == NULL)
        return UTURN_E_INVALID_ARG;
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++) {
        if (registry[i]->id != UTURN_PLANNER_PARSED &&
            strcmp(registry[i]->name, name) == 0) {
            *out = registry[i]->id;
            return UTURN_OK;
        }
    }
    return UTURN_E_INVALID_ARG;
}

uturn_status_t uturn__plan_new(const uturn_allocator_t *alloc,
                               uturn_plan_t **out, uturn_error_t *error)
{
    uturn_allocator_t resolved;
    uturn__alloc_resolve(alloc, &resolved);
    uturn_plan_t *plan = uturn__alloc_zeroed(&resolved, 1, sizeof *plan);
    if (plan == NULL)
        return uturn__fail(error, UTURN_E_NOMEM, "out of memory for a plan");
    plan->alloc = resolved;
    uturn_problem_init(&plan->problem);
    uturn_stats_init(&plan->stats);
    plan->planner = &uturn__parsed;
    *out          = plan;
    return UTURN_OK;
}

/* A plan owns copies of the per-step arrays; only dp takes them. */
static uturn_status_t copy_steps(uturn_plan_t *plan, uturn_error_t *error)
{
    uturn_problem_t *p = &plan->problem;
    if ((p->step_bytes != NULL || p->step_costs != NULL) &&
        p->planner != UTURN_PLANNER_DP)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "%s plans uniform states and unit costs; use dp "
                           "for per-step sizes or costs",
                           plan->planner->name);
    const uint64_t *const in[2] = {p->step_bytes, p->step_costs};
    uint64_t **const out[2]     = {&plan->step_bytes, &plan->step_costs};
    for (int k = 0; k < 2; k++) {
        if (in[k] == NULL)
            continue;
        *out[k] = uturn__alloc_zeroed(&plan->alloc, p->steps, sizeof **out[k]);
        if (*out[k] == NULL)
            return uturn__fail(error, UTURN_E_NOMEM,
                               "out of memory for %llu per-step values",
                               (unsigned long long)p->steps);
        memcpy(*out[k], in[k], (size_t)p->steps * sizeof **out[k]);
    }
    p->step_bytes = plan->step_bytes;
    p->step_costs = plan->step_costs;
    return UTURN_OK;
}

/* online's entries: several levels (online_disk), uniform slots from 4
 * up at any count (online_slots), a byte budget whose sizes come as the
 * run goes (online_bytes), or the online family's rules (fewer slots). */
static void choose_online(uturn_plan_t *plan)
{
    const uturn_problem_t *p = &plan->problem;
    const bool bytes_mode    = p->budget_bytes != 0 && p->slot_bytes == 0;
    if (plan->planner->id != UTURN_PLANNER_ONLINE || plan->level_count > 1 ||
        !plan->has_capacity)
        return;
    if (bytes_mode)
        plan->planner = &uturn__online_bytes;
    else if (p->slots >= 4)
        plan->planner = &uturn__online_slots;
}

/* Several sweeps: revolve's second entry, online's for uniform slots,
 * and no other planner yet. */
static uturn_status_t choose_sweeps(uturn_plan_t *plan, uturn_error_t *error)
{
    if (plan->problem.sweeps <= 1)
        return UTURN_OK;
    if (plan->planner == &uturn__online_slots) {
        plan->planner = &uturn__online_sweeps;
        return UTURN_OK;
    }
    char word[24]; /* how many: a number, or "unbounded" */
    if (plan->problem.sweeps == UTURN_SWEEPS_UNBOUNDED)
        snprintf(word, sizeof word, "unbounded");
    else
        snprintf(word, sizeof word, "%llu",
                 (unsigned long long)plan->problem.sweeps);
    if (plan->planner->id == UTURN_PLANNER_ONLINE)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "%s sweeps: online plans of several sweeps "
                           "take uniform slots, at least 4, on one level "
                           "(slots, or a byte budget with slot_bytes)",
                           word);
    if (plan->planner->id != UTURN_PLANNER_REVOLVE)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "%s sweeps: only revolve (uniform states, any "
                           "storage levels) and online (uniform slots) plan "
                           "several sweeps; %s plans one",
                           word, plan->planner->name);
    plan->planner = plan->level_count > 1 ? &uturn__revolve_sweeps_levels
                                          : &uturn__revolve_sweeps;
    return UTURN_OK;
}

/* A planner id may have a second entry for several levels (online's):
 * the one that fits the plan's levels. */
static void choose_for_levels(uturn_plan_t *plan)
{
    if (plan->level_count <= 1 || plan->planner->levels)
        return;
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (registry[i]->id == plan->planner->id && registry[i]->levels &&
            registry[i]->pause_sweeps == NULL) /* not several sweeps' */
            plan->planner = registry[i];
}

/* Several levels need a planner that plans them; levels and per-step
 * sizes together are not planned this round. */
static uturn_status_t check_levels(const uturn_plan_t *plan,
                                   uturn_error_t *error)
{
    if (plan->level_count > 1 && !plan->planner->levels)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "%s plans one level of storage; hrevolve plans "
                           "several (and online, when the steps are unknown)",
                           plan->planner->name);
    if (plan->level_count > 1 && plan->step_bytes != NULL)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "storage levels with per-step sizes are not "
                           "planned yet: give uniform states");
    return UTURN_OK;
}

static uturn_status_t plan_prepare(uturn_plan_t *plan,
                                   const uturn_problem_t *problem,
                                   uturn_error_t *error)
{
    uturn_status_t status = uturn__problem_resolve(problem, &plan->problem,
                                                   &plan->has_capacity, error);
    if (status != UTURN_OK)
        return status;
    plan->planner = find(plan->problem.planner);
    if (plan->planner == NULL || plan->planner->id == UTURN_PLANNER_PARSED) {
        char known[128];
        uturn__planner_names(known, sizeof known, NULL);
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "unknown planner %d (known: %s)",
                           (int)plan->problem.planner, known);
    }
    uturn_problem_t given; /* the caller's fields, at the caller's size */
    uturn__problem_copy(problem, &given);
    status = copy_steps(plan, error);
    if (status == UTURN_OK)
        status = uturn__levels_copy(plan, &given, error);
    if (status == UTURN_OK) {
        choose_for_levels(plan);
        choose_online(plan);
        status = choose_sweeps(plan, error);
    }
    if (status == UTURN_OK)
        status = check_levels(plan, error);
    if (status == UTURN_OK)
        status = plan->planner->prepare(plan, error);
    plan->problem.progress      = NULL; /* the caller's, for planning only */
    plan->problem.progress_user = NULL;
    if (status != UTURN_OK)
        return status;
    plan->problem.slots = plan->stats.slots; /* the capacity it was made for */
    status = uturn__stats_finish(&plan->stats, &plan->problem, error);
    if (status == UTURN_OK)
        status = uturn__levels_finish(plan, plan->planner->levels, error);
    plan->stats.fingerprint = uturn__plan_fingerprint(plan);
    return status;
}

uturn_status_t uturn_plan_create(const uturn_problem_t *problem,
                                 const uturn_allocator_t *alloc,
                                 uturn_plan_t **out, uturn_error_t *error)
{
    if (out != NULL)
        *out = NULL;
    if (problem == NULL || out == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "problem and out must not be NULL");
    uturn_plan_t *plan    = NULL;
    uturn_status_t status = uturn__plan_new(alloc, &plan, error);
    if (status != UTURN_OK)
        return status;
    status = plan_prepare(plan, problem, error);
    if (status != UTURN_OK) {
        uturn_plan_free(plan);
        return status;
    }
    *out = plan;
    return UTURN_OK;
}

void uturn_plan_free(uturn_plan_t *plan)
{
    if (plan == NULL)
        return;
    const uturn_allocator_t alloc = plan->alloc;
    if (plan->data_free != NULL)
        plan->data_free(plan);
    const size_t per_step = (size_t)plan->problem.steps * sizeof(uint64_t);
    uturn__free(&alloc, plan->step_bytes, per_step);
    uturn__free(&alloc, plan->step_costs, per_step);
    uturn__free(&alloc, plan->actions,
                (size_t)plan->action_capacity * sizeof *plan->actions);
    uturn__levels_free(plan);
    uturn__free(&alloc, plan, sizeof *plan);
}

uturn_status_t uturn_plan_stats(const uturn_plan_t *plan, uturn_stats_t *out)
{
    if (plan == NULL || out == NULL)
        return UTURN_E_INVALID_ARG;
    uturn__stats_export(&plan->stats, out);
    return UTURN_OK;
}

uturn_status_t uturn_plan_online_cost(const uturn_plan_t *plan, uint64_t steps,
                                      uint64_t *cost, uturn_error_t *error)
{
    if (plan == NULL || cost == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "plan and cost must not be NULL");
    if (plan->planner->realised_cost == NULL)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "%s plans do not predict a realised cost: only "
                           "online plans with storage levels do (walk the "
                           "cursor and read uturn_cursor_stats)",
                           plan->planner->name);
    return plan->planner->realised_cost(plan, steps, cost, error);
}

uturn_status_t uturn_plan_problem(const uturn_plan_t *plan,
                                  uturn_problem_t *out)
{
    if (plan == NULL || out == NULL)
        return UTURN_E_INVALID_ARG;
    const size_t keep =
        out->size == 0 || out->size > sizeof *out ? sizeof *out : out->size;
    memcpy(out, &plan->problem, keep);
    out->size = keep;
    return UTURN_OK;
}

uturn_status_t uturn__plan_closed(const uturn_plan_t *plan, const char *what,
                                  uturn_error_t *error)
{
    const struct uturn__planner *g = plan->planner;
    if (!plan->stats.online)
        return UTURN_OK;
    if (g->sized != NULL && g->sized(plan))
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "an online plan on a byte budget takes each "
                           "state's size as the run goes, so it cannot be "
                           "%s ahead: read its actions through a cursor, "
                           "giving the sizes (uturn_cursor_set_size)",
                           what);
    if (plan->problem.max_steps == 0)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "an online plan without max_steps never ends by "
                           "itself, so it cannot be %s: give max_steps, or "
                           "validate the actions of a run as it goes",
                           what);
    return UTURN_OK;
}
