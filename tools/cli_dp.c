/* dp's own options (--threads, --table-bytes, --dp-mode) and dp's own
 * counts (exact, unit_bytes, lower_bound_cost, planning_seconds). */
#include "cli.h"

#include <string.h>

bool cli_dp_mode(const char *text, uturn_dp_mode_t *out)
{
    static const char *const names[] = {"auto", "exact", "approximate"};
    for (int i = 0; i < 3; i++)
        if (strcmp(text, names[i]) == 0)
            return *out = (uturn_dp_mode_t)i, true;
    return cli_fail("--dp-mode: '%s' is not a mode (auto, exact, "
                    "approximate)",
                    text),
           false;
}

bool cli_dp_given(const struct cli_options *o)
{
    return o->has_threads || o->has_table_bytes || o->has_dp_mode;
}

int cli_dp_apply(const struct cli_options *o, bool has_dp, uturn_problem_t *p)
{
    if (cli_dp_given(o) && !has_dp)
        return cli_fail(
            "--threads, --table-bytes and --dp-mode are for the "
            "dp planner%s",
            strcmp(o->command, "sweep") == 0 ? ": add dp to --planners" : "");
    if (o->has_threads && o->threads == 0)
        return cli_fail("--threads must be at least 1");
    if (o->has_threads && o->threads > UTURN_DP_MAX_THREADS)
        return cli_fail("--threads %llu: dp fills its tables with at most "
                        "%u threads",
                        (unsigned long long)o->threads,
                        (unsigned)UTURN_DP_MAX_THREADS);
    if (o->has_table_bytes && o->table_bytes == 0)
        return cli_fail("--table-bytes must be at least 1 byte");
    if (o->has_threads)
        p->threads = o->threads;
    if (o->has_table_bytes)
        p->table_bytes = o->table_bytes;
    if (o->has_dp_mode)
        p->dp_mode = o->dp_mode;
    return CLI_OK;
}

void cli_dp_keep(const uturn_stats_t *from, uturn_stats_t *to)
{
    to->exact            = from->exact;
    to->unit_bytes       = from->unit_bytes;
    to->lower_bound_cost = from->lower_bound_cost;
    to->planning_seconds = from->planning_seconds;
}

void cli_dp_print(FILE *out, const uturn_stats_t *s, enum cli_dp_form form)
{
    const char *exact              = s->exact ? "true" : "false";
    const unsigned long long unit  = (unsigned long long)s->unit_bytes;
    const unsigned long long bound = (unsigned long long)s->lower_bound_cost;
    if (form == CLI_DP_JSON) {
        fprintf(out, ", \"exact\": %s, \"unit_bytes\": %llu", exact, unit);
        if (!s->exact)
            fprintf(out, ", \"lower_bound_cost\": %llu", bound);
        fprintf(out, ", \"planning_seconds\": %.6f", s->planning_seconds);
        return;
    }
    if (form == CLI_DP_COMMENT) { /* plan text: a comment line */
        fprintf(out, "# dp: exact %s, unit_bytes %llu", exact, unit);
        if (!s->exact)
            fprintf(out, ", lower_bound_cost %llu", bound);
        fprintf(out, ", planning_seconds %.6f\n", s->planning_seconds);
        return;
    }
    fprintf(out, "%-17s %s\n%-17s %llu\n", "exact", exact, "unit_bytes", unit);
    if (!s->exact)
        fprintf(out, "%-17s %llu\n", "lower_bound_cost", bound);
    fprintf(out, "%-17s %.6f\n", "planning_seconds", s->planning_seconds);
}
