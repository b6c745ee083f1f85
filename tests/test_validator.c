/*
 * The validator, rule by rule (docs/model.md section 2): each test hand-writes a
 * short action stream that breaks exactly one rule, and checks the status,
 * the index of the offending action and that the message names the problem.
 * Two correct hand-written plans pass with counts worked out by hand.
 */
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <uturn.h>

#define ULL(x) ((unsigned long long)(x))

static uturn_action_t adv(uint64_t a, uint64_t b)
{
    return (uturn_action_t){UTURN_OP_ADVANCE, a, b, 0};
}

static uturn_action_t sto(uint64_t i, uint64_t k)
{
    return (uturn_action_t){UTURN_OP_STORE, i, 0, k};
}

static uturn_action_t res(uint64_t i, uint64_t k)
{
    return (uturn_action_t){UTURN_OP_RESTORE, i, 0, k};
}

static uturn_action_t fre(uint64_t k)
{
    return (uturn_action_t){UTURN_OP_FREE, 0, 0, k};
}

static uturn_action_t trn(void)
{
    return (uturn_action_t){UTURN_OP_TURN, 0, 0, 0};
}

static uturn_action_t rev(uint64_t i)
{
    return (uturn_action_t){UTURN_OP_REVERSE, i, 0, 0};
}

static uturn_action_t op(int value)
{
    return (uturn_action_t){(uturn_op_t)value, 0, 0, 0};
}

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

struct limits {
    uint64_t steps, slots, slot_bytes, budget_bytes;
};

static uturn_validator_t *open_validator(struct limits lim,
                                         const uturn_allocator_t *alloc)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps              = lim.steps;
    p.slots              = lim.slots;
    p.slot_bytes         = lim.slot_bytes;
    p.budget_bytes       = lim.budget_bytes;
    uturn_validator_t *v = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_validator_create(&p, alloc, &v, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_not_null(v);
    return v;
}

static bool has(const char *message, const char *word)
{
    return strstr(message, word) != NULL;
}

/* Push actions[0 .. count-1]; the one at index bad must be the first to
 * fail, with a message holding every word of words (NULL-terminated). */
static void expect_push_fails(struct limits lim, const uturn_action_t *actions,
                              size_t count, uint64_t bad,
                              const char *const *words)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_validator_t *v          = open_validator(lim, &alloc);
    uturn_error_t err;
    for (size_t i = 0; i < count; i++) {
        uturn_error_init(&err);
        const uturn_status_t st = uturn_validator_push(v, &actions[i], &err);
        if (i < bad) {
            cr_assert_eq(st, UTURN_OK, "action %zu should pass: %s", i,
                         err.message);
            continue;
        }
        cr_assert_eq(st, UTURN_E_INVALID_PLAN, "action %zu should fail", i);
        cr_assert_eq(err.status, UTURN_E_INVALID_PLAN);
        cr_assert_eq(err.action, bad, "error.action %llu, want %llu",
                     ULL(err.action), ULL(bad));
        cr_assert_eq(err.line, 0, "no line for pushed actions");
        for (size_t w = 0; words[w] != NULL; w++)
            cr_assert(has(err.message, words[w]), "message \"%s\" lacks \"%s\"",
                      err.message, words[w]);
        char where[32];
        snprintf(where, sizeof where, "action %llu", ULL(bad));
        cr_assert(has(err.message, where), "message \"%s\" lacks \"%s\"",
                  err.message, where);
        /* The validator stays at the failure. */
        const uturn_action_t fine = trn();
        uturn_error_t again;
        uturn_error_init(&again);
        cr_assert_eq(uturn_validator_push(v, &fine, &again),
                     UTURN_E_INVALID_PLAN);
        cr_assert_eq(again.action, bad);
        cr_assert_str_eq(again.message, err.message);
        uturn_error_init(&again);
        uturn_stats_t seen;
        uturn_stats_init(&seen);
        cr_assert_eq(uturn_validator_finish(v, &seen, &again),
                     UTURN_E_INVALID_PLAN);
        cr_assert_eq(again.action, bad);
        cr_assert_eq(seen.actions, bad, "counts stop at the failure");
        break;
    }
    uturn_validator_free(v);
    cr_assert_eq(counts.live_blocks, 0);
    cr_assert_eq(counts.size_mismatches, 0);
}

/* Every push passes; finish breaks an end rule. */
static void expect_finish_fails(struct limits lim,
                                const uturn_action_t *actions, size_t count,
                                const char *const *words)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_validator_t *v          = open_validator(lim, &alloc);
    uturn_error_t err;
    for (size_t i = 0; i < count; i++) {
        uturn_error_init(&err);
        cr_assert_eq(uturn_validator_push(v, &actions[i], &err), UTURN_OK,
                     "action %zu: %s", i, err.message);
    }
    uturn_error_init(&err);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    cr_assert_eq(uturn_validator_finish(v, &seen, &err), UTURN_E_INVALID_PLAN);
    cr_assert_eq(err.status, UTURN_E_INVALID_PLAN);
    cr_assert_eq(err.action, count, "error.action %llu, want %zu (the end)",
                 ULL(err.action), count);
    cr_assert_eq(seen.actions, count);
    for (size_t w = 0; words[w] != NULL; w++)
        cr_assert(has(err.message, words[w]), "message \"%s\" lacks \"%s\"",
                  err.message, words[w]);
    uturn_validator_free(v);
    cr_assert_eq(counts.live_blocks, 0);
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

static const struct limits N3 = {3, 3, 0, 0};

/* ---- advance ----------------------------------------------------------------
 */

Test(validator, advance_from_state_not_live)
{
    const uturn_action_t a[] = {sto(0, 0), adv(1, 2)};
    expect_push_fails(N3, a, LEN(a), 1, WORDS("live", "x_0", "x_1"));
}

Test(validator, advance_after_restore_from_wrong_state)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 2), res(0, 0), adv(2, 3)};
    expect_push_fails(N3, a, LEN(a), 3, WORDS("live", "x_0", "x_2"));
}

Test(validator, advance_end_not_after_start)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 0)};
    expect_push_fails(N3, a, LEN(a), 1, WORDS("end"));
    const uturn_action_t b[] = {adv(0, 2), adv(2, 1)};
    expect_push_fails(N3, b, LEN(b), 1, WORDS("end"));
}

Test(validator, advance_past_n)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 2), adv(2, 4)};
    expect_push_fails(N3, a, LEN(a), 2, WORDS("past", "3"));
    const uturn_action_t b[] = {adv(0, UINT64_MAX)};
    expect_push_fails(N3, b, LEN(b), 0, WORDS("past"));
}

/* ---- store ------------------------------------------------------------------
 */

Test(validator, store_state_not_live)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), sto(2, 1)};
    expect_push_fails(N3, a, LEN(a), 2, WORDS("live", "x_1", "x_2"));
}

Test(validator, store_into_held_slot)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), sto(1, 0)};
    expect_push_fails(N3, a, LEN(a), 2, WORDS("slot 0", "x_0"));
}

Test(validator, store_beyond_capacity)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), sto(1, 3)};
    expect_push_fails(N3, a, LEN(a), 2, WORDS("capacity", "slot 3"));
    const uturn_action_t b[] = {sto(0, UINT64_MAX)};
    expect_push_fails(N3, b, LEN(b), 0, WORDS("capacity"));
}

/* Through uturn_validator_create() the capacity is floor(budget /
 * slot_bytes), so the slot beyond it is refused (test_planfile.c reaches
 * the byte-budget rule itself, where slots and budget may both be given). */
Test(validator, store_beyond_budget)
{
    const struct limits lim  = {5, 0, 8, 20}; /* 2 slots of 8 in 20 bytes */
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), sto(1, 1), adv(1, 2),
                                sto(2, 2)};
    expect_push_fails(lim, a, LEN(a), 4, WORDS("slot 2"));
}

/* ---- restore and free
 * -------------------------------------------------------- */

Test(validator, restore_from_empty_slot)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), res(0, 1)};
    expect_push_fails(N3, a, LEN(a), 2, WORDS("slot 1", "empty"));
}

Test(validator, restore_from_freed_slot)
{
    const uturn_action_t a[] = {sto(0, 0), fre(0), res(0, 0)};
    expect_push_fails(N3, a, LEN(a), 2, WORDS("slot 0", "empty"));
}

Test(validator, restore_wrong_step)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), res(1, 0)};
    expect_push_fails(N3, a, LEN(a), 2, WORDS("slot 0", "x_0", "x_1"));
}

Test(validator, free_empty_slot)
{
    const uturn_action_t a[] = {sto(0, 0), fre(1)};
    expect_push_fails(N3, a, LEN(a), 1, WORDS("slot 1", "empty"));
    const uturn_action_t b[] = {sto(0, 0), fre(0), fre(0)};
    expect_push_fails(N3, b, LEN(b), 2, WORDS("slot 0", "empty"));
}

/* ---- turn and reverse
 * -------------------------------------------------------- */

Test(validator, turn_when_live_not_x_n)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 2), trn()};
    expect_push_fails(N3, a, LEN(a), 2, WORDS("live", "x_2", "x_3"));
}

Test(validator, second_turn)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 3), trn(), trn()};
    expect_push_fails(N3, a, LEN(a), 3, WORDS("turn", "already"));
}

Test(validator, reverse_before_turn)
{
    /* live is x_2 and 2 is the first step to reverse; only the turn lacks */
    const uturn_action_t a[] = {sto(0, 0), adv(0, 2), rev(2)};
    expect_push_fails(N3, a, LEN(a), 2, WORDS("before the turn"));
}

Test(validator, reverse_out_of_order)
{
    /* live is x_1, but 2 must be reversed first */
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), sto(1, 1), adv(1, 3),
                                trn(),     res(1, 1), rev(1)};
    expect_push_fails(N3, a, LEN(a), 6, WORDS("next", "2"));
    const uturn_action_t b[] = {sto(0, 0), adv(0, 3), trn(), res(0, 0), rev(0)};
    expect_push_fails(N3, b, LEN(b), 4, WORDS("next", "2"));
}

Test(validator, reverse_when_live_not_x_i)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 3), trn(), rev(2)};
    expect_push_fails(N3, a, LEN(a), 3, WORDS("live", "x_3", "x_2"));
    const uturn_action_t b[] = {sto(0, 0), adv(0, 3), trn(), res(0, 0), rev(2)};
    expect_push_fails(N3, b, LEN(b), 4, WORDS("live", "x_0", "x_2"));
}

Test(validator, reverse_after_every_step)
{
    const struct limits lim  = {1, 1, 0, 0};
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), trn(), res(0, 0),
                                rev(0),    res(0, 0), rev(0)};
    expect_push_fails(lim, a, LEN(a), 6, WORDS("already reversed"));
}

Test(validator, live_undefined_after_reverse)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), sto(1, 1), adv(1, 2),
                                sto(2, 2), adv(2, 3), trn(),     res(2, 2),
                                rev(2),    rev(1)};
    expect_push_fails(N3, a, LEN(a), 9, WORDS("undefined", "x_1"));
    /* advancing from the undefined state breaks the advance rule */
    const uturn_action_t b[] = {sto(0, 0), adv(0, 2), sto(2, 1), adv(2, 3),
                                trn(),     res(2, 1), rev(2),    adv(2, 3)};
    expect_push_fails(N3, b, LEN(b), 7, WORDS("undefined"));
    /* and so does storing it */
    const uturn_action_t c[] = {sto(0, 0), adv(0, 2), sto(2, 1), adv(2, 3),
                                trn(),     res(2, 1), rev(2),    sto(2, 2)};
    expect_push_fails(N3, c, LEN(c), 7, WORDS("undefined"));
}

Test(validator, unknown_op)
{
    const uturn_action_t a[] = {sto(0, 0), op(99)};
    expect_push_fails(N3, a, LEN(a), 1, WORDS("unknown"));
    const uturn_action_t b[] = {op(0)};
    expect_push_fails(N3, b, LEN(b), 0, WORDS("unknown"));
    const uturn_action_t c[] = {op(-1)};
    expect_push_fails(N3, c, LEN(c), 0, WORDS("unknown"));
}

/* ---- end rules
 * ----------------------------------------------------------------- */

Test(validator, end_without_turn)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 3), fre(0)};
    expect_finish_fails(N3, a, LEN(a), WORDS("turn"));
    expect_finish_fails(N3, a, 0, WORDS("turn")); /* an empty plan */
}

Test(validator, end_with_step_never_reversed)
{
    const uturn_action_t a[] = {sto(0, 0), adv(0, 3), trn(), fre(0)};
    expect_finish_fails(N3, a, LEN(a), WORDS("step 2", "never reversed"));
    const uturn_action_t b[] = {sto(0, 0), adv(0, 1), sto(1, 1), adv(1, 3),
                                trn(),     res(1, 1), adv(1, 2), rev(2),
                                res(1, 1), rev(1),    fre(1),    fre(0)};
    expect_finish_fails(N3, b, LEN(b), WORDS("step 0", "never reversed"));
}

Test(validator, end_with_slots_held)
{
    const struct limits lim  = {1, 2, 0, 0};
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), trn(), res(0, 0), rev(0)};
    expect_finish_fails(lim, a, LEN(a), WORDS("held", "slot 0"));
    const uturn_action_t b[] = {sto(0, 1), adv(0, 1), sto(1, 0), trn(),
                                res(0, 1), rev(0),    fre(1)};
    expect_finish_fails(lim, b, LEN(b), WORDS("held", "slot 0", "x_1"));
}

/* ---- correct plans
 * ------------------------------------------------------------- */

static void expect_valid(struct limits lim, const uturn_action_t *a,
                         size_t count, uturn_stats_t *seen)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_validator_t *v          = open_validator(lim, &alloc);
    uturn_error_t err;
    uturn_error_init(&err);
    for (size_t i = 0; i < count; i++)
        cr_assert_eq(uturn_validator_push(v, &a[i], &err), UTURN_OK,
                     "action %zu: %s", i, err.message);
    uturn_stats_init(seen);
    cr_assert_eq(uturn_validator_finish(v, seen, &err), UTURN_OK, "%s",
                 err.message);
    uturn_validator_free(v);
    cr_assert_eq(counts.live_blocks, 0);
    cr_assert_eq(counts.size_mismatches, 0);
}

Test(validator, store_all_by_hand)
{
    const struct limits lim  = {3, 3, 8, 0};
    const uturn_action_t a[] = {sto(0, 0), adv(0, 1), sto(1, 1), adv(1, 2),
                                sto(2, 2), adv(2, 3), trn(),     res(2, 2),
                                rev(2),    fre(2),    res(1, 1), rev(1),
                                fre(1),    res(0, 0), rev(0),    fre(0)};
    uturn_stats_t s;
    expect_valid(lim, a, LEN(a), &s);
    cr_assert_eq(s.steps, 3);
    cr_assert_eq(s.forward_steps, 3);
    cr_assert_eq(s.recomputed_steps, 0);
    cr_assert_eq(s.reverse_steps, 3);
    cr_assert_eq(s.stores, 3);
    cr_assert_eq(s.restores, 3);
    cr_assert_eq(s.frees, 3);
    cr_assert_eq(s.peak_slots, 3);
    cr_assert_eq(s.peak_bytes, 24);
    cr_assert_eq(s.actions, 16);
    cr_assert_eq(s.slots, 3);
    cr_assert_eq(s.slot_bytes, 8);
    cr_assert_float_eq(s.recompute_factor, 1.0, 1e-12);
}

Test(validator, recomputing_plan_by_hand)
{
    /* n = 3 in 2 slots: keep x_0 and x_2, recompute x_1 from x_0. */
    const struct limits lim  = {3, 0, 10, 25};
    const uturn_action_t a[] = {sto(0, 0), adv(0, 2), sto(2, 1), adv(2, 3),
                                trn(),     res(2, 1), rev(2),    fre(1),
                                res(0, 0), adv(0, 1), rev(1),    res(0, 0),
                                rev(0),    fre(0)};
    uturn_stats_t s;
    expect_valid(lim, a, LEN(a), &s);
    cr_assert_eq(s.forward_steps, 4);
    cr_assert_eq(s.recomputed_steps, 1);
    cr_assert_eq(s.reverse_steps, 3);
    cr_assert_eq(s.stores, 2);
    cr_assert_eq(s.restores, 3);
    cr_assert_eq(s.frees, 2);
    cr_assert_eq(s.peak_slots, 2);
    cr_assert_eq(s.peak_bytes, 20);
    cr_assert_eq(s.actions, 14);
    cr_assert_eq(s.slots, 2);
    cr_assert_eq(s.budget_bytes, 25);
    cr_assert_float_eq(s.recompute_factor, 4.0 / 3.0, 1e-12);
}

/* Without slots or a budget the capacity is unlimited. */
Test(validator, unlimited_capacity)
{
    const struct limits lim  = {1, 0, 0, 0};
    const uturn_action_t a[] = {sto(0, 1000), adv(0, 1), trn(),
                                res(0, 1000), rev(0),    fre(1000)};
    uturn_stats_t s;
    expect_valid(lim, a, LEN(a), &s);
    cr_assert_eq(s.peak_slots, 1);
    cr_assert_eq(s.peak_bytes, 0, "no slot_bytes: bytes unknown");
}

/* ---- arguments
 * ------------------------------------------------------------------ */

Test(validator, bad_arguments)
{
    uturn_problem_t p;
    uturn_validator_t *v = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_validator_create(NULL, NULL, &v, &err),
                 UTURN_E_INVALID_ARG);
    uturn_problem_init(&p);
    /* Zero steps is an online stream (n told later), not an error. */
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, &err), UTURN_OK,
                 "zero steps: %s", err.message);
    uturn_validator_free(v);
    v       = NULL;
    p.steps = 3;
    cr_assert_eq(uturn_validator_create(&p, NULL, NULL, &err),
                 UTURN_E_INVALID_ARG);
    p.slots        = 2;
    p.slot_bytes   = 8;
    p.budget_bytes = 16;
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, &err),
                 UTURN_E_INVALID_ARG, "slots and budget both");
    p.slots      = 0;
    p.slot_bytes = 0;
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, &err),
                 UTURN_E_INVALID_ARG, "budget without slot_bytes");
    p.budget_bytes = 0;
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, &err), UTURN_OK);
    const uturn_action_t a = sto(0, 0);
    cr_assert_eq(uturn_validator_push(NULL, &a, &err), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_validator_push(v, NULL, &err), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_validator_push(v, &a, NULL), UTURN_OK);
    cr_assert_eq(uturn_validator_finish(NULL, NULL, &err), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_validator_finish(v, NULL, NULL), UTURN_E_INVALID_PLAN);
    uturn_validator_free(v);
    uturn_validator_free(NULL);
}

/* A caller built against an older, shorter uturn_error_t gets only the
 * fields it knows from a failing push. */
Test(validator, push_error_honours_size)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps              = 3;
    uturn_validator_t *v = NULL;
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, NULL), UTURN_OK);
    union {
        uturn_error_t e;
        unsigned char b[sizeof(uturn_error_t)];
    } u;
    memset(&u, 0xa5, sizeof u);
    const size_t old       = offsetof(uturn_error_t, minimum_slots);
    u.e.size               = old;
    const uturn_action_t a = adv(1, 2);
    cr_assert_eq(uturn_validator_push(v, &a, &u.e), UTURN_E_INVALID_PLAN);
    cr_assert_eq(u.e.status, UTURN_E_INVALID_PLAN);
    cr_assert_eq(u.e.action, 0);
    for (size_t i = old; i < sizeof u.b; i++)
        cr_assert_eq(u.b[i], 0xa5, "byte %zu was written", i);
    uturn_validator_free(v);
}

/* Step costs whose sum passes 2^64: the forward cost is refused by name,
 * not wrapped, and not called "forward steps" (the steps themselves are
 * only 2). A plan text's costs go through the same validator. */
Test(validator, forward_cost_past_64_bits)
{
    static const char text[] =
        "uturn-plan 1\nsteps 2\nslots 2\nstep_costs 9223372036854775808 "
        "9223372036854775808\nstore 0 0\nadvance 0 2\n";
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_parse(text, sizeof text - 1, NULL, &plan, &err),
                 UTURN_E_INVALID_PLAN, "%s", err.message);
    cr_assert(has(err.message, "forward cost"), "%s", err.message);
    cr_assert(!has(err.message, "forward steps"), "%s", err.message);
    cr_assert_eq(err.line, 6);
    const uint64_t costs[2] = {UINT64_MAX / 2 + 1, UINT64_MAX / 2 + 1};
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps              = 2;
    p.slots              = 2;
    p.step_costs         = costs;
    uturn_validator_t *v = NULL;
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, &err), UTURN_OK);
    const uturn_action_t s0 = sto(0, 0), a01 = adv(0, 1), a12 = adv(1, 2);
    cr_assert_eq(uturn_validator_push(v, &s0, &err), UTURN_OK);
    cr_assert_eq(uturn_validator_push(v, &a01, &err), UTURN_OK);
    cr_assert_eq(uturn_validator_push(v, &a12, &err), UTURN_E_INVALID_PLAN);
    cr_assert(has(err.message, "forward cost"), "%s", err.message);
    uturn_validator_free(v);
}

/* An online stream: steps unknown until set; a turn before that breaks a
 * rule, an advance is not checked against n, and n below what the stream
 * reached is refused. */
Test(validator, online_stream_learns_its_steps)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.slots              = 2;
    uturn_validator_t *v = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, &err), UTURN_OK);
    const uturn_action_t first[] = {sto(0, 0), adv(0, 1), adv(1, 2),
                                    adv(2, 3)};
    for (size_t i = 0; i < LEN(first); i++)
        cr_assert_eq(uturn_validator_push(v, &first[i], &err), UTURN_OK,
                     "%s", err.message);
    cr_assert_eq(uturn_validator_set_steps(v, 2, &err), UTURN_E_INVALID_PLAN,
                 "it reached x_3 already");
    cr_assert_eq(uturn_validator_set_steps(v, 3, &err), UTURN_OK);
    cr_assert_eq(uturn_validator_set_steps(v, 3, &err), UTURN_E_INVALID_ARG,
                 "once");
    const uturn_action_t rest[] = {trn(),     res(0, 0), adv(0, 2), rev(2),
                                   res(0, 0), adv(0, 1), rev(1),    res(0, 0),
                                   rev(0),    fre(0)};
    for (size_t i = 0; i < LEN(rest); i++)
        cr_assert_eq(uturn_validator_push(v, &rest[i], &err), UTURN_OK,
                     "action %zu: %s", i, err.message);
    uturn_stats_t s;
    uturn_stats_init(&s);
    cr_assert_eq(uturn_validator_finish(v, &s, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_eq(s.steps, 3);
    cr_assert_eq(s.forward_steps, 6);
    uturn_validator_free(v);
    /* A turn before the steps are known. */
    cr_assert_eq(uturn_validator_create(&p, NULL, &v, &err), UTURN_OK);
    const uturn_action_t early[] = {sto(0, 0), adv(0, 1), trn()};
    uturn_validator_push(v, &early[0], &err);
    uturn_validator_push(v, &early[1], &err);
    cr_assert_eq(uturn_validator_push(v, &early[2], &err),
                 UTURN_E_INVALID_PLAN);
    cr_assert(has(err.message, "before the steps are known"), "%s",
              err.message);
    uturn_validator_free(v);
}
