/* Every realised online plan is valid for a validator told n only at the
 * end, against the closed form t(n+1, s) of docs/model.md section 4
 * (computed here, od_t): every n <= 2000 for every s <= 40, and n = 10^6
 * at s = 5, 20 and 50. A plan never holds more than s slots; while every
 * state fits (n <= s) it makes exactly n forward steps; up to
 * (s+1)(s+2)/2 steps it makes exactly t(n+1, s); from n = 100 on, at most
 * 1.05 t(n+1, s) (issue 23; below 100 an online plan cannot always do
 * that: 1.108 is forced at s = 2 for n between 10 and 50). A plain program
 * (a long loop that Criterion's per-test timeout and forks add nothing
 * to); a sanitizer build checks a tenth of the range. */
#include "online_drive.h"

#include <stdio.h>

static int failures;

/* What the rules allow for n steps and s slots, or NULL. */
static const char *broken(uint64_t s, uint64_t n, const struct od_result *r)
{
    const uint64_t best = od_t(n + 1, s);
    if (r->status != UTURN_OK)
        return r->message;
    if (r->peak_slots > s)
        return "more slots than s";
    if (n <= s && r->forward_steps != n)
        return "recomputed while every state fits";
    if (n <= (s + 1) * (s + 2) / 2 && r->forward_steps != best)
        return "not exact up to (s+1)(s+2)/2";
    if (n >= 100 && (double)r->forward_steps > 1.05 * (double)best)
        return "more than 1.05 t(n+1, s)";
    return NULL;
}

static void check_one(const uturn_plan_t *plan, uint64_t s, uint64_t n)
{
    const struct od_result r = od_drive(plan, n, NULL, 0, NULL);
    const char *why          = broken(s, n, &r);
    if (why != NULL && failures++ < 20)
        printf("FAIL s %llu n %llu: %s (forward %llu, optimum %llu, peak "
               "%llu)\n",
               (unsigned long long)s, (unsigned long long)n, why,
               (unsigned long long)r.forward_steps,
               (unsigned long long)od_t(n + 1, s),
               (unsigned long long)r.peak_slots);
}

int main(void)
{
#ifdef UTURN_TEST_SANITIZED
    const uint64_t every = 10;
#else
    const uint64_t every = 1;
#endif
    uint64_t plans = 0;
    for (uint64_t s = 1; s <= 40; s++) {
        uturn_plan_t *plan = od_plan(s, 0);
        for (uint64_t n = 1; n <= 2000; n += (n % every == 0) ? 1 : every) {
            check_one(plan, s, n);
            plans++;
        }
        uturn_plan_free(plan);
    }
    const uint64_t big[] = {5, 20, 50};
    for (int k = 0; k < 3; k++) {
        uturn_plan_t *plan = od_plan(big[k], 0);
        check_one(plan, big[k], 1000000);
        plans++;
        uturn_plan_free(plan);
    }
    printf("%llu online plans checked, %d failed\n",
           (unsigned long long)plans, failures);
    return failures == 0 ? 0 : 1;
}
