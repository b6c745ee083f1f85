/*
 * Plan text: every planner's plan survives uturn_plan_write() and
 * uturn_plan_parse() action for action; hand-written texts check the format
 * (comments, blank lines, CRLF, no final newline, no NUL terminator) and
 * every way the parser must refuse a text, with the right line.
 *
 * Every text is parsed from the very end of a page whose next page is not
 * readable, so a read past the given length crashes the test.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <uturn.h>

#define ULL(x) ((unsigned long long)(x))

/* ---- parsing behind a guard page ------------------------------------------
 */

/* Parse length bytes of text copied to the end of a readable region that is
 * followed by an unreadable page. */
static uturn_status_t parse_guarded(const char *text, size_t length,
                                    const uturn_allocator_t *alloc,
                                    uturn_plan_t **out, uturn_error_t *err)
{
    const size_t page  = (size_t)sysconf(_SC_PAGESIZE);
    const size_t pages = (length + page - 1) / page + 1;
    unsigned char *map = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(map, MAP_FAILED);
    cr_assert_eq(mprotect(map + pages * page, page, PROT_NONE), 0);
    char *at = (char *)map + pages * page - length;
    if (length != 0)
        memcpy(at, text, length);
    uturn_error_init(err);
    const uturn_status_t st = uturn_plan_parse(at, length, alloc, out, err);
    munmap(map, (pages + 1) * page);
    return st;
}

static uturn_status_t parse_str(const char *text, uturn_plan_t **out,
                                uturn_error_t *err)
{
    return parse_guarded(text, strlen(text), NULL, out, err);
}

static void expect_no_leak(const counting_alloc_t *c)
{
    cr_assert_eq(c->live_blocks, 0, "%llu blocks leaked", ULL(c->live_blocks));
    cr_assert_eq(c->size_mismatches, 0);
}

/* ---- round trips ------------------------------------------------------------
 */

static char *write_text(const uturn_plan_t *plan, size_t *length)
{
    char *buf   = NULL;
    size_t size = 0;
    FILE *f     = open_memstream(&buf, &size);
    cr_assert_not_null(f);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_write(plan, f, &err), UTURN_OK, "%s", err.message);
    cr_assert_eq(fclose(f), 0);
    *length = size;
    return buf;
}

static bool same_action(const uturn_action_t *x, const uturn_action_t *y)
{
    return x->op == y->op && x->step == y->step && x->step_end == y->step_end &&
           x->slot == y->slot;
}

static void same_stream(const uturn_plan_t *a, const uturn_plan_t *b,
                        const char *what)
{
    uturn_cursor_t *ca = NULL, *cb = NULL;
    cr_assert_eq(uturn_cursor_create(a, NULL, &ca), UTURN_OK);
    cr_assert_eq(uturn_cursor_create(b, NULL, &cb), UTURN_OK);
    uturn_action_t x, y;
    uint64_t index = 0;
    for (;;) {
        memset(&x, 0, sizeof x);
        memset(&y, 0, sizeof y);
        const bool more_a = uturn_cursor_next(ca, &x);
        const bool more_b = uturn_cursor_next(cb, &y);
        cr_assert_eq(more_a, more_b, "%s: lengths differ at %llu", what,
                     ULL(index));
        if (!more_a)
            break;
        cr_assert(same_action(&x, &y), "%s: action %llu differs", what,
                  ULL(index));
        index++;
    }
    uturn_cursor_free(ca);
    uturn_cursor_free(cb);
}

static void round_trip(const uturn_problem_t *p)
{
    char what[128];
    snprintf(what, sizeof what, "%s n=%llu slots=%llu stride=%llu bytes=%llu",
             uturn_planner_name(p->planner), ULL(p->steps), ULL(p->slots),
             ULL(p->stride), ULL(p->slot_bytes));
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_plan_t *orig = NULL, *parsed = NULL, *again = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(p, &alloc, &orig, &err), UTURN_OK, "%s: %s",
                 what, err.message);
    size_t length = 0;
    char *text    = write_text(orig, &length);
    cr_assert_eq(strncmp(text, "uturn-plan 1\n", 13), 0, "%s", what);
    cr_assert_eq(parse_guarded(text, length, &alloc, &parsed, &err), UTURN_OK,
                 "%s: %s", what, err.message);
    same_stream(orig, parsed, what);
    uturn_stats_t a, b;
    uturn_stats_init(&a);
    uturn_stats_init(&b);
    cr_assert_eq(uturn_plan_stats(orig, &a), UTURN_OK);
    cr_assert_eq(uturn_plan_stats(parsed, &b), UTURN_OK);
#define SAME(field)                                                            \
    cr_assert_eq(b.field, a.field, "%s " #field ": parsed %llu, made %llu",    \
                 what, ULL(b.field), ULL(a.field))
    SAME(steps);
    SAME(forward_steps);
    SAME(recomputed_steps);
    SAME(reverse_steps);
    SAME(stores);
    SAME(restores);
    SAME(frees);
    SAME(peak_slots);
    SAME(peak_bytes);
    SAME(actions);
    SAME(slots);
    SAME(slot_bytes);
    SAME(budget_bytes);
#undef SAME
    uturn_problem_t pp;
    uturn_problem_init(&pp);
    cr_assert_eq(uturn_plan_problem(parsed, &pp), UTURN_OK);
    cr_assert_eq(pp.planner, UTURN_PLANNER_PARSED);
    cr_assert_eq(pp.steps, p->steps);
    /* A parsed plan writes and parses again to the same stream. */
    size_t length2 = 0;
    char *text2    = write_text(parsed, &length2);
    cr_assert_eq(parse_guarded(text2, length2, &alloc, &again, &err), UTURN_OK,
                 "%s (again): %s", what, err.message);
    same_stream(orig, again, what);
    free(text);
    free(text2);
    uturn_plan_free(again);
    uturn_plan_free(parsed);
    uturn_plan_free(orig);
    expect_no_leak(&counts);
}

static void problem(uturn_problem_t *p, uturn_planner_t planner, uint64_t n,
                    uint64_t slots, uint64_t stride, uint64_t slot_bytes)
{
    uturn_problem_init(p);
    p->planner    = planner;
    p->steps      = n;
    p->slots      = slots;
    p->stride     = stride;
    p->slot_bytes = slot_bytes;
}

Test(planfile, round_trip_store_all_and_sqrt)
{
    static const uint64_t ns[] = {1, 2, 3, 4, 10, 17, 100, 1000};
    uturn_problem_t p;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        problem(&p, UTURN_PLANNER_STORE_ALL, ns[i], 0, 0, 0);
        round_trip(&p);
        problem(&p, UTURN_PLANNER_STORE_ALL, ns[i], ns[i] + 1, 0, 32);
        round_trip(&p);
        problem(&p, UTURN_PLANNER_SQRT, ns[i], 0, 0, 0);
        round_trip(&p);
        problem(&p, UTURN_PLANNER_SQRT, ns[i], 0, 0, 12);
        round_trip(&p);
    }
}

Test(planfile, round_trip_periodic)
{
    uturn_problem_t p;
    for (uint64_t n = 1; n <= 25; n++) {
        for (uint64_t k = 1; k <= n; k++) {
            problem(&p, UTURN_PLANNER_PERIODIC, n, 0, k, k % 3 == 0 ? 0 : 8);
            round_trip(&p);
        }
    }
    problem(&p, UTURN_PLANNER_PERIODIC, 1000, 0, 7, 0);
    round_trip(&p);
    problem(&p, UTURN_PLANNER_PERIODIC, 1000, 70, 0, 0);
    round_trip(&p);
    problem(&p, UTURN_PLANNER_PERIODIC, 500, 0, 0, 16);
    p.budget_bytes = 16 * 50 + 5;
    round_trip(&p);
}

Test(planfile, round_trip_revolve)
{
    uturn_problem_t p;
    for (uint64_t n = 1; n <= 25; n++) {
        for (uint64_t s = 1; s <= n + 1; s++) {
            problem(&p, UTURN_PLANNER_REVOLVE, n, s, 0, s % 2 ? 0 : 100);
            round_trip(&p);
        }
    }
    static const uint64_t ss[] = {1, 2, 5, 10, 50};
    for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++) {
        problem(&p, UTURN_PLANNER_REVOLVE, 1000, ss[i], 0, 0);
        round_trip(&p);
    }
    problem(&p, UTURN_PLANNER_REVOLVE, 777, 0, 0, 64);
    p.budget_bytes = 64 * 9 + 63;
    round_trip(&p);
}

Test(planfile, round_trip_through_tmpfile)
{
    uturn_problem_t p;
    problem(&p, UTURN_PLANNER_REVOLVE, 300, 7, 0, 0);
    uturn_plan_t *orig = NULL, *parsed = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &orig, NULL), UTURN_OK);
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert_eq(uturn_plan_write(orig, f, NULL), UTURN_OK);
    const long size = ftell(f);
    cr_assert_gt(size, 0);
    rewind(f);
    char *buf = malloc((size_t)size); /* no room for a NUL: none is needed */
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_parse(buf, (size_t)size, NULL, &parsed, &err),
                 UTURN_OK, "%s", err.message);
    same_stream(orig, parsed, "tmpfile");
    free(buf);
    uturn_plan_free(parsed);
    uturn_plan_free(orig);
}

/* The action lines a writer produces, checked against a hand-written text
 * (docs/model.md section 2 spells every action). */
Test(planfile, written_actions_by_hand)
{
    static const char want[] = "store 0 0\n"
                               "advance 0 1\n"
                               "store 1 1\n"
                               "advance 1 2\n"
                               "turn\n"
                               "restore 1 1\n"
                               "reverse 1\n"
                               "free 1\n"
                               "restore 0 0\n"
                               "reverse 0\n"
                               "free 0\n";
    uturn_problem_t p;
    problem(&p, UTURN_PLANNER_STORE_ALL, 2, 0, 0, 0);
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    size_t length   = 0;
    char *text      = write_text(plan, &length);
    const size_t wl = strlen(want);
    cr_assert_geq(length, wl);
    cr_assert_eq(memcmp(text + length - wl, want, wl), 0, "text:\n%s", text);
    cr_assert(strstr(text, "\nsteps 2\n") != NULL, "text:\n%s", text);
    cr_assert(strstr(text, "\nslots 2\n") != NULL, "text:\n%s", text);
    free(text);
    uturn_plan_free(plan);
}

Test(planfile, write_failure_is_io)
{
    uturn_problem_t p;
    problem(&p, UTURN_PLANNER_SQRT, 100, 0, 0, 0);
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    FILE *f = fopen("/dev/null", "r"); /* writes to it fail */
    cr_assert_not_null(f);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_write(plan, f, &err), UTURN_E_IO);
    cr_assert_eq(err.status, UTURN_E_IO);
    fclose(f);
    cr_assert_eq(uturn_plan_write(NULL, stdout, NULL), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_plan_write(plan, NULL, NULL), UTURN_E_INVALID_ARG);
    uturn_plan_free(plan);
}

/* ---- hand-written texts that parse ------------------------------------------
 */

/* n = 3, 2 slots: x_1 is recomputed from x_0. */
#define GOOD_ACTIONS                                                           \
    "store 0 0\nadvance 0 2\nstore 2 1\nadvance 2 3\nturn\nrestore 2 1\n"      \
    "reverse 2\nfree 1\nrestore 0 0\nadvance 0 1\nreverse 1\nrestore 0 0\n"    \
    "reverse 0\nfree 0"

static void expect_good_counts(const uturn_plan_t *plan)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    cr_assert_eq(uturn_plan_stats(plan, &s), UTURN_OK);
    cr_assert_eq(s.steps, 3);
    cr_assert_eq(s.slots, 2);
    cr_assert_eq(s.forward_steps, 4);
    cr_assert_eq(s.recomputed_steps, 1);
    cr_assert_eq(s.reverse_steps, 3);
    cr_assert_eq(s.stores, 2);
    cr_assert_eq(s.restores, 3);
    cr_assert_eq(s.frees, 2);
    cr_assert_eq(s.peak_slots, 2);
    cr_assert_eq(s.actions, 14);
}

Test(planfile, hand_written_plan)
{
    static const char text[] =
        "uturn-plan 1\nsteps 3\nslots 2\n" GOOD_ACTIONS "\n";
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    cr_assert_eq(parse_str(text, &plan, &err), UTURN_OK, "%s", err.message);
    expect_good_counts(plan);
    uturn_stats_t s;
    uturn_stats_init(&s);
    cr_assert_eq(uturn_plan_stats(plan, &s), UTURN_OK);
    cr_assert_eq(s.peak_bytes, 0);
    uturn_plan_free(plan);
}

/* No NUL terminator and no final newline: an exactly-sized malloc buffer
 * (and the guard page of parse_guarded). */
Test(planfile, exact_buffer_without_terminator)
{
    static const char text[] = "uturn-plan 1\nsteps 3\nslots 2\n" GOOD_ACTIONS;
    const size_t length      = sizeof text - 1;
    char *buf                = malloc(length);
    cr_assert_not_null(buf);
    memcpy(buf, text, length);
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_parse(buf, length, NULL, &plan, &err), UTURN_OK,
                 "%s", err.message);
    expect_good_counts(plan);
    uturn_plan_free(plan);
    free(buf);
    cr_assert_eq(parse_guarded(text, length, NULL, &plan, &err), UTURN_OK);
    expect_good_counts(plan);
    uturn_plan_free(plan);
    /* Only a prefix of the buffer: the text ends at "free 0" less its 0. */
    cr_assert_eq(parse_guarded(text, length - 2, NULL, &plan, &err),
                 UTURN_E_PARSE);
    cr_assert_null(plan);
    cr_assert_eq(err.line, 17);
}

Test(planfile, comments_blank_lines_crlf)
{
    static const char text[] =
        "# a plan written by hand\r\n"
        "\r\n"
        "uturn-plan 1   # the magic line\r\n"
        "\t\r\n"
        "planner revolve\r\n"
        "steps 3\r\n"
        "  slots\t2  \r\n"
        "slot_bytes 10\r\n"
        "budget_bytes 25\r\n"
        "#\n"
        "store 0 0\r\n"
        "advance 0 2 # two at once\r\n"
        "store 2 1\nadvance 2 3\r\nturn\r\nrestore 2 1\r\n\r\n"
        "reverse 2\r\nfree 1\r\nrestore 0 0\r\nadvance 0 1\r\nreverse 1\r\n"
        "restore 0 0\r\nreverse 0\r\nfree 0 #done\r\n"
        "# trailing comment";
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    cr_assert_eq(parse_str(text, &plan, &err), UTURN_OK, "%s", err.message);
    expect_good_counts(plan);
    uturn_stats_t s;
    uturn_stats_init(&s);
    cr_assert_eq(uturn_plan_stats(plan, &s), UTURN_OK);
    cr_assert_eq(s.slot_bytes, 10);
    cr_assert_eq(s.budget_bytes, 25);
    cr_assert_eq(s.peak_bytes, 20);
    uturn_plan_free(plan);
}

/* ---- texts that must be refused
 * ---------------------------------------------- */

static void expect_parse_error(const char *text, uint64_t line,
                               const char *word)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_plan_t *plan            = (uturn_plan_t *)&plan;
    uturn_error_t err;
    const uturn_status_t st =
        parse_guarded(text, strlen(text), &alloc, &plan, &err);
    cr_assert_eq(st, UTURN_E_PARSE, "\"%s\": %s (%s)", text,
                 uturn_status_name(st), err.message);
    cr_assert_null(plan);
    cr_assert_eq(err.status, UTURN_E_PARSE);
    cr_assert_eq(err.line, line, "\"%s\": line %llu, want %llu (%s)", text,
                 ULL(err.line), ULL(line), err.message);
    cr_assert_eq(err.action, UTURN_NONE);
    if (word != NULL)
        cr_assert(strstr(err.message, word) != NULL,
                  "message \"%s\" lacks \"%s\"", err.message, word);
    expect_no_leak(&counts);
}

#define HEAD "uturn-plan 1\nsteps 3\nslots 2\n"

Test(planfile, missing_magic)
{
    expect_parse_error("steps 3\nslots 2\n" GOOD_ACTIONS, 1, "uturn-plan");
    expect_parse_error("# comment\n\nsteps 3\n", 3, "uturn-plan");
    expect_parse_error("uturn-plan\nsteps 3\n", 1, "uturn-plan");
    expect_parse_error("uturnplan 1\n", 1, "uturn-plan");
    /* Lines count from 1: an empty text is line 1, not "line 0". */
    expect_parse_error("", 1, "empty");
    expect_parse_error("# only a comment\n", 1, "uturn-plan");
}

Test(planfile, wrong_version)
{
    expect_parse_error("uturn-plan 3\n"
                       "steps 3\n",
                       1, "3");
    expect_parse_error("uturn-plan 01\n", 1, NULL);
    expect_parse_error("uturn-plan 1.0\n", 1, NULL);
}

Test(planfile, sweeps_below_two_refused_on_their_own_line)
{
    expect_parse_error("uturn-plan 1\nsteps 2\nsweeps 1\nslots 2\n"
                       "store 0 0\n",
                       3, "'sweeps' is at least 2");
    expect_parse_error("uturn-plan 1\nsweeps 0\nsteps 2\nslots 2\n", 2,
                       "'sweeps' is at least 2");
    /* past UTURN_SWEEPS_MAX, as uturn_plan_create refuses; 2^64 - 1 is a
     * count, not 'unbounded' */
    expect_parse_error("uturn-plan 1\nsteps 1\nslots 1\nsweeps 1048577\n", 4,
                       "at most 1048576");
    expect_parse_error(
        "uturn-plan 1\nsteps 1\nslots 1\nsweeps 18446744073709551615\n", 4,
        "at most");
    /* steps 0 on its own line too, not the first action's */
    expect_parse_error("uturn-plan 1\nsteps 0\nslots 1\nturn\n", 2,
                       "steps must be at least 1");
}

Test(planfile, unknown_keyword)
{
    expect_parse_error(HEAD "store 0 0\njump 0 3\n", 5, "jump");
    expect_parse_error("uturn-plan 1\nsteps 3\nsize 4\n", 3, "size");
    expect_parse_error(HEAD "Store 0 0\n", 4, "Store");
    expect_parse_error(HEAD "store 0 0\nadvance0 3\n", 5, NULL);
}

Test(planfile, wrong_number_of_fields)
{
    expect_parse_error(HEAD "advance 0\n", 4, "advance");
    expect_parse_error(HEAD "advance 0 1 2\n", 4, "advance");
    expect_parse_error(HEAD "store 0\n", 4, "store");
    expect_parse_error(HEAD "restore 0 0 0\n", 4, "restore");
    expect_parse_error(HEAD "free\n", 4, "free");
    expect_parse_error(HEAD "free 0 1\n", 4, "free");
    expect_parse_error(HEAD "turn 3\n", 4, "turn");
    expect_parse_error(HEAD "reverse\n", 4, "reverse");
    expect_parse_error(HEAD "reverse 2 1\n", 4, "reverse");
    expect_parse_error(HEAD "advance 0 1 2 3 4 5 6\n", 4, NULL);
    expect_parse_error("uturn-plan 1\nsteps\n", 2, "steps");
    expect_parse_error("uturn-plan 1\nsteps 3 4\n", 2, "steps");
    expect_parse_error("uturn-plan 1\nsteps 3\nslots\n", 3, "slots");
    expect_parse_error("uturn-plan 1\nplanner\n", 2, "planner");
    expect_parse_error("uturn-plan 1 2\n", 1, NULL);
}

Test(planfile, non_numeric)
{
    expect_parse_error("uturn-plan 1\nsteps x\n", 2, "x");
    expect_parse_error("uturn-plan 1\nsteps 3\nslots 2a\n", 3, "2a");
    expect_parse_error("uturn-plan 1\nsteps -3\n", 2, "-3");
    expect_parse_error(HEAD "store 0 0\nadvance 0 +1\n", 5, "+1");
    expect_parse_error(HEAD "store 0x0 0\n", 4, "0x0");
    expect_parse_error(HEAD "store 0 0\nadvance 0 3\nturn\nreverse 2.0\n", 7,
                       "2.0");
    expect_parse_error("uturn-plan 1\nslot_bytes 1e3\n", 2, "1e3");
}

Test(planfile, number_overflows_64_bits)
{
    expect_parse_error("uturn-plan 1\nsteps 18446744073709551616\n", 2,
                       "18446744073709551616");
    expect_parse_error("uturn-plan 1\nsteps 99999999999999999999\n", 2, NULL);
    expect_parse_error("uturn-plan 1\nsteps 3\nslots 2\nbudget_bytes "
                       "100000000000000000000000\n",
                       4, NULL);
    expect_parse_error(HEAD "store 0 0\nadvance 0 18446744073709551617\n", 5,
                       NULL);
    /* 2^64 - 1 itself is a number: the advance then breaks a rule. */
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    cr_assert_eq(parse_str(HEAD "store 0 0\nadvance 0 18446744073709551615\n",
                           &plan, &err),
                 UTURN_E_INVALID_PLAN, "%s", err.message);
    cr_assert_eq(err.line, 5);
    cr_assert_eq(err.action, 1);
}

Test(planfile, header_after_first_action)
{
    expect_parse_error(HEAD "store 0 0\nslot_bytes 8\n", 5, "slot_bytes");
    expect_parse_error(HEAD "store 0 0\nsteps 3\n", 5, "steps");
    expect_parse_error(HEAD "store 0 0\nplanner revolve\n", 5, "planner");
}

Test(planfile, duplicate_header)
{
    expect_parse_error("uturn-plan 1\nsteps 3\nslots 2\nsteps 3\n", 4, "steps");
    expect_parse_error("uturn-plan 1\nslots 2\nsteps 3\n# x\nslots 2\n", 5,
                       "slots");
    expect_parse_error("uturn-plan 1\nplanner dp\nplanner revolve\n", 3,
                       "planner");
    expect_parse_error("uturn-plan 1\nuturn-plan 1\n", 2, NULL);
}

Test(planfile, missing_steps_or_slots)
{
    expect_parse_error("uturn-plan 1\nslots 2\n\nstore 0 0\n", 4, "steps");
    expect_parse_error("uturn-plan 1\nsteps 3\n# no slots\nstore 0 0\n", 4,
                       "slots");
    expect_parse_error("uturn-plan 1\nsteps 0\nslots 2\nstore 0 0\n", 2,
                       "steps"); /* on its own line */
    expect_parse_error("uturn-plan 1\nsteps 3\nslots 2\nbudget_bytes 9\n"
                       "store 0 0\n",
                       5, "slot_bytes");
}

Test(planfile, nul_byte)
{
    static const char text[] = "uturn-plan 1\nsteps 3\nslo\0ts 2\nturn\n";
    uturn_plan_t *plan       = NULL;
    uturn_error_t err;
    cr_assert_eq(parse_guarded(text, sizeof text - 1, NULL, &plan, &err),
                 UTURN_E_PARSE);
    cr_assert_null(plan);
    cr_assert_eq(err.line, 3, "line %llu", ULL(err.line));
    cr_assert(strstr(err.message, "NUL") != NULL, "%s", err.message);
    static const char first[] = "\0uturn-plan 1\n";
    cr_assert_eq(parse_guarded(first, sizeof first - 1, NULL, &plan, &err),
                 UTURN_E_PARSE);
    cr_assert_eq(err.line, 1);
}

/* ---- texts that parse but break a rule of the model
 * -------------------------- */

/* at_end: an end-of-plan rule, whose message names the end of the plan
 * rather than a line (error.line still gives the last line). */
static void expect_invalid_at(const char *text, uint64_t action, uint64_t line,
                              const char *word, bool at_end)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_plan_t *plan            = (uturn_plan_t *)&plan;
    uturn_error_t err;
    const uturn_status_t st =
        parse_guarded(text, strlen(text), &alloc, &plan, &err);
    cr_assert_eq(st, UTURN_E_INVALID_PLAN, "%s (%s)", uturn_status_name(st),
                 err.message);
    cr_assert_null(plan);
    cr_assert_eq(err.status, UTURN_E_INVALID_PLAN);
    cr_assert_eq(err.action, action, "action %llu, want %llu (%s)",
                 ULL(err.action), ULL(action), err.message);
    cr_assert_eq(err.line, line, "line %llu, want %llu (%s)", ULL(err.line),
                 ULL(line), err.message);
    char where[32];
    snprintf(where, sizeof where, at_end ? "action %llu" : "line %llu",
             ULL(at_end ? action : line));
    cr_assert(strstr(err.message, where) != NULL,
              "message \"%s\" lacks "
              "\"%s\"",
              err.message, where);
    if (at_end)
        cr_assert(strstr(err.message, "end of plan") != NULL, "%s",
                  err.message);
    if (word != NULL)
        cr_assert(strstr(err.message, word) != NULL,
                  "message \"%s\" lacks \"%s\"", err.message, word);
    expect_no_leak(&counts);
}

static void expect_invalid(const char *text, uint64_t action, uint64_t line,
                           const char *word)
{
    expect_invalid_at(text, action, line, word, false);
}

static void expect_invalid_end(const char *text, uint64_t action, uint64_t line,
                               const char *word)
{
    expect_invalid_at(text, action, line, word, true);
}

Test(planfile, invalid_plan_action_and_line)
{
    /* action 2 on line 9 (comments and blank lines between) */
    expect_invalid("uturn-plan 1\n# c\nsteps 3\nslots 2\n"
                   "store 0 0\n\nadvance 0 2\n# restore next\nrestore 2 0\n",
                   2, 9, "x_2");
    expect_invalid(HEAD "advance 0 4\n", 0, 4, "past");
    expect_invalid(HEAD "store 0 2\n", 0, 4, "capacity");
    expect_invalid(HEAD "store 0 0\nadvance 0 3\nturn\nturn\n", 3, 7, "turn");
    /* the byte budget, reachable here where slots and budget are both set */
    expect_invalid("uturn-plan 1\nsteps 3\nslots 4\nslot_bytes 8\n"
                   "budget_bytes 20\nstore 0 0\nadvance 0 1\nstore 1 1\n"
                   "advance 1 2\nstore 2 2\n",
                   4, 10, "budget");
}

Test(planfile, invalid_plan_at_the_end)
{
    /* every action is fine, but slot 0 is never freed: the error is at the
     * end, after the last action, on the last line */
    expect_invalid_end(HEAD "store 0 0\nadvance 0 3\nturn\nrestore 0 0\n"
                            "advance 0 2\nreverse 2\nrestore 0 0\nadvance 0 1\n"
                            "reverse 1\nrestore 0 0\nreverse 0\n",
                       11, 14, "held");
    expect_invalid_end(HEAD "store 0 0\nadvance 0 3\n", 2, 5, "turn");
    /* headers only: a plan with no actions never turns */
    expect_invalid_end(HEAD, 0, 3, "turn");
}

Test(planfile, bad_arguments)
{
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_parse("x", 1, NULL, NULL, NULL),
                 UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_plan_parse(NULL, 5, NULL, &plan, NULL),
                 UTURN_E_INVALID_ARG);
    cr_assert_null(plan);
}

/* Out of memory at any allocation of a parse leaks nothing. */
Test(planfile, out_of_memory)
{
    static const char text[] = HEAD GOOD_ACTIONS "\n";
    for (uint64_t fail = 1; fail <= 6; fail++) {
        counting_alloc_t counts       = {0};
        counts.fail_at                = fail;
        const uturn_allocator_t alloc = counting_allocator(&counts);
        uturn_plan_t *plan            = NULL;
        uturn_error_t err;
        const uturn_status_t st =
            parse_guarded(text, sizeof text - 1, &alloc, &plan, &err);
        cr_assert(st == UTURN_OK || st == UTURN_E_NOMEM, "fail at %llu: %s",
                  ULL(fail), uturn_status_name(st));
        uturn_plan_free(plan);
        expect_no_leak(&counts);
    }
}
