/*
 * uturn plan|stats|sweep online --steps N: the planner is not told N. A
 * cursor walks the online plan and says "the live state is the last" right
 * after it hands out advance N-1 N; with --sizes each state's size is
 * given once the sweep reaches it; with --levels the plan has the online
 * plan's levels. Every action goes through a validator as it comes (a
 * plan for those N steps, checked like any plan file) and, for `plan`,
 * straight to the output: nothing grows with N but what the validator and
 * the cursor keep (the slots in use), so counting 10^7 steps takes
 * seconds and megabytes, where building the plan as text once took
 * minutes and gigabytes.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

struct walking {
    uturn_cursor_t *cursor;
    uturn_validator_t *validator;
    const uint64_t *sizes;
    uint64_t n;
    uint64_t reached; /* the last state the first sweep reached */
    bool ended;
    const struct cli_online_out *out;
    uturn_error_t error;
};

/* The plan's levels, resolved (slots and costs), for the validator. */
static uint64_t plan_levels(const uturn_plan_t *plan, uturn_level_t *levels)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    for (uint64_t k = 0; k < s.levels && k < CLI_MAX_LEVELS; k++) {
        uturn_level_stats_t l;
        uturn_level_stats_init(&l);
        uturn_plan_level_stats(plan, k, &l);
        uturn_level_init(&levels[k]);
        levels[k].name       = l.name;
        levels[k].slots      = l.slots;
        levels[k].write_cost = l.write_cost;
        levels[k].read_cost  = l.read_cost;
    }
    return s.levels;
}

/* A validator for the realised plan: N steps, the online plan's capacity
 * (its levels, or its slots; with sizes, their bytes are counted and the
 * peak is held to the plan's budget once the walk is done). */
static uturn_status_t open_validator(struct walking *w,
                                     const uturn_plan_t *plan,
                                     uturn_level_t *levels)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = w->n;
    p.sweeps           = s.sweeps; /* several: each with its own turn */
    const uint64_t lvs = plan_levels(plan, levels);
    p.step_bytes       = w->sizes;
    if (lvs > 1) {
        p.levels      = levels;
        p.level_count = lvs;
    } else {
        p.slots = s.slots;
    }
    return uturn_validator_create(&p, NULL, &w->validator, &w->error);
}

/* The header of the plan text: its steps, slots, sweeps, levels and
 * sizes. */
static void header(FILE *f, const uturn_plan_t *plan, uint64_t n,
                   const uint64_t *sizes, const uturn_level_t *levels)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    fprintf(f,
            "uturn-plan %d\nplanner online\nfingerprint %016llx\nsteps "
            "%llu\nslots %llu\n",
            s.levels > 1 ? 2 : 1, (unsigned long long)s.fingerprint,
            (unsigned long long)n, (unsigned long long)s.slots);
    char word[24];
    if (s.sweeps > 1) /* several sweeps: uturn check needs to know */
        fprintf(f, "sweeps %s\n", cli_sweeps_word(word, s.sweeps, false));
    for (uint64_t k = 0; s.levels > 1 && k < s.levels; k++)
        fprintf(f, "level %s %llu %llu %llu\n", levels[k].name,
                (unsigned long long)levels[k].slots,
                (unsigned long long)levels[k].write_cost,
                (unsigned long long)levels[k].read_cost);
    if (sizes == NULL)
        return;
    fputs("step_bytes", f);
    for (uint64_t i = 0; i < n; i++)
        fprintf(f, " %llu", (unsigned long long)sizes[i]);
    fprintf(f, "\nbudget_bytes %llu\n", (unsigned long long)s.budget_bytes);
}

/* After a batch: the end at step n, or the next state's size. */
static uturn_status_t after_batch(struct walking *w, const uturn_action_t *last)
{
    if (w->ended || last->op != UTURN_OP_ADVANCE)
        return UTURN_OK;
    const uint64_t k = last->step_end;
    w->reached       = k;
    if (k == w->n) {
        w->ended = true;
        return uturn_cursor_end(w->cursor);
    }
    return w->sizes != NULL && k < w->n
               ? uturn_cursor_set_size(w->cursor, k, w->sizes[k])
               : UTURN_OK;
}

/* One action: checked, then written where asked. */
static uturn_status_t take(struct walking *w, const uturn_action_t *a,
                           bool first)
{
    const uturn_status_t st = uturn_validator_push(w->validator, a, &w->error);
    if (st != UTURN_OK || w->out == NULL || w->out->stream == NULL)
        return st;
    if (w->out->json) {
        fputs(first ? "\n  " : ",\n  ", w->out->stream);
        cli_print_action_json(w->out->stream, a);
        return UTURN_OK;
    }
    char line[128];
    size_t len = 0;
    uturn_action_format(a, line, sizeof line, &len);
    fprintf(w->out->stream, "%s\n", line);
    return UTURN_OK;
}

/* Every action of the realised plan, checked and written. */
static uturn_status_t walk(struct walking *w)
{
    uturn_action_t batch[256];
    size_t count      = 0;
    bool first        = true;
    uturn_status_t st = w->sizes != NULL
                            ? uturn_cursor_set_size(w->cursor, 0, w->sizes[0])
                            : UTURN_OK;
    while (st == UTURN_OK) {
        /* A read of nothing: the end, or a stop that walked() tells from
         * the step reached (the read's status says less). */
        if (uturn_cursor_read(w->cursor, batch, 256, &count) != UTURN_OK ||
            count == 0)
            break;
        for (size_t i = 0; i < count && st == UTURN_OK; i++, first = false)
            st = take(w, &batch[i], first);
        if (st == UTURN_OK)
            st = after_batch(w, &batch[count - 1]);
    }
    return st;
}

/* x_0 past a byte budget. */
static int x0_past(uint64_t x0, uint64_t budget)
{
    return cli_fail("x_0 (%llu bytes) does not fit the online plan's budget "
                    "of %llu bytes: it needs a budget of at least %llu bytes",
                    (unsigned long long)x0, (unsigned long long)budget,
                    (unsigned long long)x0),
           CLI_CANNOT;
}

/* The walk's outcome, said for a person. */
static int walked(struct walking *w, uturn_status_t st)
{
    if (st == UTURN_E_INVALID_PLAN)
        return cli_library_error(st, &w->error);
    if (st != UTURN_OK)
        return cli_fail("the online plan stopped before step %llu: %s",
                        (unsigned long long)w->n, uturn_strerror(st)),
               CLI_CANNOT;
    if (!w->ended)
        return cli_fail("the online plan stopped its first sweep at x_%llu, "
                        "before step %llu (with --levels it reaches the "
                        "last level's slots times its period: give "
                        "--max-steps)",
                        (unsigned long long)w->reached,
                        (unsigned long long)w->n),
               CLI_CANNOT;
    return CLI_OK;
}

/* The realised plan held more bytes than its budget: a broken rule. */
static uturn_status_t over_budget(uturn_error_t *e, uint64_t held,
                                  uint64_t budget)
{
    e->status = UTURN_E_INVALID_PLAN;
    snprintf(e->message, sizeof e->message,
             "the online plan held %llu bytes, above its budget of %llu "
             "bytes",
             (unsigned long long)held, (unsigned long long)budget);
    return UTURN_E_INVALID_PLAN;
}

/* The bytes of @p slots uniform slots of @p bytes each (UINT64_MAX past
 * 2^64). */
static void peak_of_slots(uint64_t *out, uint64_t slots, uint64_t bytes)
{
    if (__builtin_mul_overflow(slots, bytes, out))
        *out = UINT64_MAX;
}

/* The counts the validator saw, with what is the online plan's own. */
static uturn_status_t finish(struct walking *w, const uturn_plan_t *plan,
                             struct cli_online_counts *counts)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    uturn_stats_init(&counts->stats);
    const uturn_status_t st =
        uturn_validator_finish(w->validator, &counts->stats, &w->error);
    if (st == UTURN_OK && w->sizes != NULL &&
        counts->stats.peak_bytes > s.budget_bytes)
        return over_budget(&w->error, counts->stats.peak_bytes, s.budget_bytes);
    if (w->sizes == NULL) /* uniform slots: each counts as slot_bytes */
        peak_of_slots(&counts->stats.peak_bytes, counts->stats.peak_slots,
                      s.slot_bytes);
    counts->stats.slots        = s.slots;
    counts->stats.budget_bytes = s.budget_bytes;
    counts->stats.slot_bytes   = s.slot_bytes;
    counts->stats.fingerprint  = s.fingerprint;
    counts->stats.online       = true;
    counts->levels             = counts->stats.levels;
    for (uint64_t k = 0; k < counts->levels && k < CLI_MAX_LEVELS; k++) {
        uturn_level_stats_t *l = &counts->level[k];
        uturn_level_stats_init(l);
        uturn_plan_level_stats(plan, k, l);
        uturn_level_stats_t seen;
        uturn_level_stats_init(&seen);
        uturn_validator_level_stats(w->validator, k, &seen);
        l->stores     = seen.stores;
        l->restores   = seen.restores;
        l->peak_slots = seen.peak_slots;
        l->peak_bytes = seen.peak_bytes;
        if (w->sizes == NULL)
            peak_of_slots(&l->peak_bytes, l->peak_slots, s.slot_bytes);
    }
    return st;
}

/* The walk takes time in proportion to the plan's actions, at least its
 * forward steps: refuse at once what would take more than about a
 * minute, judged by the offline optimum's forward steps (revolve with the
 * plan's slots and sweeps, which no online plan beats: with several
 * sweeps, sweep 1 is online and the rest is revolve's plan of one sweep
 * fewer). */
static int within_reach(const uturn_plan_t *plan, uint64_t n)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps               = n;
    p.slots               = s.slots;
    p.sweeps              = s.sweeps; /* several: revolve's plan of as many */
    uturn_plan_t *offline = NULL;
    uturn_stats_t best;
    uturn_stats_init(&best);
    const uturn_status_t st = uturn_plan_create(&p, NULL, &offline, NULL);
    if (st == UTURN_OK)
        uturn_plan_stats(offline, &best);
    uturn_plan_free(offline);
    if (st == UTURN_OK && best.forward_steps <= CLI_ONLINE_MOST_FORWARD)
        return CLI_OK;
    char least[32];
    snprintf(least, sizeof least, st == UTURN_OK ? "%llu" : "2^64",
             (unsigned long long)best.forward_steps);
    return cli_fail("online with %llu slots for %llu steps makes at least "
                    "%s forward steps (revolve's optimum), past the %llu "
                    "this tool walks (about a minute): give fewer steps, "
                    "more slots or fewer sweeps",
                    (unsigned long long)s.slots, (unsigned long long)n, least,
                    (unsigned long long)CLI_ONLINE_MOST_FORWARD),
           CLI_CANNOT;
}

/* What the walk would stop at, refused before a line is written: x_0
 * past a byte budget, steps past the reach of a plan with levels. */
static int ends_there(const uturn_plan_t *plan, uint64_t n,
                      const uint64_t *sizes)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    if (sizes != NULL && sizes[0] > s.budget_bytes)
        return x0_past(sizes[0], s.budget_bytes);
    uint64_t cost = 0;
    uturn_error_t e;
    uturn_error_init(&e);
    if (s.levels > 1 &&
        uturn_plan_online_cost(plan, n, &cost, &e) == UTURN_E_INVALID_ARG)
        return cli_fail("%s: give fewer steps, or --max-steps", e.message),
               CLI_CANNOT;
    return CLI_OK;
}

int cli_online_fits(const uturn_plan_t *plan, uint64_t n, const uint64_t *sizes)
{
    return within_reach(plan, n) == CLI_OK &&
                   ends_there(plan, n, sizes) == CLI_OK
               ? CLI_OK
               : CLI_CANNOT;
}

int cli_online_walk(const uturn_plan_t *plan, uint64_t n, const uint64_t *sizes,
                    const struct cli_online_out *out,
                    struct cli_online_counts *counts)
{
    if (cli_online_fits(plan, n, sizes) != CLI_OK)
        return CLI_CANNOT;
    struct walking w = {.sizes = sizes, .n = n, .out = out};
    uturn_error_init(&w.error);
    uturn_level_t levels[CLI_MAX_LEVELS];
    if (uturn_cursor_create(plan, NULL, &w.cursor) != UTURN_OK ||
        open_validator(&w, plan, levels) != UTURN_OK) {
        uturn_cursor_free(w.cursor);
        uturn_stats_t s;
        uturn_stats_init(&s);
        uturn_plan_stats(plan, &s);
        return cli_fail("out of memory for an online plan of %llu slots "
                        "(its cursor keeps about 160 bytes for each): give "
                        "fewer slots",
                        (unsigned long long)s.slots),
               CLI_CANNOT;
    }
    if (out != NULL && out->stream != NULL && !out->json)
        header(out->stream, plan, n, sizes, levels);
    uturn_status_t st = walk(&w);
    int rc            = walked(&w, st);
    if (rc == CLI_OK) {
        st = finish(&w, plan, counts);
        rc = st == UTURN_OK ? CLI_OK : cli_library_error(st, &w.error);
    }
    uturn_validator_free(w.validator);
    uturn_cursor_free(w.cursor);
    return rc;
}
