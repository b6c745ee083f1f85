/*
 * Executor overhead, measured side by side in one run (the machines are
 * shared and noisy, so only ratios of interleaved runs mean much). Each
 * repetition runs every compared variant once, rotating their order; the
 * tables give the median and the min over the repetitions.
 *
 *  1. store-all through uturn_executor_run() against a hand-written loop
 *     that does what a store-all plan does (memcpy the state into buffer
 *     i, forward(i); turn(); memcpy buffer i back, adjoint(i)) with
 *     preallocated buffers, and callbacks that touch every double of a
 *     64 KiB state. The adjoint accumulators must be bitwise equal.
 *                                                target: uturn/hand <= 1.02
 *  2. per-action cost with empty callbacks and an 8-byte state on a long
 *     revolve plan, next to the bare plan walk (uturn_cursor_next()).
 *                                                target: <= 30 ns/action
 *  3. store/restore throughput against plain memcpy of the same sizes
 *     between the same kind of buffers.         target: >= 90% of memcpy
 *
 * Two informational variants split a miss into its causes: uturn given a
 * caller allocator that recycles touched slot buffers across runs (the
 * executor loop without fresh pages), and the hand loop that mallocs and
 * frees its buffers inside the timing (fresh pages without the executor).
 * Minor page faults per run are counted with getrusage().
 *
 * Benchmarks are not tests: a missed target never makes the exit status
 * non-zero; a failed run or a checksum mismatch does (exit 2).
 * usage: bench_executor [REPETITIONS]   (default 9)
 */
#define _DEFAULT_SOURCE /* ru_minflt */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <uturn.h>

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

#define KIB ((uint64_t)1024)
#define MIB (KIB * KIB)

/* Test 1 */
#define T1_STEPS 10000
#define T1_BYTES (64 * KIB)
/* Test 2 */
#define T2_STEPS 1000000
#define T2_SLOTS 20
/* Test 3: n = T3_TOTAL / state size, so every size moves the same bytes. */
#define T3_TOTAL (256 * MIB)

static int reps = 9;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double minor_faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_minflt;
}

static void die(const char *what, uturn_status_t st, const uturn_error_t *e)
{
    fprintf(stderr, "bench_executor: %s: %s%s%s\n", what,
            uturn_status_name(st), e != NULL ? ": " : "",
            e != NULL ? e->message : "");
    exit(2);
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "bench_executor: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    memset(p, 0, bytes); /* touch every page now, not inside a timing */
    return p;
}

static double *samples(void)
{
    return xmalloc((size_t)reps * sizeof(double));
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct summary {
    double median, min;
};

/* Median and min of v[0 .. reps); v is sorted in place. */
static struct summary summarize(double *v)
{
    qsort(v, (size_t)reps, sizeof *v, cmp_double);
    struct summary s;
    s.min    = v[0];
    s.median = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
    return s;
}

static const char *verdict(bool ok)
{
    return ok ? "met" : "MISSED";
}

/* ------------------------------------------------------------------------ */
/* A caller allocator that keeps blocks of one size for reuse (touched      */
/* once, never returned to the system while the benchmark runs).            */
/* ------------------------------------------------------------------------ */

struct recycler {
    size_t bytes; /* the size it keeps; others go to malloc/free */
    void **stack;
    size_t count, capacity;
};

static void *recycler_alloc(void *user, size_t size)
{
    struct recycler *r = user;
    if (size != r->bytes)
        return malloc(size);
    if (r->count > 0)
        return r->stack[--r->count];
    void *p = malloc(size);
    if (p != NULL)
        memset(p, 0, size);
    return p;
}

static void recycler_free(void *user, void *ptr, size_t size)
{
    struct recycler *r = user;
    if (size != r->bytes) {
        free(ptr);
        return;
    }
    if (r->count == r->capacity) {
        const size_t cap = r->capacity ? 2 * r->capacity : 1024;
        void **grown     = realloc(r->stack, cap * sizeof *grown);
        if (grown == NULL) {
            free(ptr);
            return;
        }
        r->stack    = grown;
        r->capacity = cap;
    }
    r->stack[r->count++] = ptr;
}

static void recycler_drain(struct recycler *r)
{
    while (r->count > 0)
        free(r->stack[--r->count]);
    free(r->stack);
    r->stack    = NULL;
    r->capacity = 0;
}

static uturn_executor_t *make_executor(struct recycler *r)
{
    uturn_allocator_t a = {recycler_alloc, recycler_free, r};
    uturn_executor_t *ex = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    const uturn_status_t st =
        uturn_executor_create(r != NULL ? &a : NULL, &ex, &e);
    if (st != UTURN_OK)
        die("uturn_executor_create", st, &e);
    return ex;
}

/* ------------------------------------------------------------------------ */
/* The model. Callbacks are called through the same function pointers by   */
/* the executor and the hand loops, and are never inlined into either.      */
/* ------------------------------------------------------------------------ */

struct model {
    double *x;    /* the live state */
    size_t len;   /* doubles in it, a multiple of 4 */
    double acc;   /* the adjoint accumulator: the "gradient" */
    uint64_t fwd; /* forward calls */
};

static NOINLINE int forward_touch(void *user, uint64_t step)
{
    struct model *m = user;
    double *x       = m->x;
    (void)step;
    for (size_t k = 0; k < m->len; k++)
        x[k] = x[k] * 0.999 + 1e-3 * (double)k;
    m->fwd += 1;
    return 0;
}

/* Reads every double of x_step; four partial sums in a fixed order, so
 * the result is reproducible bit for bit. */
static NOINLINE int adjoint_touch(void *user, uint64_t step)
{
    struct model *m = user;
    const double *x = m->x;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (size_t k = 0; k < m->len; k += 4) {
        s0 += x[k];
        s1 += x[k + 1];
        s2 += x[k + 2];
        s3 += x[k + 3];
    }
    m->acc = m->acc * 0.5 + ((s0 + s1) + (s2 + s3)) + (double)step;
    return 0;
}

static NOINLINE int turn_touch(void *user)
{
    struct model *m = user;
    m->acc          = 0;
    return adjoint_touch(user, 0);
}

static NOINLINE int forward_empty(void *user, uint64_t step)
{
    (void)user;
    (void)step;
    return 0;
}

static NOINLINE int turn_empty(void *user)
{
    (void)user;
    return 0;
}

static NOINLINE int adjoint_empty(void *user, uint64_t step)
{
    (void)user;
    (void)step;
    return 0;
}

static void initial_state(struct model *m)
{
    for (size_t k = 0; k < m->len; k++)
        m->x[k] = 1.0 + 1e-6 * (double)k;
    m->acc = 0;
    m->fwd = 0;
}

static uturn_model_t make_model(struct model *m, bool empty, void *state,
                                uint64_t bytes)
{
    uturn_model_t um;
    uturn_model_init(&um);
    um.user        = m;
    um.forward     = empty ? forward_empty : forward_touch;
    um.turn        = empty ? turn_empty : turn_touch;
    um.adjoint     = empty ? adjoint_empty : adjoint_touch;
    um.state       = state;
    um.state_bytes = bytes;
    return um;
}

/* The hand loops read the model through this volatile pointer, so that
 * the compiler cannot see which callbacks they call. */
static const uturn_model_t *volatile opaque_model;

static uturn_plan_t *make_plan(uturn_executor_t *ex, uturn_planner_t planner,
                               uint64_t steps, uint64_t slots, uint64_t bytes)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner    = planner;
    p.steps      = steps;
    p.slots      = slots;
    p.slot_bytes = bytes;
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    const uturn_status_t st = uturn_executor_plan(ex, &p, &plan, &e);
    if (st != UTURN_OK)
        die("uturn_executor_plan", st, &e);
    return plan;
}

/* One executor run, timed from outside; checks the observed counts. */
static double exec_run(uturn_executor_t *ex, const uturn_plan_t *plan,
                       const uturn_model_t *model, uturn_report_t *report)
{
    uturn_stats_t predicted, seen;
    uturn_stats_init(&predicted);
    uturn_stats_init(&seen);
    uturn_plan_stats(plan, &predicted);
    uturn_report_init(report);
    uturn_error_t e;
    uturn_error_init(&e);
    const double start      = now();
    const uturn_status_t st =
        uturn_executor_run(ex, plan, model, NULL, &seen, report, &e);
    const double spent = now() - start;
    if (st != UTURN_OK)
        die("uturn_executor_run", st, &e);
    if (seen.actions != predicted.actions ||
        seen.forward_steps != predicted.forward_steps ||
        seen.stores != predicted.stores ||
        seen.restores != predicted.restores) {
        fprintf(stderr, "bench_executor: observed counts differ from the "
                        "plan's\n");
        exit(2);
    }
    return spent;
}

/* What a store-all plan does, written by hand. With fresh, the buffers
 * are malloc'd (untouched) before and freed after, inside the timing. */
static NOINLINE double hand_store_all(void **bufs, uint64_t n, bool fresh)
{
    const uturn_model_t *m = opaque_model;
    const size_t bytes     = (size_t)m->state_bytes;
    const double start     = now();
    for (uint64_t i = 0; fresh && i < n; i++)
        if ((bufs[i] = malloc(bytes)) == NULL)
            exit(2);
    for (uint64_t i = 0; i < n; i++) {
        memcpy(bufs[i], m->state, bytes);
        if (m->forward(m->user, i) != 0)
            exit(2);
    }
    if (m->turn(m->user) != 0)
        exit(2);
    for (uint64_t i = n; i-- > 0;) {
        memcpy(m->state, bufs[i], bytes);
        if (m->adjoint(m->user, i) != 0)
            exit(2);
    }
    for (uint64_t i = 0; fresh && i < n; i++)
        free(bufs[i]);
    return now() - start;
}

/* Just the copies of a store-all plan: state -> bufs[i], then back. */
static NOINLINE double hand_copies(void *state, void *const *bufs,
                                   uint64_t n, size_t bytes)
{
    const double start = now();
    for (uint64_t i = 0; i < n; i++)
        memcpy(bufs[i], state, bytes);
    for (uint64_t i = n; i-- > 0;)
        memcpy(state, bufs[i], bytes);
    return now() - start;
}

static void **alloc_buffers(uint64_t n, size_t bytes)
{
    void **bufs = xmalloc((size_t)n * sizeof *bufs);
    for (uint64_t i = 0; bytes != 0 && i < n; i++)
        bufs[i] = xmalloc(bytes);
    return bufs;
}

static void free_buffers(void **bufs, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        free(bufs[i]);
    free(bufs);
}

/* ------------------------------------------------------------------------ */
/* 1. store-all against the hand loop                                       */
/* ------------------------------------------------------------------------ */

enum { V_UTURN, V_HAND, V_UTURN_RECYCLE, V_HAND_FRESH, V_COUNT };

/* What test 1 compares, set up once and shared by its helpers. Filled in
 * place: the executor keeps &rec and the model keeps &m, so it never moves. */
struct overhead_bench {
    uint64_t n, bytes;
    struct model m;
    uturn_model_t um;
    struct recycler rec;
    uturn_executor_t *ex, *exr; /* the caller's, and a recycling one */
    uturn_plan_t *plan, *planr; /* store-all, one per executor */
    void **bufs;                /* the hand loop's, preallocated */
    void **fresh;               /* the hand loop's, malloc'd in the timing */
    double *t[V_COUNT], *f[V_COUNT], *ratio[V_COUNT];
    uturn_report_t report, last; /* scratch; the last V_UTURN run's */
    double ref_acc;              /* the hand loop's accumulator */
};

static void overhead_setup(struct overhead_bench *o, uturn_executor_t *ex)
{
    const uint64_t n = T1_STEPS, bytes = T1_BYTES;
    o->n         = n;
    o->bytes     = bytes;
    o->m         = (struct model){xmalloc(bytes), bytes / sizeof(double), 0, 0};
    o->um        = make_model(&o->m, false, o->m.x, bytes);
    opaque_model = &o->um;
    o->rec       = (struct recycler){bytes, NULL, 0, 0};
    o->ex        = ex;
    o->exr       = make_executor(&o->rec);
    o->plan  = make_plan(ex, UTURN_PLANNER_STORE_ALL, n, 0, bytes);
    o->planr = make_plan(o->exr, UTURN_PLANNER_STORE_ALL, n, 0, bytes);
    o->bufs  = alloc_buffers(n, bytes);
    o->fresh = alloc_buffers(n, 0);
    for (int v = 0; v < V_COUNT; v++) {
        o->t[v]     = samples();
        o->f[v]     = samples();
        o->ratio[v] = samples();
    }
}

/* Warm-ups, and the reference result. */
static void overhead_warm_up(struct overhead_bench *o)
{
    initial_state(&o->m);
    hand_store_all(o->bufs, o->n, false);
    o->ref_acc = o->m.acc;
    initial_state(&o->m);
    exec_run(o->ex, o->plan, &o->um, &o->report);
    initial_state(&o->m);
    exec_run(o->exr, o->planr, &o->um, &o->report);
}

/* One timed run of variant v. */
static double overhead_variant(struct overhead_bench *o, int v)
{
    switch (v) {
    case V_UTURN:
        return exec_run(o->ex, o->plan, &o->um, &o->last);
    case V_UTURN_RECYCLE:
        return exec_run(o->exr, o->planr, &o->um, &o->report);
    case V_HAND:
        return hand_store_all(o->bufs, o->n, false);
    default:
        return hand_store_all(o->fresh, o->n, true);
    }
}

/* Repetition r: every variant once, in an order rotated by r, each checked
 * against the reference; then the ratios to the preallocated hand loop. */
static void overhead_repetition(struct overhead_bench *o, int r)
{
    for (int k = 0; k < V_COUNT; k++) {
        const int v = (k + r) % V_COUNT;
        initial_state(&o->m);
        const double f0 = minor_faults();
        o->t[v][r]      = overhead_variant(o, v);
        o->f[v][r]      = minor_faults() - f0;
        if (memcmp(&o->m.acc, &o->ref_acc, sizeof o->ref_acc) != 0 ||
            o->m.fwd != o->n) {
            fprintf(stderr, "bench_executor: variant %d: adjoint "
                    "accumulator %.17g differs from the hand loop's "
                    "%.17g\n", v, o->m.acc, o->ref_acc);
            exit(2);
        }
    }
    for (int v = 0; v < V_COUNT; v++)
        o->ratio[v][r] = o->t[v][r] / o->t[V_HAND][r];
}

/* The table; sorts the samples in place. */
static void overhead_print(const struct overhead_bench *o)
{
    static const char *const names[V_COUNT] = {
        "uturn_executor_run", "hand loop (preallocated)",
        "uturn, recycling allocator *", "hand loop, malloc in timing *"};
    const uint64_t n = o->n, bytes = o->bytes;
    const uturn_report_t *const last = &o->last;
    printf("1. executor overhead: store-all vs hand-written loop\n"
           "   n = %llu steps, state %llu KiB (%llu MiB of slots), forward "
           "and adjoint touch every double; %d interleaved repetitions\n"
           "   adjoint accumulator bitwise equal in every run of every "
           "variant: %.17g\n",
           (unsigned long long)n, (unsigned long long)(bytes / KIB),
           (unsigned long long)(n * bytes / MIB), reps, o->ref_acc);
    printf("   %-31s %10s %10s %10s %10s %12s\n", "", "median s", "min s",
           "ratio med", "ratio min", "faults/run");
    for (int v = 0; v < V_COUNT; v++) {
        const struct summary st = summarize(o->t[v]);
        const struct summary sr = summarize(o->ratio[v]);
        const struct summary sf = summarize(o->f[v]);
        printf("   %-31s %10.4f %10.4f %10.4f %10.4f %12.0f", names[v],
               st.median, st.min, sr.median, sr.min, sf.median);
        if (v == V_UTURN)
            printf("   target ratio <= 1.02: %s", verdict(sr.median <= 1.02));
        printf("\n");
    }
    printf("   * informational. ratio = variant / hand loop (preallocated), "
           "per repetition\n"
           "   last uturn report: wall %.4f s = forward %.4f + adjoint %.4f "
           "+ copy %.4f + overhead %.4f (jemalloc arena: %s)\n\n",
           last->wall_seconds, last->forward_seconds, last->adjoint_seconds,
           last->copy_seconds, last->overhead_seconds,
           last->jemalloc ? "yes" : "no");
}

static void overhead_teardown(struct overhead_bench *o)
{
    for (int v = 0; v < V_COUNT; v++) {
        free(o->t[v]);
        free(o->f[v]);
        free(o->ratio[v]);
    }
    free_buffers(o->bufs, o->n);
    free(o->fresh);
    uturn_plan_free(o->plan);
    uturn_plan_free(o->planr);
    uturn_executor_free(o->exr);
    recycler_drain(&o->rec);
    free(o->m.x);
}

static void bench_overhead(uturn_executor_t *ex)
{
    struct overhead_bench o;
    overhead_setup(&o, ex);
    overhead_warm_up(&o);
    for (int r = 0; r < reps; r++)
        overhead_repetition(&o, r);
    overhead_print(&o);
    overhead_teardown(&o);
}

/* ------------------------------------------------------------------------ */
/* 2. per-action cost with empty callbacks                                  */
/* ------------------------------------------------------------------------ */

static double walk(const uturn_plan_t *plan, uint64_t *actions,
                   uint64_t *checksum)
{
    uturn_cursor_t *cursor  = NULL;
    const uturn_status_t st = uturn_cursor_create(plan, NULL, &cursor);
    if (st != UTURN_OK)
        die("uturn_cursor_create", st, NULL);
    uturn_action_t a;
    uint64_t count = 0, sum = 0;
    const double start = now();
    while (uturn_cursor_next(cursor, &a)) {
        count += 1;
        sum += a.step ^ a.slot;
    }
    const double spent = now() - start;
    uturn_cursor_free(cursor);
    *actions  = count;
    *checksum = sum;
    return spent;
}

static void bench_per_action(uturn_executor_t *ex)
{
    const uint64_t n = T2_STEPS, slots = T2_SLOTS;
    uint64_t state   = 0;
    struct model m   = {NULL, 0, 0, 0};
    const uturn_model_t um = make_model(&m, true, &state, sizeof state);
    uturn_plan_t *plan =
        make_plan(ex, UTURN_PLANNER_REVOLVE, n, slots, sizeof state);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    double *te = samples(), *tw = samples(), *td = samples();
    uturn_report_t report;
    uint64_t actions = 0, checksum = 0;

    exec_run(ex, plan, &um, &report); /* warm-up */
    walk(plan, &actions, &checksum);
    for (int r = 0; r < reps; r++) {
        for (int half = 0; half < 2; half++) {
            if ((half == 0) == (r % 2 == 0))
                te[r] = exec_run(ex, plan, &um, &report);
            else
                tw[r] = walk(plan, &actions, &checksum);
        }
        if (actions != s.actions) {
            fprintf(stderr, "bench_executor: walked %llu actions, the plan "
                    "predicts %llu\n", (unsigned long long)actions,
                    (unsigned long long)s.actions);
            exit(2);
        }
        const double a = (double)s.actions;
        te[r] *= 1e9 / a;
        tw[r] *= 1e9 / a;
        td[r] = te[r] - tw[r];
    }
    const struct summary se = summarize(te);
    const struct summary sw = summarize(tw);
    const struct summary sd = summarize(td);
    printf("2. per-action cost, empty callbacks, 8-byte state\n"
           "   revolve n = %llu, s = %llu: %llu actions (%llu forward "
           "steps, %llu stores, %llu restores); %d interleaved "
           "repetitions\n",
           (unsigned long long)n, (unsigned long long)slots,
           (unsigned long long)s.actions,
           (unsigned long long)s.forward_steps,
           (unsigned long long)s.stores, (unsigned long long)s.restores,
           reps);
    printf("   %-38s %9s %9s\n", "ns per action", "median", "min");
    printf("   %-38s %9.2f %9.2f   target <= 30: %s\n",
           "uturn_executor_run (wall / actions)", se.median, se.min,
           verdict(se.median <= 30));
    printf("   %-38s %9.2f %9.2f\n", "plan walk alone (uturn_cursor_next)",
           sw.median, sw.min);
    printf("   %-38s %9.2f %9.2f\n\n", "executor's own share (per rep)",
           sd.median, sd.min);
    free(te);
    free(tw);
    free(td);
    uturn_plan_free(plan);
}

/* ------------------------------------------------------------------------ */
/* 3. store/restore throughput against memcpy                               */
/* ------------------------------------------------------------------------ */

enum { C_MEMCPY, C_UTURN, C_UTURN8, C_RECYCLE, C_RECYCLE8, C_COUNT };

/* What test 3 compares for one state size, shared by its helpers. Filled
 * in place: the executors keep &rec, the models &m and &tiny. */
struct copy_bench {
    uint64_t bytes, n;
    void *state;
    uint64_t tiny; /* the 8-byte baseline's state */
    struct model m;
    struct recycler rec;
    uturn_executor_t *ex, *exr, *ex8;
    uturn_model_t um, u8;
    uturn_plan_t *plan, *plan8, *planr, *planr8;
    double moved; /* bytes one run stores and restores */
    void **bufs;  /* memcpy's, preallocated */
    double *t[C_COUNT], *f[C_COUNT];
    double *g_hand, *g_wall, *g_rep, *g_rec; /* GB/s */
    double *r_wall, *r_rep, *r_rec;          /* ratios to memcpy */
    uturn_report_t report, scratch; /* the last C_UTURN run's; scratch */
    unsigned char *pattern;         /* x_0 */
};

/* The executors, models and plans. */
static void copy_setup_plans(struct copy_bench *c, uturn_executor_t *ex,
                             uint64_t bytes)
{
    const uint64_t n = T3_TOTAL / bytes;
    c->bytes = bytes;
    c->n     = n;
    c->state = xmalloc(bytes);
    c->tiny  = 0;
    c->m     = (struct model){NULL, 0, 0, 0};
    c->rec   = (struct recycler){bytes, NULL, 0, 0};
    c->ex    = ex;
    c->exr   = make_executor(&c->rec);
    /* The 8-byte baseline runs on an executor of its own: one executor
     * per model keeps its slot buffers between runs, and alternating
     * state sizes on one executor would refit its pool every run. */
    c->ex8   = make_executor(NULL);
    c->um    = make_model(&c->m, true, c->state, bytes);
    c->u8    = make_model(&c->m, true, &c->tiny, sizeof c->tiny);
    c->plan  = make_plan(ex, UTURN_PLANNER_STORE_ALL, n, 0, bytes);
    c->plan8 = make_plan(ex, UTURN_PLANNER_STORE_ALL, n, 0, sizeof c->tiny);
    c->planr = make_plan(c->exr, UTURN_PLANNER_STORE_ALL, n, 0, bytes);
    c->planr8 =
        make_plan(c->exr, UTURN_PLANNER_STORE_ALL, n, 0, sizeof c->tiny);
}

/* The buffers, the samples and the initial state. */
static void copy_setup_buffers(struct copy_bench *c)
{
    const uint64_t bytes = c->bytes;
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(c->plan, &s);
    c->moved = (double)((s.stores + s.restores) * bytes);
    c->bufs  = alloc_buffers(c->n, bytes);
    for (int v = 0; v < C_COUNT; v++) {
        c->t[v] = samples();
        c->f[v] = samples();
    }
    c->g_hand  = samples();
    c->g_wall  = samples();
    c->g_rep   = samples();
    c->g_rec   = samples();
    c->r_wall  = samples();
    c->r_rep   = samples();
    c->r_rec   = samples();
    c->pattern = xmalloc(bytes);
    for (uint64_t k = 0; k < bytes; k++)
        c->pattern[k] = (unsigned char)(k * 131 + 7);
}

static void copy_warm_up(struct copy_bench *c)
{
    memcpy(c->state, c->pattern, c->bytes);
    hand_copies(c->state, c->bufs, c->n, c->bytes);
    exec_run(c->ex, c->plan, &c->um, &c->scratch);
    exec_run(c->exr, c->planr, &c->um, &c->scratch);
    exec_run(c->ex8, c->plan8, &c->u8, &c->scratch);
    exec_run(c->exr, c->planr8, &c->u8, &c->scratch);
}

/* One timed run of variant v. */
static double copy_variant(struct copy_bench *c, int v)
{
    switch (v) {
    case C_MEMCPY:
        return hand_copies(c->state, c->bufs, c->n, c->bytes);
    case C_UTURN:
        return exec_run(c->ex, c->plan, &c->um, &c->report);
    case C_UTURN8:
        return exec_run(c->ex8, c->plan8, &c->u8, &c->scratch);
    case C_RECYCLE:
        return exec_run(c->exr, c->planr, &c->um, &c->scratch);
    default:
        return exec_run(c->exr, c->planr8, &c->u8, &c->scratch);
    }
}

/* Repetition r: every variant once, in an order rotated by r, each checked
 * to leave x_0 in place; then the throughputs and ratios. */
static void copy_repetition(struct copy_bench *c, int r)
{
    for (int k = 0; k < C_COUNT; k++) {
        const int v = (k + r) % C_COUNT;
        memcpy(c->state, c->pattern, c->bytes);
        const double f0 = minor_faults();
        c->t[v][r]      = copy_variant(c, v);
        c->f[v][r]      = minor_faults() - f0;
        if (memcmp(c->state, c->pattern, c->bytes) != 0) {
            fprintf(stderr, "bench_executor: the state after variant "
                    "%d differs from x_0\n", v);
            exit(2);
        }
    }
    /* The 8-byte run has the same plan and callbacks on the same
     * executor: what remains after subtracting it is the copying. */
    const double moved = c->moved;
    const double hand  = c->t[C_MEMCPY][r];
    const double cwall = c->t[C_UTURN][r] - c->t[C_UTURN8][r];
    const double crec  = c->t[C_RECYCLE][r] - c->t[C_RECYCLE8][r];
    c->g_hand[r] = moved / hand / 1e9;
    c->g_wall[r] = moved / cwall / 1e9;
    c->g_rep[r]  = moved / c->report.copy_seconds / 1e9;
    c->g_rec[r]  = moved / crec / 1e9;
    c->r_wall[r] = hand / cwall;
    c->r_rep[r]  = hand / c->report.copy_seconds;
    c->r_rec[r]  = hand / crec;
}

/* One row of the table; sorts the samples in place. */
static void copy_print_row(const struct copy_bench *c)
{
    const struct summary sh = summarize(c->g_hand), sw = summarize(c->g_wall);
    const struct summary sr = summarize(c->g_rep), sc = summarize(c->g_rec);
    const struct summary rw = summarize(c->r_wall), rr = summarize(c->r_rep);
    const struct summary rc = summarize(c->r_rec);
    const struct summary fh = summarize(c->f[C_MEMCPY]);
    const struct summary fu = summarize(c->f[C_UTURN]);
    printf("   %5llu KiB %6llu | %6.2f %6.2f | %6.2f %6.2f %5.1f%% %5.1f%% "
           "%-6s| %6.2f %6.1f%% | %6.2f %6.1f%% | %7.0f %7.0f\n",
           (unsigned long long)(c->bytes / KIB), (unsigned long long)c->n,
           sh.median, sh.min, sw.median, sw.min, 100 * rw.median,
           100 * rw.min, verdict(rw.median >= 0.9), sr.median,
           100 * rr.median, sc.median, 100 * rc.median, fh.median,
           fu.median);
}

static void copy_teardown(struct copy_bench *c)
{
    for (int v = 0; v < C_COUNT; v++) {
        free(c->t[v]);
        free(c->f[v]);
    }
    free(c->g_hand);
    free(c->g_wall);
    free(c->g_rep);
    free(c->g_rec);
    free(c->r_wall);
    free(c->r_rep);
    free(c->r_rec);
    free(c->pattern);
    free_buffers(c->bufs, c->n);
    uturn_plan_free(c->plan);
    uturn_plan_free(c->plan8);
    uturn_plan_free(c->planr);
    uturn_plan_free(c->planr8);
    uturn_executor_free(c->exr);
    uturn_executor_free(c->ex8);
    recycler_drain(&c->rec);
    free(c->state);
}

static void bench_copy_size(uturn_executor_t *ex, uint64_t bytes)
{
    struct copy_bench c;
    copy_setup_plans(&c, ex, bytes);
    copy_setup_buffers(&c);
    copy_warm_up(&c);
    for (int r = 0; r < reps; r++)
        copy_repetition(&c, r);
    copy_print_row(&c);
    copy_teardown(&c);
}

static void bench_copy(uturn_executor_t *ex)
{
    printf("3. store/restore throughput vs memcpy (store-all, empty "
           "callbacks)\n"
           "   n = %llu MiB / state size; bytes = (stores + restores) * "
           "state size; GB = 1e9 bytes; %d interleaved repetitions\n"
           "   memcpy: n copies state -> n distinct malloc'd buffers, then "
           "back in reverse order; buffers preallocated and touched\n"
           "   uturn: bytes / (wall of the run - wall of the same plan "
           "with an 8-byte state): the acceptance figure\n"
           "   report *: bytes / report.copy_seconds, sampled 1 action in "
           "32 when actions are short (< 2 us)\n"
           "   recycling *: as uturn, with a caller allocator that reuses "
           "touched slot buffers across runs\n",
           (unsigned long long)(T3_TOTAL / MIB), reps);
    printf("   %9s %6s | %13s | %-34s| %-14s| %-14s| %s\n", "", "",
           "memcpy GB/s", "uturn GB/s, ratio to memcpy", "report *",
           "recycling *", "faults/run");
    printf("   %9s %6s | %6s %6s | %6s %6s %6s %6s %-6s| %6s %7s | %6s "
           "%7s | %7s %7s\n",
           "state", "n", "median", "min", "median", "min", "median", "min",
           ">=90%", "GB/s", "ratio", "GB/s", "ratio", "memcpy", "uturn");
    const uint64_t sizes[] = {4 * KIB, 64 * KIB, 1 * MIB};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        bench_copy_size(ex, sizes[i]);
    printf("   * informational. \"min\" is the lowest of the repetitions; "
           "the report and recycling columns are medians\n");
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        reps = atoi(argv[1]);
        if (reps < 1) {
            fprintf(stderr, "usage: bench_executor [REPETITIONS]\n");
            return 2;
        }
    }
    uturn_executor_t *ex = make_executor(NULL);
    printf("bench_executor: uturn %s; %d repetitions per figure, variants "
           "interleaved (order rotated), median and min reported\n\n",
           uturn_version_string(), reps);
    bench_overhead(ex);
    bench_per_action(ex);
    bench_copy(ex);
    uturn_executor_free(ex);
    return 0;
}
