/*
 * fuzz_planner, part 0: the planners of uniform states (store-all,
 * periodic, sqrt, revolve), and planner values that are not planners.
 *
 * The input decodes to a uturn_problem_t (planner, steps, slots or a byte
 * budget, stride), mostly small and valid, sometimes absurd (0, 2^64 - 1,
 * 10^12 steps). uturn_plan_create() is checked against an oracle written
 * here from docs/model.md section 4 and uturn.h:
 *   - which status it must return (invalid argument, infeasible, overflow);
 *   - on failure: a documented status, a message, and for infeasible a
 *     minimum that really is the least capacity that fits;
 *   - on success: the stats' internal consistency; store-all's counts;
 *     periodic's and sqrt's stride, forward steps and peak; the stride
 *     periodic chooses for a capacity (brute force over every stride for
 *     small n, probes for large n); revolve's forward steps equal to
 *     t(n+1, s) computed here with 128-bit integers;
 *   - plans of at most WALK_ACTIONS actions are walked (validated): the
 *     walk must succeed with exactly the predicted counts; small ones are
 *     also written as text and parsed back to the same counts.
 * One allocation of the walk is made to fail to exercise the NOMEM paths.
 * Input layout: see decode().
 */
#define _POSIX_C_SOURCE 200809L

#include "fuzz_planner.h"

#include <math.h>
#include <string.h>

#define WALK_ACTIONS 200000u
#define TEXT_ACTIONS 2000u
#define BRUTE_STEPS  1000u

/* ---- input ---- */

/* floor(sqrt(x)), from the floating-point root corrected in 128 bits
 * (not the library's bisection). */
static uint64_t isqrt64(uint64_t x)
{
    uint64_t r = (uint64_t)sqrtl((long double)x);
    while ((u128)r * r > x)
        r--;
    while ((u128)(r + 1) * (r + 1) <= x)
        r++;
    return r;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

static const uint64_t specials[] = {0,
                                    1,
                                    2,
                                    3,
                                    4,
                                    7,
                                    64,
                                    1000,
                                    4096,
                                    1000000,
                                    1000000000,
                                    1000000000000ull,
                                    1099511627776ull,
                                    1099511627777ull,
                                    4294967295ull,
                                    4294967296ull,
                                    9223372036854775808ull,
                                    UINT64_MAX - 3,
                                    UINT64_MAX - 2,
                                    UINT64_MAX - 1,
                                    UINT64_MAX};
#define SPECIALS (sizeof specials / sizeof specials[0])

/* A value near n: n, n +- d, n/2 +- d, sqrt n +- d, 2 sqrt n +- d. */
static uint64_t near(struct reader *r, uint64_t n)
{
    const uint8_t how   = fz_byte(r);
    const uint64_t root = isqrt64(n);
    const uint64_t d    = how >> 4;
    uint64_t base       = n;
    switch ((how >> 1) & 7) {
    case 0:
        base = n;
        break;
    case 1:
        base = n / 2;
        break;
    case 2:
        base = root;
        break;
    case 3:
        base = 2 * root;
        break;
    case 4:
        base = ceil_div(n, root ? root : 1);
        break;
    case 5:
        base = n / 3;
        break;
    case 6:
        base = root / 2;
        break;
    default:
        base = 3 * root;
        break;
    }
    return how & 1 ? base + d : (base > d ? base - d : 0);
}

/* A count: mostly small, sometimes near n, special or raw. */
static uint64_t value(struct reader *r, uint64_t n)
{
    switch (fz_byte(r) & 7) {
    case 0:
    case 1:
        return fz_byte(r);
    case 2:
        return fz_bytes_le(r, 2);
    case 3:
    case 4:
        return near(r, n);
    case 5:
        return specials[fz_byte(r) % SPECIALS];
    case 6:
        return fz_bytes_le(r, 8);
    default:
        return fz_bytes_le(r, 4);
    }
}

enum capacity { CAP_SLOTS, CAP_BUDGET, CAP_NONE, CAP_BOTH };

/* The steps, by class: small, medium, large, special, huge. */
static uint64_t decode_steps(struct reader *r, unsigned cls)
{
    switch (cls) {
    case 0:
    case 1:
    case 2:
        return 1 + fz_byte(r) % 64;
    case 3:
    case 4:
        return 1 + fz_bytes_le(r, 2) % 5000;
    case 5:
        return 1 + fz_bytes_le(r, 3) % 200000;
    case 6:
        return specials[fz_byte(r) % SPECIALS];
    default:
        return fz_bytes_le(r, 5) % 1000000000001ull;
    }
}

/* Byte 0: planner (bits 0-1), capacity kind (2-3), stride given (4),
 * steps class (5-7). Byte 1: flags (an absurd planner, slot_bytes with
 * slots). Then the steps, the capacity and the stride. */
static void decode(struct reader *r, uturn_problem_t *p)
{
    const uint8_t head  = fz_byte(r);
    const uint8_t flags = fz_byte(r);
    uturn_problem_init(p);
    p->planner = (uturn_planner_t)(head & 3);
    if ((flags & 15) == 15) {
        /* Not planners: 4 dp, 5 online and 6 hrevolve are planners,
         * with oracles of their own (fuzz_planner_dp.c,
         * fuzz_planner_levels.c, fuzz_online.c); 100 (parsed) cannot be
         * created. */
        static const int odd[] = {7, 8, 99, 100, 101, -1, 0x7fffffff};
        p->planner             = (uturn_planner_t)odd[(flags >> 4) % 7];
    }
    p->steps         = decode_steps(r, head >> 5);
    const uint64_t n = p->steps;
    switch ((enum capacity)((head >> 2) & 3)) {
    case CAP_SLOTS:
        p->slots = value(r, n);
        if (flags & 16)
            p->slot_bytes = value(r, n);
        break;
    case CAP_BUDGET: {
        p->slot_bytes        = value(r, n);
        const uint64_t count = value(r, n);
        const uint64_t extra = fz_byte(r) & 1 ? value(r, n) : 0;
        uint64_t budget      = 0;
        if (__builtin_mul_overflow(count, p->slot_bytes, &budget) ||
            __builtin_add_overflow(budget, extra, &budget))
            budget = fz_bytes_le(r, 8);
        p->budget_bytes = budget;
        break;
    }
    case CAP_NONE:
        if (flags & 16)
            p->slot_bytes = value(r, n);
        break;
    default:
        p->slots        = value(r, n);
        p->slot_bytes   = value(r, n);
        p->budget_bytes = value(r, n);
        break;
    }
    if (head & 16)
        p->stride = value(r, n);
}

/* ---- the oracle ---- */

/* Periodic with stride k, 1 <= k <= n (docs/model.md 4, with the last state of
 * a replayed segment reversed at once rather than stored, as
 * schedules/periodic.c documents: peak max(m + L - 1, m + k - 3)). */
struct periodic {
    uint64_t peak;
    u128 forward, stores, actions;
};

static struct periodic periodic_counts(uint64_t n, uint64_t k)
{
    struct periodic c;
    const uint64_t m = ceil_div(n, k);
    const uint64_t L = n - (m - 1) * k;
    if (m == 1) {
        c.peak = n;
    } else {
        const uint64_t sweep = m + L - 1, replay = m + k - 3;
        c.peak = sweep > replay ? sweep : replay;
    }
    c.forward = (u128)n + (u128)(m - 1) * (k - 1);
    c.stores  = (u128)m + (L - 1) + (u128)(m - 1) * (k >= 2 ? k - 2 : 0);
    c.actions = (u128)n * 3 + 1 + 2 * c.stores;
    return c;
}

static bool periodic_fits64(const struct periodic *c)
{
    return c->forward <= UINT64_MAX && c->actions <= UINT64_MAX;
}

/* (forward, peak, k) lexicographically: the choice rule of docs/model.md 4. */
static bool periodic_better(const struct periodic *a, uint64_t ka,
                            const struct periodic *b, uint64_t kb)
{
    if (a->forward != b->forward)
        return a->forward < b->forward;
    if (a->peak != b->peak)
        return a->peak < b->peak;
    return ka < kb;
}

static void print_problem(const char *what, const uturn_problem_t *p)
{
    fprintf(stderr,
            "%s: planner %d steps %llu slots %llu slot_bytes %llu "
            "budget_bytes %llu stride %llu\n",
            what, (int)p->planner, (unsigned long long)p->steps,
            (unsigned long long)p->slots, (unsigned long long)p->slot_bytes,
            (unsigned long long)p->budget_bytes, (unsigned long long)p->stride);
}

/* Problems that take long, skipped to keep the fuzzer's pace unless
 * FUZZ_SLOW=1 is in the environment:
 *  - periodic chooses a stride in O(sqrt n) time, up to 2^40 steps (beyond,
 *    UTURN_E_UNSUPPORTED): about 0.1 s here for n near 2^40;
 *  - revolve's counts take time linear in s = min(slots, n) when r >= 3
 *    (a bug: tests/fuzz/crashes/timeout-revolve-stats-r3-*.bin, n = 2^64-4
 *    and s = 2^32-11 never finish; r = 2 has a closed form since 02792cd).
 */
#define PERIODIC_CHOOSE_MAX ((uint64_t)1 << 40)
#define REVOLVE_SLOTS_FAST  200000u

static bool too_slow(const uturn_problem_t *p)
{
    if (fz_slow())
        return false;
    if (p->planner == UTURN_PLANNER_PERIODIC && p->stride == 0)
        return p->steps > 10000000000ull && p->steps <= PERIODIC_CHOOSE_MAX;
    if (p->planner != UTURN_PLANNER_REVOLVE || p->steps == 0 ||
        p->steps >= UINT64_MAX - 1)
        return false;
    uint64_t capacity = p->slots;
    if (capacity == 0 && p->budget_bytes != 0 && p->slot_bytes != 0)
        capacity = p->budget_bytes / p->slot_bytes;
    const uint64_t s = capacity < p->steps ? capacity : p->steps;
    return s > REVOLVE_SLOTS_FAST && fz_revolve_r(p->steps, s) >= 3;
}

/* ---- checks ---- */

/* What uturn_plan_create() must return, where this file can tell: the
 * status, or -1 when only the planner's own search knows. */
struct expect {
    int status;
    bool has_capacity; /* slots or a budget was given */
    uint64_t capacity; /* UINT64_MAX when none was given (unlimited) */
    uint64_t minimum;  /* slots, for UTURN_E_INFEASIBLE */
    uint64_t stride;   /* periodic / sqrt, when known */
};

static int bytes_status(uint64_t peak, uint64_t slot_bytes)
{
    uint64_t bytes = 0;
    return __builtin_mul_overflow(peak, slot_bytes, &bytes) ? UTURN_E_OVERFLOW
                                                            : UTURN_OK;
}

static int periodic_status(uint64_t n, uint64_t k, uint64_t capacity,
                           uint64_t slot_bytes, uint64_t *minimum)
{
    const struct periodic c = periodic_counts(n, k);
    if (!periodic_fits64(&c))
        return UTURN_E_OVERFLOW;
    if (capacity < c.peak) {
        *minimum = c.peak;
        return UTURN_E_INFEASIBLE;
    }
    return bytes_status(c.peak, slot_bytes);
}

/* Periodic choosing among every stride (n <= BRUTE_STEPS): the best that
 * fits, or infeasible with the least peak of any stride. */
static void predict_choice(const uturn_problem_t *p, struct expect *e)
{
    const uint64_t n = p->steps;
    bool found       = false;
    uint64_t best_k = 0, least = UINT64_MAX;
    struct periodic best = {0, 0, 0, 0};
    for (uint64_t k = 1; k <= n; k++) {
        const struct periodic c = periodic_counts(n, k);
        least                   = c.peak < least ? c.peak : least;
        if (c.peak > e->capacity)
            continue;
        if (!found || periodic_better(&c, k, &best, best_k)) {
            best   = c;
            best_k = k;
            found  = true;
        }
    }
    if (!found) {
        e->status  = UTURN_E_INFEASIBLE;
        e->minimum = least;
    } else {
        e->stride = best_k;
        e->status = bytes_status(best.peak, p->slot_bytes);
    }
}

static void predict_periodic(const uturn_problem_t *p, struct expect *e)
{
    const uint64_t n = p->steps;
    if (p->stride != 0) {
        e->stride = p->stride;
        e->status = periodic_status(n, e->stride, e->capacity, p->slot_bytes,
                                    &e->minimum);
    } else if (!e->has_capacity) {
        e->status = UTURN_E_INVALID_ARG;
    } else if (n > PERIODIC_CHOOSE_MAX) {
        e->status = UTURN_E_UNSUPPORTED; /* docs/bad-input.md */
    } else if (n <= BRUTE_STEPS) {
        predict_choice(p, e);
    }
}

static void predict_revolve(const uturn_problem_t *p, struct expect *e)
{
    const uint64_t n = p->steps;
    if (!e->has_capacity) {
        e->status = UTURN_E_INVALID_ARG;
    } else if (e->capacity == 0) {
        e->status  = UTURN_E_INFEASIBLE;
        e->minimum = 1;
    } else if (n >= UINT64_MAX - 1) {
        e->status = UTURN_E_OVERFLOW;
    } else {
        const uint64_t s = e->capacity < n ? e->capacity : n;
        const u128 t     = fz_revolve_forward(n, s);
        /* stores <= forward steps + 1, so this bound on the actions
         * (3n + 1 + 2 stores) decides overflow when it fits. */
        const u128 actions = (u128)3 * n + 1 + 2 * (t + 1);
        if (t > UINT64_MAX)
            e->status = UTURN_E_OVERFLOW;
        else if (actions <= UINT64_MAX &&
                 bytes_status(s, p->slot_bytes) == UTURN_OK)
            e->status = UTURN_OK;
    }
}

static struct expect predict(const uturn_problem_t *p)
{
    struct expect e  = {-1, false, UINT64_MAX, 0, 0};
    const uint64_t n = p->steps;
    const bool known = p->planner == UTURN_PLANNER_STORE_ALL ||
                       p->planner == UTURN_PLANNER_PERIODIC ||
                       p->planner == UTURN_PLANNER_SQRT ||
                       p->planner == UTURN_PLANNER_REVOLVE;
    if (n == 0 || (p->stride != 0 && p->planner != UTURN_PLANNER_PERIODIC) ||
        p->stride > n || (p->slots != 0 && p->budget_bytes != 0) ||
        (p->budget_bytes != 0 && p->slot_bytes == 0) || !known) {
        e.status = UTURN_E_INVALID_ARG;
        return e;
    }
    e.has_capacity = p->slots != 0 || p->budget_bytes != 0;
    if (p->slots != 0)
        e.capacity = p->slots;
    else if (p->budget_bytes != 0)
        e.capacity = p->budget_bytes / p->slot_bytes;
    if (p->planner == UTURN_PLANNER_STORE_ALL) {
        if (e.capacity < n) {
            e.status  = UTURN_E_INFEASIBLE;
            e.minimum = n;
        } else {
            e.status = n > (UINT64_MAX - 1) / 5
                           ? UTURN_E_OVERFLOW
                           : bytes_status(n, p->slot_bytes);
        }
    } else if (p->planner == UTURN_PLANNER_SQRT) {
        const uint64_t root = isqrt64(n);
        e.stride            = root * root == n ? root : root + 1;
        e.status =
            periodic_status(n, e.stride, e.capacity, p->slot_bytes, &e.minimum);
    } else if (p->planner == UTURN_PLANNER_PERIODIC) {
        predict_periodic(p, &e);
    } else {
        predict_revolve(p, &e);
    }
    return e;
}

/* Any stride k' that fits must not beat the one periodic chose. */
static void probe_strides(uint64_t n, uint64_t capacity, uint64_t chosen,
                          struct reader *r)
{
    const struct periodic best = periodic_counts(n, chosen);
    uint64_t probes[40];
    size_t count        = 0;
    const uint64_t root = isqrt64(n);
    probes[count++]     = 1;
    probes[count++]     = n;
    probes[count++]     = root;
    probes[count++]     = root + 1;
    probes[count++]     = chosen > 1 ? chosen - 1 : 1;
    probes[count++]     = chosen + 1;
    for (uint64_t m = 2; m < 8; m++)
        probes[count++] = ceil_div(n, m);
    while (count < sizeof probes / sizeof probes[0])
        probes[count++] = 1 + fz_bytes_le(r, 6) % n;
    for (size_t i = 0; i < count; i++) {
        const uint64_t k = probes[i];
        if (k < 1 || k > n)
            continue;
        const struct periodic c = periodic_counts(n, k);
        if (c.peak > capacity || !periodic_fits64(&c))
            continue;
        if (periodic_better(&c, k, &best, chosen)) {
            fprintf(stderr, "stride %llu beats the chosen %llu\n",
                    (unsigned long long)k, (unsigned long long)chosen);
            abort();
        }
    }
}

static void check_failure(const uturn_problem_t *p, uturn_status_t status,
                          const uturn_error_t *error, const struct expect *e)
{
    CHECK(status == UTURN_E_INVALID_ARG || status == UTURN_E_INFEASIBLE ||
          status == UTURN_E_OVERFLOW || status == UTURN_E_NOMEM ||
          status == UTURN_E_UNSUPPORTED);
    CHECK(error->status == status);
    CHECK(error->message[0] != '\0');
    CHECK(memchr(error->message, '\0', sizeof error->message) != NULL);
    if (status != UTURN_E_INFEASIBLE) {
        CHECK(error->minimum_slots == 0 && error->minimum_bytes == 0);
        return;
    }
    /* The minimum is above what was given, and it is enough. */
    CHECK(e->has_capacity);
    CHECK(error->minimum_slots > e->capacity);
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(error->minimum_slots, p->slot_bytes, &bytes))
        bytes = UINT64_MAX;
    CHECK(error->minimum_bytes == bytes);
    if (e->minimum != 0)
        CHECK(error->minimum_slots == e->minimum);

    uturn_problem_t q  = *p;
    q.slots            = error->minimum_slots;
    q.budget_bytes     = 0;
    uturn_plan_t *plan = NULL;
    uturn_status_t s2  = uturn_plan_create(&q, NULL, &plan, NULL);
    CHECK(s2 == UTURN_OK || s2 == UTURN_E_OVERFLOW);
    if (s2 == UTURN_OK) {
        uturn_stats_t stats;
        uturn_stats_init(&stats);
        CHECK(uturn_plan_stats(plan, &stats) == UTURN_OK);
        CHECK(stats.peak_slots <= error->minimum_slots);
    }
    uturn_plan_free(plan);
    if (error->minimum_slots >= 2) {
        q.slots = error->minimum_slots - 1;
        s2      = uturn_plan_create(&q, NULL, &plan, NULL);
        CHECK(s2 == UTURN_E_INFEASIBLE || s2 == UTURN_E_OVERFLOW);
        CHECK(plan == NULL);
    }
    if (p->slot_bytes != 0 && bytes != UINT64_MAX) {
        q.slots        = 0;
        q.budget_bytes = bytes;
        s2             = uturn_plan_create(&q, NULL, &plan, NULL);
        CHECK(s2 == UTURN_OK || s2 == UTURN_E_OVERFLOW);
        uturn_plan_free(plan);
    }
}

/* The counts every planner must keep consistent. */
static void check_common(const uturn_problem_t *p, const uturn_stats_t *st,
                         const struct expect *e)
{
    const uint64_t n = p->steps;
    CHECK(st->steps == n);
    CHECK(st->forward_steps >= n);
    CHECK(st->recomputed_steps == st->forward_steps - st->steps);
    CHECK(st->frees == st->stores);
    CHECK(st->restores == n);
    CHECK(st->reverse_steps == n);
    CHECK(st->peak_slots >= 1 && st->peak_slots <= st->slots);
    CHECK(st->peak_slots <= st->stores);
    CHECK(st->slot_bytes == p->slot_bytes);
    CHECK(st->budget_bytes == p->budget_bytes);
    CHECK(st->peak_bytes == st->peak_slots * st->slot_bytes);
    if (p->budget_bytes != 0)
        CHECK(st->peak_bytes <= p->budget_bytes);
    CHECK(st->forward_cost == st->forward_steps);
    CHECK(st->recompute_cost == st->recomputed_steps);
    CHECK(st->recompute_factor == (double)st->forward_steps / (double)n);
    CHECK(st->actions == 3 * n + 1 + st->stores + st->frees);
    if (e->has_capacity)
        CHECK(st->slots == e->capacity);
    else
        CHECK(st->slots == st->peak_slots);
}

/* revolve: exactly t(n+1, s) forward steps, never more than s slots. */
static void check_revolve(const uturn_problem_t *p, const uturn_stats_t *st,
                          const struct expect *e)
{
    const uint64_t n = p->steps;
    const uint64_t s = e->capacity < n ? e->capacity : n;
    CHECK(st->peak_slots <= s);
    const u128 t = fz_revolve_forward(n, s);
    if (st->forward_steps != t) {
        fprintf(stderr, "revolve: forward_steps %llu, t(n+1, s) %llu\n",
                (unsigned long long)st->forward_steps, (unsigned long long)t);
        abort();
    }
    if (s >= n)
        CHECK(st->forward_steps == n);
    if (s == 1)
        CHECK((u128)st->forward_steps == (u128)n * (n + 1) / 2);
}

static void check_stats(const uturn_problem_t *p, const uturn_plan_t *plan,
                        const uturn_stats_t *st, const struct expect *e,
                        struct reader *r)
{
    const uint64_t n = p->steps;
    check_common(p, st, e);
    uturn_problem_t resolved;
    uturn_problem_init(&resolved);
    CHECK(uturn_plan_problem(plan, &resolved) == UTURN_OK);
    CHECK(resolved.planner == p->planner && resolved.steps == n);
    CHECK(resolved.slots == st->slots);
    CHECK(resolved.slot_bytes == p->slot_bytes);
    CHECK(resolved.budget_bytes == p->budget_bytes);
    if (p->planner == UTURN_PLANNER_STORE_ALL) {
        CHECK(st->forward_steps == n && st->stores == n);
        CHECK(st->peak_slots == n);
    } else if (p->planner == UTURN_PLANNER_REVOLVE) {
        CHECK(resolved.stride == 0);
        check_revolve(p, st, e);
    } else {
        const uint64_t k = resolved.stride;
        CHECK(k >= 1 && k <= n);
        if (e->stride != 0)
            CHECK(k == e->stride);
        const struct periodic c = periodic_counts(n, k);
        CHECK(st->forward_steps == c.forward);
        CHECK(st->peak_slots == c.peak);
        CHECK(st->stores == c.stores);
        if (p->planner == UTURN_PLANNER_PERIODIC && p->stride == 0)
            probe_strides(n, e->capacity, k, r);
    }
}

/* Walk the plan: exactly the predicted counts. */
static void check_walk(const uturn_plan_t *plan, const uturn_stats_t *st,
                       struct fz_arena *arena, uint64_t fail)
{
    uturn_stats_t observed;
    uturn_stats_init(&observed);
    uturn_error_t error;
    uturn_error_init(&error);
    const uturn_status_t status = uturn_plan_walk(plan, &observed, &error);
    if (status != UTURN_OK)
        fprintf(stderr, "walk: %s: %s\n", uturn_status_name(status),
                error.message);
    CHECK(status == UTURN_OK);
    if (!fz_stats_equal(&observed, st)) {
        fprintf(stderr,
                "walk saw forward %llu stores %llu peak %llu actions %llu; "
                "predicted %llu %llu %llu %llu\n",
                (unsigned long long)observed.forward_steps,
                (unsigned long long)observed.stores,
                (unsigned long long)observed.peak_slots,
                (unsigned long long)observed.actions,
                (unsigned long long)st->forward_steps,
                (unsigned long long)st->stores,
                (unsigned long long)st->peak_slots,
                (unsigned long long)st->actions);
        abort();
    }
    CHECK(observed.peak_slots <= st->slots);

    /* Once more with one allocation failing: NOMEM, or the same counts. */
    arena->calls   = 0;
    arena->fail_at = fail;
    uturn_stats_init(&observed);
    uturn_error_init(&error);
    const uturn_status_t s2 = uturn_plan_walk(plan, &observed, &error);
    arena->fail_at          = 0;
    CHECK(s2 == UTURN_OK || s2 == UTURN_E_NOMEM);
    if (s2 == UTURN_OK)
        CHECK(fz_stats_equal(&observed, st));
    else
        CHECK(error.status == s2 && error.message[0] != '\0');
}

/* Write the plan as text and parse it back: the same counts. */
static void check_text(const uturn_plan_t *plan, const uturn_stats_t *st)
{
    char *text           = NULL;
    size_t len           = 0;
    uturn_plan_t *parsed = fz_text_round_trip(plan, &text, &len);
    uturn_stats_t back;
    uturn_stats_init(&back);
    CHECK(uturn_plan_stats(parsed, &back) == UTURN_OK);
    CHECK(fz_stats_equal(&back, st));
    uturn_plan_free(parsed);
    free(text);
}

void fz_planner_uniform(struct reader *rd)
{
    uturn_problem_t p;
    decode(rd, &p);
    if (fz_verbose())
        print_problem("problem", &p);
    if (too_slow(&p))
        return;
    const struct expect e = predict(&p);

    struct fz_arena arena   = {0, 0, 0, 0};
    uturn_allocator_t alloc = fz_allocator(&arena);

    /* The plan object is the first allocation: failing it is NOMEM. */
    uturn_plan_t *plan    = (uturn_plan_t *)&arena;
    arena.fail_at         = 1;
    uturn_status_t status = uturn_plan_create(&p, &alloc, &plan, NULL);
    CHECK(plan == NULL);
    CHECK(status == UTURN_E_NOMEM ||
          (p.steps == 0 && status == UTURN_E_INVALID_ARG));
    CHECK(arena.live == 0);
    arena.calls   = 0;
    arena.fail_at = 0;

    uturn_error_t error;
    uturn_error_init(&error);
    plan   = (uturn_plan_t *)&arena;
    status = uturn_plan_create(&p, &alloc, &plan, &error);
    if (e.status >= 0 && (int)status != e.status) {
        print_problem("unexpected status", &p);
        fprintf(stderr, "got %s (%s), expected %s\n", uturn_status_name(status),
                error.message, uturn_status_name((uturn_status_t)e.status));
        abort();
    }
    if (status != UTURN_OK) {
        CHECK(plan == NULL && arena.live == 0);
        check_failure(&p, status, &error, &e);
        return;
    }
    CHECK(plan != NULL);
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    check_stats(&p, plan, &st, &e, rd);
    if (st.actions <= WALK_ACTIONS)
        check_walk(plan, &st, &arena, 1 + fz_byte(rd) % 4);
    if (st.actions <= TEXT_ACTIONS)
        check_text(plan, &st);
    uturn_plan_free(plan);
    CHECK(arena.live == 0);
}
