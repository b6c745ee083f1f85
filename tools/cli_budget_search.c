/*
 * uturn budget: the least capacity whose plan meets the bound. Every probe
 * is a real uturn_plan_create() and its predicted counts: for store-all,
 * periodic, sqrt and revolve these are the closed forms of docs/model.md
 * section 4 (computed without generating the plan), for dp and hrevolve
 * the planners' own optimisation.
 *
 * When the planner minimises the bounded quantity, the bound holds from
 * some capacity on and never fails again (a plan that fits c units also
 * fits c + 1, so the optimum cannot rise): the search gallops up from the
 * least capacity (lo, lo + 1, lo + 3, lo + 7, ...) and bisects the last
 * step, O(log c) plans, none larger than twice the answer. Otherwise
 * (hrevolve bounded by forward steps: it minimises cost; dp with step
 * costs; a level with costs under a planner that counts steps) the bound
 * may hold at c and fail at c + 1, so every capacity from lo up is planned
 * until one holds, at most BUDGET_SCAN_LIMIT of them.
 */
#include "budget.h"

#include <string.h>

__extension__ typedef unsigned __int128 u128;

enum verdict { HOLDS, FAILS, BROKEN };

struct probe {
    const struct budget_query *q;
    uturn_stats_t best; /* the stats at the last capacity that planned */
    bool planned;
    uint64_t plans;
};

static bool meets(const struct budget_query *q, const uturn_stats_t *s)
{
    if (q->bound == BOUND_COST)
        return s->cost <= q->cost;
    return (u128)s->forward_steps * q->den <= (u128)q->num * s->steps;
}

void budget_problem(const struct budget_query *q, uint64_t bytes,
                    uturn_level_t *levels, uturn_problem_t *p)
{
    *p = q->problem;
    if (!q->has_levels) {
        p->budget_bytes = bytes;
        return;
    }
    memcpy(levels, q->levels.levels, q->levels.count * sizeof *levels);
    levels[0].slots = 0;
    levels[0].bytes = bytes;
    p->levels       = levels;
    p->level_count  = q->levels.count;
}

/* Plan at capacity c. Infeasible, or counts past 64 bits (more than any
 * bound), fail; anything else the library refuses stops the search. */
static enum verdict plan_at(struct probe *pr, uint64_t c, int *rc)
{
    uturn_level_t levels[CLI_MAX_LEVELS];
    uturn_problem_t p;
    budget_problem(pr->q, c * pr->q->unit, levels, &p);
    uturn_plan_t *plan = NULL;
    uturn_error_t error;
    uturn_error_init(&error);
    struct cli_watch watch;
    cli_watch(&p, &watch);
    const uturn_status_t st = uturn_plan_create(&p, NULL, &plan, &error);
    pr->plans++;
    if (st == UTURN_E_INFEASIBLE || st == UTURN_E_OVERFLOW)
        return FAILS;
    if (st != UTURN_OK)
        return *rc = cli_library_error(st, &error), BROKEN;
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    uturn_plan_free(plan);
    pr->best    = s;
    pr->planned = true;
    return meets(pr->q, &s) ? HOLDS : FAILS;
}

/* Least c in [lo, hi] that holds, P monotone: gallop, then bisect. */
static enum verdict gallop(struct probe *pr, uint64_t *out, int *rc)
{
    const struct budget_query *q = pr->q;
    uint64_t fail = q->lo - 1, step = 1, c = q->lo; /* fail: known to fail */
    enum verdict v;
    while ((v = plan_at(pr, c, rc)) == FAILS && c < q->hi) {
        fail = c;
        c    = q->hi - c > step ? c + step : q->hi;
        step = step > UINT64_MAX / 2 ? UINT64_MAX : step * 2;
    }
    if (v != HOLDS)
        return v;
    while (c - fail > 1) { /* c holds, fail fails (or is lo - 1) */
        const uint64_t mid = fail + (c - fail) / 2;
        v                  = plan_at(pr, mid, rc);
        if (v == BROKEN)
            return v;
        *(v == HOLDS ? &c : &fail) = mid;
    }
    *out = c;
    return HOLDS;
}

/* Least c in [lo, hi] that holds, planning each in turn. */
static enum verdict scan(struct probe *pr, uint64_t *out, int *rc)
{
    for (uint64_t c = pr->q->lo; c <= pr->q->hi; c++) {
        if (pr->plans == BUDGET_SCAN_LIMIT) {
            cli_fail("no capacity from %llu to %llu units of %llu bytes "
                     "meets the bound, and this search plans at most %d "
                     "capacities one by one",
                     (unsigned long long)pr->q->lo, (unsigned long long)c - 1,
                     (unsigned long long)pr->q->unit, BUDGET_SCAN_LIMIT);
            *rc = CLI_CANNOT;
            return BROKEN;
        }
        const enum verdict v = plan_at(pr, c, rc);
        if (v != FAILS)
            return *out = c, v;
        if (c == UINT64_MAX)
            break;
    }
    return FAILS;
}

/* Nothing from lo to hi meets the bound: say what the most reaches. */
static int unreachable(const struct probe *pr)
{
    const struct budget_query *q = pr->q;
    const char *name             = uturn_planner_name(q->problem.planner);
    const char *where = q->hi_clipped ? "below 2^64 bytes" : "at any budget";
    char asked[128];
    if (q->bound == BOUND_COST)
        snprintf(asked, sizeof asked, "a cost of at most %llu",
                 (unsigned long long)q->cost);
    else
        snprintf(asked, sizeof asked, "a recompute_factor of at most %s",
                 q->factor_text);
    if (!pr->planned)
        return cli_fail("%s cannot reach %s %s: it plans no capacity", name,
                        asked, where),
               CLI_CANNOT;
    cli_fail("%s cannot reach %s %s: with %llu bytes it has "
             "recompute_factor %g, cost %llu",
             name, asked, where, (unsigned long long)(q->hi * q->unit),
             pr->best.recompute_factor, (unsigned long long)pr->best.cost);
    return CLI_CANNOT;
}

/* What the planner minimises, for the note on a search one by one. */
static const char *minimised(const struct budget_query *q)
{
    switch (q->problem.planner) {
    case UTURN_PLANNER_DP:
        return "the forward cost";
    case UTURN_PLANNER_HREVOLVE:
        return "the cost";
    default:
        return "the forward steps";
    }
}

int budget_search(const struct budget_query *q, uint64_t *capacity)
{
    struct probe pr = {.q = q};
    int rc          = CLI_OK;
    const enum verdict v =
        q->monotone ? gallop(&pr, capacity, &rc) : scan(&pr, capacity, &rc);
    if (v == BROKEN)
        return rc;
    if (v == FAILS)
        return unreachable(&pr);
    if (!q->monotone)
        fprintf(stderr,
                "uturn: note: %s minimises %s, not %s, so its %s may rise "
                "as the budget grows: capacities from %llu up were planned "
                "one by one to the first that meets the bound (%llu "
                "plan%s)\n",
                uturn_planner_name(q->problem.planner), minimised(q),
                q->bound == BOUND_COST ? "the cost" : "the forward steps",
                q->bound == BOUND_COST ? "cost" : "forward steps",
                (unsigned long long)q->lo, (unsigned long long)pr.plans,
                pr.plans == 1 ? "" : "s");
    return CLI_OK;
}
