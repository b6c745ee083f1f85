/*
 * Every store checks the size it is about to write against its slot,
 * before writing a byte (issue 22, finding 1). A save/load model whose
 * state_size says more than state_bytes (the size a uniform slot holds)
 * once wrote past the slot in online runs (a segfault, or UTURN_OK with
 * corrupted loads). Here such a model meets every plan kind and level:
 * the run must fail with UTURN_E_INVALID_ARG naming the step and both
 * sizes, and save must never have been handed more bytes than the slot
 * holds. A model within its slots must still run to the gradient of a
 * plain loop (truth outside uturn), so the check cannot be "refuse every
 * save/load model".
 */
#define _GNU_SOURCE
#include "scratch_dir.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <uturn.h>

#define SLOT  64  /* state_bytes: what a uniform slot holds */
#define BIG   368 /* what state_size says for x_BIG_AT */
#define STEPS 40
/* big_model(): no state_size callback at all (every state state_bytes). */
#define NO_SIZE (UTURN_NONE - 1)

struct big {
    double x, xbar;
    uint64_t big_at; /* state_size is BIG here; UTURN_NONE: never */
    uint64_t most;   /* the most bytes save or load was handed */
    uint64_t saves;
    struct {
        uint64_t step;
        bool used;
    } user_slots[64];
    unsigned char user_bytes[64][BIG];
};

static uint64_t big_size(void *u, uint64_t step)
{
    const struct big *s = u;
    return step == s->big_at ? BIG : SLOT;
}

static int big_forward(void *u, uint64_t i)
{
    (void)i;
    struct big *s = u;
    s->x += 0.01 * sin(s->x);
    return 0;
}

static int big_turn(void *u)
{
    struct big *s = u;
    s->xbar       = 2 * s->x;
    return 0;
}

static int big_adjoint(void *u, uint64_t i)
{
    (void)i;
    struct big *s = u;
    s->xbar *= 1 + 0.01 * cos(s->x);
    return 0;
}

static int big_save(void *u, uint64_t step, void *dst, uint64_t bytes)
{
    struct big *s = u;
    s->most       = bytes > s->most ? bytes : s->most;
    s->saves += 1;
    memset(dst, (int)(step & 0xff), (size_t)bytes);
    memcpy(dst, &s->x, sizeof s->x);
    return 0;
}

static int big_load(void *u, uint64_t step, const void *src, uint64_t bytes)
{
    struct big *s            = u;
    const unsigned char *pad = src;
    s->most                  = bytes > s->most ? bytes : s->most;
    for (uint64_t k = sizeof s->x; k < bytes; k++)
        if (pad[k] != (step & 0xff))
            return 7; /* a state came back damaged */
    memcpy(&s->x, src, sizeof s->x);
    return 0;
}

static int big_is_last(void *u, uint64_t step)
{
    (void)u;
    return step == STEPS;
}

static uturn_model_t big_model(struct big *s, uint64_t big_at)
{
    memset(s, 0, sizeof *s);
    s->x      = 0.3;
    s->big_at = big_at;
    uturn_model_t m;
    uturn_model_init(&m);
    m.user        = s;
    m.forward     = big_forward;
    m.turn        = big_turn;
    m.adjoint     = big_adjoint;
    m.save        = big_save;
    m.load        = big_load;
    m.state_size  = big_at == NO_SIZE ? NULL : big_size;
    m.state_bytes = SLOT;
    m.is_last     = big_is_last;
    return m;
}

/* The gradient of a plain loop: truth outside uturn. */
static double plain_gradient(void)
{
    double xs[STEPS + 1];
    xs[0] = 0.3;
    for (int i = 0; i < STEPS; i++)
        xs[i + 1] = xs[i] + 0.01 * sin(xs[i]);
    double xbar = 2 * xs[STEPS];
    for (int i = STEPS - 1; i >= 0; i--)
        xbar *= 1 + 0.01 * cos(xs[i]);
    return xbar;
}

/* A user level kept in the model's own arrays (up to BIG bytes a slot). */
static int user_put(void *u, uint64_t id, uint64_t step, const void *src,
                    uint64_t bytes)
{
    struct big *s = u;
    if (id >= 64 || bytes > BIG)
        return 9;
    s->most                = bytes > s->most ? bytes : s->most;
    s->user_slots[id].step = step;
    s->user_slots[id].used = true;
    memcpy(s->user_bytes[id], src, (size_t)bytes);
    return 0;
}

static int user_get(void *u, uint64_t id, uint64_t step, void *dst,
                    uint64_t bytes)
{
    struct big *s = u;
    if (id >= 64 || !s->user_slots[id].used || s->user_slots[id].step != step)
        return 9;
    memcpy(dst, s->user_bytes[id], (size_t)bytes);
    return 0;
}

enum kind {
    ONLINE_SLOTS,
    ONLINE_BYTES,  /* a byte budget with slot_bytes: uniform slots */
    ONLINE_FILE,   /* online with a disk level */
    ONLINE_USER,   /* online with a user level */
    HREVOLVE_FILE, /* offline, memory and a file level */
    REVOLVE,       /* offline, memory only */
};

struct outcome {
    uturn_status_t status;
    char message[256];
    uint64_t failed_step;
    double xbar;
};

static void add_levels(uturn_problem_t *p, uturn_level_t lv[2], uint64_t mem,
                       uint64_t disk)
{
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].name       = "mem";
    lv[0].slots      = mem;
    lv[1].name       = "disk";
    lv[1].slots      = disk;
    lv[1].write_cost = 2;
    lv[1].read_cost  = 2;
    p->levels        = lv;
    p->level_count   = 2;
}

static uturn_problem_t problem_for(enum kind k, uturn_level_t lv[2])
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    const bool online = k <= ONLINE_USER;
    p.planner         = online               ? UTURN_PLANNER_ONLINE
                        : k == HREVOLVE_FILE ? UTURN_PLANNER_HREVOLVE
                                             : UTURN_PLANNER_REVOLVE;
    p.steps           = online ? 0 : STEPS;
    p.max_steps       = online ? 1000 : 0;
    p.slot_bytes      = SLOT;
    if (k == ONLINE_SLOTS || k == REVOLVE)
        p.slots = 4;
    else if (k == ONLINE_BYTES)
        p.budget_bytes = 4 * SLOT;
    else
        add_levels(&p, lv, 2, 8);
    return p;
}

static struct outcome run_kind(enum kind k, struct big *s, uint64_t big_at)
{
    char dir[PATH_MAX];
    cr_assert(scratch_make("/tmp", dir));
    uturn_storage_callbacks_t cb = {
        .size = sizeof cb, .user = s, .put = user_put, .get = user_get};
    uturn_storage_t level;
    uturn_storage_init(&level);
    level.directory = dir;
    if (k == ONLINE_USER) {
        level.kind      = UTURN_STORAGE_USER;
        level.callbacks = &cb;
    }
    uturn_executor_options_t eo;
    uturn_executor_options_init(&eo);
    eo.levels            = &level;
    eo.level_count       = 1;
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(&eo, &ex, NULL), UTURN_OK);
    uturn_level_t lv[2];
    const uturn_problem_t p = problem_for(k, lv);
    uturn_plan_t *plan      = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_plan(ex, &p, &plan, &err), UTURN_OK, "%s",
                 err.message);
    const uturn_model_t m = big_model(s, big_at);
    uturn_report_t rep;
    uturn_report_init(&rep);
    struct outcome o = {0};
    o.status         = uturn_executor_run(ex, plan, &m, NULL, NULL, &rep, &err);
    o.failed_step    = rep.failed_step;
    o.xbar           = s->xbar;
    memcpy(o.message, err.message, sizeof o.message);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    cr_assert_eq(scratch_count(dir), 0, "the level left files in %s", dir);
    scratch_remove(dir);
    return o;
}

static const char *kind_name(enum kind k)
{
    static const char *const names[] = {"online slots",  "online bytes",
                                        "online file",   "online user",
                                        "hrevolve file", "revolve"};
    return names[k];
}

/* x_0 is stored by every plan kind; x_1 by every online first sweep (with
 * 4 slots and 40 steps, x_1 is kept until a later state replaces it). */
static void refused(enum kind k, uint64_t big_at)
{
    struct big s;
    const struct outcome o = run_kind(k, &s, big_at);
    cr_assert_eq(o.status, UTURN_E_INVALID_ARG, "%s, x_%llu: %s (%s)",
                 kind_name(k), (unsigned long long)big_at,
                 uturn_status_name(o.status), o.message);
    char step[32];
    snprintf(step, sizeof step, "x_%llu", (unsigned long long)big_at);
    cr_assert(strstr(o.message, step) != NULL, "%s: %s", kind_name(k),
              o.message);
    cr_assert(strstr(o.message, "368") != NULL, "%s: %s", kind_name(k),
              o.message);
    cr_assert(strstr(o.message, "64") != NULL, "%s: %s", kind_name(k),
              o.message);
    cr_assert_eq(o.failed_step, big_at, "%s", kind_name(k));
    cr_assert_leq(s.most, SLOT, "%s: save or a level got %llu bytes",
                  kind_name(k), (unsigned long long)s.most);
}

Test(slot_fit, every_online_kind_refuses_a_state_past_its_slot)
{
    for (int k = ONLINE_SLOTS; k <= ONLINE_USER; k++) {
        refused((enum kind)k, 0);
        refused((enum kind)k, 1);
    }
}

/* Offline plans with levels do not take a state_size callback yet: the
 * run is refused before any callback, so no state can outgrow its slot. */
Test(slot_fit, offline_levels_refuse_state_size_before_any_callback)
{
    struct big s;
    const struct outcome o = run_kind(HREVOLVE_FILE, &s, 0);
    cr_assert_eq(o.status, UTURN_E_UNSUPPORTED, "%s: %s",
                 uturn_status_name(o.status), o.message);
    cr_assert_eq(s.saves, 0);
    cr_assert(o.xbar == 0, "no callback ran");
}

Test(slot_fit, models_within_their_slots_still_run)
{
    const double truth = plain_gradient();
    for (int k = ONLINE_SLOTS; k <= REVOLVE; k++) {
        struct big s;
        const struct outcome o = run_kind(
            (enum kind)k, &s, k == HREVOLVE_FILE ? NO_SIZE : UTURN_NONE);
        cr_assert_eq(o.status, UTURN_OK, "%s: %s", kind_name((enum kind)k),
                     o.message);
        cr_assert(o.xbar == truth, "%s: %.17g against %.17g",
                  kind_name((enum kind)k), o.xbar, truth);
        cr_assert_gt(s.saves, 0, "%s stored nothing", kind_name((enum kind)k));
    }
}

/* Offline memory-only plans size each slot by the model's state_size
 * (they take states of different sizes): a bigger x_0 is no error. */
Test(slot_fit, offline_memory_plans_size_slots_by_the_model)
{
    struct big s;
    const struct outcome o = run_kind(REVOLVE, &s, 0);
    cr_assert_eq(o.status, UTURN_OK, "%s: %s", uturn_status_name(o.status),
                 o.message);
    cr_assert(o.xbar == plain_gradient());
    cr_assert_eq(s.most, BIG, "x_0 was saved at its own size");
}

/* Issue 22, finding 10: a sized run over its budget named the plan's
 * slot_bytes ("states of up to 64 bytes") where the model's largest state
 * has 368. A plan of 12 slots of 64 bytes fits a budget of 12 * 80 bytes;
 * with x_3 at 368 bytes (the model's state_size) it does not. */
Test(slot_fit, over_budget_names_the_largest_state)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(NULL, &ex, NULL), UTURN_OK);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = STEPS;
    p.slot_bytes       = SLOT;
    p.slots            = 12;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    struct big s;
    const uturn_model_t m = big_model(&s, 3);
    uturn_run_options_t ro;
    uturn_run_options_init(&ro);
    ro.budget_bytes = 12 * 80;
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_executor_run(ex, plan, &m, &ro, NULL, NULL, &err);
    cr_assert_eq(st, UTURN_E_INFEASIBLE, "%s: %s", uturn_status_name(st),
                 err.message);
    cr_assert(strstr(err.message, "states of up to 368 bytes") != NULL, "%s",
              err.message);
    cr_assert_eq(s.saves, 0, "refused before any callback");
    uturn_plan_free(plan);
    uturn_executor_free(ex);
}
