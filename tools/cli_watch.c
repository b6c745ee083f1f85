/*
 * Progress of planning that takes long (hrevolve's tables), on stderr:
 * nothing for the first seconds, then a line every few seconds saying how
 * much of the work is done, and a last one when it is. A terminal gets
 * one line rewritten in place.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cli.h"

#include <time.h>
#include <unistd.h>

/* Quiet for this long, then a report at most this often. */
#define QUIET_SECONDS 3.0
#define EVERY_SECONDS 5.0

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int report(void *user, uint64_t done, uint64_t total)
{
    struct cli_watch *w = user;
    const double t      = now();
    const bool last     = done >= total;
    if (t - w->started < QUIET_SECONDS ||
        (!last && t - w->reported < EVERY_SECONDS))
        return 0;
    w->reported       = t;
    const double part = total != 0 ? 100.0 * (double)done / (double)total : 0;
    fprintf(stderr, "%suturn: planning %s: %.0f%% of the work done, %.0f s%s",
            w->tty && w->shown ? "\r" : "", w->what, part, t - w->started,
            w->tty && !last ? "" : "\n");
    fflush(stderr);
    w->shown = true;
    return 0;
}

void cli_watch(uturn_problem_t *problem, struct cli_watch *w)
{
    w->what                = uturn_planner_name(problem->planner);
    w->what                = w->what != NULL ? w->what : "a plan";
    w->started             = now();
    w->reported            = 0;
    w->shown               = false;
    w->tty                 = isatty(STDERR_FILENO) != 0;
    problem->progress      = report;
    problem->progress_user = w;
}
