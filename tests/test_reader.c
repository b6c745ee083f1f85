/*
 * Plan text from untrusted sources: the streaming reader agrees with
 * uturn_plan_parse() on every text whatever the split, its memory does not
 * grow with the plan's length, a declared step count allocates nothing
 * before its values are there, and quoted text cannot carry terminal
 * escapes.
 */
#define _POSIX_C_SOURCE 200809L
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define ULL(x) ((unsigned long long)(x))

/* A format-2 plan of 2 steps: memory level NAME with LEVEL0, disk with
 * LEVEL1 (slots, write, read); x_0 kept on disk, in slot 1. */
#define LEVELS2(NAME, LEVEL0, LEVEL1)                                          \
    "uturn-plan 2\nsteps 2\nslots 2\nlevel " NAME " " LEVEL0 "\n"             \
    "level disk " LEVEL1 "\nstore 0 1\nadvance 0 2\nturn\nrestore 0 1\n"      \
    "advance 0 1\nreverse 1\nrestore 0 1\nreverse 0\nfree 1\n"

/* Texts of every kind: valid, malformed at various lines, invalid plans,
 * per-step lines, comments, CRLF, no final newline. */
static const char *const texts[] = {
    "uturn-plan 1\nsteps 3\nslots 2\nstore 0 0\nadvance 0 3\nturn\n"
    "restore 0 0\nadvance 0 2\nreverse 2\nrestore 0 0\nadvance 0 1\n"
    "reverse 1\nrestore 0 0\nreverse 0\nfree 0\n",
    "uturn-plan 1\r\n# c\r\nsteps 1\r\nslots 1\r\nstore 0 0\r\n"
    "advance 0 1\r\nturn\r\nrestore 0 0\r\nreverse 0\r\nfree 0",
    "uturn-plan 1\nsteps 2\nslots 2\nslot_bytes 8\nbudget_bytes 16\n"
    "step_bytes 8 8\nstep_costs 3 4\nstore 0 0\nadvance 0 1\nstore 1 1\n"
    "advance 1 2\nturn\nrestore 1 1\nreverse 1\nfree 1\nrestore 0 0\n"
    "reverse 0\nfree 0\n",
    "",
    "# nothing\n\n",
    "uturn-plan 1\nsteps 3\n",
    "uturn-plan 1\nsteps 3\nslots 2\n",
    "uturn-plan 1\nsteps 3\nslots 2\nstore 0 0\nrestore 1 0\n",
    "uturn-plan 1\nsteps 3\nslots 2\nstore 0 0\njump\n",
    "uturn-plan 2\n",
    "uturn-plan 1\nsteps 10000000000\nslots 1\nstep_bytes 4\n",
    "uturn-plan 1\nsteps 2\nstep_bytes 4 0\n",
    "uturn-plan 1\nplanner \x1b]0;pwned\a\n",
    "uturn-plan 1\nsteps 3\nslots 2\nstore 0 0\nadvance 0 3\nturn\n"
    "reverse 2\n",
    /* Format 2 (issue 22, finding 5: check took what the parser refused
     * with undocumented statuses): a valid plan; names past the rule ('(',
     * ESC, 64 bytes, a space); a cost past 2^64. */
    LEVELS2("mem", "1 0 0", "1 3 3"),
    LEVELS2("me(m", "1 0 0", "1 3 3"),
    LEVELS2("me\x1bm", "1 0 0", "1 3 3"),
    LEVELS2("m123456789012345678901234567890123456789012345678901234567890123",
            "1 0 0", "1 3 3"),
    LEVELS2("mem", "1 0 0", "1 18446744073709551615 3"),
    LEVELS2("mem", "1 0 0", "1 3 18446744073709551616"),
};

static uturn_status_t feed_in_pieces(const char *text, size_t len,
                                     size_t piece, uturn_stats_t *seen,
                                     uturn_error_t *err,
                                     const uturn_allocator_t *alloc)
{
    uturn_reader_t *r = NULL;
    uturn_error_init(err);
    cr_assert_eq(uturn_reader_create(alloc, &r, err), UTURN_OK);
    uturn_status_t st = UTURN_OK;
    for (size_t at = 0; at < len && st == UTURN_OK; at += piece) {
        const size_t n = len - at < piece ? len - at : piece;
        st             = uturn_reader_feed(r, text + at, n, err);
    }
    if (st == UTURN_OK)
        st = uturn_reader_finish(r, seen, err);
    uturn_reader_free(r);
    return st;
}

static void same_stats(const uturn_stats_t *a, const uturn_stats_t *b)
{
    cr_assert_eq(a->forward_steps, b->forward_steps);
    cr_assert_eq(a->stores, b->stores);
    cr_assert_eq(a->restores, b->restores);
    cr_assert_eq(a->frees, b->frees);
    cr_assert_eq(a->peak_slots, b->peak_slots);
    cr_assert_eq(a->peak_bytes, b->peak_bytes);
    cr_assert_eq(a->actions, b->actions);
    cr_assert_eq(a->forward_cost, b->forward_cost);
    cr_assert_eq(a->steps, b->steps);
}

/* The reader and the parser give the same answer for every split. */
Test(reader, agrees_with_parse_for_every_split)
{
    static const size_t pieces[] = {1, 2, 3, 5, 7, 64, 1u << 20};
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        const size_t len   = strlen(texts[t]);
        uturn_plan_t *plan = NULL;
        uturn_error_t want;
        uturn_error_init(&want);
        const uturn_status_t ps =
            uturn_plan_parse(texts[t], len, NULL, &plan, &want);
        cr_assert(t >= 3 || ps == UTURN_OK, "text %zu: %s", t, want.message);
        uturn_stats_t parsed;
        uturn_stats_init(&parsed);
        if (ps == UTURN_OK)
            uturn_plan_stats(plan, &parsed);
        uturn_plan_free(plan);
        for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
            counting_alloc_t counts = {0};
            const uturn_allocator_t a = counting_allocator(&counts);
            uturn_stats_t seen;
            uturn_stats_init(&seen);
            uturn_error_t err;
            const uturn_status_t rs =
                feed_in_pieces(texts[t], len, pieces[k], &seen, &err, &a);
            cr_assert_eq(rs, ps, "text %zu, pieces of %zu: %s, want %s (%s)",
                         t, pieces[k], uturn_status_name(rs),
                         uturn_status_name(ps), err.message);
            cr_assert_eq(counts.live_blocks, 0, "text %zu leaks", t);
            if (ps == UTURN_OK) {
                same_stats(&seen, &parsed);
                continue;
            }
            cr_assert_str_eq(err.message, want.message, "text %zu", t);
            cr_assert_eq(err.line, want.line, "text %zu", t);
            cr_assert_eq(err.action, want.action, "text %zu", t);
        }
    }
}

/* A 50-byte text that declares 10^10 steps with one value: refused as
 * malformed at once, in memory bounded by the text, by both entry points
 * (the parser once allocated 8 bytes per declared step first: 80 GB). */
Test(reader, declared_steps_allocate_nothing_before_their_values)
{
    static const char text[] =
        "uturn-plan 1\nsteps 10000000000\nslots 1\nstep_bytes 4\n";
    counting_alloc_t counts   = {0};
    const uturn_allocator_t a = counting_allocator(&counts);
    uturn_plan_t *plan        = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_parse(text, sizeof text - 1, &a, &plan, &err),
                 UTURN_E_PARSE);
    cr_assert_eq(err.line, 4);
    cr_assert(strstr(err.message, "1 values for 10000000000 steps") != NULL,
              "%s", err.message);
    cr_assert_lt(counts.peak_bytes, 4096, "%llu bytes", ULL(counts.peak_bytes));
    counting_alloc_t rc        = {0};
    const uturn_allocator_t ra = counting_allocator(&rc);
    uturn_stats_t seen;
    cr_assert_eq(feed_in_pieces(text, sizeof text - 1, 4, &seen, &err, &ra),
                 UTURN_E_PARSE);
    cr_assert_eq(err.line, 4);
    cr_assert_lt(rc.peak_bytes, 4096, "%llu bytes", ULL(rc.peak_bytes));
}

/* Write a revolve plan of n steps and s slots into memory. */
static char *revolve_text(uint64_t n, uint64_t s, size_t *len)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = n;
    p.slots            = s;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    char *buf = NULL;
    FILE *f   = open_memstream(&buf, len);
    cr_assert_eq(uturn_plan_write(plan, f, NULL), UTURN_OK);
    fclose(f);
    uturn_plan_free(plan);
    return buf;
}

/* The reader's memory does not follow the plan's length: 10x the actions
 * take the same peak (the parser keeps every action, about 32 B each). */
Test(reader, memory_is_independent_of_the_plan_length)
{
    uint64_t peak[2] = {0, 0}, actions[2] = {0, 0};
    const uint64_t steps[2] = {20000, 200000};
    for (int k = 0; k < 2; k++) {
        size_t len              = 0;
        char *text              = revolve_text(steps[k], 8, &len);
        counting_alloc_t counts = {0};
        const uturn_allocator_t a = counting_allocator(&counts);
        uturn_stats_t seen;
        uturn_stats_init(&seen);
        uturn_error_t err;
        cr_assert_eq(feed_in_pieces(text, len, 4096, &seen, &err, &a),
                     UTURN_OK, "%s", err.message);
        free(text);
        peak[k]    = counts.peak_bytes;
        actions[k] = seen.actions;
    }
    cr_assert_gt(actions[1], 9 * actions[0]);
    cr_assert_eq(peak[0], peak[1], "%llu vs %llu bytes", ULL(peak[0]),
                 ULL(peak[1]));
    cr_assert_lt(peak[1], 8192, "%llu bytes", ULL(peak[1]));
}

/* Bytes that a terminal would interpret never reach a message as such. */
Test(reader, quoted_text_is_escaped)
{
    static const char *const bad[] = {
        "uturn-plan 1\nsteps 3\nslots 2\n\x1b]0;pwned\a x\n",
        "uturn-plan 1\nplanner \x1b[31mred\n",
        "uturn-plan 1\nsteps \x9b\x31\n",
        "\x1b]0;t\a 1\n",
    };
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        uturn_error_init(&err);
        cr_assert_eq(uturn_plan_parse(bad[t], strlen(bad[t]), NULL, &plan,
                                      &err),
                     UTURN_E_PARSE);
        for (const char *c = err.message; *c != '\0'; c++)
            cr_assert((unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f,
                      "text %zu: byte 0x%02x in \"%s\"", t,
                      (unsigned)(unsigned char)*c, err.message);
    }
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_plan_parse(bad[0], strlen(bad[0]), NULL, &plan, &err);
    cr_assert(strstr(err.message, "'\\x1b]0;pwned\\x07'") != NULL, "%s",
              err.message);
}

/* One set of rules for format 2 on both paths: a level name past the
 * rule is UTURN_E_PARSE at its line, a cost past 2^64 UTURN_E_INVALID_PLAN
 * at the end; a valid one parses with its cost (3 forward steps, one
 * write of 3 and two reads of 3: 12). */
Test(reader, format_2_levels_follow_one_set_of_rules)
{
    static const struct {
        const char *text;
        uturn_status_t status;
        uint64_t line;
        const char *words;
    } cases[] = {
        {LEVELS2("mem", "1 0 0", "1 3 3"), UTURN_OK, 0, ""},
        {LEVELS2("me(m", "1 0 0", "1 3 3"), UTURN_E_PARSE, 4,
         "level name 'me(m' must be 1 to 63"},
        {LEVELS2("me\x1bm", "1 0 0", "1 3 3"), UTURN_E_PARSE, 4,
         "level name 'me\\x1bm'"},
        {LEVELS2("mem", "1 0 0", "1 18446744073709551615 3"),
         UTURN_E_INVALID_PLAN, 14, "cost"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *t      = cases[i].text;
        uturn_plan_t *plan = NULL;
        uturn_error_t err;
        uturn_error_init(&err);
        const uturn_status_t st =
            uturn_plan_parse(t, strlen(t), NULL, &plan, &err);
        cr_assert_eq(st, cases[i].status, "case %zu: %s (%s)", i,
                     uturn_status_name(st), err.message);
        cr_assert(strstr(err.message, cases[i].words) != NULL, "case %zu: %s",
                  i, err.message);
        if (st == UTURN_OK) {
            uturn_stats_t s;
            uturn_stats_init(&s);
            uturn_plan_stats(plan, &s);
            cr_assert_eq(s.cost, 12);
            cr_assert_eq(s.levels, 2);
        } else {
            cr_assert_eq(err.line, cases[i].line, "case %zu", i);
        }
        uturn_plan_free(plan);
    }
}

Test(reader, unknown_planner_header_is_refused)
{
    static const char text[] = "uturn-plan 1\nplanner bogus\nsteps 1\n";
    uturn_plan_t *plan       = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_parse(text, sizeof text - 1, NULL, &plan, &err),
                 UTURN_E_PARSE);
    cr_assert_eq(err.line, 2);
    cr_assert(strstr(err.message, "unknown planner 'bogus'") != NULL, "%s",
              err.message);
    cr_assert(strstr(err.message, "revolve") != NULL, "%s", err.message);
}

/* Messages for texts that end early name what is missing, on a real line. */
Test(reader, messages_at_the_end_name_what_is_missing)
{
    static const struct {
        const char *text;
        uint64_t line;
        const char *word;
    } cases[] = {
        {"", 1, "empty"},
        {"uturn-plan 1\n", 1, "no 'steps' header and no actions"},
        {"uturn-plan 1\nsteps 4\n", 2, "no 'slots' header and no actions"},
        {"uturn-plan 1\nsteps 4\nslots 1\n", 3, "ends before the turn"},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        uturn_stats_t seen;
        uturn_error_t err;
        const uturn_status_t st =
            feed_in_pieces(cases[t].text, strlen(cases[t].text), 3, &seen,
                           &err, NULL);
        cr_assert_neq(st, UTURN_OK);
        cr_assert_eq(err.line, cases[t].line, "case %zu: line %llu (%s)", t,
                     ULL(err.line), err.message);
        cr_assert(strstr(err.message, cases[t].word) != NULL, "case %zu: %s",
                  t, err.message);
        cr_assert(strstr(err.message, "must come before") == NULL, "%s",
                  err.message);
    }
}

Test(reader, misuse)
{
    uturn_reader_t *r = NULL;
    cr_assert_eq(uturn_reader_create(NULL, NULL, NULL), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_reader_create(NULL, &r, NULL), UTURN_OK);
    cr_assert_eq(uturn_reader_feed(NULL, "x", 1, NULL), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_reader_feed(r, NULL, 1, NULL), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_reader_feed(r, NULL, 0, NULL), UTURN_OK);
    cr_assert_eq(uturn_reader_finish(r, NULL, NULL), UTURN_E_PARSE);
    cr_assert_eq(uturn_reader_finish(r, NULL, NULL), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_reader_feed(r, "x", 1, NULL), UTURN_E_INVALID_ARG);
    uturn_reader_free(r);
    uturn_reader_free(NULL);
}

/* Out of memory at every allocation of a chunked read leaks nothing. */
Test(reader, out_of_memory_anywhere)
{
    const char *text = texts[2];
    for (uint64_t fail = 1; fail <= 12; fail++) {
        counting_alloc_t counts   = {0};
        counts.fail_at            = fail;
        const uturn_allocator_t a = counting_allocator(&counts);
        uturn_reader_t *r         = NULL;
        uturn_status_t st         = uturn_reader_create(&a, &r, NULL);
        for (size_t at = 0; st == UTURN_OK && text[at] != '\0'; at += 3)
            st = uturn_reader_feed(r, text + at,
                                   strlen(text + at) < 3 ? strlen(text + at)
                                                         : 3,
                                   NULL);
        if (st == UTURN_OK)
            st = uturn_reader_finish(r, NULL, NULL);
        cr_assert(st == UTURN_OK || st == UTURN_E_NOMEM, "fail %llu: %s",
                  ULL(fail), uturn_status_name(st));
        uturn_reader_free(r);
        cr_assert_eq(counts.live_blocks, 0, "fail %llu leaks", ULL(fail));
    }
}
