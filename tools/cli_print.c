/* Printing counts and plans for people (aligned text) and machines (JSON). */
#include "cli.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

static const struct {
    const char *key;
    size_t offset;
} count_fields[] = {
    {"steps", offsetof(uturn_stats_t, steps)},
    {"forward_steps", offsetof(uturn_stats_t, forward_steps)},
    {"recomputed_steps", offsetof(uturn_stats_t, recomputed_steps)},
    {"reverse_steps", offsetof(uturn_stats_t, reverse_steps)},
    {"stores", offsetof(uturn_stats_t, stores)},
    {"restores", offsetof(uturn_stats_t, restores)},
    {"frees", offsetof(uturn_stats_t, frees)},
    {"peak_slots", offsetof(uturn_stats_t, peak_slots)},
    {"peak_bytes", offsetof(uturn_stats_t, peak_bytes)},
    {"actions", offsetof(uturn_stats_t, actions)},
    {"slots", offsetof(uturn_stats_t, slots)},
    {"slot_bytes", offsetof(uturn_stats_t, slot_bytes)},
    {"budget_bytes", offsetof(uturn_stats_t, budget_bytes)},
    {"forward_cost", offsetof(uturn_stats_t, forward_cost)},
    {"recompute_cost", offsetof(uturn_stats_t, recompute_cost)},
    {"cost", offsetof(uturn_stats_t, cost)},
};

static unsigned long long field(const uturn_stats_t *s, size_t offset)
{
    const unsigned char *base = (const unsigned char *)s;
    return (unsigned long long)*(const uint64_t *)(const void *)(base + offset);
}

void cli_plan_levels(const uturn_plan_t *plan, uturn_level_stats_t *levels)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    for (uint64_t k = 0; k < s.levels && k < CLI_MAX_LEVELS; k++) {
        uturn_level_stats_init(&levels[k]);
        uturn_plan_level_stats(plan, k, &levels[k]);
    }
}

/* The levels are worth printing when there are several, or costs. */
static bool show_levels(const uturn_level_stats_t *levels,
                        const uturn_stats_t *s)
{
    if (levels == NULL || s->levels == 0)
        return false;
    return s->levels > 1 || levels[0].write_cost != 0 ||
           levels[0].read_cost != 0;
}

static void print_levels_json(FILE *out, const uturn_level_stats_t *levels,
                              uint64_t count)
{
    fputs(", \"levels\": [", out);
    for (uint64_t k = 0; k < count && k < CLI_MAX_LEVELS; k++) {
        const uturn_level_stats_t l = levels[k];
        fprintf(
            out,
            "%s{\"name\": \"%s\", \"slots\": %llu, \"write_cost\": "
            "%llu, \"read_cost\": %llu, \"stores\": %llu, "
            "\"restores\": %llu, \"peak_slots\": %llu, \"peak_bytes\": "
            "%llu}",
            k == 0 ? "" : ", ", l.name, (unsigned long long)l.slots,
            (unsigned long long)l.write_cost, (unsigned long long)l.read_cost,
            (unsigned long long)l.stores, (unsigned long long)l.restores,
            (unsigned long long)l.peak_slots, (unsigned long long)l.peak_bytes);
    }
    fputc(']', out);
}

static void print_levels_text(FILE *out, const uturn_level_stats_t *levels,
                              uint64_t count)
{
    for (uint64_t k = 0; k < count && k < CLI_MAX_LEVELS; k++) {
        const uturn_level_stats_t l = levels[k];
        fprintf(
            out,
            "level %llu %-9s slots %llu, w %llu, r %llu: stores %llu, "
            "restores %llu, peak_slots %llu, peak_bytes %llu\n",
            (unsigned long long)k, l.name, (unsigned long long)l.slots,
            (unsigned long long)l.write_cost, (unsigned long long)l.read_cost,
            (unsigned long long)l.stores, (unsigned long long)l.restores,
            (unsigned long long)l.peak_slots, (unsigned long long)l.peak_bytes);
    }
}

/* A plan of several sweeps: their number ("unbounded" when open), the
 * persistent checkpoints and what each further sweep takes. */
const char *cli_sweeps_word(char out[24], uint64_t sweeps, bool json)
{
    if (sweeps == UTURN_SWEEPS_UNBOUNDED)
        snprintf(out, 24, json ? "\"unbounded\"" : "unbounded");
    else
        snprintf(out, 24, "%llu", (unsigned long long)sweeps);
    return out;
}

static void print_sweeps(FILE *out, const uturn_stats_t *s, bool json)
{
    char k[24];
    cli_sweeps_word(k, s->sweeps, json);
    if (json)
        fprintf(out,
                ", \"sweeps\": %s, \"persistent\": %llu, "
                "\"sweep_forward_steps\": %llu",
                k, (unsigned long long)s->persistent,
                (unsigned long long)s->sweep_forward_steps);
    else
        fprintf(out, "%-17s %s\n%-17s %llu\n%-17s %llu\n", "sweeps", k,
                "persistent", (unsigned long long)s->persistent,
                "sweep_forward_steps",
                (unsigned long long)s->sweep_forward_steps);
}

void cli_print_stats(FILE *out, const char *planner, const uturn_stats_t *s,
                     uint64_t stride, enum cli_format format,
                     const uturn_level_stats_t *level)
{
    const size_t n    = sizeof count_fields / sizeof count_fields[0];
    const bool levels = show_levels(level, s);
    if (format == FORMAT_JSON) {
        fprintf(out, "{\"planner\": \"%s\"", planner);
        for (size_t i = 0; i < n; i++)
            fprintf(out, ", \"%s\": %llu", count_fields[i].key,
                    field(s, count_fields[i].offset));
        fprintf(out,
                ", \"recompute_factor\": %.6g, \"fingerprint\": "
                "\"%016llx\"",
                s->recompute_factor, (unsigned long long)s->fingerprint);
        if (s->online)
            fputs(", \"online\": true", out);
        if (s->sweeps > 1)
            print_sweeps(out, s, true);
        if (strcmp(planner, "dp") == 0)
            cli_dp_print(out, s, CLI_DP_JSON);
        if (levels)
            print_levels_json(out, level, s->levels);
        fputs("}\n", out);
        return;
    }
    fprintf(out, "%-17s %s\n", "planner", planner);
    if (stride != 0)
        fprintf(out, "%-17s %llu\n", "stride", (unsigned long long)stride);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%-17s %llu\n", count_fields[i].key,
                field(s, count_fields[i].offset));
    fprintf(out, "%-17s %.6g\n", "recompute_factor", s->recompute_factor);
    fprintf(out, "%-17s %016llx\n", "fingerprint",
            (unsigned long long)s->fingerprint);
    if (s->online)
        fprintf(out, "%-17s true\n", "online");
    if (s->sweeps > 1)
        print_sweeps(out, s, false);
    if (strcmp(planner, "dp") == 0)
        cli_dp_print(out, s, CLI_DP_TEXT);
    if (levels)
        print_levels_text(out, level, s->levels);
}

void cli_print_action_json(FILE *out, const uturn_action_t *a)
{
    fprintf(out, "{\"op\": \"%s\"", uturn_op_name(a->op));
    if (a->op != UTURN_OP_TURN && a->op != UTURN_OP_FREE &&
        a->op != UTURN_OP_PERSIST)
        fprintf(out, ", \"step\": %llu", (unsigned long long)a->step);
    if (a->op == UTURN_OP_ADVANCE)
        fprintf(out, ", \"step_end\": %llu", (unsigned long long)a->step_end);
    if (a->op == UTURN_OP_STORE || a->op == UTURN_OP_RESTORE ||
        a->op == UTURN_OP_FREE || a->op == UTURN_OP_PERSIST)
        fprintf(out, ", \"slot\": %llu", (unsigned long long)a->slot);
    fputc('}', out);
}

int cli_print_plan_json(FILE *out, const uturn_plan_t *plan)
{
    uturn_stats_t s;
    uturn_problem_t p;
    uturn_stats_init(&s);
    uturn_problem_init(&p);
    uturn_plan_stats(plan, &s);
    uturn_plan_problem(plan, &p);
    uturn_cursor_t *cursor = NULL;
    if (uturn_cursor_create(plan, NULL, &cursor) != UTURN_OK)
        return cli_library_error(UTURN_E_NOMEM, NULL);
    fprintf(out,
            "{\"planner\": \"%s\", \"steps\": %llu, \"slots\": %llu, "
            "\"slot_bytes\": %llu, \"budget_bytes\": %llu",
            uturn_planner_name(p.planner), (unsigned long long)s.steps,
            (unsigned long long)s.slots, (unsigned long long)s.slot_bytes,
            (unsigned long long)s.budget_bytes);
    if (s.sweeps > 1)
        print_sweeps(out, &s, true);
    if (p.planner == UTURN_PLANNER_DP)
        cli_dp_print(out, &s, CLI_DP_JSON);
    fputs(", \"actions\": [", out);
    uturn_action_t a;
    for (bool first = true; uturn_cursor_next(cursor, &a); first = false) {
        fputs(first ? "\n  " : ",\n  ", out);
        cli_print_action_json(out, &a);
    }
    fputs("\n]}\n", out);
    uturn_cursor_free(cursor);
    errno = 0;
    if (fflush(out) == 0 && !ferror(out))
        return CLI_OK;
    return cli_fail("writing the plan failed: %s",
                    errno != 0 ? strerror(errno) : "write error");
}
