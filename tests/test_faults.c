#define _POSIX_C_SOURCE 200809L /* open_memstream */
/* Fault injection: every allocation the library makes fails in turn, and
 * every save/load callback fails in turn. Each failure must come back as a
 * clean status, with nothing leaked and no half-made object handed out;
 * the same objects then work normally. */
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <uturn.h>

static const uturn_planner_t planners[] = {
    UTURN_PLANNER_STORE_ALL, UTURN_PLANNER_PERIODIC, UTURN_PLANNER_SQRT,
    UTURN_PLANNER_REVOLVE};

static uturn_problem_t problem(uturn_planner_t planner, uint64_t n)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner    = planner;
    p.steps      = n;
    p.slot_bytes = 8;
    p.slots      = planner == UTURN_PLANNER_STORE_ALL ? n : n / 2 + 1;
    return p;
}

/* Create a plan, walk it, write it and parse it back, with the k-th
 * allocation failing: UTURN_OK if all k allocations happened. */
static uturn_status_t plan_lifecycle(const uturn_problem_t *p,
                                     const uturn_allocator_t *alloc)
{
    uturn_plan_t *plan = (uturn_plan_t *)1, *back = (uturn_plan_t *)1;
    uturn_status_t st = uturn_plan_create(p, alloc, &plan, NULL);
    if (st != UTURN_OK) {
        cr_assert_null(plan, "no half-made plan is handed out");
        return st;
    }
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    st         = uturn_plan_walk(plan, &seen, NULL);
    char *text = NULL;
    size_t len = 0;
    FILE *f    = open_memstream(&text, &len);
    if (st == UTURN_OK)
        st = uturn_plan_write(plan, f, NULL);
    fclose(f);
    if (st == UTURN_OK) {
        st = uturn_plan_parse(text, len, alloc, &back, NULL);
        cr_assert(st == UTURN_OK || back == NULL);
        uturn_plan_free(st == UTURN_OK ? back : NULL);
    }
    free(text);
    uturn_plan_free(plan);
    return st;
}

Test(faults, every_allocation_of_planning_fails_cleanly)
{
    for (size_t i = 0; i < 4; i++) {
        const uturn_problem_t p = problem(planners[i], 30);
        uturn_status_t st       = UTURN_E_NOMEM;
        uint64_t k              = 0;
        while (st == UTURN_E_NOMEM) {
            counting_alloc_t counts       = {.fail_at = ++k};
            const uturn_allocator_t alloc = counting_allocator(&counts);
            st                            = plan_lifecycle(&p, &alloc);
            cr_assert(st == UTURN_OK || st == UTURN_E_NOMEM,
                      "planner %zu allocation %llu: %s", i,
                      (unsigned long long)k, uturn_status_name(st));
            cr_assert_eq(counts.live_blocks, 0, "planner %zu allocation %llu",
                         i, (unsigned long long)k);
            cr_assert_eq(counts.size_mismatches, 0);
        }
        cr_assert_gt(k, 3, "planner %zu: the failures were exercised", i);
    }
}

/* A tiny model: x_{i+1} = cos(x_i), J = x_n; states are saved through
 * save/load with per-step sizes when `sized`, and save/load can fail. */
struct model {
    double x, xbar;
    uint64_t save_calls, load_calls, fail_save, fail_load;
};

static int fwd(void *u, uint64_t step)
{
    struct model *m = u;
    (void)step;
    m->x = cos(m->x);
    return 0;
}

static int seed(void *u)
{
    ((struct model *)u)->xbar = 1.0;
    return 0;
}

static int adj(void *u, uint64_t step)
{
    struct model *m = u;
    (void)step;
    m->xbar *= -sin(m->x);
    return 0;
}

static uint64_t size_of(void *u, uint64_t step)
{
    (void)u;
    return 8 + 8 * (step % 4);
}

static int save(void *u, uint64_t step, void *dst, uint64_t bytes)
{
    struct model *m = u;
    (void)step;
    if (++m->save_calls == m->fail_save)
        return -1;
    memset(dst, 0, (size_t)bytes);
    memcpy(dst, &m->x, sizeof m->x);
    return 0;
}

static int load(void *u, uint64_t step, const void *src, uint64_t bytes)
{
    struct model *m = u;
    (void)step;
    (void)bytes;
    if (++m->load_calls == m->fail_load)
        return -2;
    memcpy(&m->x, src, sizeof m->x);
    return 0;
}

static uturn_model_t describe(struct model *m, bool sized)
{
    uturn_model_t d;
    uturn_model_init(&d);
    d.forward     = fwd;
    d.turn        = seed;
    d.adjoint     = adj;
    d.save        = save;
    d.load        = load;
    d.state_bytes = 8;
    d.state_size  = sized ? size_of : NULL;
    d.user        = m;
    return d;
}

static double expected_gradient(uint64_t n)
{
    double x = 0.5, g = 1.0, xs[64];
    for (uint64_t i = 0; i < n; i++)
        xs[i] = x, x = cos(x);
    for (uint64_t i = n; i-- > 0;)
        g *= -sin(xs[i]);
    return g;
}

/* Every save and every load fails once, uniform and per-step sizes. */
Test(faults, every_save_and_load_failure_stops_cleanly)
{
    counting_alloc_t counts       = {0};
    const uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_executor_t *ex          = NULL;
    cr_assert_eq(uturn_executor_create(&alloc, &ex, NULL), UTURN_OK);
    for (size_t i = 0; i < 8; i++) {
        const uturn_problem_t p = problem(planners[i % 4], 12);
        uturn_plan_t *plan      = NULL;
        cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
        uturn_stats_t s;
        uturn_stats_init(&s);
        uturn_plan_stats(plan, &s);
        for (uint64_t k = 1; k <= s.stores + s.restores; k++) {
            struct model m = {.x = 0.5};
            if (k <= s.stores)
                m.fail_save = k;
            else
                m.fail_load = k - s.stores;
            const uturn_model_t d = describe(&m, i >= 4);
            uturn_report_t rep;
            uturn_report_init(&rep);
            uturn_error_t err;
            uturn_error_init(&err);
            cr_assert_eq(
                uturn_executor_run(ex, plan, &d, NULL, NULL, &rep, &err),
                UTURN_E_CALLBACK);
            cr_assert(strstr(err.message, k <= s.stores ? "save" : "load"),
                      "%s", err.message);
            cr_assert_eq(rep.failed_action, rep.actions_done);
            uturn_executor_trim(ex); /* drop the buffers kept for reuse */
            cr_assert_eq(counts.live_blocks, 1, "only the executor remains");
        }
        struct model ok       = {.x = 0.5};
        const uturn_model_t d = describe(&ok, i >= 4);
        cr_assert_eq(uturn_executor_run(ex, plan, &d, NULL, NULL, NULL, NULL),
                     UTURN_OK);
        const double want = expected_gradient(12);
        cr_assert(memcmp(&ok.xbar, &want, sizeof want) == 0);
        uturn_plan_free(plan);
    }
    uturn_executor_free(ex);
    cr_assert_eq(counts.live_blocks, 0);
}

/* Every allocation of an executor's life fails in turn. */
Test(faults, every_allocation_of_a_run_fails_cleanly)
{
    for (size_t i = 0; i < 8; i++) {
        uturn_status_t st = UTURN_E_NOMEM;
        for (uint64_t k = 1; st == UTURN_E_NOMEM; k++) {
            counting_alloc_t counts       = {.fail_at = k};
            const uturn_allocator_t alloc = counting_allocator(&counts);
            uturn_executor_t *ex          = NULL;
            uturn_plan_t *plan            = NULL;
            const uturn_problem_t p       = problem(planners[i % 4], 12);
            struct model m                = {.x = 0.5};
            const uturn_model_t d         = describe(&m, i >= 4);
            st = uturn_executor_create(&alloc, &ex, NULL);
            if (st == UTURN_OK)
                st = uturn_plan_create(&p, &alloc, &plan, NULL);
            if (st == UTURN_OK)
                st = uturn_executor_run(ex, plan, &d, NULL, NULL, NULL, NULL);
            cr_assert(st == UTURN_OK || st == UTURN_E_NOMEM, "%s",
                      uturn_status_name(st));
            if (st == UTURN_E_NOMEM && ex != NULL && plan != NULL) {
                /* The same executor works once memory is back. */
                counts.fail_at        = 0;
                struct model again    = {.x = 0.5};
                const uturn_model_t e = describe(&again, i >= 4);
                cr_assert_eq(
                    uturn_executor_run(ex, plan, &e, NULL, NULL, NULL, NULL),
                    UTURN_OK);
            }
            uturn_plan_free(plan);
            uturn_executor_free(ex);
            cr_assert_eq(counts.live_blocks, 0, "case %zu allocation %llu", i,
                         (unsigned long long)k);
        }
    }
}
