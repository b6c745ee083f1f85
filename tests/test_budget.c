/*
 * The budget is an invariant of the executor, whatever sequence of runs it
 * sees: while a run's callbacks execute, the slot storage it holds (what
 * earlier runs left included) is at most that run's budget, checked at
 * every allocation of the slot allocator and inside every callback; after a
 * run it holds at most that run's budget, or exactly its own need when it
 * had none. Long random sequences mix every planner, uniform and per-step
 * sizes, contiguous and save/load states, budgets rising and falling,
 * infeasible runs and runs that fail midway. The slot allocator is a
 * counting one, separate from the bookkeeping allocator, so what it counts
 * is exactly the slot storage. The same invariant on the default pages
 * backend (measured from the library's mmap and malloc calls), with file
 * and user levels, is test_budget_held.c's.
 */
#include "budget_chain.h"
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define ULL(x) ((unsigned long long)(x))
#define MAX_N  BC_MAX_N
#define WIDTH  BC_WIDTH

struct model {
    struct bc_chain chain; /* first: the callbacks' user */
    uint64_t calls, fail_at;
    const counting_alloc_t *slots;
    uint64_t limit;      /* what the slot storage may hold now */
    uint64_t violations; /* times it held more, seen in a callback */
};

static int watch(struct bc_chain *chain)
{
    struct model *m = (struct model *)(void *)chain;
    if (m->slots->live_bytes > m->limit)
        m->violations += 1;
    m->calls += 1;
    return m->fail_at != 0 && m->calls == m->fail_at ? 5 : 0;
}

/* Every allocation of the slot allocator: never above the limit. */
static void on_slot_alloc(void *context, const counting_alloc_t *c)
{
    struct model *m = context;
    if (c->live_bytes > m->limit)
        m->violations += 1;
}

struct case_ {
    uturn_planner_t planner;
    uint64_t n, slots, budget, width;
    bool contiguous, sized, plan_sizes;
    uint64_t fail_at;
};

static uint64_t pick(uint64_t *seed, uint64_t bound)
{
    *seed = *seed * 6364136223846793005u + 1442695040888963407u;
    return (*seed >> 33) % bound;
}

static struct case_ random_case(uint64_t *seed)
{
    static const uturn_planner_t planners[] = {
        UTURN_PLANNER_STORE_ALL, UTURN_PLANNER_PERIODIC, UTURN_PLANNER_SQRT,
        UTURN_PLANNER_REVOLVE, UTURN_PLANNER_DP};
    struct case_ c = {0};
    c.planner      = planners[pick(seed, 5)];
    c.n            = 1 + pick(seed, MAX_N);
    c.slots        = 1 + pick(seed, c.n + 2);
    c.width        = 1 + pick(seed, WIDTH);
    c.contiguous   = pick(seed, 3) == 0;
    c.sized        = !c.contiguous && pick(seed, 2) == 0;
    c.plan_sizes   = c.sized && c.planner == UTURN_PLANNER_DP;
    /* Budgets rising and falling, none at all, or too small. */
    const uint64_t r = pick(seed, 10);
    c.budget         = r == 0   ? 0
                       : r == 1 ? 1 + pick(seed, 200)
                                : 16 * (1 + pick(seed, 16 * WIDTH * c.n / 8));
    c.fail_at        = pick(seed, 4) == 0 ? 1 + pick(seed, 6 * c.n) : 0;
    return c;
}

static uturn_plan_t *plan_for(uturn_executor_t *ex, const struct case_ *c,
                              struct model *m)
{
    uint64_t sizes[MAX_N];
    for (uint64_t i = 0; i < c->n; i++)
        sizes[i] = 8 * bc_doubles_of(&m->chain, i);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner    = c->planner;
    p.steps      = c->n;
    p.slot_bytes = 8 * (c->sized ? WIDTH / 2 : m->chain.width);
    if (c->plan_sizes)
        p.step_bytes = sizes;
    if (c->budget != 0 && c->planner != UTURN_PLANNER_STORE_ALL)
        p.budget_bytes = c->budget;
    else if (c->planner != UTURN_PLANNER_STORE_ALL)
        p.slots = c->slots;
    uturn_plan_t *plan = NULL;
    if (uturn_executor_plan(ex, &p, &plan, NULL) != UTURN_OK)
        return NULL;
    return plan;
}

/* One run of the sequence, with the invariant checked throughout. */
static void one_run(uturn_executor_t *ex, counting_alloc_t *slots,
                    const struct case_ *c, struct model *m, uint64_t k)
{
    bc_reset(&m->chain, c->sized, c->width, 0);
    m->calls   = 0;
    m->fail_at = c->fail_at;
    uturn_plan_t *plan = plan_for(ex, c, m);
    if (plan == NULL)
        return; /* no plan fits that budget: nothing runs */
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.budget_bytes = c->budget;
    /* The limit is known before the run: its budget, or with none the
     * most it may need (what it held before, or its peak). */
    m->limit = c->budget != 0 ? c->budget : UINT64_MAX;
    const uturn_model_t d =
        bc_describe(&m->chain, c->contiguous, c->plan_sizes, false);
    uturn_report_t rep;
    uturn_report_init(&rep);
    const uturn_status_t st = uturn_executor_run(ex, plan, &d, &o, NULL, &rep,
                                                 NULL);
    cr_assert(st == UTURN_OK || st == UTURN_E_CALLBACK ||
                  st == UTURN_E_INFEASIBLE,
              "run %llu: %s", ULL(k), uturn_status_name(st));
    cr_assert_eq(m->chain.wrong_sizes, 0, "run %llu: a state of the wrong size",
                 ULL(k));
    cr_assert_eq(m->violations, 0, "run %llu held %llu bytes, budget %llu",
                 ULL(k), ULL(slots->live_bytes), ULL(c->budget));
    cr_assert_eq(slots->live_bytes, uturn_executor_held_bytes(ex));
    if (c->budget != 0)
        cr_assert_leq(slots->live_bytes, c->budget, "after run %llu", ULL(k));
    else if (st != UTURN_E_INFEASIBLE)
        cr_assert_eq(slots->live_bytes, rep.planned_peak_bytes,
                     "a run without a budget keeps its own need");
    if (st == UTURN_OK) {
        cr_assert_leq(rep.measured_peak_bytes,
                      c->budget != 0 ? c->budget : rep.planned_peak_bytes);
        const double want = bc_reference(c->n);
        cr_assert(memcmp(&m->chain.xbar, &want, sizeof want) == 0, "run %llu",
                  ULL(k));
    }
    uturn_plan_free(plan);
}

Test(budget, holds_across_long_random_sequences_of_runs)
{
    for (uint64_t seed0 = 1; seed0 <= 6; seed0++) {
        counting_alloc_t slots        = {0};
        const uturn_allocator_t slot_alloc = counting_allocator(&slots);
        struct model m                = {.chain.watch = watch, .slots = &slots};
        slots.on_alloc                = on_slot_alloc;
        slots.context                 = &m;
        m.limit                       = UINT64_MAX;
        uturn_executor_options_t eo;
        uturn_executor_options_init(&eo);
        eo.slot_alloc        = &slot_alloc;
        uturn_executor_t *ex = NULL;
        cr_assert_eq(uturn_executor_open(&eo, &ex, NULL), UTURN_OK);
        uint64_t seed = seed0;
        for (uint64_t k = 0; k < 250; k++) {
            const struct case_ c = random_case(&seed);
            one_run(ex, &slots, &c, &m, k);
        }
        uturn_executor_free(ex);
        cr_assert_eq(slots.live_blocks, 0);
        cr_assert_eq(slots.size_mismatches, 0);
    }
}

/* The case an outside review found: a uniform run with a large budget,
 * then a run with per-step sizes and a smaller one. The region kept from
 * the first was held, uncounted, through the second (1,179,792 bytes
 * against 655,440) and the run reported success. */
Test(budget, a_per_step_run_after_a_uniform_one_keeps_to_its_budget)
{
    counting_alloc_t slots             = {0};
    const uturn_allocator_t slot_alloc = counting_allocator(&slots);
    struct model m = {.chain.watch = watch, .slots = &slots};
    slots.on_alloc                     = on_slot_alloc;
    slots.context                      = &m;
    uturn_executor_options_t eo;
    uturn_executor_options_init(&eo);
    eo.slot_alloc        = &slot_alloc;
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(&eo, &ex, NULL), UTURN_OK);
    const struct case_ first  = {.planner    = UTURN_PLANNER_STORE_ALL,
                                 .n          = 40,
                                 .budget     = 40 * 8 * WIDTH,
                                 .width      = WIDTH,
                                 .contiguous = true};
    const struct case_ second = {.planner    = UTURN_PLANNER_DP,
                                 .n          = 40,
                                 .budget     = 4000,
                                 .sized      = true,
                                 .plan_sizes = true};
    m.limit = first.budget;
    one_run(ex, &slots, &first, &m, 0);
    cr_assert_eq(slots.live_bytes, 40 * 8 * WIDTH, "store-all's region kept");
    one_run(ex, &slots, &second, &m, 1);
    cr_assert_leq(slots.live_bytes, second.budget);
    uturn_executor_free(ex);
}
