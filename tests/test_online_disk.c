#define _GNU_SOURCE /* mkdtemp, nftw (scratch_dir.h) */
/*
 * The online planner with storage levels (the periodic disk schedule)
 * against independent truth: every realised plan for n = 1 .. 2000 is
 * valid for a validator with the levels that learns n only at the end,
 * the disk never holds more than its slots, and the predicted cost
 * (uturn_plan_online_cost) is the validator's; the cost is never below
 * hrevolve's offline optimum for that n; the first sweep stores only on
 * the disk at multiples of the period; the executor runs it through a
 * file level to the store-all gradient bit for bit, ending where the
 * model says; fingerprints, max_steps and refusals.
 *
 * Every expected cost, period and reach is computed here, not copied from
 * a program's output: H-Revolve's recurrence (Herrmann and Pallez 2020;
 * the problem as docs/model.md section 4 states it) written out again for
 * the offline optimum and the periods' reversals, and the periodic rule as
 * docs/model.md section 8 describes it (Aupy and Herrmann 2017: the period
 * minimising (w + r + R(P-1)) / P over the documented search range, x_0,
 * x_P, ... on the last level, the odd ones freed and the period doubled
 * when it is full, each period reversed by the optimum with the last
 * level's free slots). The validator's walk of every realised plan must
 * cost exactly what that rule gives. The figures docs/model.md quotes
 * (P = 21; 33 / 15 at n = 10 and 315 / 284 at n = 100 for memory 5 and a
 * disk of w = r = 5) are checked against the same computation.
 */
#include "online_stopper.h"
#include "same_actions.h"
#include "scratch_dir.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define ULL(x) ((unsigned long long)(x))

/* ---- the truth: H-Revolve's optimum and the periodic rule -------------- */

#define REF_INF    UINT64_MAX
#define REF_LEVELS 4

/*
 * H-Revolve's recurrence over levels 0 .. count-1 (slots c_k, write and
 * read costs w_k, r_k), in uturn's terms (docs/model.md sections 1, 2, 4):
 * positions 0 .. l of a segment are to be reversed from the top, the first
 * reversal being the turn or the adjoint step after the segment, and
 * advancing one position costs 1.
 *   A_k(l, m): x_0 is live and held nowhere; m slots of level k are free,
 *              and every slot of the levels below k.
 *   B_k(l, m): the same, with x_0 live and held on level k in one of the m.
 * A_k(0, m) = B_k(0, m) = 0. Otherwise, with D_k(l) = A_{k-1}(l, c_{k-1})
 * (forget level k: infinite for k = 0),
 *   B_k(l, m) = min(D_k(l), min over 1 <= j <= l of
 *                   j + A_k(l - j, m - 1) + r_k + B_k(j - 1, m))   (m >= 1)
 *   A_k(l, m) = min(D_k(l), w_k + B_k(l, m)):
 * advance j, reverse positions j .. l from x_j with one slot fewer, then
 * restore x_0 and reverse 0 .. j-1; or store x_0 on level k first. The
 * optimum for n steps is A_{count-1}(n, c_{count-1}). tests/test_hrevolve.c
 * evaluates the same recurrence and checks hrevolve against it, and
 * against an exhaustive search of every plan on small chains.
 * More than l + 1 slots never help positions 0 .. l, so m is capped.
 */
struct ref {
    uint64_t count, c[REF_LEVELS], w[REF_LEVELS], r[REF_LEVELS];
    uint64_t len;               /* segments of up to len steps */
    uint64_t width[REF_LEVELS]; /* m = 0 .. width - 1 kept */
    uint64_t *a[REF_LEVELS], *b[REF_LEVELS];
};

static uint64_t ref_add(uint64_t x, uint64_t y)
{
    return x == REF_INF || y == REF_INF || y > REF_INF - x ? REF_INF : x + y;
}

static uint64_t ref_at(const struct ref *t, uint64_t *const *tab, uint64_t k,
                       uint64_t l, uint64_t m)
{
    cr_assert_leq(l, t->len);
    const uint64_t top = t->width[k] - 1;
    return tab[k][l * t->width[k] + (m < top ? m : top)];
}

static uint64_t ref_a(const struct ref *t, uint64_t k, uint64_t l, uint64_t m)
{
    return ref_at(t, t->a, k, l, m);
}

static uint64_t ref_b(const struct ref *t, uint64_t k, uint64_t l, uint64_t m)
{
    return ref_at(t, t->b, k, l, m);
}

/* One entry; the ones it reads (shorter segments, level k - 1) are
 * there. The loop reads the arrays directly: it runs some 10^8 times. */
static void ref_entry(struct ref *t, uint64_t k, uint64_t l, uint64_t m)
{
    const uint64_t wk = t->width[k], at = l * wk + m;
    const uint64_t down = k == 0 ? REF_INF : ref_a(t, k - 1, l, t->c[k - 1]);
    if (l == 0) {
        t->a[k][at] = t->b[k][at] = 0;
        return;
    }
    uint64_t best     = down;
    const uint64_t *a = t->a[k], *b = t->b[k];
    const uint64_t mb = m < wk - 1 ? m : wk - 1; /* B_k(., m) */
    const uint64_t ma = m == 0 ? 0 : (m - 1 < wk - 1 ? m - 1 : wk - 1);
    for (uint64_t j = 1; m >= 1 && j <= l; j++) {
        const uint64_t v = ref_add(ref_add(j + t->r[k], a[(l - j) * wk + ma]),
                                   b[(j - 1) * wk + mb]);
        best             = v < best ? v : best;
    }
    t->b[k][at]         = m >= 1 ? best : REF_INF;
    const uint64_t keep = ref_add(t->w[k], t->b[k][at]);
    t->a[k][at]         = keep < down ? keep : down;
}

/* The tables for segments of up to len steps over the levels lv. */
static void ref_build(struct ref *t, const uint64_t (*lv)[3], uint64_t count,
                      uint64_t len)
{
    memset(t, 0, sizeof *t);
    cr_assert_leq(count, REF_LEVELS);
    t->count = count;
    t->len   = len;
    for (uint64_t k = 0; k < count; k++) {
        t->c[k]     = lv[k][0];
        t->w[k]     = lv[k][1];
        t->r[k]     = lv[k][2];
        t->width[k] = (t->c[k] < len + 1 ? t->c[k] : len + 1) + 1;
        t->a[k]     = calloc((len + 1) * t->width[k], sizeof(uint64_t));
        t->b[k]     = calloc((len + 1) * t->width[k], sizeof(uint64_t));
        cr_assert(t->a[k] != NULL && t->b[k] != NULL);
    }
    for (uint64_t l = 0; l <= len; l++)
        for (uint64_t k = 0; k < count; k++)
            for (uint64_t m = 0; m < t->width[k]; m++)
                ref_entry(t, k, l, m);
}

static void ref_free(struct ref *t)
{
    for (uint64_t k = 0; k < t->count; k++) {
        free(t->a[k]);
        free(t->b[k]);
    }
}

/* The offline optimum for n steps. */
static uint64_t ref_optimum(const struct ref *t, uint64_t n)
{
    return ref_a(t, t->count - 1, n, t->c[t->count - 1]);
}

/* beta(c, t) = C(c + t, c), saturated (compared with small costs only). */
static uint64_t ref_beta(uint64_t c, uint64_t t)
{
    __uint128_t v = 1;
    for (uint64_t i = 1; i <= t; i++) {
        v = v * (c + i) / i;
        if (v > ((__uint128_t)1 << 62))
            return (uint64_t)1 << 62;
    }
    return (uint64_t)v;
}

/* docs/model.md section 8: the period search goes to twice the bound of
 * Aupy and Herrmann's code, max(beta(c, t1+1), 2 beta(c, t2) + 1), with c
 * the slots below the last level and t1, t2 the least t with beta(c, t)
 * > w + r and > w, and at most 8192. */
static uint64_t ref_search_bound(const uint64_t (*lv)[3], uint64_t count)
{
    uint64_t below = 0, t1 = 0, t2 = 0;
    for (uint64_t k = 0; k + 1 < count; k++)
        below += lv[k][0];
    const uint64_t w = lv[count - 1][1], r = lv[count - 1][2];
    while (ref_beta(below, t1) <= w + r)
        t1++;
    while (ref_beta(below, t2) <= w)
        t2++;
    const uint64_t one = ref_beta(below, t1 + 1);
    const uint64_t two = 2 * ref_beta(below, t2) + 1;
    const uint64_t b   = 2 * (one > two ? one : two);
    return b < 8192 ? b : 8192;
}

/* The rule itself, for one set of levels and max_steps. */
struct rule {
    struct ref t;
    uint64_t disk, w, r; /* the last level's slots and costs */
    uint64_t period;     /* P */
    uint64_t stride;     /* the first sweep's first stride */
    uint64_t reach;      /* the most steps a run may take */
};

/* P minimises (w + r + R(P-1)) / P, R(l) = B_top(l, 1) (the period's
 * other states reversed from its checkpoint on the last level, with that
 * one slot of it and every faster slot); ratios compared exactly, ties to
 * the longer P. */
static uint64_t rule_period(const struct rule *u, uint64_t bound)
{
    const uint64_t top = u->t.count - 1;
    uint64_t best_p = 0, best_a = 0;
    for (uint64_t p = 1; p <= bound; p++) {
        const uint64_t a = u->w + u->r + ref_b(&u->t, top, p - 1, 1);
        if (best_p == 0 || (__uint128_t)a * best_p <= (__uint128_t)best_a * p) {
            best_a = a;
            best_p = p;
        }
    }
    return best_p;
}

/* Tables for every n up to most (and every period searched). */
static void rule_make(struct rule *u, const uint64_t (*lv)[3], uint64_t count,
                      uint64_t max_steps, uint64_t most)
{
    memset(u, 0, sizeof *u);
    const uint64_t bound = ref_search_bound(lv, count);
    ref_build(&u->t, lv, count, bound > most ? bound : most);
    u->disk   = lv[count - 1][0];
    u->w      = lv[count - 1][1];
    u->r      = lv[count - 1][2];
    u->period = rule_period(u, bound);
    if (u->disk == 1) { /* x_0 alone, as far as max_steps or P */
        u->reach  = max_steps > u->period ? max_steps : u->period;
        u->stride = u->reach + 1;
    } else {
        u->stride = u->period;
        u->reach  = max_steps != 0 ? max_steps : u->disk * u->period;
    }
}

/* The realised plan's cost for n steps: the first sweep stores x_0, x_S,
 * x_2S, ... below n on the last level, and when it is full at a boundary
 * keeps the even-numbered ones and doubles S; then every held checkpoint i
 * from the last is read (r) and its period reversed with its own slot and
 * the last level's slots free while 0 .. i are held. */
static uint64_t rule_cost(const struct rule *u, uint64_t n)
{
    uint64_t held = 0, stride = u->stride, stores = 0;
    while (held * stride < n) {
        if (held == u->disk) {
            held = (held + 1) / 2;
            stride *= 2;
            continue;
        }
        held++;
        stores++;
    }
    uint64_t cost = n + stores * u->w;
    for (uint64_t i = 0; i < held; i++) {
        const uint64_t end = i + 1 < held ? (i + 1) * stride : n;
        cost += u->r +
                ref_b(&u->t, u->t.count - 1, end - 1 - i * stride, u->disk - i);
    }
    return cost;
}

static uturn_plan_t *disk_plan(const uint64_t (*lv)[3], uint64_t count,
                               uint64_t max_steps, uturn_status_t *status)
{
    uturn_level_t levels[4];
    for (uint64_t k = 0; k < count; k++) {
        uturn_level_init(&levels[k]);
        levels[k].slots      = lv[k][0];
        levels[k].write_cost = lv[k][1];
        levels[k].read_cost  = lv[k][2];
    }
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner               = UTURN_PLANNER_ONLINE;
    p.levels                = levels;
    p.level_count           = count;
    p.max_steps             = max_steps;
    uturn_plan_t *plan      = NULL;
    const uturn_status_t st = uturn_plan_create(&p, NULL, &plan, NULL);
    if (status != NULL)
        *status = st;
    return plan;
}

struct drive {
    uturn_status_t status;
    char message[256];
    uturn_stats_t seen, cursor;
    uturn_level_stats_t disk;
    uint64_t first_sweep_stores, off_disk_sweep_stores, period;
};

static void drive_push(uturn_validator_t *v, const uturn_action_t *a,
                       size_t count, struct drive *d)
{
    uturn_error_t err;
    uturn_error_init(&err);
    for (size_t i = 0; i < count && d->status == UTURN_OK; i++) {
        if (uturn_validator_push(v, &a[i], &err) != UTURN_OK) {
            d->status = err.status;
            memcpy(d->message, err.message, sizeof d->message);
        }
    }
}

/* The first sweep's stores: all on the disk (slots from disk_base), the
 * second one's step is the period. */
static void note_sweep(struct drive *d, const uturn_action_t *a, size_t count,
                       uint64_t disk_base)
{
    for (size_t i = 0; i < count; i++) {
        if (a[i].op != UTURN_OP_STORE)
            continue;
        d->first_sweep_stores += 1;
        d->off_disk_sweep_stores += a[i].slot < disk_base;
        if (d->first_sweep_stores == 2)
            d->period = a[i].step;
    }
}

/* Walk the plan's cursor, saying "last" after advance n-1 n, every action
 * through a validator of the plan's levels told n only then. */
static struct drive drive(const uturn_plan_t *plan, uint64_t n)
{
    struct drive d = {.status = UTURN_OK};
    uturn_stats_t ps;
    uturn_stats_init(&ps);
    uturn_plan_stats(plan, &ps);
    uturn_level_t lv[4];
    uint64_t disk_base = 0;
    for (uint64_t k = 0; k < ps.levels; k++) {
        uturn_level_stats_t ls;
        uturn_level_stats_init(&ls);
        uturn_plan_level_stats(plan, k, &ls);
        uturn_level_init(&lv[k]);
        lv[k].slots      = ls.slots;
        lv[k].write_cost = ls.write_cost;
        lv[k].read_cost  = ls.read_cost;
        disk_base += k + 1 < ps.levels ? ls.slots : 0;
    }
    uturn_problem_t vp;
    uturn_problem_init(&vp);
    vp.levels            = lv;
    vp.level_count       = ps.levels;
    uturn_validator_t *v = NULL;
    uturn_cursor_t *c    = NULL;
    cr_assert_eq(uturn_validator_create(&vp, NULL, &v, NULL), UTURN_OK);
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t batch[64];
    size_t count = 0;
    bool ended   = false;
    while (d.status == UTURN_OK &&
           uturn_cursor_read(c, batch, 64, &count) == UTURN_OK && count > 0) {
        if (!ended)
            note_sweep(&d, batch, count, disk_base);
        drive_push(v, batch, count, &d);
        const uturn_action_t *last = &batch[count - 1];
        if (!ended && last->op == UTURN_OP_ADVANCE && last->step_end == n) {
            ended = true;
            cr_assert_eq(uturn_cursor_end(c), UTURN_OK);
            cr_assert_eq(uturn_validator_set_steps(v, n, NULL), UTURN_OK);
        }
    }
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_stats_init(&d.seen);
    uturn_stats_init(&d.cursor);
    uturn_level_stats_init(&d.disk);
    if (d.status == UTURN_OK &&
        uturn_validator_finish(v, &d.seen, &err) != UTURN_OK) {
        d.status = err.status;
        memcpy(d.message, err.message, sizeof d.message);
    }
    uturn_validator_level_stats(v, ps.levels - 1, &d.disk);
    uturn_cursor_stats(c, &d.cursor);
    uturn_cursor_free(c);
    uturn_validator_free(v);
    return d;
}

/* hrevolve's offline optimum for n steps over the same levels. */
static uint64_t offline(const uint64_t (*lv)[3], uint64_t count, uint64_t n)
{
    uturn_level_t levels[4];
    for (uint64_t k = 0; k < count; k++) {
        uturn_level_init(&levels[k]);
        levels[k].slots      = lv[k][0];
        levels[k].write_cost = lv[k][1];
        levels[k].read_cost  = lv[k][2];
    }
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_HREVOLVE;
    p.steps            = n;
    p.levels           = levels;
    p.level_count      = count;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    uturn_plan_free(plan);
    return s.cost;
}

/* The walk of the plan realised for n is valid, within the disk's slots,
 * costs what the plan predicts, and costs what the rule u gives. */
static void expect_valid(const uturn_plan_t *plan, uint64_t n,
                         const struct rule *u, struct drive *out)
{
    const struct drive d = drive(plan, n);
    cr_assert_eq(d.status, UTURN_OK, "n %llu: %s", ULL(n), d.message);
    cr_assert_leq(d.disk.peak_slots, u->disk, "n %llu", ULL(n));
    cr_assert_eq(d.off_disk_sweep_stores, 0);
    cr_assert_eq(d.cursor.steps, n);
    cr_assert_eq(d.cursor.cost, d.seen.cost, "n %llu: cursor %llu, walk %llu",
                 ULL(n), ULL(d.cursor.cost), ULL(d.seen.cost));
    uint64_t predicted = 0;
    cr_assert_eq(uturn_plan_online_cost(plan, n, &predicted, NULL), UTURN_OK);
    cr_assert_eq(predicted, d.seen.cost, "n %llu: predicted %llu, walk %llu",
                 ULL(n), ULL(predicted), ULL(d.seen.cost));
    const uint64_t want = rule_cost(u, n);
    cr_assert_eq(d.seen.cost, want,
                 "n %llu: the walk costs %llu, the rule %llu", ULL(n),
                 ULL(d.seen.cost), ULL(want));
    if (u->disk > 1 && n > u->period) /* else x_0 alone */
        cr_assert_eq(d.period, u->period,
                     "n %llu: period %llu, the rule's %llu", ULL(n),
                     ULL(d.period), ULL(u->period));
    if (out != NULL)
        *out = d;
}

/* Every n from 1 to max_steps (every step-th) against the rule. */
static void expect_rule(const uint64_t (*lv)[3], uint64_t count,
                        uint64_t max_steps, uint64_t step)
{
    struct rule u;
    rule_make(&u, lv, count, max_steps, max_steps);
    uturn_plan_t *plan = disk_plan(lv, count, max_steps, NULL);
    cr_assert_not_null(plan);
    for (uint64_t n = 1; n <= max_steps; n += step)
        expect_valid(plan, n, &u, NULL);
    uturn_plan_free(plan);
    ref_free(&u.t);
}

Test(online_disk, every_plan_to_2000_is_valid_and_costs_what_the_rule_says)
{
    /* Memory 3; disk 5, w = r = 3: five periods, then doublings. */
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    expect_rule(lv, 2, 2000, 1);
}

Test(online_disk, three_levels_and_one_disk_slot_are_valid)
{
    const uint64_t three[3][3] = {{4, 0, 0}, {16, 2, 2}, {6, 10, 10}};
    expect_rule(three, 3, 700, 3);
    const uint64_t one[2][3] = {{3, 0, 0}, {1, 4, 4}};
    expect_rule(one, 2, 300, 1);
}

/* The recurrence written here gives docs/model.md section 4's hrevolve
 * figures: 284 for n = 100, memory 5 and disk 100 with w = r = 5 (memory
 * alone: t(101, 5) = 320); 938 for n = 300 over memory 4, 8 slots with
 * w = r = 2 and 16 with w = r = 10. */
Test(online_disk, the_reference_recurrence_gives_the_documented_optima)
{
    const uint64_t two[2][3] = {{5, 0, 0}, {100, 5, 5}};
    struct ref t;
    ref_build(&t, two, 2, 100);
    cr_assert_eq(ref_optimum(&t, 100), 284);
    cr_assert_eq(ref_a(&t, 0, 100, 5), 320);
    ref_free(&t);
    const uint64_t three[3][3] = {{4, 0, 0}, {8, 2, 2}, {16, 10, 10}};
    ref_build(&t, three, 3, 300);
    cr_assert_eq(ref_optimum(&t, 300), 938);
    ref_free(&t);
}

/* Never below the offline optimum, which the library's hrevolve reaches;
 * every cost as the rule gives it; the figures docs/model.md section 8
 * quotes for memory 5 and a disk of w = r = 5 as the rule gives them. */
Test(online_disk, never_below_hrevolve_and_as_the_rule_says)
{
    const uint64_t a[2][3] = {{5, 0, 0}, {2000, 5, 5}};
    const uint64_t b[2][3] = {{10, 0, 0}, {1000, 2, 20}};
    const uint64_t ns[]    = {10, 50, 100, 200, 500};
    struct rule ua, ub;
    rule_make(&ua, a, 2, 0, 500);
    rule_make(&ub, b, 2, 0, 500);
    cr_assert_eq(ua.period, 21,
                 "docs/model.md: memory 5 and a disk with "
                 "w = r = 5 give P = 21");
    cr_assert_eq(rule_cost(&ua, 10), 33);
    cr_assert_eq(ref_optimum(&ua.t, 10), 15);
    cr_assert_eq(rule_cost(&ua, 100), 315);
    cr_assert_eq(ref_optimum(&ua.t, 100), 284);
    uturn_plan_t *pa = disk_plan(a, 2, 0, NULL);
    uturn_plan_t *pb = disk_plan(b, 2, 0, NULL);
    cr_assert_not_null(pa);
    cr_assert_not_null(pb);
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        struct drive d;
        expect_valid(pa, ns[i], &ua, &d);
        const uint64_t opt_a = ref_optimum(&ua.t, ns[i]);
        cr_assert_eq(offline(a, 2, ns[i]), opt_a, "n %llu", ULL(ns[i]));
        cr_assert_geq(d.seen.cost, opt_a);
        expect_valid(pb, ns[i], &ub, &d);
        const uint64_t opt_b = ref_optimum(&ub.t, ns[i]);
        cr_assert_eq(offline(b, 2, ns[i]), opt_b, "n %llu", ULL(ns[i]));
        cr_assert_geq(d.seen.cost, opt_b);
    }
    uturn_plan_free(pa);
    uturn_plan_free(pb);
    ref_free(&ua.t);
    ref_free(&ub.t);
}

/* Memory 3 and a disk of 5 slots with w = r = 3, the rule's reach without
 * max_steps: disk slots times the period. */
static uint64_t small_reach(void)
{
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    struct rule u;
    rule_make(&u, lv, 2, 0, 0);
    ref_free(&u.t);
    cr_assert_eq(u.reach, 5 * u.period);
    return u.reach;
}

Test(online_disk, reach_max_steps_and_refusals)
{
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    const uint64_t reach    = small_reach();
    uturn_plan_t *plan      = disk_plan(lv, 2, 0, NULL);
    uint64_t cost           = 0;
    cr_assert_eq(uturn_plan_online_cost(plan, reach, &cost, NULL), UTURN_OK);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_plan_online_cost(plan, reach + 1, &cost, &err),
                 UTURN_E_INVALID_ARG);
    char between[64];
    snprintf(between, sizeof between, "between 1 and %llu", ULL(reach));
    cr_assert(strstr(err.message, between) != NULL, "%s", err.message);
    cr_assert_eq(uturn_plan_online_cost(plan, 0, &cost, NULL),
                 UTURN_E_INVALID_ARG);
    const struct drive past = drive(plan, reach + 1);
    cr_assert_eq(past.status, UTURN_E_INVALID_PLAN,
                 "a plan past its reach "
                 "has no turn");
    uturn_cursor_t *c = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    cr_assert_eq(uturn_cursor_set_size(c, 0, 8), UTURN_E_UNSUPPORTED);
    uturn_cursor_free(c);
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    cr_assert(s.online);
    cr_assert_eq(s.levels, 2);
    cr_assert_eq(s.slots, 3 + 5);
    uturn_plan_free(plan);
    /* max_steps: the sweep ends by itself there. */
    plan                     = disk_plan(lv, 2, 77, NULL);
    const struct drive never = drive(plan, 0);
    cr_assert_eq(never.cursor.steps, 77);
    cr_assert_eq(uturn_plan_online_cost(plan, 78, &cost, NULL),
                 UTURN_E_INVALID_ARG);
    uturn_plan_free(plan);
    /* Costs that decrease with the level. */
    const uint64_t bad[2][3] = {{3, 4, 4}, {5, 3, 3}};
    uturn_status_t st        = UTURN_OK;
    cr_assert_null(disk_plan(bad, 2, 0, &st));
    cr_assert_eq(st, UTURN_E_UNSUPPORTED);
    /* A last level too large for a cursor's table of its slots. */
    const uint64_t huge[2][3] = {{3, 0, 0}, {((uint64_t)1 << 24) + 1, 3, 3}};
    cr_assert_null(disk_plan(huge, 2, 0, &st));
    cr_assert_eq(st, UTURN_E_UNSUPPORTED);
    /* Not such a plan. */
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_ONLINE;
    p.slots   = 4;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    cr_assert_eq(uturn_plan_online_cost(plan, 10, &cost, NULL),
                 UTURN_E_UNSUPPORTED);
    uturn_plan_free(plan);
}

static uint64_t fingerprint_of(const uint64_t (*lv)[3], uint64_t max_steps)
{
    uturn_plan_t *plan = disk_plan(lv, 2, max_steps, NULL);
    cr_assert_not_null(plan);
    uint64_t f = 0;
    cr_assert_eq(uturn_plan_fingerprint(plan, &f), UTURN_OK);
    uturn_plan_free(plan);
    return f;
}

Test(online_disk, the_fingerprint_covers_levels_costs_and_max_steps)
{
    const uint64_t base[2][3]  = {{3, 0, 0}, {5, 3, 3}};
    const uint64_t slots[2][3] = {{3, 0, 0}, {6, 3, 3}};
    const uint64_t mem[2][3]   = {{4, 0, 0}, {5, 3, 3}};
    const uint64_t wr[2][3]    = {{3, 0, 0}, {5, 3, 4}};
    const uint64_t f           = fingerprint_of(base, 0);
    cr_assert_eq(f, fingerprint_of(base, 0));
    cr_assert_neq(f, fingerprint_of(slots, 0));
    cr_assert_neq(f, fingerprint_of(mem, 0));
    cr_assert_neq(f, fingerprint_of(wr, 0));
    cr_assert_neq(f, fingerprint_of(base, 100));
}

/* ---- the executor ------------------------------------------------------ */

/* The model that stops where it alone knows: online_stopper.h. */

/* One run through memory and a file level, ended by the model at n: the
 * gradient is the store-all one bit for bit, the disk counts are the
 * validator's, and no file is left. */
static void run_through_file(uturn_executor_t *ex, const uturn_plan_t *plan,
                             uint64_t n, const char *parent)
{
    struct stopper st = {.stop_at = n};
    uturn_model_t m   = st_model(&st);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, &seen, &rep, &err),
                 UTURN_OK, "n %llu: %s", (unsigned long long)n, err.message);
    double want[ST_DIM];
    st_reference(n, want);
    cr_assert_eq(memcmp(st.xbar, want, sizeof want), 0,
                 "n %llu: the gradient differs", (unsigned long long)n);
    cr_assert_eq(rep.steps, n);
    cr_assert_eq(seen.reverse_steps, n);
    const struct drive d = drive(plan, n);
    cr_assert_eq(d.status, UTURN_OK);
    cr_assert_eq(seen.forward_steps, d.seen.forward_steps);
    uturn_level_report_t disk;
    uturn_level_report_init(&disk);
    cr_assert_eq(uturn_executor_level_report(ex, 1, &disk), UTURN_OK);
    cr_assert_eq(disk.stores, d.disk.stores, "n %llu", (unsigned long long)n);
    cr_assert_eq(disk.restores, d.disk.restores);
    cr_assert_eq(scratch_count(parent), 0, "a run left files");
}

/* An executor whose level 1 is a file level under parent. */
static uturn_executor_t *file_executor(const char *parent)
{
    uturn_storage_t file;
    uturn_storage_init(&file);
    file.kind      = UTURN_STORAGE_FILE;
    file.directory = parent;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels             = &file;
    o.level_count        = 1;
    uturn_executor_t *ex = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_open(&o, &ex, &err), UTURN_OK, "%s",
                 err.message);
    return ex;
}

Test(online_disk, the_executor_runs_it_through_a_file_to_the_gradient)
{
    char parent[PATH_MAX];
    cr_assert(scratch_make("/tmp", parent));
    uturn_executor_t *ex    = file_executor(parent);
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    uturn_plan_t *plan      = disk_plan(lv, 2, 600, NULL);
    cr_assert_not_null(plan);
    /* Either side of the first period's end, of the reach without
     * max_steps (where the first doubling comes), and further on. */
    const uint64_t r = small_reach(), p = r / 5;
    const uint64_t ns[] = {1, 2, p - 1, p, p + 1, r - 1, r, r + 1, 137, 600};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        run_through_file(ex, plan, ns[i], parent);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    cr_assert_eq(scratch_count(parent), 0);
    scratch_remove(parent);
}

Test(online_disk, a_run_past_the_reach_fails_and_says_why)
{
    char parent[PATH_MAX];
    cr_assert(scratch_make("/tmp", parent));
    uturn_executor_t *ex    = file_executor(parent);
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    uturn_plan_t *plan      = disk_plan(lv, 2, 0, NULL);
    const uint64_t reach    = small_reach();
    struct stopper st       = {.stop_at = reach + 1};
    uturn_model_t m         = st_model(&st);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t got =
        uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &err);
    cr_assert_eq(got, UTURN_E_INFEASIBLE, "%d %s", got, err.message);
    char stopped[64];
    snprintf(stopped, sizeof stopped, "stopped its first sweep at x_%llu",
             ULL(reach));
    cr_assert(strstr(err.message, stopped) != NULL, "%s", err.message);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    cr_assert_eq(scratch_count(parent), 0);
    scratch_remove(parent);
}

/* A read past the reach finds no action and says why: INFEASIBLE (it
 * was UTURN_OK with count 0, the end of a plan), on every later read. */
Test(online_disk, a_read_past_the_reach_says_infeasible)
{
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    uturn_plan_t *plan      = disk_plan(lv, 2, 0, NULL);
    uturn_cursor_t *c       = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t batch[64];
    size_t count      = 0;
    uint64_t advances = 0;
    uturn_status_t st = UTURN_OK;
    while ((st = uturn_cursor_read(c, batch, 64, &count)) == UTURN_OK &&
           count > 0) {
        for (size_t i = 0; i < count; i++)
            advances += batch[i].op == UTURN_OP_ADVANCE;
        cr_assert_leq(advances, small_reach(), "it ran past its reach");
    }
    cr_assert_eq(st, UTURN_E_INFEASIBLE);
    cr_assert_eq(count, 0);
    cr_assert_eq(advances, small_reach(), "it stopped at the reach");
    cr_assert_eq(uturn_cursor_read(c, batch, 64, &count), UTURN_E_INFEASIBLE);
    cr_assert_eq(count, 0);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}

/* The first sweep up to advance n-1 n, read by read: each read ends at
 * its one advance; the actions go to out. */
static size_t sweep_prefix(const uturn_plan_t *plan, uint64_t n,
                           uturn_action_t *out, size_t cap)
{
    uturn_cursor_t *c = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t batch[64];
    size_t count = 0, kept = 0;
    while (uturn_cursor_read(c, batch, 64, &count) == UTURN_OK && count > 0) {
        size_t advances = 0;
        for (size_t i = 0; i < count; i++) {
            advances += batch[i].op == UTURN_OP_ADVANCE;
            cr_assert_lt(kept, cap);
            out[kept++] = batch[i];
        }
        cr_assert_eq(advances, 1, "a first-sweep read holds one advance");
        cr_assert_eq(batch[count - 1].op, UTURN_OP_ADVANCE,
                     "a first-sweep read ends at its advance");
        if (batch[count - 1].step_end == n)
            break;
    }
    uturn_cursor_free(c);
    return kept;
}

Test(online_disk, the_first_sweep_stops_at_each_advance_and_ignores_n)
{
    const uint64_t lv[2][3] = {{3, 0, 0}, {5, 3, 3}};
    uturn_plan_t *plan      = disk_plan(lv, 2, 3000, NULL);
    enum { CAP = 4096 };
    uturn_action_t *a = calloc(CAP, sizeof *a), *b = calloc(CAP, sizeof *b);
    const uint64_t ends[] = {1, 10, 37, 333, 1500};
    for (size_t j = 0; j < 5; j++) {
        const size_t na = sweep_prefix(plan, ends[j], a, CAP);
        const size_t nb = sweep_prefix(plan, ends[j] + 1000, b, CAP);
        cr_assert_leq(na, nb);
        cr_assert_eq(first_difference(a, b, na), na,
                     "the sweeps for %llu and %llu differ",
                     (unsigned long long)ends[j],
                     (unsigned long long)(ends[j] + 1000));
    }
    free(a);
    free(b);
    uturn_plan_free(plan);
}
