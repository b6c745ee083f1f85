/*
 * Programs built against an older header keep working: they call the
 * plain uturn_<noun>_init() functions (the header's macros pass sizeof
 * instead), which write only the fields of 0.1, and the library reads and
 * writes no byte past the size a struct records. The 0.1 layouts are
 * written out here; bytes after them are filled with 0xff, which the
 * library would take for a callback address or a huge count if it read
 * them, and must find untouched.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <uturn.h>

/* The 0.1 structs, as that release's header declared them. */
struct stats_0_1 {
    size_t size;
    uint64_t counts[15];
    double recompute_factor;
};
struct options_0_1 {
    size_t size;
    uint64_t budget_bytes;
    bool verify;
    int (*progress)(void *, uint64_t, uint64_t);
    void *progress_user;
    uint64_t progress_every;
};
struct report_0_1 {
    size_t size;
    uturn_status_t status;
    uint64_t u[7];
    double d[5];
    bool jemalloc;
};
struct model_0_1 {
    size_t size;
    void *user;
    int (*forward)(void *, uint64_t);
    int (*turn)(void *);
    int (*adjoint)(void *, uint64_t);
    void *state;
    uint64_t state_bytes;
    int (*save)(void *, uint64_t, void *, uint64_t);
    int (*load)(void *, uint64_t, const void *, uint64_t);
    uint64_t (*state_size)(void *, uint64_t);
};

#define PAD 256

/* A struct of `size` bytes followed by PAD bytes of 0xff. */
struct padded {
    _Alignas(16) unsigned char bytes[512 + PAD];
};

static void fill(struct padded *p)
{
    memset(p->bytes, 0xff, sizeof p->bytes);
}

static void untouched(const struct padded *p, size_t size, const char *what)
{
    for (size_t i = size; i < size + PAD; i++)
        cr_assert_eq(p->bytes[i], 0xff, "%s: byte %zu past its %zu written",
                     what, i, size);
}

static double x, xbar;

static int fwd(void *u, uint64_t step)
{
    (void)u;
    (void)step;
    x = sin(x);
    return 0;
}

static int seed(void *u)
{
    (void)u;
    xbar = 1.0;
    return 0;
}

static int adj(void *u, uint64_t step)
{
    (void)u;
    (void)step;
    xbar *= cos(x);
    return 0;
}

Test(abi, the_plain_init_functions_write_the_structs_of_0_1)
{
    struct padded p;
    fill(&p);
    (uturn_report_init)((uturn_report_t *)(void *)p.bytes);
    cr_assert_eq(((struct report_0_1 *)(void *)p.bytes)->size,
                 sizeof(struct report_0_1));
    untouched(&p, sizeof(struct report_0_1), "report");
    fill(&p);
    (uturn_stats_init)((uturn_stats_t *)(void *)p.bytes);
    cr_assert_eq(*(size_t *)(void *)p.bytes, sizeof(struct stats_0_1));
    untouched(&p, sizeof(struct stats_0_1), "stats");
    fill(&p);
    (uturn_run_options_init)((uturn_run_options_t *)(void *)p.bytes);
    untouched(&p, sizeof(struct options_0_1), "run options");
    fill(&p);
    (uturn_model_init)((uturn_model_t *)(void *)p.bytes);
    untouched(&p, sizeof(struct model_0_1), "model");
}

/* A whole run with 0.1 structs: nothing past them is read or written. */
Test(abi, a_run_with_the_structs_of_0_1)
{
    struct padded mp, op, sp, rp;
    fill(&mp), fill(&op), fill(&sp), fill(&rp);
    struct model_0_1 *m = (struct model_0_1 *)(void *)mp.bytes;
    (uturn_model_init)((uturn_model_t *)(void *)m);
    m->forward     = fwd;
    m->turn        = seed;
    m->adjoint     = adj;
    m->state       = &x;
    m->state_bytes = sizeof x;
    (uturn_run_options_init)((uturn_run_options_t *)(void *)op.bytes);
    (uturn_stats_init)((uturn_stats_t *)(void *)sp.bytes);
    (uturn_report_init)((uturn_report_t *)(void *)rp.bytes);
    uturn_problem_t pr;
    uturn_problem_init(&pr);
    pr.steps           = 30;
    pr.slots           = 4;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&pr, NULL, &plan, NULL), UTURN_OK);
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    x = 0.5;
    cr_assert_eq(uturn_executor_run(ex, plan, (uturn_model_t *)(void *)m,
                                    (uturn_run_options_t *)(void *)op.bytes,
                                    (uturn_stats_t *)(void *)sp.bytes,
                                    (uturn_report_t *)(void *)rp.bytes, NULL),
                 UTURN_OK);
    untouched(&mp, sizeof(struct model_0_1), "model");
    untouched(&op, sizeof(struct options_0_1), "run options");
    untouched(&sp, sizeof(struct stats_0_1), "stats");
    untouched(&rp, sizeof(struct report_0_1), "report");
    const struct stats_0_1 *s = (const struct stats_0_1 *)(void *)sp.bytes;
    cr_assert_eq(s->counts[0], 30, "steps");
    cr_assert_eq(((struct report_0_1 *)(void *)rp.bytes)->status, UTURN_OK);
    /* and plan_stats into the old struct */
    fill(&sp);
    (uturn_stats_init)((uturn_stats_t *)(void *)sp.bytes);
    cr_assert_eq(uturn_plan_stats(plan, (uturn_stats_t *)(void *)sp.bytes),
                 UTURN_OK);
    untouched(&sp, sizeof(struct stats_0_1), "plan stats");
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* The macros of this header initialise the whole current struct. */
Test(abi, the_macros_initialise_the_whole_struct)
{
    uturn_report_t r;
    memset(&r, 0xff, sizeof r);
    uturn_report_init(&r);
    cr_assert_eq(r.size, sizeof r);
    cr_assert_eq(r.budget_bytes, 0);
    cr_assert_eq(r.failed_step, UTURN_NONE);
    uturn_stats_t s;
    memset(&s, 0xff, sizeof s);
    uturn_stats_init(&s);
    cr_assert_eq(s.size, sizeof s);
    cr_assert_eq(s.fingerprint, 0);
}
