/*
 * Online plans on a byte budget whose sizes come as the run goes, where
 * the budget holds more than the 256 states the online family plans:
 * the plan takes every slot the budget holds at x_1's size (its state
 * grows there) and gives slots up as larger states come.
 *
 * Truth used: with every state the same size the plan must be the
 * uniform online plan of as many slots, action for action (a second,
 * independently tested planner); while every state fits nothing is
 * recomputed (forward steps = n); with sizes that grow or jump, every
 * action is checked by the validator and the bytes held (each state at
 * its own size, counted here) never pass the budget; the executor's
 * gradient is store-all's bit for bit.
 */
#include "counting_alloc.h"
#include "online_drive.h"

#include <criterion/criterion.h>
#include <stdlib.h>

/* after Criterion, whose asserts its callbacks use */
#include "sized_model.h"

typedef uint64_t (*size_fn)(uint64_t step);

struct drive {
    uint64_t n, budget;
    size_fn size;
    size_t read_cap; /* actions per cursor read */
};

struct driven {
    uturn_action_t *acts; /* every action, in order */
    size_t count, cap;
    uint64_t forward, peak_bytes, most_slots;
    uturn_stats_t cursor;
};

static void keep(struct driven *d, const uturn_action_t *a, size_t n)
{
    if (d->count + n > d->cap) {
        d->cap  = 2 * (d->count + n);
        d->acts = realloc(d->acts, d->cap * sizeof *d->acts);
        cr_assert_not_null(d->acts);
    }
    memcpy(d->acts + d->count, a, n * sizeof *a);
    d->count += n;
}

/* The bytes held: each held slot's state at its own size. */
struct held {
    uint64_t *step_of; /* slot -> step + 1, 0: empty */
    uint64_t slots, bytes, count;
};

static void account(struct held *h, const struct drive *dr, struct driven *d,
                    const uturn_action_t *a)
{
    if (a->op == UTURN_OP_STORE) {
        cr_assert_lt(a->slot, h->slots);
        h->step_of[a->slot] = a->step + 1;
        h->bytes += dr->size(a->step);
        h->count += 1;
        cr_assert_leq(h->bytes, dr->budget, "%llu bytes held at x_%llu",
                      (unsigned long long)h->bytes,
                      (unsigned long long)a->step);
    } else if (a->op == UTURN_OP_FREE) {
        cr_assert_lt(a->slot, h->slots);
        cr_assert_neq(h->step_of[a->slot], 0);
        h->bytes -= dr->size(h->step_of[a->slot] - 1);
        h->count -= 1;
        h->step_of[a->slot] = 0;
    }
    d->peak_bytes = h->bytes > d->peak_bytes ? h->bytes : d->peak_bytes;
    d->most_slots = h->count > d->most_slots ? h->count : d->most_slots;
}

/* The first index where two streams differ (field by field: an action's
 * padding is not part of it), or the shorter's length. */
static size_t first_difference(const struct driven *a, const struct driven *b)
{
    const size_t n = a->count < b->count ? a->count : b->count;
    for (size_t i = 0; i < n; i++) {
        const uturn_action_t *x = &a->acts[i], *y = &b->acts[i];
        if (x->op != y->op || x->step != y->step ||
            x->step_end != y->step_end || x->slot != y->slot)
            return i;
    }
    return n;
}

static uturn_plan_t *bytes_plan(uint64_t budget)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.budget_bytes     = budget;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    return plan;
}

/* After a read that ends at advance m-1 m: the end at n, else x_m's
 * size (bytes mode). */
static void told(uturn_cursor_t *c, uturn_validator_t *v,
                 const struct drive *dr, uint64_t m)
{
    if (m == dr->n) {
        cr_assert_eq(uturn_cursor_end(c), UTURN_OK);
        cr_assert_eq(uturn_validator_set_steps(v, dr->n, NULL), UTURN_OK);
    } else if (dr->size != NULL) {
        cr_assert_eq(uturn_cursor_set_size(c, m, dr->size(m)), UTURN_OK,
                     "x_%llu", (unsigned long long)m);
    }
}

/* Drive a plan of @p plan (bytes mode when dr->size) through a cursor,
 * every action validated and kept. */
static struct driven drive(const uturn_plan_t *plan, const struct drive *dr)
{
    struct driven d = {0};
    uturn_stats_t ps;
    uturn_stats_init(&ps);
    cr_assert_eq(uturn_plan_stats(plan, &ps), UTURN_OK);
    uturn_problem_t vp;
    uturn_problem_init(&vp);
    vp.slots             = ps.slots;
    uturn_validator_t *v = NULL;
    uturn_cursor_t *c    = NULL;
    cr_assert_eq(uturn_validator_create(&vp, NULL, &v, NULL), UTURN_OK);
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    struct held h = {calloc(ps.slots, sizeof(uint64_t)), ps.slots, 0, 0};
    cr_assert_not_null(h.step_of);
    if (dr->size != NULL)
        cr_assert_eq(uturn_cursor_set_size(c, 0, dr->size(0)), UTURN_OK);
    uturn_action_t batch[64];
    size_t got = 0;
    bool ended = false;
    uturn_error_t err;
    uturn_error_init(&err);
    while (uturn_cursor_read(c, batch, dr->read_cap, &got) == UTURN_OK &&
           got > 0) {
        for (size_t i = 0; i < got; i++) {
            cr_assert_eq(uturn_validator_push(v, &batch[i], &err), UTURN_OK,
                         "%s", err.message);
            if (dr->size != NULL)
                account(&h, dr, &d, &batch[i]);
        }
        keep(&d, batch, got);
        /* In the first sweep a read that ends at an advance stops there. */
        const uturn_action_t *last = &batch[got - 1];
        if (!ended && last->op == UTURN_OP_ADVANCE) {
            told(c, v, dr, last->step_end);
            ended = last->step_end == dr->n;
        }
    }
    cr_assert(ended);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    cr_assert_eq(uturn_validator_finish(v, &seen, &err), UTURN_OK, "%s",
                 err.message);
    d.forward = seen.forward_steps;
    uturn_stats_init(&d.cursor);
    cr_assert_eq(uturn_cursor_stats(c, &d.cursor), UTURN_OK);
    cr_assert_eq(d.cursor.forward_steps, d.forward);
    cr_assert_eq(d.cursor.steps, dr->n);
    free(h.step_of);
    uturn_cursor_free(c);
    uturn_validator_free(v);
    return d;
}

#define Z 24 /* bytes of every state, when they are all alike */

static uint64_t same_size(uint64_t step)
{
    (void)step;
    return Z;
}

/* With every state Z bytes and a budget of s states (and Z - 1 bytes to
 * spare), the plan is the uniform online plan of s slots, action for
 * action, whatever n is; with n <= s it recomputes nothing. */
static void same_as_uniform(uint64_t s, uint64_t n)
{
    const struct drive dr = {n, s * Z + Z - 1, same_size, 64};
    uturn_plan_t *bp      = bytes_plan(dr.budget);
    uturn_plan_t *up      = od_plan(s, 0);
    const struct drive du = {n, 0, NULL, 64};
    struct driven b = drive(bp, &dr), u = drive(up, &du);
    cr_assert_eq(b.count, u.count, "s %llu n %llu", (unsigned long long)s,
                 (unsigned long long)n);
    cr_assert_eq(first_difference(&b, &u), b.count,
                 "s %llu n %llu: the streams differ at action %zu",
                 (unsigned long long)s, (unsigned long long)n,
                 first_difference(&b, &u));
    if (n <= s)
        cr_assert_eq(b.forward, n, "s %llu n %llu: %llu forward steps",
                     (unsigned long long)s, (unsigned long long)n,
                     (unsigned long long)b.forward);
    cr_assert_leq(b.peak_bytes, dr.budget);
    free(b.acts);
    free(u.acts);
    uturn_plan_free(bp);
    uturn_plan_free(up);
}

Test(online_bytes, alike_sizes_give_the_uniform_plan_of_as_many_slots,
     .timeout = 120)
{
    const uint64_t ss[] = {257, 1000, 10000};
    for (size_t i = 0; i < 3; i++) {
        const uint64_t s    = ss[i];
        const uint64_t ns[] = {
            1, 2,     s / 2,     s - 1,
            s, s + 1, 3 * s + 7, s < 2000 ? s * s / 3 : 30011};
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
            same_as_uniform(s, ns[j]);
    }
}

/* States of 0 bytes (legal through the cursor): every state counts as
 * a byte but x_0, so a budget of 1000 holds 1001 of them, and the plan
 * names no slot past its stats.slots (an outside review found slot 1000
 * named with 1000 slots). */
static uint64_t no_size(uint64_t step)
{
    (void)step;
    return 0;
}

Test(online_bytes, states_of_no_size_stay_within_the_plans_slots)
{
    uturn_plan_t *plan = bytes_plan(1000);
    uturn_stats_t st;
    uturn_stats_init(&st);
    uturn_plan_stats(plan, &st);
    cr_assert_eq(st.slots, 1001);
    for (uint64_t n = 1000; n <= 1100; n += 50) {
        const struct drive dr = {n, 1000, no_size, 64};
        struct driven d       = drive(plan, &dr); /* slots checked there */
        if (n <= 1001)
            cr_assert_eq(d.forward, n);
        free(d.acts);
    }
    uturn_plan_free(plan);
}

/* 2^20 states of one byte: each is stored, none recomputed (the online
 * family planned at most 256 of them). */
Test(online_bytes, a_budget_of_2_to_the_20_states_recomputes_nothing,
     .timeout = 120)
{
    const uint64_t s      = (uint64_t)1 << 20;
    const struct drive dr = {s, s, NULL, 64};
    uturn_plan_t *plan    = bytes_plan(s);
    uturn_cursor_t *c     = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    cr_assert_eq(uturn_cursor_set_size(c, 0, 1), UTURN_OK);
    uturn_action_t a;
    uint64_t stores = 0, forward = 0;
    while (uturn_cursor_next(c, &a)) {
        stores += a.op == UTURN_OP_STORE;
        forward += a.op == UTURN_OP_ADVANCE ? a.step_end - a.step : 0;
        if (a.op != UTURN_OP_ADVANCE || a.step_end != a.step + 1 ||
            forward != a.step_end)
            continue;
        if (a.step_end == dr.n)
            cr_assert_eq(uturn_cursor_end(c), UTURN_OK);
        else
            cr_assert_eq(uturn_cursor_set_size(c, a.step_end, 1), UTURN_OK);
    }
    cr_assert_eq(forward, s, "%llu forward steps", (unsigned long long)forward);
    cr_assert_eq(stores, s, "x_0 .. x_{n-1} each stored once");
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}

/* Sizes that grow from 16 bytes by one every 8 steps, or jump from 16 to
 * 1600 bytes for a stretch: the plan starts with 2000 slots and gives
 * them up as the states grow; every action valid, never more bytes held
 * than the budget, and reads of 4 actions give the stream reads of 64
 * give (the frees of a fall come over several reads). */
static uint64_t growing(uint64_t step)
{
    return 16 + step / 8;
}

static uint64_t jumping(uint64_t step)
{
    return step >= 1500 && step < 2500 ? 1600 : 16;
}

static void sizes_that_change(size_fn size, uint64_t n)
{
    const uint64_t budget = 2000 * 16;
    uturn_plan_t *plan    = bytes_plan(budget);
    const struct drive d4 = {n, budget, size, 4}, d64 = {n, budget, size, 64};
    struct driven a = drive(plan, &d4), b = drive(plan, &d64);
    cr_assert_eq(a.count, b.count);
    cr_assert_eq(first_difference(&a, &b), a.count);
    cr_assert_leq(a.peak_bytes, budget);
    cr_assert_gt(a.most_slots, 256, "past the family's 256: %llu",
                 (unsigned long long)a.most_slots);
    cr_assert_gt(a.forward, n, "the states outgrew the budget");
    free(a.acts);
    free(b.acts);
    uturn_plan_free(plan);
}

Test(online_bytes, growing_states_never_pass_the_budget, .timeout = 120)
{
    sizes_that_change(growing, 6000);
}

Test(online_bytes, a_jump_in_size_frees_slots_and_keeps_the_budget,
     .timeout = 120)
{
    sizes_that_change(jumping, 4000);
}

/* The executor: a model whose state is 4 doubles, then 64 for steps 300
 * to 599, then 4 again (tests/support/sized_model.h); a budget of 500
 * small states. Its gradient is store-all's bit for bit, and neither the
 * plan nor the memory the run held passes the budget. */
static uint64_t jm_len(uint64_t step)
{
    return step >= 300 && step < 600 ? 64 : 4;
}

Test(online_bytes, the_executor_gets_store_alls_gradient_within_the_budget)
{
    const uint64_t n = 1000, budget = 500 * 4 * sizeof(double);
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(NULL, &ex, NULL), UTURN_OK);
    double want[64], got[64];
    sz_store_all(ex, n, jm_len, want);
    uturn_stats_t seen;
    uturn_report_t rep;
    uturn_plan_t *plan = bytes_plan(budget);
    uturn_stats_init(&seen);
    uturn_report_init(&rep);
    sz_run(ex, plan, n, jm_len, NULL, got, &seen, &rep);
    cr_assert_eq(memcmp(got, want, sizeof want), 0);
    cr_assert_eq(seen.steps, n);
    cr_assert_gt(seen.peak_slots, 256, "%llu slots held at most",
                 (unsigned long long)seen.peak_slots);
    cr_assert_gt(seen.forward_steps, n);
    cr_assert_leq(seen.peak_bytes, budget);
    cr_assert_leq(rep.measured_peak_bytes, budget);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
}

/* The larger state at x_1 cannot be had: set_size says so (NOMEM), the
 * plan stops (no further action), and nothing leaks; the sizes of every
 * free match their allocation's, the grown state's included. */
Test(online_bytes, no_memory_for_the_larger_state_stops_the_plan)
{
    for (uint64_t fail = 0; fail <= 1; fail++) {
        counting_alloc_t counts   = {0};
        const uturn_allocator_t a = counting_allocator(&counts);
        uturn_plan_t *plan        = bytes_plan(100000 * Z);
        uturn_cursor_t *c         = NULL;
        cr_assert_eq(uturn_cursor_create(plan, &a, &c), UTURN_OK);
        counts.fail_at = fail != 0 ? counts.total_allocs + 1 : 0;
        cr_assert_eq(uturn_cursor_set_size(c, 0, Z), UTURN_OK);
        uturn_action_t act;
        for (int i = 0; i < 3; i++) /* store 0 0, advance 0 1 */
            cr_assert(i == 2 || uturn_cursor_next(c, &act));
        cr_assert_eq(uturn_cursor_set_size(c, 1, Z),
                     fail != 0 ? UTURN_E_NOMEM : UTURN_OK);
        cr_assert_eq(uturn_cursor_next(c, &act), fail == 0,
                     "the plan goes on only with its state");
        uturn_cursor_free(c);
        uturn_plan_free(plan);
        cr_assert_eq(counts.live_blocks, 0);
        cr_assert_eq(counts.size_mismatches, 0);
    }
}

/* A stream that cannot be generated ahead of a run is refused before a
 * byte is written: on a byte budget (the sizes come as the run goes:
 * before, an empty plan cut short and UTURN_OK), and without max_steps
 * (before, uturn_plan_write wrote forever); uturn_plan_walk the same. */
Test(online_bytes, plans_that_cannot_be_written_ahead_are_refused)
{
    uturn_plan_t *bytes  = bytes_plan(1000 * Z);
    uturn_plan_t *open_s = od_plan(10, 0), *closed = od_plan(10, 40);
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_plan_write(bytes, f, &e), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(e.message, "size") != NULL, "%s", e.message);
    cr_assert_eq(uturn_plan_walk(bytes, NULL, &e), UTURN_E_UNSUPPORTED);
    cr_assert_eq(uturn_plan_write(open_s, f, &e), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(e.message, "max_steps") != NULL, "%s", e.message);
    cr_assert_eq(ftell(f), 0, "nothing written");
    cr_assert_eq(uturn_plan_write(closed, f, &e), UTURN_OK, "%s", e.message);
    cr_assert_gt(ftell(f), 0);
    fclose(f);
    uturn_plan_free(bytes);
    uturn_plan_free(open_s);
    uturn_plan_free(closed);
}

/* A read before x_0's size stops the plan for good: no action, and a
 * size given afterwards is refused rather than taken in silence. */
Test(online_bytes, a_read_before_the_first_size_stops_the_plan)
{
    uturn_plan_t *plan = bytes_plan(1000 * Z);
    uturn_cursor_t *c  = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t a;
    cr_assert(!uturn_cursor_next(c, &a));
    cr_assert_eq(uturn_cursor_set_size(c, 0, Z), UTURN_E_INVALID_ARG);
    cr_assert(!uturn_cursor_next(c, &a));
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}

/* The status of a read that finds no action: UTURN_OK at the end of the
 * plan only; where the plan stopped before its end was said, why: a size
 * not given (INVALID_ARG; it was UTURN_OK with count 0, the end, so that
 * a C loop simply stopped with no turn), the refusal of a size
 * (INFEASIBLE: x_0 past the budget; NOMEM in the test above); and so on
 * every later read. Levels past their reach: test_online_disk. */
static uturn_status_t empty_read(uturn_cursor_t *c)
{
    uturn_action_t a[8];
    size_t count            = 99;
    const uturn_status_t st = uturn_cursor_read(c, a, 8, &count);
    cr_assert_eq(count, 0);
    return st;
}

Test(online_bytes, a_read_that_finds_nothing_says_why)
{
    uturn_plan_t *plan = bytes_plan(1000 * Z);
    uturn_cursor_t *c  = NULL;
    uturn_action_t a;
    /* x_1's size never given */
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    cr_assert_eq(uturn_cursor_set_size(c, 0, Z), UTURN_OK);
    cr_assert(uturn_cursor_next(c, &a) && a.op == UTURN_OP_STORE);
    cr_assert(uturn_cursor_next(c, &a) && a.op == UTURN_OP_ADVANCE);
    cr_assert(!uturn_cursor_next(c, &a));
    cr_assert_eq(empty_read(c), UTURN_E_INVALID_ARG);
    cr_assert_eq(empty_read(c), UTURN_E_INVALID_ARG, "and stays so");
    uturn_cursor_free(c);
    /* x_0 past the budget */
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    cr_assert_eq(uturn_cursor_set_size(c, 0, 2000 * Z), UTURN_E_INFEASIBLE);
    cr_assert_eq(empty_read(c), UTURN_E_INFEASIBLE);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
    /* the end of a plan: UTURN_OK */
    plan = od_plan(10, 40);
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t batch[256];
    size_t count      = 0;
    uturn_status_t st = UTURN_OK;
    while ((st = uturn_cursor_read(c, batch, 256, &count)) == UTURN_OK &&
           count > 0)
        ;
    cr_assert_eq(st, UTURN_OK);
    cr_assert_eq(empty_read(c), UTURN_OK);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}
