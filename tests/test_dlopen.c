/* Load libuturn.so late with dlopen (as Python's ctypes does) and run a
 * small model through it: the core must not need jemalloc to be linked. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <math.h>
#include <string.h>
#include <uturn.h>

static double x, xbar;

static int fwd(void *user, uint64_t step)
{
    (void)user;
    (void)step;
    x = sin(x);
    return 0;
}

static int seed(void *user)
{
    (void)user;
    xbar = 1.0;
    return 0;
}

static int adj(void *user, uint64_t step)
{
    (void)user;
    (void)step;
    xbar *= cos(x);
    return 0;
}

/* The entry points the test uses, looked up by name. */
struct api {
    void (*problem_init)(uturn_problem_t *);
    void (*model_init)(uturn_model_t *);
    uturn_status_t (*executor_create)(const uturn_allocator_t *,
                                      uturn_executor_t **, uturn_error_t *);
    uturn_status_t (*executor_plan)(const uturn_executor_t *,
                                    const uturn_problem_t *, uturn_plan_t **,
                                    uturn_error_t *);
    uturn_status_t (*executor_run)(uturn_executor_t *, const uturn_plan_t *,
                                   const uturn_model_t *,
                                   const uturn_run_options_t *, uturn_stats_t *,
                                   uturn_report_t *, uturn_error_t *);
    void (*plan_free)(uturn_plan_t *);
    void (*executor_free)(uturn_executor_t *);
};

/* dlsym returns an object pointer; POSIX lets it become a function. */
static void load(void *lib, const char *name, void *fn, size_t size)
{
    void *p = dlsym(lib, name);
    cr_assert_not_null(p, "%s: %s", name, dlerror());
    memcpy(fn, &p, size);
}

static struct api load_api(void *lib)
{
    struct api a;
    load(lib, "uturn_problem_init", &a.problem_init, sizeof a.problem_init);
    load(lib, "uturn_model_init", &a.model_init, sizeof a.model_init);
    load(lib, "uturn_executor_create", &a.executor_create,
         sizeof a.executor_create);
    load(lib, "uturn_executor_plan", &a.executor_plan, sizeof a.executor_plan);
    load(lib, "uturn_executor_run", &a.executor_run, sizeof a.executor_run);
    load(lib, "uturn_plan_free", &a.plan_free, sizeof a.plan_free);
    load(lib, "uturn_executor_free", &a.executor_free, sizeof a.executor_free);
    return a;
}

Test(dlopen, late_loaded_library_runs_a_model)
{
    void *lib = dlopen(UTURN_SHARED_LIB, RTLD_NOW | RTLD_LOCAL);
    cr_assert_not_null(lib, "%s", dlerror());
    const struct api api = load_api(lib);
    uturn_executor_t *ex = NULL;
    cr_assert_eq(api.executor_create(NULL, &ex, NULL), UTURN_OK);
    uturn_problem_t p;
    api.problem_init(&p);
    p.steps            = 25;
    p.slot_bytes       = sizeof x;
    p.slots            = 4;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(api.executor_plan(ex, &p, &plan, NULL), UTURN_OK);
    uturn_model_t m;
    api.model_init(&m);
    m.forward     = fwd;
    m.turn        = seed;
    m.adjoint     = adj;
    m.state       = &x;
    m.state_bytes = sizeof x;
    x             = 0.5;
    cr_assert_eq(api.executor_run(ex, plan, &m, NULL, NULL, NULL, NULL),
                 UTURN_OK);
    double want = 1.0, y = 0.5, ys[25];
    for (int i = 0; i < 25; i++)
        ys[i] = y, y = sin(y);
    for (int i = 24; i >= 0; i--)
        want *= cos(ys[i]);
    cr_assert(memcmp(&want, &xbar, sizeof want) == 0);
    api.plan_free(plan);
    api.executor_free(ex);
    dlclose(lib);
}
