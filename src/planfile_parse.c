/*
 * uturn_plan_parse(): a whole plan text in memory, read line by line
 * (planfile_line.c) with every action kept in the plan.
 */
#include "planfile.h"

#include <string.h>

/* Feed every line of text[0 .. length) to the grammar. A final newline
 * ends the last line; it does not start another. */
static uturn_status_t read_lines(struct uturn__planfile *p, const char *text,
                                 size_t length)
{
    size_t start = 0;
    while (start < length) {
        const char *nl = memchr(text + start, '\n', length - start);
        const size_t end =
            nl != NULL ? (size_t)(nl - text) : length; /* one past the line */
        const uturn_status_t st =
            uturn__planfile_line(p, text + start, end - start);
        if (st != UTURN_OK)
            return st;
        start = end + 1;
    }
    return UTURN_OK;
}

/* The plan's levels: the text's, or one of its 'slots'; with the counts
 * the validator saw for each. */
static uturn_status_t take_levels(struct uturn__planfile *p,
                                  uturn_error_t *error)
{
    uturn_plan_t *plan = p->plan;
    uturn_problem_t levels;
    uturn_problem_init(&levels);
    levels.levels      = p->level_count != 0 ? p->levels : NULL;
    levels.level_count = p->level_count;
    plan->problem.slots = p->problem.slots;
    uturn_status_t st   = uturn__levels_copy(plan, &levels, error);
    plan->problem.slots = p->problem.slots;
    for (uint64_t k = 0; st == UTURN_OK && k < plan->level_count; k++) {
        uturn_level_stats_t *ls = &plan->level_stats[k];
        ls->stores              = p->validator->level_stats[k].stores;
        ls->restores            = p->validator->level_stats[k].restores;
        ls->peak_slots          = p->validator->level_stats[k].peak_slots;
        ls->peak_bytes          = p->validator->level_stats[k].peak_bytes;
    }
    if (st == UTURN_OK)
        st = uturn__levels_finish(plan, true, error);
    return st;
}

/* The plan takes the per-step arrays and the counts the validator saw. */
static uturn_status_t finish(struct uturn__planfile *p, uturn_error_t *error)
{
    uturn_plan_t *plan = p->plan;
    uturn_status_t st  = uturn__planfile_end(p, &plan->stats);
    if (st != UTURN_OK)
        return st;
    plan->problem              = p->problem;
    plan->problem.planner      = UTURN_PLANNER_PARSED;
    plan->step_bytes           = p->step_bytes;
    plan->step_costs           = p->step_costs;
    plan->problem.step_bytes   = p->step_bytes;
    plan->problem.step_costs   = p->step_costs;
    p->step_bytes              = NULL;
    p->step_costs              = NULL;
    plan->stats.size           = sizeof plan->stats;
    return take_levels(p, error);
}

uturn_status_t uturn_plan_parse(const char *text, size_t length,
                                const uturn_allocator_t *alloc,
                                uturn_plan_t **out, uturn_error_t *error)
{
    if (out != NULL)
        *out = NULL;
    if (text == NULL || out == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "text and out must not be NULL");
    uturn_plan_t *plan    = NULL;
    uturn_status_t status = uturn__plan_new(alloc, &plan, error);
    if (status != UTURN_OK)
        return status;
    struct uturn__planfile p;
    uturn__planfile_init(&p, alloc, plan);
    status = read_lines(&p, text, length);
    if (status == UTURN_OK)
        status = finish(&p, error);
    if (p.failed != UTURN_OK)
        uturn__planfile_report(&p, error);
    uturn__planfile_release(&p);
    if (status != UTURN_OK) {
        uturn_plan_free(plan);
        return status;
    }
    *out = plan;
    return UTURN_OK;
}
