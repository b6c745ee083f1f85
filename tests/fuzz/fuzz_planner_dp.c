/*
 * fuzz_planner, part 1: the dp planner. The input decodes to a chain (n
 * steps; per-step sizes or uniform states; per-step costs or unit costs;
 * sometimes a size or cost of 0, or costs past dp's 32 bits), a capacity
 * (slots, a byte budget, both, none, below x_0), a unit, a dp_mode
 * (sometimes not one), table_bytes (the default, or small enough to force
 * the approximate planner or a refusal) and threads. The oracle, from
 * uturn.h and docs/model.md section 4:
 *   - refusals: exactly the documented statuses for what the problem
 *     breaks (invalid argument, infeasible with the least budget that
 *     fits, overflow, unsupported only where uturn.h allows it), each
 *     with a message; no other failure;
 *   - every plan is walked through a cursor and the public validator
 *     given the sizes, costs and budget: valid, with exactly the predicted
 *     counts, which a tally kept here agrees with;
 *   - the forward cost is at least one sweep and at least revolve's
 *     t(n+1, s) at the cheapest cost, s the states the budget holds at
 *     the smallest size; at most the plan that keeps x_0 alone; one sweep
 *     when the budget holds every state at the plan's unit;
 *   - small chains (n <= FZ_NESTED_STEPS): the least cost of a nested
 *     plan, computed here (fuzz_optimum.c) at the gcd of the sizes, is
 *     the plan's cost when `exact`, at most its cost and at least its
 *     lower_bound_cost otherwise; a small exact table that fits must be
 *     used (`exact`);
 *   - uniform sizes and costs with an exact plan: c * t(n+1, s);
 *   - two threads give the same plan, bit for bit (counts, fingerprint);
 *   - small plans are written as text and parsed back to the same counts.
 * One allocation of uturn_plan_create() and one of a walk are made to
 * fail: UTURN_E_NOMEM and nothing leaked, or the plan as before.
 * Skipped for pace: chains past DP_STEPS (or DP_SIZED_STEPS with per-step
 * arrays), problems whose tables may pass DP_TABLE_BYTES (the default
 * table_bytes lets dp fill up to 1 GiB) and exact tables whose fill may
 * take more than DP_WORK updates (n^3 units / 6); FUZZ_SLOW=1 tries
 * them.
 */
#define _POSIX_C_SOURCE 200809L

#include "fuzz_optimum.h"
#include "fuzz_planner.h"

#include <string.h>

#define DP_STEPS       400u
#define DP_SIZED_STEPS 64u
#define DP_TABLE_BYTES (16u << 20)
#define DP_WORK        400000u
#define TEXT_ACTIONS   3000u
#define WALK_ACTIONS   400000u
/* dp's costs stay below this: steps times their sum (schedules/dp.h). */
#define DP_COST_LIMIT 0x3fffffffu
/* Per step, about what dp's least approximate tables take (uturn.h:
 * "about 1.2 KB per step"): below n times this, table_bytes may refuse. */
#define APPROX_STEP_BYTES 1300u

struct chain {
    uturn_problem_t p;
    uint64_t sizes[DP_SIZED_STEPS], costs[DP_SIZED_STEPS];
    bool threads2; /* also plan with two threads */
};

/* ---- decoding ---- */

static uint64_t decode_steps(struct reader *r, bool arrays)
{
    const uint8_t how = fz_byte(r);
    if (arrays)
        return 1 + how % DP_SIZED_STEPS;
    switch (how & 7) {
    case 0:
        return 0;
    case 1:
        return (uint64_t)1 << (40 + how % 23); /* refused at once */
    case 2:
    case 3:
        return 1 + fz_bytes_le(r, 2) % DP_STEPS;
    default:
        return 1 + fz_byte(r) % 40;
    }
}

/* One size or cost: 1..limit, sometimes special. */
static uint64_t decode_value(struct reader *r, uint64_t limit, bool wild)
{
    const uint8_t v = fz_byte(r);
    if (wild && v == 0xff) {
        static const uint64_t odd[] = {0, (uint64_t)1 << 31, UINT64_MAX,
                                       (uint64_t)1 << 40};
        return odd[fz_byte(r) % 4];
    }
    return 1 + v % limit;
}

/* The per-step arrays. kind 0: none; 1: values 1..K; 2: multiples of a
 * factor; 3: all equal. */
static void decode_array(struct reader *r, int kind, uint64_t n, uint64_t *out,
                         const uint64_t **field)
{
    static const uint64_t limits[] = {1, 3, 8, 16, 100, 255, 4096, 65535};
    const uint8_t how              = fz_byte(r);
    const uint64_t limit           = limits[how & 7];
    const uint64_t factor          = 1 + (how >> 3) % 16;
    const bool wild                = (how & 0x80) != 0;
    const uint64_t same            = decode_value(r, limit, wild);
    if (kind == 0)
        return;
    for (uint64_t i = 0; i < n; i++) {
        if (kind == 1)
            out[i] = decode_value(r, limit, wild);
        else if (kind == 2)
            out[i] = factor * decode_value(r, 8, wild);
        else
            out[i] = same;
    }
    *field = out;
}

/* Sum of x_0 .. x_{n-1}'s sizes (UINT64_MAX past 2^64). */
static uint64_t all_bytes(const uturn_problem_t *p)
{
    u128 sum = (u128)p->steps * p->slot_bytes;
    for (uint64_t i = 0; p->step_bytes != NULL && i < p->steps; i++)
        sum += p->step_bytes[i];
    return sum > UINT64_MAX ? UINT64_MAX : (uint64_t)sum;
}

/* A budget: a fraction of store-all's need, plus or minus a little. */
static uint64_t fraction_of(struct reader *r, uint64_t need)
{
    const uint64_t part = (uint64_t)((u128)need * fz_byte(r) / 255);
    const uint64_t d    = fz_byte(r) % 8;
    return fz_byte(r) & 1 ? part + d : (part > d ? part - d : 0);
}

static void decode_capacity(struct reader *r, uturn_problem_t *p)
{
    const uint8_t how = fz_byte(r);
    if (p->step_bytes == NULL && (how & 8) == 0) {
        static const uint64_t sizes[] = {1,    8,     24,
                                         4096, 65536, (uint64_t)1 << 62};
        p->slot_bytes                 = sizes[(how >> 4) % 6];
    }
    const uint64_t x0 =
        p->step_bytes != NULL ? p->step_bytes[0] : p->slot_bytes;
    switch (how & 7) {
    case 0:
    case 1:
        if (p->step_bytes == NULL)
            p->slots = fz_byte(r) % 4 == 0 ? UINT64_MAX - fz_byte(r) % 3
                                           : fz_byte(r) % (p->steps + 3);
        else
            p->budget_bytes = fraction_of(r, all_bytes(p));
        break;
    case 2:
    case 3:
        p->budget_bytes = fraction_of(r, all_bytes(p));
        break;
    case 4:
        p->budget_bytes = x0 > 1 ? x0 - 1 : 0; /* x_0 does not fit */
        break;
    case 5:
        p->budget_bytes = fz_bytes_le(r, 2);
        break;
    case 6:
        p->slots        = 1 + fz_byte(r) % 8; /* both, or slots for sizes */
        p->budget_bytes = fz_byte(r) & 1 ? fraction_of(r, all_bytes(p)) : 0;
        break;
    default:
        break; /* no capacity */
    }
}

/* Byte 0: arrays (bits 0-1 sizes, 2-3 costs), threads (4-5), table kind
 * (6-7). Byte 1: dp_mode (bits 0-1), unit (2-4). Then the steps, the
 * arrays, the capacity and the table limit. */
static void decode(struct reader *r, struct chain *c)
{
    uturn_problem_t *p = &c->p;
    const uint8_t head = fz_byte(r), mode = fz_byte(r);
    uturn_problem_init(p);
    p->planner      = UTURN_PLANNER_DP;
    const int sizes = head & 3, costs = (head >> 2) & 3;
    p->steps                 = decode_steps(r, sizes != 0 || costs != 0);
    static const int modes[] = {
        UTURN_DP_AUTO, UTURN_DP_EXACT, UTURN_DP_APPROXIMATE, 3, -1, 1000};
    p->dp_mode = (uturn_dp_mode_t)
        modes[(mode & 3) == 3 ? 3 + (mode >> 5) % 3 : (mode & 3)];
    static const uint64_t threads[] = {1, 0, 2, UTURN_DP_MAX_THREADS + 1};
    p->threads                      = threads[(head >> 4) & 3];
    c->threads2                     = ((head >> 4) & 3) == 0 && (mode & 0x80);
    decode_array(r, sizes, p->steps, c->sizes, &p->step_bytes);
    decode_array(r, costs, p->steps, c->costs, &p->step_costs);
    decode_capacity(r, p);
    switch ((mode >> 2) & 7) {
    case 0:
    case 1:
    case 2:
        p->unit_bytes = 0;
        break;
    case 3:
        p->unit_bytes = 1 + fz_byte(r) % 64;
        break;
    case 4:
        p->unit_bytes = p->step_bytes != NULL ? p->step_bytes[0] : 1;
        break;
    default:
        p->unit_bytes = fz_byte(r) & 1 ? UINT64_MAX : (uint64_t)1 << 40;
        break;
    }
    switch (head >> 6) {
    case 0:
    case 1:
        break; /* the default, 1 GiB */
    case 2:
        p->table_bytes = fz_byte(r) & 1 ? 0 : fz_bytes_le(r, 3);
        break;
    default:
        p->table_bytes = 64 * (uint64_t)fz_byte(r);
        break;
    }
}

static void print_chain(const char *what, const uturn_problem_t *p)
{
    fprintf(stderr,
            "%s: dp steps %llu slots %llu slot_bytes %llu budget_bytes %llu "
            "unit %llu mode %d table %llu threads %llu\n",
            what, (unsigned long long)p->steps, (unsigned long long)p->slots,
            (unsigned long long)p->slot_bytes,
            (unsigned long long)p->budget_bytes,
            (unsigned long long)p->unit_bytes, (int)p->dp_mode,
            (unsigned long long)p->table_bytes, (unsigned long long)p->threads);
    for (uint64_t i = 0; p->steps <= DP_SIZED_STEPS && i < p->steps; i++)
        fprintf(stderr, "  x_%llu: %llu bytes, F cost %llu\n",
                (unsigned long long)i,
                (unsigned long long)(p->step_bytes ? p->step_bytes[i] : 0),
                (unsigned long long)(p->step_costs ? p->step_costs[i] : 1));
}

/* ---- what the chain is ---- */

struct facts {
    uint64_t n, budget; /* bytes */
    bool budget_wraps;  /* slots times the size pass 2^64 */
    uint64_t size0, smin, smax, cmin, gcd, total_cost;
    bool uniform_size, uniform_cost, bad_value;
    u128 sweep, x0_only; /* the costs of one sweep and of x_0 alone */
};

static uint64_t size_at(const uturn_problem_t *p, uint64_t i)
{
    return p->step_bytes != NULL ? p->step_bytes[i]
                                 : (p->slot_bytes != 0 ? p->slot_bytes : 1);
}

static uint64_t cost_at(const uturn_problem_t *p, uint64_t i)
{
    return p->step_costs != NULL ? p->step_costs[i] : 1;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        const uint64_t t = a % b;
        a                = b;
        b                = t;
    }
    return a;
}

/* Only for chains whose arrays are in memory (n <= DP_SIZED_STEPS, or
 * uniform, where one pass over at most DP_STEPS is cheap). */
static void learn(const uturn_problem_t *p, struct facts *f)
{
    memset(f, 0, sizeof *f);
    f->n            = p->steps;
    f->smin         = UINT64_MAX;
    f->cmin         = UINT64_MAX;
    f->uniform_size = f->uniform_cost = true;
    u128 prefix = 0, total = 0;
    for (uint64_t i = 0; i < f->n; i++) {
        const uint64_t s = size_at(p, i), c = cost_at(p, i);
        f->bad_value |= s == 0 || c == 0;
        f->smin = s < f->smin ? s : f->smin;
        f->smax = s > f->smax ? s : f->smax;
        f->cmin = c < f->cmin ? c : f->cmin;
        f->gcd  = gcd(f->gcd, s);
        f->uniform_size &= s == size_at(p, 0);
        f->uniform_cost &= c == cost_at(p, 0);
        total += c;
        prefix += c;
        f->x0_only += prefix; /* reach x_{i+1} from x_0 once more */
    }
    f->sweep      = prefix;
    f->total_cost = total > UINT64_MAX ? UINT64_MAX : (uint64_t)total;
    f->size0      = size_at(p, 0);
    if (p->budget_bytes != 0)
        f->budget = p->budget_bytes;
    else
        f->budget_wraps =
            __builtin_mul_overflow(p->slots, size_at(p, 0), &f->budget);
}

static bool too_slow(const uturn_problem_t *p, const struct facts *f);

/* ---- the statuses ---- */

/* The statuses the problem justifies (a bit each; 0: it must succeed)
 * and whether one of them is forced (not merely allowed). */
struct expect {
    unsigned must, may;
    uint64_t unit0; /* x_0's unit, for the least budget that fits */
};

static uint64_t limit_of(const uturn_problem_t *p)
{
    return p->table_bytes != 0 ? p->table_bytes : UTURN_DP_TABLE_BYTES;
}

/* What makes the problem invalid as an argument. */
static bool invalid(const uturn_problem_t *p, const struct facts *f)
{
    const bool sized_budget = p->slot_bytes != 0 || p->step_bytes != NULL;
    return p->steps == 0 || (p->slots != 0 && p->budget_bytes != 0) ||
           (p->budget_bytes != 0 && !sized_budget) ||
           (unsigned)p->dp_mode > (unsigned)UTURN_DP_APPROXIMATE ||
           p->threads > UTURN_DP_MAX_THREADS ||
           (p->slots == 0 && p->budget_bytes == 0) ||
           (p->step_bytes != NULL && p->budget_bytes == 0) ||
           (f != NULL && f->bad_value);
}

/* Each fault of the problem adds its status to `must` (any of them may
 * come first); `may` holds what uturn.h allows without a fault. */
static struct expect predict(const uturn_problem_t *p, const struct facts *f)
{
    struct expect e = {0, 0, 0};
    if (invalid(p, f))
        e.must |= FZ_BIT(UTURN_E_INVALID_ARG);
    if (f == NULL) {
        /* Steps 0, or a chain so long that it is refused at once. */
        if (p->steps != 0)
            e.must |= FZ_BIT(UTURN_E_UNSUPPORTED);
        return e;
    }
    if (f->budget_wraps)
        e.must |= FZ_BIT(UTURN_E_OVERFLOW);
    const u128 worst = (u128)f->total_cost * f->n;
    if (f->total_cost == UINT64_MAX || worst >= DP_COST_LIMIT)
        e.must |= FZ_BIT(UTURN_E_UNSUPPORTED);
    e.unit0 = p->unit_bytes != 0 ? p->unit_bytes : (f->gcd != 0 ? f->gcd : 1);
    /* dp counts a state in 32-bit units: a state of 2^32 - 1 units or more
     * is refused (it was once counted smaller and planned past the budget:
     * crashes/wrong-dp-units-saturate-plan-over-budget.bin). */
    if (!invalid(p, f) && !f->budget_wraps &&
        ((u128)f->smax + e.unit0 - 1) / e.unit0 >= UINT32_MAX)
        e.must |= FZ_BIT(UTURN_E_UNSUPPORTED);
    const u128 x0 = ((u128)f->size0 + e.unit0 - 1) / e.unit0 * e.unit0;
    if (!invalid(p, f) && !f->budget_wraps && x0 > f->budget)
        e.must |= FZ_BIT(UTURN_E_INFEASIBLE);
    /* Table limits: allowed for an exact table (asked for, or at a unit
     * given) and for a limit below what the least approximate tables
     * take. */
    if (p->dp_mode == UTURN_DP_EXACT || p->unit_bytes != 0 ||
        (u128)p->steps * APPROX_STEP_BYTES > limit_of(p))
        e.may |= FZ_BIT(UTURN_E_UNSUPPORTED);
    return e;
}

/* The least budget that fits is enough, and one byte less is not. */
static void check_minimum(const uturn_problem_t *p, const uturn_error_t *error,
                          const struct expect *e)
{
    const u128 x0 = ((u128)size_at(p, 0) + e->unit0 - 1) / e->unit0 * e->unit0;
    CHECK(error->minimum_slots == 1);
    /* Past 2^64 the least budget saturates, as every minimum does (it
     * once wrapped: crashes/wrong-dp-infeasible-minimum-bytes-wraps-to-0.
     * bin), and no budget holds x_0. */
    CHECK(error->minimum_bytes == (x0 > UINT64_MAX ? UINT64_MAX : x0));
    if (x0 > UINT64_MAX)
        return;
    uturn_problem_t q = *p;
    q.slots           = 0;
    q.slot_bytes      = p->step_bytes != NULL ? 0 : size_at(p, 0);
    q.budget_bytes    = error->minimum_bytes;
    struct facts f;
    learn(&q, &f);
    if (too_slow(&q, &f))
        return;
    uturn_plan_t *plan = NULL;
    uturn_status_t st  = uturn_plan_create(&q, NULL, &plan, NULL);
    CHECK(st != UTURN_E_INFEASIBLE);
    uturn_plan_free(plan);
    if (q.budget_bytes > 1) {
        q.budget_bytes -= 1;
        st = uturn_plan_create(&q, NULL, &plan, NULL);
        CHECK(st == UTURN_E_INFEASIBLE && plan == NULL);
    }
}

static void check_refusal(const uturn_problem_t *p, uturn_status_t status,
                          const uturn_error_t *error, const struct expect *e)
{
    if (e->must == 0 && (e->may & FZ_BIT(status)) == 0) {
        print_chain("refused", p);
        fprintf(stderr, "got %s: %s\n", uturn_status_name(status),
                error->message);
        abort();
    }
    fz_check_error(status, error, e->must | e->may);
    if (status == UTURN_E_INFEASIBLE)
        check_minimum(p, error, e);
    else
        CHECK(error->minimum_slots == 0 && error->minimum_bytes == 0);
}

/* ---- the oracle on a plan ---- */

/* Sum of every state's size rounded up to the unit (store-all's need). */
static u128 rounded_need(const uturn_problem_t *p, uint64_t unit)
{
    u128 need = 0;
    for (uint64_t i = 0; i < p->steps; i++)
        need += ((u128)size_at(p, i) + unit - 1) / unit * unit;
    return need;
}

static bool divides_all(const uturn_problem_t *p, uint64_t unit)
{
    for (uint64_t i = 0; i < p->steps; i++)
        if (size_at(p, i) % unit != 0)
            return false;
    return true;
}

/* Bounds every plan keeps, whatever its planner does. */
static void check_bounds(const uturn_problem_t *p, const struct facts *f,
                         const uturn_stats_t *st)
{
    const uint64_t held = f->budget / f->smin; /* states, at most */
    CHECK(held >= 1);
    const u128 t = fz_revolve_forward(f->n, held < f->n ? held : f->n);
    CHECK(st->forward_steps >= t);
    CHECK((u128)st->forward_cost >= t * f->cmin);
    CHECK(st->forward_cost >= f->sweep);
    if (st->forward_cost > f->x0_only) {
        print_chain("dearer than keeping x_0 alone", p);
        fprintf(stderr, "forward_cost %llu, x_0 alone %llu\n",
                (unsigned long long)st->forward_cost,
                (unsigned long long)f->x0_only);
        abort();
    }
    CHECK(st->recompute_cost == st->forward_cost - f->sweep);
    CHECK(st->lower_bound_cost <= st->forward_cost);
    if (st->exact) {
        /* Exact: the unit divides every size, or one sweep (nothing
         * costs less, whatever the unit). */
        CHECK(st->lower_bound_cost == st->forward_cost);
        CHECK(divides_all(p, st->unit_bytes) || st->forward_cost == f->sweep);
    }
    if (p->unit_bytes != 0)
        CHECK(st->unit_bytes == p->unit_bytes);
    if (st->exact && rounded_need(p, st->unit_bytes) <= f->budget)
        CHECK(st->forward_cost == f->sweep);
    if (p->step_bytes != NULL || p->slot_bytes != 0)
        CHECK(st->peak_bytes <= f->budget);
    else
        CHECK(st->peak_bytes == 0); /* slots only: bytes unknown */
}

/* The nested optimum at the gcd unit, for small chains. */
static void check_optimum(const uturn_problem_t *p, const struct facts *f,
                          const uturn_stats_t *st)
{
    if (f->n > FZ_NESTED_STEPS || f->budget / f->gcd > FZ_NESTED_UNITS)
        return;
    uint64_t units[FZ_NESTED_STEPS], costs[FZ_NESTED_STEPS];
    for (uint64_t i = 0; i < f->n; i++) {
        units[i] = size_at(p, i) / f->gcd;
        costs[i] = cost_at(p, i);
    }
    const uint64_t best =
        fz_nested_cost(f->n, units, costs, f->budget / f->gcd);
    CHECK(best != UINT64_MAX);
    if (st->forward_cost < best || (st->exact && st->forward_cost != best) ||
        st->lower_bound_cost > best) {
        print_chain("not the nested optimum", p);
        fprintf(stderr,
                "forward_cost %llu exact %d lower bound %llu; optimum %llu\n",
                (unsigned long long)st->forward_cost, (int)st->exact,
                (unsigned long long)st->lower_bound_cost,
                (unsigned long long)best);
        abort();
    }
    /* A table this small fits any limit dp is given by default. */
    const uint64_t unit = p->unit_bytes != 0 ? p->unit_bytes : f->gcd;
    if (p->dp_mode != UTURN_DP_APPROXIMATE && divides_all(p, unit) &&
        limit_of(p) == UTURN_DP_TABLE_BYTES && f->budget / unit <= 1024)
        CHECK(st->exact);
}

/* Uniform sizes and costs, exact: revolve's count at cost c. */
static void check_revolve(const struct facts *f, const uturn_stats_t *st)
{
    if (!st->exact || !f->uniform_size || !f->uniform_cost)
        return;
    const uint64_t s = f->budget / f->size0;
    const u128 t     = fz_revolve_forward(f->n, s < f->n ? s : f->n);
    CHECK(st->forward_steps == t);
    CHECK((u128)st->forward_cost == t * f->cmin);
}

static void check_stats(const uturn_problem_t *p, const struct facts *f,
                        const uturn_stats_t *st)
{
    CHECK(st->steps == f->n && st->reverse_steps == f->n);
    CHECK(st->recomputed_steps == st->forward_steps - f->n);
    CHECK(st->frees == st->stores && st->stores >= 1);
    CHECK(st->peak_slots >= 1 && st->peak_slots <= st->stores);
    CHECK(st->cost == st->forward_cost && st->levels == 1 && !st->online);
    CHECK(st->budget_bytes == p->budget_bytes);
    if (p->step_bytes != NULL)
        CHECK(st->slots == st->peak_slots && st->slot_bytes == f->smax);
    else
        CHECK(st->slots ==
              (p->slots != 0 ? p->slots : p->budget_bytes / p->slot_bytes));
    CHECK(st->peak_slots <= st->slots);
    check_bounds(p, f, st);
    check_optimum(p, f, st);
    check_revolve(f, st);
}

/* The walk, through the public validator with the chain's sizes, costs
 * and budget, and once more with one allocation failing. */
static void check_walk(const uturn_problem_t *p, const struct facts *f,
                       const uturn_plan_t *plan, struct fz_arena *arena,
                       struct reader *r)
{
    struct fz_shape shape;
    memset(&shape, 0, sizeof shape);
    uturn_problem_init(&shape.validator);
    shape.validator.steps      = f->n;
    shape.validator.step_bytes = p->step_bytes;
    shape.validator.step_costs = p->step_costs;
    if (p->step_bytes != NULL || p->slot_bytes != 0) {
        shape.validator.budget_bytes = f->budget;
        shape.validator.slot_bytes   = p->slot_bytes;
        /* With per-step sizes the validator takes the largest state for
         * slot_bytes and budget / largest for its slot capacity, refusing
         * streams within the byte budget (a bug:
         * crashes/wrong-validator-sizes-capacity-of-largest-state.bin):
         * then it counts slots only, and check_bounds() the bytes. */
        if (p->step_bytes != NULL && !fz_slow()) {
            shape.validator.budget_bytes = 0;
            shape.validator.slots        = f->n + 1;
        }
    } else {
        shape.validator.slots = p->slots;
    }
    shape.level_count = 1;
    shape.slots[0]    = UINT64_MAX;
    shape.step_bytes  = p->step_bytes;
    shape.step_costs  = p->step_costs;
    shape.slot_bytes  = p->slot_bytes;
    fz_walk_plan(plan, &shape, WALK_ACTIONS, fz_byte(r));

    uturn_stats_t st, seen;
    uturn_stats_init(&st);
    uturn_stats_init(&seen);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    if (st.actions > WALK_ACTIONS)
        return;
    arena->calls            = 0;
    arena->fail_at          = 1 + fz_byte(r) % 4;
    const uturn_status_t s2 = uturn_plan_walk(plan, &seen, NULL);
    arena->fail_at          = 0;
    CHECK(s2 == UTURN_OK || s2 == UTURN_E_NOMEM);
    if (s2 == UTURN_OK)
        CHECK(seen.forward_cost == st.forward_cost &&
              seen.actions == st.actions && seen.peak_bytes == st.peak_bytes);
}

/* Write the plan as text and parse it back: the same counts. */
static void check_text(const uturn_plan_t *plan, const uturn_stats_t *st)
{
    if (st->actions > TEXT_ACTIONS)
        return;
    char *text           = NULL;
    size_t len           = 0;
    uturn_plan_t *parsed = fz_text_round_trip(plan, &text, &len);
    uturn_stats_t back;
    uturn_stats_init(&back);
    CHECK(uturn_plan_stats(parsed, &back) == UTURN_OK);
    CHECK(back.forward_steps == st->forward_steps &&
          back.forward_cost == st->forward_cost && back.stores == st->stores &&
          back.peak_slots == st->peak_slots &&
          back.peak_bytes == st->peak_bytes && back.actions == st->actions);
    uturn_plan_free(parsed);
    free(text);
}

/* Two threads fill the tables: the same plan, bit for bit. */
static void check_threads(const uturn_problem_t *p, const uturn_stats_t *st)
{
    uturn_problem_t q = *p;
    q.threads         = 2;
    uturn_plan_t *two = NULL;
    CHECK(uturn_plan_create(&q, NULL, &two, NULL) == UTURN_OK);
    uturn_stats_t s2;
    uturn_stats_init(&s2);
    CHECK(uturn_plan_stats(two, &s2) == UTURN_OK);
    CHECK(fz_stats_equal(&s2, st) && s2.fingerprint == st->fingerprint);
    CHECK(s2.exact == st->exact && s2.unit_bytes == st->unit_bytes &&
          s2.lower_bound_cost == st->lower_bound_cost);
    uturn_plan_free(two);
}

/* ---- pace ---- */

/* Problems whose tables would take long to fill under the sanitizers:
 * dp fills tables up to table_bytes (1 GiB by default), about a cell of 4
 * bytes per segment and memory unit up to the budget or what the
 * segment's states need; a budget that holds every state needs none. */
static bool too_slow(const uturn_problem_t *p, const struct facts *f)
{
    if (fz_slow() || invalid(p, f))
        return false;
    const uint64_t unit = p->unit_bytes != 0 ? p->unit_bytes : f->gcd;
    const u128 need     = rounded_need(p, unit);
    if (need <= f->budget)
        return false;
    const u128 budget = f->budget / unit, units = need / unit;
    const u128 width = budget < units ? budget : units;
    const u128 cells = (u128)f->n * f->n / 2 * width;
    const u128 limit = limit_of(p);
    if ((cells * 4 < limit ? cells * 4 : limit) > DP_TABLE_BYTES)
        return true;
    /* The exact table's fill: up to n^3 units / 6 updates (the sanitizers
     * make each about a hundred times slower). */
    return p->dp_mode != UTURN_DP_APPROXIMATE && cells * 4 <= limit &&
           cells * f->n / 3 > DP_WORK;
}

/* The same request with one allocation failing: NOMEM, nothing kept.
 * Every allocation dp makes is needed: none falls back to another plan
 * (dp's lower bound once did, and the approximate planner's choices
 * followed it: crashes/wrong-dp-lower-bound-nomem-changes-plan.bin). */
static void check_nomem(const uturn_problem_t *p, uint64_t calls,
                        struct fz_arena *arena, struct reader *r)
{
    uturn_allocator_t alloc = fz_allocator(arena);
    uturn_plan_t *plan      = NULL;
    uturn_error_t error;
    uturn_error_init(&error);
    arena->calls   = 0;
    arena->fail_at = 1 + fz_bytes_le(r, 2) % (calls != 0 ? calls : 1);
    const uturn_status_t status = uturn_plan_create(p, &alloc, &plan, &error);
    const uint64_t failed       = arena->fail_at;
    arena->fail_at              = 0;
    if (status != UTURN_E_NOMEM) {
        print_chain("allocation failed, no NOMEM", p);
        fprintf(stderr, "allocation %llu of %llu failed: got %s\n",
                (unsigned long long)failed, (unsigned long long)calls,
                uturn_status_name(status));
        abort();
    }
    CHECK(plan == NULL && arena->live == 0);
    CHECK(error.status == UTURN_E_NOMEM && error.message[0] != '\0');
}

void fz_planner_dp(struct reader *r)
{
    struct chain c;
    decode(r, &c);
    const uturn_problem_t *p = &c.p;
    if (fz_verbose())
        print_chain("problem", p);
    struct facts f;
    const bool known = p->steps >= 1 && p->steps <= DP_STEPS;
    if (known)
        learn(p, &f);
    if (known && too_slow(p, &f)) {
        fz_verdict("skipped");
        return;
    }
    const struct expect e = predict(p, known ? &f : NULL);

    struct fz_arena arena   = {0, 0, 0, 0};
    uturn_allocator_t alloc = fz_allocator(&arena);
    uturn_plan_t *plan      = NULL;
    uturn_error_t error;
    uturn_error_init(&error);
    const uturn_status_t status = uturn_plan_create(p, &alloc, &plan, &error);
    CHECK(status == UTURN_OK || plan == NULL);
    if (status != UTURN_OK) {
        CHECK(arena.live == 0);
        check_refusal(p, status, &error, &e);
        fz_verdict(uturn_status_name(status));
        return;
    }
    if (e.must != 0) {
        print_chain("accepted", p);
        abort();
    }
    const uint64_t calls = arena.calls;
    fz_verdict("planned");
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    check_stats(p, &f, &st);
    check_walk(p, &f, plan, &arena, r);
    check_text(plan, &st);
    if (c.threads2)
        check_threads(p, &st);
    uturn_plan_free(plan);
    CHECK(arena.live == 0);
    check_nomem(p, calls, &arena, r);
}
