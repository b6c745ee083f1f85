/* Large inputs: revolve counts for n = 10^9 and 10^12 without overflow
 * (against an independent 128-bit closed form), and a walk of a 10^8-step
 * plan in memory that does not grow with n (getrusage, not a timer).
 * Sanitizer builds walk 10^7 steps: the bound is the same, the time not. */
#include <criterion/criterion.h>
#include <sys/resource.h>
#include <uturn.h>

__extension__ typedef unsigned __int128 u128;

static u128 beta(u128 s, u128 r)
{
    u128 b = 1; /* C(s + r, r), built up exactly */
    for (u128 i = 1; i <= r; i++)
        b = b * (s + i) / i;
    return b;
}

/* t(l, s) = r*l - beta(s+1, r-1), r least with beta(s, r) >= l. */
static u128 closed_form(uint64_t n, uint64_t s)
{
    const u128 l = (u128)n + 1;
    if (s > n)
        s = n;
    u128 r = 1;
    while (beta(s, r) < l)
        r++;
    return r * l - beta(s + 1, r - 1);
}

static uint64_t max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (uint64_t)ru.ru_maxrss;
}

static uturn_plan_t *revolve(uint64_t n, uint64_t s)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = n;
    p.slots            = s;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK,
                 "n=%llu s=%llu", (unsigned long long)n, (unsigned long long)s);
    return plan;
}

Test(large, revolve_counts_at_1e9_and_1e12)
{
    const uint64_t cases[][2] = {{1000000000ull, 20},    {1000000000ull, 50},
                                 {1000000000ull, 3},     {1000000000ull, 1000},
                                 {1000000000000ull, 50}, {1000000000000ull, 4}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uturn_plan_t *plan = revolve(cases[i][0], cases[i][1]);
        uturn_stats_t s;
        uturn_stats_init(&s);
        uturn_plan_stats(plan, &s);
        const u128 want = closed_form(cases[i][0], cases[i][1]);
        cr_assert(want <= UINT64_MAX);
        cr_assert_eq(s.forward_steps, (uint64_t)want, "case %zu", i);
        cr_assert_eq(s.recomputed_steps, s.forward_steps - cases[i][0]);
        cr_assert_eq(s.peak_slots, cases[i][1]);
        uturn_plan_free(plan);
    }
}

Test(large, walk_in_memory_independent_of_n)
{
#ifdef UTURN_TEST_SANITIZED
    const uint64_t n = 10000000;
#else
    const uint64_t n = 100000000;
#endif
    uturn_plan_t *plan = revolve(n, 30);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    const uint64_t before = max_rss_kib();
    uturn_cursor_t *c     = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t batch[512];
    size_t got       = 0;
    uint64_t actions = 0, forward = 0;
    while (uturn_cursor_read(c, batch, 512, &got) == UTURN_OK && got != 0) {
        for (size_t i = 0; i < got; i++)
            if (batch[i].op == UTURN_OP_ADVANCE)
                forward += batch[i].step_end - batch[i].step;
        actions += got;
    }
    uturn_cursor_free(c);
    const uint64_t grown = max_rss_kib() - before;
    cr_assert_eq(actions, s.actions);
    cr_assert_eq(forward, s.forward_steps);
    cr_assert_eq(forward, (uint64_t)closed_form(n, 30));
    cr_assert_lt(grown, 1024, "the walk grew the resident set by %llu KiB",
                 (unsigned long long)grown);
    uturn_plan_free(plan);
}

Test(large, validated_walk_of_1e7_steps)
{
    uturn_plan_t *plan = revolve(10000000, 25);
    uturn_stats_t predicted, seen;
    uturn_stats_init(&predicted);
    uturn_stats_init(&seen);
    uturn_plan_stats(plan, &predicted);
    cr_assert_eq(uturn_plan_walk(plan, &seen, NULL), UTURN_OK);
    cr_assert_eq(seen.forward_steps, predicted.forward_steps);
    cr_assert_eq(seen.actions, predicted.actions);
    cr_assert_eq(seen.stores, predicted.stores);
    cr_assert_eq(seen.peak_slots, predicted.peak_slots);
    uturn_plan_free(plan);
}
