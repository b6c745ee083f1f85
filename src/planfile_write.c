/* Writing plans as text, one action per line, streamed from a cursor. */
#include "internal.h"

#include <errno.h>
#include <string.h>

#define CHUNK 65536

/* Version 2 when the plan has levels that version 1 cannot say. */
static bool needs_levels(const uturn_plan_t *plan)
{
    if (plan->level_count > 1)
        return true;
    return plan->level_count == 1 && (plan->levels[0].write_cost != 0 ||
                                      plan->levels[0].read_cost != 0);
}

static int write_levels(const uturn_plan_t *plan, FILE *stream)
{
    int rc = 0;
    for (uint64_t k = 0; rc >= 0 && k < plan->level_count; k++)
        rc = fprintf(stream, "level %s %llu %llu %llu\n",
                     plan->levels[k].name,
                     (unsigned long long)plan->levels[k].slots,
                     (unsigned long long)plan->levels[k].write_cost,
                     (unsigned long long)plan->levels[k].read_cost);
    return rc;
}

static uturn_status_t write_header(const uturn_plan_t *plan, FILE *stream)
{
    const uturn_stats_t *s = &plan->stats;
    const bool v2          = needs_levels(plan);
    int rc = fprintf(stream,
                     "uturn-plan %d\nplanner %s\nfingerprint %016llx\nsteps "
                     "%llu\nslots %llu\n",
                     v2 ? 2 : 1, uturn_planner_name(plan->problem.planner),
                     (unsigned long long)s->fingerprint,
                     (unsigned long long)s->steps, (unsigned long long)s->slots);
    if (rc >= 0 && v2)
        rc = write_levels(plan, stream);
    if (rc >= 0 && s->sweeps == UTURN_SWEEPS_UNBOUNDED)
        rc = fputs("sweeps unbounded\n", stream);
    else if (rc >= 0 && s->sweeps > 1)
        rc = fprintf(stream, "sweeps %llu\n", (unsigned long long)s->sweeps);
    if (rc >= 0 && s->slot_bytes != 0)
        rc = fprintf(stream, "slot_bytes %llu\n",
                     (unsigned long long)s->slot_bytes);
    if (rc >= 0 && s->budget_bytes != 0)
        rc = fprintf(stream, "budget_bytes %llu\n",
                     (unsigned long long)s->budget_bytes);
    const uint64_t *const arrays[2] = {plan->step_bytes, plan->step_costs};
    const char *const names[2]      = {"step_bytes", "step_costs"};
    for (int k = 0; k < 2 && rc >= 0; k++) {
        if (arrays[k] == NULL)
            continue;
        rc = fputs(names[k], stream);
        for (uint64_t i = 0; rc >= 0 && i < s->steps; i++)
            rc = fprintf(stream, " %llu", (unsigned long long)arrays[k][i]);
        if (rc >= 0)
            rc = fputc('\n', stream);
    }
    return rc < 0 ? UTURN_E_IO : UTURN_OK;
}

/* Append every action to buf, flushing it whenever it is nearly full. */
static uturn_status_t write_actions(uturn_cursor_t *cursor, FILE *stream,
                                    char *buf)
{
    size_t used = 0;
    uturn_action_t action;
    while (uturn_cursor_next(cursor, &action)) {
        used += uturn__action_text(&action, buf + used);
        buf[used++] = '\n';
        if (used > CHUNK - 80) {
            if (fwrite(buf, 1, used, stream) != used)
                return UTURN_E_IO;
            used = 0;
        }
    }
    if (used != 0 && fwrite(buf, 1, used, stream) != used)
        return UTURN_E_IO;
    return UTURN_OK;
}

uturn_status_t uturn_plan_write(const uturn_plan_t *plan, FILE *stream,
                                uturn_error_t *error)
{
    if (plan == NULL || stream == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "plan and stream must not be NULL");
    const uturn_status_t closed = uturn__plan_closed(plan, "written", error);
    if (closed != UTURN_OK)
        return closed;
    uturn_cursor_t *cursor = NULL;
    errno                  = 0;
    char *buf              = uturn__alloc(&plan->alloc, CHUNK);
    uturn_status_t status  = buf == NULL ? UTURN_E_NOMEM : UTURN_OK;
    if (status == UTURN_OK)
        status = uturn_cursor_create(plan, NULL, &cursor);
    if (status == UTURN_OK)
        status = write_header(plan, stream);
    if (status == UTURN_OK)
        status = write_actions(cursor, stream, buf);
    if (status == UTURN_OK && fflush(stream) != 0)
        status = UTURN_E_IO;
    const int reason = errno;
    uturn_cursor_free(cursor);
    uturn__free(&plan->alloc, buf, CHUNK);
    if (status == UTURN_E_IO)
        return uturn__fail(error, status, "writing the plan failed: %s",
                           reason != 0 ? strerror(reason) : "write error");
    if (status != UTURN_OK)
        return uturn__fail(error, status, "out of memory writing the plan");
    return UTURN_OK;
}
