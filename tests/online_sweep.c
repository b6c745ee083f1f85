/* Every realised online plan is valid for a validator told n only at the
 * end: every n <= 2000 for every s <= 40, and n = 10^6 at s = 5, 20 and
 * 50; a plan never holds more than s slots, and up to (s+1)(s+2)/2 steps
 * it needs exactly t(n+1, s) forward steps. A plain program (a long loop
 * that Criterion's per-test timeout and forks add nothing to); a
 * sanitizer build checks a tenth of the range. */
#include "online_drive.h"

#include <stdio.h>

static int failures;

static void check_one(const uturn_plan_t *plan, uint64_t s, uint64_t n)
{
    const struct od_result r = od_drive(plan, n, NULL, 0, NULL);
    const bool exact = n > (s + 1) * (s + 2) / 2 ||
                       r.forward_steps == od_t(n + 1, s);
    if (r.status == UTURN_OK && r.peak_slots <= s && exact)
        return;
    if (failures++ < 20)
        printf("FAIL s %llu n %llu: %s (forward %llu, optimum %llu, peak "
               "%llu)\n",
               (unsigned long long)s, (unsigned long long)n,
               r.status == UTURN_OK ? "counts" : r.message,
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
