#define _GNU_SOURCE /* mkdtemp, ftruncate, nftw */
/*
 * The executor with storage levels beyond memory: gradients through memory
 * and files (overlapped and synchronous, through the state or save/load)
 * equal bitwise a hand-written store-everything adjoint; every level's
 * counts are the plan's; the memory budget holds the I/O buffers; a file
 * damaged or cut short under a run, a failing user level and a failing
 * callback each stop the run with an error naming the step, and no run
 * leaves a file behind.
 */
#include "scratch_dir.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uturn.h>

#include "stats_equal.h"

#define DIM 37 /* doubles: 296 bytes, not a multiple of 16 */

struct sim {
    double x[DIM], xbar[DIM];
    uint64_t n;
    const char *parent; /* the file level's parent directory, or NULL */
    int damage_at;      /* adjoint call that damages the file: 1 flip,
                           2 truncate (kind) */
    int damage_kind;
    int adjoint_calls, fail_adjoint_at;
    int run_dirs_seen;
};

static void step(const double *in, double *out)
{
    for (int j = 0; j < DIM; j++)
        out[j] = in[j] + 0.01 * sin(in[(j + 1) % DIM]) * in[j];
}

/* d(out)/d(in) transposed, applied to out_bar. */
static void step_bar(const double *in, const double *obar, double *ibar)
{
    for (int j = 0; j < DIM; j++)
        ibar[j] = obar[j] * (1.0 + 0.01 * sin(in[(j + 1) % DIM]));
    for (int j = 0; j < DIM; j++) {
        const int k = (j + 1) % DIM;
        ibar[k] += obar[j] * 0.01 * cos(in[k]) * in[j];
    }
}

static void start(double *x)
{
    for (int j = 0; j < DIM; j++)
        x[j] = 0.5 + 0.01 * j;
}

/* The truth: every state kept, reversed by hand. */
static void reference(uint64_t n, double grad[DIM])
{
    double(*xs)[DIM] = calloc(n + 1, sizeof *xs);
    cr_assert_not_null(xs);
    start(xs[0]);
    for (uint64_t i = 0; i < n; i++)
        step(xs[i], xs[i + 1]);
    double bar[DIM], prev[DIM];
    for (int j = 0; j < DIM; j++)
        bar[j] = 2 * xs[n][j];
    for (uint64_t i = n; i-- > 0;) {
        step_bar(xs[i], bar, prev);
        memcpy(bar, prev, sizeof bar);
    }
    memcpy(grad, bar, sizeof bar);
    free(xs);
}

static int sim_forward(void *user, uint64_t i)
{
    struct sim *s = user;
    (void)i;
    double y[DIM];
    step(s->x, y);
    memcpy(s->x, y, sizeof y);
    if (s->parent != NULL && s->run_dirs_seen == 0) {
        char run[PATH_MAX];
        s->run_dirs_seen = scratch_find(s->parent, "uturn-", run);
    }
    return 0;
}

static int sim_turn(void *user)
{
    struct sim *s = user;
    for (int j = 0; j < DIM; j++)
        s->xbar[j] = 2 * s->x[j];
    return 0;
}

/* Damage the run's slots file: every byte flipped, or cut to nothing. */
static void damage(const struct sim *s)
{
    char run[PATH_MAX], slots[PATH_MAX];
    cr_assert_eq(scratch_find(s->parent, "uturn-", run), 1);
    cr_assert(scratch_find(run, "slots", slots) == 1, "no slots file");
    const int fd = open(slots, O_RDWR);
    cr_assert(fd >= 0);
    if (s->damage_kind == 2) {
        cr_assert_eq(ftruncate(fd, 0), 0);
    } else {
        unsigned char buf[4096];
        ssize_t got = 0;
        off_t at    = 0;
        while ((got = pread(fd, buf, sizeof buf, at)) > 0) {
            for (ssize_t b = 0; b < got; b++)
                buf[b] ^= 0x5a;
            cr_assert_eq(pwrite(fd, buf, (size_t)got, at), got);
            at += got;
        }
    }
    close(fd);
}

static int sim_adjoint(void *user, uint64_t i)
{
    struct sim *s = user;
    (void)i;
    s->adjoint_calls += 1;
    if (s->adjoint_calls == s->fail_adjoint_at)
        return 7;
    if (s->adjoint_calls == s->damage_at)
        damage(s);
    double prev[DIM];
    step_bar(s->x, s->xbar, prev);
    memcpy(s->xbar, prev, sizeof prev);
    return 0;
}

static int sim_save(void *user, uint64_t i, void *dst, uint64_t bytes)
{
    const struct sim *s = user;
    (void)i;
    cr_assert_eq(bytes, sizeof s->x);
    memcpy(dst, s->x, sizeof s->x);
    return 0;
}

static int sim_load(void *user, uint64_t i, const void *src, uint64_t bytes)
{
    struct sim *s = user;
    (void)i;
    cr_assert_eq(bytes, sizeof s->x);
    memcpy(s->x, src, sizeof s->x);
    return 0;
}

static uturn_model_t sim_model(struct sim *s, bool save_load)
{
    start(s->x);
    uturn_model_t m;
    uturn_model_init(&m);
    m.user        = s;
    m.state_bytes = sizeof s->x;
    m.forward     = sim_forward;
    m.turn        = sim_turn;
    m.adjoint     = sim_adjoint;
    if (save_load) {
        m.save = sim_save;
        m.load = sim_load;
    } else {
        m.state = s->x;
    }
    return m;
}

/* A revolve plan for n steps and mem + disk slots, its slots split into a
 * memory level of mem and a disk level of disk (w = r = 5): plan text
 * version 2 written from version 1. */
static uturn_plan_t *split_plan(uint64_t n, uint64_t mem, uint64_t disk)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_REVOLVE;
    p.steps   = n;
    p.slots   = mem + disk;
    uturn_plan_t *one = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &one, NULL), UTURN_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f    = open_memstream(&text, &len);
    cr_assert_eq(uturn_plan_write(one, f, NULL), UTURN_OK);
    fclose(f);
    uturn_plan_free(one);
    char *body = strstr(text, "\nslots ");
    body       = strchr(body + 1, '\n') + 1;
    char *two  = NULL;
    cr_assert(asprintf(&two,
                       "uturn-plan 2\nsteps %llu\nslots %llu\n"
                       "level mem %llu 0 0\nlevel disk %llu 5 5\n%s",
                       (unsigned long long)n,
                       (unsigned long long)(mem + disk),
                       (unsigned long long)mem, (unsigned long long)disk,
                       body) > 0);
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_parse(two, strlen(two), NULL, &plan, &err),
                 UTURN_OK, "%s", err.message);
    free(two);
    free(text);
    return plan;
}

struct rig {
    char parent[PATH_MAX];
    uturn_storage_t level;
    uturn_executor_t *ex;
};

static void rig_open(struct rig *r, bool synchronous, uint64_t io_buffers)
{
    cr_assert(scratch_make("/tmp", r->parent));
    uturn_storage_init(&r->level);
    r->level.kind        = UTURN_STORAGE_FILE;
    r->level.directory   = r->parent;
    r->level.synchronous = synchronous;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = &r->level;
    o.level_count = 1;
    o.io_buffers  = io_buffers;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_open(&o, &r->ex, &err), UTURN_OK, "%s",
                 err.message);
}

/* Nothing is left in the parent, before and after the executor goes. */
static void rig_close(struct rig *r)
{
    cr_assert_eq(scratch_count(r->parent), 0, "a run left files");
    uturn_executor_free(r->ex);
    cr_assert_eq(scratch_count(r->parent), 0);
    scratch_remove(r->parent);
}

static void expect_level_counts(const uturn_executor_t *ex,
                                const uturn_plan_t *plan, uint64_t bytes)
{
    for (uint64_t k = 0; k < 2; k++) {
        uturn_level_stats_t want;
        uturn_level_stats_init(&want);
        cr_assert_eq(uturn_plan_level_stats(plan, k, &want), UTURN_OK);
        uturn_level_report_t got;
        uturn_level_report_init(&got);
        cr_assert_eq(uturn_executor_level_report(ex, k, &got), UTURN_OK);
        cr_assert_eq(got.stores, want.stores, "level %llu", (unsigned long long)k);
        cr_assert_eq(got.restores, want.restores);
        cr_assert_eq(got.peak_slots, want.peak_slots);
        if (k == 1) {
            cr_assert_eq(got.bytes_written, want.stores * bytes);
            cr_assert_eq(got.bytes_read, want.restores * bytes);
        }
    }
}

static void run_and_compare(bool synchronous, bool save_load,
                            uint64_t io_buffers)
{
    const uint64_t n = 60;
    double want[DIM];
    reference(n, want);
    struct rig r;
    rig_open(&r, synchronous, io_buffers);
    uturn_plan_t *plan = split_plan(n, 2, 4);
    uturn_stats_t planned;
    uturn_stats_init(&planned);
    uturn_plan_stats(plan, &planned);
    for (int again = 0; again < 2; again++) { /* a second run reuses it */
        struct sim s = {.n = n, .parent = r.parent};
        uturn_model_t m = sim_model(&s, save_load);
        uturn_stats_t seen;
        uturn_stats_init(&seen);
        uturn_report_t rep;
        uturn_report_init(&rep);
        uturn_error_t err;
        uturn_error_init(&err);
        cr_assert_eq(uturn_executor_run(r.ex, plan, &m, NULL, &seen, &rep,
                                        &err),
                     UTURN_OK, "%s", err.message);
        cr_assert_eq(memcmp(s.xbar, want, sizeof want), 0,
                     "the gradient differs (sync %d, save/load %d)",
                     synchronous, save_load);
        cr_assert_eq(s.run_dirs_seen, 1, "the run had one directory");
        stats_expect_equal(&seen, &planned, "a run with a file level");
        cr_assert_gt(seen.cost, seen.forward_cost, "the level's I/O costs");
        expect_level_counts(r.ex, plan, sizeof s.x);
        const uint64_t buffers = synchronous ? 1 : io_buffers ? io_buffers : 2;
        cr_assert_eq(rep.io_buffer_bytes, buffers * 304);
        cr_assert_eq(scratch_count(r.parent), 0);
    }
    uturn_plan_free(plan);
    rig_close(&r);
}

Test(exec_levels, overlapped_state_gradient_is_bitwise_the_reference)
{
    run_and_compare(false, false, 0);
}

Test(exec_levels, overlapped_save_load_gradient_is_bitwise_the_reference)
{
    run_and_compare(false, true, 0);
}

Test(exec_levels, synchronous_gradients_are_bitwise_the_reference)
{
    run_and_compare(true, false, 0);
    run_and_compare(true, true, 0);
}

Test(exec_levels, every_buffer_count_gives_the_same_gradient)
{
    const uint64_t counts[] = {1, 3, 5, 16};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        run_and_compare(false, c % 2 == 1, counts[c]);
}

Test(exec_levels, memory_budget_holds_the_buffers)
{
    struct rig r;
    rig_open(&r, false, 3);
    uturn_plan_t *plan = split_plan(40, 2, 3);
    uturn_level_stats_t mem;
    uturn_level_stats_init(&mem);
    uturn_plan_level_stats(plan, 0, &mem);
    /* The memory peak and three buffers, at what the region costs. */
    uint64_t need = 0;
    cr_assert_eq(uturn_executor_budget(r.ex, sizeof(double) * DIM,
                                       mem.peak_slots + 3, &need),
                 UTURN_OK);
    struct sim s    = {.n = 40};
    uturn_model_t m = sim_model(&s, false);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.budget_bytes = need - 1;
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(r.ex, plan, &m, &o, NULL, &rep, &err),
                 UTURN_E_INFEASIBLE, "%s", err.message);
    cr_assert_eq(s.adjoint_calls, 0, "refused before any callback");
    o.budget_bytes = need;
    start(s.x);
    cr_assert_eq(uturn_executor_run(r.ex, plan, &m, &o, NULL, &rep, &err),
                 UTURN_OK, "%s", err.message);
    cr_assert_leq(rep.measured_peak_bytes, need);
    cr_assert_eq(rep.io_buffer_bytes, 3 * 304);
    uturn_plan_free(plan);
    rig_close(&r);
}

/* A damaged or truncated file: an error naming a step and the file,
 * never a gradient, and nothing left. */
static void damaged(int kind, bool synchronous)
{
    struct rig r;
    rig_open(&r, synchronous, 0);
    uturn_plan_t *plan = split_plan(60, 2, 4);
    struct sim s = {.n = 60, .parent = r.parent, .damage_at = 2,
                    .damage_kind = kind};
    uturn_model_t m = sim_model(&s, false);
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(r.ex, plan, &m, NULL, NULL, &rep, &err),
                 UTURN_E_IO, "kind %d sync %d: %s", kind, synchronous,
                 err.message);
    cr_assert(strstr(err.message, "slots") != NULL, "%s", err.message);
    cr_assert(strstr(err.message, r.parent) != NULL, "%s", err.message);
    char named[32];
    snprintf(named, sizeof named, "x_%llu", (unsigned long long)rep.failed_step);
    cr_assert(strstr(err.message, named) != NULL, "%s (step %llu)",
              err.message, (unsigned long long)rep.failed_step);
    cr_assert_lt(s.adjoint_calls, 60, "the run went on");
    uturn_plan_free(plan);
    rig_close(&r);
}

Test(exec_levels, a_flipped_file_stops_the_run_naming_the_step)
{
    damaged(1, false);
    damaged(1, true);
}

Test(exec_levels, a_truncated_file_stops_the_run_naming_the_step)
{
    damaged(2, false);
    damaged(2, true);
}

Test(exec_levels, a_failing_callback_leaves_no_file)
{
    for (int at = 1; at <= 60; at += 7) {
        for (int sync = 0; sync < 2; sync++) {
            struct rig r;
            rig_open(&r, sync, 0);
            uturn_plan_t *plan = split_plan(60, 2, 4);
            struct sim s = {.n = 60, .parent = r.parent,
                            .fail_adjoint_at = at};
            uturn_model_t m = sim_model(&s, sync);
            uturn_error_t err;
            uturn_error_init(&err);
            cr_assert_eq(uturn_executor_run(r.ex, plan, &m, NULL, NULL, NULL,
                                            &err),
                         UTURN_E_CALLBACK);
            cr_assert(strstr(err.message, "returned 7") != NULL, "%s",
                      err.message);
            uturn_plan_free(plan);
            rig_close(&r);
        }
    }
}

/* A user level that keeps states in memory and fails on demand. */
struct shelf {
    unsigned char (*held)[DIM * sizeof(double)];
    uint64_t ids;
    int puts, gets, fail_put_at, fail_get_at, opens, closes;
    uint64_t failed_step;
};

static int shelf_open(void *user, uint64_t ids, uint64_t bytes)
{
    struct shelf *sh = user;
    (void)bytes;
    sh->opens += 1;
    sh->held = calloc(ids, sizeof *sh->held);
    sh->ids  = ids;
    return sh->held != NULL ? 0 : 1;
}

static int shelf_put(void *user, uint64_t id, uint64_t step, const void *src,
                     uint64_t bytes)
{
    struct shelf *sh = user;
    if (++sh->puts == sh->fail_put_at) {
        sh->failed_step = step;
        return 3;
    }
    cr_assert_lt(id, sh->ids);
    memcpy(sh->held[id], src, bytes);
    return 0;
}

static int shelf_get(void *user, uint64_t id, uint64_t step, void *dst,
                     uint64_t bytes)
{
    struct shelf *sh = user;
    if (++sh->gets == sh->fail_get_at) {
        sh->failed_step = step;
        return 4;
    }
    memcpy(dst, sh->held[id], bytes);
    return 0;
}

static void shelf_close(void *user)
{
    struct shelf *sh = user;
    sh->closes += 1;
    free(sh->held);
    sh->held = NULL;
}

static uturn_status_t shelf_run(struct shelf *sh, const uturn_plan_t *plan,
                                uturn_report_t *rep, double grad[DIM])
{
    uturn_storage_callbacks_t cb = {.size  = sizeof cb,
                                    .user  = sh,
                                    .open  = shelf_open,
                                    .put   = shelf_put,
                                    .get   = shelf_get,
                                    .close = shelf_close};
    uturn_storage_t level;
    uturn_storage_init(&level);
    level.kind      = UTURN_STORAGE_USER;
    level.callbacks = &cb;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = &level;
    o.level_count = 1;
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(&o, &ex, NULL), UTURN_OK);
    uturn_stats_t ps;
    uturn_stats_init(&ps);
    uturn_plan_stats(plan, &ps);
    struct sim s    = {.n = ps.steps};
    uturn_model_t m = sim_model(&s, false);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_executor_run(ex, plan, &m, NULL, NULL, rep, &err);
    if (st != UTURN_OK) {
        cr_assert(strstr(err.message, "level 1") != NULL, "%s", err.message);
    }
    memcpy(grad, s.xbar, sizeof s.xbar);
    uturn_executor_free(ex);
    return st;
}

Test(exec_levels, a_user_level_failing_at_every_put_and_get_is_an_io_error)
{
    uturn_plan_t *plan = split_plan(30, 2, 3);
    uturn_level_stats_t disk;
    uturn_level_stats_init(&disk);
    uturn_plan_level_stats(plan, 1, &disk);
    double want[DIM], got[DIM];
    reference(30, want);
    struct shelf ok = {0};
    uturn_report_t rep;
    uturn_report_init(&rep);
    cr_assert_eq(shelf_run(&ok, plan, &rep, got), UTURN_OK);
    cr_assert_eq(memcmp(got, want, sizeof want), 0);
    cr_assert_eq(ok.puts, (int)disk.stores);
    cr_assert_eq(ok.gets, (int)disk.restores);
    for (int at = 1; at <= ok.puts + ok.gets; at++) {
        struct shelf sh = {0};
        if (at <= ok.puts)
            sh.fail_put_at = at;
        else
            sh.fail_get_at = at - ok.puts;
        uturn_report_init(&rep);
        cr_assert_eq(shelf_run(&sh, plan, &rep, got), UTURN_E_IO, "at %d", at);
        cr_assert_eq(rep.failed_step, sh.failed_step);
        cr_assert_eq(sh.opens, 1);
        cr_assert_eq(sh.closes, 1);
    }
    uturn_plan_free(plan);
}

Test(exec_levels, a_plan_with_more_levels_than_the_executor_is_refused)
{
    uturn_plan_t *plan = split_plan(10, 2, 2);
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(NULL, &ex, NULL), UTURN_OK);
    struct sim s    = {.n = 10};
    uturn_model_t m = sim_model(&s, false);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &err),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "storage levels") != NULL, "%s",
              err.message);
    cr_assert_eq(s.adjoint_calls, 0);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.io_buffers = 17;
    cr_assert_eq(uturn_executor_open(&o, &ex, &err), UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "io_buffers") != NULL, "%s", err.message);
}

Test(exec_levels, verify_mode_runs_through_levels)
{
    struct rig r;
    rig_open(&r, false, 0);
    uturn_plan_t *plan = split_plan(50, 2, 3);
    struct sim s    = {.n = 50};
    uturn_model_t m = sim_model(&s, true);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.verify = true;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(r.ex, plan, &m, &o, NULL, NULL, &err),
                 UTURN_OK, "%s", err.message);
    double want[DIM];
    reference(50, want);
    cr_assert_eq(memcmp(s.xbar, want, sizeof want), 0);
    uturn_plan_free(plan);
    rig_close(&r);
}

Test(exec_levels, executor_plan_resolves_level_bytes_at_real_cost)
{
    struct rig r;
    rig_open(&r, false, 2);
    const uint64_t state = sizeof(double) * DIM; /* stride 304 */
    uturn_level_t lv[2];
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].name  = "mem";
    cr_assert_eq(uturn_executor_budget(r.ex, state, 6, &lv[0].bytes),
                 UTURN_OK); /* 4 slots and 2 buffers */
    lv[1].name  = "disk";
    lv[1].bytes = 10 * 304 + 303;
    lv[1].write_cost = lv[1].read_cost = 3;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner     = UTURN_PLANNER_HREVOLVE;
    p.steps       = 20;
    p.slot_bytes  = state;
    p.levels      = lv;
    p.level_count = 2;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_plan(r.ex, &p, &plan, &err), UTURN_OK, "%s",
                 err.message);
    uturn_level_stats_t a, b;
    uturn_level_stats_init(&a);
    uturn_level_stats_init(&b);
    uturn_plan_level_stats(plan, 0, &a);
    uturn_plan_level_stats(plan, 1, &b);
    cr_assert_eq(a.slots, 4);
    cr_assert_eq(b.slots, 10);
    uturn_plan_free(plan);
    cr_assert_eq(uturn_executor_budget(r.ex, state, 2, &lv[0].bytes),
                 UTURN_OK); /* the buffers alone */
    cr_assert_eq(uturn_executor_plan(r.ex, &p, &plan, &err),
                 UTURN_E_INFEASIBLE);
    cr_assert(strstr(err.message, "I/O buffers") != NULL, "%s", err.message);
    rig_close(&r);
}

/* hrevolve's plans for two reference cases of docs/model.md run through
 * memory and a file, and (three levels) a file and a user level, to the
 * reference gradient, with each level's counts the plan's. */
static void run_hrevolve(uint64_t n, const uturn_level_t *lv, uint64_t count)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner     = UTURN_PLANNER_HREVOLVE;
    p.steps       = n;
    p.levels      = lv;
    p.level_count = count;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    char parent[PATH_MAX];
    cr_assert(scratch_make("/tmp", parent));
    struct shelf sh = {0};
    uturn_storage_callbacks_t cb = {.size  = sizeof cb,
                                    .user  = &sh,
                                    .open  = shelf_open,
                                    .put   = shelf_put,
                                    .get   = shelf_get,
                                    .close = shelf_close};
    uturn_storage_t st[2];
    uturn_storage_init(&st[0]);
    uturn_storage_init(&st[1]);
    st[0].kind      = UTURN_STORAGE_FILE;
    st[0].directory = parent;
    st[1].kind      = UTURN_STORAGE_USER;
    st[1].callbacks = &cb;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = st;
    o.level_count = count - 1;
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(&o, &ex, NULL), UTURN_OK);
    struct sim s    = {.n = n, .parent = parent};
    uturn_model_t m = sim_model(&s, false);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &err),
                 UTURN_OK, "%s", err.message);
    double want[DIM];
    reference(n, want);
    cr_assert_eq(memcmp(s.xbar, want, sizeof want), 0);
    for (uint64_t k = 0; k < count; k++) {
        uturn_level_stats_t ls;
        uturn_level_stats_init(&ls);
        uturn_plan_level_stats(plan, k, &ls);
        uturn_level_report_t r;
        uturn_level_report_init(&r);
        cr_assert_eq(uturn_executor_level_report(ex, k, &r), UTURN_OK);
        cr_assert_eq(r.stores, ls.stores, "level %llu", (unsigned long long)k);
        cr_assert_eq(r.restores, ls.restores);
        cr_assert_eq(r.peak_slots, ls.peak_slots);
    }
    cr_assert_eq(scratch_count(parent), 0);
    uturn_executor_free(ex);
    scratch_remove(parent);
    uturn_plan_free(plan);
}

Test(exec_levels, hrevolve_plans_run_through_files_and_user_levels)
{
    uturn_level_t two[2], three[3];
    for (int k = 0; k < 3; k++) {
        if (k < 2)
            uturn_level_init(&two[k]);
        uturn_level_init(&three[k]);
    }
    two[0].slots = 5;
    two[1].slots = 100;
    two[1].write_cost = two[1].read_cost = 5;
    run_hrevolve(100, two, 2);
    three[0].slots = 4;
    three[1].slots = 8;
    three[1].write_cost = three[1].read_cost = 2;
    three[2].slots = 16;
    three[2].write_cost = three[2].read_cost = 10;
    run_hrevolve(300, three, 3);
}

Test(exec_levels, level_slots_are_what_executor_plan_resolves)
{
    struct rig r;
    rig_open(&r, false, 3);
    const uint64_t state = 1000; /* stride 1008 */
    uturn_level_t lv[2];
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    cr_assert_eq(uturn_executor_budget(r.ex, state, 8, &lv[0].bytes),
                 UTURN_OK); /* 5 slots and 3 buffers */
    lv[1].bytes = 7 * 1008 + 1007;
    lv[1].write_cost = lv[1].read_cost = 2;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner     = UTURN_PLANNER_HREVOLVE;
    p.steps       = 30;
    p.slot_bytes  = state;
    p.levels      = lv;
    p.level_count = 2;
    uint64_t mem = 0, disk = 0;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_level_slots(r.ex, &p, 0, &mem, &err),
                 UTURN_OK, "%s", err.message);
    cr_assert_eq(uturn_executor_level_slots(r.ex, &p, 1, &disk, &err),
                 UTURN_OK, "%s", err.message);
    cr_assert_eq(mem, 5);
    cr_assert_eq(disk, 7);
    cr_assert_eq(uturn_executor_level_slots(r.ex, &p, 2, &disk, &err),
                 UTURN_E_INVALID_ARG);
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_executor_plan(r.ex, &p, &plan, &err), UTURN_OK);
    uturn_level_stats_t a;
    uturn_level_stats_init(&a);
    uturn_plan_level_stats(plan, 0, &a);
    cr_assert_eq(a.slots, mem);
    uturn_plan_free(plan);
    rig_close(&r);
}
