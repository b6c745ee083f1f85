/* uturn sweep: planning each row, and with --run executing the model (the
 * built-in Burgers model or a model library) through it and comparing its
 * gradient with store-all's. */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct runner {
    uturn_executor_t *ex;
    struct sweep_model *model;
    void *reference; /* store-all gradient */
    uint64_t reference_bytes;
    double started;
    bool tty, shown, warned;
    /* per planner (below 32), the statuses (below 32) of missing rows
     * already explained */
    uint32_t noted[32];
};

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A progress bar on stderr, only for a terminal and after one second. */
static void progress(struct runner *r, size_t done, size_t total)
{
    if (!r->tty || seconds() - r->started < 1.0)
        return;
    const size_t width = 30, filled = done * width / total;
    char bar[31];
    memset(bar, '#', filled);
    memset(bar + filled, '.', width - filled);
    bar[width] = '\0';
    fprintf(stderr, "\ruturn sweep [%s] %zu/%zu rows", bar, done, total);
    fflush(stderr);
    r->shown = true;
}

/* The model's gradient after a run; CLI_OK or exit 2. */
static int gradient_of(const struct sweep_model *m, const void **gradient,
                       uint64_t *bytes)
{
    *gradient = NULL;
    *bytes    = 0;
    if (m->gradient(m->handle, gradient, bytes) != 0 || *gradient == NULL ||
        *bytes == 0)
        return cli_fail("the model has no gradient after the run "
                        "(uturn_model_plugin_gradient failed, or gave none)"),
               CLI_CANNOT;
    return CLI_OK;
}

/* After a sweep: its gradient against store-all's, its time and peak
 * into the row's run columns. */
static int sweep_matches(struct runner *r, struct sweep_row *row,
                         const uturn_report_t *rep)
{
    const void *gradient = NULL;
    uint64_t bytes       = 0;
    const int rc         = gradient_of(r->model, &gradient, &bytes);
    if (rc != CLI_OK)
        return rc;
    row->wall_seconds += rep->wall_seconds;
    if (rep->measured_peak_bytes > row->measured_peak_bytes)
        row->measured_peak_bytes = rep->measured_peak_bytes;
    row->gradient_matches = row->gradient_matches &&
                            bytes == r->reference_bytes &&
                            memcmp(gradient, r->reference, (size_t)bytes) == 0;
    return CLI_OK;
}

/* Run the model to plan; fills the run columns of row. With several
 * sweeps each further one is run on request and must match too. */
static int run_row(struct runner *r, const struct sweep *sw,
                   const uturn_plan_t *plan, struct sweep_row *row)
{
    /* Each row's measured peak is its own plan's, not what an earlier row
     * left (the executor keeps its region within each run's budget). */
    uturn_executor_trim(r->ex);
    if (r->model->reset(r->model->handle) != 0)
        return cli_fail("the model could not reset to x_0 "
                        "(uturn_model_plugin_reset failed)"),
               CLI_CANNOT;
    const uturn_model_t m = r->model->model;
    uturn_stats_t planned;
    uturn_stats_init(&planned);
    uturn_plan_stats(plan, &planned);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.sweeps_on_request = planned.sweeps > 1; /* to check every sweep */
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_status_t st =
        uturn_executor_run(r->ex, plan, &m, &o, NULL, &rep, &err);
    row->gradient_matches    = r->reference != NULL;
    row->wall_seconds        = 0;
    row->measured_peak_bytes = 0;
    if (st == UTURN_OK)
        sweep_warn_tmpfs(sw, r->ex, &r->warned);
    for (uint64_t j = 1; st == UTURN_OK; j++) {
        const int rc = sweep_matches(r, row, &rep);
        if (rc != CLI_OK || j >= planned.sweeps) {
            uturn_executor_release(r->ex);
            return rc;
        }
        st = uturn_executor_sweep(r->ex, &m, NULL, &rep, &err);
    }
    return cli_library_error(st, &err);
}

/* Say why a planner's rows are missing, once for each status (stderr;
 * exit stays 0): rows missing for another reason get their own note. */
static void note_once(struct runner *r, uturn_planner_t planner,
                      const uturn_error_t *err)
{
    const unsigned p = (unsigned)planner, st = (unsigned)err->status;
    if (p < 32 && st < 32) {
        if ((r->noted[p] & (1u << st)) != 0)
            return;
        r->noted[p] |= 1u << st;
    }
    fprintf(stderr, "uturn: note: %s rows not planned: %s\n",
            uturn_planner_name(planner), err->message);
}

/* A row's counts: the plan's, or for online (which is not told the steps)
 * those of the plan it makes when told the end after sw->steps. */
static int row_stats(const struct sweep *sw, const uturn_plan_t *plan,
                     uturn_stats_t *s)
{
    uturn_plan_stats(plan, s);
    if (!s->online)
        return CLI_OK;
    uturn_plan_t *copy = NULL;
    uturn_problem_t p;
    uturn_problem_init(&p);
    uturn_plan_problem(plan, &p);
    p.levels       = NULL; /* one level: the resolved capacity */
    p.budget_bytes = 0;
    p.level_count  = 0;
    if (uturn_plan_create(&p, NULL, &copy, NULL) != UTURN_OK)
        return cli_fail("out of memory for an online plan"), CLI_CANNOT;
    struct cli_online_counts c;
    const int rc = cli_online_walk(copy, sw->steps, NULL, NULL, &c);
    if (rc == CLI_OK)
        *s = c.stats;
    s->peak_bytes = s->peak_slots * sw->slot_cost;
    uturn_plan_free(copy);
    return rc;
}

/* --sweeps K: the forward steps of K runs of the one-sweep plan of the
 * same problem (on levels, hrevolve's: revolve plans one sweep on memory
 * alone; online, walked to the steps), UINT64_MAX when they pass 2^64 or
 * cannot be had. */
static uint64_t reruns(struct runner *r, const struct sweep *sw,
                       const uturn_problem_t *p)
{
    uturn_problem_t one = *p;
    one.sweeps          = 1;
    if (p->level_count > 1)
        one.planner = UTURN_PLANNER_HREVOLVE;
    uturn_plan_t *plan = NULL;
    const uturn_status_t st =
        sw->run ? uturn_executor_plan(r->ex, &one, &plan, NULL)
                : uturn_plan_create(&one, NULL, &plan, NULL);
    uturn_stats_t s;
    uturn_stats_init(&s);
    /* an online plan's counts come from walking it to sw->steps */
    const int got = st == UTURN_OK ? row_stats(sw, plan, &s) : CLI_CANNOT;
    uturn_plan_free(plan);
    uint64_t total;
    if (got != CLI_OK ||
        __builtin_mul_overflow(s.forward_steps, sw->sweeps, &total))
        return UINT64_MAX;
    return total;
}

/* A feasible row's counts, from its plan's stats s. */
static void keep_counts(const struct sweep *sw, const uturn_plan_t *plan,
                        const uturn_stats_t *s, struct sweep_row *row)
{
    row->feasible      = true;
    row->slots         = s->slots;
    row->forward_steps = s->forward_steps;
    row->peak_bytes    = s->peak_bytes;
    if (sw->has_levels) { /* memory's peak: what the budget holds */
        uturn_level_stats_t mem;
        uturn_level_stats_init(&mem);
        uturn_plan_level_stats(plan, 0, &mem);
        row->peak_bytes = mem.peak_bytes;
    }
    row->recompute_factor = s->recompute_factor;
    row->cost             = s->cost;
    uturn_stats_init(&row->dp);
    cli_dp_keep(s, &row->dp);
    row->dp.forward_cost = s->forward_cost;
    row->cost_factor     = (double)s->cost / (double)s->steps;
}

/* Plan one (budget, planner) row, and run it when asked. */
static int fill_row(struct runner *r, const struct sweep *sw,
                    struct sweep_row *row)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = row->planner;
    p.steps        = row->planner == UTURN_PLANNER_ONLINE ? 0 : sw->steps;
    p.slot_bytes   = sw->state_bytes;
    p.budget_bytes = row->budget_bytes;
    if (row->planner == UTURN_PLANNER_DP) {
        p.step_bytes  = sw->sizes;
        p.step_costs  = sw->costs;
        p.unit_bytes  = sw->unit;
        p.slot_bytes  = sw->sizes != NULL ? 0 : sw->state_bytes;
        p.threads     = sw->dp.threads;
        p.table_bytes = sw->dp.table_bytes;
        p.dp_mode     = sw->dp.dp_mode;
    }
    uturn_level_t levels[CLI_MAX_LEVELS];
    sweep_row_levels(sw, row, levels, &p);
    p.sweeps           = sw->sweeps;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    struct cli_watch watch;
    cli_watch(&p, &watch);
    const uturn_status_t st = sw->run
                                  ? uturn_executor_plan(r->ex, &p, &plan, &err)
                                  : uturn_plan_create(&p, NULL, &plan, &err);
    row->status             = st;
    if (st == UTURN_E_UNSUPPORTED || st == UTURN_E_OVERFLOW)
        note_once(r, row->planner, &err);
    if (st == UTURN_E_INFEASIBLE || st == UTURN_E_UNSUPPORTED ||
        st == UTURN_E_OVERFLOW)
        return CLI_OK; /* a result, not an error */
    if (st != UTURN_OK)
        return cli_library_error(st, &err);
    uturn_stats_t s;
    uturn_stats_init(&s);
    const int got = row_stats(sw, plan, &s);
    if (got != CLI_OK) {
        uturn_plan_free(plan);
        return got;
    }
    keep_counts(sw, plan, &s, row);
    row->reruns  = sw->sweeps > 1 ? reruns(r, sw, &p) : 0;
    const int rc = sw->run ? run_row(r, sw, plan, row) : CLI_OK;
    uturn_plan_free(plan);
    return rc;
}

/* A copy of the model's gradient after the reference run. */
static int keep_reference(struct runner *r)
{
    const void *gradient = NULL;
    uint64_t bytes       = 0;
    const int rc         = gradient_of(r->model, &gradient, &bytes);
    if (rc != CLI_OK)
        return rc;
    r->reference =
        bytes <= SIZE_MAX ? malloc(bytes != 0 ? (size_t)bytes : 1) : NULL;
    if (r->reference == NULL)
        return cli_fail("out of memory for the gradient"), CLI_CANNOT;
    memcpy(r->reference, gradient, (size_t)bytes);
    r->reference_bytes = bytes;
    return CLI_OK;
}

/* The executor and the store-all gradient every row must reproduce bit
 * for bit. */
static int start_runner(struct runner *r, const struct sweep *sw)
{
    r->model = sw->sm;
    if (sweep_open_executor(sw, &r->ex) != CLI_OK)
        return CLI_CANNOT;
    struct sweep_row row = {.planner = UTURN_PLANNER_STORE_ALL};
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_STORE_ALL;
    p.steps            = sw->steps;
    p.slot_bytes       = sw->state_bytes;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_executor_plan(r->ex, &p, &plan, &err);
    if (st != UTURN_OK)
        return cli_library_error(st, &err);
    const int rc = run_row(r, sw, plan, &row);
    uturn_plan_free(plan);
    return rc == CLI_OK ? keep_reference(r) : rc;
}

static void stop_runner(struct runner *r)
{
    if (r->shown)
        fputs("\r\033[K", stderr);
    free(r->reference);
    uturn_executor_free(r->ex);
}

const char *sweep_status_text(uturn_status_t status)
{
    switch (status) {
    case UTURN_OK:
        return "ok";
    case UTURN_E_INFEASIBLE:
        return "infeasible";
    case UTURN_E_OVERFLOW:
        return "overflow";
    default:
        return "unsupported";
    }
}

int sweep_fill(struct sweep *sw)
{
    const size_t total = sw->budget_count * sw->planner_count;
    sw->rows           = calloc(total, sizeof *sw->rows);
    if (sw->rows == NULL)
        return cli_fail("out of memory"), CLI_CANNOT;
    struct runner r = {.started = seconds(), .tty = isatty(STDERR_FILENO) == 1};
    int rc          = sw->run ? start_runner(&r, sw) : CLI_OK;
    for (size_t i = 0; rc == CLI_OK && i < total; i++) {
        struct sweep_row *row = &sw->rows[i];
        row->budget_bytes     = sw->budgets[i / sw->planner_count];
        row->planner          = sw->planners[i % sw->planner_count];
        rc                    = fill_row(&r, sw, row);
        progress(&r, i + 1, total);
    }
    stop_runner(&r);
    return rc;
}
