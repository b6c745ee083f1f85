/* uturn sweep: rows of (budget, planner) results, shared by its files. */
#ifndef UTURN_SWEEP_H_INCLUDED
#define UTURN_SWEEP_H_INCLUDED

#include "cli.h"

#include <stddef.h>
#include <uturn_model_plugin.h>

#define SWEEP_MAX_PLANNERS 5
/* dp joins the default planners up to this many steps: its time grows
 * like steps^3 * memory units. */
#define SWEEP_DP_DEFAULT_STEPS 200
#define SWEEP_MAX_BUDGETS      256

struct sweep_row {
    uturn_planner_t planner;
    uint64_t budget_bytes;
    bool feasible;
    /* UTURN_OK (feasible), UTURN_E_INFEASIBLE, or a planner that cannot
     * serve this row: UTURN_E_UNSUPPORTED or UTURN_E_OVERFLOW (a result
     * too, so the other rows are still printed). */
    uturn_status_t status;
    uint64_t slots, forward_steps, peak_bytes;
    double recompute_factor;
    uint64_t cost;      /* forward cost plus every write and read (--levels) */
    uint64_t reruns;    /* --sweeps K: forward steps of K one-sweep runs
                           (UINT64_MAX: none, or past 2^64; shown as -) */
    double cost_factor; /* cost / steps */
    uturn_stats_t dp;   /* dp: exact, unit_bytes, lower bound, seconds */
    /* --run only */
    double wall_seconds;
    uint64_t measured_peak_bytes;
    bool gradient_matches;
};

/* The model a sweep plans for and runs: the built-in Burgers model or a
 * model library (uturn_model_plugin.h), behind the same four calls. */
struct sweep_model {
    uturn_model_t model; /* as the model made it */
    void *handle;
    void *library;    /* dlopen()'s handle, or NULL for the built-in */
    const char *path; /* the library's, or NULL */
    uturn_model_plugin_reset_fn *reset;
    uturn_model_plugin_gradient_fn *gradient;
    uturn_model_plugin_destroy_fn *destroy;
};

/* --model: "burgers" (--grid points) or a path with a '/' to a model
 * library given args (--model-args); steps is n. Fills m (closed with
 * sweep_model_close() on success only); CLI_OK or an exit status, the
 * message printed. */
int sweep_model_open(const char *spec, const char *args, uint64_t grid,
                     uint64_t steps, struct sweep_model *m);
/* Destroy the model and unload its library. NULL or closed: no-op. */
void sweep_model_close(struct sweep_model *m);
/* Whether --model names a library (a path with a '/'). */
bool sweep_model_is_library(const char *spec);

struct sweep {
    bool model;             /* a model gives the state, else planning only */
    struct sweep_model *sm; /* that model, when open (--run, a library) */
    const char *model_path; /* a model library's path, or NULL */
    bool run;               /* execute each feasible row */
    uint64_t grid;          /* Burgers grid points */
    uint64_t steps;         /* n */
    uint64_t state_bytes;
    uint64_t slot_cost; /* what a slot counts as: real cost with --run */
    uint64_t granule;   /* --run: the executor's storage unit (its page) */
    uturn_executor_t *executor; /* --run: sizes the default budgets */
    uint64_t budgets[SWEEP_MAX_BUDGETS];
    size_t budget_count;
    uturn_planner_t planners[SWEEP_MAX_PLANNERS];
    size_t planner_count;
    enum cli_format format;
    const char *plot;
    uint64_t *sizes, *costs; /* per-step, for dp (others: largest size) */
    uint64_t unit;
    uturn_problem_t dp; /* dp's threads, table_bytes and dp_mode (only) */
    /* --levels: level 0's capacity is each row's budget; planners of one
     * level plan memory alone, for comparison. */
    struct cli_levels levels;
    bool has_levels;
    const char *level_dir;  /* --level-dir: file levels' directory */
    uint64_t sweeps;        /* --sweeps K: reverse sweeps per run (1: one) */
    struct sweep_row *rows; /* budget_count * planner_count, budget-major */
};

/* I/O buffers of a sweep's file levels (uturn_executor_options_t). */
#define SWEEP_IO_BUFFERS 2

/* --levels for sweep (cli_sweep_levels.c): parse and check them. */
int sweep_parse_levels(const struct cli_options *o, struct sweep *sw);
/* Whether the planner plans every level (else memory alone): hrevolve,
 * and revolve with several sweeps. */
bool sweep_planner_has_levels(uturn_planner_t planner, uint64_t sweeps);
/* The row's levels into p: level 0 holds the budget. lv has room for
 * CLI_MAX_LEVELS. */
void sweep_row_levels(const struct sweep *sw, const struct sweep_row *row,
                      uturn_level_t *lv, uturn_problem_t *p);
/* An executor with a file level for each level past memory. */
int sweep_open_executor(const struct sweep *sw, uturn_executor_t **ex);
/* After a run: warn once on stderr when a file level sat in memory. */
void sweep_warn_tmpfs(const struct sweep *sw, const uturn_executor_t *ex,
                      bool *warned);

/* "ok", "infeasible", "unsupported" or "overflow": a row's status. */
const char *sweep_status_text(uturn_status_t status);
/* Fill every row (planning, and with --run executing); CLI exit status. */
int sweep_fill(struct sweep *sw);
/* Print the rows as text, CSV or JSON. */
void sweep_print(FILE *out, const struct sweep *sw);
/* Draw recompute factor (and wall time with --run) against budget. */
void sweep_plot(const struct sweep *sw, FILE *out);
/* "2 KiB", "1.5 MiB": a size for people. */
void sweep_human_bytes(uint64_t bytes, char *out, size_t cap);

#endif
