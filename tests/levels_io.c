/* The levels' I/O thread under load: runs through memory and a file level
 * with every buffer count (write-behind and read-ahead racing the run's
 * thread), through the state and through save/load, give the gradient of
 * a run in memory alone, bit for bit, and leave nothing in the directory.
 * A plain program, not Criterion, so that scripts/test can build it with
 * ThreadSanitizer (Criterion does not run under it). */
#define _GNU_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uturn.h>

#define DIM 64

struct sim {
    double x[DIM], xbar[DIM];
};

static int fwd(void *u, uint64_t step)
{
    struct sim *s = u;
    for (int j = 0; j < DIM; j++)
        s->x[j] = sin(s->x[j]) + 1e-3 * (double)step * (j + 1);
    return 0;
}

static int seed(void *u)
{
    struct sim *s = u;
    for (int j = 0; j < DIM; j++)
        s->xbar[j] = 1.0;
    return 0;
}

static int adj(void *u, uint64_t step)
{
    struct sim *s = u;
    (void)step;
    for (int j = 0; j < DIM; j++)
        s->xbar[j] *= cos(s->x[j]);
    return 0;
}

static int save(void *u, uint64_t step, void *dst, uint64_t bytes)
{
    (void)step;
    memcpy(dst, ((struct sim *)u)->x, (size_t)bytes);
    return 0;
}

static int load(void *u, uint64_t step, const void *src, uint64_t bytes)
{
    (void)step;
    memcpy(((struct sim *)u)->x, src, (size_t)bytes);
    return 0;
}

static uturn_model_t model(struct sim *s, bool save_load)
{
    for (int j = 0; j < DIM; j++)
        s->x[j] = 0.1 * j;
    uturn_model_t m;
    uturn_model_init(&m);
    m.user        = s;
    m.state_bytes = sizeof s->x;
    m.forward     = fwd;
    m.turn        = seed;
    m.adjoint     = adj;
    if (save_load) {
        m.save = save;
        m.load = load;
    } else {
        m.state = s->x;
    }
    return m;
}

/* A revolve plan of n steps on mem + disk slots, split into two levels. */
static uturn_plan_t *two_level_plan(uint64_t n, uint64_t mem, uint64_t disk)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_REVOLVE;
    p.steps   = n;
    p.slots   = mem + disk;
    uturn_plan_t *one = NULL;
    if (uturn_plan_create(&p, NULL, &one, NULL) != UTURN_OK)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *f    = open_memstream(&text, &len);
    uturn_plan_write(one, f, NULL);
    fclose(f);
    uturn_plan_free(one);
    const char *body = strchr(strstr(text, "\nslots ") + 1, '\n') + 1;
    char *two        = NULL;
    uturn_plan_t *plan = NULL;
    if (asprintf(&two,
                 "uturn-plan 2\nsteps %llu\nslots %llu\nlevel mem %llu 0 0\n"
                 "level disk %llu 5 5\n%s",
                 (unsigned long long)n, (unsigned long long)(mem + disk),
                 (unsigned long long)mem, (unsigned long long)disk,
                 body) > 0)
        uturn_plan_parse(two, strlen(two), NULL, &plan, NULL);
    free(two);
    free(text);
    return plan;
}

static int failures;

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAILED: %s\n", what);
        failures += 1;
    }
}

static uturn_status_t run(const uturn_plan_t *plan, const char *dir,
                          uint64_t buffers, bool save_load, double *grad)
{
    uturn_storage_t level;
    uturn_storage_init(&level);
    level.kind      = UTURN_STORAGE_FILE;
    level.directory = dir;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = &level;
    o.level_count = 1;
    o.io_buffers  = buffers;
    uturn_executor_t *ex = NULL;
    if (uturn_executor_open(&o, &ex, NULL) != UTURN_OK)
        return UTURN_E_NOMEM;
    struct sim s;
    uturn_model_t m = model(&s, save_load);
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_status_t st = UTURN_OK;
    for (int again = 0; again < 3 && st == UTURN_OK; again++) {
        m = model(&s, save_load);
        st = uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &err);
    }
    if (st != UTURN_OK)
        fprintf(stderr, "run: %s\n", err.message);
    memcpy(grad, s.xbar, sizeof s.xbar);
    uturn_executor_free(ex);
    return st;
}

int main(void)
{
    char dir[] = "/tmp/uturn-levels-io-XXXXXX";
    if (mkdtemp(dir) == NULL)
        return 1;
    const uint64_t n = 400;
    uturn_plan_t *plan = two_level_plan(n, 3, 9);
    check(plan != NULL, "the two-level plan parses");
    /* The truth: every state in memory. */
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_STORE_ALL;
    p.steps   = n;
    uturn_plan_t *all = NULL;
    uturn_plan_create(&p, NULL, &all, NULL);
    struct sim s;
    uturn_model_t m = model(&s, false);
    uturn_executor_t *ex = NULL;
    uturn_executor_open(NULL, &ex, NULL);
    check(uturn_executor_run(ex, all, &m, NULL, NULL, NULL, NULL) == UTURN_OK,
          "store-all runs");
    uturn_executor_free(ex);
    uturn_plan_free(all);
    for (uint64_t b = 1; b <= 16 && plan != NULL; b += b < 4 ? 1 : 6) {
        for (int sl = 0; sl < 2; sl++) {
            double grad[DIM];
            check(run(plan, dir, b, sl, grad) == UTURN_OK, "a level run");
            check(memcmp(grad, s.xbar, sizeof grad) == 0,
                  "the gradient through the file equals memory's");
        }
    }
    uturn_plan_free(plan);
    check(rmdir(dir) == 0, "the runs left nothing in the directory");
    if (failures == 0)
        printf("levels_io: every run matched\n");
    return failures == 0 ? 0 : 1;
}
