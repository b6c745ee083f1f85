/* The executor benchmark's model, hand loop and helpers; see exec_common.h. */
#define _GNU_SOURCE /* mremap, ru_minflt */
#include "exec_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* BENCH_CLOCK=cpu: the thread's CPU time instead of wall time. On a
 * loaded machine a run's wall time is mostly how long it waited for a
 * core; its CPU time is not, so the ratios of CPU times scatter less
 * (the executor runs its callbacks on the caller's thread, so both sides
 * are measured alike). */
bool cpu_clock(void)
{
    const char *c = getenv("BENCH_CLOCK");
    return c != NULL && strcmp(c, "cpu") == 0;
}

double now(void)
{
    struct timespec ts;
    clock_gettime(cpu_clock() ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC,
                  &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t minor_faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (uint64_t)ru.ru_minflt;
}

void die(const char *what)
{
    fprintf(stderr, "bench_executor: %s\n", what);
    exit(2);
}

void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL)
        die("out of memory");
    return p;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void summarize(double *v, int n, double *median, double *lo, double *hi)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *lo     = v[0];
    *hi     = v[n - 1];
    *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- the model --------------------------------------------------------- */

NOINLINE int bench_forward(void *user, uint64_t step)
{
    struct model *m = user;
    if (m->empty)
        return 0;
    for (uint64_t i = 0; i < m->words; i++)
        m->state[i] = m->state[i] * 3 + step;
    return 0;
}

NOINLINE int bench_turn(void *user)
{
    struct model *m = user;
    m->acc          = m->state[0];
    return 0;
}

NOINLINE int bench_adjoint(void *user, uint64_t step)
{
    struct model *m = user;
    if (m->empty)
        return 0;
    uint64_t sum = step;
    for (uint64_t i = 0; i < m->words; i++)
        sum += m->state[i];
    m->acc = m->acc * 31 + sum;
    return 0;
}

void bench_model_reset(struct model *m)
{
    for (uint64_t i = 0; i < m->words; i++)
        m->state[i] = i;
    m->acc = 0;
}

uturn_model_t bench_model(struct model *m)
{
    uturn_model_t d;
    uturn_model_init(&d);
    d.user        = m;
    d.forward     = bench_forward;
    d.turn        = bench_turn;
    d.adjoint     = bench_adjoint;
    d.state       = m->state;
    d.state_bytes = 8 * m->words;
    return d;
}

/* ---- plans and actions ------------------------------------------------- */

uturn_plan_t *bench_plan(uturn_executor_t *ex, uturn_planner_t planner,
                         uint64_t steps, uint64_t bytes, uint64_t budget)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = planner;
    p.steps            = steps;
    p.slot_bytes       = bytes;
    p.budget_bytes     = budget;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    if (uturn_executor_plan(ex, &p, &plan, &err) != UTURN_OK) {
        fprintf(stderr, "bench_executor: plan: %s\n", err.message);
        exit(2);
    }
    return plan;
}

void actions_of(const uturn_plan_t *plan, struct actions *out)
{
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    out->count = s.actions;
    out->list  = xmalloc((size_t)s.actions * sizeof *out->list);
    out->span  = 0;
    uturn_cursor_t *c = NULL;
    if (uturn_cursor_create(plan, NULL, &c) != UTURN_OK)
        die("cursor");
    size_t got = 0;
    for (uint64_t at = 0; at < out->count; at += got)
        if (uturn_cursor_read(c, out->list + at, (size_t)(out->count - at),
                              &got) != UTURN_OK ||
            got == 0)
            die("cursor read");
    uturn_cursor_free(c);
    for (uint64_t i = 0; i < out->count; i++)
        if (out->list[i].op == UTURN_OP_STORE &&
            out->list[i].slot + 1 > out->span)
            out->span = out->list[i].slot + 1;
}

void actions_free(struct actions *a)
{
    free(a->list);
    a->list = NULL;
}

/* ---- the hand loop ----------------------------------------------------- */

void region_fit(struct region *r, uint64_t bytes)
{
    const uint64_t page = 4096;
    bytes               = (bytes + page - 1) / page * page;
    if (bytes == r->bytes)
        return;
    if (bytes == 0) {
        region_free(r);
        return;
    }
    void *at = r->base == NULL
                   ? mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                   : mremap(r->base, r->bytes, bytes, MREMAP_MAYMOVE);
    if (at == MAP_FAILED)
        die("region");
    if (bytes >= 4 * MIB)
        madvise(at, bytes, MADV_HUGEPAGE);
    r->base  = at;
    r->bytes = bytes;
}

void region_free(struct region *r)
{
    if (r->base != NULL)
        munmap(r->base, r->bytes);
    r->base  = NULL;
    r->bytes = 0;
}

NOINLINE double hand_run(const struct actions *a, struct region *r,
                         struct model *m)
{
    const uint64_t bytes  = 8 * m->words;
    const uint64_t stride = (bytes + 15) / 16 * 16;
    if (r->bytes < a->span * stride)
        die("the hand loop's region is too small");
    bench_model_reset(m);
    const double t0 = now();
    for (uint64_t k = 0; k < a->count; k++) {
        const uturn_action_t *x = &a->list[k];
        switch (x->op) {
        case UTURN_OP_ADVANCE:
            for (uint64_t i = x->step; i < x->step_end; i++)
                bench_forward(m, i);
            break;
        case UTURN_OP_STORE:
            memcpy(r->base + x->slot * stride, m->state, bytes);
            break;
        case UTURN_OP_RESTORE:
            memcpy(m->state, r->base + x->slot * stride, bytes);
            break;
        case UTURN_OP_TURN:
            bench_turn(m);
            break;
        case UTURN_OP_REVERSE:
            bench_adjoint(m, x->step);
            break;
        default:
            break;
        }
    }
    return now() - t0;
}

double exec_run(uturn_executor_t *ex, const uturn_plan_t *plan,
                struct model *m, uturn_report_t *report)
{
    bench_model_reset(m);
    const uturn_model_t d = bench_model(m);
    uturn_error_t err;
    uturn_error_init(&err);
    const double t0 = now();
    const uturn_status_t st =
        uturn_executor_run(ex, plan, &d, NULL, NULL, report, &err);
    const double t = now() - t0;
    if (st != UTURN_OK) {
        fprintf(stderr, "bench_executor: run: %s\n", err.message);
        exit(2);
    }
    return t;
}
