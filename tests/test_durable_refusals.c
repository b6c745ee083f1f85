#define _GNU_SOURCE /* mkdtemp, nftw */
/*
 * Durable runs: stopping at a durable point on request and resuming in
 * the same process; points on a timer; what a directory shows; and every
 * refusal (another plan, another model, a damaged manifest or checkpoint,
 * a second run on the same directory, the wrong mode, what durable runs
 * do not support), each before any callback of the refused run.
 */
#include "durable_sim.h"
#include "stats_equal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 120

/* The resumed run's gradient is the reference. */
static void resumes(struct rig *r)
{
    double want[DIM];
    reference(r->n, want);
    struct sim s = {.no_x0 = true};
    struct outcome o;
    durable_run(r, &s, UTURN_DURABLE_RESUME, &o);
    cr_assert_eq(o.status, UTURN_OK, "%s", o.message);
    cr_assert_neq(o.rep.resumed_action, UTURN_NONE);
    cr_assert_eq(memcmp(o.xbar, want, sizeof want), 0);
}

Test(durable_refusals, a_stop_on_request_resumes_in_the_same_process)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    durable_stopped(&r, 60);
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    cr_assert_eq(uturn_durable_inspect(r.dir, &info, NULL), UTURN_OK);
    cr_assert(info.has_point && !info.in_use);
    cr_assert_eq(info.forward_steps, 60);
    cr_assert_eq(info.steps, N);
    cr_assert_str_eq(info.tag, "test_durable sim");
    cr_assert_eq(info.adjoint_bytes, (DIM + 1) * sizeof(double));
    resumes(&r);
    cr_assert_eq(access(r.dir, F_OK), -1, "the complete run removed it");
    rig_close(&r);
}

Test(durable_refusals, a_point_before_any_forward_step_keeps_x0)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    struct sim s    = {.request = UTURN_DURABLE_STOP}; /* at once */
    uturn_model_t m = sim_model(&s);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.durable_dir     = r.dir;
    o.durable_tag     = "test_durable sim";
    o.durable_request = &s.request;
    uturn_report_t rep;
    uturn_report_init(&rep);
    cr_assert_eq(uturn_executor_run(r.ex, r.plan, &m, &o, NULL, &rep, NULL),
                 UTURN_E_STOPPED);
    cr_assert_eq(s.forward, 0);
    cr_assert_eq(rep.actions_done, 1, "stopped after the first action");
    resumes(&r);
    rig_close(&r);
}

Test(durable_refusals, points_on_a_timer_keep_the_gradient)
{
    struct rig r;
    rig_open(&r, HREVOLVE, N);
    double want[DIM];
    reference(N, want);
    struct sim s    = {0};
    uturn_model_t m = sim_model(&s);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.durable_dir      = r.dir;
    o.durable_interval = 1e-9; /* a point after every action */
    uturn_report_t rep;
    uturn_report_init(&rep);
    cr_assert_eq(uturn_executor_run(r.ex, r.plan, &m, &o, NULL, &rep, NULL),
                 UTURN_OK);
    cr_assert_eq(memcmp(s.xbar, want, sizeof want), 0);
    uturn_stats_t planned;
    uturn_plan_stats(r.plan, &planned);
    cr_assert_geq(rep.durable_points, planned.actions - 1);
    cr_assert_eq(rep.durable_point, rep.durable_points);
    cr_assert_gt(rep.durable_bytes, rep.durable_points * sizeof s.xbar);
    rig_close(&r);
}

Test(durable_refusals, another_plan_or_model_is_refused)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    durable_stopped(&r, 50);
    uturn_plan_t *mine = r.plan;
    r.plan             = make_plan(MEMORY, N, 7); /* another slot count */
    durable_refused(&r, UTURN_DURABLE_RESUME, UTURN_E_INVALID_ARG,
                    "another plan (fingerprint)");
    uturn_plan_free(r.plan);
    r.plan          = mine;
    struct sim s    = {0};
    uturn_model_t m = sim_model(&s);
    m.state_bytes   = sizeof s.x - sizeof(double); /* a smaller model */
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.durable_dir  = r.dir;
    o.durable_tag  = "test_durable sim";
    o.durable_mode = UTURN_DURABLE_RESUME;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(r.ex, r.plan, &m, &o, NULL, NULL, &err),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "model (state_bytes)") != NULL, "%s",
              err.message);
    o.durable_tag = "another tag";
    m.state_bytes = sizeof s.x;
    cr_assert_eq(uturn_executor_run(r.ex, r.plan, &m, &o, NULL, NULL, &err),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "model (durable_tag)") != NULL, "%s",
              err.message);
    cr_assert_eq(s.calls, 0);
    resumes(&r); /* refusals leave the point as it was */
    rig_close(&r);
}

/* Flip one byte of dir/name (the first file whose name starts so). */
static void flip(const char *dir, const char *prefix, long at)
{
    char path[PATH_MAX];
    cr_assert_geq(scratch_find(dir, prefix, path), 1, "no %s file", prefix);
    const int fd = open(path, O_RDWR);
    cr_assert(fd >= 0);
    unsigned char byte = 0;
    const off_t size   = lseek(fd, 0, SEEK_END);
    const off_t where  = at >= 0 ? at : size + at;
    cr_assert_eq(pread(fd, &byte, 1, where), 1);
    byte ^= 0x20;
    cr_assert_eq(pwrite(fd, &byte, 1, where), 1);
    close(fd);
}

Test(durable_refusals, a_damaged_manifest_is_refused)
{
    for (long at = 0; at < 3; at++) { /* first, middle, last byte */
        struct rig r;
        rig_open(&r, MEMORY, N);
        durable_stopped(&r, 50);
        char path[PATH_MAX];
        struct stat st;
        cr_assert_eq(stat(scratch_join(path, r.dir, "manifest"), &st), 0);
        flip(r.dir, "manifest", at == 0 ? 0 : at == 1 ? st.st_size / 2 : -2);
        durable_refused(&r, UTURN_DURABLE_AUTO, UTURN_E_IO,
                        "manifest is damaged");
        rig_close(&r);
    }
}

Test(durable_refusals, a_damaged_checkpoint_is_refused)
{
    const char *files[] = {"state-", "adjoint-", "live-"};
    for (int k = 0; k < 3; k++) {
        struct rig r;
        rig_open(&r, MEMORY, N);
        durable_stopped(&r, 50);
        flip(r.dir, files[k], -1);
        durable_refused(&r, UTURN_DURABLE_RESUME, UTURN_E_IO, "(damaged)");
        rig_close(&r);
    }
}

Test(durable_refusals, a_second_run_on_the_directory_is_refused)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    durable_stopped(&r, 50);
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    const pid_t pid = fork();
    if (pid == 0) { /* the first resumer, held in its first forward */
        struct sim s = {.block = true, .block_fd = fd[0]};
        struct outcome o;
        durable_run(&r, &s, UTURN_DURABLE_RESUME, &o);
        _exit(o.status == UTURN_OK ? 0 : 1);
    }
    /* wait until the child holds the lock */
    uturn_durable_info_t info;
    for (int tries = 0; tries < 2000; tries++) {
        uturn_durable_info_init(&info);
        uturn_durable_inspect(r.dir, &info, NULL);
        if (info.in_use)
            break;
        usleep(5000);
    }
    cr_assert(info.in_use);
    durable_refused(&r, UTURN_DURABLE_AUTO, UTURN_E_IO,
                    "in use by another run");
    cr_assert_eq(uturn_durable_remove(r.dir, NULL), UTURN_E_IO);
    cr_assert_eq(write(fd[1], "g", 1), 1);
    int wst = 0;
    cr_assert_eq(waitpid(pid, &wst, 0), pid);
    cr_assert(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
    rig_close(&r);
}

Test(durable_refusals, modes_say_what_the_directory_must_hold)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    durable_refused(&r, UTURN_DURABLE_RESUME, UTURN_E_INVALID_ARG,
                    "holds no durable point");
    /* refused: the directory it made is gone again */
    cr_assert_eq(access(r.dir, F_OK), -1);
    /* one that was there (empty) stays, and gets no lock file */
    cr_assert_eq(mkdir(r.dir, 0700), 0);
    durable_refused(&r, UTURN_DURABLE_RESUME, UTURN_E_INVALID_ARG,
                    "holds no durable point");
    char lock[PATH_MAX];
    scratch_join(lock, r.dir, "lock");
    cr_assert_eq(access(r.dir, F_OK), 0);
    cr_assert_eq(access(lock, F_OK), -1);
    durable_stopped(&r, 40);
    cr_assert_eq(access(lock, F_OK), 0); /* a run's own lock file stays */
    durable_refused(&r, UTURN_DURABLE_NEW, UTURN_E_INVALID_ARG,
                    "holds a point of an earlier run");
    cr_assert_eq(uturn_durable_remove(r.dir, NULL), UTURN_OK);
    cr_assert_eq(access(r.dir, F_OK), -1);
    rig_close(&r);
}

Test(durable_refusals, leftovers_of_a_kill_mid_point_do_not_matter)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    durable_stopped(&r, 50);
    /* what a kill between the files and the rename leaves */
    char path[PATH_MAX];
    const char *names[] = {"manifest.tmp", "adjoint-9.tmp", "state-3-ff.tmp",
                           "adjoint-9"};
    for (int k = 0; k < 4; k++) {
        FILE *f = fopen(scratch_join(path, r.dir, names[k]), "w");
        cr_assert_not_null(f);
        fputs("uturn-durable 1\npoint 9\n", f);
        fclose(f);
    }
    resumes(&r);
    rig_close(&r);
}

Test(durable_refusals, what_durable_runs_need_or_lack_is_named)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    struct sim s    = {0};
    uturn_model_t m = sim_model(&s);
    m.save_adjoint  = NULL;
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.durable_dir = r.dir;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(r.ex, r.plan, &m, &o, NULL, NULL, &err),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "save_adjoint") != NULL, "%s", err.message);
    m                  = sim_model(&s);
    o.durable_interval = -1;
    cr_assert_eq(uturn_executor_run(r.ex, r.plan, &m, &o, NULL, NULL, &err),
                 UTURN_E_INVALID_ARG);
    o.durable_interval = 0;
    o.durable_mode     = 7;
    cr_assert_eq(uturn_executor_run(r.ex, r.plan, &m, &o, NULL, NULL, &err),
                 UTURN_E_INVALID_ARG);
    o.durable_mode  = UTURN_DURABLE_NEW;
    const char *dir = o.durable_dir;
    o.durable_dir   = ""; /* named as empty, not an I/O error */
    cr_assert_eq(uturn_executor_run(r.ex, r.plan, &m, &o, NULL, NULL, &err),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "durable_dir is empty") != NULL, "%s",
              err.message);
    o.durable_dir = dir;
    uturn_problem_t p;
    uturn_problem_init(&p);
    o.sweeps_on_request  = true; /* with a plan of several sweeps */
    p.steps              = N;
    p.slots              = 6;
    p.sweeps             = 2;
    uturn_plan_t *online = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &online, NULL), UTURN_OK);
    cr_assert_eq(uturn_executor_run(r.ex, online, &m, &o, NULL, NULL, &err),
                 UTURN_E_UNSUPPORTED);
    cr_assert(strstr(err.message, "sweeps on request") != NULL, "%s",
              err.message);
    uturn_plan_free(online);
    cr_assert_eq(s.calls + s.forward, 0);
    rig_close(&r);
}

/* A stop after every forward step of the run, each resumed twice: points inside
 * every advance and after every one, wherever the executor's batches of
 * actions begin and end (a point inside the first advance of a batch was
 * once refused as "not in this plan"). */
static void stop_everywhere(enum config c, uint64_t n)
{
    struct rig r;
    rig_open_in(&r, c, n, access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    double want[DIM];
    reference(n, want);
    struct sim whole = {0};
    struct outcome o;
    durable_run(&r, &whole, UTURN_DURABLE_NEW, &o);
    cr_assert_eq(o.status, UTURN_OK, "%s", o.message);
    for (uint64_t f = 1; f < whole.forward; f++) {
        struct sim s = {.stop_at = (int)f};
        durable_run(&r, &s, UTURN_DURABLE_NEW, &o);
        cr_assert_eq(o.status, UTURN_E_STOPPED, "stop at %llu: %s",
                     (unsigned long long)f, o.message);
        /* resumed, stopped again one step on (inside the same advance,
         * often: a second point of a resumed advance once named the wrong
         * step), and resumed once more */
        struct sim t = {.no_x0 = true, .stop_at = 1};
        durable_run(&r, &t, UTURN_DURABLE_RESUME, &o);
        cr_assert_eq(o.status, UTURN_E_STOPPED, "stop at %llu: %s",
                     (unsigned long long)f, o.message);
        struct sim u = {.no_x0 = true};
        durable_run(&r, &u, UTURN_DURABLE_RESUME, &o);
        cr_assert_eq(o.status, UTURN_OK, "stop at %llu, then one on: %s",
                     (unsigned long long)f, o.message);
        cr_assert_eq(memcmp(o.xbar, want, sizeof want), 0,
                     "stop at forward step %llu", (unsigned long long)f);
        cr_assert_eq(u.forward, whole.forward - f - 1);
    }
    rig_close(&r);
}

Test(durable_refusals, a_stop_after_any_forward_step_resumes, .timeout = 600)
{
    stop_everywhere(MEMORY, 60);
}

Test(durable_refusals, a_stop_after_any_forward_step_resumes_online_disk,
     .timeout = 600)
{
    stop_everywhere(ONLINE_DISK, 150);
}
