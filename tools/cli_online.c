#define _POSIX_C_SOURCE 200809L /* open_memstream */
/*
 * uturn plan|stats|sweep online --steps N: the planner is not told N. A
 * cursor walks the online plan and says "the live state is the last" right
 * after it hands out advance N-1 N; with --sizes each state's size is
 * given once the sweep reaches it; with --levels the realised plan is
 * plan text version 2, its levels as the plan's. The realised actions are
 * written as plan text and parsed back, so what is printed, counted and checked
 * is a plan for those N steps, validated like any plan file.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

struct realising {
    uturn_cursor_t *cursor;
    FILE *text;
    const uint64_t *sizes;
    uint64_t n;
    uint64_t reached; /* the last state the first sweep reached */
    bool ended;
};

/* Plan text version 2's line for each storage level. */
static void level_lines(FILE *f, const uturn_plan_t *plan, uint64_t levels)
{
    for (uint64_t k = 0; k < levels; k++) {
        uturn_level_stats_t l;
        uturn_level_stats_init(&l);
        uturn_plan_level_stats(plan, k, &l);
        fprintf(f, "level %s %llu %llu %llu\n", l.name,
                (unsigned long long)l.slots, (unsigned long long)l.write_cost,
                (unsigned long long)l.read_cost);
    }
}

/* The header of the realised plan: its steps, slots, levels and sizes. */
static void header(FILE *f, const uturn_plan_t *plan, uint64_t n,
                   const uint64_t *sizes)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    fprintf(f, "uturn-plan %d\nplanner online\nsteps %llu\nslots %llu\n",
            s.levels > 1 ? 2 : 1, (unsigned long long)n,
            (unsigned long long)s.slots);
    if (s.levels > 1)
        level_lines(f, plan, s.levels);
    if (sizes == NULL)
        return;
    fputs("step_bytes", f);
    for (uint64_t i = 0; i < n; i++)
        fprintf(f, " %llu", (unsigned long long)sizes[i]);
    fprintf(f, "\nbudget_bytes %llu\n", (unsigned long long)s.budget_bytes);
}

/* After a batch: the end at step n, or the next state's size. */
static uturn_status_t after_batch(struct realising *r,
                                  const uturn_action_t *last)
{
    if (r->ended || last->op != UTURN_OP_ADVANCE)
        return UTURN_OK;
    const uint64_t k = last->step_end;
    r->reached       = k;
    if (k == r->n) {
        r->ended = true;
        return uturn_cursor_end(r->cursor);
    }
    return r->sizes != NULL && k < r->n
               ? uturn_cursor_set_size(r->cursor, k, r->sizes[k])
               : UTURN_OK;
}

/* Every action of the realised plan into r->text. */
static uturn_status_t walk(struct realising *r)
{
    uturn_action_t batch[256];
    size_t count = 0;
    char line[128];
    uturn_status_t st =
        r->sizes != NULL ? uturn_cursor_set_size(r->cursor, 0, r->sizes[0])
                         : UTURN_OK;
    while (st == UTURN_OK &&
           (st = uturn_cursor_read(r->cursor, batch, 256, &count)) ==
               UTURN_OK &&
           count > 0) {
        for (size_t i = 0; i < count; i++) {
            size_t len = 0;
            uturn_action_format(&batch[i], line, sizeof line, &len);
            fprintf(r->text, "%s\n", line);
        }
        st = after_batch(r, &batch[count - 1]);
    }
    return st;
}

int cli_online_realise(uturn_plan_t **plan, uint64_t n, const uint64_t *sizes)
{
    char *text = NULL;
    size_t len = 0;
    struct realising r = {.sizes = sizes, .n = n};
    r.text             = open_memstream(&text, &len);
    if (r.text == NULL || uturn_cursor_create(*plan, NULL, &r.cursor) !=
                              UTURN_OK)
        return cli_fail("out of memory for an online plan"), CLI_CANNOT;
    header(r.text, *plan, n, sizes);
    const uturn_status_t st = walk(&r);
    uturn_cursor_free(r.cursor);
    fclose(r.text);
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_plan_t *realised = NULL;
    const uturn_status_t parsed =
        st == UTURN_OK ? uturn_plan_parse(text, len, NULL, &realised, &err)
                       : st;
    free(text);
    if (st == UTURN_E_INFEASIBLE && sizes != NULL) { /* x_0 alone */
        uturn_stats_t s;
        uturn_stats_init(&s);
        uturn_plan_stats(*plan, &s);
        return cli_fail("x_0 (%llu bytes) does not fit the online plan's "
                        "budget of %llu bytes: it needs a budget of at "
                        "least %llu bytes",
                        (unsigned long long)sizes[0],
                        (unsigned long long)s.budget_bytes,
                        (unsigned long long)sizes[0]),
               CLI_CANNOT;
    }
    if (st != UTURN_OK)
        return cli_fail("the online plan stopped before step %llu: %s",
                        (unsigned long long)n, uturn_strerror(st)),
               CLI_CANNOT;
    if (!r.ended) {
        uturn_plan_free(realised);
        return cli_fail("the online plan stopped its first sweep at x_%llu, "
                        "before step %llu (with --levels it reaches the "
                        "last level's slots times its period: give "
                        "--max-steps)",
                        (unsigned long long)r.reached, (unsigned long long)n),
               CLI_CANNOT;
    }
    if (parsed != UTURN_OK)
        return cli_library_error(parsed, &err);
    uturn_plan_free(*plan);
    *plan = realised;
    return CLI_OK;
}
