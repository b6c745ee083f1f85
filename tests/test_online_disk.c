#define _GNU_SOURCE /* mkdtemp, nftw (scratch_dir.h) */
/*
 * The online planner with storage levels (the periodic disk schedule)
 * against independent truth: every realised plan for n = 1 .. 2000 is
 * valid for a validator with the levels that learns n only at the end,
 * the disk never holds more than its slots, and the predicted cost
 * (uturn_plan_online_cost) is the validator's; the cost is never below
 * hrevolve's offline optimum for that n, and equals the figures an
 * independent prototype printed; the first sweep stores only on the disk
 * at multiples of the period; the executor runs it through a file level
 * to the store-all gradient bit for bit, ending where the model says;
 * fingerprints, max_steps and refusals.
 */
#include "scratch_dir.h"

#include "online_stopper.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

static uturn_plan_t *disk_plan(const uint64_t (*lv)[3], uint64_t count,
                               uint64_t max_steps, uturn_status_t *status)
{
    uturn_level_t levels[4];
    for (uint64_t k = 0; k < count; k++) {
        uturn_level_init(&levels[k]);
        levels[k].slots      = lv[k][0];
        levels[k].write_cost = lv[k][1];
        levels[k].read_cost  = lv[k][2];
    }
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner               = UTURN_PLANNER_ONLINE;
    p.levels                = levels;
    p.level_count           = count;
    p.max_steps             = max_steps;
    uturn_plan_t *plan      = NULL;
    const uturn_status_t st = uturn_plan_create(&p, NULL, &plan, NULL);
    if (status != NULL)
        *status = st;
    return plan;
}

struct drive {
    uturn_status_t status;
    char message[256];
    uturn_stats_t seen, cursor;
    uturn_level_stats_t disk;
    uint64_t first_sweep_stores, off_disk_sweep_stores, period;
};

static void drive_push(uturn_validator_t *v, const uturn_action_t *a,
                       size_t count, struct drive *d)
{
    uturn_error_t err;
    uturn_error_init(&err);
    for (size_t i = 0; i < count && d->status == UTURN_OK; i++) {
        if (uturn_validator_push(v, &a[i], &err) != UTURN_OK) {
            d->status = err.status;
            memcpy(d->message, err.message, sizeof d->message);
        }
    }
}

/* The first sweep's stores: all on the disk (slots from disk_base), the
 * second one's step is the period. */
static void note_sweep(struct drive *d, const uturn_action_t *a, size_t count,
                       uint64_t disk_base)
{
    for (size_t i = 0; i < count; i++) {
        if (a[i].op != UTURN_OP_STORE)
            continue;
        d->first_sweep_stores += 1;
        d->off_disk_sweep_stores += a[i].slot < disk_base;
        if (d->first_sweep_stores == 2)
            d->period = a[i].step;
    }
}

/* Walk the plan's cursor, saying "last" after advance n-1 n, every action
 * through a validator of the plan's levels told n only then. */
static struct drive drive(const uturn_plan_t *plan, uint64_t n)
{
    struct drive d = {.status = UTURN_OK};
    uturn_stats_t ps;
    uturn_stats_init(&ps);
    uturn_plan_stats(plan, &ps);
    uturn_level_t lv[4];
    uint64_t disk_base = 0;
    for (uint64_t k = 0; k < ps.levels; k++) {
        uturn_level_stats_t ls;
        uturn_level_stats_init(&ls);
        uturn_plan_level_stats(plan, k, &ls);
        uturn_level_init(&lv[k]);
        lv[k].slots      = ls.slots;
        lv[k].write_cost = ls.write_cost;
        lv[k].read_cost  = ls.read_cost;
        disk_base += k + 1 < ps.levels ? ls.slots : 0;
    }
    uturn_problem_t vp;
    uturn_problem_init(&vp);
    vp.levels            = lv;
    vp.level_count       = ps.levels;
    uturn_validator_t *v = NULL;
    uturn_cursor_t *c    = NULL;
    cr_assert_eq(uturn_validator_create(&vp, NULL, &v, NULL), UTURN_OK);
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t batch[64];
    size_t count = 0;
    bool ended   = false;
    while (d.status == UTURN_OK &&
           uturn_cursor_read(c, batch, 64, &count) == UTURN_OK && count > 0) {
        if (!ended)
            note_sweep(&d, batch, count, disk_base);
        drive_push(v, batch, count, &d);
        const uturn_action_t *last = &batch[count - 1];
        if (!ended && last->op == UTURN_OP_ADVANCE && last->step_end == n) {
            ended = true;
            cr_assert_eq(uturn_cursor_end(c), UTURN_OK);
            cr_assert_eq(uturn_validator_set_steps(v, n, NULL), UTURN_OK);
        }
    }
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_stats_init(&d.seen);
    uturn_stats_init(&d.cursor);
    uturn_level_stats_init(&d.disk);
    if (d.status == UTURN_OK &&
        uturn_validator_finish(v, &d.seen, &err) != UTURN_OK) {
        d.status = err.status;
        memcpy(d.message, err.message, sizeof d.message);
    }
    uturn_validator_level_stats(v, ps.levels - 1, &d.disk);
    uturn_cursor_stats(c, &d.cursor);
    uturn_cursor_free(c);
    uturn_validator_free(v);
    return d;
}

/* hrevolve's offline optimum for n steps over the same levels. */
static uint64_t offline(const uint64_t (*lv)[3], uint64_t count, uint64_t n)
{
    uturn_level_t levels[4];
    for (uint64_t k = 0; k < count; k++) {
        uturn_level_init(&levels[k]);
        levels[k].slots      = lv[k][0];
        levels[k].write_cost = lv[k][1];
        levels[k].read_cost  = lv[k][2];
    }
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_HREVOLVE;
    p.steps            = n;
    p.levels           = levels;
    p.level_count      = count;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    uturn_plan_free(plan);
    return s.cost;
}

static void expect_valid(const uturn_plan_t *plan, uint64_t n,
                         uint64_t disk_slots, struct drive *out)
{
    const struct drive d = drive(plan, n);
    cr_assert_eq(d.status, UTURN_OK, "n %llu: %s", (unsigned long long)n,
                 d.message);
    cr_assert_leq(d.disk.peak_slots, disk_slots, "n %llu",
                  (unsigned long long)n);
    cr_assert_eq(d.off_disk_sweep_stores, 0);
    cr_assert_eq(d.cursor.steps, n);
    cr_assert_eq(d.cursor.cost, d.seen.cost, "n %llu: cursor %llu, walk %llu",
                 (unsigned long long)n, (unsigned long long)d.cursor.cost,
                 (unsigned long long)d.seen.cost);
    uint64_t predicted = 0;
    cr_assert_eq(uturn_plan_online_cost(plan, n, &predicted, NULL), UTURN_OK);
    cr_assert_eq(predicted, d.seen.cost, "n %llu: predicted %llu, walk %llu",
                 (unsigned long long)n, (unsigned long long)predicted,
                 (unsigned long long)d.seen.cost);
    if (out != NULL)
        *out = d;
}

Test(online_disk, every_plan_to_2000_is_valid_and_costs_what_was_predicted)
{
    /* Memory 3; disk 5, w = r = 3: period 10, then doublings. */
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    uturn_plan_t *plan      = disk_plan(lv, 2, 2000, NULL);
    cr_assert_not_null(plan);
    struct drive d;
    for (uint64_t n = 1; n <= 2000; n++) {
        expect_valid(plan, n, 5, &d);
        if (n > 10)
            cr_assert_eq(d.period, 10, "the period is %llu",
                         (unsigned long long)d.period);
    }
    uturn_plan_free(plan);
}

Test(online_disk, three_levels_and_one_disk_slot_are_valid)
{
    const uint64_t three[3][3] = {{4, 0, 0}, {16, 2, 2}, {6, 10, 10}};
    uturn_plan_t *plan         = disk_plan(three, 3, 700, NULL);
    cr_assert_not_null(plan);
    for (uint64_t n = 1; n <= 700; n += 3)
        expect_valid(plan, n, 6, NULL);
    uturn_plan_free(plan);
    const uint64_t one[2][3] = {{3, 0, 0}, {1, 4, 4}};
    plan                     = disk_plan(one, 2, 300, NULL);
    cr_assert_not_null(plan);
    for (uint64_t n = 1; n <= 300; n++)
        expect_valid(plan, n, 1, NULL);
    uturn_plan_free(plan);
}

/* Never below the offline optimum; the prototype's figures (its notes'
 * table, periodic / optimum) for the same requests. */
Test(online_disk, never_below_hrevolve_and_as_the_prototype_printed)
{
    const uint64_t a[2][3]  = {{5, 0, 0}, {2000, 5, 5}};
    const uint64_t b[2][3]  = {{10, 0, 0}, {1000, 2, 20}};
    const uint64_t ns[]     = {10, 50, 100, 200, 500};
    const uint64_t want_a[] = {33, 159, 315, 630, 1572};
    const uint64_t opt_a[]  = {15, 125, 284, 596, 1541};
    const uint64_t want_b[] = {41, 160, 320, 649, 1580};
    uturn_plan_t *pa        = disk_plan(a, 2, 0, NULL);
    uturn_plan_t *pb        = disk_plan(b, 2, 0, NULL);
    cr_assert_not_null(pa);
    cr_assert_not_null(pb);
    for (size_t i = 0; i < 5; i++) {
        struct drive d;
        expect_valid(pa, ns[i], 2000, &d);
        cr_assert_eq(d.seen.cost, want_a[i], "n %llu: %llu",
                     (unsigned long long)ns[i],
                     (unsigned long long)d.seen.cost);
        cr_assert_eq(offline(a, 2, ns[i]), opt_a[i]);
        expect_valid(pb, ns[i], 1000, &d);
        cr_assert_eq(d.seen.cost, want_b[i]);
        cr_assert_geq(d.seen.cost, offline(b, 2, ns[i]));
    }
    uturn_plan_free(pa);
    uturn_plan_free(pb);
}

Test(online_disk, reach_max_steps_and_refusals)
{
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    /* Without max_steps: disk slots times the period, 50 steps. */
    uturn_plan_t *plan = disk_plan(lv, 2, 0, NULL);
    uint64_t cost      = 0;
    cr_assert_eq(uturn_plan_online_cost(plan, 50, &cost, NULL), UTURN_OK);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_online_cost(plan, 51, &cost, &err),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "between 1 and 50") != NULL, "%s",
              err.message);
    cr_assert_eq(uturn_plan_online_cost(plan, 0, &cost, NULL),
                 UTURN_E_INVALID_ARG);
    const struct drive past = drive(plan, 51);
    cr_assert_eq(past.status, UTURN_E_INVALID_PLAN,
                 "a plan past its reach "
                 "has no turn");
    uturn_cursor_t *c = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    cr_assert_eq(uturn_cursor_set_size(c, 0, 8), UTURN_E_UNSUPPORTED);
    uturn_cursor_free(c);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cr_assert(s.online);
    cr_assert_eq(s.levels, 2);
    cr_assert_eq(s.slots, 8);
    uturn_plan_free(plan);
    /* max_steps: the sweep ends by itself there. */
    plan                     = disk_plan(lv, 2, 77, NULL);
    const struct drive never = drive(plan, 0);
    cr_assert_eq(never.cursor.steps, 77);
    cr_assert_eq(uturn_plan_online_cost(plan, 78, &cost, NULL),
                 UTURN_E_INVALID_ARG);
    uturn_plan_free(plan);
    /* Costs that decrease with the level. */
    const uint64_t bad[2][3] = {{3, 4, 4}, {5, 3, 3}};
    uturn_status_t st        = UTURN_OK;
    cr_assert_null(disk_plan(bad, 2, 0, &st));
    cr_assert_eq(st, UTURN_E_UNSUPPORTED);
    /* A last level too large for a cursor's table of its slots. */
    const uint64_t huge[2][3] = {{3, 0, 0}, {((uint64_t)1 << 24) + 1, 3, 3}};
    cr_assert_null(disk_plan(huge, 2, 0, &st));
    cr_assert_eq(st, UTURN_E_UNSUPPORTED);
    /* Not such a plan. */
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_ONLINE;
    p.slots   = 4;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    cr_assert_eq(uturn_plan_online_cost(plan, 10, &cost, NULL),
                 UTURN_E_UNSUPPORTED);
    uturn_plan_free(plan);
}

static uint64_t fingerprint_of(const uint64_t (*lv)[3], uint64_t max_steps)
{
    uturn_plan_t *plan = disk_plan(lv, 2, max_steps, NULL);
    cr_assert_not_null(plan);
    uint64_t f = 0;
    cr_assert_eq(uturn_plan_fingerprint(plan, &f), UTURN_OK);
    uturn_plan_free(plan);
    return f;
}

Test(online_disk, the_fingerprint_covers_levels_costs_and_max_steps)
{
    const uint64_t base[2][3]  = {{3, 0, 0}, {5, 3, 3}};
    const uint64_t slots[2][3] = {{3, 0, 0}, {6, 3, 3}};
    const uint64_t mem[2][3]   = {{4, 0, 0}, {5, 3, 3}};
    const uint64_t wr[2][3]    = {{3, 0, 0}, {5, 3, 4}};
    const uint64_t f           = fingerprint_of(base, 0);
    cr_assert_eq(f, fingerprint_of(base, 0));
    cr_assert_neq(f, fingerprint_of(slots, 0));
    cr_assert_neq(f, fingerprint_of(mem, 0));
    cr_assert_neq(f, fingerprint_of(wr, 0));
    cr_assert_neq(f, fingerprint_of(base, 100));
}

/* ---- the executor ------------------------------------------------------ */

/* The model that stops where it alone knows: online_stopper.h. */

/* One run through memory and a file level, ended by the model at n: the
 * gradient is the store-all one bit for bit, the disk counts are the
 * validator's, and no file is left. */
static void run_through_file(uturn_executor_t *ex, const uturn_plan_t *plan,
                             uint64_t n, const char *parent)
{
    struct stopper st = {.stop_at = n};
    uturn_model_t m   = st_model(&st);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, &seen, &rep, &err),
                 UTURN_OK, "n %llu: %s", (unsigned long long)n, err.message);
    double want[ST_DIM];
    st_reference(n, want);
    cr_assert_eq(memcmp(st.xbar, want, sizeof want), 0,
                 "n %llu: the gradient differs", (unsigned long long)n);
    cr_assert_eq(rep.steps, n);
    cr_assert_eq(seen.reverse_steps, n);
    const struct drive d = drive(plan, n);
    cr_assert_eq(d.status, UTURN_OK);
    cr_assert_eq(seen.forward_steps, d.seen.forward_steps);
    uturn_level_report_t disk;
    uturn_level_report_init(&disk);
    cr_assert_eq(uturn_executor_level_report(ex, 1, &disk), UTURN_OK);
    cr_assert_eq(disk.stores, d.disk.stores, "n %llu", (unsigned long long)n);
    cr_assert_eq(disk.restores, d.disk.restores);
    cr_assert_eq(scratch_count(parent), 0, "a run left files");
}

/* An executor whose level 1 is a file level under parent. */
static uturn_executor_t *file_executor(const char *parent)
{
    uturn_storage_t file;
    uturn_storage_init(&file);
    file.kind      = UTURN_STORAGE_FILE;
    file.directory = parent;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels             = &file;
    o.level_count        = 1;
    uturn_executor_t *ex = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_open(&o, &ex, &err), UTURN_OK, "%s",
                 err.message);
    return ex;
}

Test(online_disk, the_executor_runs_it_through_a_file_to_the_gradient)
{
    char parent[PATH_MAX];
    cr_assert(scratch_make("/tmp", parent));
    uturn_executor_t *ex    = file_executor(parent);
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    uturn_plan_t *plan      = disk_plan(lv, 2, 600, NULL);
    cr_assert_not_null(plan);
    const uint64_t ns[] = {1, 2, 9, 10, 11, 49, 50, 51, 137, 600};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        run_through_file(ex, plan, ns[i], parent);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    cr_assert_eq(scratch_count(parent), 0);
    scratch_remove(parent);
}

Test(online_disk, a_run_past_the_reach_fails_and_says_why)
{
    char parent[PATH_MAX];
    cr_assert(scratch_make("/tmp", parent));
    uturn_executor_t *ex    = file_executor(parent);
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    uturn_plan_t *plan      = disk_plan(lv, 2, 0, NULL);
    struct stopper st       = {.stop_at = 51};
    uturn_model_t m         = st_model(&st);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t got =
        uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &err);
    cr_assert_eq(got, UTURN_E_INFEASIBLE, "%d %s", got, err.message);
    cr_assert(strstr(err.message, "stopped its first sweep at x_50") != NULL,
              "%s", err.message);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    cr_assert_eq(scratch_count(parent), 0);
    scratch_remove(parent);
}

/* The first sweep up to advance n-1 n, read by read: each read ends at
 * its one advance; the actions go to out. */
static size_t sweep_prefix(const uturn_plan_t *plan, uint64_t n,
                           uturn_action_t *out, size_t cap)
{
    uturn_cursor_t *c = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t batch[64];
    size_t count = 0, kept = 0;
    while (uturn_cursor_read(c, batch, 64, &count) == UTURN_OK && count > 0) {
        size_t advances = 0;
        for (size_t i = 0; i < count; i++) {
            advances += batch[i].op == UTURN_OP_ADVANCE;
            cr_assert_lt(kept, cap);
            out[kept++] = batch[i];
        }
        cr_assert_eq(advances, 1, "a first-sweep read holds one advance");
        cr_assert_eq(batch[count - 1].op, UTURN_OP_ADVANCE,
                     "a first-sweep read ends at its advance");
        if (batch[count - 1].step_end == n)
            break;
    }
    uturn_cursor_free(c);
    return kept;
}

Test(online_disk, the_first_sweep_stops_at_each_advance_and_ignores_n)
{
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    uturn_plan_t *plan      = disk_plan(lv, 2, 3000, NULL);
    enum { CAP = 4096 };
    uturn_action_t *a = calloc(CAP, sizeof *a), *b = calloc(CAP, sizeof *b);
    const uint64_t ends[] = {1, 10, 37, 333, 1500};
    for (size_t j = 0; j < 5; j++) {
        const size_t na = sweep_prefix(plan, ends[j], a, CAP);
        const size_t nb = sweep_prefix(plan, ends[j] + 1000, b, CAP);
        cr_assert_leq(na, nb);
        cr_assert_eq(memcmp(a, b, na * sizeof *a), 0,
                     "the sweeps for %llu and %llu differ",
                     (unsigned long long)ends[j],
                     (unsigned long long)(ends[j] + 1000));
    }
    free(a);
    free(b);
    uturn_plan_free(plan);
}
