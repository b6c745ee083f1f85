/* Executor: observed counts equal the predictions for every planner, the
 * gradient equals an independent store-everything loop bit for bit, budgets
 * are checked before any callback, and failures free everything. */
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <uturn.h>

#include "stats_equal.h"

/* x_{i+1} = sin(x_i) + 0.01 i, J = x_n, so dJ/dx_0 = prod cos(x_i). */
struct toy {
    double x, xbar;
    uint64_t calls, fail_at; /* fail the fail_at-th callback (1-based) */
    int nondeterministic;
};

static int tick(struct toy *t)
{
    t->calls += 1;
    return t->fail_at != 0 && t->calls == t->fail_at ? 7 : 0;
}

static int toy_forward(void *user, uint64_t step)
{
    struct toy *t = user;
    t->x          = sin(t->x) + 0.01 * (double)step;
    if (t->nondeterministic && step == 3)
        t->x += 1e-12 * (double)t->calls;
    return tick(t);
}

static int toy_turn(void *user)
{
    struct toy *t = user;
    t->xbar       = 1.0;
    return tick(t);
}

static int toy_adjoint(void *user, uint64_t step)
{
    struct toy *t = user;
    (void)step;
    t->xbar *= cos(t->x);
    return tick(t);
}

static double reference_gradient(uint64_t n, double x0)
{
    double *xs = malloc(n * sizeof *xs);
    double x = x0, g = 1.0;
    for (uint64_t i = 0; i < n; i++) {
        xs[i] = x;
        x     = sin(x) + 0.01 * (double)i;
    }
    for (uint64_t i = n; i-- > 0;)
        g *= cos(xs[i]);
    free(xs);
    return g;
}

static uturn_model_t toy_model(struct toy *t)
{
    uturn_model_t m;
    uturn_model_init(&m);
    m.forward     = toy_forward;
    m.turn        = toy_turn;
    m.adjoint     = toy_adjoint;
    m.state       = &t->x;
    m.state_bytes = sizeof t->x;
    m.user        = t;
    return m;
}

/* A plan for `slots` slots: as a byte budget when the executor's storage
 * counts bytes exactly (a caller's allocator), else as a slot count (the
 * executor's own pages hold whole pages, more than a few doubles). */
static uturn_plan_t *make_plan(uturn_executor_t *ex, uturn_planner_t planner,
                               uint64_t n, uint64_t slots, uint64_t stride)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner    = planner;
    p.steps      = n;
    p.slot_bytes = sizeof(double);
    p.stride     = stride;
    uturn_slot_cost_t cost;
    uturn_slot_cost_init(&cost);
    cr_assert_eq(uturn_executor_slot_cost(ex, sizeof(double), &cost),
                 UTURN_OK);
    if (cost.granule == 1)
        p.budget_bytes = slots * cost.stride;
    else
        p.slots = slots;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_executor_plan(ex, &p, &plan, &err);
    return st == UTURN_OK ? plan : NULL;
}

static const uturn_planner_t planners[] = {
    UTURN_PLANNER_STORE_ALL, UTURN_PLANNER_PERIODIC, UTURN_PLANNER_SQRT,
    UTURN_PLANNER_REVOLVE, UTURN_PLANNER_DP, UTURN_PLANNER_HREVOLVE};

Test(executor, counts_and_gradient_for_every_planner)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_executor_t *ex          = NULL;
    cr_assert_eq(uturn_executor_create(&alloc, &ex, NULL), UTURN_OK);
    for (uint64_t n = 1; n <= 40; n++) {
        const double want = reference_gradient(n, 0.7);
        for (size_t p = 0; p < 6; p++) {
            for (uint64_t s = 1; s <= n + 1; s++) {
                uturn_plan_t *plan = make_plan(ex, planners[p], n, s, 0);
                if (plan == NULL)
                    continue; /* infeasible at this budget */
                struct toy t    = {.x = 0.7};
                uturn_model_t m = toy_model(&t);
                uturn_stats_t seen, predicted;
                uturn_stats_init(&seen);
                uturn_stats_init(&predicted);
                uturn_report_t rep;
                uturn_report_init(&rep);
                cr_assert_eq(
                    uturn_executor_run(ex, plan, &m, NULL, &seen, &rep, NULL),
                    UTURN_OK, "n=%llu p=%zu s=%llu", (unsigned long long)n, p,
                    (unsigned long long)s);
                uturn_plan_stats(plan, &predicted);
                stats_expect_equal(&seen, &predicted, "run");
                cr_assert(memcmp(&t.xbar, &want, sizeof want) == 0,
                          "gradient n=%llu p=%zu s=%llu: %.17g vs %.17g",
                          (unsigned long long)n, p, (unsigned long long)s,
                          t.xbar, want);
                cr_assert_leq(rep.measured_peak_bytes, predicted.budget_bytes);
                cr_assert_eq(rep.planned_peak_bytes, predicted.peak_bytes);
                uturn_plan_free(plan);
            }
        }
    }
    uturn_executor_free(ex);
    cr_assert_eq(counts.live_blocks, 0);
    cr_assert_eq(counts.size_mismatches, 0);
}

Test(executor, over_budget_plan_is_refused_before_any_callback)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_REVOLVE;
    p.steps            = 50;
    p.slots            = 6;
    p.slot_bytes       = 1000; /* what the caller thinks a slot costs */
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    double state[125] = {0}; /* 1000 bytes */
    struct toy t      = {.x = 0.5};
    uturn_model_t m   = toy_model(&t);
    m.state           = state;
    m.state_bytes     = sizeof state;
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.budget_bytes = 6 * 1000 - 1;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, NULL, &err),
                 UTURN_E_INFEASIBLE);
    cr_assert_eq(t.calls, 0, "no callback may run before the budget check");
    /* The least budget is the 6 slots at their stride, in whole pages. */
    uturn_slot_cost_t cost;
    uturn_slot_cost_init(&cost);
    cr_assert_eq(uturn_executor_slot_cost(ex, sizeof state, &cost), UTURN_OK);
    cr_assert_eq(cost.stride, 1008);
    const uint64_t least =
        (6 * cost.stride + cost.granule - 1) / cost.granule * cost.granule;
    cr_assert_eq(err.minimum_bytes, least, "%llu",
                 (unsigned long long)err.minimum_bytes);
    cr_assert(strstr(err.message, "budget") != NULL, "%s", err.message);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
}

Test(executor, bad_models_are_invalid_arguments_without_callbacks)
{
    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    uturn_plan_t *plan = make_plan(ex, UTURN_PLANNER_STORE_ALL, 5, 5, 0);
    cr_assert_not_null(plan);
    struct toy t    = {.x = 0.5};
    uturn_model_t m = toy_model(&t);
    m.adjoint       = NULL;
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, NULL),
                 UTURN_E_INVALID_ARG);
    m       = toy_model(&t);
    m.state = NULL; /* and no save/load */
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, NULL),
                 UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_executor_run(ex, plan, NULL, NULL, NULL, NULL, NULL),
                 UTURN_E_INVALID_ARG);
    cr_assert_eq(t.calls, 0);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
}

/* Every callback of every action fails once: the run stops with the step
 * named, the report says how far it got, nothing leaks, and the executor
 * then runs the same plan to the right gradient. */
Test(executor, failure_at_every_callback_of_every_planner)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_executor_t *ex          = NULL;
    cr_assert_eq(uturn_executor_create(&alloc, &ex, NULL), UTURN_OK);
    const uint64_t n  = 9;
    const double want = reference_gradient(n, 0.3);
    for (size_t p = 0; p < 4; p++) {
        uturn_plan_t *plan = make_plan(ex, planners[p], n, p == 0 ? n : 5, 0);
        cr_assert_not_null(plan, "planner %zu", p);
        struct toy probe = {.x = 0.3};
        uturn_model_t m  = toy_model(&probe);
        cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, NULL),
                     UTURN_OK);
        const uint64_t total_calls = probe.calls;
        uturn_executor_trim(ex);
        const uint64_t idle = counts.live_blocks; /* the executor, the plan */
        for (uint64_t k = 1; k <= total_calls; k++) {
            struct toy t = {.x = 0.3, .fail_at = k};
            m            = toy_model(&t);
            uturn_report_t rep;
            uturn_report_init(&rep);
            uturn_error_t err;
            uturn_error_init(&err);
            cr_assert_eq(
                uturn_executor_run(ex, plan, &m, NULL, NULL, &rep, &err),
                UTURN_E_CALLBACK, "planner %zu call %llu", p,
                (unsigned long long)k);
            cr_assert_eq(rep.status, UTURN_E_CALLBACK);
            cr_assert_eq(rep.failed_action, rep.actions_done);
            cr_assert_eq(err.action, rep.failed_action);
            cr_assert_neq(rep.failed_step, UTURN_NONE);
            cr_assert(strstr(err.message, "returned 7") != NULL, "%s",
                      err.message);
            /* The executor keeps its slot region (exactly the plan's
             * peak here) and the generator's state for the next run;
             * trimmed, only it and the plan remain. */
            cr_assert_eq(counts.live_blocks, idle + 2,
                         "planner %zu call %llu: %llu blocks live", p,
                         (unsigned long long)k,
                         (unsigned long long)counts.live_blocks);
            cr_assert_eq(uturn_executor_held_bytes(ex),
                         rep.planned_peak_bytes);
            uturn_executor_trim(ex);
            cr_assert_eq(counts.live_blocks, idle, "planner %zu call %llu", p,
                         (unsigned long long)k);
            cr_assert_eq(uturn_executor_held_bytes(ex), 0);
        }
        struct toy ok = {.x = 0.3};
        m             = toy_model(&ok);
        cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, NULL),
                     UTURN_OK);
        cr_assert(memcmp(&ok.xbar, &want, sizeof want) == 0);
        uturn_plan_free(plan);
    }
    uturn_executor_free(ex);
    cr_assert_eq(counts.live_blocks, 0);
}

Test(executor, verify_mode_catches_a_nondeterministic_model)
{
    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    uturn_plan_t *plan = make_plan(ex, UTURN_PLANNER_REVOLVE, 20, 3, 0);
    cr_assert_not_null(plan);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.verify        = true;
    struct toy good = {.x = 0.2};
    uturn_model_t m = toy_model(&good);
    uturn_report_t rep;
    uturn_report_init(&rep);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, &rep, NULL),
                 UTURN_OK);
    cr_assert_eq(rep.verify_bytes, 21 * 8);
    struct toy bad = {.x = 0.2, .nondeterministic = 1};
    m              = toy_model(&bad);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, &rep, &err),
                 UTURN_E_NONDETERMINISTIC);
    cr_assert_eq(err.step, 4, "x_4 comes out of the drifting step 3");
    cr_assert(strstr(err.message, "x_4") != NULL, "%s", err.message);
    /* Without verify the same model runs and silently drifts. */
    struct toy quiet = {.x = 0.2, .nondeterministic = 1};
    m                = toy_model(&quiet);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, NULL),
                 UTURN_OK);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
}

/* save/load with per-step sizes: x_i is saved as 8 * (1 + i % 3) bytes,
 * x first and a pattern after it that load checks. */
static uint64_t sized_bytes(void *user, uint64_t step)
{
    (void)user;
    return 8 * (1 + step % 3);
}

static int sized_save(void *user, uint64_t step, void *dst, uint64_t bytes)
{
    struct toy *t = user;
    cr_assert_eq(bytes, sized_bytes(user, step));
    memset(dst, (int)(step & 0xff), (size_t)bytes);
    memcpy(dst, &t->x, sizeof t->x);
    return 0;
}

static int sized_load(void *user, uint64_t step, const void *src,
                      uint64_t bytes)
{
    struct toy *t            = user;
    const unsigned char *raw = src;
    cr_assert_eq(bytes, sized_bytes(user, step));
    for (uint64_t i = 8; i < bytes; i++)
        cr_assert_eq(raw[i], (unsigned char)(step & 0xff));
    memcpy(&t->x, src, sizeof t->x);
    return 0;
}

Test(executor, save_load_with_per_step_sizes)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_executor_t *ex          = NULL;
    uturn_executor_create(&alloc, &ex, NULL);
    const uint64_t n  = 30;
    const double want = reference_gradient(n, 0.9);
    for (size_t p = 0; p < 4; p++) {
        uturn_problem_t pr;
        uturn_problem_init(&pr);
        pr.planner         = planners[p];
        pr.steps           = n;
        pr.slots           = p == 0 ? n : 12;
        uturn_plan_t *plan = NULL;
        cr_assert_eq(uturn_plan_create(&pr, NULL, &plan, NULL), UTURN_OK);
        struct toy t    = {.x = 0.9};
        uturn_model_t m = toy_model(&t);
        m.state         = NULL;
        m.state_bytes   = 0;
        m.save          = sized_save;
        m.load          = sized_load;
        m.state_size    = sized_bytes;
        uturn_stats_t seen;
        uturn_stats_init(&seen);
        uturn_report_t rep;
        uturn_report_init(&rep);
        cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, &seen, &rep, NULL),
                     UTURN_OK);
        cr_assert(memcmp(&t.xbar, &want, sizeof want) == 0);
        cr_assert_eq(rep.measured_peak_bytes, rep.planned_peak_bytes,
                     "counting storage reports exact bytes");
        cr_assert_leq(seen.peak_bytes, 24 * seen.peak_slots);
        /* The run is refused when the budget is one byte short. */
        uturn_run_options_t o;
        uturn_run_options_init(&o);
        o.budget_bytes = rep.planned_peak_bytes - 1;
        t              = (struct toy){.x = 0.9};
        cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, NULL, NULL),
                     UTURN_E_INFEASIBLE);
        cr_assert_eq(t.calls, 0);
        uturn_plan_free(plan);
    }
    uturn_executor_free(ex);
    cr_assert_eq(counts.live_blocks, 0);
}

Test(executor, runs_a_parsed_plan)
{
    static const char text[] = "uturn-plan 1\nsteps 3\nslots 2\n"
                               "store 0 0\nadvance 0 2\nstore 2 1\n"
                               "advance 2 3\nturn\nrestore 2 1\nreverse 2\n"
                               "free 1\nrestore 0 0\nadvance 0 1\nreverse 1\n"
                               "restore 0 0\nreverse 0\nfree 0\n";
    uturn_plan_t *plan       = NULL;
    cr_assert_eq(uturn_plan_parse(text, sizeof text - 1, NULL, &plan, NULL),
                 UTURN_OK);
    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    struct toy t    = {.x = 0.4};
    uturn_model_t m = toy_model(&t);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, &seen, NULL, NULL),
                 UTURN_OK);
    const double want = reference_gradient(3, 0.4);
    cr_assert(memcmp(&t.xbar, &want, sizeof want) == 0);
    cr_assert_eq(seen.forward_steps, 4); /* 3 + the replay of step 0 */
    uturn_plan_free(plan);
    uturn_executor_free(ex);
}

static int count_progress(void *user, uint64_t reversed, uint64_t steps)
{
    uint64_t *calls = user;
    cr_assert_leq(reversed, steps);
    *calls += 1;
    return reversed == 7 ? 1 : 0; /* then ask to stop */
}

Test(executor, progress_is_reported_and_can_stop_the_run)
{
    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    uturn_plan_t *plan = make_plan(ex, UTURN_PLANNER_REVOLVE, 100, 5, 0);
    uint64_t calls     = 0;
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.progress       = count_progress;
    o.progress_user  = &calls;
    o.progress_every = 1;
    struct toy t     = {.x = 0.1};
    uturn_model_t m  = toy_model(&t);
    uturn_report_t rep;
    uturn_report_init(&rep);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, &rep, NULL),
                 UTURN_E_CALLBACK);
    cr_assert_eq(calls, 7);
    cr_assert_geq(rep.wall_seconds, rep.forward_seconds + rep.adjoint_seconds);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
}

/* The executor keeps its slot region between runs: a repeated plan
 * allocates nothing, a smaller budget shrinks the region to it, and the
 * region never holds more than the run's budget. */
Test(executor, slot_region_is_kept_between_runs_within_the_budget)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_executor_t *ex          = NULL;
    uturn_executor_create(&alloc, &ex, NULL);
    uturn_plan_t *big   = make_plan(ex, UTURN_PLANNER_REVOLVE, 60, 9, 0);
    uturn_plan_t *small = make_plan(ex, UTURN_PLANNER_REVOLVE, 60, 4, 0);
    uint64_t allocs[4];
    uturn_report_t rep[4];
    uturn_plan_t *order[4] = {big, big, small, small};
    for (int i = 0; i < 4; i++) {
        struct toy t    = {.x = 0.6};
        uturn_model_t m = toy_model(&t);
        uturn_report_init(&rep[i]);
        const uint64_t before = counts.total_allocs;
        cr_assert_eq(
            uturn_executor_run(ex, order[i], &m, NULL, NULL, &rep[i], NULL),
            UTURN_OK);
        allocs[i] = counts.total_allocs - before;
        cr_assert_eq(rep[i].measured_peak_bytes, rep[i].planned_peak_bytes);
        cr_assert_leq(rep[i].measured_peak_bytes, rep[i].budget_bytes);
    }
    cr_assert_eq(allocs[0], 2, "the region and the generator's state");
    cr_assert_eq(allocs[1], 0, "a repeated plan allocates nothing");
    cr_assert_eq(allocs[2], 1, "a smaller budget: the region is replaced");
    cr_assert_eq(allocs[3], 0);
    cr_assert_eq(rep[2].held_before_bytes, 9 * rep[2].slot_bytes);
    cr_assert_eq(rep[2].measured_peak_bytes, 4 * rep[2].slot_bytes);
    const uint64_t live = counts.live_blocks;
    uturn_executor_trim(ex);
    cr_assert_eq(live - counts.live_blocks, 2, "the region and the state");
    uturn_plan_free(big);
    uturn_plan_free(small);
    uturn_executor_free(ex);
    cr_assert_eq(counts.live_blocks, 0);
}

/* A dp plan for states of different sizes runs with exact per-step byte
 * accounting: the executor's peak (counted by a counting allocator, so
 * exact) is the plan's own peak_bytes, and the run is refused one byte
 * below it. */
static uint64_t sized16_bytes(void *user, uint64_t step)
{
    (void)user;
    return 16 * (1 + step % 3);
}

static int sized16_save(void *user, uint64_t step, void *dst, uint64_t bytes)
{
    struct toy *t = user;
    cr_assert_eq(bytes, sized16_bytes(user, step));
    memset(dst, (int)(step & 0xff), (size_t)bytes);
    memcpy(dst, &t->x, sizeof t->x);
    return 0;
}

static int sized16_load(void *user, uint64_t step, const void *src,
                        uint64_t bytes)
{
    struct toy *t            = user;
    const unsigned char *raw = src;
    cr_assert_eq(bytes, sized16_bytes(user, step));
    for (uint64_t i = 8; i < bytes; i++)
        cr_assert_eq(raw[i], (unsigned char)(step & 0xff));
    memcpy(&t->x, src, sizeof t->x);
    return 0;
}

/* Sizes that are already strides (multiples of 16): the plan's own
 * peak_bytes is the run's, with no simulation. */
Test(executor, dp_plan_with_per_step_sizes_is_accounted_exactly)
{
    enum { N = 30 };
    uint64_t sizes[N];
    for (uint64_t i = 0; i < N; i++)
        sizes[i] = sized16_bytes(NULL, i);
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_executor_t *ex          = NULL;
    uturn_executor_create(&alloc, &ex, NULL);
    uturn_problem_t pr;
    uturn_problem_init(&pr);
    pr.planner         = UTURN_PLANNER_DP;
    pr.steps           = N;
    pr.step_bytes      = sizes;
    pr.budget_bytes    = 200;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&pr, NULL, &plan, NULL), UTURN_OK);
    uturn_stats_t predicted, seen;
    uturn_stats_init(&predicted);
    uturn_stats_init(&seen);
    uturn_plan_stats(plan, &predicted);
    struct toy t    = {.x = 0.9};
    uturn_model_t m = toy_model(&t);
    m.state         = NULL;
    m.state_bytes   = 0;
    m.save          = sized16_save;
    m.load          = sized16_load;
    m.state_size    = sized16_bytes;
    uturn_report_t rep;
    uturn_report_init(&rep);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, &seen, &rep, NULL),
                 UTURN_OK);
    const double want = reference_gradient(N, 0.9);
    cr_assert(memcmp(&t.xbar, &want, sizeof want) == 0);
    cr_assert_leq(predicted.peak_bytes, 200);
    cr_assert_eq(seen.peak_bytes, predicted.peak_bytes);
    cr_assert_eq(rep.planned_peak_bytes, predicted.peak_bytes);
    cr_assert_eq(rep.measured_peak_bytes, predicted.peak_bytes);
    cr_assert_eq(seen.forward_steps, predicted.forward_steps);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.budget_bytes = predicted.peak_bytes - 1;
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, NULL, NULL),
                 UTURN_E_INFEASIBLE);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    cr_assert_eq(counts.live_blocks, 0);
}

/* Progress over the whole run: reported during the first sweep too, never
 * going back, with the total the plan predicts (forward cost + steps), and
 * once more at the end with all of it done. */
struct progress_log {
    uint64_t calls, last_done, total, during_first_sweep, stop_at;
};

static int log_progress(void *user, const uturn_progress_t *p)
{
    struct progress_log *l = user;
    cr_assert_geq(p->done, l->last_done);
    cr_assert_leq(p->done, p->total);
    cr_assert_eq(p->steps, 60);
    cr_assert_eq(p->done, p->forward_steps + p->reverse_steps);
    l->during_first_sweep += p->reverse_steps == 0;
    l->last_done = p->done;
    l->total     = p->total;
    l->calls += 1;
    return l->calls == l->stop_at ? 3 : 0;
}

Test(executor, progress_covers_the_whole_run)
{
    uturn_executor_t *ex = NULL;
    uturn_executor_create(NULL, &ex, NULL);
    uturn_plan_t *plan = make_plan(ex, UTURN_PLANNER_REVOLVE, 60, 4, 0);
    uturn_stats_t ps;
    uturn_stats_init(&ps);
    uturn_plan_stats(plan, &ps);
    struct progress_log log = {0};
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.on_progress       = log_progress;
    o.on_progress_user  = &log;
    o.on_progress_every = 10;
    struct toy t        = {.x = 0.3};
    uturn_model_t m     = toy_model(&t);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, NULL, NULL),
                 UTURN_OK);
    cr_assert_eq(log.total, ps.forward_cost + 60);
    cr_assert_eq(log.last_done, log.total, "the end is reported");
    cr_assert_geq(log.during_first_sweep, 5, "60 first-sweep steps, every 10");
    cr_assert_geq(log.calls, (ps.forward_cost + 60) / 10);
    /* A non-zero return stops the run like any callback. */
    struct progress_log stop = {.stop_at = 3};
    o.on_progress_user       = &stop;
    t                        = (struct toy){.x = 0.3};
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, NULL, &err),
                 UTURN_E_CALLBACK);
    cr_assert(strstr(err.message, "on_progress callback returned 3") != NULL,
              "%s", err.message);
    cr_assert_eq(stop.calls, 3);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
}

/* A plan made in abstract units (as the MPI layer makes one plan for ranks
 * of different sizes) runs with this run's real sizes: the peak is the
 * plan's peak in those sizes, found by simulation, and the budget is
 * checked in them. */
Test(executor, a_plan_in_units_runs_with_the_sizes_of_this_run)
{
    enum { N = 30 };
    uint64_t units[N], bytes[N];
    for (uint64_t i = 0; i < N; i++) {
        units[i] = 1 + i % 3;
        bytes[i] = 16 * units[i]; /* = sized16_bytes */
    }
    uturn_problem_t pr;
    uturn_problem_init(&pr);
    pr.planner         = UTURN_PLANNER_DP;
    pr.steps           = N;
    pr.step_bytes      = units;
    pr.budget_bytes    = 12; /* units */
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&pr, NULL, &plan, NULL), UTURN_OK);
    uturn_stats_t ps;
    uturn_stats_init(&ps);
    uturn_plan_stats(plan, &ps);
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_executor_t *ex          = NULL;
    uturn_executor_create(&alloc, &ex, NULL);
    struct toy t    = {.x = 0.9};
    uturn_model_t m = toy_model(&t);
    m.state         = NULL;
    m.state_bytes   = 0;
    m.save          = sized16_save;
    m.load          = sized16_load;
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.step_bytes   = bytes;
    o.budget_bytes = 16 * ps.peak_bytes; /* the plan's peak, in bytes */
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, &seen, &rep, NULL),
                 UTURN_OK);
    const double want = reference_gradient(N, 0.9);
    cr_assert(memcmp(&t.xbar, &want, sizeof want) == 0);
    cr_assert_eq(rep.planned_peak_bytes, 16 * ps.peak_bytes);
    cr_assert_eq(seen.peak_bytes, 16 * ps.peak_bytes);
    o.budget_bytes = 16 * ps.peak_bytes - 1;
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, NULL, NULL),
                 UTURN_E_INFEASIBLE);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
}

/* Capacity and budget are inverse: the least budget for k slots holds k,
 * one byte less holds k - 1 (with pages and with an allocator). */
Test(executor, capacity_and_budget_are_inverse)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_executor_t *ex[2]       = {NULL, NULL};
    uturn_executor_create(NULL, &ex[0], NULL);
    uturn_executor_create(&alloc, &ex[1], NULL);
    static const uint64_t states[] = {8, 100, 1000, 4096, 5000, 1 << 20};
    for (int e = 0; e < 2; e++)
        for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
            for (uint64_t k = 1; k <= 40; k++) {
                uint64_t b = 0, got = 0;
                cr_assert_eq(uturn_executor_budget(ex[e], states[i], k, &b),
                             UTURN_OK);
                uturn_executor_capacity(ex[e], states[i], b, &got);
                cr_assert_geq(got, k, "state %llu, %llu slots",
                              (unsigned long long)states[i],
                              (unsigned long long)k);
                uturn_executor_capacity(ex[e], states[i], b - 1, &got);
                cr_assert_lt(got, k, "state %llu, %llu slots, a byte less",
                             (unsigned long long)states[i],
                             (unsigned long long)k);
            }
    uturn_executor_free(ex[0]);
    uturn_executor_free(ex[1]);
}
