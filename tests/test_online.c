/*
 * The online planner against independent truth: every realised plan is
 * valid for a validator told n only at the end; exactly t(n+1, s) (the
 * closed form of docs/model.md section 4, computed here) for every
 * n <= (s+1)(s+2)/2; the first sweep does not depend on n (N against
 * N + 1000); the executor runs a model that stops on a criterion only it
 * knows and gets the store-all gradient bit for bit, with step records
 * and with states whose sizes arrive as the run goes; stats, fingerprints
 * and refusals. The full sweep (every n <= 2000, s <= 40) is
 * tests/online_sweep.c.
 */
#define _GNU_SOURCE /* mkdtemp */
#include "online_drive.h"
#include "online_stopper.h"
#include "same_actions.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

/* after Criterion, whose asserts its callbacks use */
#include "sized_model.h"

Test(online, exactly_the_offline_optimum_up_to_the_first_band)
{
    for (uint64_t s = 1; s <= 40; s++) {
        uturn_plan_t *plan = od_plan(s, 0);
        cr_assert_not_null(plan);
        const uint64_t band = (s + 1) * (s + 2) / 2;
        for (uint64_t n = 1; n <= band; n++) {
            const struct od_result r = od_drive(plan, n, NULL, 0, NULL);
            cr_assert_eq(r.status, UTURN_OK, "s %llu n %llu: %s",
                         (unsigned long long)s, (unsigned long long)n,
                         r.message);
            cr_assert_eq(r.forward_steps, od_t(n + 1, s),
                         "s %llu n %llu: %llu forward steps, optimum %llu",
                         (unsigned long long)s, (unsigned long long)n,
                         (unsigned long long)r.forward_steps,
                         (unsigned long long)od_t(n + 1, s));
            cr_assert_leq(r.peak_slots, s);
        }
        uturn_plan_free(plan);
    }
}

Test(online, the_first_sweep_does_not_depend_on_n)
{
    const uint64_t slots[] = {2, 3, 5, 10, 20};
    const uint64_t ends[]  = {7, 64, 333, 1500};
    enum { CAP = 8192 };
    uturn_action_t *a = calloc(CAP, sizeof *a), *b = calloc(CAP, sizeof *b);
    for (size_t i = 0; i < 5; i++) {
        uturn_plan_t *plan = od_plan(slots[i], 0);
        for (size_t j = 0; j < 4; j++) {
            size_t na = 0, nb = 0;
            const uint64_t n = ends[j];
            cr_assert_eq(od_drive(plan, n, a, CAP, &na).status, UTURN_OK);
            cr_assert_eq(od_drive(plan, n + 1000, b, CAP, &nb).status,
                         UTURN_OK);
            /* Up to and including advance n-1 n, the same actions. */
            cr_assert_leq(na, nb);
            cr_assert_eq(first_difference(a, b, na), na,
                         "s %llu: the sweeps for %llu and %llu differ",
                         (unsigned long long)slots[i], (unsigned long long)n,
                         (unsigned long long)(n + 1000));
        }
        uturn_plan_free(plan);
    }
    free(a);
    free(b);
}

/* @p plan read through a cursor, the end said right after advance
 * n-1 n (each first-sweep read ends at its advance); the cursor's
 * realised counts into *got. */
static void cursor_ended_at(const uturn_plan_t *plan, uint64_t n,
                            uturn_stats_t *got)
{
    uturn_cursor_t *c = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t a[64];
    size_t count = 0;
    bool ended   = false;
    while (uturn_cursor_read(c, a, 64, &count) == UTURN_OK && count > 0)
        if (!ended && a[count - 1].op == UTURN_OP_ADVANCE &&
            a[count - 1].step_end == n) {
            cr_assert_eq(uturn_cursor_end(c), UTURN_OK);
            ended = true;
        }
    cr_assert(ended);
    uturn_stats_init(got);
    cr_assert_eq(uturn_cursor_stats(c, got), UTURN_OK);
    uturn_cursor_free(c);
}

Test(online, stats_before_the_end_say_online_and_no_steps)
{
    uturn_plan_t *plan = od_plan(7, 0);
    uturn_stats_t s;
    uturn_stats_init(&s);
    cr_assert_eq(uturn_plan_stats(plan, &s), UTURN_OK);
    cr_assert(s.online);
    cr_assert_eq(s.steps, UTURN_NONE);
    cr_assert_eq(s.slots, 7);
    cr_assert_str_eq(uturn_planner_name(UTURN_PLANNER_ONLINE), "online");
    uturn_planner_t id;
    cr_assert_eq(uturn_planner_from_name("online", &id), UTURN_OK);
    cr_assert_eq(id, UTURN_PLANNER_ONLINE);
    /* The cursor's realised counts, after the end. */
    uturn_stats_t got;
    cursor_ended_at(plan, 30, &got);
    cr_assert_eq(got.steps, 30);
    cr_assert_eq(got.forward_steps, od_t(31, 7));
    cr_assert_eq(got.reverse_steps, 30);
    uturn_plan_free(plan);
}

/* Uniform slots of 24 bytes: the cursor's peak_bytes is its peak slots
 * (the validator's) times 24; it was 0. */
Test(online, the_cursors_peak_bytes_are_its_peak_slots_in_bytes)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.slots            = 7;
    p.slot_bytes       = 24;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    const struct od_result seen = od_drive(plan, 30, NULL, 0, NULL);
    cr_assert_eq(seen.status, UTURN_OK, "%s", seen.message);
    cr_assert_eq(seen.peak_slots, 7);
    uturn_stats_t got;
    cursor_ended_at(plan, 30, &got);
    cr_assert_eq(got.steps, 30);
    cr_assert_eq(got.peak_slots, seen.peak_slots);
    cr_assert_eq(got.peak_bytes, seen.peak_slots * 24);
    uturn_plan_free(plan);
}

Test(online, max_steps_ends_the_sweep_by_itself)
{
    uturn_plan_t *plan = od_plan(4, 50);
    /* Never told: the plan ends at 50. */
    const struct od_result r = od_drive(plan, 0, NULL, 0, NULL);
    cr_assert_eq(r.status, UTURN_E_INVALID_PLAN,
                 "the validator was never "
                 "told n: %s",
                 r.message);
    uturn_cursor_t *c = NULL;
    uturn_cursor_create(plan, NULL, &c);
    uturn_action_t a[64];
    size_t count           = 0;
    uint64_t advances_past = 0, reverses = 0;
    while (uturn_cursor_read(c, a, 64, &count) == UTURN_OK && count > 0)
        for (size_t i = 0; i < count; i++) {
            advances_past += a[i].op == UTURN_OP_ADVANCE && a[i].step_end > 50;
            reverses += a[i].op == UTURN_OP_REVERSE;
        }
    cr_assert_eq(advances_past, 0);
    cr_assert_eq(reverses, 50);
    uturn_stats_t got;
    uturn_stats_init(&got);
    uturn_cursor_stats(c, &got);
    cr_assert_eq(got.steps, 50);
    /* The same plan as an end revealed at 50 (the bound is not a rule). */
    uturn_plan_t *open          = od_plan(4, 0);
    const struct od_result told = od_drive(open, 50, NULL, 0, NULL);
    cr_assert_eq(told.status, UTURN_OK);
    cr_assert_eq(got.forward_steps, told.forward_steps);
    uturn_plan_free(open);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}

Test(online, the_fingerprint_follows_slots_max_steps_and_mode)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_ONLINE;
    p.slots   = 5;
    uint64_t fp[4];
    for (int k = 0; k < 4; k++) {
        if (k == 1)
            p.slots = 6;
        if (k == 2)
            p.max_steps = 100;
        if (k == 3) {
            p.slots        = 0;
            p.budget_bytes = 6000; /* bytes mode: sizes as the run goes */
        }
        uturn_plan_t *plan = NULL;
        cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
        uturn_stats_t s;
        uturn_stats_init(&s);
        uturn_plan_stats(plan, &s);
        fp[k] = s.fingerprint;
        uturn_plan_free(plan);
    }
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            cr_assert_neq(fp[i], fp[j], "requests %d and %d", i, j);
}

Test(online, refusals_name_the_problem)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.steps            = 10;
    p.slots            = 3;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "does not know the steps") != NULL, "%s",
              err.message);
    p.steps = 0;
    p.slots = UTURN_ONLINE_MAX_SLOTS + 1;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(err.message, "at most 2^30 slots") != NULL, "%s",
              err.message);
    p.slots = 0;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "needs a capacity") != NULL, "%s",
              err.message);
    /* An offline plan's cursor refuses the end. */
    p.planner = UTURN_PLANNER_REVOLVE;
    p.steps   = 10;
    p.slots   = 3;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_cursor_t *c = NULL;
    uturn_cursor_create(plan, NULL, &c);
    cr_assert_eq(uturn_cursor_end(c), UTURN_E_UNSUPPORTED);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
    /* Not right after an advance: refused, and the plan goes on. */
    plan = od_plan(3, 0);
    uturn_cursor_create(plan, NULL, &c);
    cr_assert_eq(uturn_cursor_end(c), UTURN_E_INVALID_ARG, "before any read");
    uturn_action_t a;
    cr_assert(uturn_cursor_next(c, &a));
    cr_assert_eq(a.op, UTURN_OP_STORE);
    cr_assert_eq(uturn_cursor_end(c), UTURN_E_INVALID_ARG,
                 "the advance is still buffered");
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}

/* ---- the executor ------------------------------------------------------ */

/* The model that stops where it alone knows: online_stopper.h. */

Test(online, the_executor_stops_where_the_model_says_and_gets_the_gradient)
{
    srand(12345);
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(NULL, &ex, NULL), UTURN_OK);
    const uint64_t slots[] = {1, 2, 3, 5, 12};
    for (int trial = 0; trial < 20; trial++) {
        const uint64_t n   = 1 + (uint64_t)(rand() % 400);
        const uint64_t s   = slots[trial % 5];
        uturn_plan_t *plan = od_plan(s, 0);
        struct stopper st  = {.stop_at = n};
        uturn_model_t m    = st_model(&st);
        uturn_stats_t seen;
        uturn_stats_init(&seen);
        uturn_report_t rep;
        uturn_report_init(&rep);
        uturn_error_t err;
        uturn_error_init(&err);
        cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, &seen, &rep, &err),
                     UTURN_OK, "n %llu s %llu: %s", (unsigned long long)n,
                     (unsigned long long)s, err.message);
        double want[ST_DIM];
        st_reference(n, want);
        cr_assert_eq(memcmp(st.xbar, want, sizeof want), 0,
                     "n %llu s %llu: the gradient differs",
                     (unsigned long long)n, (unsigned long long)s);
        cr_assert_eq(rep.steps, n);
        cr_assert_eq(seen.steps, n);
        cr_assert_eq(seen.reverse_steps, n);
        cr_assert_eq(st.asked, n, "is_last asked once per first-sweep step");
        if (n <= (s + 1) * (s + 2) / 2)
            cr_assert_eq(seen.forward_steps, od_t(n + 1, s));
        cr_assert_leq(seen.peak_slots, s);
        uturn_plan_free(plan);
    }
    uturn_executor_free(ex);
}

/* Issue 22, finding 3: with neither max_steps nor is_last, nothing could
 * end the first sweep (the run went on forever). Refused before any
 * callback, for plans of slots and with a disk level; a model with
 * is_last, or a plan with max_steps, still runs. */
static int counting_forward(void *u, uint64_t i)
{
    struct stopper *s = u;
    s->asked += 1000; /* any call shows in the count */
    return st_forward(u, i);
}

Test(online, no_end_in_sight_is_refused_before_any_callback)
{
    uturn_level_t lv[2];
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].slots      = 3;
    lv[1].slots      = 4;
    lv[1].write_cost = lv[1].read_cost = 2;
    for (int kind = 0; kind < 2; kind++) {
        uturn_problem_t p;
        uturn_problem_init(&p);
        p.planner          = UTURN_PLANNER_ONLINE;
        p.slots            = kind == 0 ? 3 : 0;
        p.levels           = kind == 1 ? lv : NULL;
        p.level_count      = kind == 1 ? 2 : 0;
        p.slot_bytes       = sizeof(double) * ST_DIM;
        uturn_plan_t *plan = NULL;
        cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
        char dir[] = "/tmp/test_online.XXXXXX";
        cr_assert(mkdtemp(dir) != NULL);
        uturn_storage_t level;
        uturn_storage_init(&level);
        level.directory = dir;
        uturn_executor_options_t eo;
        uturn_executor_options_init(&eo);
        eo.levels            = kind == 1 ? &level : NULL;
        eo.level_count       = kind == 1 ? 1 : 0;
        uturn_executor_t *ex = NULL;
        cr_assert_eq(uturn_executor_open(&eo, &ex, NULL), UTURN_OK);
        /* With levels and no max_steps the plan reaches 4 disk slots
         * times its first period (4 here, 16 steps): end before. */
        const uint64_t n  = kind == 0 ? 30 : 12;
        struct stopper st = {.stop_at = n};
        uturn_model_t m   = st_model(&st);
        m.forward         = counting_forward;
        m.is_last         = NULL;
        uturn_error_t err;
        uturn_error_init(&err);
        cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &err),
                     UTURN_E_INVALID_ARG, "kind %d: %s", kind, err.message);
        cr_assert(strstr(err.message, "is_last") != NULL &&
                      strstr(err.message, "max_steps") != NULL,
                  "%s", err.message);
        cr_assert_eq(st.asked, 0, "no callback ran");
        m.is_last = st_is_last;
        cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &err),
                     UTURN_OK, "kind %d with is_last: %s", kind, err.message);
        cr_assert_eq(st.asked % 1000, n, "x_1 .. x_n each asked once");
        cr_assert_geq(st.asked / 1000, n);
        uturn_executor_free(ex);
        rmdir(dir);
        uturn_plan_free(plan);
    }
}

/* Bytes mode: states that grow and shrink, sizes given as they come
 * (tests/support/sized_model.h). */
static uint64_t sz_len(uint64_t step)
{
    return 8 + (step * 7) % 56; /* 8 .. 63 doubles */
}

Test(online, sizes_given_as_they_come_never_pass_the_budget)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(NULL, &ex, NULL), UTURN_OK);
    const uint64_t n = 150;
    double want[64], got[64];
    sz_store_all(ex, n, sz_len, want);
    uturn_stats_t seen;
    uturn_report_t rep;
    const uint64_t budgets[] = {600, 1500, 4000};
    for (int b = 0; b < 3; b++) {
        uturn_problem_t p;
        uturn_problem_init(&p);
        p.planner          = UTURN_PLANNER_ONLINE;
        p.budget_bytes     = budgets[b];
        uturn_plan_t *plan = NULL;
        cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
        uturn_stats_init(&seen);
        uturn_report_init(&rep);
        sz_run(ex, plan, n, sz_len, NULL, got, &seen, &rep);
        cr_assert_eq(memcmp(got, want, sizeof want), 0, "budget %llu",
                     (unsigned long long)budgets[b]);
        cr_assert_leq(seen.peak_bytes, budgets[b],
                      "%llu bytes held at once, budget %llu",
                      (unsigned long long)seen.peak_bytes,
                      (unsigned long long)budgets[b]);
        cr_assert_leq(rep.measured_peak_bytes, budgets[b]);
        uturn_plan_free(plan);
    }
    uturn_executor_free(ex);
}

/* A record per step: the step's own h, drawn by a "controller" in the
 * first sweep and given back on every recomputation. */
struct recorded {
    double x, xbar;
    uint64_t stop_at, draws;
    double hs[512];
};

static int rec_forward(void *u, uint64_t i, void *record, bool again)
{
    struct recorded *s = u;
    double h           = 0;
    if (!again) {
        h = 0.001 * (double)(1 + (s->draws++ * 37) % 11);
        memcpy(record, &h, sizeof h);
        s->hs[i] = h;
    } else {
        memcpy(&h, record, sizeof h);
        cr_assert_eq(h, s->hs[i], "the record of step %llu came back",
                     (unsigned long long)i);
    }
    s->x += h * sin(s->x);
    return 0;
}

static int rec_turn(void *u)
{
    ((struct recorded *)u)->xbar = 1;
    return 0;
}

static int rec_adjoint(void *u, uint64_t i)
{
    struct recorded *s = u;
    s->xbar *= 1 + s->hs[i] * cos(s->x);
    return 0;
}

static int rec_is_last(void *u, uint64_t step)
{
    return step == ((struct recorded *)u)->stop_at;
}

Test(online, step_records_come_back_on_every_recomputation)
{
    const uint64_t n     = 300;
    uturn_plan_t *plan   = od_plan(4, 0);
    uturn_executor_t *ex = NULL;
    uturn_executor_open(NULL, &ex, NULL);
    struct recorded s = {.x = 0.7, .stop_at = n};
    uturn_model_t m;
    uturn_model_init(&m);
    m.user           = &s;
    m.state          = &s.x;
    m.state_bytes    = sizeof s.x;
    m.forward_record = rec_forward;
    m.record_bytes   = sizeof(double);
    m.turn           = rec_turn;
    m.adjoint        = rec_adjoint;
    m.is_last        = rec_is_last;
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    uturn_report_t rep;
    uturn_report_init(&rep);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, &seen, &rep, NULL),
                 UTURN_OK);
    cr_assert_eq(s.draws, n, "the controller ran once per step");
    cr_assert_gt(seen.forward_steps, n, "steps were recomputed");
    cr_assert_geq(rep.record_bytes, n * sizeof(double));
    /* The truth: the same h's in one plain sweep. */
    double x = 0.7, g = 1;
    double xs[300];
    for (uint64_t i = 0; i < n; i++) {
        xs[i] = x;
        x += s.hs[i] * sin(x);
    }
    for (uint64_t i = n; i-- > 0;)
        g *= 1 + s.hs[i] * cos(xs[i]);
    cr_assert_eq(s.xbar, g);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* A budget that holds more than UTURN_ONLINE_MAX_SLOTS slots: a plan of
 * that many (stats say so), inside the budget; asking for more slots
 * outright is refused (above). (Before 0.3 the most was 256: a budget of
 * 1000 slots' worth planned 256.) */
Test(online, large_budget_holds_the_most_slots)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.slot_bytes       = 1;
    p.budget_bytes     = UTURN_ONLINE_MAX_SLOTS + 1000;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    uturn_stats_t s;
    uturn_stats_init(&s);
    cr_assert_eq(uturn_plan_stats(plan, &s), UTURN_OK);
    cr_assert_eq(s.slots, UTURN_ONLINE_MAX_SLOTS);
    cr_assert_leq(s.slots * p.slot_bytes, p.budget_bytes);
    uturn_plan_free(plan);
}

/* Read an online plan for n steps in batches of @p cap, ending it right
 * after advance n-1 n; the actions into @p out (room for max). Every read
 * but the last must return at least one action (0 means the end). */
static size_t read_in_batches(uint64_t n, size_t cap, uturn_action_t *out,
                              size_t max)
{
    uturn_plan_t *plan = od_plan(4, 0);
    uturn_cursor_t *c  = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    size_t total = 0, got = 0;
    bool ended = false;
    uturn_action_t batch[8];
    do {
        cr_assert_eq(uturn_cursor_read(c, batch, cap, &got), UTURN_OK);
        cr_assert_leq(total + got, max);
        memcpy(out + total, batch, got * sizeof *batch);
        total += got;
        const uturn_action_t *last = got ? &batch[got - 1] : NULL;
        if (!ended && last != NULL && last->op == UTURN_OP_ADVANCE &&
            last->step_end == n) {
            cr_assert_eq(uturn_cursor_end(c), UTURN_OK, "cap %zu", cap);
            ended = true;
        }
    } while (got > 0);
    cr_assert(ended, "cap %zu: the read never stopped at advance %llu %llu",
              cap, (unsigned long long)(n - 1), (unsigned long long)n);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
    return total;
}

/* A read with room for fewer actions than the generator fills at once
 * still stops at each first-sweep advance and returns 0 only at the end:
 * every capacity gives the stream a large one gives. */
Test(online, small_reads_give_the_same_stream)
{
    enum { MAX = 4096 };
    static uturn_action_t want[MAX], got[MAX];
    const uint64_t ns[] = {1, 2, 5, 30, 97};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const size_t w = read_in_batches(ns[i], 8, want, MAX);
        for (size_t cap = 1; cap < 8; cap++) {
            const size_t g = read_in_batches(ns[i], cap, got, MAX);
            cr_assert_eq(g, w, "n %llu cap %zu", (unsigned long long)ns[i],
                         cap);
            for (size_t k = 0; k < w; k++)
                cr_assert(got[k].op == want[k].op &&
                              got[k].step == want[k].step &&
                              got[k].step_end == want[k].step_end &&
                              got[k].slot == want[k].slot,
                          "n %llu cap %zu action %zu",
                          (unsigned long long)ns[i], cap, k);
        }
    }
}

/* Sizes on a plan of slots: UTURN_E_UNSUPPORTED, and the plan goes on. */
Test(online, set_size_on_a_plan_of_slots_is_unsupported)
{
    uturn_plan_t *plan = od_plan(3, 0);
    uturn_cursor_t *c  = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    cr_assert_eq(uturn_cursor_set_size(c, 0, 64), UTURN_E_UNSUPPORTED);
    uturn_action_t a[8];
    size_t got = 0;
    cr_assert_eq(uturn_cursor_read(c, a, 8, &got), UTURN_OK);
    cr_assert(got == 2 && a[0].op == UTURN_OP_STORE &&
              a[1].op == UTURN_OP_ADVANCE);
    cr_assert_eq(uturn_cursor_end(c), UTURN_OK);
    cr_assert_eq(uturn_cursor_read(c, a, 8, &got), UTURN_OK);
    cr_assert(got > 0 && a[0].op == UTURN_OP_TURN);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}

/* A walk runs an online plan to its max_steps; without one it would never
 * end, and is refused at once. */
Test(online, walk_goes_to_max_steps)
{
    uturn_plan_t *plan = od_plan(4, 50);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_eq(seen.steps, 50);
    cr_assert_eq(seen.reverse_steps, 50);
    cr_assert_geq(seen.forward_steps, od_t(51, 4));
    cr_assert_leq(seen.peak_slots, 4);
    uturn_plan_free(plan);
    plan = od_plan(4, 0);
    cr_assert_eq(uturn_plan_walk(plan, &seen, &err), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(err.message, "without max_steps never ends") != NULL, "%s",
              err.message);
    uturn_plan_free(plan);
}

/* The actions of @p plan read through a cursor, the end said right after
 * advance n-1 n unless the plan ends there by itself (n = max_steps):
 * into @p out (room for max); their count. */
static size_t stream_to(const uturn_plan_t *plan, uint64_t n, bool told,
                        uturn_action_t *out, size_t max)
{
    uturn_cursor_t *c = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    size_t total = 0, got = 0;
    while (uturn_cursor_read(c, out + total, 64, &got) == UTURN_OK &&
           got > 0) {
        total += got;
        cr_assert_leq(total + 64, max);
        const uturn_action_t *last = &out[total - 1];
        if (told && last->op == UTURN_OP_ADVANCE && last->step_end == n) {
            cr_assert_eq(uturn_cursor_end(c), UTURN_OK);
            told = false;
        }
    }
    uturn_cursor_free(c);
    return total;
}

static uturn_plan_t *capped(uint64_t slots, uint64_t budget, uint64_t max,
                            uint64_t sweeps)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner      = UTURN_PLANNER_ONLINE;
    p.slots        = slots;
    p.budget_bytes = budget;
    p.slot_bytes   = budget != 0 ? 64 : 0;
    p.max_steps    = max;
    p.sweeps       = sweeps;
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_OK, "%s",
                 e.message);
    return plan;
}

/* max_steps bounds the states a run can hold, x_0 .. x_n: an online plan
 * takes no more than max_steps + 1 slots of what the slots or budget give
 * (2^30 slots, or a budget of 2^28 states, had made every cursor and the
 * executor's storage that large for a run of 400 steps), and its actions
 * are those of the plan without max_steps, ended at the same step. */
Test(online, max_steps_bounds_the_slots)
{
    uturn_stats_t s;
    uturn_plan_t *plan = capped(1ull << 30, 0, 400, 1);
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cr_assert_eq(s.slots, 401);
    uturn_plan_free(plan);
    plan = capped(0, 16ull << 30, 400, 1);
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cr_assert_eq(s.slots, 401);
    uturn_plan_free(plan);
    enum { MAX = 1 << 16 };
    static uturn_action_t a[MAX], b[MAX];
    const uint64_t slots[] = {6, 60, 1000}, maxes[] = {3, 10, 57};
    const uint64_t ns[] = {1, 2, 3, 9, 10, 40, 57};
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            for (size_t q = 0; q < sizeof ns / sizeof ns[0]; q++)
                for (uint64_t k = 1; k <= 3 && ns[q] <= maxes[j]; k++) {
                    uturn_plan_t *with = capped(slots[i], 0, maxes[j], k);
                    uturn_plan_t *free_run = capped(slots[i], 0, 0, k);
                    const size_t na = stream_to(with, ns[q], ns[q] < maxes[j],
                                                a, MAX);
                    const size_t nb = stream_to(free_run, ns[q], true, b, MAX);
                    cr_assert_eq(na, nb, "s %llu max %llu n %llu k %llu",
                                 (unsigned long long)slots[i],
                                 (unsigned long long)maxes[j],
                                 (unsigned long long)ns[q],
                                 (unsigned long long)k);
                    cr_assert_eq(first_difference(a, b, na), na);
                    uturn_plan_free(with);
                    uturn_plan_free(free_run);
                }
}
