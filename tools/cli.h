/* The uturn command-line tool: declarations shared by its files. */
#ifndef UTURN_CLI_H_INCLUDED
#define UTURN_CLI_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <uturn.h>

/* Exit statuses of docs/model.md section 9. */
enum { CLI_OK = 0, CLI_BAD_INPUT = 1, CLI_CANNOT = 2 };

enum cli_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV };

/* The planners a user may name, for messages. */
#define CLI_PLANNERS "store-all, periodic, sqrt, revolve, dp, hrevolve, online"

/* Everything the subcommands accept; each takes the part it needs. */
struct cli_options {
    const char *command;
    const char *positional; /* planner name or file */
    uint64_t steps, slots, budget, state_bytes, slot_bytes, stride;
    uint64_t max_steps; /* online: a bound on n */
    uint64_t sweeps;    /* --sweeps K: reverse sweeps over one forward */
    bool has_sweeps;
    bool has_steps, has_slots, has_budget, has_state_bytes, has_slot_bytes;
    bool has_stride, has_max_steps, walk, help;
    enum cli_format format;
    /* sweep */
    const char *model, *budgets, *budget_range, *planners, *plot;
    const char *model_args; /* --model-args, for a model library */
    uint64_t grid;
    bool has_grid, run;
    /* per-step sizes and costs (dp) */
    const char *sizes_path, *costs_path;
    const char *levels;    /* --levels, unparsed */
    const char *level_dir; /* sweep --run: where file levels go */
    uint64_t unit;
    bool has_unit;
    /* dp's --threads, --table-bytes and --dp-mode */
    uint64_t threads, table_bytes;
    uturn_dp_mode_t dp_mode;
    bool has_threads, has_table_bytes, has_dp_mode;
    /* budget: the bound asked for, factor_num / factor_den or cost */
    uint64_t factor_num, factor_den, cost;
    const char *factor_text;
    bool has_factor, has_cost;
};

/* --levels, parsed (cli_levels.c); the names point into text. */
#define CLI_MAX_LEVELS 16
struct cli_levels {
    char text[1024];
    uturn_level_t levels[CLI_MAX_LEVELS];
    size_t count;
};
/* open_first: level 0 has no capacity (sweep sets it). */
int cli_parse_levels(const char *text, bool open_first, struct cli_levels *out);

/* An online plan made real (cli_online.c): walked to the end it makes
 * when told after n steps that x_n is the last (sizes: each state's,
 * given as the sweep reaches it; NULL for uniform states), every action
 * checked by a validator as it comes and, when out->stream is set,
 * written there (plan text with its header, or JSON actions). The counts
 * are the validator's, with the online plan's own capacity, budget and
 * fingerprint; nothing is kept that grows with n. */
/* The most forward steps (of the offline optimum) an online walk takes
 * on: about a minute of walking here. */
#define CLI_ONLINE_MOST_FORWARD 500000000ull
struct cli_online_out {
    FILE *stream; /* NULL: count only */
    bool json;    /* the actions as JSON objects, comma-separated */
};
/* A plan's sweeps as the plan formats write them: the count, or
 * "unbounded" (quoted for JSON). Returns out. */
const char *cli_sweeps_word(char out[24], uint64_t sweeps, bool json);

struct cli_online_counts {
    uturn_stats_t stats;
    uint64_t levels;
    uturn_level_stats_t level[CLI_MAX_LEVELS]; /* names: the plan's */
};
/* Whether the walk of @p plan to @p n steps can be made: within a minute,
 * x_0 within a byte budget, steps within the reach of a plan with levels.
 * CLI_OK, or the exit status (the message printed); cli_online_walk()
 * checks it first too, so that a refused walk writes nothing. */
int cli_online_fits(const uturn_plan_t *plan, uint64_t n,
                    const uint64_t *sizes);
int cli_online_walk(const uturn_plan_t *plan, uint64_t n, const uint64_t *sizes,
                    const struct cli_online_out *out,
                    struct cli_online_counts *counts);

/* One option a subcommand takes: its name, whether it has a value, and
 * its one-letter form ('\0': none). */
struct cli_spec {
    const char *name;
    bool takes_value;
    char short_name;
};

/* Parse argv[first..argc) for the subcommand's specs into opts.
 * Returns CLI_OK or CLI_BAD_INPUT (after printing the message). */
int cli_parse(int argc, char **argv, int first, const struct cli_spec *specs,
              struct cli_options *opts);
/* Parse a whole number (digits only); on failure print "uturn: WHAT: ..."
 * and return false. */
bool cli_number(const char *what, const char *text, uint64_t *out);
/* Parse a decimal number ("2", "2.5", ".75") as num / den, den a power of
 * 10; false with the message printed. */
bool cli_decimal(const char *what, const char *text, uint64_t *num,
                 uint64_t *den);
/* Parse a size as CLI_SIZE_HELP says (cli_size.c); on failure print
 * "uturn: WHAT: ..." (naming the whole sizes beside a fraction that is not
 * whole) and return false. */
bool cli_size(const char *what, const char *text, uint64_t *out);
/* The forms of a size, for messages, and the rule, for every --help that
 * takes a size. */
#define CLI_SIZE_FORMS                                                         \
    "a number of bytes and an optional unit, any case: K M G T P E or KiB "    \
    "MiB .. (powers of 1024), KB MB GB TB PB EB (powers of 1000), B; e.g. "    \
    "40MiB, 1.5G"
#define CLI_SIZE_HELP                                                          \
    "Sizes: a number of bytes and an optional unit, in any case. K, M, G,\n"   \
    "T, P, E, and KiB, MiB, ... (also Ki, Mi, ...) are powers of 1024:\n"      \
    "40M = 40MiB = 40mib = 41943040. KB, MB, GB, TB, PB, EB are powers of\n"   \
    "1000: 40MB = 40000000. B or no unit is bytes. A fraction is allowed\n"    \
    "when the size is a whole number of bytes (1.5KiB = 1536, 0.5M =\n"        \
    "524288); any other (1.3KiB is 1331.2 bytes) is refused, naming the\n"     \
    "whole sizes beside it. Nothing is rounded; sizes past 2^64 - 1 bytes\n"   \
    "are refused.\n"

/* Read --sizes (size=true) or --costs from path ("-": stdin): exactly n
 * values, each at least 1, into a malloc'd array. CLI_OK or exit status. */
int cli_read_values(const char *opt, const char *path, bool size, uint64_t n,
                    uint64_t **out);

/* dp's options and counts (cli_dp.c). --dp-mode's value into *out, or
 * false with the message printed. */
bool cli_dp_mode(const char *text, uturn_dp_mode_t *out);
/* Whether any of dp's own options was given. */
bool cli_dp_given(const struct cli_options *o);
/* Check dp's options and set them in p; has_dp: dp is (among) the
 * planners. CLI_OK or CLI_BAD_INPUT (message printed). */
int cli_dp_apply(const struct cli_options *o, bool has_dp, uturn_problem_t *p);
/* Copy dp's counts (exact .. planning_seconds) from one stats to another. */
void cli_dp_keep(const uturn_stats_t *from, uturn_stats_t *to);
/* dp's counts as text lines, JSON members (", \"exact\": ...") or the
 * comment line of a plan file. lower_bound_cost only when not exact. */
enum cli_dp_form { CLI_DP_TEXT, CLI_DP_JSON, CLI_DP_COMMENT };
void cli_dp_print(FILE *out, const uturn_stats_t *s, enum cli_dp_form form);

/* Print "uturn: MESSAGE" on stderr; returns CLI_BAD_INPUT. */
int cli_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Before anything is written: standard output must be open (a command
 * whose output would be lost fails instead), and a closed standard error
 * is pointed at /dev/null so that no file the command opens can take its
 * place. CLI_OK or CLI_BAD_INPUT (message printed). */
int cli_output_open(void);
/* After a command: everything it wrote to standard output must have
 * arrived (a full disk, a closed pipe), else it fails with exit 1. */
int cli_output_done(int rc);

/* Planning that takes long reports its progress on stderr
 * (cli_watch.c): cli_watch() sets the problem's progress callback. */
struct cli_watch {
    const char *what; /* the planner */
    double started, reported;
    bool shown, tty;
};
void cli_watch(uturn_problem_t *problem, struct cli_watch *w);

/* A file written in full or not at all; a device or FIFO written in
 * place (cli_outfile.c). */
struct cli_outfile {
    const char *path; /* the target */
    char temp[4096];  /* the temporary file beside it; "": in place */
    FILE *stream;     /* open on temp (or the target), or NULL */
};
/* Create the temporary file now (a bad path fails before any work). */
int cli_outfile_open(const char *path, struct cli_outfile *f);
/* Flush, close and rename over the target; on failure remove the temp. */
int cli_outfile_commit(struct cli_outfile *f);
/* Close and remove the temporary file; the target is untouched. */
void cli_outfile_abort(struct cli_outfile *f);

/* Report a library failure and return its exit status. */
int cli_library_error(uturn_status_t status, const uturn_error_t *error);

/* Output of counts, as text or one JSON object; with the levels' counts
 * (s->levels of them) when levels is not NULL and there are several or
 * costly ones. */
void cli_print_stats(FILE *out, const char *planner, const uturn_stats_t *s,
                     uint64_t stride, enum cli_format format,
                     const uturn_level_stats_t *levels);
/* A plan's level counts, into levels[0 .. its levels). */
void cli_plan_levels(const uturn_plan_t *plan, uturn_level_stats_t *levels);
/* The plan as a JSON object with an "actions" array. */
int cli_print_plan_json(FILE *out, const uturn_plan_t *plan);
/* One action as a JSON object (no newline). */
void cli_print_action_json(FILE *out, const uturn_action_t *a);

int cli_cmd_plan(int argc, char **argv);
int cli_cmd_stats(int argc, char **argv);
int cli_cmd_check(int argc, char **argv);
int cli_cmd_sweep(int argc, char **argv);
int cli_cmd_budget(int argc, char **argv);
int cli_cmd_durable(int argc, char **argv);

/* A durable run across MPI ranks (cli_durable_ranks.c): whether DIR is
 * one (a commit record or rank-R parts there, and no lock or manifest of
 * a run of one process); its show and its removal, as uturn durable
 * show|remove print them. CLI_OK or an exit status. */
bool cli_durable_is_ranks(const char *dir);
int cli_durable_ranks_show(const char *dir);
int cli_durable_ranks_remove(const char *dir);

#endif
