/*
 * Statuses, planner names, action text and the version: the small tables
 * every message and every plan file is built from.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <uturn.h>

#define ULL(x) ((unsigned long long)(x))

static const uturn_status_t every_status[] = {
    UTURN_OK,           UTURN_E_INVALID_ARG,     UTURN_E_NOMEM,
    UTURN_E_INFEASIBLE, UTURN_E_OVERFLOW,        UTURN_E_UNSUPPORTED,
    UTURN_E_CALLBACK,   UTURN_E_INVALID_PLAN,    UTURN_E_PARSE,
    UTURN_E_IO,         UTURN_E_NONDETERMINISTIC, UTURN_E_STOPPED};
#define STATUS_COUNT (sizeof every_status / sizeof every_status[0])

/* ---- statuses
 * ---------------------------------------------------------------- */

Test(status, values_are_fixed)
{
    /* The enum's values are part of the ABI. */
    for (size_t i = 0; i < STATUS_COUNT; i++)
        cr_assert_eq((int)every_status[i], (int)i);
}

Test(status, strerror_every_value_distinct)
{
    for (size_t i = 0; i < STATUS_COUNT; i++) {
        const char *a = uturn_strerror(every_status[i]);
        cr_assert_not_null(a, "status %zu", i);
        cr_assert_gt(strlen(a), 0, "status %zu", i);
        cr_assert_str_neq(a, "unknown status", "status %zu", i);
        for (size_t j = 0; j < i; j++)
            cr_assert_str_neq(a, uturn_strerror(every_status[j]),
                              "statuses %zu and %zu share \"%s\"", i, j, a);
    }
    cr_assert_str_eq(uturn_strerror(UTURN_E_NOMEM), "out of memory");
}

Test(status, names_every_value)
{
    static const char *const want[] = {
        "UTURN_OK",           "UTURN_E_INVALID_ARG",     "UTURN_E_NOMEM",
        "UTURN_E_INFEASIBLE", "UTURN_E_OVERFLOW",        "UTURN_E_UNSUPPORTED",
        "UTURN_E_CALLBACK",   "UTURN_E_INVALID_PLAN",    "UTURN_E_PARSE",
        "UTURN_E_IO",         "UTURN_E_NONDETERMINISTIC", "UTURN_E_STOPPED"};
    for (size_t i = 0; i < STATUS_COUNT; i++) {
        const char *name = uturn_status_name(every_status[i]);
        cr_assert_not_null(name);
        cr_assert_str_eq(name, want[i]);
        for (size_t j = 0; j < i; j++)
            cr_assert_str_neq(name, uturn_status_name(every_status[j]));
    }
}

Test(status, out_of_range_fallbacks)
{
    static const int bad[] = {-1, 12, 13, 100, 1000, 0x7fffffff};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const uturn_status_t st = (uturn_status_t)bad[i];
        cr_assert_str_eq(uturn_strerror(st), "unknown status", "%d", bad[i]);
        cr_assert_str_eq(uturn_status_name(st), "UTURN_E_UNKNOWN", "%d",
                         bad[i]);
    }
}

Test(status, error_init)
{
    uturn_error_t e;
    memset(&e, 0x5a, sizeof e);
    uturn_error_init(&e);
    cr_assert_eq(e.size, sizeof e);
    cr_assert_eq(e.status, UTURN_OK);
    cr_assert_eq(e.action, UTURN_NONE);
    cr_assert_eq(e.step, UTURN_NONE);
    cr_assert_eq(e.line, 0);
    cr_assert_eq(e.minimum_slots, 0);
    cr_assert_eq(e.minimum_bytes, 0);
    cr_assert_eq(e.message[0], '\0');
    uturn_error_init(NULL);
}

/* ---- planners
 * ------------------------------------------------------------------ */

Test(planner, names_round_trip)
{
    static const struct {
        uturn_planner_t id;
        const char *name;
    } known[] = {{UTURN_PLANNER_STORE_ALL, "store-all"},
                 {UTURN_PLANNER_PERIODIC, "periodic"},
                 {UTURN_PLANNER_SQRT, "sqrt"},
                 {UTURN_PLANNER_REVOLVE, "revolve"}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        const char *name = uturn_planner_name(known[i].id);
        cr_assert_not_null(name);
        cr_assert_str_eq(name, known[i].name);
        uturn_planner_t back = (uturn_planner_t)-1;
        cr_assert_eq(uturn_planner_from_name(name, &back), UTURN_OK);
        cr_assert_eq(back, known[i].id);
    }
    cr_assert_eq((int)UTURN_PLANNER_STORE_ALL, 0);
    cr_assert_eq((int)UTURN_PLANNER_PERIODIC, 1);
    cr_assert_eq((int)UTURN_PLANNER_SQRT, 2);
    cr_assert_eq((int)UTURN_PLANNER_REVOLVE, 3);
    cr_assert_eq((int)UTURN_PLANNER_PARSED, 100);
    cr_assert_str_eq(uturn_planner_name(UTURN_PLANNER_PARSED), "parsed");
}

Test(planner, unknown_names_fail)
{
    static const char *const bad[] = {"",         "Revolve",  "store_all",
                                      "storeall", "revolve ", " sqrt",
                                      "parsed",   "binomial", "periodic\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uturn_planner_t out = (uturn_planner_t)42;
        cr_assert_eq(uturn_planner_from_name(bad[i], &out), UTURN_E_INVALID_ARG,
                     "\"%s\"", bad[i]);
        cr_assert_eq((int)out, 42, "out was changed for \"%s\"", bad[i]);
    }
    uturn_planner_t out = (uturn_planner_t)42;
    cr_assert_eq(uturn_planner_from_name(NULL, &out), UTURN_E_INVALID_ARG);
    cr_assert_eq((int)out, 42);
    cr_assert_eq(uturn_planner_from_name("sqrt", NULL), UTURN_E_INVALID_ARG);
}

Test(planner, dp_is_named_dp)
{
    uturn_planner_t out = UTURN_PLANNER_SQRT;
    cr_assert_str_eq(uturn_planner_name(UTURN_PLANNER_DP), "dp");
    cr_assert_eq(uturn_planner_from_name("dp", &out), UTURN_OK);
    cr_assert_eq(out, UTURN_PLANNER_DP);
    cr_assert_eq((int)UTURN_PLANNER_DP, 4, "enum values are fixed forever");
}

Test(planner, unknown_values_have_no_name)
{
    static const int bad[] = {-1, 7, 99, 101, 1000};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_null(uturn_planner_name((uturn_planner_t)bad[i]), "%d",
                       bad[i]);
}

/* ---- actions as text
 * ------------------------------------------------------------ */

static void expect_text(uturn_action_t a, const char *want)
{
    char buf[96];
    size_t length = 12345;
    memset(buf, 'z', sizeof buf);
    cr_assert_eq(uturn_action_format(&a, buf, sizeof buf, &length), UTURN_OK);
    cr_assert_str_eq(buf, want);
    cr_assert_eq(length, strlen(want));
    /* Truncation works like snprintf: NUL-terminated, full length told. */
    for (size_t cap = 1; cap <= strlen(want) + 1; cap++) {
        char small[96];
        memset(small, 'z', sizeof small);
        length = 0;
        cr_assert_eq(uturn_action_format(&a, small, cap, &length), UTURN_OK);
        cr_assert_eq(length, strlen(want));
        cr_assert_eq(strlen(small), cap - 1, "cap %zu", cap);
        cr_assert_eq(strncmp(small, want, cap - 1), 0, "cap %zu", cap);
        cr_assert_eq(small[cap], 'z', "cap %zu: wrote past the capacity", cap);
    }
    /* Length only. */
    length = 0;
    cr_assert_eq(uturn_action_format(&a, NULL, 0, &length), UTURN_OK);
    cr_assert_eq(length, strlen(want));
    cr_assert_eq(uturn_action_format(&a, buf, sizeof buf, NULL), UTURN_OK);
}

Test(action, format_each_op)
{
    const uturn_action_t advance = {UTURN_OP_ADVANCE, 0, 4, 0};
    const uturn_action_t store   = {UTURN_OP_STORE, 4, 0, 1};
    const uturn_action_t restore = {UTURN_OP_RESTORE, 4, 0, 1};
    const uturn_action_t free_   = {UTURN_OP_FREE, 0, 0, 1};
    const uturn_action_t turn    = {UTURN_OP_TURN, 0, 0, 0};
    const uturn_action_t reverse = {UTURN_OP_REVERSE, 3, 0, 0};
    expect_text(advance, "advance 0 4");
    expect_text(store, "store 4 1");
    expect_text(restore, "restore 4 1");
    expect_text(free_, "free 1");
    expect_text(turn, "turn");
    expect_text(reverse, "reverse 3");
}

Test(action, format_large_numbers)
{
    const uturn_action_t a = {UTURN_OP_ADVANCE, 18446744073709551614ull,
                              18446744073709551615ull, 0};
    expect_text(a, "advance 18446744073709551614 18446744073709551615");
    const uturn_action_t s = {UTURN_OP_STORE, 1000000000000ull, 0,
                              18446744073709551615ull};
    expect_text(s, "store 1000000000000 18446744073709551615");
    const uturn_action_t r = {UTURN_OP_REVERSE, 10, 0, 0};
    expect_text(r, "reverse 10");
}

Test(action, op_names)
{
    static const struct {
        uturn_op_t op;
        int value;
        const char *name;
    } ops[] = {
        {UTURN_OP_ADVANCE, 1, "advance"}, {UTURN_OP_STORE, 2, "store"},
        {UTURN_OP_RESTORE, 3, "restore"}, {UTURN_OP_FREE, 4, "free"},
        {UTURN_OP_TURN, 5, "turn"},       {UTURN_OP_REVERSE, 6, "reverse"},
        {UTURN_OP_PERSIST, 7, "persist"}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        cr_assert_eq((int)ops[i].op, ops[i].value);
        cr_assert_str_eq(uturn_op_name(ops[i].op), ops[i].name);
    }
    cr_assert_null(uturn_op_name((uturn_op_t)0));
    cr_assert_null(uturn_op_name((uturn_op_t)8));
    cr_assert_null(uturn_op_name((uturn_op_t)-1));
}

Test(action, format_rejects_bad_arguments)
{
    char buf[16];
    size_t length            = 77;
    const uturn_action_t bad = {(uturn_op_t)0, 0, 0, 0};
    cr_assert_eq(uturn_action_format(&bad, buf, sizeof buf, &length),
                 UTURN_E_INVALID_ARG);
    const uturn_action_t bad8 = {(uturn_op_t)8, 0, 0, 0};
    cr_assert_eq(uturn_action_format(&bad8, buf, sizeof buf, &length),
                 UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_action_format(NULL, buf, sizeof buf, &length),
                 UTURN_E_INVALID_ARG);
    const uturn_action_t turn = {UTURN_OP_TURN, 0, 0, 0};
    cr_assert_eq(uturn_action_format(&turn, NULL, 4, &length),
                 UTURN_E_INVALID_ARG);
}

/* ---- version
 * ------------------------------------------------------------------- */

Test(version, number_and_string_agree)
{
    cr_assert_eq(uturn_version_number(), (unsigned)UTURN_VERSION_NUMBER);
    cr_assert_eq((unsigned)UTURN_VERSION_NUMBER,
                 (unsigned)(UTURN_VERSION_MAJOR * 10000 +
                            UTURN_VERSION_MINOR * 100 + UTURN_VERSION_PATCH));
    const char *s = uturn_version_string();
    cr_assert_not_null(s);
    cr_assert_str_eq(s, UTURN_VERSION_STRING);
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", UTURN_VERSION_MAJOR,
             UTURN_VERSION_MINOR, UTURN_VERSION_PATCH);
    cr_assert_str_eq(s, want);
    unsigned major = 0, minor = 0, patch = 0;
    cr_assert_eq(sscanf(s, "%u.%u.%u", &major, &minor, &patch), 3);
    cr_assert_eq(major * 10000 + minor * 100 + patch, uturn_version_number());
    cr_assert_lt(UTURN_VERSION_MINOR, 100);
    cr_assert_lt(UTURN_VERSION_PATCH, 100);
}
