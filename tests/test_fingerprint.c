/*
 * Plan fingerprints. The value is checked against XXH3-64 of the documented
 * canonical encoding, built here byte by byte (one-shot XXH3 over a buffer,
 * not the library's streaming code); every parameter that changes the
 * action stream changes it, and parameters that do not (a capacity beyond
 * the steps, the bytes a slot counts as, the thread count) leave it. The
 * same in two processes: tests/procs/same_in_every_process.sh.
 */
#define XXH_INLINE_ALL
#include <criterion/criterion.h>
#include <string.h>
#include <uturn.h>
#include <xxhash.h>

#define ULL(x) ((unsigned long long)(x))
#define TAG    0x7475726e2d667070ull

/* The canonical encoding: 64-bit little-endian words. */
struct encoding {
    unsigned char bytes[512];
    size_t len;
};

static void word(struct encoding *e, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        e->bytes[e->len++] = (unsigned char)(v >> (8 * i));
}

/* An array enters as its length and the XXH3-64 of its words. */
static void array(struct encoding *e, const uint64_t *v, uint64_t n)
{
    if (v == NULL) {
        word(e, UINT64_MAX);
        return;
    }
    struct encoding inner = {.len = 0};
    for (uint64_t i = 0; i < n; i++)
        word(&inner, v[i]);
    word(e, n);
    word(e, XXH3_64bits(inner.bytes, inner.len));
}

static struct encoding start(uturn_planner_t planner)
{
    struct encoding e = {.len = 0};
    word(&e, TAG);
    word(&e, 1); /* the encoding's version */
    word(&e, (uint64_t)planner);
    return e;
}

static uint64_t fingerprint_of(const uturn_problem_t *p)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(p, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    uint64_t fp = 0;
    cr_assert_eq(uturn_plan_fingerprint(plan, &fp), UTURN_OK);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cr_assert_eq(s.fingerprint, fp);
    uturn_plan_free(plan);
    return fp;
}

static uturn_problem_t problem(uturn_planner_t planner, uint64_t n,
                               uint64_t slots)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = planner;
    p.steps   = n;
    p.slots   = slots;
    return p;
}

Test(fingerprint, is_xxh3_of_the_documented_encoding)
{
    /* revolve: steps and min(slots, steps). */
    struct encoding e = start(UTURN_PLANNER_REVOLVE);
    word(&e, 100);
    word(&e, 5);
    const uturn_problem_t rv = problem(UTURN_PLANNER_REVOLVE, 100, 5);
    cr_assert_eq(fingerprint_of(&rv), XXH3_64bits(e.bytes, e.len));
    /* store-all: steps. */
    e = start(UTURN_PLANNER_STORE_ALL);
    word(&e, 7);
    const uturn_problem_t sa = problem(UTURN_PLANNER_STORE_ALL, 7, 0);
    cr_assert_eq(fingerprint_of(&sa), XXH3_64bits(e.bytes, e.len));
    /* periodic: steps and the stride. */
    e = start(UTURN_PLANNER_PERIODIC);
    word(&e, 40);
    word(&e, 4);
    uturn_problem_t pe = problem(UTURN_PLANNER_PERIODIC, 40, 0);
    pe.stride          = 4;
    cr_assert_eq(fingerprint_of(&pe), XXH3_64bits(e.bytes, e.len));
}

Test(fingerprint, a_parsed_plan_hashes_its_actions)
{
    static const char text[] = "uturn-plan 1\nsteps 1\nslots 1\nstore 0 0\n"
                               "advance 0 1\nturn\nrestore 0 0\nreverse 0\n"
                               "free 0\n";
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_parse(text, sizeof text - 1, NULL, &plan, NULL),
                 UTURN_OK);
    struct encoding e = start(UTURN_PLANNER_PARSED);
    word(&e, 1);
    word(&e, 1);
    array(&e, NULL, 1);
    array(&e, NULL, 1);
    const uint64_t acts[6][4] = {{UTURN_OP_STORE, 0, 0, 0},
                                 {UTURN_OP_ADVANCE, 0, 1, 0},
                                 {UTURN_OP_TURN, 0, 0, 0},
                                 {UTURN_OP_RESTORE, 0, 0, 0},
                                 {UTURN_OP_REVERSE, 0, 0, 0},
                                 {UTURN_OP_FREE, 0, 0, 0}};
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 4; k++)
            word(&e, acts[i][k]);
    word(&e, 6);
    uint64_t fp = 0;
    uturn_plan_fingerprint(plan, &fp);
    cr_assert_eq(fp, XXH3_64bits(e.bytes, e.len), "%016llx", ULL(fp));
    /* The streaming reader gives the same. */
    uturn_reader_t *r = NULL;
    uturn_reader_create(NULL, &r, NULL);
    uturn_reader_feed(r, text, sizeof text - 1, NULL);
    uturn_stats_t s;
    uturn_stats_init(&s);
    cr_assert_eq(uturn_reader_finish(r, &s, NULL), UTURN_OK);
    cr_assert_eq(s.fingerprint, fp);
    uturn_reader_free(r);
    uturn_plan_free(plan);
}

Test(fingerprint, changes_with_every_parameter_of_the_stream)
{
    const uturn_problem_t base = problem(UTURN_PLANNER_REVOLVE, 100, 5);
    const uint64_t fp          = fingerprint_of(&base);
    uturn_problem_t p          = base;
    p.steps                    = 101;
    cr_assert_neq(fingerprint_of(&p), fp, "steps");
    p       = base;
    p.slots = 6;
    cr_assert_neq(fingerprint_of(&p), fp, "a capacity that changes it");
    p         = base;
    p.planner = UTURN_PLANNER_DP;
    cr_assert_neq(fingerprint_of(&p), fp, "the planner");
    uturn_problem_t pe = problem(UTURN_PLANNER_PERIODIC, 100, 0);
    pe.stride          = 10;
    const uint64_t k10 = fingerprint_of(&pe);
    pe.stride          = 11;
    cr_assert_neq(fingerprint_of(&pe), k10, "the stride");
    uint64_t sizes[20], costs[20];
    for (int i = 0; i < 20; i++)
        sizes[i] = 8 * (uint64_t)(1 + i % 3), costs[i] = 1 + (uint64_t)i % 2;
    uturn_problem_t dp = problem(UTURN_PLANNER_DP, 20, 0);
    dp.step_bytes      = sizes;
    dp.step_costs      = costs;
    dp.budget_bytes    = 64;
    const uint64_t d0  = fingerprint_of(&dp);
    sizes[7] += 8;
    cr_assert_neq(fingerprint_of(&dp), d0, "a size");
    sizes[7] -= 8;
    costs[3] += 1;
    cr_assert_neq(fingerprint_of(&dp), d0, "a cost");
    costs[3] -= 1;
    cr_assert_eq(fingerprint_of(&dp), d0, "the same request again");
    dp.threads = 3;
    cr_assert_eq(fingerprint_of(&dp), d0, "dp's thread count");
    dp.threads = 1;
    dp.dp_mode = UTURN_DP_APPROXIMATE;
    cr_assert_neq(fingerprint_of(&dp), d0, "dp's approximate planner");
    dp.dp_mode    = UTURN_DP_AUTO;
    dp.unit_bytes = 16;
    cr_assert_neq(fingerprint_of(&dp), d0, "dp's memory unit");
}

Test(fingerprint, changes_with_every_field_of_every_level)
{
    uturn_level_t lv[3];
    for (int k = 0; k < 3; k++)
        uturn_level_init(&lv[k]);
    lv[0].slots = 4;
    lv[1].slots = 8, lv[1].write_cost = 2, lv[1].read_cost = 2;
    lv[2].slots = 16, lv[2].write_cost = 10, lv[2].read_cost = 10;
    uturn_problem_t p = problem(UTURN_PLANNER_HREVOLVE, 300, 0);
    p.levels          = lv;
    p.level_count     = 3;
    const uint64_t fp = fingerprint_of(&p);
    uint64_t *fields[] = {&lv[0].slots,      &lv[1].slots,
                          &lv[1].write_cost, &lv[1].read_cost,
                          &lv[2].slots,      &lv[2].write_cost,
                          &lv[2].read_cost};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        *fields[i] += 1;
        cr_assert_neq(fingerprint_of(&p), fp, "level field %zu", i);
        *fields[i] -= 1;
    }
    p.level_count = 2;
    cr_assert_neq(fingerprint_of(&p), fp, "the number of levels");
    p.level_count = 3;
    lv[1].name    = "ssd"; /* a label, not part of the stream */
    cr_assert_eq(fingerprint_of(&p), fp, "a level's name");
}

Test(fingerprint, parameters_that_leave_the_stream_leave_it)
{
    /* Slots beyond the steps: the same stream. */
    const uturn_problem_t a = problem(UTURN_PLANNER_REVOLVE, 40, 50);
    const uturn_problem_t b = problem(UTURN_PLANNER_REVOLVE, 40, 60);
    cr_assert_eq(fingerprint_of(&a), fingerprint_of(&b));
    /* What a slot counts as: ranks with different state sizes that agree
     * on a capacity agree on the fingerprint. */
    uturn_problem_t c = problem(UTURN_PLANNER_REVOLVE, 1000, 0);
    c.slot_bytes      = 1000;
    c.budget_bytes    = 20000;
    uturn_problem_t d = problem(UTURN_PLANNER_REVOLVE, 1000, 0);
    d.slot_bytes      = 4000;
    d.budget_bytes    = 80000;
    cr_assert_eq(fingerprint_of(&c), fingerprint_of(&d));
    cr_assert_eq(fingerprint_of(&c),
                 fingerprint_of(&(uturn_problem_t){.size    = sizeof c,
                                                   .planner = c.planner,
                                                   .steps   = 1000,
                                                   .slots   = 20}));
}

Test(fingerprint, misuse)
{
    uint64_t fp = 0;
    cr_assert_eq(uturn_plan_fingerprint(NULL, &fp), UTURN_E_INVALID_ARG);
    const uturn_problem_t p = problem(UTURN_PLANNER_REVOLVE, 10, 2);
    uturn_plan_t *plan      = NULL;
    uturn_plan_create(&p, NULL, &plan, NULL);
    cr_assert_eq(uturn_plan_fingerprint(plan, NULL), UTURN_E_INVALID_ARG);
    uturn_plan_free(plan);
}
