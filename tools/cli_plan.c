/* uturn plan | stats | check. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_spec plan_specs[] = {
    {"steps", true, 'n'},        {"slots", true, 's'},
    {"budget", true, 'b'},       {"state-bytes", true, 'B'},
    {"slot-bytes", true, '\0'},  {"stride", true, 'k'},
    {"format", true, 'f'},       {"json", false, 'j'},
    {"walk", false, '\0'},       {"sizes", true, '\0'},
    {"costs", true, '\0'},       {"unit", true, '\0'},
    {"levels", true, 'l'},       {"help", false, 'h'},
    {"max-steps", true, '\0'},   {"threads", true, 't'},
    {"table-bytes", true, '\0'}, {"dp-mode", true, '\0'},
    {"sweeps", true, '\0'},      {NULL, false, '\0'}};

/* The options of plan and stats, for their --help. */
#define PLAN_OPTIONS                                                           \
    "  -n, --steps N           the steps of the chain, n (required)\n"         \
    "  -s, --slots S           the capacity in slots\n"                        \
    "  -b, --budget SIZE       the capacity in bytes of slot storage\n"        \
    "  -B, --state-bytes SIZE  the size of one state (with --budget)\n"        \
    "      --slot-bytes SIZE   what a slot counts as (default: the state)\n"   \
    "  -k, --stride K          periodic's stride\n"                            \
    "  -l, --levels LIST       storage levels, fastest first (hrevolve,\n"     \
    "                          online, revolve --sweeps K):\n"                 \
    "                          NAME:SLOTS|SIZE[:w=W:r=R],...\n"                \
    "      --sweeps K          revolve, online: K reverse sweeps over one\n"   \
    "                          forward (persistent checkpoints; default 1),\n" \
    "                          or 'unbounded': each further sweep on\n"        \
    "                          request\n"                                      \
    "      --max-steps M       online: a bound on n, M >= N (with --levels\n"  \
    "                          it sizes the periods; without it such a plan\n" \
    "                          reaches the last level's slots times its\n"     \
    "                          period)\n"                                      \
    "      --sizes FILE        dp, online: the size of x_0 .. x_{n-1}, one\n"  \
    "                          per line (with --budget)\n"                     \
    "      --costs FILE        dp: the cost of each step, one per line\n"      \
    "      --unit SIZE         dp: its memory resolution (default: the\n"      \
    "                          sizes' gcd)\n"                                  \
    "  -t, --threads N         dp: threads filling its tables (default 1;\n"   \
    "                          the plan is the same for any N)\n"              \
    "      --table-bytes SIZE  dp: the most its tables may hold (default\n"    \
    "                          1GiB)\n"                                        \
    "      --dp-mode MODE      dp: auto (exact when its table fits, else\n"    \
    "                          approximate; the default), exact, or\n"         \
    "                          approximate\n"                                  \
    "  -f, --format text|json  the output (default text)\n"                    \
    "  -j, --json              --format json\n"                                \
    "  -h, --help\n"                                                           \
    "A short option stands alone, its value in the next word (-n 100).\n"

/* What needs a capacity, for plan and stats. */
#define PLAN_CAPACITY                                                          \
    "PLANNER is store-all, periodic, sqrt, revolve, dp, hrevolve or online.\n" \
    "revolve, dp, hrevolve, online, and periodic without --stride, need a\n"   \
    "capacity: --slots, --budget with the size of one state, or --levels.\n"   \
    "Slots hold x_0 too.\n"                                                    \
    "online is not told --steps N: the plan is the one it made when told,\n"   \
    "after advance N-1 N, that x_N is the last state. With --budget and\n"     \
    "--sizes FILE (no --state-bytes) each state's size is given to it as\n"    \
    "the sweep reaches that state. With --levels it is the periodic disk\n"    \
    "schedule: x_0, x_P, x_2P, .. on the last level, each period reversed\n"   \
    "by hrevolve once the end is known.\n"

static const char plan_help[] =
    "usage: uturn plan PLANNER -n N [-s S | -b SIZE -B SIZE] [options]\n"
    "Print the plan, one action per line, in the plan file format (so that\n"
    "'uturn plan ... | uturn check -' works), or as JSON.\n" PLAN_CAPACITY
        PLAN_OPTIONS CLI_SIZE_HELP;

static const char stats_help[] =
    "usage: uturn stats PLANNER -n N [-s S | -b SIZE -B SIZE] [options]\n"
    "                   [--walk]\n"
    "Print the plan's counts (forward_steps, peak_slots, ...), predicted\n"
    "without generating the plan. --walk generates and validates every\n"
    "action instead, and fails (exit 2) if the walk disagrees with the\n"
    "prediction.\n" PLAN_CAPACITY PLAN_OPTIONS CLI_SIZE_HELP;

static const char check_help[] =
    "usage: uturn check FILE [-f|--format text|json] [-j|--json]\n"
    "Validate a plan file ('-' reads standard input) against every rule of\n"
    "the model and print its counts. Exit 0 when valid; 1 with\n"
    "'invalid plan: action K (line L): REASON' when not.\n";

/* The rest of the problem from checked options: online's bound, the
 * steps (0 for online, which is told the end instead), the capacity. */
static int fill_problem(const struct cli_options *o, bool online,
                        uturn_problem_t *p)
{
    if (o->has_max_steps && !online)
        return cli_fail("--max-steps is for the online planner");
    if (o->has_max_steps && o->max_steps == 0)
        return cli_fail("--max-steps 0: give a bound of at least 1 (or no "
                        "--max-steps for none)");
    if (o->has_max_steps && o->max_steps < o->steps)
        return cli_fail("--max-steps %llu is below --steps %llu: the online "
                        "plan would end by itself at x_%llu",
                        (unsigned long long)o->max_steps,
                        (unsigned long long)o->steps,
                        (unsigned long long)o->max_steps);
    /* online is not told the steps: the end is said after --steps. */
    p->steps        = online ? 0 : o->steps;
    p->max_steps    = o->has_max_steps ? o->max_steps : 0;
    p->slot_bytes   = o->has_slot_bytes ? o->slot_bytes : o->state_bytes;
    p->budget_bytes = o->has_budget ? o->budget : 0;
    p->stride       = o->has_stride ? o->stride : 0;
    if (o->has_stride && o->stride == 0)
        return cli_fail("--stride must be at least 1");
    if (o->has_slots && o->slots == 0)
        return cli_fail("--slots must be at least 1 (every plan keeps x_0 "
                        "in a slot)");
    p->slots      = o->has_slots ? o->slots : 0;
    p->unit_bytes = o->has_unit ? o->unit : 0;
    if (o->has_sweeps && o->sweeps == 0)
        return cli_fail("--sweeps must be at least 1");
    p->sweeps = o->has_sweeps ? o->sweeps : 0;
    return CLI_OK;
}

/* The problem the options describe; CLI_OK or an exit status. */
static int build_problem(const struct cli_options *o, uturn_problem_t *p)
{
    uturn_problem_init(p);
    if (o->positional == NULL)
        return cli_fail("%s: name a planner (%s)", o->command, CLI_PLANNERS);
    if (uturn_planner_from_name(o->positional, &p->planner) != UTURN_OK)
        return cli_fail("unknown planner '%s' (%s)", o->positional,
                        CLI_PLANNERS);
    if (!o->has_steps)
        return cli_fail("%s: --steps is required", o->command);
    if (o->steps == 0)
        return cli_fail("--steps must be at least 1");
    if ((o->has_budget && o->budget == 0) ||
        (o->has_state_bytes && o->state_bytes == 0) ||
        (o->has_slot_bytes && o->slot_bytes == 0))
        return cli_fail("%s must be at least 1 byte",
                        o->has_budget && o->budget == 0 ? "--budget"
                        : o->has_state_bytes && o->state_bytes == 0
                            ? "--state-bytes"
                            : "--slot-bytes");
    if (o->has_slots && o->has_budget)
        return cli_fail("give --slots or --budget, not both");
    if (o->has_budget && !o->has_state_bytes && !o->has_slot_bytes &&
        o->sizes_path == NULL)
        return cli_fail("--budget needs --state-bytes (the size of one "
                        "state) or --sizes");
    if (o->sizes_path != NULL && o->has_slots)
        return cli_fail("with --sizes give a byte --budget, not --slots");
    const bool online = p->planner == UTURN_PLANNER_ONLINE;
    if (((o->sizes_path != NULL && !online) || o->costs_path != NULL ||
         o->has_unit) &&
        p->planner != UTURN_PLANNER_DP)
        return cli_fail("--sizes, --costs and --unit are for the dp planner "
                        "(the others plan uniform states; online takes "
                        "--sizes, each size given as the sweep reaches it)");
    if (o->has_unit && o->unit == 0)
        return cli_fail("--unit must be at least 1 byte");
    if (o->has_unit && !o->has_budget)
        return cli_fail("--unit is a resolution in bytes: it needs a byte "
                        "--budget");
    if (o->levels != NULL && (o->has_slots || o->has_budget))
        return cli_fail("with --levels the capacity is the levels': give "
                        "neither --slots nor --budget");
    const bool needs_capacity =
        p->planner == UTURN_PLANNER_REVOLVE || p->planner == UTURN_PLANNER_DP ||
        p->planner == UTURN_PLANNER_HREVOLVE || online ||
        (p->planner == UTURN_PLANNER_PERIODIC && !o->has_stride);
    if (needs_capacity && !o->has_slots && !o->has_budget && !o->levels)
        return cli_fail(
            "%s needs a capacity: give --slots S, or --budget "
            "SIZE with --state-bytes SIZE%s%s",
            o->positional,
            p->planner == UTURN_PLANNER_DP ? " or with --sizes FILE" : "",
            p->planner == UTURN_PLANNER_PERIODIC ? " (or a --stride K)" : "");
    return fill_problem(o, online, p);
}

/* The per-step files, read for p->steps values; the caller frees them. */
static int load_steps(const struct cli_options *o, uturn_problem_t *p,
                      uint64_t **sizes, uint64_t **costs)
{
    int rc = CLI_OK;
    if (o->sizes_path != NULL)
        rc = cli_read_values("--sizes", o->sizes_path, true, o->steps, sizes);
    if (rc == CLI_OK && o->costs_path != NULL)
        rc = cli_read_values("--costs", o->costs_path, false, p->steps, costs);
    /* online gets its sizes one by one as the sweep reaches them. */
    p->step_bytes = p->planner == UTURN_PLANNER_ONLINE ? NULL : *sizes;
    p->step_costs = *costs;
    return rc;
}

/* --levels into the problem; byte capacities need the state's size. */
static int load_levels(const struct cli_options *o, struct cli_levels *lv,
                       uturn_problem_t *p)
{
    if (o->levels == NULL)
        return CLI_OK;
    const int rc = cli_parse_levels(o->levels, false, lv);
    if (rc != CLI_OK)
        return rc;
    for (size_t k = 0; k < lv->count; k++)
        if (lv->levels[k].bytes != 0 && p->slot_bytes == 0)
            return cli_fail("--levels: level %zu's capacity is a size: give "
                            "--state-bytes (or a slot count)",
                            k);
    p->levels      = lv->levels;
    p->level_count = lv->count;
    return CLI_OK;
}

/* Parse options, build the problem and its plan; CLI_OK or exit status.
 * An online plan's sizes (--sizes) are the caller's to free: the walk
 * gives them as it goes. */
static int open_plan(int argc, char **argv, struct cli_options *o,
                     const char *help, uturn_plan_t **plan,
                     uint64_t **online_sizes)
{
    int rc = cli_parse(argc, argv, 2, plan_specs, o);
    if (rc != CLI_OK || o->help) {
        if (o->help)
            fputs(help, stdout);
        return rc;
    }
    if (strcmp(o->command, "plan") == 0 && o->walk)
        return cli_fail("plan: --walk belongs to 'uturn stats'");
    uturn_problem_t problem;
    uint64_t *sizes = NULL, *costs = NULL;
    struct cli_levels levels;
    rc = build_problem(o, &problem);
    if (rc == CLI_OK)
        rc = cli_dp_apply(o, problem.planner == UTURN_PLANNER_DP, &problem);
    if (rc == CLI_OK)
        rc = load_steps(o, &problem, &sizes, &costs);
    if (rc == CLI_OK)
        rc = load_levels(o, &levels, &problem);
    uturn_error_t error;
    uturn_error_init(&error);
    struct cli_watch watch;
    if (rc == CLI_OK) {
        cli_watch(&problem, &watch);
        const uturn_status_t st =
            uturn_plan_create(&problem, NULL, plan, &error);
        rc = st == UTURN_OK ? CLI_OK : cli_library_error(st, &error);
    }
    if (rc != CLI_OK) { /* the callers free a plan only on success */
        uturn_plan_free(*plan);
        *plan = NULL;
    }
    if (rc == CLI_OK && problem.planner == UTURN_PLANNER_ONLINE) {
        *online_sizes = sizes;
        sizes         = NULL;
    }
    free(sizes);
    free(costs);
    return rc;
}

/* dp's counts after its plan text, as a comment that uturn check skips. */
static void print_dp_comment(const uturn_plan_t *plan)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cli_dp_print(stdout, &s, CLI_DP_COMMENT);
}

/* An online plan's actions as it makes them when told the end. */
static int print_online(const struct cli_options *o, const uturn_plan_t *plan,
                        const uint64_t *sizes)
{
    const bool json                 = o->format == FORMAT_JSON;
    const struct cli_online_out out = {.stream = stdout, .json = json};
    struct cli_online_counts counts;
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    char k[24];
    if (cli_online_fits(plan, o->steps, sizes) != CLI_OK)
        return CLI_CANNOT; /* before the JSON's first line */
    if (json) {
        printf("{\"planner\": \"online\", \"steps\": %llu, \"slots\": "
               "%llu, \"slot_bytes\": %llu, \"budget_bytes\": %llu, ",
               (unsigned long long)o->steps, (unsigned long long)s.slots,
               (unsigned long long)s.slot_bytes,
               (unsigned long long)s.budget_bytes);
        if (s.sweeps > 1)
            printf("\"sweeps\": %s, ", cli_sweeps_word(k, s.sweeps, true));
        fputs("\"actions\": [", stdout);
    }
    const int rc = cli_online_walk(plan, o->steps, sizes, &out, &counts);
    if (json && rc == CLI_OK && s.sweeps > 1) /* counted by the walk */
        printf("\n], \"persistent\": %llu, \"sweep_forward_steps\": "
               "%llu}\n",
               (unsigned long long)counts.stats.persistent,
               (unsigned long long)counts.stats.sweep_forward_steps);
    else if (json && rc == CLI_OK)
        fputs("\n]}\n", stdout);
    return rc;
}

int cli_cmd_plan(int argc, char **argv)
{
    struct cli_options o = {.command = "plan"};
    uturn_plan_t *plan   = NULL;
    uint64_t *sizes      = NULL;
    int rc               = open_plan(argc, argv, &o, plan_help, &plan, &sizes);
    if (rc != CLI_OK || o.help)
        return rc;
    if (strcmp(o.positional, "online") == 0) {
        rc = print_online(&o, plan, sizes);
    } else if (o.format == FORMAT_JSON) {
        rc = cli_print_plan_json(stdout, plan);
    } else {
        uturn_error_t error;
        uturn_error_init(&error);
        const uturn_status_t status = uturn_plan_write(plan, stdout, &error);
        rc = status == UTURN_OK ? CLI_OK : cli_library_error(status, &error);
        if (rc == CLI_OK && strcmp(o.positional, "dp") == 0)
            print_dp_comment(plan);
    }
    uturn_plan_free(plan);
    free(sizes);
    return rc;
}

/* Name the first count where a walk and the prediction differ, or NULL. */
static const char *first_difference(const uturn_stats_t *a,
                                    const uturn_stats_t *b)
{
    if (a->forward_steps != b->forward_steps)
        return "forward_steps";
    if (a->stores != b->stores || a->restores != b->restores ||
        a->frees != b->frees)
        return "stores, restores or frees";
    if (a->peak_slots != b->peak_slots || a->peak_bytes != b->peak_bytes)
        return "peak_slots or peak_bytes";
    if (a->actions != b->actions || a->reverse_steps != b->reverse_steps)
        return "actions or reverse_steps";
    if (a->cost != b->cost || a->forward_cost != b->forward_cost)
        return "cost or forward_cost";
    return NULL;
}

/* An online plan's counts, from a checked walk (--walk or not). */
static int stats_online(const struct cli_options *o, const uturn_plan_t *plan,
                        const uint64_t *sizes)
{
    struct cli_online_counts c;
    const int rc = cli_online_walk(plan, o->steps, sizes, NULL, &c);
    if (rc == CLI_OK)
        cli_print_stats(stdout, "online", &c.stats, 0, o->format, c.level);
    return rc;
}

int cli_cmd_stats(int argc, char **argv)
{
    struct cli_options o = {.command = "stats"};
    uturn_plan_t *plan   = NULL;
    uint64_t *sizes      = NULL;
    int rc               = open_plan(argc, argv, &o, stats_help, &plan, &sizes);
    if (rc != CLI_OK || o.help)
        return rc;
    if (strcmp(o.positional, "online") == 0) {
        rc = stats_online(&o, plan, sizes);
        uturn_plan_free(plan);
        free(sizes);
        return rc;
    }
    uturn_stats_t predicted, shown;
    uturn_problem_t problem;
    uturn_stats_init(&predicted);
    uturn_problem_init(&problem);
    uturn_plan_stats(plan, &predicted);
    uturn_plan_problem(plan, &problem);
    shown = predicted;
    if (o.walk) {
        uturn_error_t error;
        uturn_error_init(&error);
        uturn_stats_init(&shown);
        const uturn_status_t st = uturn_plan_walk(plan, &shown, &error);
        const char *diff =
            st == UTURN_OK ? first_difference(&shown, &predicted) : NULL;
        if (st != UTURN_OK)
            rc = cli_library_error(st, &error);
        else if (diff != NULL)
            rc =
                (cli_fail("the walk disagrees with the prediction on %s", diff),
                 CLI_CANNOT);
    }
    cli_dp_keep(&predicted, &shown); /* the walk knows nothing of them */
    uturn_level_stats_t levels[CLI_MAX_LEVELS];
    cli_plan_levels(plan, levels);
    if (rc == CLI_OK)
        cli_print_stats(stdout, o.positional, &shown, problem.stride, o.format,
                        levels);
    uturn_plan_free(plan);
    return rc;
}

/* Stream a file (or standard input for "-") through a reader: memory
 * follows the longest line and the slots in use, not the plan's length. */
static int check_stream(const char *path, uturn_stats_t *stats)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL)
        return cli_fail("cannot read '%s': %s", path, strerror(errno));
    uturn_reader_t *reader = NULL;
    uturn_error_t error;
    uturn_error_init(&error);
    uturn_status_t st = uturn_reader_create(NULL, &reader, &error);
    char buf[1 << 16];
    size_t got = 0;
    errno      = 0;
    while (st == UTURN_OK && (got = fread(buf, 1, sizeof buf, f)) > 0)
        st = uturn_reader_feed(reader, buf, got, &error);
    const int reason = errno;
    int rc           = CLI_OK;
    if (st == UTURN_OK && ferror(f))
        rc = cli_fail("cannot read '%s': %s", path,
                      reason != 0 ? strerror(reason) : "read error");
    else if (st == UTURN_OK)
        st = uturn_reader_finish(reader, stats, &error);
    if (rc == CLI_OK && st != UTURN_OK)
        rc = cli_library_error(st, &error);
    uturn_reader_free(reader);
    if (f != stdin)
        fclose(f);
    return rc;
}

int cli_cmd_check(int argc, char **argv)
{
    static const struct cli_spec specs[] = {{"format", true, 'f'},
                                            {"json", false, 'j'},
                                            {"help", false, 'h'},
                                            {NULL, false, '\0'}};
    struct cli_options o                 = {.command = "check"};
    int rc                               = cli_parse(argc, argv, 2, specs, &o);
    if (rc != CLI_OK || o.help)
        return o.help ? (fputs(check_help, stdout), CLI_OK) : rc;
    if (o.positional == NULL)
        return cli_fail("check: name a plan file, or - for standard input");
    uturn_stats_t stats;
    uturn_stats_init(&stats);
    rc = check_stream(o.positional, &stats);
    if (rc != CLI_OK)
        return rc;
    cli_print_stats(stdout, "parsed", &stats, 0, o.format, NULL);
    return CLI_OK;
}
