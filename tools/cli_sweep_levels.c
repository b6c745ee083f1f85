/*
 * uturn sweep --levels: memory swept by the budgets with the further
 * levels fixed. A planner of several levels (hrevolve, and revolve with
 * several sweeps) plans them all; the others plan memory alone, so each
 * row set shows what the disk buys.
 * With --run every level past memory is a file level in --level-dir
 * (default $TMPDIR).
 */
#include "sweep.h"

#include <string.h>

int sweep_parse_levels(const struct cli_options *o, struct sweep *sw)
{
    if (o->levels == NULL) {
        if (o->level_dir != NULL)
            return cli_fail("sweep: --level-dir needs --levels");
        return CLI_OK;
    }
    const int rc = cli_parse_levels(o->levels, true, &sw->levels);
    if (rc != CLI_OK)
        return rc;
    if (sw->levels.count < 2)
        return cli_fail("sweep: --levels needs memory and at least one "
                        "level past it (e.g. mem,disk:100:w=5:r=5); the "
                        "budgets are memory's capacity");
    for (size_t k = 1; k < sw->levels.count; k++)
        if (sw->levels.levels[k].bytes != 0 && sw->state_bytes == 0)
            return cli_fail("--levels: level %zu's capacity is a size: give "
                            "--state-bytes (or a slot count)",
                            k);
    sw->has_levels = true;
    sw->level_dir  = o->level_dir;
    return CLI_OK;
}

bool sweep_planner_has_levels(uturn_planner_t planner, uint64_t sweeps)
{
    return planner == UTURN_PLANNER_HREVOLVE ||
           (planner == UTURN_PLANNER_REVOLVE && sweeps > 1);
}

void sweep_row_levels(const struct sweep *sw, const struct sweep_row *row,
                      uturn_level_t *lv, uturn_problem_t *p)
{
    if (!sw->has_levels)
        return;
    memcpy(lv, sw->levels.levels, sw->levels.count * sizeof *lv);
    lv[0].slots     = 0;
    lv[0].bytes     = row->budget_bytes;
    p->budget_bytes = 0;
    p->levels       = lv;
    p->level_count  = sweep_planner_has_levels(row->planner, sw->sweeps)
                          ? sw->levels.count
                          : 1;
}

int sweep_open_executor(const struct sweep *sw, uturn_executor_t **ex)
{
    uturn_storage_t files[CLI_MAX_LEVELS];
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    if (sw->has_levels) {
        for (size_t k = 0; k + 1 < sw->levels.count; k++) {
            uturn_storage_init(&files[k]);
            files[k].kind      = UTURN_STORAGE_FILE;
            files[k].directory = sw->level_dir;
        }
        o.levels      = files;
        o.level_count = sw->levels.count - 1;
        o.io_buffers  = SWEEP_IO_BUFFERS;
    }
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_executor_open(&o, ex, &err);
    return st == UTURN_OK ? CLI_OK : cli_library_error(st, &err);
}

void sweep_warn_tmpfs(const struct sweep *sw, const uturn_executor_t *ex,
                      bool *warned)
{
    for (size_t k = 1; sw->has_levels && !*warned && k < sw->levels.count;
         k++) {
        uturn_level_report_t r;
        uturn_level_report_init(&r);
        if (uturn_executor_level_report(ex, k, &r) != UTURN_OK || !r.on_tmpfs)
            continue;
        fprintf(stderr,
                "uturn: warning: level %s's directory (%s) is on tmpfs: its "
                "files are memory, not disk (give --level-dir on a disk)\n",
                sw->levels.levels[k].name,
                sw->level_dir != NULL ? sw->level_dir : "$TMPDIR or /tmp");
        *warned = true;
    }
}
