/* Online plans at scale (issue 23): 256 to 10^5 slots. Every realised
 * plan is valid for a validator told n only at the end; while every
 * state fits (n <= s) it makes exactly n forward steps; up to
 * (s+1)(s+2)/2 steps exactly t(n+1, s) (the closed form of docs/model.md
 * section 4, computed here); from n = 100 on at most 1.05 t(n+1, s). The
 * n are sampled where the ratio peaks (within 40 of every beta(s, r)
 * boundary up to the largest n tried) and geometrically between; at
 * 10^4 and 10^5 slots the samples are around s and up to 10 s. A plain
 * program, as online_sweep; a sanitizer build takes every fourth sample. */
#include "online_drive.h"

#include <stdio.h>

static int failures;
static uint64_t checked;

static void check_one(const uturn_plan_t *plan, uint64_t s, uint64_t n)
{
    const struct od_result r = od_drive(plan, n, NULL, 0, NULL);
    const uint64_t best      = od_t(n + 1, s);
    const char *why          = NULL;
    if (r.status != UTURN_OK)
        why = r.message;
    else if (r.peak_slots > s)
        why = "more slots than s";
    else if (n <= s && r.forward_steps != n)
        why = "recomputed while every state fits";
    else if (n <= (s + 1) * (s + 2) / 2 && r.forward_steps != best)
        why = "not exact up to (s+1)(s+2)/2";
    else if (n >= 100 && (double)r.forward_steps > 1.05 * (double)best)
        why = "more than 1.05 t(n+1, s)";
    checked++;
    if (why != NULL && failures++ < 20)
        printf("FAIL s %llu n %llu: %s (forward %llu, optimum %llu)\n",
               (unsigned long long)s, (unsigned long long)n, why,
               (unsigned long long)r.forward_steps, (unsigned long long)best);
}

/* Samples for s up to top: near each beta(s, r) - 1 (the n whose n + 1
 * states fill r repetitions), and about 12 per decade between. */
static void sweep(uint64_t s, uint64_t top, uint64_t every)
{
    uturn_plan_t *plan = od_plan(s, 0);
    uint64_t k         = 0;
    for (uint64_t r = 1; od_choose(s + r, s) - 1 <= top; r++) {
        const uint64_t b = od_choose(s + r, s) - 1;
        for (uint64_t n = b > 40 ? b - 40 : 1; n <= b + 40 && n <= top; n += 8)
            if (k++ % every == 0)
                check_one(plan, s, n);
    }
    for (double n = 100; n <= (double)top; n *= 1.2)
        if (k++ % every == 0)
            check_one(plan, s, (uint64_t)n);
    uturn_plan_free(plan);
}

/* Around s and up to 10 s, for the largest slot counts. */
static void around(uint64_t s, uint64_t every)
{
    uturn_plan_t *plan     = od_plan(s, 0);
    const uint64_t picks[] = {1,     2,     s / 2, s - 1, s,
                              s + 1, s + 2, 2 * s, 5 * s, 10 * s};
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++)
        if (i % every == 0 || picks[i] <= s + 1)
            check_one(plan, s, picks[i]);
    uturn_plan_free(plan);
}

int main(void)
{
#ifdef UTURN_TEST_SANITIZED
    const uint64_t every = 4;
#else
    const uint64_t every = 1;
#endif
    sweep(256, 3000000, every);
    sweep(1000, 1000000, every);
    around(10000, every);
    around(100000, every);
    printf("%llu online plans at 256 to 10^5 slots checked, %d failed\n",
           (unsigned long long)checked, failures);
    return failures == 0 ? 0 : 1;
}
