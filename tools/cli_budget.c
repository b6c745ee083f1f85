/*
 * uturn budget: the least budget for which a planner's plan meets a bound
 * on its recompute factor (--factor) or its cost (--cost), and the reverse
 * question (--budget: what a budget buys). The answer is printed as
 * `uturn stats` prints the plan at that budget, with the same keys.
 */
#include "budget.h"

#include <stdlib.h>
#include <string.h>

static const char budget_help[] =
    "usage: uturn budget PLANNER -n N -B SIZE (-F F | --cost C | -b SIZE)\n"
    "                    [-l LIST] [options]\n"
    "The least budget for which PLANNER's plan has forward_steps / steps at\n"
    "most F (--factor), or a cost of at most C (--cost: forward steps plus\n"
    "every write and read, the total that 'uturn stats' prints as cost);\n"
    "or, with --budget, what that budget buys. The answer is the plan at\n"
    "that budget, printed as 'uturn stats' prints it: budget_bytes is the\n"
    "least budget, and any budget below it misses the bound (with\n"
    "--levels: memory's budget).\n"
    "A budget buys floor(budget / slot_bytes) slots, so the least budget is\n"
    "a whole number of slots. store-all, periodic, sqrt and revolve are\n"
    "answered from their closed forms, dp and hrevolve by planning: when\n"
    "the planner minimises what is bounded (forward steps for periodic and\n"
    "revolve, the cost for dp and hrevolve; the two agree without --costs\n"
    "and level costs), the bound cannot fail again once it holds, and the\n"
    "search doubles its step from one slot up and then bisects (about\n"
    "2 log2 of the answer plans). Otherwise (hrevolve with --factor, say)\n"
    "every capacity from one slot up is planned until one holds, at most\n"
    "10000 of them, and a note on stderr says so.\n"
    "  -n, --steps N           the steps of the chain, n (required)\n"
    "  -B, --state-bytes SIZE  the size of one state (or dp's --sizes)\n"
    "      --slot-bytes SIZE   what a slot counts as (default: the state)\n"
    "  -F, --factor F          the most recompute_factor allowed (>= 1;\n"
    "                          a decimal such as 2.5, compared exactly)\n"
    "      --cost C            the most cost allowed (a whole number)\n"
    "  -b, --budget SIZE       the reverse question: the plan this buys\n"
    "  -l, --levels LIST       hrevolve: storage past memory, fixed, while\n"
    "                          the budget is memory's:\n"
    "                          mem[:w=W:r=R],disk:SLOTS|SIZE:w=W:r=R,...\n"
    "  -k, --stride K          periodic: a fixed stride (then only its\n"
    "                          slots depend on the budget)\n"
    "      --sizes FILE, --costs FILE, --unit SIZE   dp, as in 'uturn plan':\n"
    "                          with --sizes the budget counts in --unit\n"
    "                          (default: the sizes' gcd)\n"
    "  -t, --threads N, --table-bytes SIZE, --dp-mode MODE   dp, as in\n"
    "                          'uturn plan' (every probe plans with them)\n"
    "  -f, --format text|json, -j, --json, -h, --help\n"
    "A short option stands alone, its value in the next word (-n 100).\n"
    "Exit 2 when no budget meets the bound (the message says what the\n"
    "largest budget a plan can use reaches).\n" CLI_SIZE_HELP;

static const struct cli_spec budget_specs[] = {
    {"steps", true, 'n'},       {"state-bytes", true, 'B'},
    {"slot-bytes", true, '\0'}, {"factor", true, 'F'},
    {"cost", true, '\0'},       {"budget", true, 'b'},
    {"levels", true, 'l'},      {"stride", true, 'k'},
    {"sizes", true, '\0'},      {"costs", true, '\0'},
    {"unit", true, '\0'},       {"threads", true, 't'},
    {"table-bytes", true, '\0'}, {"dp-mode", true, '\0'},
    {"format", true, 'f'},
    {"json", false, 'j'},       {"help", false, 'h'},
    {NULL, false, '\0'}};

/* The options a question needs, and their values; CLI_OK or exit 1. */
static int check_options(const struct cli_options *o, uturn_planner_t *pl)
{
    if (o->positional == NULL)
        return cli_fail("budget: name a planner (%s)", CLI_PLANNERS);
    if (uturn_planner_from_name(o->positional, pl) != UTURN_OK)
        return cli_fail("unknown planner '%s' (%s)", o->positional,
                        CLI_PLANNERS);
    if (*pl == UTURN_PLANNER_ONLINE)
        return cli_fail("budget: online plans without being told the "
                        "steps, so its least budget is not searched here; "
                        "'uturn stats online --steps N --budget SIZE' says "
                        "what a budget buys");
    if (!o->has_steps)
        return cli_fail("budget: --steps is required");
    if (o->steps == 0)
        return cli_fail("--steps must be at least 1");
    if ((int)o->has_factor + (int)o->has_cost + (int)o->has_budget != 1)
        return cli_fail("budget: give one of --factor F, --cost C (the "
                        "bound) or --budget SIZE (what it buys)");
    if (o->has_factor && o->factor_num < o->factor_den)
        return cli_fail("--factor must be at least 1: every plan runs each "
                        "step once (recompute_factor = forward_steps / "
                        "steps)");
    if (!o->has_state_bytes && !o->has_slot_bytes && o->sizes_path == NULL)
        return cli_fail("budget: give --state-bytes SIZE (the size of one "
                        "state)%s",
                        *pl == UTURN_PLANNER_DP ? " or --sizes FILE" : "");
    if ((o->has_state_bytes && o->state_bytes == 0) ||
        (o->has_slot_bytes && o->slot_bytes == 0) ||
        (o->has_budget && o->budget == 0) || (o->has_unit && o->unit == 0))
        return cli_fail("--state-bytes, --slot-bytes, --budget and --unit "
                        "must be at least 1 byte");
    if ((o->sizes_path != NULL || o->costs_path != NULL || o->has_unit) &&
        *pl != UTURN_PLANNER_DP)
        return cli_fail("--sizes, --costs and --unit are for the dp planner "
                        "(the others plan uniform states)");
    if (o->has_stride && o->stride == 0)
        return cli_fail("--stride must be at least 1");
    return CLI_OK;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        const uint64_t t = a % b;
        a                = b;
        b                = t;
    }
    return a;
}

static uint64_t units_of(const struct budget_query *q, uint64_t i)
{
    const uint64_t *sizes = q->problem.step_bytes;
    const uint64_t bytes  = sizes != NULL ? sizes[i] : q->problem.slot_bytes;
    return bytes / q->unit + (bytes % q->unit != 0);
}

/* The capacities to search: from x_0's units to every state's (more can
 * never be used), cut where the budget would pass 2^64 bytes. */
static void capacity_range(struct budget_query *q)
{
    const uint64_t *sizes = q->problem.step_bytes;
    const uint64_t n      = q->problem.steps;
    if (q->unit == 0) {
        for (uint64_t i = 0; sizes != NULL && i < n; i++)
            q->unit = gcd(q->unit, sizes[i]);
        q->unit = sizes != NULL ? q->unit : q->problem.slot_bytes;
    }
    q->lo = units_of(q, 0);
    if (sizes == NULL && __builtin_mul_overflow(q->lo, n, &q->hi))
        q->hi = UINT64_MAX;
    for (uint64_t i = 0; sizes != NULL && i < n; i++) {
        const uint64_t u = units_of(q, i);
        q->hi            = q->hi + u < q->hi ? UINT64_MAX : q->hi + u;
    }
    q->hi_clipped = q->hi > UINT64_MAX / q->unit;
    if (q->hi_clipped)
        q->hi = UINT64_MAX / q->unit;
}

/* Whether the planner minimises what the bound counts (docs/model.md
 * section 4), so that the bound, once met, holds at every larger budget. */
static bool minimises_bound(const struct budget_query *q)
{
    const uturn_planner_t pl = q->problem.planner;
    bool level_costs         = false;
    for (size_t k = 0; q->has_levels && k < q->levels.count; k++)
        level_costs = level_costs || q->levels.levels[k].write_cost != 0 ||
                      q->levels.levels[k].read_cost != 0;
    if (pl == UTURN_PLANNER_STORE_ALL || pl == UTURN_PLANNER_SQRT ||
        q->problem.stride != 0)
        return true; /* one plan; only whether it fits changes */
    if (!level_costs && q->problem.step_costs == NULL)
        return true; /* cost and forward steps are the same count */
    if (q->bound == BOUND_COST)
        return pl == UTURN_PLANNER_DP || pl == UTURN_PLANNER_HREVOLVE;
    return pl == UTURN_PLANNER_REVOLVE || pl == UTURN_PLANNER_PERIODIC;
}

/* The question the options ask, with sizes and costs read; CLI_OK or an
 * exit status. The caller frees problem.step_bytes and step_costs. */
static int build_query(const struct cli_options *o, struct budget_query *q)
{
    memset(q, 0, sizeof *q);
    uturn_problem_init(&q->problem);
    uturn_problem_t *p = &q->problem;
    int rc             = check_options(o, &p->planner);
    if (rc == CLI_OK)
        rc = cli_dp_apply(o, p->planner == UTURN_PLANNER_DP, p);
    if (rc != CLI_OK)
        return rc;
    p->steps      = o->steps;
    p->slot_bytes = o->has_slot_bytes ? o->slot_bytes : o->state_bytes;
    p->stride     = o->has_stride ? o->stride : 0;
    if (o->sizes_path != NULL)
        rc = cli_read_values("--sizes", o->sizes_path, true, p->steps,
                             &q->sizes);
    if (rc == CLI_OK && o->costs_path != NULL)
        rc = cli_read_values("--costs", o->costs_path, false, p->steps,
                             &q->costs);
    p->step_bytes = q->sizes;
    p->step_costs = q->costs;
    if (q->sizes != NULL)
        p->slot_bytes = 0;
    if (rc == CLI_OK && o->levels != NULL)
        rc = cli_parse_levels(o->levels, true, &q->levels);
    q->has_levels  = o->levels != NULL;
    q->bound       = o->has_cost ? BOUND_COST : BOUND_FACTOR;
    q->num         = o->factor_num;
    q->den         = o->factor_den;
    q->factor_text = o->factor_text;
    q->cost        = o->cost;
    q->unit        = o->has_unit ? o->unit : 0;
    if (rc != CLI_OK)
        return rc;
    capacity_range(q);
    q->monotone = minimises_bound(q);
    return CLI_OK;
}

/* Plan at a budget of bytes and print it as uturn stats does. */
static int print_at(const struct budget_query *q, const uturn_problem_t *base,
                    uint64_t bytes, enum cli_format format)
{
    struct budget_query at = *q;
    at.problem             = *base;
    uturn_level_t levels[CLI_MAX_LEVELS];
    uturn_problem_t p;
    budget_problem(&at, bytes, levels, &p);
    uturn_plan_t *plan = NULL;
    uturn_error_t error;
    uturn_error_init(&error);
    struct cli_watch watch;
    cli_watch(&p, &watch);
    const uturn_status_t st = uturn_plan_create(&p, NULL, &plan, &error);
    if (st != UTURN_OK)
        return cli_library_error(st, &error);
    uturn_stats_t s;
    uturn_problem_t resolved;
    uturn_stats_init(&s);
    uturn_problem_init(&resolved);
    uturn_plan_stats(plan, &s);
    uturn_plan_problem(plan, &resolved);
    if (q->has_levels)
        s.budget_bytes = bytes; /* memory's: the answer */
    uturn_level_stats_t lv[CLI_MAX_LEVELS];
    cli_plan_levels(plan, lv);
    cli_print_stats(stdout, uturn_planner_name(p.planner), &s, resolved.stride,
                    format, lv);
    uturn_plan_free(plan);
    return CLI_OK;
}

int cli_cmd_budget(int argc, char **argv)
{
    struct cli_options o = {.command = "budget"};
    int rc               = cli_parse(argc, argv, 2, budget_specs, &o);
    if (rc != CLI_OK || o.help)
        return o.help ? (fputs(budget_help, stdout), CLI_OK) : rc;
    struct budget_query q;
    rc = build_query(&o, &q);
    if (rc == CLI_OK && o.has_budget) {
        rc = print_at(&q, &q.problem, o.budget, o.format);
    } else if (rc == CLI_OK) {
        /* dp plans every probe at one fixed unit: a unit it chose for
         * each budget itself could make a larger budget plan worse. */
        uturn_problem_t fixed = q.problem;
        fixed.unit_bytes = q.problem.planner == UTURN_PLANNER_DP ? q.unit : 0;
        struct budget_query search = q;
        search.problem             = fixed;
        uint64_t capacity          = 0;
        rc                         = budget_search(&search, &capacity);
        if (rc == CLI_OK)
            rc = print_at(&q, &fixed, capacity * q.unit, o.format);
    }
    free(q.sizes);
    free(q.costs);
    return rc;
}
