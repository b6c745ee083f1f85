/* uturn sweep: options, the budget list, and the command itself. */
#define _POSIX_C_SOURCE 200809L /* strtok_r, strdup */
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char sweep_help[] =
    "usage: uturn sweep [--model burgers|none] [--grid N] [--steps N]\n"
    "                   [--state-bytes SIZE] [--budgets LIST | "
    "--budget-range MIN:MAX[:COUNT]]\n"
    "                   [--planners LIST] [--run] [--format text|csv|json]\n"
    "                   [--plot FILE.svg]\n"
    "For each budget and planner: feasible or not, slots, forward_steps,\n"
    "recompute factor and planned peak bytes. With --run the built-in\n"
    "Burgers model is executed too: wall time, the allocator-measured peak\n"
    "and whether the gradient equals the store-all gradient bit for bit.\n"
    "  --model burgers   the default: 1D viscous Burgers, --grid points\n"
    "                    (default 256), --steps time steps (default 2000)\n"
    "  --state-bytes S   plan only, for --steps N states of S bytes\n"
    "  --budgets LIST    comma-separated sizes, e.g. 4KiB,64KiB,1MiB\n"
    "  --budget-range MIN:MAX[:COUNT]  COUNT (default 8) log-spaced sizes\n"
    "  (default: one state to store-all, 10 log-spaced slot counts)\n"
    "  --planners LIST   comma-separated, default store-all,periodic,sqrt,"
    "revolve,\n"
    "                    and dp up to 200 steps (its time grows like n^3)\n"
    "  --sizes FILE      plan only: the size of each state (one per line);\n"
    "                    dp plans them exactly, the others as the largest\n"
    "  --costs FILE      plan only: the cost of each step; --unit SIZE: dp's\n"
    "                    memory resolution\n"
    "Planning-only rows count a slot as the state size; --run rows as what\n"
    "the allocator really spends on one. An infeasible row is a result:\n"
    "the exit status is still 0.\n";

static const struct cli_spec sweep_specs[] = {
    {"model", true},       {"grid", true},    {"steps", true},
    {"state-bytes", true}, {"budgets", true}, {"budget-range", true},
    {"planners", true},    {"run", false},    {"format", true},
    {"json", false},       {"plot", true},    {"sizes", true},
    {"costs", true},       {"unit", true},    {"help", false},
    {NULL, false}};

/* Split a comma list in place into at most max words. */
static size_t split_list(char *text, char **words, size_t max)
{
    size_t count = 0;
    for (char *save = NULL, *w = strtok_r(text, ",", &save); w != NULL;
         w = strtok_r(NULL, ",", &save))
        if (count < max + 1)
            words[count++] = w;
    return count;
}

static int parse_planners(struct sweep *sw, const char *list)
{
    char buf[256], *words[SWEEP_MAX_PLANNERS + 1];
    if (strlen(list) >= sizeof buf)
        return cli_fail("--planners: list too long");
    strcpy(buf, list);
    const size_t n = split_list(buf, words, SWEEP_MAX_PLANNERS);
    if (n == 0 || n > SWEEP_MAX_PLANNERS)
        return cli_fail("--planners: give 1 to %d planner names",
                        SWEEP_MAX_PLANNERS);
    for (size_t i = 0; i < n; i++)
        if (uturn_planner_from_name(words[i], &sw->planners[i]) != UTURN_OK)
            return cli_fail("--planners: unknown planner '%s' (store-all, "
                            "periodic, sqrt, revolve, dp)",
                            words[i]);
    sw->planner_count = n;
    return CLI_OK;
}

static int parse_budgets(struct sweep *sw, const char *list)
{
    char *copy = strdup(list);
    char *words[SWEEP_MAX_BUDGETS + 1];
    if (copy == NULL)
        return cli_fail("out of memory");
    const size_t n = split_list(copy, words, SWEEP_MAX_BUDGETS);
    int rc         = n == 0 || n > SWEEP_MAX_BUDGETS
                         ? cli_fail("--budgets: give 1 to %d sizes", SWEEP_MAX_BUDGETS)
                         : CLI_OK;
    for (size_t i = 0; rc == CLI_OK && i < n; i++)
        if (!cli_size("--budgets", words[i], &sw->budgets[i]))
            rc = CLI_BAD_INPUT;
    sw->budget_count = n;
    free(copy);
    return rc;
}

/* COUNT sizes from lo to hi, evenly spaced in log scale, deduplicated. */
static void log_spaced(struct sweep *sw, double lo, double hi, size_t count)
{
    sw->budget_count = 0;
    for (size_t i = 0; i < count; i++) {
        const double t = count == 1 ? 0.0 : (double)i / (double)(count - 1);
        const uint64_t b =
            (uint64_t)llround(exp(log(lo) + t * (log(hi) - log(lo))));
        if (sw->budget_count == 0 || sw->budgets[sw->budget_count - 1] != b)
            sw->budgets[sw->budget_count++] = b;
    }
}

static int parse_range(struct sweep *sw, const char *text)
{
    char buf[128], *parts[4];
    if (strlen(text) >= sizeof buf)
        return cli_fail("--budget-range: too long");
    strcpy(buf, text);
    size_t n = 0;
    for (char *save = NULL, *w = strtok_r(buf, ":", &save); w != NULL;
         w = strtok_r(NULL, ":", &save))
        parts[n < 3 ? n : 3] = w, n++;
    uint64_t lo = 0, hi = 0, count = 8;
    if (n < 2 || n > 3)
        return cli_fail("--budget-range: expected MIN:MAX or MIN:MAX:COUNT, "
                        "not '%s'",
                        text);
    if (!cli_size("--budget-range MIN", parts[0], &lo) ||
        !cli_size("--budget-range MAX", parts[1], &hi) ||
        (n == 3 && !cli_number("--budget-range COUNT", parts[2], &count)))
        return CLI_BAD_INPUT;
    if (lo == 0 || hi < lo)
        return cli_fail("--budget-range: need 0 < MIN <= MAX");
    if (count == 0 || count > SWEEP_MAX_BUDGETS)
        return cli_fail("--budget-range: COUNT must be 1..%d",
                        SWEEP_MAX_BUDGETS);
    log_spaced(sw, (double)lo, (double)hi, (size_t)count);
    return CLI_OK;
}

/* The default: one state to store-all, 10 log-spaced slot counts. */
static void default_budgets(struct sweep *sw)
{
    log_spaced(sw, 1.0, (double)sw->steps, 10);
    for (size_t i = 0; i < sw->budget_count; i++)
        sw->budgets[i] *= sw->slot_cost;
}

/* Per-step sizes and costs; a slot of the uniform planners counts as the
 * largest state. */
static int load_sweep_steps(const struct cli_options *o, struct sweep *sw)
{
    int rc = CLI_OK;
    if (o->sizes_path != NULL)
        rc = cli_read_values("--sizes", o->sizes_path, true, sw->steps,
                             &sw->sizes);
    if (rc == CLI_OK && o->costs_path != NULL)
        rc = cli_read_values("--costs", o->costs_path, false, sw->steps,
                             &sw->costs);
    for (uint64_t i = 0; rc == CLI_OK && sw->sizes != NULL && i < sw->steps;
         i++)
        if (sw->sizes[i] > sw->state_bytes)
            sw->state_bytes = sw->sizes[i];
    return rc;
}

/* The problem the options describe; CLI_OK or an exit status. */
static int sweep_setup(const struct cli_options *o, struct sweep *sw)
{
    const bool planning = o->has_state_bytes || o->sizes_path != NULL ||
                          o->costs_path != NULL ||
                          (o->model != NULL && strcmp(o->model, "none") == 0);
    if (o->model != NULL && strcmp(o->model, "burgers") != 0 &&
        strcmp(o->model, "none") != 0)
        return cli_fail("--model: '%s' is not a model (burgers, none)",
                        o->model);
    if (planning &&
        (!o->has_steps || (!o->has_state_bytes && o->sizes_path == NULL)))
        return cli_fail("sweep: planning only needs --steps and "
                        "--state-bytes (or --sizes)");
    if (planning && (o->run || o->has_grid))
        return cli_fail("sweep: --run and --grid need --model burgers");
    if (o->positional != NULL)
        return cli_fail("sweep: unexpected argument '%s'", o->positional);
    sw->model       = !planning;
    sw->run         = o->run;
    sw->grid        = o->has_grid ? o->grid : 256;
    sw->steps       = o->has_steps ? o->steps : 2000;
    sw->state_bytes = planning ? o->state_bytes : sw->grid * sizeof(double);
    if (sw->steps == 0 || (sw->state_bytes == 0 && o->sizes_path == NULL) ||
        sw->grid < 4)
        return cli_fail("sweep: --steps and --state-bytes must be at least "
                        "1, --grid at least 4");
    if (sw->grid > (1u << 24))
        return cli_fail("sweep: --grid is limited to 16777216 points");
    sw->format = o->format;
    sw->plot   = o->plot;
    sw->unit   = o->has_unit ? o->unit : 0;
    return load_sweep_steps(o, sw);
}

/* Planners and budgets; the slot cost must be known for the default. */
static int sweep_lists(const struct cli_options *o, struct sweep *sw)
{
    if (o->budgets != NULL && o->budget_range != NULL)
        return cli_fail("give --budgets or --budget-range, not both");
    int rc = CLI_OK;
    if (o->planners != NULL) {
        rc = parse_planners(sw, o->planners);
    } else {
        const uturn_planner_t all[] = {
            UTURN_PLANNER_STORE_ALL, UTURN_PLANNER_PERIODIC, UTURN_PLANNER_SQRT,
            UTURN_PLANNER_REVOLVE, UTURN_PLANNER_DP};
        memcpy(sw->planners, all, sizeof all);
        sw->planner_count = sw->steps <= SWEEP_DP_DEFAULT_STEPS ? 5 : 4;
    }
    if (rc == CLI_OK && o->budgets != NULL)
        rc = parse_budgets(sw, o->budgets);
    else if (rc == CLI_OK && o->budget_range != NULL)
        rc = parse_range(sw, o->budget_range);
    else if (rc == CLI_OK)
        default_budgets(sw);
    return rc;
}

int cli_cmd_sweep(int argc, char **argv)
{
    struct cli_options o = {.command = "sweep"};
    int rc               = cli_parse(argc, argv, 2, sweep_specs, &o);
    if (rc != CLI_OK || o.help)
        return o.help ? (fputs(sweep_help, stdout), CLI_OK) : rc;
    struct sweep sw = {0};
    rc              = sweep_setup(&o, &sw);
    if (rc != CLI_OK)
        return rc;
    sw.slot_cost = sw.state_bytes;
    if (sw.run) {
        uturn_executor_t *ex = NULL;
        if (uturn_executor_create(NULL, &ex, NULL) != UTURN_OK ||
            uturn_executor_slot_bytes(ex, sw.state_bytes, &sw.slot_cost) !=
                UTURN_OK)
            rc = cli_fail("cannot size a slot of %llu bytes",
                          (unsigned long long)sw.state_bytes);
        uturn_executor_free(ex);
    }
    if (rc == CLI_OK)
        rc = sweep_lists(&o, &sw);
    if (rc == CLI_OK)
        rc = sweep_fill(&sw);
    if (rc == CLI_OK)
        sweep_print(stdout, &sw);
    if (rc == CLI_OK && sw.plot != NULL)
        rc = sweep_plot(&sw, sw.plot);
    free(sw.rows);
    free(sw.sizes);
    free(sw.costs);
    return rc;
}
