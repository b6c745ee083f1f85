/* The durable tests' model (test_durable.c, test_durable_refusals.c): a
 * nonlinear map of DIM doubles whose adjoint state is the adjoint and J,
 * an independent reference gradient (every state kept, reversed by hand),
 * callbacks that count themselves and can kill the process, and the plans
 * and executor the tests run. Header-only; needs _GNU_SOURCE (for
 * scratch_dir.h) before the first include. */
#ifndef UTURN_DURABLE_SIM_H_INCLUDED
#define UTURN_DURABLE_SIM_H_INCLUDED

#include "scratch_dir.h"

#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define DIM   24
#define EVERY 7 /* a durable point asked for every EVERY forward steps */

#include "durable_model.h"

struct sim {
    double x[DIM];
    double xbar[DIM + 1];    /* the adjoint and J: the adjoint state */
    uint64_t forward, calls; /* forward steps; every callback */
    uint64_t kill_at;        /* the callback that raises SIGKILL, or 0 */
    uint64_t last;           /* is_last's n (online plans), or 0 */
    volatile sig_atomic_t request;
    int stop_at; /* forward step that asks for a point and a stop */
    bool block;  /* the first forward waits for a byte on block_fd */
    bool no_x0;  /* the state starts as zeros, not x_0: a resumed run must
                    not depend on it */
    int block_fd;
};

/* The truth: every state kept, reversed by hand, independent of uturn. */
static inline void reference(uint64_t n, double grad[DIM])
{
    cr_assert(model_reference(n, grad), "out of memory");
}

static inline void callback(struct sim *s)
{
    if (++s->calls == s->kill_at)
        raise(SIGKILL);
}

/* One step of size h on the live state; a point asked for every EVERY
 * steps, and a stop at stop_at. */
static inline int stepped(struct sim *s, double h)
{
    callback(s);
    double y[DIM];
    step_with(s->x, y, h);
    memcpy(s->x, y, sizeof y);
    s->forward += 1;
    if (s->forward % EVERY == 0)
        s->request = UTURN_DURABLE_POINT;
    if (s->stop_at != 0 && s->forward == (uint64_t)s->stop_at)
        s->request = UTURN_DURABLE_STOP;
    return 0;
}

static inline int sim_forward(void *user, uint64_t i)
{
    struct sim *s = user;
    if (s->block) {
        char byte = 0;
        cr_assert_eq(read(s->block_fd, &byte, 1), 1);
        s->block = false;
    }
    return stepped(s, step_size(i));
}

/* The same step as an adaptive one: its size chosen in the first sweep
 * and kept in its record, which every recomputation reads back (a lost
 * record would make it 0). */
static inline int sim_forward_record(void *user, uint64_t i, void *record,
                                     bool again)
{
    double h = step_size(i);
    if (again)
        memcpy(&h, record, sizeof h);
    else
        memcpy(record, &h, sizeof h);
    return stepped(user, h);
}

static inline int sim_save(void *user, uint64_t step, void *dst, uint64_t bytes)
{
    struct sim *s = user;
    (void)step;
    memcpy(dst, s->x, sizeof s->x);
    return bytes == sizeof s->x ? 0 : 1;
}

static inline int sim_load(void *user, uint64_t step, const void *src,
                           uint64_t bytes)
{
    struct sim *s = user;
    (void)step;
    memcpy(s->x, src, sizeof s->x);
    return bytes == sizeof s->x ? 0 : 1;
}

static inline uint64_t sim_state_size(void *user, uint64_t step)
{
    (void)user;
    (void)step;
    return DIM * sizeof(double);
}

static inline int sim_turn(void *user)
{
    struct sim *s = user;
    callback(s);
    double J = 0;
    for (int j = 0; j < DIM; j++) {
        s->xbar[j] = s->x[j];
        J += 0.5 * s->x[j] * s->x[j];
    }
    s->xbar[DIM] = J;
    return 0;
}

static inline int sim_adjoint(void *user, uint64_t i)
{
    struct sim *s = user;
    callback(s);
    double prev[DIM];
    step_bar(s->x, s->xbar, prev, i);
    memcpy(s->xbar, prev, sizeof prev);
    return 0;
}

static inline int sim_save_adjoint(void *user, void *dst, uint64_t bytes)
{
    struct sim *s = user;
    callback(s);
    cr_assert_eq(bytes, sizeof s->xbar);
    memcpy(dst, s->xbar, sizeof s->xbar);
    return 0;
}

static inline int sim_load_adjoint(void *user, const void *src, uint64_t bytes)
{
    struct sim *s = user;
    s->calls += 1;
    cr_assert_eq(bytes, sizeof s->xbar);
    memcpy(s->xbar, src, sizeof s->xbar);
    return 0;
}

static inline int sim_is_last(void *user, uint64_t step)
{
    const struct sim *s = user;
    return step == s->last;
}

static inline uturn_model_t sim_model(struct sim *s)
{
    start(s->x);
    if (s->no_x0)
        memset(s->x, 0, sizeof s->x);
    uturn_model_t m;
    uturn_model_init(&m);
    m.user          = s;
    m.forward       = sim_forward;
    m.turn          = sim_turn;
    m.adjoint       = sim_adjoint;
    m.state         = s->x;
    m.state_bytes   = sizeof s->x;
    m.adjoint_bytes = sizeof s->xbar;
    m.save_adjoint  = sim_save_adjoint;
    m.load_adjoint  = sim_load_adjoint;
    m.is_last       = s->last != 0 ? sim_is_last : NULL;
    return m;
}

/* ---- configurations ---------------------------------------------------- */

enum config {
    MEMORY,
    FILE_LEVEL,
    HREVOLVE,
    SWEEPS,
    ONLINE,
    ONLINE_DISK,
    RECORDS,     /* online, with step records */
    ONLINE_BYTES, /* online, a byte budget, each state's size asked */
    ONLINE_BYTES_WIDE, /* the same, a budget of 300 states: past the 256
                          of the online family, the state grows at x_1 */
    ONLINE_SWEEPS      /* online, three sweeps: sweep 1 finds n */
};

struct rig {
    char parent[PATH_MAX], dir[PATH_MAX];
    uturn_storage_t level;
    uturn_executor_t *ex;
    uturn_plan_t *plan;
    uint64_t n;
    bool online;  /* the plan finds n as the run goes (is_last) */
    bool records; /* the model's steps keep records */
    bool bytes;   /* save/load and state_size: sizes as the run goes */
};

static inline uturn_plan_t *make_plan(enum config c, uint64_t n, uint64_t slots)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps = n;
    p.slots = slots;
    uturn_level_t lv[2];
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].slots      = 3;
    lv[1].slots      = 9;
    lv[1].write_cost = lv[1].read_cost = 2;
    if (c == FILE_LEVEL || c == HREVOLVE) {
        p.planner =
            c == HREVOLVE ? UTURN_PLANNER_HREVOLVE : UTURN_PLANNER_REVOLVE;
        p.slots       = 0;
        p.levels      = lv;
        p.level_count = 2;
        p.sweeps      = c == FILE_LEVEL ? 2 : 1; /* revolve: two sweeps */
    }
    if (c == SWEEPS || c == ONLINE_SWEEPS)
        p.sweeps = 3;
    if (c == ONLINE || c == ONLINE_DISK || c == RECORDS ||
        c == ONLINE_BYTES || c == ONLINE_BYTES_WIDE ||
        c == ONLINE_SWEEPS) { /* n found as it goes */
        p.planner = UTURN_PLANNER_ONLINE;
        p.steps   = 0;
    }
    if (c == ONLINE_BYTES) { /* a budget of 6 states, sizes as they come */
        p.slots        = 0;
        p.budget_bytes = 6 * DIM * sizeof(double);
    }
    if (c == ONLINE_BYTES_WIDE) {
        p.slots        = 0;
        p.budget_bytes = 300 * DIM * sizeof(double);
    }
    if (c == ONLINE_DISK) {
        p.slots       = 0;
        p.levels      = lv;
        p.level_count = 2;
        p.max_steps   = 4 * n;
    }
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    return plan;
}

/* The rig in a fresh directory under base ("/dev/shm": memory, where the
 * fsyncs of many points cost nothing). */
static inline void rig_open_in(struct rig *r, enum config c, uint64_t n,
                               const char *base)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    cr_assert(scratch_make(base, r->parent));
    scratch_join(r->dir, r->parent, "durable");
    uturn_storage_init(&r->level);
    r->level.kind      = UTURN_STORAGE_FILE;
    r->level.directory = r->parent;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = &r->level;
    o.level_count = 1;
    cr_assert_eq(uturn_executor_open(&o, &r->ex, NULL), UTURN_OK);
    r->plan = make_plan(c, n, 6);
    r->bytes = c == ONLINE_BYTES || c == ONLINE_BYTES_WIDE;
    r->online = c == ONLINE || c == ONLINE_DISK || c == RECORDS ||
                c == ONLINE_SWEEPS || r->bytes;
    r->records = c == RECORDS;
}

static inline void rig_open(struct rig *r, enum config c, uint64_t n)
{
    rig_open_in(r, c, n, "/tmp");
}

static inline void rig_close(struct rig *r)
{
    uturn_plan_free(r->plan);
    uturn_executor_free(r->ex);
    scratch_remove(r->parent);
}

struct outcome {
    uturn_status_t status;
    double xbar[DIM];
    uint64_t forward_calls, calls;
    uturn_stats_t seen;
    uturn_report_t rep;
    char message[256];
};

/* The model for the rig's configuration. */
static inline uturn_model_t rig_model(const struct rig *r, struct sim *s)
{
    uturn_model_t m = sim_model(s);
    if (r->online) {
        s->last   = r->n;
        m.is_last = sim_is_last;
    }
    if (r->bytes) { /* the same state through save/load, sized */
        m.state      = NULL;
        m.save       = sim_save;
        m.load       = sim_load;
        m.state_size = sim_state_size;
    }
    if (r->records) {
        m.forward        = NULL;
        m.record_bytes   = sizeof(double);
        m.forward_record = sim_forward_record;
    }
    return m;
}

static inline void durable_run(struct rig *r, struct sim *s, int mode,
                               struct outcome *out)
{
    uturn_model_t m = rig_model(r, s);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.durable_dir     = r->dir;
    o.durable_tag     = "test_durable sim";
    o.durable_request = &s->request;
    o.durable_mode    = mode;
    uturn_stats_init(&out->seen);
    uturn_report_init(&out->rep);
    uturn_error_t err;
    uturn_error_init(&err);
    out->status =
        uturn_executor_run(r->ex, r->plan, &m, &o, &out->seen, &out->rep, &err);
    memcpy(out->xbar, s->xbar, sizeof out->xbar);
    out->forward_calls = s->forward;
    out->calls         = s->calls;
    snprintf(out->message, sizeof out->message, "%s", err.message);
}

/* A run stopped at its durable point after `stop_at` forward steps. */
static inline void durable_stopped(struct rig *r, int stop_at)
{
    struct sim s = {.stop_at = stop_at};
    struct outcome o;
    durable_run(r, &s, UTURN_DURABLE_NEW, &o);
    cr_assert_eq(o.status, UTURN_E_STOPPED, "%s", o.message);
    cr_assert(strstr(o.message, "resume to finish") != NULL, "%s", o.message);
    cr_assert_eq(s.request, 0, "the request is served");
}

/* A run in `mode` refused before any callback, with `why` in its
 * message; its live state does not start at x_0 (no resume may use it). */
static inline void durable_refused(struct rig *r, int mode,
                                   uturn_status_t status, const char *why)
{
    struct sim s = {.no_x0 = true};
    struct outcome o;
    durable_run(r, &s, mode, &o);
    cr_assert_eq(o.status, status, "%s", o.message);
    cr_assert(strstr(o.message, why) != NULL, "'%s' not in: %s", why,
              o.message);
    cr_assert_eq(s.calls, 0, "a callback ran before the refusal");
}

#endif
