#define _GNU_SOURCE /* mkdtemp, nftw */
/*
 * Durable runs: a run killed with SIGKILL at a random callback (forward,
 * turn, adjoint, or the adjoint's save in the middle of a durable point)
 * and resumed in a new process gives the gradient of an independent
 * reference (every state kept, reversed by hand) bit for bit; the resumed
 * process takes exactly the forward steps the plan has left after its
 * point, and the killed one lost at most the steps since its last point.
 * Every refusal comes before any callback. The kill points are drawn from
 * a seeded generator, so a failure names a reproducible case;
 * bench/durable_kills.sh runs 100 of them per configuration.
 */
#include "durable_sim.h"
#include "scratch_dir.h"
#include "stats_equal.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uturn.h>

/* A run in a child process: its outcome through a pipe; false when it
 * was killed (SIGKILL, as planned). */
static bool in_child(struct rig *r, uint64_t kill_at, int mode,
                     struct outcome *out)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    const pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        struct sim s = {.kill_at = kill_at};
        struct outcome o;
        durable_run(r, &s, mode, &o);
        _exit(write(fd[1], &o, sizeof o) == (ssize_t)sizeof o ? 0 : 3);
    }
    close(fd[1]);
    const ssize_t got = read(fd[0], out, sizeof *out);
    close(fd[0]);
    int wst = 0;
    cr_assert_eq(waitpid(pid, &wst, 0), pid);
    if (WIFSIGNALED(wst)) {
        cr_assert_eq(WTERMSIG(wst), SIGKILL);
        return false;
    }
    cr_assert(WIFEXITED(wst) && WEXITSTATUS(wst) == 0 &&
              got == (ssize_t)sizeof *out);
    return true;
}

/* The forward steps a run had done at the point the directory holds (0:
 * none there). */
static uint64_t point_forward(const struct rig *r)
{
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_durable_inspect(r->dir, &info, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert(!info.in_use, "the killed run's lock went with it");
    return info.has_point ? info.forward_steps : 0;
}

/* Kill a run at callback kill_at, resume it in a new process; check the
 * gradient, the counts and the bound. */
static void kill_and_resume(struct rig *r, const double *want,
                            const uturn_stats_t *planned, uint64_t kill_at)
{
    struct outcome killed, resumed;
    cr_assert(!in_child(r, kill_at, UTURN_DURABLE_AUTO, &killed),
              "callback %llu is past the run's end",
              (unsigned long long)kill_at);
    const uint64_t at_point = point_forward(r);
    cr_assert(in_child(r, 0, UTURN_DURABLE_AUTO, &resumed));
    cr_assert_eq(resumed.status, UTURN_OK, "kill at %llu: %s",
                 (unsigned long long)kill_at, resumed.message);
    cr_assert_eq(memcmp(resumed.xbar, want, DIM * sizeof *want), 0,
                 "kill at callback %llu: the resumed gradient differs",
                 (unsigned long long)kill_at);
    /* the resumed process does exactly what the plan has left */
    cr_assert_eq(resumed.forward_calls, planned->forward_steps - at_point,
                 "kill at %llu: %llu forward steps after resume, the plan "
                 "has %llu left after the point",
                 (unsigned long long)kill_at,
                 (unsigned long long)resumed.forward_calls,
                 (unsigned long long)(planned->forward_steps - at_point));
    cr_assert_eq(resumed.rep.resumed_forward_steps, at_point);
    cr_assert_eq(resumed.rep.resumed_action == UTURN_NONE, at_point == 0);
    stats_expect_equal(&resumed.seen, planned, "the resumed run's counts");
    cr_assert_eq(access(r->dir, F_OK), -1,
                 "a complete run removes its "
                 "directory");
}

/* Callbacks of an uninterrupted run, and its counts. */
static uint64_t whole_run(struct rig *r, const double *want,
                          uturn_stats_t *planned)
{
    struct outcome o;
    cr_assert(in_child(r, 0, UTURN_DURABLE_NEW, &o));
    cr_assert_eq(o.status, UTURN_OK, "%s", o.message);
    cr_assert_eq(memcmp(o.xbar, want, DIM * sizeof *want), 0);
    cr_assert_gt(o.rep.durable_points, 1);
    uturn_stats_init(planned);
    uturn_plan_stats(r->plan, planned);
    if (r->online) { /* the realised plan: what a run without points does */
        struct sim s          = {0};
        const uturn_model_t m = rig_model(r, &s);
        cr_assert_eq(
            uturn_executor_run(r->ex, r->plan, &m, NULL, planned, NULL, NULL),
            UTURN_OK);
        cr_assert_eq(planned->steps, r->n);
    }
    stats_expect_equal(&o.seen, planned, "a durable run's counts");
    return o.calls;
}

static void kills(enum config c, uint64_t n, int points, uint64_t seed)
{
    double want[DIM];
    reference(n, want);
    struct rig r;
    rig_open(&r, c, n);
    uturn_stats_t planned;
    const uint64_t calls = whole_run(&r, want, &planned);
    uint64_t x           = seed;
    for (int k = 0; k < points; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        kill_and_resume(&r, want, &planned, 1 + x % calls);
    }
    rig_close(&r);
}

Test(durable, killed_in_memory_and_resumed_bitwise, .timeout = 120)
{
    kills(MEMORY, 150, 8, 0x1234567);
}

Test(durable, killed_with_a_file_level_and_resumed_bitwise, .timeout = 120)
{
    kills(FILE_LEVEL, 120, 8, 0x7654321);
}

Test(durable, killed_under_hrevolve_and_resumed_bitwise, .timeout = 120)
{
    kills(HREVOLVE, 120, 6, 0x2468ace);
}

Test(durable, killed_between_sweeps_and_resumed_bitwise, .timeout = 120)
{
    kills(SWEEPS, 90, 6, 0x13579bd);
}

Test(durable, killed_online_and_resumed_bitwise, .timeout = 120)
{
    kills(ONLINE, 150, 8, 0x5a5a5a5);
}

Test(durable, killed_online_with_a_disk_level_and_resumed_bitwise,
     .timeout = 120)
{
    kills(ONLINE_DISK, 120, 6, 0xa5a5a5a);
}

Test(durable, killed_with_step_records_and_resumed_bitwise, .timeout = 120)
{
    kills(RECORDS, 150, 8, 0x77777);
}

Test(durable, killed_online_with_sizes_as_they_come_and_resumed_bitwise,
     .timeout = 120)
{
    kills(ONLINE_BYTES, 150, 8, 0x31415);
}

/* Three sweeps of an online plan: sweep 1 finds n, the two after it
 * are revolve's plan for it; kills in any of them. */
Test(durable, killed_online_with_three_sweeps_and_resumed_bitwise,
     .timeout = 120)
{
    kills(ONLINE_SWEEPS, 150, 8, 0x5151);
}

/* A budget of 300 states: the plan's state grows at x_1 (past the 256 the
 * online family plans), in the killed run and in every resume's replay;
 * 400 steps, so the plan recomputes. */
Test(durable, killed_online_with_a_budget_past_256_states_and_resumed_bitwise,
     .timeout = 120)
{
    kills(ONLINE_BYTES_WIDE, 400, 8, 0x2718);
}
