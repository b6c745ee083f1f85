#define _POSIX_C_SOURCE 200809L /* open_memstream */
/*
 * Storage levels in problems, plans, plan text and the validator: slots
 * numbered across levels, per-level counts and the plan's cost (forward
 * cost plus every write and read), checked on hand-written plans whose
 * counts are written out here.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define ULL(x) ((unsigned long long)(x))

/* Two levels: memory 2 slots, disk 3 slots with w = 5, r = 7. A plan for
 * 3 steps that keeps x_0 in memory and x_1, x_2 on disk (slots 2, 3):
 * forward 3, stores: 1 memory + 2 disk, restores: 1 memory + 2 disk.
 * cost = 3 + 2*5 + 2*7 = 27. */
static const char two_levels[] =
    "uturn-plan 2\nsteps 3\nslots 5\nlevel mem 2 0 0\nlevel disk 3 5 7\n"
    "store 0 0\nadvance 0 1\nstore 1 2\nadvance 1 2\nstore 2 3\n"
    "advance 2 3\nturn\nrestore 2 3\nreverse 2\nfree 3\nrestore 1 2\n"
    "reverse 1\nfree 2\nrestore 0 0\nreverse 0\nfree 0\n";

Test(levels, a_two_level_plan_text_counts_per_level_and_costs)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_parse(two_levels, sizeof two_levels - 1, NULL,
                                  &plan, &err),
                 UTURN_OK, "%s", err.message);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cr_assert_eq(s.levels, 2);
    cr_assert_eq(s.forward_steps, 3);
    cr_assert_eq(s.cost, 27);
    uturn_level_stats_t mem, disk;
    uturn_level_stats_init(&mem);
    uturn_level_stats_init(&disk);
    cr_assert_eq(uturn_plan_level_stats(plan, 0, &mem), UTURN_OK);
    cr_assert_eq(uturn_plan_level_stats(plan, 1, &disk), UTURN_OK);
    cr_assert_str_eq(mem.name, "mem");
    cr_assert_str_eq(disk.name, "disk");
    cr_assert_eq(mem.slots, 2);
    cr_assert_eq(disk.slots, 3);
    cr_assert_eq(mem.stores, 1);
    cr_assert_eq(disk.stores, 2);
    cr_assert_eq(mem.restores, 1);
    cr_assert_eq(disk.restores, 2);
    cr_assert_eq(mem.peak_slots, 1);
    cr_assert_eq(disk.peak_slots, 2);
    cr_assert_eq(uturn_plan_level_stats(plan, 2, &disk), UTURN_E_INVALID_ARG);
    /* The walk sees the same. */
    uturn_stats_t walked;
    uturn_stats_init(&walked);
    cr_assert_eq(uturn_plan_walk(plan, &walked, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_eq(walked.cost, 27);
    uturn_plan_free(plan);
}

Test(levels, plan_text_version_2_round_trips)
{
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_parse(two_levels, sizeof two_levels - 1, NULL,
                                  &plan, NULL),
                 UTURN_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f    = open_memstream(&text, &len);
    cr_assert_eq(uturn_plan_write(plan, f, NULL), UTURN_OK);
    fclose(f);
    cr_assert(strstr(text, "uturn-plan 2\n") == text, "%s", text);
    cr_assert(strstr(text, "\nlevel disk 3 5 7\n") != NULL, "%s", text);
    uturn_plan_t *again = NULL;
    cr_assert_eq(uturn_plan_parse(text, len, NULL, &again, NULL), UTURN_OK);
    uturn_stats_t a, b;
    uturn_stats_init(&a);
    uturn_stats_init(&b);
    uturn_plan_stats(plan, &a);
    uturn_plan_stats(again, &b);
    cr_assert_eq(a.cost, b.cost);
    cr_assert_eq(a.fingerprint, b.fingerprint);
    free(text);
    uturn_plan_free(again);
    uturn_plan_free(plan);
}

static void expect_parse_error(const char *text, const char *word)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_parse(text, strlen(text), NULL, &plan, &err),
                 UTURN_E_PARSE, "%s", text);
    cr_assert(strstr(err.message, word) != NULL, "\"%s\" lacks \"%s\"",
              err.message, word);
}

Test(levels, malformed_level_headers)
{
    expect_parse_error("uturn-plan 1\nsteps 1\nslots 1\nlevel m 1 0 0\n",
                       "need 'uturn-plan 2'");
    expect_parse_error("uturn-plan 2\nsteps 1\nslots 2\nlevel m 1 0 0\n"
                       "store 0 0\n",
                       "the levels hold 1 slots; the 'slots' header says 2");
    expect_parse_error("uturn-plan 2\nsteps 1\nslots 1\nlevel m 1 0\n",
                       "three numbers");
    expect_parse_error("uturn-plan 2\nsteps 1\nslots 1\nlevel m 0 0 0\n",
                       "has no slots");
    expect_parse_error("uturn-plan 3\n", "versions 1 and 2");
}

/* A slot index decides the level: the validator counts by it. */
Test(levels, the_validator_counts_by_slot_ranges)
{
    uturn_level_t lv[2];
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].slots      = 1;
    lv[1].slots      = 1;
    lv[1].write_cost = 2;
    lv[1].read_cost  = 3;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps              = 2;
    p.levels             = lv;
    p.level_count        = 2;
    uturn_validator_t *v = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, &err), UTURN_OK, "%s",
                 err.message);
    const uturn_action_t acts[] = {
        {UTURN_OP_STORE, 0, 0, 0},   {UTURN_OP_ADVANCE, 0, 1, 0},
        {UTURN_OP_STORE, 1, 0, 1},   {UTURN_OP_ADVANCE, 1, 2, 0},
        {UTURN_OP_TURN, 0, 0, 0},    {UTURN_OP_RESTORE, 1, 0, 1},
        {UTURN_OP_REVERSE, 1, 0, 0}, {UTURN_OP_FREE, 0, 0, 1},
        {UTURN_OP_RESTORE, 0, 0, 0}, {UTURN_OP_REVERSE, 0, 0, 0},
        {UTURN_OP_FREE, 0, 0, 0}};
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
        cr_assert_eq(uturn_validator_push(v, &acts[i], &err), UTURN_OK,
                     "action %zu: %s", i, err.message);
    uturn_stats_t s;
    uturn_stats_init(&s);
    cr_assert_eq(uturn_validator_finish(v, &s, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_eq(s.cost, 2 + 2 + 3);
    uturn_level_stats_t d;
    uturn_level_stats_init(&d);
    cr_assert_eq(uturn_validator_level_stats(v, 1, &d), UTURN_OK);
    cr_assert_eq(d.stores, 1);
    cr_assert_eq(d.restores, 1);
    cr_assert_eq(d.write_cost, 2);
    uturn_validator_free(v);
    /* Slot 2 is past both levels. */
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, NULL), UTURN_OK);
    const uturn_action_t far = {UTURN_OP_STORE, 0, 0, 2};
    cr_assert_eq(uturn_validator_push(v, &far, &err), UTURN_E_INVALID_PLAN);
    uturn_validator_free(v);
}

Test(levels, problems_with_levels)
{
    uturn_level_t lv[2];
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].slots = 5;
    lv[1].bytes = 1000; /* 100 slots of 10 bytes */
    lv[1].name  = "disk";
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps       = 100;
    p.slot_bytes  = 10;
    p.levels      = lv;
    p.level_count = 1;
    /* One level: any planner, with that level's capacity and costs. */
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cr_assert_eq(s.forward_steps, 320, "t(101, 5)");
    cr_assert_eq(s.cost, 320);
    uturn_plan_free(plan);
    /* Two levels: revolve plans one; the message names hrevolve. */
    p.level_count = 2;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err),
                 UTURN_E_UNSUPPORTED);
    cr_assert(strstr(err.message, "hrevolve") != NULL, "%s", err.message);
    /* Capacity through the levels only. */
    p.slots = 5;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err),
                 UTURN_E_INVALID_ARG);
    p.slots = 0;
    /* A name plan text could not carry is refused first. */
    lv[1].name    = "has space";
    p.planner     = UTURN_PLANNER_STORE_ALL;
    p.level_count = 2;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "name must be") != NULL, "%s", err.message);
    p.levels      = NULL;
    p.level_count = 2;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "go together") != NULL, "%s", err.message);
}

/* A plan without levels has one, memory, with the plan's counts. */
Test(levels, a_plan_without_levels_has_one)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = 100;
    p.slots            = 5;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    uturn_level_stats_t m;
    uturn_level_stats_init(&m);
    cr_assert_eq(uturn_plan_level_stats(plan, 0, &m), UTURN_OK);
    cr_assert_str_eq(m.name, "mem");
    cr_assert_eq(m.slots, 5);
    cr_assert_eq(m.stores, s.stores);
    cr_assert_eq(m.restores, s.restores);
    cr_assert_eq(m.peak_slots, s.peak_slots);
    cr_assert_eq(s.levels, 1);
    cr_assert_eq(s.cost, s.forward_cost);
    uturn_plan_free(plan);
}
