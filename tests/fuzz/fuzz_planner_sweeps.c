/*
 * fuzz_planner, part 3: plans of several reverse sweeps (revolve with
 * sweeps = k >= 2), and sweeps asked of other planners.
 *
 * The input decodes to a problem (planner, steps, slots or a byte budget,
 * sweeps), mostly small and valid, sometimes absurd. uturn_plan_create()
 * is checked against an oracle written here from docs/model.md section 13
 * and uturn.h:
 *   - the status: other planners refuse several sweeps; revolve refuses
 *     what it refuses for one sweep, then more than 1024 effective slots
 *     or 2^20 sweeps, then k n past 2^64;
 *   - on success: sweeps, reverse_steps = k n, peak within the effective
 *     slots, one sweep's optimum t(n+1, s) <= forward steps <= k of them
 *     (the family holds k sweeps of revolve from x_0);
 *   - for n <= 40 and s <= 8, forward steps equal the family's optimum
 *     found here by a dynamic program over segment lengths (not the
 *     library's Lagrangian placement);
 *   - plans of at most WALK_ACTIONS actions are walked (validated) with
 *     exactly the predicted counts, and small ones go through text and
 *     back.
 * Input layout: see decode().
 */
#include "fuzz_planner.h"

#include <string.h>

#define WALK_ACTIONS 200000u
#define DP_STEPS     40u
#define DP_SLOTS     8u

struct sweeps_case {
    uturn_problem_t p;
    uint64_t n, s, k; /* s: the effective slots, min(slots, n + 1) */
    bool gray;        /* counts near 2^64: a plan or UTURN_E_OVERFLOW */
    bool open;        /* sweeps UTURN_SWEEPS_UNBOUNDED */
};

static const uint64_t odd_values[] = {0,
                                      1,
                                      2,
                                      3,
                                      1023,
                                      1024,
                                      1025,
                                      1u << 20,
                                      (1u << 20) + 1,
                                      4294967296ull,
                                      UINT64_MAX / 2,
                                      UINT64_MAX - 2,
                                      UINT64_MAX};
#define ODD (sizeof odd_values / sizeof odd_values[0])

/* A count: mostly in [lo, lo + span), sometimes odd or raw. */
static uint64_t count(struct reader *r, uint64_t lo, uint64_t span)
{
    const uint8_t how = fz_byte(r);
    switch (how & 7) {
    case 6:
        return odd_values[fz_byte(r) % ODD];
    case 7:
        return fz_bytes_le(r, how & 8 ? 8 : 2);
    default:
        return lo + fz_byte(r) % span;
    }
}

/* byte: planner (1 in 8 another one); steps; slots (or a budget);
 * sweeps. */
static void decode(struct reader *r, struct sweeps_case *c)
{
    static const uturn_planner_t others[] = {
        UTURN_PLANNER_STORE_ALL, UTURN_PLANNER_PERIODIC, UTURN_PLANNER_SQRT,
        UTURN_PLANNER_DP,        UTURN_PLANNER_HREVOLVE, UTURN_PLANNER_ONLINE};
    uturn_problem_init(&c->p);
    const uint8_t b = fz_byte(r);
    c->p.planner    = b % 8 == 0 ? others[(b / 8) % 6] : UTURN_PLANNER_REVOLVE;
    c->p.steps      = count(r, 1, DP_STEPS);
    const uint8_t cap = fz_byte(r);
    if (cap % 8 == 7) { /* a byte budget of whole slots plus a rest */
        c->p.slot_bytes   = 1 + fz_byte(r);
        c->p.budget_bytes = count(r, 0, 12) % 4096 * c->p.slot_bytes + cap % 3;
    } else if (cap % 8 != 6) {
        c->p.slots = count(r, 1, DP_SLOTS + 2);
    }
    c->p.sweeps = count(r, 2, 6);
    c->n        = c->p.steps;
    c->k        = c->p.sweeps > 1 ? c->p.sweeps : 1; /* 0 and 1: one */
    c->open     = c->p.sweeps == UTURN_SWEEPS_UNBOUNDED;
}

/* The status the oracle expects (UTURN_OK: a plan). */
static uturn_status_t expected(struct sweeps_case *c)
{
    const uturn_problem_t *p = &c->p;
    if (p->steps == 0)
        return UTURN_E_INVALID_ARG;
    const bool budget    = p->budget_bytes != 0;
    const uint64_t slots = budget ? p->budget_bytes / p->slot_bytes : p->slots;
    if (p->planner != UTURN_PLANNER_REVOLVE)
        return UTURN_E_UNSUPPORTED; /* or an earlier refusal: see below */
    if (!budget && p->slots == 0)
        return UTURN_E_INVALID_ARG;
    if (slots == 0)
        return UTURN_E_INFEASIBLE;
    if (p->steps >= UINT64_MAX - 1)
        return UTURN_E_OVERFLOW;
    c->s = slots < c->n + 1 ? slots : c->n + 1;
    if (c->k > 1 && (c->s > UTURN_SWEEPS_MAX_SLOTS ||
                     (p->sweeps > UTURN_SWEEPS_MAX && !c->open)))
        return UTURN_E_UNSUPPORTED;
    if (c->open) /* its counts are those of the first forward and sweep 1 */
        c->k = 1;
    if ((u128)c->k * p->steps > UINT64_MAX)
        return UTURN_E_OVERFLOW;
    /* one sweep alone needs t(n+1, s); k sweeps of revolve are a plan of
     * the family; every other count is below 4 k (n + 1) + 3 forward */
    const u128 one = fz_revolve_forward(c->n, c->s);
    if (one > UINT64_MAX)
        return UTURN_E_OVERFLOW;
    c->gray =
        one * c->k >= (u128)1 << 61 || (u128)c->k * (c->n + 1) >= (u128)1 << 60;
    return UTURN_OK;
}

/* t(l, c): revolve from a stored first state, l states, c slots. */
static uint64_t t_of(uint64_t l, uint64_t c)
{
    return l <= 1 ? 0 : (uint64_t)fz_revolve_forward(l - 1, c);
}

/* The family's optimum (docs/model.md section 13) by dynamic programming:
 * for each m, the top segment's length, and below it the best split of
 * the rest into m - 1 segments, segment j costing L + (k-1) t(L, c) +
 * t(L, s-j). */
static uint64_t family_optimum(uint64_t n, uint64_t s, uint64_t k)
{
    static uint64_t G[DP_SLOTS + 1][DP_STEPS + 2];
    uint64_t best = UINT64_MAX;
    for (uint64_t m = 1; m <= s; m++) {
        const uint64_t c = s - m + 1;
        /* G[j][R]: segments 0 .. j-1 holding R states */
        for (uint64_t R = 0; R <= n + 1; R++)
            G[0][R] = R == 0 ? 0 : UINT64_MAX;
        for (uint64_t j = 1; j < m; j++)
            for (uint64_t R = 0; R <= n + 1; R++) {
                G[j][R] = UINT64_MAX;
                for (uint64_t L = 1; L <= R; L++) {
                    if (G[j - 1][R - L] == UINT64_MAX)
                        continue;
                    const uint64_t v = G[j - 1][R - L] + L +
                                       (k - 1) * t_of(L, c) +
                                       t_of(L, s - (j - 1));
                    G[j][R] = v < G[j][R] ? v : G[j][R];
                }
            }
        for (uint64_t L = 1; L + (m - 1) <= n + 1; L++)
            if (G[m - 1][n + 1 - L] != UINT64_MAX) {
                const uint64_t v = G[m - 1][n + 1 - L] + k * t_of(L, c);
                best             = v < best ? v : best;
            }
    }
    return best;
}

static void check_plan(const struct sweeps_case *c, const uturn_plan_t *plan)
{
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    CHECK(st.sweeps == c->p.sweeps || (c->k == 1 && st.sweeps == 1));
    CHECK(st.reverse_steps == c->k * c->n);
    CHECK(st.peak_slots <= c->s && st.persistent <= c->s);
    CHECK(c->k == 1 && !c->open ? st.persistent == 0 : st.persistent >= 1);
    const u128 one = fz_revolve_forward(c->n, c->s);
    CHECK(st.forward_steps >= one);
    if (c->open) /* a further sweep: at least the states no slot holds,
                    at most revolve from x_0 (m = 1 is in the family) */
        CHECK(st.sweep_forward_steps >= c->n + 1 - c->s &&
              st.sweep_forward_steps <= one);
    else
        CHECK(st.forward_steps <= one * c->k);
    if (c->n <= DP_STEPS && c->s <= DP_SLOTS && !c->open)
        CHECK(st.forward_steps == family_optimum(c->n, c->s, c->k));
    struct fz_shape shape;
    memset(&shape, 0, sizeof shape);
    uturn_problem_init(&shape.validator);
    shape.validator.steps        = c->n;
    shape.validator.slots        = c->p.budget_bytes != 0 ? 0 : st.slots;
    shape.validator.sweeps       = c->open ? c->p.sweeps : c->k;
    shape.validator.slot_bytes   = c->p.slot_bytes;
    shape.validator.budget_bytes = c->p.budget_bytes;
    shape.slot_bytes             = c->p.slot_bytes;
    shape.level_count            = 1;
    shape.slots[0]               = st.slots;
    if (!fz_walk_plan(plan, &shape, WALK_ACTIONS, (unsigned)c->n % 64 + 1))
        return;
    if (st.actions > 5000)
        return;
    char *text         = NULL;
    size_t len         = 0;
    uturn_plan_t *back = fz_text_round_trip(plan, &text, &len);
    uturn_stats_t b;
    uturn_stats_init(&b);
    CHECK(uturn_plan_stats(back, &b) == UTURN_OK);
    CHECK(fz_stats_equal(&b, &st) && b.sweeps == st.sweeps);
    CHECK(b.persistent == st.persistent);
    uturn_plan_free(back);
    free(text);
}

void fz_planner_sweeps(struct reader *r)
{
    struct sweeps_case c;
    memset(&c, 0, sizeof c);
    decode(r, &c);
    if (c.k == 1 && c.p.planner != UTURN_PLANNER_REVOLVE) {
        fz_verdict("skipped"); /* one sweep of another planner: part 0's */
        return;
    }
    const uturn_status_t want = expected(&c);
    /* planning tries every m, each in O(m log n log(k n)): for the pace,
     * huge chains with many slots only with FUZZ_SLOW=1 */
    if (want == UTURN_OK && c.s > 64 && c.n > 1000000 && !fz_slow()) {
        fz_verdict("skipped");
        return;
    }
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    const uturn_status_t got = uturn_plan_create(&c.p, NULL, &plan, &e);
    if (c.gray && got == UTURN_E_OVERFLOW) {
        CHECK(plan == NULL);
        fz_check_error(got, &e, FZ_BIT(UTURN_E_OVERFLOW));
        fz_verdict("UTURN_E_OVERFLOW");
        return;
    }
    if (want != UTURN_OK || got != UTURN_OK) {
        /* another planner may refuse first for its own reason (periodic
         * without a capacity, online given steps): a documented status
         * with a message, never a plan */
        const unsigned other = c.p.planner != UTURN_PLANNER_REVOLVE
                                   ? FZ_BIT(UTURN_E_INVALID_ARG) |
                                         FZ_BIT(UTURN_E_UNSUPPORTED) |
                                         FZ_BIT(UTURN_E_INFEASIBLE)
                                   : FZ_BIT(want);
        CHECK(got != UTURN_OK && plan == NULL);
        fz_check_error(got, &e, other);
        fz_verdict(uturn_status_name(got));
        return;
    }
    check_plan(&c, plan);
    uturn_plan_free(plan);
    fz_verdict("planned");
}
