/*
 * libFuzzer target: the plan file parser and the validator behind it.
 *
 * The input is plan text (format 1, or 2 with storage levels).
 * uturn_plan_parse() must never read past it (ASan) and must fail only with
 * a documented status and a message. The streaming reader, which `uturn
 * check` uses (tools/cli_plan.c: uturn_reader_feed() in 64 KiB pieces),
 * must agree with the parse on the same text fed in pieces of any size:
 * the same status, message, line and action, and the same counts, cost,
 * levels and fingerprint. A parsed plan's cost must be its forward cost
 * plus every level's writes and reads, counted here from its actions
 * (saturated at 2^64 - 1 past it), level by level; it must walk cleanly to
 * its own counts, pass the public validator given its levels, write
 * itself as text that parses back to the same counts and the same action
 * stream, and write that text again byte for byte. Allocation goes
 * through a checking allocator: it
 * refuses requests above ALLOC_CAP (a declared slot index of 10^12 is a
 * legitimate UTURN_E_NOMEM, not an OOM of the fuzzer), checks that every
 * free gets the size that was asked for, and fails one chosen allocation
 * to exercise the out-of-memory paths (which must report UTURN_E_NOMEM and
 * leak nothing; LeakSanitizer checks at exit).
 */
#define _POSIX_C_SOURCE 200809L

#include "fuzz_common.h"
#include "uturn.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALLOC_CAP ((size_t)32 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


/* ---- helpers ---- */

static uint64_t hash_bytes(const uint8_t *data, size_t size)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 1099511628211u;
    return h;
}

static bool action_equal(const uturn_action_t *a, const uturn_action_t *b)
{
    return a->op == b->op && a->step == b->step && a->step_end == b->step_end &&
           a->slot == b->slot;
}

/* A failed call: a documented status, a message, no plan. */
static void check_failure(uturn_status_t status, const uturn_error_t *error,
                          const uturn_plan_t *plan, const uint8_t *data,
                          size_t size)
{
    CHECK(status == UTURN_E_PARSE || status == UTURN_E_INVALID_PLAN ||
          status == UTURN_E_NOMEM);
    CHECK(plan == NULL);
    CHECK(error->status == status);
    CHECK(error->message[0] != '\0');
    CHECK(memchr(error->message, '\0', sizeof error->message) != NULL);
    if (status == UTURN_E_NOMEM)
        return;
    uint64_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    CHECK(error->line <= lines);
    if (size != 0)
        CHECK(error->line >= 1);
}

/* Every action of the plan's stream, checked against action_format(). */
static uturn_action_t *collect(const uturn_plan_t *plan, uint64_t expected,
                               size_t batch)
{
    uturn_action_t *all = malloc((size_t)(expected + 1) * sizeof *all);
    CHECK(all != NULL);
    uturn_cursor_t *cursor = NULL;
    CHECK(uturn_cursor_create(plan, NULL, &cursor) == UTURN_OK);
    uint64_t got = 0;
    if (batch == 0) {
        uturn_action_t a;
        while (uturn_cursor_next(cursor, &a)) {
            CHECK(got < expected);
            all[got++] = a;
        }
        CHECK(!uturn_cursor_next(cursor, &a)); /* stays at the end */
    } else {
        uturn_action_t *buf = malloc(batch * sizeof *buf);
        CHECK(buf != NULL);
        size_t n = 0;
        do {
            CHECK(uturn_cursor_read(cursor, buf, batch, &n) == UTURN_OK);
            CHECK(n <= batch && got + n <= expected);
            memcpy(all + got, buf, n * sizeof *buf);
            got += n;
        } while (n != 0);
        free(buf);
    }
    CHECK(got == expected);
    uturn_cursor_free(cursor);
    return all;
}

static void check_format(const uturn_action_t *a, size_t capacity)
{
    char full[80], part[80];
    size_t len = 0, len2 = 0;
    CHECK(uturn_action_format(a, full, sizeof full, &len) == UTURN_OK);
    CHECK(len == strlen(full) && len > 0 && len < 64);
    CHECK(strncmp(full, uturn_op_name(a->op), strlen(uturn_op_name(a->op))) ==
          0);
    memset(part, 'x', sizeof part);
    CHECK(uturn_action_format(a, part, capacity, &len2) == UTURN_OK);
    CHECK(len2 == len);
    if (capacity != 0) {
        const size_t kept = len < capacity ? len : capacity - 1;
        CHECK(part[kept] == '\0' && memcmp(part, full, kept) == 0);
    }
    const size_t untouched =
        capacity == 0 ? 0 : (len < capacity ? len : capacity - 1) + 1;
    CHECK(part[untouched] == 'x');
}

/* Write the plan as text; NULL (with the status) on failure. */
static char *write_text(const uturn_plan_t *plan, size_t *len,
                        uturn_status_t *status)
{
    char *text   = NULL;
    FILE *stream = open_memstream(&text, len);
    CHECK(stream != NULL);
    uturn_error_t error;
    uturn_error_init(&error);
    *status = uturn_plan_write(plan, stream, &error);
    CHECK(fclose(stream) == 0);
    if (*status != UTURN_OK) {
        CHECK(error.status == *status && error.message[0] != '\0');
        free(text);
        return NULL;
    }
    return text;
}

/* The validator's capacity: slots or a budget, not both (the header may
 * give both, and then the byte budget is the tighter rule to keep); or the
 * levels, with their costs, when there is no budget. true for levels. */
/* Level 0 has a write or read cost (a format-2 plan of one level). */
static bool level0_costed(const uturn_plan_t *plan)
{
    uturn_level_stats_t first;
    uturn_level_stats_init(&first);
    CHECK(uturn_plan_level_stats(plan, 0, &first) == UTURN_OK);
    return first.write_cost != 0 || first.read_cost != 0;
}

static bool capacity(const uturn_plan_t *plan, const uturn_stats_t *stats,
                     uturn_problem_t *problem, uturn_level_t *levels)
{
    /* one level with a write or read cost is a level too (format 2):
     * without it the validator would leave those costs out */
    const bool with_levels = (stats->levels > 1 || level0_costed(plan)) &&
                             stats->budget_bytes == 0;
    for (uint64_t k = 0; with_levels && k < stats->levels; k++) {
        uturn_level_stats_t ls;
        uturn_level_stats_init(&ls);
        CHECK(uturn_plan_level_stats(plan, k, &ls) == UTURN_OK);
        uturn_level_init(&levels[k]);
        levels[k].slots      = ls.slots;
        levels[k].write_cost = ls.write_cost;
        levels[k].read_cost  = ls.read_cost;
    }
    if (with_levels) {
        problem->levels      = levels;
        problem->level_count = stats->levels;
    } else if (stats->budget_bytes != 0) {
        problem->budget_bytes = stats->budget_bytes;
    } else {
        problem->slots = stats->slots;
    }
    return with_levels;
}

/* The public validator accepts the same stream with the same counts,
 * given the same per-step sizes and costs as the plan (without them it
 * would count every state at slot_bytes: the harness once built it so and
 * aborted on valid plans with a step_bytes line). */
static void check_public_validator(const uturn_plan_t *plan,
                                   const uturn_stats_t *stats,
                                   const uturn_action_t *actions,
                                   const uturn_allocator_t *alloc)
{
    uturn_problem_t parsed;
    uturn_problem_init(&parsed);
    CHECK(uturn_plan_problem(plan, &parsed) == UTURN_OK);
    uturn_problem_t problem;
    uturn_problem_init(&problem);
    problem.steps      = stats->steps;
    problem.slot_bytes = stats->slot_bytes;
    problem.step_bytes = parsed.step_bytes;
    problem.step_costs = parsed.step_costs;
    problem.sweeps     = parsed.sweeps;
    uturn_level_t levels[16];
    const bool with_levels = capacity(plan, stats, &problem, levels);
    uturn_validator_t *v = NULL;
    uturn_error_t error;
    uturn_error_init(&error);
    CHECK(uturn_validator_create(&problem, alloc, &v, &error) == UTURN_OK);
    for (uint64_t i = 0; i < stats->actions; i++) {
        const uturn_status_t status =
            uturn_validator_push(v, &actions[i], &error);
        if (status != UTURN_OK) {
            /* Only the capacity differs: budget / slot_bytes slots may be
             * fewer than the header's slots. */
            CHECK(status == UTURN_E_INVALID_PLAN && stats->budget_bytes != 0 &&
                  error.action == i);
            uturn_validator_free(v);
            return;
        }
    }
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    CHECK(uturn_validator_finish(v, &seen, &error) == UTURN_OK);
    CHECK(seen.forward_steps == stats->forward_steps &&
          seen.forward_cost == stats->forward_cost &&
          seen.stores == stats->stores && seen.restores == stats->restores &&
          seen.frees == stats->frees && seen.peak_slots == stats->peak_slots &&
          seen.peak_bytes == stats->peak_bytes &&
          seen.actions == stats->actions &&
          seen.reverse_steps == stats->reverse_steps);
    if (with_levels || (stats->levels == 1 && !level0_costed(plan)))
        CHECK(seen.cost == stats->cost);
    uturn_validator_free(v);
}

/* The cost and every level's counts, from the actions and the plan's
 * levels (whose slots number the slots one level after the other): the
 * forward cost plus each store's write cost and each restore's read cost
 * (docs/model.md section 7), in 128 bits; past 2^64 - 1 the plan's cost
 * saturates. */
struct level_tally {
    uint64_t slots, w, r, stores, restores, held, peak;
};

static uint64_t level_of(const struct level_tally *lt, uint64_t count,
                         uint64_t slot)
{
    for (uint64_t k = 0; k + 1 < count; k++) {
        if (slot < lt[k].slots)
            return k;
        slot -= lt[k].slots;
    }
    return count - 1;
}

static void check_cost(const uturn_plan_t *plan, const uturn_stats_t *st,
                       const uturn_action_t *actions)
{
    struct level_tally lt[16];
    CHECK(st->levels >= 1 && st->levels <= 16);
    uint64_t slots = 0;
    for (uint64_t k = 0; k < st->levels; k++) {
        uturn_level_stats_t ls;
        uturn_level_stats_init(&ls);
        CHECK(uturn_plan_level_stats(plan, k, &ls) == UTURN_OK);
        CHECK(ls.name != NULL && strlen(ls.name) >= 1 && strlen(ls.name) <= 63);
        lt[k] = (struct level_tally){
            ls.slots, ls.write_cost, ls.read_cost, 0, 0, 0, 0};
        slots += ls.slots;
    }
    CHECK(slots == st->slots);
    uturn_problem_t problem;
    uturn_problem_init(&problem);
    CHECK(uturn_plan_problem(plan, &problem) == UTURN_OK);
    unsigned __int128 forward = 0, cost = 0;
    for (uint64_t i = 0; i < st->actions; i++) {
        const uturn_action_t *a = &actions[i];
        if (a->op == UTURN_OP_ADVANCE) {
            for (uint64_t j = a->step; j < a->step_end; j++)
                forward += problem.step_costs ? problem.step_costs[j] : 1;
            continue;
        }
        struct level_tally *l = &lt[level_of(lt, st->levels, a->slot)];
        if (a->op == UTURN_OP_STORE) {
            l->stores += 1;
            l->held += 1;
            l->peak = l->held > l->peak ? l->held : l->peak;
            cost += l->w;
        } else if (a->op == UTURN_OP_RESTORE) {
            l->restores += 1;
            cost += l->r;
        } else if (a->op == UTURN_OP_FREE) {
            l->held -= 1;
        }
    }
    CHECK(forward == st->forward_cost);
    cost += forward;
    if (cost != st->cost && !(cost > UINT64_MAX && st->cost == UINT64_MAX)) {
        fprintf(stderr, "cost %llu, the actions and levels say %llu%s\n",
                (unsigned long long)st->cost, (unsigned long long)cost,
                cost > UINT64_MAX ? " (past 2^64)" : "");
        abort();
    }
    for (uint64_t k = 0; k < st->levels; k++) {
        uturn_level_stats_t ls;
        uturn_level_stats_init(&ls);
        CHECK(uturn_plan_level_stats(plan, k, &ls) == UTURN_OK);
        CHECK(ls.stores == lt[k].stores && ls.restores == lt[k].restores &&
              ls.peak_slots == lt[k].peak && lt[k].held == 0);
    }
}

/* The counts of a valid plan, and the problem it reports. */
static void check_counts(const uturn_plan_t *plan, const uturn_stats_t *st)
{
    CHECK(st->steps >= 1 && st->sweeps >= 1);
    /* every sweep reverses every step (a `sweeps K` header: K of them) */
    CHECK(st->reverse_steps == st->steps * st->sweeps);
    CHECK(st->forward_steps >= st->steps);
    CHECK(st->recomputed_steps == st->forward_steps - st->steps);
    CHECK(st->stores == st->frees);
    CHECK(st->peak_slots <= st->slots);
    CHECK(st->peak_slots <= st->stores);
    CHECK(st->actions >= 1 + st->steps);
    uturn_problem_t problem;
    uturn_problem_init(&problem);
    CHECK(uturn_plan_problem(plan, &problem) == UTURN_OK);
    CHECK(problem.planner == UTURN_PLANNER_PARSED);
    CHECK(problem.steps == st->steps && problem.slots == st->slots);
    uint64_t bytes = 0;
    const bool wraps =
        __builtin_mul_overflow(st->peak_slots, st->slot_bytes, &bytes);
    /* A sum of slot bytes past 2^64 makes the plan invalid (it once wrapped:
     * tests/fuzz/crashes/wrong-validator-*.plan). Per-step sizes
     * (step_bytes lines) count each state at its own size instead. */
    CHECK(!wraps || problem.step_bytes != NULL);
    if (problem.step_bytes == NULL)
        CHECK(st->peak_bytes == bytes);
    if (st->budget_bytes != 0)
        CHECK(st->peak_bytes <= st->budget_bytes);
}

/* The walk sees exactly the parsed counts, also with one allocation
 * failing (then NOMEM with a message). */
static void check_walks(const uturn_plan_t *plan, struct fz_arena *arena,
                        const uturn_stats_t *stats, uint64_t h)
{
    uturn_stats_t observed;
    uturn_stats_init(&observed);
    uturn_error_t error;
    uturn_error_init(&error);
    CHECK(uturn_plan_walk(plan, &observed, &error) == UTURN_OK);
    CHECK(fz_stats_equal(&observed, stats));
    arena->calls   = 0;
    arena->fail_at = 1 + h % 4;
    uturn_stats_init(&observed);
    uturn_error_init(&error);
    const uturn_status_t status = uturn_plan_walk(plan, &observed, &error);
    arena->fail_at              = 0;
    CHECK(status == UTURN_OK || status == UTURN_E_NOMEM);
    if (status == UTURN_OK)
        CHECK(fz_stats_equal(&observed, stats));
    else
        CHECK(error.status == status && error.message[0] != '\0');
}

/* Parse text back; the counts and actions must be the plan's. */
static uturn_plan_t *reparse(const uturn_plan_t *plan, const char *text,
                             size_t len, uturn_allocator_t *alloc,
                             const uturn_stats_t *stats, uint64_t h)
{
    uturn_plan_t *again = NULL;
    uturn_error_t error;
    uturn_error_init(&error);
    const uturn_status_t status =
        uturn_plan_parse(text, len, alloc, &again, &error);
    if (status != UTURN_OK)
        fprintf(stderr, "re-parse failed: %s\n%.*s\n", error.message,
                (int)(len < 2000 ? len : 2000), text);
    CHECK(status == UTURN_OK);
    uturn_stats_t stats2;
    uturn_stats_init(&stats2);
    CHECK(uturn_plan_stats(again, &stats2) == UTURN_OK);
    CHECK(fz_stats_equal(&stats2, stats));
    uturn_action_t *first  = collect(plan, stats->actions, 0);
    uturn_action_t *second = collect(again, stats->actions, 1 + h % 70);
    for (uint64_t i = 0; i < stats->actions; i++) {
        CHECK(action_equal(&first[i], &second[i]));
        check_format(&first[i], (size_t)((h >> 8) + i) % 24);
    }
    check_public_validator(plan, stats, first, alloc);
    check_cost(plan, stats, first);
    free(first);
    free(second);
    return again;
}

/* Write, parse back, write again: the text is a fixed point, also when
 * one allocation of a write fails (NOMEM, or done). */
static void check_round_trip(const uturn_plan_t *plan, struct fz_arena *arena,
                             uturn_allocator_t *alloc,
                             const uturn_stats_t *stats, uint64_t h)
{
    uturn_status_t status = UTURN_OK;
    size_t len = 0, len2 = 0;
    char *text = write_text(plan, &len, &status);
    CHECK(status == UTURN_OK);
    uturn_plan_t *again = reparse(plan, text, len, alloc, stats, h);
    char *text2         = write_text(again, &len2, &status);
    CHECK(status == UTURN_OK);
    CHECK(len2 == len && memcmp(text, text2, len) == 0);
    free(text2);
    uturn_plan_free(again);
    arena->calls   = 0;
    arena->fail_at = 1 + (h >> 4) % 3;
    text2          = write_text(plan, &len2, &status);
    arena->fail_at = 0;
    CHECK(status == UTURN_OK || status == UTURN_E_NOMEM);
    if (status == UTURN_OK)
        CHECK(len2 == len && memcmp(text, text2, len) == 0);
    free(text2);
    free(text);
}

static void check_plan(const uturn_plan_t *plan, struct fz_arena *arena,
                       uturn_allocator_t *alloc, uint64_t h)
{
    uturn_stats_t stats;
    uturn_stats_init(&stats);
    CHECK(uturn_plan_stats(plan, &stats) == UTURN_OK);
    check_counts(plan, &stats);
    check_walks(plan, arena, &stats, h);
    check_round_trip(plan, arena, alloc, &stats, h);
}

/* The streaming reader, fed in pieces of a size the input picks, agrees
 * with the parse: the same status, message, line and counts. */
static void check_reader(const uint8_t *data, size_t size, uint64_t h,
                         uturn_status_t want, const uturn_error_t *want_error,
                         const uturn_plan_t *plan, uturn_allocator_t *alloc)
{
    uturn_reader_t *reader = NULL;
    uturn_error_t error;
    uturn_error_init(&error);
    CHECK(uturn_reader_create(alloc, &reader, &error) == UTURN_OK);
    /* Some pieces as `uturn check` reads a file (64 KiB: the whole of
     * these texts), the others of 1 to 97 bytes. */
    const size_t piece =
        (h >> 40) % 4 == 0 ? (size_t)1 << 16 : 1 + (size_t)(h >> 24) % 97;
    uturn_status_t status = UTURN_OK;
    for (size_t at = 0; at < size && status == UTURN_OK; at += piece)
        status = uturn_reader_feed(reader, (const char *)data + at,
                                   size - at < piece ? size - at : piece,
                                   &error);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    if (status == UTURN_OK)
        status = uturn_reader_finish(reader, &seen, &error);
    uturn_reader_free(reader);
    CHECK(status == want);
    if (status != UTURN_OK) {
        CHECK(strcmp(error.message, want_error->message) == 0);
        CHECK(error.line == want_error->line &&
              error.action == want_error->action);
        return;
    }
    uturn_stats_t stats;
    uturn_stats_init(&stats);
    CHECK(uturn_plan_stats(plan, &stats) == UTURN_OK);
    CHECK(fz_stats_equal(&seen, &stats));
    if (seen.cost != stats.cost || seen.levels != stats.levels ||
        seen.fingerprint != stats.fingerprint) {
        fprintf(stderr,
                "reader: cost %llu levels %llu fingerprint %016llx; parse: "
                "cost %llu levels %llu fingerprint %016llx\n",
                (unsigned long long)seen.cost, (unsigned long long)seen.levels,
                (unsigned long long)seen.fingerprint,
                (unsigned long long)stats.cost,
                (unsigned long long)stats.levels,
                (unsigned long long)stats.fingerprint);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz_arena arena   = {0, 0, 0, ALLOC_CAP};
    uturn_allocator_t alloc = fz_allocator(&arena);
    const uint64_t h        = hash_bytes(data, size);
    const char *text        = (const char *)data;

    uturn_error_t error;
    uturn_error_init(&error);
    uturn_plan_t *plan    = NULL;
    uturn_status_t status = uturn_plan_parse(text, size, &alloc, &plan, &error);
    const uint64_t calls  = arena.calls;
    const uint64_t live   = arena.live; /* the plan's blocks */
    if (status != UTURN_OK) {
        check_failure(status, &error, plan, data, size);
        CHECK(arena.live == 0);
        if (status == UTURN_E_NOMEM)
            return 0;
    }
    check_reader(data, size, h, status, &error, plan, &alloc);
    CHECK(arena.live == live);

    /* The same parse with one allocation failing must fail cleanly with
     * UTURN_E_NOMEM (the parse is deterministic, so that allocation comes
     * again), unless the parse failed before reaching it. */
    if (calls > 0) {
        arena.calls         = 0;
        arena.fail_at       = 1 + h % calls;
        uturn_plan_t *other = NULL;
        uturn_error_t error2;
        uturn_error_init(&error2);
        const uturn_status_t s2 =
            uturn_plan_parse(text, size, &alloc, &other, &error2);
        arena.fail_at = 0;
        CHECK(s2 == UTURN_E_NOMEM);
        check_failure(s2, &error2, other, data, size);
        CHECK(arena.live == live);
    }

    if (status == UTURN_OK) {
        check_plan(plan, &arena, &alloc, h);
        uturn_plan_free(plan);
    }
    CHECK(arena.live == 0);
    return 0;
}
