/*
 * bench_levels: a memory + disk run with overlapped I/O against the same
 * plan with synchronous I/O, and against the same action stream with every
 * slot in memory (the same recomputation, no I/O at all).
 *
 * The disk is a file level whose pwrite and pread are throttled to a
 * stated bandwidth (they sleep bytes / bandwidth, then do the real call):
 * on this machine files of a few hundred MB sit in the page cache, so the
 * real calls alone would measure memcpy. The model's forward and adjoint
 * steps are calibrated to take about as long as writing one state at that
 * bandwidth (the case: I/O that overlap can hide entirely).
 *
 * White-box (src/executor.h, src/storage_file.h) for the throttle only.
 *
 * usage: bench_levels [REPEATS [STEPS MEM DISK [STATE_MIB]]]
 *   default 5 repetitions of 200 steps over hrevolve with 4 memory and 40
 *   disk slots (w = r = 1), states of 4 MiB.
 */
#define _GNU_SOURCE
#include "executor.h"
#include "storage_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uturn.h>

struct throttle {
    double bytes_per_second;
};

static void pause_for(double seconds)
{
    struct timespec ts = {.tv_sec  = (time_t)seconds,
                          .tv_nsec = (long)((seconds - floor(seconds)) * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static ssize_t slow_pwrite(void *context, int fd, const void *src,
                           size_t bytes, off_t offset)
{
    pause_for((double)bytes / ((struct throttle *)context)->bytes_per_second);
    return pwrite(fd, src, bytes, offset);
}

static ssize_t slow_pread(void *context, int fd, void *dst, size_t bytes,
                          off_t offset)
{
    pause_for((double)bytes / ((struct throttle *)context)->bytes_per_second);
    return pread(fd, dst, bytes, offset);
}

struct sim {
    double *x, *xbar;
    size_t dim;
    unsigned sweeps; /* passes over the state per step (calibrated) */
};

static int fwd(void *u, uint64_t step)
{
    struct sim *s = u;
    for (unsigned p = 0; p < s->sweeps; p++)
        for (size_t j = 0; j < s->dim; j++)
            s->x[j] = s->x[j] * 0.999 + 1e-6 * (double)(step + p);
    return 0;
}

static int seed(void *u)
{
    struct sim *s = u;
    for (size_t j = 0; j < s->dim; j++)
        s->xbar[j] = 1.0;
    return 0;
}

static int adj(void *u, uint64_t step)
{
    struct sim *s = u;
    (void)step;
    for (unsigned p = 0; p < s->sweeps; p++)
        for (size_t j = 0; j < s->dim; j++)
            s->xbar[j] = s->xbar[j] * 0.999 + 1e-9 * s->x[j];
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uturn_model_t model(struct sim *s)
{
    for (size_t j = 0; j < s->dim; j++)
        s->x[j] = 1.0 + 1e-3 * (double)(j % 1000);
    uturn_model_t m;
    uturn_model_init(&m);
    m.user        = s;
    m.state       = s->x;
    m.state_bytes = s->dim * sizeof *s->x;
    m.forward     = fwd;
    m.turn        = seed;
    m.adjoint     = adj;
    return m;
}

/* The same actions with every slot in memory: plan text without levels. */
static uturn_plan_t *in_memory(const uturn_plan_t *plan)
{
    char *text = NULL, *one = NULL;
    size_t len = 0;
    FILE *f    = open_memstream(&text, &len);
    uturn_plan_write(plan, f, NULL);
    fclose(f);
    one = calloc(len + 1, 1);
    char *w = one;
    for (char *line = strtok(text, "\n"); line != NULL;
         line = strtok(NULL, "\n")) {
        if (strncmp(line, "level ", 6) == 0 ||
            strncmp(line, "planner ", 8) == 0 ||
            strncmp(line, "fingerprint ", 12) == 0)
            continue;
        w += sprintf(w, "%s\n",
                     strcmp(line, "uturn-plan 2") == 0 ? "uturn-plan 1" : line);
    }
    uturn_plan_t *out = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    if (uturn_plan_parse(one, strlen(one), NULL, &out, &err) != UTURN_OK)
        fprintf(stderr, "in_memory: %s\n", err.message);
    free(one);
    free(text);
    return out;
}

/* An executor with one file level; throttled when bandwidth > 0. */
static uturn_executor_t *open_ex(bool synchronous, struct throttle *t)
{
    uturn_storage_t level;
    uturn_storage_init(&level);
    level.kind        = UTURN_STORAGE_FILE;
    level.synchronous = synchronous;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = &level;
    o.level_count = 1;
    uturn_executor_t *ex = NULL;
    if (uturn_executor_open(&o, &ex, NULL) != UTURN_OK)
        return NULL;
    const struct uturn__file_io io = {.pwrite  = slow_pwrite,
                                      .pread   = slow_pread,
                                      .context = t};
    uturn__storage_file_set_io(&ex->levels[0].storage, &io);
    return ex;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double timed_run(uturn_executor_t *ex, const uturn_plan_t *plan,
                        struct sim *s, double *wait)
{
    uturn_model_t m = model(s);
    uturn_error_t err;
    uturn_error_init(&err);
    const double t0 = now();
    if (uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &err) != UTURN_OK) {
        fprintf(stderr, "run: %s\n", err.message);
        exit(1);
    }
    const double t = now() - t0;
    uturn_level_report_t r;
    uturn_level_report_init(&r);
    *wait = 0;
    if (uturn_executor_level_report(ex, 1, &r) == UTURN_OK)
        *wait = r.overlapped ? r.wait_seconds
                             : r.write_seconds + r.read_seconds;
    return t;
}

/* Sweeps over the state per step so that a step takes about target s:
 * timed warm (first touches of the state cost page faults, which made
 * a cold sweep look 4 times slower than the run's). */
static unsigned calibrate(struct sim *s, double target)
{
    s->sweeps = 1;
    for (int i = 0; i < 3; i++)
        fwd(s, (uint64_t)i);
    const double t0 = now();
    for (int i = 0; i < 20; i++)
        fwd(s, (uint64_t)i);
    const double one = (now() - t0) / 20;
    const double k   = target / one;
    return k < 1 ? 1 : (unsigned)lround(k);
}

/* Print the median and range of @p t (sorted here), and its ratio to
 * @p base when base > 0; returns the median. */
static double summary(const char *name, double *t, int n, double base)
{
    qsort(t, (size_t)n, sizeof *t, by_value);
    const double med = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    printf("%-34s %8.3f s  (%.3f .. %.3f)", name, med, t[0], t[n - 1]);
    if (base > 0)
        printf("  %.3fx memory-only", med / base);
    printf("\n");
    return med;
}

/* What is measured: the plan's disk traffic, the throttle, the step. */
static void describe(const uturn_plan_t *plan, uint64_t mem, uint64_t disk,
                     double state, const struct throttle *t,
                     double step_seconds, unsigned sweeps)
{
    uturn_level_stats_t ls;
    uturn_level_stats_init(&ls);
    uturn_plan_level_stats(plan, 1, &ls);
    uturn_stats_t st;
    uturn_stats_init(&st);
    uturn_plan_stats(plan, &st);
    printf("hrevolve, %llu steps, memory %llu + disk %llu slots (w = r = 1), "
           "states of %.1f MiB\n",
           (unsigned long long)st.steps, (unsigned long long)mem,
           (unsigned long long)disk, state / 1048576);
    printf("plan: %llu forward steps, %llu disk writes, %llu disk reads\n",
           (unsigned long long)st.forward_steps,
           (unsigned long long)ls.stores, (unsigned long long)ls.restores);
    printf("disk: a file level throttled to %.2f GB/s (a state in %.2f ms); "
           "a model step %.2f ms (%u sweeps)\n",
           t->bytes_per_second / 1e9, 1e3 * step_seconds,
           1e3 * step_seconds, sweeps);
}

static uturn_plan_t *make_plan(uint64_t n, uint64_t mem, uint64_t disk)
{
    uturn_level_t lv[2];
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].name  = "mem";
    lv[0].slots = mem;
    lv[1].name  = "disk";
    lv[1].slots = disk;
    lv[1].write_cost = lv[1].read_cost = 1;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner     = UTURN_PLANNER_HREVOLVE;
    p.steps       = n;
    p.levels      = lv;
    p.level_count = 2;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    if (uturn_plan_create(&p, NULL, &plan, &err) != UTURN_OK) {
        fprintf(stderr, "hrevolve: %s\n", err.message);
        exit(1);
    }
    return plan;
}

int main(int argc, char **argv)
{
    const int repeats = argc > 1 ? atoi(argv[1]) : 5;
    const uint64_t n  = argc > 4 ? strtoull(argv[2], NULL, 10) : 200;
    const uint64_t mem = argc > 4 ? strtoull(argv[3], NULL, 10) : 4;
    const uint64_t disk = argc > 4 ? strtoull(argv[4], NULL, 10) : 40;
    const double mib    = argc > 5 ? atof(argv[5]) : 4;
    struct sim s        = {.dim = (size_t)(mib * 1048576 / sizeof(double))};
    s.x                 = malloc(s.dim * sizeof *s.x);
    s.xbar              = malloc(s.dim * sizeof *s.xbar);
    const double state  = (double)(s.dim * sizeof *s.x);
    /* A step as long as writing a state at the throttled bandwidth. */
    struct throttle t = {.bytes_per_second = 1e9};
    const double step_seconds = state / t.bytes_per_second;
    s.sweeps                  = calibrate(&s, step_seconds);
    uturn_plan_t *plan        = make_plan(n, mem, disk);
    uturn_plan_t *flat        = in_memory(plan);
    describe(plan, mem, disk, state, &t, step_seconds, s.sweeps);
    uturn_executor_t *plain = NULL;
    uturn_executor_open(NULL, &plain, NULL);
    uturn_executor_t *sync = open_ex(true, &t), *over = open_ex(false, &t);
    double tm[64], ts[64], to[64], wait_s = 0, wait_o = 0, w = 0;
    const int reps = repeats > 64 ? 64 : repeats;
    for (int r = 0; r < reps; r++) { /* interleaved: the same noise */
        tm[r] = timed_run(plain, flat, &s, &w);
        ts[r] = timed_run(sync, plan, &s, &w);
        wait_s += w;
        to[r] = timed_run(over, plan, &s, &w);
        wait_o += w;
    }
    printf("median (min .. max) of %d runs, interleaved:\n", reps);
    const double base = summary("memory only, same actions", tm, reps, 0);
    uturn_stats_t st;
    uturn_stats_init(&st);
    uturn_plan_stats(plan, &st);
    printf("(memory only: %.2f ms per forward or adjoint step, against "
           "%.2f ms to write a state)\n",
           1e3 * base / (double)(st.forward_steps + st.steps),
           1e3 * step_seconds);
    summary("memory + disk, synchronous I/O", ts, reps, base);
    summary("memory + disk, overlapped I/O", to, reps, base);
    printf("mean time the run's thread spent on the disk: synchronous "
           "%.3f s (its reads and writes), overlapped %.3f s (waiting)\n",
           wait_s / reps, wait_o / reps);
    uturn_executor_free(plain);
    uturn_executor_free(sync);
    uturn_executor_free(over);
    uturn_plan_free(plan);
    uturn_plan_free(flat);
    free(s.x);
    free(s.xbar);
    return 0;
}
