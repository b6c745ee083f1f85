/*
 * Durable runs killed and resumed at many random points (issue 26's full
 * run; ctest runs a few of them: tests/test_durable.c). For each
 * configuration, KILLS times: a child process runs the model as a durable
 * run (a point asked for every EVERY forward steps) and kills itself with
 * SIGKILL at a random callback; a second child resumes it. Counted, not
 * timed: resumes whose gradient is the reference's bit for bit (every
 * state kept, reversed by hand), resumes that took exactly the forward
 * steps the plan had left after the point, and the forward steps the
 * killed process did after its last point (the work a kill costs).
 *
 *   bench_durable [KILLS] [SEED]     (default 100, 20261202)
 */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uturn.h>

#define DIM 16
#include "durable_model.h"

#define N     300
#define EVERY 7

struct shared { /* what a child leaves behind, killed or not */
    uint64_t forwards, calls, resumed_forward;
    int status;
    double grad[DIM];
};

struct sim {
    double x[DIM], adj[DIM + 1];
    uint64_t kill_at;
    volatile sig_atomic_t request;
    struct shared *out;
};

static void reference(double grad[DIM])
{
    if (!model_reference(N, grad))
        abort();
}

static void tick(struct sim *s)
{
    if (++s->out->calls == s->kill_at)
        raise(SIGKILL);
}

static int on_forward(void *user, uint64_t i)
{
    struct sim *s = user;
    tick(s);
    double y[DIM];
    step(s->x, y, i);
    memcpy(s->x, y, sizeof y);
    if (++s->out->forwards % EVERY == 0)
        s->request = UTURN_DURABLE_POINT;
    return 0;
}

static int on_turn(void *user)
{
    struct sim *s = user;
    tick(s);
    memcpy(s->adj, s->x, sizeof s->x);
    return 0;
}

static int on_adjoint(void *user, uint64_t i)
{
    struct sim *s = user;
    tick(s);
    double prev[DIM];
    step_bar(s->x, s->adj, prev, i);
    memcpy(s->adj, prev, sizeof prev);
    return 0;
}

static int on_save(void *user, void *dst, uint64_t bytes)
{
    struct sim *s = user;
    tick(s);
    memcpy(dst, s->adj, (size_t)bytes);
    return 0;
}

static int on_load(void *user, const void *src, uint64_t bytes)
{
    struct sim *s = user;
    memcpy(s->adj, src, (size_t)bytes);
    return 0;
}

static int on_is_last(void *user, uint64_t step)
{
    (void)user;
    return step == N;
}

enum config { REVOLVE, HREVOLVE, ONLINE, ONLINE_DISK, CONFIGS };
static const char *const names[] = {
    "revolve, 6 slots in memory", "hrevolve, memory 3 + file level 9",
    "online, 6 slots in memory", "online, memory 3 + file level 9"};

static uturn_plan_t *plan_of(enum config c)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    uturn_level_t lv[2];
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].slots      = 3;
    lv[1].slots      = 9;
    lv[1].write_cost = lv[1].read_cost = 2;
    const bool online                  = c == ONLINE || c == ONLINE_DISK;
    p.planner                          = online          ? UTURN_PLANNER_ONLINE
                                         : c == HREVOLVE ? UTURN_PLANNER_HREVOLVE
                                                         : UTURN_PLANNER_REVOLVE;
    p.steps                            = online ? 0 : N;
    p.max_steps                        = c == ONLINE_DISK ? 4 * N : 0;
    p.slots = c == HREVOLVE || c == ONLINE_DISK ? 0 : 6;
    if (p.slots == 0) {
        p.levels      = lv;
        p.level_count = 2;
    }
    uturn_plan_t *plan = NULL;
    return uturn_plan_create(&p, NULL, &plan, NULL) == UTURN_OK ? plan : NULL;
}

/* One child: a durable run in dir (auto), killed at kill_at (0: never). */
static void child(enum config c, const char *parent, const char *dir,
                  uint64_t kill_at, struct shared *out)
{
    struct sim s = {.kill_at = kill_at, .out = out};
    start(s.x);
    uturn_storage_t level;
    uturn_storage_init(&level);
    level.kind      = UTURN_STORAGE_FILE;
    level.directory = parent;
    uturn_executor_options_t eo;
    uturn_executor_options_init(&eo);
    eo.levels            = &level;
    eo.level_count       = 1;
    uturn_executor_t *ex = NULL;
    uturn_plan_t *plan   = plan_of(c);
    uturn_model_t m;
    uturn_model_init(&m);
    m.user          = &s;
    m.forward       = on_forward;
    m.turn          = on_turn;
    m.adjoint       = on_adjoint;
    m.state         = s.x;
    m.state_bytes   = sizeof s.x;
    m.is_last       = c == ONLINE || c == ONLINE_DISK ? on_is_last : NULL;
    m.adjoint_bytes = sizeof s.adj;
    m.save_adjoint  = on_save;
    m.load_adjoint  = on_load;
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.durable_dir     = dir;
    o.durable_request = &s.request;
    o.durable_mode    = UTURN_DURABLE_AUTO;
    uturn_report_t rep;
    uturn_report_init(&rep);
    out->status =
        plan == NULL || uturn_executor_open(&eo, &ex, NULL) != UTURN_OK
            ? -1
            : (int)uturn_executor_run(ex, plan, &m, &o, NULL, &rep, NULL);
    out->resumed_forward = rep.resumed_forward_steps;
    memcpy(out->grad, s.adj, sizeof out->grad);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

static void in_child(enum config c, const char *parent, const char *dir,
                     uint64_t kill_at, struct shared *out)
{
    memset(out, 0, sizeof *out);
    const pid_t pid = fork();
    if (pid == 0) {
        child(c, parent, dir, kill_at, out);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

struct tally {
    int resumed, bitwise, exact;
    uint64_t lost_max, lost_sum;
};

/* KILLS kills of configuration c; the whole run's figures first. */
static void kills(enum config c, int count, uint64_t seed, struct shared *sh,
                  const double *want)
{
    char parent[] = "/tmp/bench_durable.XXXXXX", dir[64];
    if (mkdtemp(parent) == NULL)
        return;
    snprintf(dir, sizeof dir, "%s/run", parent);
    in_child(c, parent, dir, 0, sh);
    const uint64_t calls = sh->calls, planned = sh->forwards;
    const bool whole =
        sh->status == 0 && memcmp(sh->grad, want, sizeof sh->grad) == 0;
    struct tally t = {0, 0, 0, 0, 0};
    uint64_t x     = seed + (uint64_t)c;
    for (int k = 0; k < count && whole; k++) {
        in_child(c, parent, dir, 1 + next(&x) % calls, sh);
        const uint64_t killed = sh->forwards;
        uturn_durable_info_t info;
        uturn_durable_info_init(&info);
        uturn_durable_inspect(dir, &info, NULL);
        const uint64_t at = info.has_point ? info.forward_steps : 0;
        in_child(c, parent, dir, 0, sh);
        t.resumed += sh->status == 0;
        t.bitwise +=
            sh->status == 0 && memcmp(sh->grad, want, sizeof sh->grad) == 0;
        t.exact += sh->forwards == planned - at && sh->resumed_forward == at;
        const uint64_t lost = killed - at;
        t.lost_max          = lost > t.lost_max ? lost : t.lost_max;
        t.lost_sum += lost;
    }
    printf("| %s | %llu | %d | %d | %d | %d | %.2f | %llu |\n", names[c],
           (unsigned long long)planned, whole ? count : 0, t.resumed, t.bitwise,
           t.exact, count > 0 ? (double)t.lost_sum / count : 0.0,
           (unsigned long long)t.lost_max);
    fflush(stdout);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", parent);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_durable: could not remove %s\n", parent);
}

int main(int argc, char **argv)
{
    const int count     = argc > 1 ? atoi(argv[1]) : 100;
    const uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 20261202;
    struct shared *sh   = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
                               MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED)
        return 1;
    double want[DIM];
    reference(want);
    printf("n = %d steps, a durable point every %d forward steps, %d kills "
           "per configuration (seed %llu)\n\n",
           N, EVERY, count, (unsigned long long)seed);
    printf("| configuration | forward steps (whole run) | kills | resumed | "
           "gradient bitwise | forward steps after resume = plan's rest | "
           "forward steps lost per kill, mean | max |\n"
           "|---|---|---|---|---|---|---|---|\n");
    for (int c = 0; c < CONFIGS; c++)
        kills((enum config)c, count, seed, sh, want);
    return 0;
}
