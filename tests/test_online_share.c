/*
 * Online plans with a byte budget: each state's share of the plan's budget
 * is its stride scaled from the bytes the run's budget holds to the plan's
 * budget, rounded up, so that sizes off the slot alignment still fit the
 * region the run holds (they once failed mid-run for want of room); and
 * the model's agree callback, through which a layer running one plan on
 * several processes raises the shares and the end flag (it may never lower
 * them). Truth: a plain sweep of the same recurrence, outside uturn.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <uturn.h>

#define SH_MAX 400

/* x_{i+1} = x_i + h sin(x_i); the state is x padded to an odd size that
 * changes with the step (17 .. 39 bytes), the padding a pattern that load
 * checks, so a state moved or cut short is caught. */
struct odd {
    double x, xbar;
    uint64_t stop_at, agreed;
    uint64_t shares[SH_MAX + 1]; /* what agree was given, per step */
    uint64_t raise_to;           /* agree raises shares to this (0: no) */
    uint64_t end_at;             /* agree says last here (0: no) */
    int lower, fail_at;          /* agree lowers the share, fails at step */
};

static uint64_t odd_size(void *u, uint64_t step)
{
    (void)u;
    return 17 + (step * 5) % 23;
}

static int odd_forward(void *u, uint64_t i)
{
    (void)i;
    struct odd *s = u;
    s->x += 0.01 * sin(s->x);
    return 0;
}

static int odd_turn(void *u)
{
    struct odd *s = u;
    s->xbar       = s->x;
    return 0;
}

static int odd_adjoint(void *u, uint64_t i)
{
    (void)i;
    struct odd *s = u;
    s->xbar *= 1 + 0.01 * cos(s->x);
    return 0;
}

static int odd_save(void *u, uint64_t step, void *dst, uint64_t bytes)
{
    const struct odd *s = u;
    cr_assert_eq(bytes, odd_size(NULL, step));
    memset(dst, (int)(step & 0xff), (size_t)bytes);
    memcpy(dst, &s->x, sizeof s->x);
    return 0;
}

static int odd_load(void *u, uint64_t step, const void *src, uint64_t bytes)
{
    struct odd *s            = u;
    const unsigned char *pad = src;
    cr_assert_eq(bytes, odd_size(NULL, step));
    for (uint64_t k = sizeof s->x; k < bytes; k++)
        cr_assert_eq(pad[k], step & 0xff, "x_%llu's byte %llu",
                     (unsigned long long)step, (unsigned long long)k);
    memcpy(&s->x, src, sizeof s->x);
    return 0;
}

static int odd_is_last(void *u, uint64_t step)
{
    return step == ((struct odd *)u)->stop_at;
}

static int odd_agree(void *u, uint64_t step, int *last, uint64_t *share)
{
    struct odd *s = u;
    cr_assert_leq(step, SH_MAX);
    s->shares[step] = *share;
    s->agreed++;
    if (s->fail_at != 0 && step == (uint64_t)s->fail_at)
        return 7;
    if (s->lower && step == 3)
        *share -= 1;
    if (s->raise_to > *share)
        *share = s->raise_to;
    if (s->end_at != 0 && step == s->end_at)
        *last = 1;
    return 0;
}

/* The gradient d x_n / d x_0 of n steps from x0, in one plain sweep. */
static double truth(double x0, uint64_t n)
{
    double xs[SH_MAX];
    double x = x0;
    for (uint64_t i = 0; i < n; i++) {
        xs[i] = x;
        x += 0.01 * sin(x);
    }
    double g = x; /* J = x_n^2 / 2: xbar_n = x_n */
    for (uint64_t i = n; i-- > 0;)
        g *= 1 + 0.01 * cos(xs[i]);
    return g;
}

static uturn_plan_t *bytes_plan(uint64_t budget)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.budget_bytes     = budget;
    p.max_steps        = SH_MAX;
    uturn_plan_t *plan = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &err), UTURN_OK, "%s",
                 err.message);
    return plan;
}

/* The odd model, with the agree callback when @p agree. */
static void odd_model(struct odd *s, bool agree, uturn_model_t *m)
{
    uturn_model_init(m);
    m->user       = s;
    m->forward    = odd_forward;
    m->turn       = odd_turn;
    m->adjoint    = odd_adjoint;
    m->save       = odd_save;
    m->load       = odd_load;
    m->state_size = odd_size;
    m->is_last    = odd_is_last;
    m->agree      = agree ? odd_agree : NULL;
}

/* One run of @p m on a fresh executor, to an online plan of @p budget. */
static uturn_status_t run_on(uint64_t budget, const uturn_model_t *m,
                             uturn_stats_t *seen, uturn_error_t *err)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(NULL, &ex, NULL), UTURN_OK);
    uturn_plan_t *plan = bytes_plan(budget);
    uturn_stats_init(seen);
    uturn_error_init(err);
    const uturn_status_t st =
        uturn_executor_run(ex, plan, m, NULL, seen, NULL, err);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    return st;
}

static uturn_status_t odd_run(struct odd *s, uint64_t budget, bool agree,
                              uturn_stats_t *seen, uturn_error_t *err)
{
    uturn_model_t m;
    odd_model(s, agree, &m);
    s->x = 0.3;
    return run_on(budget, &m, seen, err);
}

Test(online_share, states_off_the_slot_alignment_fit_their_budget)
{
    const uint64_t budgets[] = {64, 170, 171, 300, 1000, 5000};
    for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
        struct odd s = {.stop_at = 250};
        uturn_stats_t seen;
        uturn_error_t err;
        cr_assert_eq(odd_run(&s, budgets[b], false, &seen, &err), UTURN_OK,
                     "budget %llu: %s", (unsigned long long)budgets[b],
                     err.message);
        cr_assert_eq(seen.steps, 250);
        cr_assert_eq(s.xbar, truth(0.3, 250), "budget %llu",
                     (unsigned long long)budgets[b]);
        cr_assert_leq(seen.peak_bytes, budgets[b]);
    }
}

/* What agree is given: ceil(B * stride / A), B the plan's budget and A the
 * bytes the run's budget holds (below a page: the budget in whole 16-byte
 * slots), for x_0 and every state of the first sweep up to the last. */
Test(online_share, agree_is_given_each_states_share_once)
{
    struct odd s = {.stop_at = 120};
    uturn_stats_t seen;
    uturn_error_t err;
    cr_assert_eq(odd_run(&s, 1000, true, &seen, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_eq(s.xbar, truth(0.3, 120));
    cr_assert_eq(s.agreed, 121, "x_0 .. x_120, each once");
    const uint64_t A = 1000 / 16 * 16;
    for (uint64_t i = 0; i <= 120; i++) {
        const uint64_t stride = (odd_size(NULL, i) + 15) / 16 * 16;
        cr_assert_eq(s.shares[i], (1000 * stride + A - 1) / A, "x_%llu",
                     (unsigned long long)i);
    }
}

/* Raised shares (another process's larger states): fewer states held, the
 * same gradient; a raised end flag ends every process there. */
Test(online_share, raised_shares_and_end_are_followed)
{
    struct odd alone = {.stop_at = 200}, raised = {.stop_at = 200};
    uturn_stats_t a, r;
    uturn_error_t err;
    cr_assert_eq(odd_run(&alone, 1000, true, &a, &err), UTURN_OK);
    raised.raise_to = 150; /* at most 6 states of the plan's 1000 */
    cr_assert_eq(odd_run(&raised, 1000, true, &r, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_eq(raised.xbar, truth(0.3, 200));
    cr_assert_leq(r.peak_slots, 6);
    cr_assert_gt(a.peak_slots, r.peak_slots);
    cr_assert_gt(r.forward_steps, a.forward_steps, "fewer states, more work");
    struct odd early = {.stop_at = 200, .end_at = 77};
    cr_assert_eq(odd_run(&early, 1000, true, &r, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_eq(r.steps, 77);
    cr_assert_eq(early.xbar, truth(0.3, 77));
}

Test(online_share, agree_may_not_lower_and_its_failure_stops_the_run)
{
    struct odd low = {.stop_at = 50, .lower = 1};
    uturn_stats_t seen;
    uturn_error_t err;
    cr_assert_eq(odd_run(&low, 1000, true, &seen, &err), UTURN_E_CALLBACK);
    cr_assert(strstr(err.message, "lowered") != NULL, "%s", err.message);
    struct odd failing = {.stop_at = 50, .fail_at = 9};
    cr_assert_eq(odd_run(&failing, 1000, true, &seen, &err), UTURN_E_CALLBACK);
    cr_assert(strstr(err.message, "agree") != NULL, "%s", err.message);
    cr_assert_eq(failing.agreed, 10, "asked up to x_9, not after");
}

static uint64_t no_bytes(void *u, uint64_t step)
{
    (void)u;
    return step == 3 ? 0 : sizeof(double);
}

static int nb_save(void *u, uint64_t step, void *dst, uint64_t bytes)
{
    (void)step;
    memcpy(dst, &((struct odd *)u)->x, (size_t)bytes);
    return 0;
}

static int nb_load(void *u, uint64_t step, const void *src, uint64_t bytes)
{
    (void)step;
    memcpy(&((struct odd *)u)->x, src, (size_t)bytes);
    return 0;
}

Test(online_share, a_state_of_no_bytes_is_refused)
{
    struct odd s = {.stop_at = 50};
    uturn_model_t m;
    odd_model(&s, false, &m);
    m.save       = nb_save;
    m.load       = nb_load;
    m.state_size = no_bytes;
    uturn_stats_t seen;
    uturn_error_t err;
    cr_assert_eq(run_on(1000, &m, &seen, &err), UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "gave 0 bytes for x_3") != NULL, "%s",
              err.message);
}

/* The same with a plan of known length (store-all stores x_3): refused
 * before save sees x_3, not run to a wrong gradient. */
Test(online_share, a_state_of_no_bytes_is_refused_offline_too)
{
    struct odd s = {.stop_at = 50};
    uturn_model_t m;
    odd_model(&s, false, &m);
    m.is_last    = NULL;
    m.save       = nb_save;
    m.load       = nb_load;
    m.state_size = no_bytes;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_STORE_ALL;
    p.steps            = 20;
    p.slots            = 20;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &err),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(err.message, "gave 0 bytes for x_3") != NULL, "%s",
              err.message);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}
