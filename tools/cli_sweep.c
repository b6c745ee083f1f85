/* uturn sweep: options, the budget list, and the command itself. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char sweep_help[] =
    "usage: uturn sweep [-m burgers|none|./libMODEL.so] [-n N] [-B SIZE]\n"
    "                   [-b LIST | --budget-range MIN:MAX[:COUNT]] [-p LIST]\n"
    "                   [-r] [-f text|csv|json] [--plot FILE.svg] [-l LIST]\n"
    "For each budget and planner: feasible or not, slots, forward_steps,\n"
    "recompute factor and planned peak bytes. With --run the model is\n"
    "executed too: wall time, the allocator-measured peak and whether the\n"
    "gradient equals the store-all gradient bit for bit.\n"
    "  -m, --model burgers     the default: 1D viscous Burgers, --grid points\n"
    "                          (default 256), --steps time steps (default\n"
    "                          2000)\n"
    "      --grid N            burgers: its grid points\n"
    "  -m, --model none        plan only, for --steps N states of\n"
    "                          --state-bytes S\n"
    "  -m, --model ./libM.so   a model library (a path with a '/'): loaded\n"
    "                          with dlopen, made by its\n"
    "                          uturn_model_plugin_create() (see\n"
    "                          <uturn_model_plugin.h>) for --steps steps\n"
    "      --model-args TEXT   passed to that constructor as it is\n"
    "  -n, --steps N           the steps of the chain\n"
    "  -B, --state-bytes SIZE  plan only: the size of one state\n"
    "  -b, --budgets LIST      comma-separated sizes, e.g. 4KiB,64KiB,1MiB\n"
    "      --budget-range MIN:MAX[:COUNT]  COUNT (default 8) log-spaced sizes\n"
    "                          (default: one state to store-all, 10\n"
    "                          log-spaced slot counts)\n"
    "  -p, --planners LIST     comma-separated, default store-all,periodic,\n"
    "                          sqrt,revolve, and dp up to 200 steps (its time\n"
    "                          grows like n^3)\n"
    "  -r, --run               execute the model for every feasible row\n"
    "      --sweeps K          K reverse sweeps over one forward (revolve,\n"
    "                          online: persistent checkpoints); 'reruns' is\n"
    "                          the forward steps of K separate runs\n"
    "                          (hrevolve's with --levels); with --run every\n"
    "                          sweep's gradient must equal store-all's\n"
    "      --sizes FILE        plan only: the size of each state (one per\n"
    "                          line); dp plans them exactly, the others as\n"
    "                          the largest\n"
    "      --costs FILE        plan only: the cost of each step; --unit SIZE:\n"
    "                          dp's memory resolution\n"
    "  -t, --threads N, --table-bytes SIZE, --dp-mode MODE  dp, as in\n"
    "                          'uturn plan'; dp's JSON rows add exact,\n"
    "                          unit_bytes, planning_seconds (and\n"
    "                          lower_bound_cost when approximate), and text\n"
    "                          says below the table which are approximate\n"
    "  -l, --levels LIST       storage past memory, fixed while the budgets\n"
    "                          sweep memory: mem[:w=W:r=R],disk:SLOTS|SIZE:\n"
    "                          w=W:r=R,... (default planners hrevolve, which\n"
    "                          plans every level, and revolve, which plans\n"
    "                          memory alone; every level with --sweeps);\n"
    "                          rows gain the plan's cost\n"
    "                          (forward plus every write and read)\n"
    "      --level-dir DIR     --run: where file levels put their files\n"
    "                          ($TMPDIR)\n"
    "  -f, --format text|csv|json, -j, --json, -h, --help\n"
    "A short option stands alone, its value in the next word (-n 100).\n"
    "Planning-only rows count a slot as the state size; --run rows as what\n"
    "the allocator really spends on one. An infeasible row is a result:\n"
    "the exit status is still 0.\n" CLI_SIZE_HELP;

static const struct cli_spec sweep_specs[] = {
    {"model", true, 'm'},      {"grid", true, '\0'},
    {"steps", true, 'n'},      {"state-bytes", true, 'B'},
    {"budgets", true, 'b'},    {"budget-range", true, '\0'},
    {"planners", true, 'p'},   {"run", false, 'r'},
    {"format", true, 'f'},     {"json", false, 'j'},
    {"plot", true, '\0'},      {"sizes", true, '\0'},
    {"costs", true, '\0'},     {"unit", true, '\0'},
    {"help", false, 'h'},      {"levels", true, 'l'},
    {"level-dir", true, '\0'}, {"model-args", true, '\0'},
    {"threads", true, 't'},    {"table-bytes", true, '\0'},
    {"dp-mode", true, '\0'},   {"sweeps", true, '\0'},
    {NULL, false, '\0'}};

/* Split a comma list in place into at most max words; an empty item
 * ("1KiB,,2KiB", a leading or trailing comma) is refused, not skipped. */
static int split_list(const char *opt, char *text, char **words, size_t max,
                      size_t *count)
{
    *count = 0;
    for (char *w = text;; w++) {
        char *comma = strchr(w, ',');
        if (comma != NULL)
            *comma = '\0';
        if (*w == '\0')
            return cli_fail("%s: item %zu is empty (give a comma-separated "
                            "list without empty items)",
                            opt, *count + 1);
        if (*count == max)
            return cli_fail("%s: give at most %zu items", opt, max);
        words[(*count)++] = w;
        if (comma == NULL)
            return CLI_OK;
        w = comma;
    }
}

static int parse_planners(struct sweep *sw, const char *list)
{
    char buf[256], *words[SWEEP_MAX_PLANNERS];
    if (strlen(list) >= sizeof buf)
        return cli_fail("--planners: list too long");
    strcpy(buf, list);
    size_t n = 0;
    if (split_list("--planners", buf, words, SWEEP_MAX_PLANNERS, &n) != CLI_OK)
        return CLI_BAD_INPUT;
    for (size_t i = 0; i < n; i++) {
        if (uturn_planner_from_name(words[i], &sw->planners[i]) != UTURN_OK)
            return cli_fail("--planners: unknown planner '%s' (%s)", words[i],
                            CLI_PLANNERS);
        for (size_t k = 0; k < i; k++)
            if (sw->planners[k] == sw->planners[i])
                return cli_fail("--planners: '%s' given twice", words[i]);
    }
    sw->planner_count = n;
    return CLI_OK;
}

static int parse_budgets(struct sweep *sw, const char *list)
{
    char *copy = strdup(list);
    char *words[SWEEP_MAX_BUDGETS];
    if (copy == NULL)
        return cli_fail("out of memory");
    size_t n = 0;
    int rc   = split_list("--budgets", copy, words, SWEEP_MAX_BUDGETS, &n);
    for (size_t i = 0; rc == CLI_OK && i < n; i++) {
        if (!cli_size("--budgets", words[i], &sw->budgets[i]))
            rc = CLI_BAD_INPUT;
        else if (sw->budgets[i] == 0)
            rc = cli_fail("--budgets: a budget must be at least 1 byte");
    }
    sw->budget_count = n;
    free(copy);
    return rc;
}

/* COUNT sizes from lo to hi, evenly spaced in log scale and deduplicated.
 * The ends are exactly lo and hi (a double cannot hold every 64-bit
 * size, so they are never rounded through one) and every size in between
 * is clamped to them. */
static void log_spaced(struct sweep *sw, uint64_t lo, uint64_t hi, size_t count)
{
    sw->budget_count     = 0;
    const long double ll = logl((long double)lo);
    const long double lh = logl((long double)hi);
    for (size_t i = 0; i < count; i++) {
        uint64_t b = i == 0 ? lo : hi;
        if (i != 0 && i + 1 != count) {
            const long double t = (long double)i / (long double)(count - 1);
            const long double v = expl(ll + t * (lh - ll));
            b                   = v <= (long double)lo   ? lo
                                  : v >= (long double)hi ? hi
                                                         : (uint64_t)llroundl(v);
        }
        if (sw->budget_count == 0 || sw->budgets[sw->budget_count - 1] != b)
            sw->budgets[sw->budget_count++] = b;
    }
}

static int parse_range(struct sweep *sw, const char *text)
{
    char buf[128], *parts[3];
    if (strlen(text) >= sizeof buf)
        return cli_fail("--budget-range: too long");
    strcpy(buf, text);
    size_t n = 0;
    for (char *w = buf; w != NULL && n <= 3; n++) {
        char *sep = strchr(w, ':');
        if (sep != NULL)
            *sep = '\0';
        if (n < 3)
            parts[n] = w;
        w = sep != NULL ? sep + 1 : NULL;
    }
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
    log_spaced(sw, lo, hi, (size_t)count);
    return CLI_OK;
}

/* The default: one state to store-all, 10 log-spaced slot counts, each
 * the least budget that holds that many slots (k times the slot cost, or
 * with --run what the executor's storage charges for k slots), which must
 * not pass 2^64. */
static int default_budgets(struct sweep *sw)
{
    log_spaced(sw, 1, sw->steps, 10);
    /* With file levels a run's memory also holds their I/O buffers. */
    const uint64_t buffers =
        sw->has_levels && sw->executor != NULL ? SWEEP_IO_BUFFERS : 0;
    size_t kept = 0; /* page rounding may make neighbours equal */
    for (size_t i = 0; i < sw->budget_count; i++) {
        const uint64_t k = sw->budgets[i] + buffers;
        uint64_t b       = 0;
        const bool wraps =
            sw->executor != NULL
                ? uturn_executor_budget(sw->executor, sw->state_bytes, k, &b) !=
                      UTURN_OK
                : __builtin_mul_overflow(k, sw->slot_cost, &b);
        if (wraps)
            return cli_fail("sweep: the default budgets (up to %llu slots of "
                            "%llu bytes) pass 2^64 bytes; give --budgets or "
                            "--budget-range",
                            (unsigned long long)sw->steps,
                            (unsigned long long)sw->slot_cost);
        if (kept == 0 || sw->budgets[kept - 1] != b)
            sw->budgets[kept++] = b;
    }
    sw->budget_count = kept;
    return CLI_OK;
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

/* --model and the options that go with it; CLI_OK or exit 1. */
static int check_model(const struct cli_options *o, bool planning)
{
    const bool library = o->model != NULL && sweep_model_is_library(o->model);
    if (o->model != NULL && !library && strcmp(o->model, "burgers") != 0 &&
        strcmp(o->model, "none") != 0)
        return cli_fail("--model: '%s' is not a model (burgers, none, or "
                        "the path of a model library with a '/', such as "
                        "./libmymodel.so)",
                        o->model);
    if (o->model_args != NULL && !library)
        return cli_fail("sweep: --model-args is for a model library "
                        "(--model ./libNAME.so)");
    if (library && (planning || o->has_grid))
        return cli_fail("sweep: a model library has its own state and "
                        "settings: give it --model-args, not --state-bytes, "
                        "--sizes, --costs or --grid");
    if (planning &&
        (!o->has_steps || (!o->has_state_bytes && o->sizes_path == NULL)))
        return cli_fail("sweep: planning only needs --steps and "
                        "--state-bytes (or --sizes)");
    if (planning && (o->run || o->has_grid))
        return cli_fail("sweep: --run and --grid need a model (--model "
                        "burgers or a model library)");
    if (o->positional != NULL)
        return cli_fail("sweep: unexpected argument '%s'", o->positional);
    return CLI_OK;
}

/* The problem the options describe; CLI_OK or an exit status. */
static int sweep_setup(const struct cli_options *o, struct sweep *sw)
{
    const bool planning = o->has_state_bytes || o->sizes_path != NULL ||
                          o->costs_path != NULL ||
                          (o->model != NULL && strcmp(o->model, "none") == 0);
    const int checked = check_model(o, planning);
    if (checked != CLI_OK)
        return checked;
    sw->model       = !planning;
    sw->run         = o->run;
    sw->grid        = o->has_grid ? o->grid : 256;
    sw->steps       = o->has_steps ? o->steps : 2000;
    sw->state_bytes = planning ? o->state_bytes : sw->grid * sizeof(double);
    if (sw->steps == 0)
        return cli_fail("--steps must be at least 1");
    if (sw->state_bytes == 0 && o->sizes_path == NULL)
        return cli_fail("--state-bytes must be at least 1 byte");
    if (sw->grid < 4)
        return cli_fail("--grid must be at least 4 points");
    if (sw->grid > (1u << 24))
        return cli_fail("sweep: --grid is limited to 16777216 points");
    if (o->has_sweeps && o->sweeps == 0)
        return cli_fail("--sweeps must be at least 1");
    if (o->has_sweeps && o->sweeps == UTURN_SWEEPS_UNBOUNDED)
        return cli_fail("sweep: --sweeps takes a number of sweeps, not "
                        "'unbounded' (each row plans and runs all of them)");
    sw->sweeps   = o->has_sweeps ? o->sweeps : 1;
    sw->format   = o->format;
    sw->plot     = o->plot;
    sw->unit     = o->has_unit ? o->unit : 0;
    const int rc = load_sweep_steps(o, sw);
    return rc == CLI_OK ? sweep_parse_levels(o, sw) : rc;
}

/* The model, when it runs or only it knows its state size: the built-in
 * Burgers model is made only to run (its size is grid doubles). */
static int open_model(const struct cli_options *o, struct sweep *sw,
                      struct sweep_model *m)
{
    const bool library =
        sw->model && o->model != NULL && sweep_model_is_library(o->model);
    if (!sw->run && !library)
        return CLI_OK;
    const int rc = sweep_model_open(library ? o->model : "burgers",
                                    o->model_args, sw->grid, sw->steps, m);
    if (rc != CLI_OK)
        return rc;
    sw->sm          = m;
    sw->model_path  = m->path;
    sw->state_bytes = m->model.state_bytes;
    return CLI_OK;
}

/* With --run a slot counts as what the executor spends on one. */
static int size_slots(struct sweep *sw, uturn_executor_t **ex)
{
    sw->slot_cost = sw->state_bytes;
    if (!sw->run)
        return CLI_OK;
    uturn_slot_cost_t cost;
    uturn_slot_cost_init(&cost);
    if (uturn_executor_create(NULL, ex, NULL) != UTURN_OK ||
        uturn_executor_slot_cost(*ex, sw->state_bytes, &cost) != UTURN_OK)
        return cli_fail("cannot size a slot of %llu bytes",
                        (unsigned long long)sw->state_bytes);
    sw->slot_cost = cost.stride;
    sw->granule   = cost.granule;
    sw->executor  = *ex;
    return CLI_OK;
}

/* Planners and budgets; the slot cost must be known for the default. */
static int sweep_lists(const struct cli_options *o, struct sweep *sw)
{
    if (o->budgets != NULL && o->budget_range != NULL)
        return cli_fail("give --budgets or --budget-range, not both");
    int rc = CLI_OK;
    if (o->planners != NULL) {
        rc = parse_planners(sw, o->planners);
    } else if (sw->has_levels) {
        sw->planners[0]   = UTURN_PLANNER_HREVOLVE;
        sw->planners[1]   = UTURN_PLANNER_REVOLVE;
        sw->planner_count = 2;
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
        rc = default_budgets(sw);
    bool has_dp = false;
    for (size_t i = 0; i < sw->planner_count; i++)
        has_dp = has_dp || sw->planners[i] == UTURN_PLANNER_DP;
    if (rc == CLI_OK) /* dp's rows take threads, table_bytes and dp_mode */
        rc = cli_dp_apply(o, has_dp, &sw->dp);
    return rc;
}

/* Plan (and run) every row, then print them and the plot. */
static int sweep_rows(struct sweep *sw)
{
    struct cli_outfile plot = {0};
    int rc                  = CLI_OK;
    if (sw->plot != NULL)
        rc = cli_outfile_open(sw->plot, &plot); /* before any long work */
    if (rc == CLI_OK)
        rc = sweep_fill(sw);
    if (rc == CLI_OK)
        sweep_print(stdout, sw);
    if (rc == CLI_OK && sw->plot != NULL) {
        sweep_plot(sw, plot.stream);
        rc = cli_outfile_commit(&plot);
    }
    cli_outfile_abort(&plot);
    return rc;
}

int cli_cmd_sweep(int argc, char **argv)
{
    struct cli_options o = {.command = "sweep"};
    int rc               = cli_parse(argc, argv, 2, sweep_specs, &o);
    if (rc != CLI_OK || o.help)
        return o.help ? (fputs(sweep_help, stdout), CLI_OK) : rc;
    struct sweep sw = {0};
    uturn_problem_init(&sw.dp);
    struct sweep_model model;
    memset(&model, 0, sizeof model);
    rc = sweep_setup(&o, &sw);
    if (rc == CLI_OK)
        rc = open_model(&o, &sw, &model);
    uturn_executor_t *ex = NULL;
    if (rc == CLI_OK)
        rc = size_slots(&sw, &ex);
    if (rc == CLI_OK)
        rc = sweep_lists(&o, &sw);
    sw.executor = NULL;
    uturn_executor_free(ex);
    if (rc == CLI_OK)
        rc = sweep_rows(&sw);
    sweep_model_close(sw.sm);
    free(sw.rows);
    free(sw.sizes);
    free(sw.costs);
    return rc;
}
