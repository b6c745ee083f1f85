/*
 * uturn_plan_walk() and cursors: for every planner on a grid, the counts a
 * walk observes equal the plan's predicted counts, and both equal what this
 * file's own simulator counts from the raw cursor stream.
 */
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define ULL(x) ((unsigned long long)(x))
#define NONE   UINT64_MAX

/* ---- an independent simulator -------------------------------------------- */

struct sim {
    uint64_t n, capacity, slot_bytes;
    uint64_t *slot; /* step + 1, or 0: empty */
    uint64_t live, next_reverse, held;
    bool turned;
    uturn_stats_t st;
};

/* Apply one action under docs/model.md section 2; false when a rule breaks. */
static bool sim_step(struct sim *s, const uturn_action_t *a)
{
    s->st.actions++;
    switch (a->op) {
    case UTURN_OP_ADVANCE:
        if (s->live != a->step || a->step_end <= a->step || a->step_end > s->n)
            return false;
        s->st.forward_steps += a->step_end - a->step;
        s->live = a->step_end;
        return true;
    case UTURN_OP_STORE:
        if (a->slot >= s->capacity || s->slot[a->slot] != 0 ||
            s->live != a->step)
            return false;
        s->slot[a->slot] = a->step + 1;
        s->st.stores++;
        if (++s->held > s->st.peak_slots)
            s->st.peak_slots = s->held;
        return true;
    case UTURN_OP_RESTORE:
        if (a->slot >= s->capacity || s->slot[a->slot] != a->step + 1)
            return false;
        s->live = a->step;
        s->st.restores++;
        return true;
    case UTURN_OP_FREE:
        if (a->slot >= s->capacity || s->slot[a->slot] == 0)
            return false;
        s->slot[a->slot] = 0;
        s->held--;
        s->st.frees++;
        return true;
    case UTURN_OP_TURN:
        if (s->turned || s->live != s->n)
            return false;
        s->turned = true;
        return true;
    case UTURN_OP_REVERSE:
        if (!s->turned || s->next_reverse == 0 ||
            a->step != s->next_reverse - 1 || s->live != a->step)
            return false;
        s->next_reverse--;
        s->st.reverse_steps++;
        s->live = NONE;
        return true;
    case UTURN_OP_PERSIST: /* only in plans of several sweeps */
        return false;
    }
    return false;
}

/* Count plan's stream; every rule must hold and the plan must end clean. */
static void simulate(const uturn_plan_t *plan, uturn_stats_t *out)
{
    uturn_stats_t pred;
    uturn_stats_init(&pred);
    cr_assert_eq(uturn_plan_stats(plan, &pred), UTURN_OK);
    struct sim s;
    memset(&s, 0, sizeof s);
    s.n            = pred.steps;
    s.capacity     = pred.slots;
    s.slot_bytes   = pred.slot_bytes;
    s.next_reverse = s.n;
    s.slot         = calloc(s.capacity, sizeof *s.slot);
    cr_assert_not_null(s.slot);
    uturn_cursor_t *c = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t a;
    while (uturn_cursor_next(c, &a))
        cr_assert(sim_step(&s, &a),
                  "n=%llu: action %llu (op %d %llu %llu "
                  "%llu) breaks a rule",
                  ULL(s.n), ULL(s.st.actions - 1), (int)a.op, ULL(a.step),
                  ULL(a.step_end), ULL(a.slot));
    uturn_cursor_free(c);
    cr_assert(s.turned && s.next_reverse == 0 && s.held == 0,
              "n=%llu: plan ends unfinished", ULL(s.n));
    free(s.slot);
    s.st.peak_bytes = s.st.peak_slots * s.slot_bytes;
    *out            = s.st;
}

/* ---- the check ------------------------------------------------------------
 */

static void expect_no_leak(const counting_alloc_t *c)
{
    cr_assert_eq(c->live_blocks, 0, "%llu blocks leaked", ULL(c->live_blocks));
    cr_assert_eq(c->size_mismatches, 0);
}

static void check_plan(const uturn_problem_t *p, const uturn_allocator_t *alloc)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const char *name = uturn_planner_name(p->planner);
    cr_assert_eq(uturn_plan_create(p, alloc, &plan, &err), UTURN_OK,
                 "%s n=%llu slots=%llu stride=%llu: %s", name, ULL(p->steps),
                 ULL(p->slots), ULL(p->stride), err.message);
    uturn_stats_t pred, seen, mine;
    uturn_stats_init(&pred);
    uturn_stats_init(&seen);
    cr_assert_eq(uturn_plan_stats(plan, &pred), UTURN_OK);
    cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK,
                 "%s n=%llu slots=%llu stride=%llu: %s", name, ULL(p->steps),
                 ULL(p->slots), ULL(p->stride), err.message);
    simulate(plan, &mine);
#define SAME3(field)                                                           \
    do {                                                                       \
        cr_assert_eq(seen.field, pred.field,                                   \
                     "%s n=%llu slots=%llu stride=%llu " #field                \
                     ": walk %llu predicted %llu",                             \
                     name, ULL(p->steps), ULL(p->slots), ULL(p->stride),       \
                     ULL(seen.field), ULL(pred.field));                        \
        cr_assert_eq(mine.field, pred.field,                                   \
                     "%s n=%llu slots=%llu stride=%llu " #field                \
                     ": simulated %llu predicted %llu",                        \
                     name, ULL(p->steps), ULL(p->slots), ULL(p->stride),       \
                     ULL(mine.field), ULL(pred.field));                        \
    } while (0)
    SAME3(forward_steps);
    SAME3(stores);
    SAME3(restores);
    SAME3(frees);
    SAME3(reverse_steps);
    SAME3(peak_slots);
    SAME3(peak_bytes);
    SAME3(actions);
#undef SAME3
#define SAME(field) cr_assert_eq(seen.field, pred.field, #field)
    SAME(steps);
    SAME(recomputed_steps);
    SAME(slots);
    SAME(slot_bytes);
    SAME(budget_bytes);
    SAME(forward_cost);
    SAME(recompute_cost);
#undef SAME
    cr_assert_eq(pred.steps, p->steps);
    cr_assert_eq(pred.reverse_steps, p->steps);
    cr_assert_eq(pred.recomputed_steps, pred.forward_steps - p->steps);
    cr_assert_eq(pred.forward_cost, pred.forward_steps);
    cr_assert_eq(pred.recompute_cost, pred.recomputed_steps);
    cr_assert_float_eq(pred.recompute_factor,
                       (double)pred.forward_steps / (double)p->steps, 1e-12);
    cr_assert_float_eq(seen.recompute_factor, pred.recompute_factor, 1e-12);
    if (p->slot_bytes != 0)
        cr_assert_eq(pred.peak_bytes, pred.peak_slots * p->slot_bytes);
    if (p->slots != 0)
        cr_assert_leq(pred.peak_slots, p->slots);
    uturn_plan_free(plan);
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

/* Every planner and setting for one n. */
static void grid_n(uint64_t n, bool every_stride, const uturn_allocator_t *a)
{
    uturn_problem_t p;
    problem(&p, UTURN_PLANNER_STORE_ALL, n, 0, 0, 8);
    check_plan(&p, a);
    problem(&p, UTURN_PLANNER_STORE_ALL, n, n + 2, 0, 0);
    check_plan(&p, a);
    problem(&p, UTURN_PLANNER_SQRT, n, 0, 0, 40);
    check_plan(&p, a);
    const uint64_t k_step = every_stride ? 1 : n / 17 + 1;
    for (uint64_t k = 1; k <= n; k += k_step) {
        problem(&p, UTURN_PLANNER_PERIODIC, n, 0, k, 24);
        check_plan(&p, a);
    }
    problem(&p, UTURN_PLANNER_PERIODIC, n, 0, n, 24);
    check_plan(&p, a);
    for (uint64_t s = 1; s <= n + 2; s += every_stride ? 1 : n / 13 + 1) {
        problem(&p, UTURN_PLANNER_REVOLVE, n, s, 0, 16);
        check_plan(&p, a);
        uturn_plan_t *plan = NULL;
        problem(&p, UTURN_PLANNER_PERIODIC, n, s, 0, 0);
        if (uturn_plan_create(&p, NULL, &plan, NULL) == UTURN_OK) {
            uturn_plan_free(plan);
            check_plan(&p, a);
        }
    }
    /* capacity from a byte budget */
    problem(&p, UTURN_PLANNER_REVOLVE, n, 0, 0, 100);
    p.budget_bytes = 100 * (n / 3 + 1) + 99;
    check_plan(&p, a);
}

Test(walk, all_planners_n_1_to_60)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (uint64_t n = 1; n <= 60; n++)
        grid_n(n, true, &alloc);
    expect_no_leak(&counts);
}

Test(walk, all_planners_larger_n)
{
    static const uint64_t ns[]    = {64, 127, 1000, 4097};
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        grid_n(ns[i], false, &alloc);
    expect_no_leak(&counts);
}

Test(walk, revolve_few_slots_large_n)
{
    static const uint64_t ss[] = {1, 2, 3, 5, 8, 13, 30};
    uturn_problem_t p;
    for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++) {
        problem(&p, UTURN_PLANNER_REVOLVE, 20000, ss[i], 0, 4096);
        check_plan(&p, NULL);
    }
}

/* ---- cursors --------------------------------------------------------------
 */

static uturn_plan_t *plan_of(uturn_planner_t planner, uint64_t n,
                             uint64_t slots, uint64_t stride,
                             const uturn_allocator_t *alloc)
{
    uturn_problem_t p;
    problem(&p, planner, n, slots, stride, 0);
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, alloc, &plan, NULL), UTURN_OK);
    return plan;
}

static bool same_action(const uturn_action_t *x, const uturn_action_t *y)
{
    return x->op == y->op && x->step == y->step && x->step_end == y->step_end &&
           x->slot == y->slot;
}

Test(cursor, two_cursors_same_stream)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_plan_t *plans[]         = {
                plan_of(UTURN_PLANNER_STORE_ALL, 77, 0, 0, &alloc),
                plan_of(UTURN_PLANNER_PERIODIC, 300, 0, 7, &alloc),
                plan_of(UTURN_PLANNER_SQRT, 1000, 0, 0, &alloc),
                plan_of(UTURN_PLANNER_REVOLVE, 1000, 6, 0, &alloc),
    };
    for (size_t i = 0; i < 4; i++) {
        uturn_stats_t st;
        uturn_stats_init(&st);
        cr_assert_eq(uturn_plan_stats(plans[i], &st), UTURN_OK);
        uturn_cursor_t *a = NULL, *b = NULL;
        cr_assert_eq(uturn_cursor_create(plans[i], NULL, &a), UTURN_OK);
        /* the second cursor starts later and uses its own allocator */
        uturn_action_t x, y;
        uint64_t count = 0;
        for (int skip = 0; skip < 5; skip++) {
            cr_assert(uturn_cursor_next(a, &x));
            count++;
        }
        cr_assert_eq(uturn_cursor_create(plans[i], &alloc, &b), UTURN_OK);
        uturn_cursor_t *c = NULL;
        cr_assert_eq(uturn_cursor_create(plans[i], NULL, &c), UTURN_OK);
        for (int skip = 0; skip < 5; skip++) {
            cr_assert(uturn_cursor_next(b, &y));
        }
        uint64_t index = count;
        for (;;) {
            const bool more_a = uturn_cursor_next(a, &x);
            const bool more_b = uturn_cursor_next(b, &y);
            cr_assert_eq(more_a, more_b, "plan %zu, action %llu", i,
                         ULL(index));
            if (!more_a)
                break;
            cr_assert(same_action(&x, &y), "plan %zu, action %llu", i,
                      ULL(index));
            index++;
        }
        cr_assert_eq(index, st.actions, "plan %zu: %llu actions, stats %llu", i,
                     ULL(index), ULL(st.actions));
        /* a third cursor from the start matches a fresh walk of a again */
        uturn_cursor_t *d = NULL;
        cr_assert_eq(uturn_cursor_create(plans[i], NULL, &d), UTURN_OK);
        uint64_t n = 0;
        while (uturn_cursor_next(c, &x)) {
            cr_assert(uturn_cursor_next(d, &y));
            cr_assert(same_action(&x, &y));
            n++;
        }
        cr_assert_not(uturn_cursor_next(d, &y));
        cr_assert_eq(n, st.actions);
        uturn_cursor_free(a);
        uturn_cursor_free(b);
        uturn_cursor_free(c);
        uturn_cursor_free(d);
    }
    for (size_t i = 0; i < 4; i++)
        uturn_plan_free(plans[i]);
    expect_no_leak(&counts);
}

Test(cursor, stays_at_end)
{
    uturn_plan_t *plan = plan_of(UTURN_PLANNER_REVOLVE, 5, 2, 0, NULL);
    uturn_cursor_t *c  = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t a, last;
    memset(&last, 0, sizeof last);
    uint64_t count = 0;
    while (uturn_cursor_next(c, &a)) {
        last = a;
        count++;
    }
    cr_assert_gt(count, 0);
    /* The last action of any complete plan is reverse 0 or free. */
    cr_assert(last.op == UTURN_OP_FREE ||
              (last.op == UTURN_OP_REVERSE && last.step == 0));
    for (int i = 0; i < 100; i++) {
        uturn_action_t untouched;
        memset(&untouched, 0x5a, sizeof untouched);
        uturn_action_t copy = untouched;
        cr_assert_not(uturn_cursor_next(c, &untouched));
        cr_assert_eq(memcmp(&copy, &untouched, sizeof copy), 0,
                     "the action was written after the end");
    }
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}

Test(cursor, store_all_stream_by_hand)
{
    /* n = 2 store-all, written out from docs/model.md section 2. */
    static const uturn_action_t want[] = {
        {UTURN_OP_STORE, 0, 0, 0},   {UTURN_OP_ADVANCE, 0, 1, 0},
        {UTURN_OP_STORE, 1, 0, 1},   {UTURN_OP_ADVANCE, 1, 2, 0},
        {UTURN_OP_TURN, 0, 0, 0},    {UTURN_OP_RESTORE, 1, 0, 1},
        {UTURN_OP_REVERSE, 1, 0, 0}, {UTURN_OP_FREE, 0, 0, 1},
        {UTURN_OP_RESTORE, 0, 0, 0}, {UTURN_OP_REVERSE, 0, 0, 0},
        {UTURN_OP_FREE, 0, 0, 0},
    };
    uturn_plan_t *plan = plan_of(UTURN_PLANNER_STORE_ALL, 2, 0, 0, NULL);
    uturn_cursor_t *c  = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t a;
    size_t i = 0;
    while (uturn_cursor_next(c, &a)) {
        cr_assert_lt(i, sizeof want / sizeof want[0]);
        cr_assert(same_action(&a, &want[i]), "action %zu: op %d", i, (int)a.op);
        i++;
    }
    cr_assert_eq(i, sizeof want / sizeof want[0]);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}

Test(cursor, bad_arguments)
{
    uturn_cursor_t *c = (uturn_cursor_t *)&c;
    cr_assert_eq(uturn_cursor_create(NULL, NULL, &c), UTURN_E_INVALID_ARG);
    cr_assert_null(c);
    uturn_plan_t *plan = plan_of(UTURN_PLANNER_SQRT, 9, 0, 0, NULL);
    cr_assert_eq(uturn_cursor_create(plan, NULL, NULL), UTURN_E_INVALID_ARG);
    uturn_cursor_free(NULL);
    uturn_plan_free(NULL);
    cr_assert_eq(uturn_plan_walk(NULL, NULL, NULL), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_plan_walk(plan, NULL, NULL), UTURN_OK);
    uturn_stats_t st;
    cr_assert_eq(uturn_plan_stats(NULL, &st), UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_plan_stats(plan, NULL), UTURN_E_INVALID_ARG);
    uturn_plan_free(plan);
}

/* A cursor or walk that cannot get memory says so and leaks nothing. */
Test(cursor, out_of_memory)
{
    counting_alloc_t counts = {0};
    uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_plan_t *plan      = plan_of(UTURN_PLANNER_REVOLVE, 100, 4, 0, &alloc);
    counts.fail_at          = counts.total_allocs + 1;
    uturn_cursor_t *c       = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_E_NOMEM);
    cr_assert_null(c);
    for (uint64_t k = 1; k <= 3; k++) {
        counts.fail_at = counts.total_allocs + k;
        uturn_error_t err;
        uturn_error_init(&err);
        const uturn_status_t st = uturn_plan_walk(plan, NULL, &err);
        cr_assert(st == UTURN_E_NOMEM || st == UTURN_OK, "%s",
                  uturn_status_name(st));
        if (st == UTURN_E_NOMEM)
            cr_assert_eq(err.status, UTURN_E_NOMEM);
    }
    counts.fail_at = 0;
    uturn_plan_free(plan);
    expect_no_leak(&counts);
}

/* ---- size-aware structs ----------------------------------------------------
 */

/* A caller built against an older, shorter uturn_stats_t gets only the
 * fields it knows; the bytes after them stay untouched. */
Test(walk, stats_honour_size)
{
    uturn_plan_t *plan = plan_of(UTURN_PLANNER_REVOLVE, 100, 5, 0, NULL);
    const size_t old   = offsetof(uturn_stats_t, peak_slots);
    union {
        uturn_stats_t st;
        unsigned char bytes[sizeof(uturn_stats_t)];
    } u;
    memset(&u, 0xa5, sizeof u);
    u.st.size = old;
    cr_assert_eq(uturn_plan_stats(plan, &u.st), UTURN_OK);
    cr_assert_eq(u.st.steps, 100);
    cr_assert_eq(u.st.forward_steps, 320);
    for (size_t i = old; i < sizeof u.bytes; i++)
        cr_assert_eq(u.bytes[i], 0xa5, "byte %zu was written", i);

    memset(&u, 0xa5, sizeof u);
    u.st.size = old;
    cr_assert_eq(uturn_plan_walk(plan, &u.st, NULL), UTURN_OK);
    cr_assert_eq(u.st.forward_steps, 320);
    for (size_t i = old; i < sizeof u.bytes; i++)
        cr_assert_eq(u.bytes[i], 0xa5, "byte %zu was written by the walk", i);
    uturn_plan_free(plan);
}
