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

/* The plan takes the per-step arrays and the counts the validator saw. */
static uturn_status_t finish(struct uturn__planfile *p)
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
    return UTURN_OK;
}

uturn_status_t uturn_plan_parse(const char *text, size_t length,
                                const uturn_allocator_t *alloc,
                                uturn_plan_t **out, uturn_error_t *error)
{
    if (out != NULL)
        *out = NULL;
    if ((text == NULL && length != 0) || out == NULL)
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
        status = finish(&p);
    uturn__planfile_report(&p, error);
    uturn__planfile_release(&p);
    if (status != UTURN_OK) {
        uturn_plan_free(plan);
        return status;
    }
    *out = plan;
    return UTURN_OK;
}
