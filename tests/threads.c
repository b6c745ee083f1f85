/* Plans are immutable and shareable: many threads walk one plan and run
 * their own executors on it at the same time, and each gets the gradient a
 * single thread gets. A plain program, not Criterion, because Criterion
 * crashes under ThreadSanitizer and scripts/test builds this with it. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <uturn.h>

#define THREADS 8

struct job {
    const uturn_plan_t *plan;
    double x, xbar, gradient;
    uturn_status_t status;
    uint64_t forward_steps;
};

static int fwd(void *u, uint64_t step)
{
    struct job *j = u;
    j->x          = sin(j->x) + 1e-3 * (double)step;
    return 0;
}

static int seed(void *u)
{
    ((struct job *)u)->xbar = 1.0;
    return 0;
}

static int adj(void *u, uint64_t step)
{
    struct job *j = u;
    (void)step;
    j->xbar *= cos(j->x);
    return 0;
}

static void *work(void *arg)
{
    struct job *j        = arg;
    uturn_executor_t *ex = NULL;
    j->status            = uturn_executor_create(NULL, &ex, NULL);
    for (int rep = 0; rep < 20 && j->status == UTURN_OK; rep++) {
        uturn_model_t m;
        uturn_model_init(&m);
        m.forward     = fwd;
        m.turn        = seed;
        m.adjoint     = adj;
        m.state       = &j->x;
        m.state_bytes = sizeof j->x;
        m.user        = j;
        j->x          = 0.25;
        uturn_stats_t seen;
        uturn_stats_init(&seen);
        j->status =
            uturn_executor_run(ex, j->plan, &m, NULL, &seen, NULL, NULL);
        j->forward_steps = seen.forward_steps;
        j->gradient      = j->xbar;
        /* A walk of the shared plan at the same time as the others. */
        if (j->status == UTURN_OK)
            j->status = uturn_plan_walk(j->plan, NULL, NULL);
    }
    uturn_executor_free(ex);
    return NULL;
}

static int failures;

static void check(bool ok, const char *what, int thread)
{
    if (!ok) {
        fprintf(stderr, "FAIL thread %d: %s\n", thread, what);
        failures++;
    }
}

int main(void)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_REVOLVE;
    p.steps            = 500;
    p.slots            = 7;
    uturn_plan_t *plan = NULL;
    if (uturn_plan_create(&p, NULL, &plan, NULL) != UTURN_OK)
        return 1;
    struct job alone = {.plan = plan};
    work(&alone);
    check(alone.status == UTURN_OK, "single-thread run", -1);
    struct job jobs[THREADS];
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (struct job){.plan = plan};
        check(pthread_create(&threads[t], NULL, work, &jobs[t]) == 0,
              "pthread_create", t);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    uturn_stats_t predicted;
    uturn_stats_init(&predicted);
    uturn_plan_stats(plan, &predicted);
    for (int t = 0; t < THREADS; t++) {
        check(jobs[t].status == UTURN_OK, "status", t);
        check(memcmp(&jobs[t].gradient, &alone.gradient,
                     sizeof alone.gradient) == 0,
              "gradient differs from the single-thread run", t);
        check(jobs[t].forward_steps == predicted.forward_steps, "forward_steps",
              t);
    }
    uturn_plan_free(plan);
    printf("%d passed, %d failed\n", failures == 0 ? THREADS : 0, failures);
    return failures == 0 ? 0 : 1;
}
