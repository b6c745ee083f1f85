/*
 * Several reverse sweeps (revolve with sweeps = k): against independent
 * truth written out here: an exhaustive search over every action
 * sequence for small n, s and k (the true optimum); brute force over
 * every placement of the persistent checkpoints of the family the planner
 * searches (docs/model.md), with t(l, c) from revolve's own recursion;
 * TwoLevelCheckpointSchedule's forward steps, from its rule, checked on
 * the reference figures; and a validation walk of every plan.
 */
#define _POSIX_C_SOURCE 200809L
#include "counting_alloc.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uturn.h>

/* after Criterion, whose macros it uses */
#include "plan_walk.h"
#include "stats_equal.h"

#define INF UINT64_MAX

/* ---- revolve's recursion: t(l, c) for small l, c -------------------- */

#define TL 64
#define TC 12

/* t(l, c): the fewest steps to reverse l states from a stored first one
 * with c slots (it included): take j steps, store, reverse the right part
 * with c - 1 slots, then the left part with c. */
static uint64_t rec_t(uint64_t l, uint64_t c)
{
    static uint64_t memo[TL + 1][TC + 1];
    cr_assert(l <= TL && c >= 1 && c <= TC);
    if (l <= 1)
        return 0;
    if (c == 1)
        return l * (l - 1) / 2;
    if (memo[l][c] != 0)
        return memo[l][c];
    uint64_t best = INF;
    for (uint64_t j = 1; j < l; j++) {
        const uint64_t v = j + rec_t(l - j, c - 1) + rec_t(j, c);
        best             = v < best ? v : best;
    }
    return memo[l][c] = best;
}

/* ---- the family, by brute force over every placement ---------------- */

/* The cost of lengths L[0..m) (docs/model.md, "Several reverse sweeps"). */
static uint64_t family_cost(const uint64_t *L, uint64_t m, uint64_t s,
                            uint64_t k)
{
    const uint64_t c = s - m + 1;
    uint64_t cost    = k * rec_t(L[m - 1], c);
    for (uint64_t i = 0; i + 1 < m; i++)
        cost += L[i] + (k - 1) * rec_t(L[i], c) + rec_t(L[i], s - i);
    return cost;
}

/* The least cost over every composition of `left` states into the
 * segments from i on (m in all). */
static uint64_t family_rec(uint64_t *L, uint64_t i, uint64_t m, uint64_t left,
                           uint64_t s, uint64_t k)
{
    if (i == m - 1) {
        L[i] = left;
        return family_cost(L, m, s, k);
    }
    uint64_t best = INF;
    for (uint64_t l = 1; l + (m - 1 - i) <= left; l++) {
        L[i]             = l;
        const uint64_t v = family_rec(L, i + 1, m, left - l, s, k);
        best             = v < best ? v : best;
    }
    return best;
}

static uint64_t family_best(uint64_t n, uint64_t s, uint64_t k)
{
    uint64_t L[TC + 1], best = INF;
    const uint64_t se = s < n + 1 ? s : n + 1;
    for (uint64_t m = 1; m <= se; m++) {
        const uint64_t v = family_rec(L, 0, m, n + 1, se, k);
        best             = v < best ? v : best;
    }
    return best;
}

/* ---- the true optimum, by search over every action sequence -------- */

/* A position: the sweep and its next state to reverse (n: the turn), the
 * live state (n + 1: none), the stored states (a bit each). Moves: one
 * step (cost 1), store, restore, free (0), and the turn or the reverse of
 * the target when it is live (0). A 0-1 breadth-first search: a position
 * is queued only when its distance improves, so at most twice. */
struct search {
    uint64_t n, s, k, states;
    uint64_t *dist;
    uint32_t *queue; /* a deque */
    size_t head, tail, cap;
};

static uint32_t pack(const struct search *q, uint64_t sweep, uint64_t target,
                     uint64_t live, uint64_t mask)
{
    return (uint32_t)((((sweep * (q->n + 1) + target) * (q->n + 2) + live)
                       << (q->n + 1)) |
                      mask);
}

static void relax(struct search *q, uint32_t pos, uint64_t d, bool zero)
{
    const uint64_t nd = zero ? d : d + 1;
    if (nd >= q->dist[pos])
        return;
    q->dist[pos] = nd;
    if (zero) {
        q->head           = (q->head + q->cap - 1) % q->cap;
        q->queue[q->head] = pos;
    } else {
        q->queue[q->tail] = pos;
        q->tail           = (q->tail + 1) % q->cap;
    }
}

/* Every move from a position at distance d. */
static void moves(struct search *q, uint64_t sw, uint64_t t, uint64_t live,
                  uint64_t mask, uint64_t d)
{
    const uint64_t n = q->n, none = n + 1;
    const int held = __builtin_popcountll(mask);
    for (uint64_t x = 0; x <= n; x++)
        if (mask >> x & 1) {
            relax(q, pack(q, sw, t, x, mask), d, true); /* restore */
            relax(q, pack(q, sw, t, live, mask & ~(1ull << x)), d,
                  true); /* free */
        }
    if (live != none && !(mask >> live & 1) && (uint64_t)held < q->s)
        relax(q, pack(q, sw, t, live, mask | 1ull << live), d,
              true); /* store */
    if (live == t && t == n)
        relax(q, pack(q, sw, n - 1, live, mask), d, true); /* turn */
    else if (live == t && t == 0)
        relax(q, pack(q, sw + 1, n, none, mask), d, true); /* sweep ends */
    else if (live == t)
        relax(q, pack(q, sw, t - 1, none, mask), d, true); /* reverse */
    if (live != none && live < n)
        relax(q, pack(q, sw, t, live + 1, mask), d, false); /* advance */
}

/* The least forward steps of any plan for k sweeps with s slots. */
static uint64_t optimum(uint64_t n, uint64_t s, uint64_t k)
{
    struct search q = {n, s, k, 0, NULL, NULL, 0, 0, 0};
    q.states        = ((k + 1) * (n + 1) * (n + 2)) << (n + 1);
    q.cap           = (size_t)q.states * 2 + 16;
    q.dist          = malloc(q.states * sizeof *q.dist);
    q.queue         = malloc(q.cap * sizeof *q.queue);
    cr_assert(q.dist != NULL && q.queue != NULL);
    for (uint64_t i = 0; i < q.states; i++)
        q.dist[i] = INF;
    relax(&q, pack(&q, 0, n, 0, 0), 0, true);
    uint64_t answer = INF;
    while (q.head != q.tail && answer == INF) {
        const uint32_t pos  = q.queue[q.head];
        q.head              = (q.head + 1) % q.cap;
        const uint64_t d    = q.dist[pos];
        const uint64_t mask = pos & ((1ull << (n + 1)) - 1);
        uint64_t rest       = pos >> (n + 1);
        const uint64_t live = rest % (n + 2);
        rest /= n + 2;
        const uint64_t t = rest % (n + 1), sw = rest / (n + 1);
        if (sw == k)
            answer = d;
        else
            moves(&q, sw, t, live, mask, d);
    }
    free(q.queue);
    free(q.dist);
    return answer;
}

/* ---- the library's plans -------------------------------------------- */

static uturn_plan_t *make(uint64_t n, uint64_t s, uint64_t k)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = n;
    p.slots            = s;
    p.sweeps           = k;
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    const uturn_status_t st = uturn_plan_create(&p, NULL, &plan, &e);
    cr_assert_eq(st, UTURN_OK, "n=%llu s=%llu k=%llu: %s",
                 (unsigned long long)n, (unsigned long long)s,
                 (unsigned long long)k, e.message);
    return plan;
}

static uint64_t forward_of(uint64_t n, uint64_t s, uint64_t k)
{
    uturn_plan_t *plan = make(n, s, k);
    uturn_stats_t st;
    uturn_stats_init(&st);
    uturn_plan_stats(plan, &st);
    uturn_plan_free(plan);
    return st.forward_steps;
}

/* Walk the plan through the validator; every predicted count holds. */
static void walk_matches(uint64_t n, uint64_t s, uint64_t k)
{
    uturn_plan_t *plan = make(n, s, k);
    uturn_stats_t want, seen;
    uturn_stats_init(&want);
    uturn_stats_init(&seen);
    uturn_plan_stats(plan, &want);
    uturn_error_t e;
    uturn_error_init(&e);
    const uturn_status_t st = uturn_plan_walk(plan, &seen, &e);
    cr_assert_eq(st, UTURN_OK, "n=%llu s=%llu k=%llu: %s",
                 (unsigned long long)n, (unsigned long long)s,
                 (unsigned long long)k, e.message);
    cr_assert_eq(seen.forward_steps, want.forward_steps);
    cr_assert_eq(seen.stores, want.stores);
    cr_assert_eq(seen.restores, want.restores);
    cr_assert_eq(seen.frees, want.frees);
    cr_assert_eq(seen.actions, want.actions);
    cr_assert_eq(seen.peak_slots, want.peak_slots);
    cr_assert_leq(seen.peak_slots, s);
    cr_assert_eq(seen.reverse_steps, k * n);
    cr_assert_eq(seen.sweeps, k);
    cr_assert_eq(seen.persistent, want.persistent);
    uturn_plan_free(plan);
}

Test(sweeps, exhaustive_search_finds_revolve_for_one_sweep)
{
    /* the search itself, against the closed recursion */
    for (uint64_t n = 1; n <= 9; n++)
        for (uint64_t s = 1; s <= 4; s++)
            cr_assert_eq(optimum(n, s, 1), rec_t(n + 1, s < n ? s : n),
                         "n=%llu s=%llu", (unsigned long long)n,
                         (unsigned long long)s);
}

Test(sweeps, the_best_of_the_family_and_never_below_the_optimum)
{
    for (uint64_t n = 1; n <= 9; n++)
        for (uint64_t s = 1; s <= 4; s++)
            for (uint64_t k = 2; k <= 3; k++) {
                const uint64_t got = forward_of(n, s, k);
                cr_assert_eq(got, family_best(n, s, k), "n=%llu s=%llu k=%llu",
                             (unsigned long long)n, (unsigned long long)s,
                             (unsigned long long)k);
                const uint64_t best = optimum(n, s, k);
                cr_assert_geq(got, best);
                /* measured: at most 7.2 % above it here (docs/model.md) */
                cr_assert_leq(got * 1000, best * 1072);
            }
}

Test(sweeps, exact_where_the_family_holds_the_optimum)
{
    /* one slot: the family is the optimum (re-run from x_0 each time);
     * and small chains where the search agrees with it */
    for (uint64_t n = 1; n <= 9; n++)
        for (uint64_t k = 2; k <= 3; k++)
            cr_assert_eq(forward_of(n, 1, k), optimum(n, 1, k));
    cr_assert_eq(forward_of(7, 2, 2), optimum(7, 2, 2));
    cr_assert_eq(forward_of(8, 3, 3), optimum(8, 3, 3));
    /* and where it does not: n = 9, s = 2 (40 against 38) */
    cr_assert_eq(forward_of(9, 2, 2), 40);
    cr_assert_eq(optimum(9, 2, 2), 38);
}

/* ---- a bound on every plan ------------------------------------------ */

/* The least sum over the segments from i on (m in all, `left` states) of
 * t(L_i, s - i): a sweep from m stored states, each freed once the part
 * above it is reversed. */
static uint64_t split_min(uint64_t left, uint64_t i, uint64_t m, uint64_t s)
{
    if (i + 1 == m)
        return rec_t(left, s - i);
    uint64_t best = INF;
    for (uint64_t l = 1; l + (m - 1 - i) <= left; l++) {
        const uint64_t v = rec_t(l, s - i) + split_min(left - l, i + 1, m, s);
        best             = v < best ? v : best;
    }
    return best;
}

/* The cheapest sweep from any s stored states: the least over m. */
static uint64_t sweep_min(uint64_t n, uint64_t s)
{
    uint64_t best = INF;
    for (uint64_t m = 1; m <= s && m <= n + 1; m++) {
        const uint64_t v = split_min(n + 1, 0, m, s);
        best             = v < best ? v : best;
    }
    return best;
}

/* What bench/sweeps_bound.c bounds the grid with: the first forward and
 * sweep 1 take at least one sweep's optimum t(n+1, s), and every later
 * sweep at least the cheapest sweep from any s stored states. Never above
 * the true optimum wherever the search reaches. (A stronger bound, with
 * the family's own sweep for every sweep between the first and the last,
 * held up to k = 4 but an outside review found it above the optimum at
 * n = 9, s = 2, k = 5: 94 against 92; the last case here pins that.) */
Test(sweeps, the_bound_on_every_plan_holds_where_the_search_reaches)
{
    for (uint64_t n = 1; n <= 9; n++)
        for (uint64_t s = 1; s <= 4; s++)
            for (uint64_t k = 2; k <= 4; k++) {
                const uint64_t se = s < n ? s : n;
                const uint64_t bound =
                    rec_t(n + 1, se) + (k - 1) * sweep_min(n, s);
                cr_assert_leq(bound, optimum(n, s, k), "n=%llu s=%llu k=%llu",
                              (unsigned long long)n, (unsigned long long)s,
                              (unsigned long long)k);
            }
    /* the case that refuted the stronger bound, k = 5 */
    cr_assert_eq(optimum(9, 2, 5), 92);
    cr_assert_leq(rec_t(10, 2) + 4 * sweep_min(9, 2), 92);
}

Test(sweeps, brute_force_placement_on_longer_chains)
{
    for (uint64_t n = 10; n <= 24; n += 7)
        for (uint64_t s = 2; s <= 6; s++)
            for (uint64_t k = 2; k <= 5; k += 3)
                cr_assert_eq(forward_of(n, s, k), family_best(n, s, k),
                             "n=%llu s=%llu k=%llu", (unsigned long long)n,
                             (unsigned long long)s, (unsigned long long)k);
}

Test(sweeps, every_plan_on_a_grid_is_valid_and_counted)
{
    for (uint64_t n = 1; n <= 40; n += 3)
        for (uint64_t s = 1; s <= 9; s += 2)
            for (uint64_t k = 2; k <= 4; k++)
                walk_matches(n, s, k);
    walk_matches(1000, 15, 5);
    walk_matches(10000, 70, 10);
    walk_matches(300, 400, 3); /* more slots than states */
}

/* ---- TwoLevelCheckpointSchedule ------------------------------------- */

/* t(l, c) = r l - beta(c + 1, r - 1), r the least with beta(c, r) >= l:
 * the closed form (docs/model.md section 4), written out again. */
static uint64_t beta(uint64_t c, uint64_t r)
{
    unsigned __int128 b = 1;
    for (uint64_t i = 1; i <= r && b < ((unsigned __int128)1 << 100); i++)
        b = b * (c + i) / i;
    return b > INF ? INF : (uint64_t)b;
}

static uint64_t closed_t(uint64_t l, uint64_t c)
{
    if (l <= 1)
        return 0;
    uint64_t r = 1;
    while (beta(c, r) < l)
        r++;
    return r * l - beta(c + 1, r - 1);
}

/* Its forward steps in uturn's count: the first forward runs all n + 1 of
 * its steps; disk checkpoints every P = ceil((n + 1) / disk) states, each
 * period reversed in every sweep by revolve with RAM + 1 snapshots (the
 * disk checkpoint is one). */
static uint64_t twolevel(uint64_t n, uint64_t ram, uint64_t disk, uint64_t k)
{
    const uint64_t P = (n + 1 + disk - 1) / disk;
    uint64_t sweep   = 0;
    for (uint64_t a = 0; a < n + 1; a += P)
        sweep += closed_t(a + P <= n + 1 ? P : n + 1 - a, ram + 1);
    return n + 1 + k * sweep;
}

Test(sweeps, twolevel_reproduces_the_reference_figures)
{
    const uint64_t ks[4]    = {1, 2, 5, 10};
    const uint64_t small[4] = {3805, 6609, 15021, 29041};
    const uint64_t large[4] = {28853, 47705, 104261, 198521};
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(twolevel(1000, 5, 10, ks[i]), small[i]);
        cr_assert_eq(twolevel(10000, 20, 50, ks[i]), large[i]);
    }
}

Test(sweeps, never_more_than_twolevel_on_the_grid)
{
    const uint64_t ns[2] = {1000, 10000}, rams[3] = {5, 10, 20},
                   disks[3] = {10, 20, 50}, ks[4] = {1, 2, 5, 10};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++)
                for (int d = 0; d < 4; d++) {
                    const uint64_t n = ns[a], s = rams[b] + disks[c];
                    const uint64_t ours = forward_of(n, s, ks[d]);
                    const uint64_t theirs =
                        twolevel(n, rams[b], disks[c], ks[d]);
                    cr_assert_leq(ours, theirs, "n=%llu %llu+%llu k=%llu",
                                  (unsigned long long)n,
                                  (unsigned long long)rams[b],
                                  (unsigned long long)disks[c],
                                  (unsigned long long)ks[d]);
                    if (ks[d] == 1) /* one sweep: revolve's optimum */
                        cr_assert_eq(ours, closed_t(n + 1, s));
                }
}

/* ---- what the validator and the parser refuse ----------------------- */

static uturn_status_t check_text(const char *text, char *message)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    const uturn_status_t st =
        uturn_plan_parse(text, strlen(text), NULL, &plan, &e);
    strcpy(message, st == UTURN_OK ? "" : e.message);
    uturn_plan_free(plan);
    return st;
}

#define HEAD "uturn-plan 1\nsteps 2\nslots 2\nsweeps 2\n"
#define SWEEP                                                                  \
    "restore 0 0\nadvance 0 2\nturn\nrestore 0 0\nadvance 0 1\n"               \
    "reverse 1\nrestore 0 0\nreverse 0\n"

Test(sweeps, the_parser_reads_what_the_rules_allow)
{
    char m[256];
    cr_assert_eq(
        check_text(HEAD "store 0 0\npersist 0\n" SWEEP SWEEP "free 0\n", m),
        UTURN_OK, "%s", m);
    /* the same two sweeps, x_0 not marked */
    cr_assert_eq(check_text(HEAD "store 0 0\n" SWEEP SWEEP "free 0\n", m),
                 UTURN_E_INVALID_PLAN);
    cr_assert(strstr(m, "without a persist") != NULL, "%s", m);
    /* one sweep where two are declared */
    cr_assert_eq(check_text(HEAD "store 0 0\npersist 0\n" SWEEP "free 0\n", m),
                 UTURN_E_INVALID_PLAN);
    cr_assert(strstr(m, "after sweep 1 of 2") != NULL, "%s", m);
    /* a second turn before the first sweep is complete */
    cr_assert_eq(check_text(HEAD "store 0 0\npersist 0\nadvance 0 2\nturn\n"
                                 "restore 0 0\nadvance 0 2\nturn\n",
                            m),
                 UTURN_E_INVALID_PLAN);
    cr_assert(strstr(m, "sweep 1 is not complete") != NULL, "%s", m);
    /* an unbounded plan's stream: sweep 1 alone, not a second */
    const char *unbounded = "uturn-plan 1\nsteps 2\nslots 2\nsweeps "
                            "unbounded\nstore 0 0\npersist 0\n";
    char text[512];
    snprintf(text, sizeof text, "%s%sfree 0\n", unbounded, SWEEP);
    cr_assert_eq(check_text(text, m), UTURN_OK, "%s", m);
    snprintf(text, sizeof text, "%s%s%sfree 0\n", unbounded, SWEEP, SWEEP);
    cr_assert_eq(check_text(text, m), UTURN_E_INVALID_PLAN);
    cr_assert(strstr(m, "sweep 1 alone") != NULL, "%s", m);
    /* persist without several sweeps, and on an empty slot */
    cr_assert_eq(check_text("uturn-plan 1\nsteps 1\nslots 1\nstore 0 0\n"
                            "persist 0\nadvance 0 1\nturn\nrestore 0 0\n"
                            "reverse 0\nfree 0\n",
                            m),
                 UTURN_E_INVALID_PLAN);
    cr_assert(strstr(m, "plan of one sweep") != NULL, "%s", m);
    cr_assert_eq(check_text(HEAD "persist 1\n", m), UTURN_E_INVALID_PLAN);
    cr_assert(strstr(m, "slot 1 is empty") != NULL, "%s", m);
    cr_assert_eq(check_text("uturn-plan 1\nsteps 2\nslots 2\nsweeps 1\n"
                            "store 0 0\n",
                            m),
                 UTURN_E_PARSE);
}

Test(sweeps, a_written_plan_parses_to_the_same_counts)
{
    uturn_plan_t *plan = make(30, 4, 3);
    char *text         = NULL;
    size_t len         = 0;
    FILE *f            = open_memstream(&text, &len);
    cr_assert_eq(uturn_plan_write(plan, f, NULL), UTURN_OK);
    fclose(f);
    uturn_plan_t *back = NULL;
    cr_assert_eq(uturn_plan_parse(text, len, NULL, &back, NULL), UTURN_OK);
    uturn_stats_t a, b;
    uturn_stats_init(&a);
    uturn_stats_init(&b);
    uturn_plan_stats(plan, &a);
    uturn_plan_stats(back, &b);
    cr_assert_eq(a.forward_steps, b.forward_steps);
    cr_assert_eq(a.actions, b.actions);
    cr_assert_eq(b.sweeps, 3);
    cr_assert_eq(b.persistent, a.persistent);
    free(text);
    uturn_plan_free(back);
    uturn_plan_free(plan);
}

Test(sweeps, refusals_name_the_limit)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = 5000;
    p.slots            = UTURN_SWEEPS_MAX_SLOTS + 1;
    p.sweeps           = 2;
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(e.message, "1024") != NULL, "%s", e.message);
    p.slots  = 10;
    p.sweeps = (uint64_t)UTURN_SWEEPS_MAX + 1;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(e.message, "at most 1048576 sweeps") != NULL, "%s",
              e.message);
    p.sweeps  = 2;
    p.slots   = 10;
    p.planner = UTURN_PLANNER_PERIODIC;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(e.message, "only revolve") != NULL, "%s", e.message);
    p.planner = UTURN_PLANNER_REVOLVE;
    p.steps   = UINT64_MAX / 3;
    p.sweeps  = 4;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_E_OVERFLOW);
    cr_assert_null(plan);
    /* k n fits, one sweep does not: refused at once, naming it */
    p.steps  = UINT64_MAX / 5;
    p.slots  = 1000;
    p.sweeps = 4;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_E_OVERFLOW);
    cr_assert(strstr(e.message, "one sweep") != NULL, "%s", e.message);
    /* one sweep fits, but every further one recomputes n + 1 - s states
     * at least: 2^20 of them pass 2^64, refused before any search */
    p.steps  = ((uint64_t)1 << 44) - 1;
    p.slots  = 1024;
    p.sweeps = (uint64_t)1 << 20;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_E_OVERFLOW);
    cr_assert(strstr(e.message, "more than 2^64") != NULL, "%s", e.message);
}

/* Three levels plan with hrevolve's segments, which need costs that do
 * not decrease with the level and tables within hrevolve's limits. */
Test(sweeps, three_levels_refused_only_where_hrevolve_would_be)
{
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    uturn_level_t three[3];
    for (int k = 0; k < 3; k++) {
        uturn_level_init(&three[k]);
        three[k].slots      = 4;
        three[k].write_cost = three[k].read_cost = (uint64_t)k;
    }
    three[2].read_cost = 0;
    uturn_problem_t q;
    uturn_problem_init(&q);
    q.steps       = 100;
    q.levels      = three;
    q.level_count = 3;
    q.sweeps      = 2;
    cr_assert_eq(uturn_plan_create(&q, NULL, &plan, &e), UTURN_E_UNSUPPORTED);
    cr_assert(
        strstr(e.message,
               "level 2 (level2) is cheaper to read than level 1 (level1)") !=
            NULL,
        "%s", e.message);
    three[2].read_cost  = 2;
    three[1].write_cost = (uint64_t)1 << 25;
    three[2].write_cost = (uint64_t)1 << 25;
    cr_assert_eq(uturn_plan_create(&q, NULL, &plan, &e), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(e.message, "level 1 (level1)'s write cost is past 2^24") !=
                  NULL,
              "%s", e.message);
    three[1].write_cost = 1;
    three[2].write_cost = 2;
    q.steps             = 1000000;
    cr_assert_eq(uturn_plan_create(&q, NULL, &plan, &e), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(e.message, "past its limits (10^11 split evaluations") !=
                  NULL,
              "%s", e.message);
    q.steps = 100;
    cr_assert_eq(uturn_plan_create(&q, NULL, &plan, &e), UTURN_OK, "%s",
                 e.message);
    uturn_plan_free(plan);
}

/* ---- the executor: k sweeps, k functionals, each gradient bitwise ---- */

#define DIM  4
#define KMAX 5

/* x_{i+1} = x + h sin(x) (1 + i/100) per entry; sweep j's functional is
 * J_j = sum_e w_j[e] x_n[e] with its own weights. */
struct chain {
    double x[DIM], xbar[DIM];
    uint64_t turns, base;   /* turns so far; the first one's functional */
    uint64_t stop_at;       /* online plans: the last state, else 0 */
    double grad[KMAX][DIM]; /* dJ_j/dx_0, kept when sweep j ends */
};

static double weight(uint64_t j, int e)
{
    return 1.0 + 0.5 * (double)j - 0.25 * e;
}

static int chain_forward(void *user, uint64_t i)
{
    struct chain *c = user;
    for (int e = 0; e < DIM; e++)
        c->x[e] += 0.05 * sin(c->x[e]) * (1.0 + (double)i / 100.0);
    return 0;
}

static int chain_turn(void *user)
{
    struct chain *c = user;
    for (int e = 0; e < DIM; e++)
        c->xbar[e] = weight(c->base + c->turns, e);
    c->turns += 1;
    return 0;
}

static int chain_adjoint(void *user, uint64_t i)
{
    struct chain *c = user;
    for (int e = 0; e < DIM; e++)
        c->xbar[e] *= 1.0 + 0.05 * cos(c->x[e]) * (1.0 + (double)i / 100.0);
    if (i == 0)
        memcpy(c->grad[c->turns - 1], c->xbar, sizeof c->xbar);
    return 0;
}

static void start_chain(struct chain *c, uint64_t base)
{
    memset(c, 0, sizeof *c);
    c->base = base;
    for (int e = 0; e < DIM; e++)
        c->x[e] = 0.3 + 0.2 * e;
}

/* Asked by online plans only: the state the run sets as its last. */
static int chain_is_last(void *user, uint64_t step)
{
    return step == ((struct chain *)user)->stop_at;
}

static uturn_model_t chain_model(struct chain *c)
{
    uturn_model_t m;
    uturn_model_init(&m);
    m.is_last     = chain_is_last;
    m.user        = c;
    m.forward     = chain_forward;
    m.turn        = chain_turn;
    m.adjoint     = chain_adjoint;
    m.state       = c->x;
    m.state_bytes = sizeof c->x;
    return m;
}

/* Run options that hold the trajectory for further sweeps. */
static uturn_run_options_t on_request(void)
{
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.sweeps_on_request = true;
    return o;
}

static void run_chain(const uturn_plan_t *plan, struct chain *c, uint64_t base,
                      uturn_stats_t *seen)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    const uturn_model_t m = chain_model(c);
    start_chain(c, base);
    uturn_error_t e;
    uturn_error_init(&e);
    const uturn_status_t st =
        uturn_executor_run(ex, plan, &m, NULL, seen, NULL, &e);
    cr_assert_eq(st, UTURN_OK, "%s", e.message);
    uturn_executor_free(ex);
}

/* Functional j's gradient from a store-all run of it alone. */
static void store_all_gradient(uint64_t n, uint64_t j, double out[DIM])
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_STORE_ALL;
    p.steps            = n;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    struct chain one;
    run_chain(plan, &one, j, NULL);
    memcpy(out, one.grad[0], sizeof one.grad[0]);
    uturn_plan_free(plan);
}

/* J_j at x_0 + h d, by running the chain forward alone. */
static double objective(uint64_t n, uint64_t j, const double *d, double h)
{
    struct chain c;
    start_chain(&c, 0);
    for (int e = 0; e < DIM; e++)
        c.x[e] += h * d[e];
    for (uint64_t i = 0; i < n; i++)
        chain_forward(&c, i);
    double J = 0;
    for (int e = 0; e < DIM; e++)
        J += weight(j, e) * c.x[e];
    return J;
}

/* Central differences in one direction agree with sweep j's gradient. */
static void finite_differences(uint64_t n, uint64_t j, const double *grad)
{
    const double d[DIM] = {0.31, -0.77, 0.52, 0.18}, h = 1e-6;
    const double fd =
        (objective(n, j, d, h) - objective(n, j, d, -h)) / (2 * h);
    double ad = 0;
    for (int e = 0; e < DIM; e++)
        ad += grad[e] * d[e];
    cr_assert(fabs(fd - ad) <= 1e-6 * fabs(ad), "sweep %llu: fd %.12g ad %.12g",
              (unsigned long long)j, fd, ad);
}

Test(sweeps, the_executor_gives_each_sweep_its_store_all_gradient)
{
    const uint64_t n = 60, k = 3;
    uturn_plan_t *plan = make(n, 5, k);
    struct chain got;
    uturn_stats_t seen, planned;
    uturn_stats_init(&seen);
    uturn_stats_init(&planned);
    run_chain(plan, &got, 0, &seen);
    uturn_plan_stats(plan, &planned);
    cr_assert_eq(got.turns, k);
    stats_expect_equal(&seen, &planned, "every sweep in one run");
    cr_assert_eq(seen.reverse_steps, k * n);
    /* truth: one store-all sweep per functional, each a fresh run */
    for (uint64_t j = 0; j < k; j++) {
        double truth[DIM];
        store_all_gradient(n, j, truth);
        cr_assert_eq(memcmp(got.grad[j], truth, sizeof truth), 0, "sweep %llu",
                     (unsigned long long)j);
        finite_differences(n, j, got.grad[j]);
    }
    uturn_plan_free(plan);
}

/* The chain whose adjoint fails at step `step` of sweep `sweep`. */
struct failing {
    struct chain c; /* first: the chain's callbacks take the same pointer */
    uint64_t sweep, step;
};

static int failing_adjoint(void *user, uint64_t i)
{
    struct failing *f = user;
    if (f->c.turns == f->sweep && i == f->step)
        return -1;
    return chain_adjoint(user, i);
}

/* A run of every sweep in one call that fails part way reports the
 * sweeps it finished, not 0 (it had said 0 whenever a call failed). */
Test(sweeps, a_failed_run_reports_the_sweeps_it_finished)
{
    const uint64_t n = 60, k = 3, steps[] = {n - 1, 30, 0};
    uturn_plan_t *plan = make(n, 5, k);
    for (uint64_t j = 1; j <= k; j++) {
        for (int t = 0; t < 3; t++) {
            struct failing f = {.sweep = j, .step = steps[t]};
            uturn_model_t m  = chain_model(&f.c);
            m.adjoint        = failing_adjoint;
            start_chain(&f.c, 0);
            uturn_executor_t *ex = NULL;
            cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
            uturn_report_t r;
            uturn_report_init(&r);
            cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, &r, NULL),
                         UTURN_E_CALLBACK);
            cr_assert_eq(r.sweeps_done, j - 1, "failed in sweep %llu at %llu",
                         (unsigned long long)j, (unsigned long long)steps[t]);
            cr_assert(!r.trajectory_held);
            uturn_executor_free(ex);
        }
    }
    uturn_plan_free(plan);
}

/* ---- sweeps on request ---------------------------------------------- */

/* Start a run of plan on request: the first forward and sweep 1. */
static uturn_executor_t *begin(const uturn_plan_t *plan, struct chain *c,
                               uturn_report_t *r)
{
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    const uturn_model_t m       = chain_model(c);
    const uturn_run_options_t o = on_request();
    start_chain(c, 0);
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, r, &e), UTURN_OK,
                 "%s", e.message);
    return ex;
}

/* A model whose size is less than any uturn_model_t's is refused as
 * such, by a run and by a further sweep (the sweep had said its forward
 * was not the run's). */
Test(sweeps, a_model_too_small_is_named)
{
    uturn_plan_t *plan = make(30, 4, 3);
    struct chain c;
    uturn_report_t r;
    uturn_report_init(&r);
    uturn_executor_t *ex = begin(plan, &c, &r);
    uturn_model_t m      = chain_model(&c);
    m.size               = 8;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, &r, &e),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(e.message, "the model's size is 8 bytes") != NULL, "%s",
              e.message);
    uturn_executor_release(ex);
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &e),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(e.message, "the model's size is 8 bytes") != NULL, "%s",
              e.message);
    m.size = 0; /* 0: the whole struct, as before */
    start_chain(&c, 0);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &e),
                 UTURN_OK, "%s", e.message);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

Test(sweeps, on_request_each_sweep_when_asked)
{
    const uint64_t n = 60, k = 4;
    uturn_plan_t *plan = make(n, 6, k);
    struct chain c;
    uturn_report_t r;
    uturn_report_init(&r);
    uturn_executor_t *ex = begin(plan, &c, &r);
    cr_assert_eq(c.turns, 1);
    cr_assert(r.trajectory_held);
    cr_assert_eq(r.sweeps_done, 1);
    const uturn_model_t m = chain_model(&c);
    uturn_stats_t seen, planned;
    uturn_stats_init(&seen);
    uturn_stats_init(&planned);
    uturn_plan_stats(plan, &planned);
    uint64_t forward = r.sweep_forward_steps;
    for (uint64_t j = 2; j <= k; j++) {
        cr_assert_eq(uturn_executor_sweep(ex, &m, &seen, &r, NULL), UTURN_OK);
        cr_assert_eq(c.turns, j);
        cr_assert_eq(r.sweeps_done, j);
        cr_assert_eq(r.trajectory_held, j < k);
        forward += r.sweep_forward_steps;
        cr_assert_eq(seen.forward_steps, forward);
        if (j < k) /* a sweep between the first and the last */
            cr_assert_eq(r.sweep_forward_steps, planned.sweep_forward_steps);
    }
    stats_expect_equal(&seen, &planned, "the last sweep on request");
    cr_assert_eq(seen.reverse_steps, k * n);
    /* the trajectory is gone: a fifth sweep is refused */
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, NULL, &e),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(e.message, "holds no trajectory") != NULL, "%s",
              e.message);
    /* and every sweep's gradient is its functional's store-all one */
    for (uint64_t j = 0; j < k; j++) {
        double truth[DIM];
        store_all_gradient(n, j, truth);
        cr_assert_eq(memcmp(c.grad[j], truth, sizeof truth), 0);
    }
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* The same gradient asked for five times at the same control: the same
 * bits each time (each sweep seeds the same functional). */
static int same_turn(void *user)
{
    struct chain *c = user;
    for (int e = 0; e < DIM; e++)
        c->xbar[e] = weight(0, e);
    c->turns += 1;
    return 0;
}

Test(sweeps, the_same_gradient_five_times_is_the_same_bits)
{
    uturn_plan_t *plan = make(200, 8, 5);
    struct chain c;
    uturn_executor_t *ex = begin(plan, &c, NULL);
    uturn_model_t m      = chain_model(&c);
    m.turn               = same_turn; /* sweep 1 seeded weight(0) too */
    for (int j = 1; j < 5; j++)
        cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, NULL, NULL), UTURN_OK);
    cr_assert_eq(c.turns, 5);
    for (int j = 1; j < 5; j++)
        cr_assert_eq(memcmp(c.grad[j], c.grad[0], sizeof c.grad[0]), 0);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* With two sweeps no sweep lies between the first and the last (the
 * on-request test above checks those of four against their reports). */
Test(sweeps, two_sweeps_have_no_sweep_between)
{
    for (uint64_t s = 2; s <= 6; s++) {
        uturn_plan_t *plan = make(40, s, 2);
        uturn_stats_t st;
        uturn_stats_init(&st);
        uturn_plan_stats(plan, &st);
        cr_assert_eq(st.sweep_forward_steps, 0, "s=%llu",
                     (unsigned long long)s);
        uturn_plan_free(plan);
        plan = make(40, s, 3);
        uturn_stats_init(&st);
        uturn_plan_stats(plan, &st);
        cr_assert_gt(st.sweep_forward_steps, 0);
        uturn_plan_free(plan);
    }
}

/* Stand-ins for the callbacks of a model that is not the run's. */
static int other_forward(void *user, uint64_t step)
{
    (void)user, (void)step;
    return 0;
}

static int other_save(void *user, uint64_t step, void *dst, uint64_t bytes)
{
    (void)user, (void)step, (void)dst, (void)bytes;
    return 0;
}

static int other_load(void *user, uint64_t step, const void *src,
                      uint64_t bytes)
{
    (void)user, (void)step, (void)src, (void)bytes;
    return 0;
}

static uint64_t other_size(void *user, uint64_t step)
{
    (void)user, (void)step;
    return 8;
}

static int other_record(void *user, uint64_t step, void *record, bool again)
{
    (void)user, (void)step, (void)record, (void)again;
    return 0;
}

/* Each field of the run's forward side changed alone, and a missing turn
 * or adjoint: refused by uturn_executor_sweep, naming that field. */
static void refused_models_are_named(uturn_executor_t *ex,
                                     const uturn_model_t *m)
{
    static const char *names[] = {
        "forward",      "forward_record", "record_bytes", "state",
        "state_bytes",  "save",           "load",         "state_size",
        "turn is NULL", "adjoint is NULL"};
    double elsewhere = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        uturn_model_t o = *m;
        switch (k) {
        case 0:
            o.forward = other_forward;
            break;
        case 1:
            o.forward_record = other_record;
            break;
        case 2:
            o.record_bytes = 8;
            break;
        case 3:
            o.state = &elsewhere;
            break;
        case 4:
            o.state_bytes = 8;
            break;
        case 5:
            o.save = other_save;
            break;
        case 6:
            o.load = other_load;
            break;
        case 7:
            o.state_size = other_size;
            break;
        case 8:
            o.turn = NULL;
            break;
        default:
            o.adjoint = NULL;
            break;
        }
        uturn_error_t e;
        uturn_error_init(&e);
        cr_assert_eq(uturn_executor_sweep(ex, &o, NULL, NULL, &e),
                     UTURN_E_INVALID_ARG, "%s", names[k]);
        char want[64];
        snprintf(want, sizeof want, k < 8 ? "model's %s is not" : "model's %s",
                 names[k]);
        cr_assert(strstr(e.message, want) != NULL, "%s: %s", names[k],
                  e.message);
    }
}

Test(sweeps, a_held_trajectory_is_kept_within_the_budget_and_released)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = 100;
    p.slot_bytes       = sizeof(double) * DIM;
    p.budget_bytes     = 7 * p.slot_bytes;
    p.sweeps           = 3;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    struct chain c;
    uturn_report_t r;
    uturn_report_init(&r);
    uturn_executor_t *ex = begin(plan, &c, &r);
    cr_assert_leq(uturn_executor_held_bytes(ex), r.budget_bytes);
    cr_assert_geq(uturn_executor_held_bytes(ex), r.planned_peak_bytes);
    /* another run while the trajectory is held is refused */
    const uturn_model_t m = chain_model(&c);
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, &e),
                 UTURN_E_INVALID_ARG);
    cr_assert(strstr(e.message, "holds the trajectory") != NULL, "%s",
              e.message);
    /* a forward that is not the run's is refused, naming what differs,
     * the trajectory kept */
    refused_models_are_named(ex, &m);
    cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, &r, NULL), UTURN_OK);
    cr_assert(r.trajectory_held);
    cr_assert_leq(r.measured_peak_bytes, r.budget_bytes);
    uturn_executor_release(ex); /* the third sweep is not wanted */
    cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, NULL, NULL),
                 UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, NULL),
                 UTURN_OK); /* a whole run again, all sweeps at once */
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* The trajectory cannot be held (the run's own allocation, its first,
 * fails): the run says so in its status and its report, before any
 * callback, and nothing is left held. */
Test(sweeps, a_trajectory_that_cannot_be_held_is_reported_released)
{
    uturn_plan_t *plan = make(50, 4, 2);
    struct chain c;
    counting_alloc_t counts;
    memset(&counts, 0, sizeof counts);
    uturn_allocator_t alloc = counting_allocator(&counts);
    uturn_executor_t *ex    = NULL;
    cr_assert_eq(uturn_executor_create(&alloc, &ex, NULL), UTURN_OK);
    counts.fail_at              = counts.total_allocs + 1; /* the run's first */
    const uturn_run_options_t o = on_request();
    const uturn_model_t m       = chain_model(&c);
    start_chain(&c, 0);
    uturn_report_t r;
    uturn_report_init(&r);
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, &r, &e),
                 UTURN_E_NOMEM);
    cr_assert(strstr(e.message, "hold the trajectory") != NULL, "%s",
              e.message);
    cr_assert(!r.trajectory_held && r.status == UTURN_E_NOMEM);
    cr_assert_eq(c.turns, 0); /* before any callback */
    cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, NULL, NULL),
                 UTURN_E_INVALID_ARG);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, NULL),
                 UTURN_OK);
    uturn_executor_free(ex);
    cr_assert_eq(counts.live_blocks, 0);
    uturn_plan_free(plan);
}

static uint64_t progress_total;

static int note_total(void *user, uint64_t reversed, uint64_t steps)
{
    (void)user;
    cr_assert_leq(reversed, steps);
    progress_total = steps;
    return 0;
}

Test(sweeps, the_old_progress_counts_every_sweep)
{
    uturn_plan_t *plan = make(10, 3, 3);
    struct chain c;
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.progress            = note_total;
    const uturn_model_t m = chain_model(&c);
    start_chain(&c, 0);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, NULL, NULL),
                 UTURN_OK);
    cr_assert_eq(progress_total, 30);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

Test(sweeps, the_unmarked_slot_is_named_past_2_to_the_20)
{
    char m[256];
    cr_assert_eq(check_text("uturn-plan 1\nsteps 1\nslots 3000001\nsweeps 2\n"
                            "store 0 1048576\npersist 1048576\nadvance 0 1\n"
                            "store 1 3000000\nturn\nrestore 0 1048576\n"
                            "reverse 0\n",
                            m),
                 UTURN_E_INVALID_PLAN);
    cr_assert(strstr(m, "slot 3000000 holds x_1") != NULL, "%s", m);
}

Test(sweeps, a_parsed_plan_of_several_sweeps_runs_whole_not_on_request)
{
    const char text[]  = HEAD "store 0 0\npersist 0\n" SWEEP SWEEP "free 0\n";
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_parse(text, strlen(text), NULL, &plan, NULL),
                 UTURN_OK);
    struct chain c;
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    const uturn_run_options_t o = on_request();
    const uturn_model_t m       = chain_model(&c);
    uturn_error_t e;
    uturn_error_init(&e);
    start_chain(&c, 0);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, NULL, &e),
                 UTURN_E_UNSUPPORTED);
    cr_assert(strstr(e.message, "parsed plan") != NULL, "%s", e.message);
    cr_assert_eq(c.turns, 0); /* refused before any callback */
    start_chain(&c, 0);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, NULL, NULL, NULL),
                 UTURN_OK);
    cr_assert_eq(c.turns, 2);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* ---- an open number of sweeps ---------------------------------------- */

Test(sweeps, unbounded_each_further_sweep_on_request_until_released)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = 80;
    p.slots            = 6;
    p.sweeps           = UTURN_SWEEPS_UNBOUNDED;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_stats_t st, seen;
    uturn_stats_init(&st);
    uturn_stats_init(&seen);
    uturn_plan_stats(plan, &st);
    cr_assert_eq(st.sweeps, UTURN_SWEEPS_UNBOUNDED);
    /* the stream (first forward, sweep 1, the frees) is a valid plan */
    cr_assert_eq(uturn_plan_walk(plan, &seen, NULL), UTURN_OK);
    stats_expect_equal(&seen, &st, "an unbounded plan's stream");
    struct chain c;
    uturn_report_t r;
    uturn_report_init(&r);
    uturn_executor_t *ex  = begin(plan, &c, &r);
    const uturn_model_t m = chain_model(&c);
    for (uint64_t j = 2; j <= KMAX; j++) {
        cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, &r, NULL), UTURN_OK);
        cr_assert(r.trajectory_held && r.sweeps_done == j);
        cr_assert_eq(r.sweep_forward_steps, st.sweep_forward_steps);
        double truth[DIM];
        store_all_gradient(80, j - 1, truth);
        cr_assert_eq(memcmp(c.grad[j - 1], truth, sizeof truth), 0);
    }
    uturn_executor_release(ex);
    cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, NULL, NULL),
                 UTURN_E_INVALID_ARG);
    /* every sweep in one call: the stream, one sweep */
    start_chain(&c, 0);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, &seen, &r, NULL),
                 UTURN_OK);
    cr_assert(c.turns == 1 && r.sweeps_done == 1 && !r.trajectory_held);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* The last progress a run reported, of both kinds. */
struct progress_seen {
    uint64_t reversed, steps, done, total;
};

static int saw_reversed(void *user, uint64_t reversed, uint64_t steps)
{
    struct progress_seen *p = user;
    p->reversed             = reversed;
    p->steps                = steps;
    return 0;
}

static int saw_work(void *user, const uturn_progress_t *w)
{
    struct progress_seen *p = user;
    p->done                 = w->done;
    p->total                = w->total;
    return 0;
}

/* Each sweep asked of an unbounded plan joins the totals that progress
 * reports: at its end, k n of k n reverse steps and the work done equal
 * to the work predicted, both what the run observed. */
Test(sweeps, unbounded_progress_counts_the_sweeps_asked_for)
{
    const uint64_t n   = 80;
    uturn_plan_t *plan = make(n, 6, UTURN_SWEEPS_UNBOUNDED);
    struct chain c;
    struct progress_seen ps = {0, 0, 0, 0};
    uturn_run_options_t o   = on_request();
    o.progress              = saw_reversed;
    o.progress_user         = &ps;
    o.on_progress           = saw_work;
    o.on_progress_user      = &ps;
    uturn_executor_t *ex    = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    const uturn_model_t m = chain_model(&c);
    start_chain(&c, 0);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, &seen, NULL, NULL),
                 UTURN_OK);
    for (uint64_t k = 1; k <= 5; k++) {
        if (k > 1)
            cr_assert_eq(uturn_executor_sweep(ex, &m, &seen, NULL, NULL),
                         UTURN_OK);
        cr_assert_eq(seen.reverse_steps, k * n);
        cr_assert(ps.reversed == k * n && ps.steps == k * n,
                  "sweep %llu: %llu of %llu", (unsigned long long)k,
                  (unsigned long long)ps.reversed,
                  (unsigned long long)ps.steps);
        cr_assert(ps.done == seen.forward_steps + k * n && ps.total == ps.done,
                  "sweep %llu: done %llu of %llu", (unsigned long long)k,
                  (unsigned long long)ps.done, (unsigned long long)ps.total);
    }
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

Test(sweeps, unbounded_further_sweeps_cost_no_more_than_twolevel)
{
    const uint64_t ns[2] = {1000, 10000}, rams[3] = {5, 10, 20},
                   disks[3] = {10, 20, 50};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++)
            for (int d = 0; d < 3; d++) {
                uturn_problem_t p;
                uturn_problem_init(&p);
                p.steps                = ns[a];
                p.slots                = rams[b] + disks[d];
                p.sweeps               = UTURN_SWEEPS_UNBOUNDED;
                const uturn_stats_t st = plan_stats_of(&p);
                /* TwoLevel's sweep: its total for 2 sweeps less for 1 */
                const uint64_t theirs = twolevel(ns[a], rams[b], disks[d], 2) -
                                        twolevel(ns[a], rams[b], disks[d], 1);
                cr_assert_leq(st.sweep_forward_steps, theirs,
                              "n=%llu %llu+%llu", (unsigned long long)ns[a],
                              (unsigned long long)rams[b],
                              (unsigned long long)disks[d]);
            }
}

Test(sweeps, an_unbounded_plan_in_text)
{
    char m[256];
    cr_assert_eq(check_text("uturn-plan 1\nsteps 2\nslots 2\nsweeps unbounded\n"
                            "store 0 0\npersist 0\n" SWEEP "free 0\n",
                            m),
                 UTURN_OK, "%s", m);
    /* one sweep, then the persistent slot must be freed: the end rule */
    cr_assert_eq(check_text("uturn-plan 1\nsteps 2\nslots 2\nsweeps unbounded\n"
                            "store 0 0\npersist 0\n" SWEEP,
                            m),
                 UTURN_E_INVALID_PLAN);
    cr_assert(strstr(m, "still held") != NULL, "%s", m);
}

/* ---- two storage levels ----------------------------------------------- */

static uturn_problem_t two_levels(uint64_t n, uint64_t c0, uint64_t c1,
                                  uint64_t w, uint64_t k, uturn_level_t *lv)
{
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].slots      = c0;
    lv[1].slots      = c1;
    lv[1].write_cost = w;
    lv[1].read_cost  = w + 1;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps       = n;
    p.levels      = lv;
    p.level_count = 2;
    p.sweeps      = k;
    return p;
}

Test(sweeps, every_plan_on_two_levels_is_valid_and_counted)
{
    const uint64_t ks[3] = {2, 3, UTURN_SWEEPS_UNBOUNDED};
    for (uint64_t n = 1; n <= 31; n += 5)
        for (uint64_t c0 = 1; c0 <= 3; c0++)
            for (uint64_t c1 = 1; c1 <= 5; c1 += 2)
                for (uint64_t w = 0; w <= 60; w += 30)
                    for (int j = 0; j < 3; j++) {
                        uturn_level_t lv[2];
                        const uturn_problem_t p =
                            two_levels(n, c0, c1, w, ks[j], lv);
                        plan_walk_as_planned(&p);
                    }
}

/* The plan on two levels costs no more than the same sweeps on memory
 * alone; with free disk I/O (TwoLevel's figures count forward steps
 * only), it takes no more forward steps than TwoLevel with the same RAM
 * and disk slots. */
Test(sweeps, two_levels_never_cost_more_than_memory_alone_or_twolevel)
{
    const uint64_t rams[3] = {5, 10, 20}, disks[3] = {10, 20, 50};
    for (int b = 0; b < 3; b++)
        for (int d = 0; d < 3; d++)
            for (uint64_t k = 2; k <= 10; k += 8) {
                uturn_level_t lv[2];
                uturn_problem_t p =
                    two_levels(1000, rams[b], disks[d], 3, k, lv);
                cr_assert_leq(plan_stats_of(&p).cost,
                              forward_of(1000, rams[b], k));
                lv[1].write_cost = lv[1].read_cost = 0;
                cr_assert_leq(plan_stats_of(&p).forward_steps,
                              twolevel(1000, rams[b], disks[d], k));
            }
}

/* Two levels run by the executor, the further one in files: every
 * sweep's gradient (on request) is its functional's store-all one, the
 * counts are the plan's, and nothing is left in the directory. */
Test(sweeps, two_levels_in_files_give_each_sweep_its_gradient)
{
    char parent[] = "/tmp/uturn-sweeps-XXXXXX";
    cr_assert_not_null(mkdtemp(parent));
    uturn_storage_t level;
    uturn_storage_init(&level);
    level.kind      = UTURN_STORAGE_FILE;
    level.directory = parent;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels             = &level;
    o.level_count        = 1;
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(&o, &ex, NULL), UTURN_OK);
    uturn_level_t lv[2];
    uturn_problem_t p  = two_levels(60, 3, 5, 1, 3, lv);
    p.slot_bytes       = sizeof(double) * DIM;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_executor_plan(ex, &p, &plan, NULL), UTURN_OK);
    uturn_stats_t st, seen;
    uturn_stats_init(&st);
    uturn_stats_init(&seen);
    uturn_plan_stats(plan, &st);
    struct chain c;
    const uturn_run_options_t ro = on_request();
    const uturn_model_t m        = chain_model(&c);
    start_chain(&c, 0);
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &ro, &seen, NULL, &e),
                 UTURN_OK, "%s", e.message);
    for (int j = 2; j <= 3; j++)
        cr_assert_eq(uturn_executor_sweep(ex, &m, &seen, NULL, &e), UTURN_OK,
                     "%s", e.message);
    stats_expect_equal(&seen, &st, "two levels, the last sweep");
    for (uint64_t j = 0; j < 3; j++) {
        double truth[DIM];
        store_all_gradient(60, j, truth);
        cr_assert_eq(memcmp(c.grad[j], truth, sizeof truth), 0);
    }
    uturn_executor_free(ex);
    uturn_plan_free(plan);
    cr_assert_eq(rmdir(parent), 0, "the run left files in %s", parent);
}

/* Three levels run by the executor, the two further ones in files
 * (hrevolve's segments, bases on the last level): every sweep's gradient
 * is its functional's store-all one, the counts are the plan's, and
 * nothing is left in either directory. */
Test(sweeps, three_levels_in_files_give_each_sweep_its_gradient)
{
    char dirs[2][32] = {"/tmp/uturn-sw3a-XXXXXX", "/tmp/uturn-sw3b-XXXXXX"};
    uturn_storage_t level[2];
    for (int j = 0; j < 2; j++) {
        cr_assert_not_null(mkdtemp(dirs[j]));
        uturn_storage_init(&level[j]);
        level[j].kind      = UTURN_STORAGE_FILE;
        level[j].directory = dirs[j];
    }
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels             = level;
    o.level_count        = 2;
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(&o, &ex, NULL), UTURN_OK);
    uturn_level_t lv[3];
    uturn_problem_t p = two_levels(60, 2, 3, 1, 3, lv);
    uturn_level_init(&lv[2]);
    lv[2].slots      = 4;
    lv[2].write_cost = lv[2].read_cost = 5;
    p.level_count                      = 3;
    p.slot_bytes                       = sizeof(double) * DIM;
    uturn_plan_t *plan                 = NULL;
    cr_assert_eq(uturn_executor_plan(ex, &p, &plan, NULL), UTURN_OK);
    uturn_stats_t st, seen;
    uturn_stats_init(&st);
    uturn_stats_init(&seen);
    uturn_plan_stats(plan, &st);
    uturn_level_stats_t middle, last;
    uturn_level_stats_init(&middle);
    uturn_level_stats_init(&last);
    uturn_plan_level_stats(plan, 1, &middle);
    uturn_plan_level_stats(plan, 2, &last);
    cr_assert(last.stores >= st.persistent && middle.stores > 0,
              "the bases on level 2, level 1 in use too");
    struct chain c;
    const uturn_model_t m = chain_model(&c);
    start_chain(&c, 0);
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, &seen, NULL, &e),
                 UTURN_OK, "%s", e.message);
    stats_expect_equal(&seen, &st, "three levels");
    for (uint64_t j = 0; j < 3; j++) {
        double truth[DIM];
        store_all_gradient(60, j, truth);
        cr_assert_eq(memcmp(c.grad[j], truth, sizeof truth), 0, "sweep %llu",
                     (unsigned long long)j);
    }
    uturn_executor_free(ex);
    uturn_plan_free(plan);
    for (int j = 0; j < 2; j++)
        cr_assert_eq(rmdir(dirs[j]), 0, "the run left files in %s", dirs[j]);
}

/* ---- online plans of several sweeps ---------------------------------- */

static uturn_plan_t *make_online(uint64_t s, uint64_t k, uint64_t max_steps)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.slots            = s;
    p.sweeps           = k;
    p.max_steps        = max_steps;
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_OK,
                 "s=%llu k=%llu: %s", (unsigned long long)s,
                 (unsigned long long)k, e.message);
    return plan;
}

/* What the stream holds at its first turn: the step in each slot (or
 * INF), and whether a persist marked it. */
struct at_turn {
    uint64_t step[UTURN_SWEEPS_MAX_SLOTS];
    bool marked[UTURN_SWEEPS_MAX_SLOTS];
    bool turned;
};

static void follow(struct at_turn *t, const uturn_action_t *a)
{
    if (t->turned)
        return;
    if (a->op == UTURN_OP_STORE)
        t->step[a->slot] = a->step;
    else if (a->op == UTURN_OP_FREE)
        t->step[a->slot] = INF, t->marked[a->slot] = false;
    else if (a->op == UTURN_OP_PERSIST)
        t->marked[a->slot] = true;
    else if (a->op == UTURN_OP_TURN)
        t->turned = true;
}

/* The plan's stream through a cursor, the end said at n, every action
 * through a validator told k sweeps and n at the end; its forward steps
 * (the cursor's and the validator's, which must agree); what it held at
 * its first turn into *t (may be NULL). */
static uint64_t online_walk_at(const uturn_plan_t *plan, uint64_t s, uint64_t k,
                               uint64_t n, struct at_turn *t,
                               uturn_stats_t *counted)
{
    uturn_problem_t vp;
    uturn_problem_init(&vp);
    vp.slots             = s;
    vp.sweeps            = k;
    uturn_validator_t *v = NULL;
    uturn_cursor_t *c    = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_validator_create(&vp, NULL, &v, &e), UTURN_OK, "%s",
                 e.message);
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t a[64];
    size_t got = 0;
    bool ended = false;
    if (t != NULL) {
        memset(t, 0, sizeof *t);
        for (uint64_t i = 0; i < s; i++)
            t->step[i] = INF;
    }
    while (uturn_cursor_read(c, a, 64, &got) == UTURN_OK && got > 0) {
        for (size_t i = 0; i < got && t != NULL; i++)
            follow(t, &a[i]);
        for (size_t i = 0; i < got; i++)
            cr_assert_eq(uturn_validator_push(v, &a[i], &e), UTURN_OK,
                         "s=%llu k=%llu n=%llu: %s", (unsigned long long)s,
                         (unsigned long long)k, (unsigned long long)n,
                         e.message);
        if (!ended && a[got - 1].op == UTURN_OP_ADVANCE &&
            a[got - 1].step_end == n) {
            cr_assert_eq(uturn_cursor_end(c), UTURN_OK);
            cr_assert_eq(uturn_validator_set_steps(v, n, NULL), UTURN_OK);
            ended = true;
        }
    }
    cr_assert(ended);
    uturn_stats_t seen, mine, *cs = counted != NULL ? counted : &mine;
    uturn_stats_init(&seen);
    uturn_stats_init(cs);
    cr_assert_eq(uturn_validator_finish(v, &seen, &e), UTURN_OK,
                 "s=%llu k=%llu n=%llu: %s", (unsigned long long)s,
                 (unsigned long long)k, (unsigned long long)n, e.message);
    cr_assert_eq(uturn_cursor_stats(c, cs), UTURN_OK);
    /* the cursor's realised counts are the validator's */
    cr_assert_eq(cs->forward_steps, seen.forward_steps);
    cr_assert_eq(cs->persistent, seen.persistent);
    cr_assert_eq(cs->sweeps, k);
    cr_assert_eq(cs->stores, seen.stores);
    cr_assert_eq(cs->reverse_steps, seen.reverse_steps);
    const bool open = k == UTURN_SWEEPS_UNBOUNDED;
    cr_assert_eq(seen.reverse_steps, (open ? 1 : k) * n);
    uturn_cursor_free(c);
    uturn_validator_free(v);
    return seen.forward_steps;
}

static uint64_t online_walk(const uturn_plan_t *plan, uint64_t s, uint64_t k,
                            uint64_t n)
{
    return online_walk_at(plan, s, k, n, NULL, NULL);
}

/* The forward steps of keeping, after the first forward of n steps, the
 * marked of the held checkpoints h[0 .. K-1] (positions, increasing;
 * h[0] = 0, always marked): sweep 1 reverses the range from h[j] by
 * revolve with s - j slots less the marked above it; the k - 1 sweeps
 * after it are the family's (docs/model.md section 13) over the marked,
 * with no first forward: c = s' - m + 1, s' = min(s, n + 1), every
 * segment (k - 2) t(L, c) + t(L, s' - i) and the top (k - 1) t(L, c).
 * Everything from closed_t, written out here. */
static uint64_t kept_forward(const uint64_t *h, const bool *marked, uint64_t K,
                             uint64_t s, uint64_t k, uint64_t n)
{
    uint64_t total = n, above = 0, m = 0, p[UTURN_SWEEPS_MAX_SLOTS];
    for (uint64_t j = K; j-- > 0;) {
        total += closed_t((j + 1 < K ? h[j + 1] : n) - h[j], s - j - above);
        above += marked[j];
    }
    for (uint64_t j = 0; j < K; j++)
        if (marked[j])
            p[m++] = h[j];
    const uint64_t sp = s < n + 1 ? s : n + 1, c = sp - m + 1;
    for (uint64_t i = 0; i < m; i++) {
        const uint64_t L = (i + 1 < m ? p[i + 1] : n + 1) - p[i];
        total += i + 1 < m ? (k - 2) * closed_t(L, c) + closed_t(L, sp - i)
                           : (k - 1) * closed_t(L, c);
    }
    return total;
}

/* The online plan's forward steps against independent truth: sweep 1
 * is the online plan of one sweep; then either the k - 1 sweeps are
 * revolve's plan of k - 1 over the n found, after sweep 1 kept x_0 alone
 * (the sum of those two planners' counts), or sweep 1 marked more
 * checkpoints persistent before its turn, and the whole stream takes
 * exactly what kept_forward() gives for them, never more than the sum.
 * Every action valid; every n to 60 and samples to 2000. */
static void online_sweeps_truth(uint64_t s, uint64_t k, uint64_t n,
                                const uturn_plan_t *plan,
                                const uturn_plan_t *one, uint64_t *kept)
{
    static struct at_turn t;
    const uint64_t got = online_walk_at(plan, s, k, n, &t, NULL);
    const uint64_t rest =
        k == 2 ? forward_of(n, s, 1) : forward_of(n, s, k - 1);
    const uint64_t fresh = online_walk(one, s, 1, n) + rest;
    uint64_t h[UTURN_SWEEPS_MAX_SLOTS], K = 0, marks = 0;
    bool marked[UTURN_SWEEPS_MAX_SLOTS];
    for (uint64_t step = 0; step <= n; step++) /* the held, in order */
        for (uint64_t q = 0; q < s; q++)
            if (t.step[q] == step) {
                marked[K] = t.marked[q];
                marks += t.marked[q];
                h[K++] = step;
            }
    cr_assert(t.turned && K >= 1 && h[0] == 0 && marked[0]);
    if (marks == 1) {
        cr_assert_eq(got, fresh, "s=%llu k=%llu n=%llu: x_0 alone kept",
                     (unsigned long long)s, (unsigned long long)k,
                     (unsigned long long)n);
        return;
    }
    *kept += 1;
    cr_assert_eq(got, kept_forward(h, marked, K, s, k, n),
                 "s=%llu k=%llu n=%llu: %llu kept", (unsigned long long)s,
                 (unsigned long long)k, (unsigned long long)n,
                 (unsigned long long)marks);
    cr_assert_leq(got, fresh);
}

Test(sweeps, online_sweep_1_learns_n_and_the_rest_is_revolves_plan)
{
    static const uint64_t far[] = {100, 251, 997, 2000};
    uint64_t kept = 0, cases = 0;
    for (uint64_t s = 4; s <= 9; s += 5)
        for (uint64_t k = 2; k <= 4; k++) {
            uturn_plan_t *plan = make_online(s, k, 0);
            uturn_plan_t *one  = make_online(s, 1, 0);
            for (uint64_t i = 1; i <= 64; i++, cases++)
                online_sweeps_truth(s, k, i <= 60 ? i : far[i - 61], plan, one,
                                    &kept);
            uturn_plan_free(plan);
            uturn_plan_free(one);
        }
    /* both ways occur on this grid */
    cr_assert(kept > 0 && kept < cases, "%llu of %llu kept",
              (unsigned long long)kept, (unsigned long long)cases);
}

/* While every state fits (n < s: x_0 .. x_n in s slots), nothing is
 * recomputed in any sweep: forward steps = n, as offline revolve of k
 * sweeps gives (each later sweep took one step more when x_n was not
 * kept). Every action through the validator (online_walk_at). */
Test(sweeps, online_sweeps_recompute_nothing_while_every_state_fits)
{
    for (uint64_t s = 4; s <= 12; s++)
        for (uint64_t k = 2; k <= 5; k++) {
            uturn_plan_t *plan = make_online(s, k, 0);
            for (uint64_t n = 1; n < s; n++) {
                cr_assert_eq(online_walk(plan, s, k, n), n,
                             "s=%llu k=%llu n=%llu", (unsigned long long)s,
                             (unsigned long long)k, (unsigned long long)n);
                cr_assert_eq(forward_of(n, s, k), n);
            }
            uturn_plan_free(plan);
        }
}

/* Unbounded: as a stream, sweep 1 and the free of x_0. */
Test(sweeps, online_unbounded_stream_is_sweep_1)
{
    uturn_plan_t *plan = make_online(6, UTURN_SWEEPS_UNBOUNDED, 0);
    uturn_plan_t *one  = make_online(6, 1, 0);
    for (uint64_t n = 1; n <= 80; n += 7)
        cr_assert_eq(online_walk(plan, 6, UTURN_SWEEPS_UNBOUNDED, n),
                     online_walk(one, 6, 1, n));
    uturn_plan_free(plan);
    uturn_plan_free(one);
}

/* A run that stops where only the model knows: every sweep's gradient is
 * its functional's store-all one, in one call and on request. */
Test(sweeps, online_runs_give_each_sweep_its_store_all_gradient)
{
    const uint64_t n = 57, k = 3;
    double truth[KMAX][DIM];
    for (uint64_t j = 0; j < k + 1; j++)
        store_all_gradient(n, j, truth[j]);
    uturn_plan_t *plan = make_online(5, k, 0);
    struct chain c;
    start_chain(&c, 0);
    c.stop_at = n;
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    const uturn_model_t m = chain_model(&c);
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, NULL, &seen, NULL, &e),
                 UTURN_OK, "%s", e.message);
    cr_assert_eq(c.turns, k);
    cr_assert_eq(seen.steps, n);
    cr_assert_eq(seen.reverse_steps, k * n);
    uturn_stats_t walked;
    cr_assert_eq(seen.forward_steps,
                 online_walk_at(plan, 5, k, n, NULL, &walked));
    cr_assert_eq(seen.persistent, walked.persistent);
    cr_assert_eq(seen.sweeps, k);
    for (uint64_t j = 0; j < k; j++) {
        cr_assert_eq(memcmp(c.grad[j], truth[j], sizeof truth[j]), 0,
                     "sweep %llu", (unsigned long long)j);
        finite_differences(n, j, c.grad[j]);
    }
    /* on request: sweep 1, then each further sweep when asked */
    start_chain(&c, 0);
    c.stop_at                   = n;
    const uturn_run_options_t o = on_request();
    uturn_report_t r;
    uturn_report_init(&r);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, &r, &e), UTURN_OK,
                 "%s", e.message);
    cr_assert(c.turns == 1 && r.trajectory_held && r.sweeps_done == 1);
    for (uint64_t j = 2; j <= k; j++) {
        cr_assert_eq(uturn_executor_sweep(ex, &m, &seen, &r, &e), UTURN_OK,
                     "%s", e.message);
        cr_assert(c.turns == j && r.sweeps_done == j);
        cr_assert_eq(r.trajectory_held, j < k);
    }
    for (uint64_t j = 0; j < k; j++)
        cr_assert_eq(memcmp(c.grad[j], truth[j], sizeof truth[j]), 0);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* A run that ends while every state fits (n = 3, 5 slots): x_n is kept
 * for the later sweeps, each sweep's gradient is still its store-all
 * one, and nothing is recomputed (forward steps = n), in one call and on
 * request. */
Test(sweeps, online_runs_that_fit_keep_x_n_and_recompute_nothing)
{
    const uint64_t n = 3, k = 3;
    double truth[KMAX][DIM];
    for (uint64_t j = 0; j < k; j++)
        store_all_gradient(n, j, truth[j]);
    uturn_plan_t *plan   = make_online(5, k, 0);
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    for (int asked = 0; asked < 2; asked++) {
        struct chain c;
        start_chain(&c, 0);
        c.stop_at                   = n;
        const uturn_model_t m       = chain_model(&c);
        const uturn_run_options_t o = on_request();
        uturn_stats_t seen;
        uturn_stats_init(&seen);
        uturn_error_t e;
        uturn_error_init(&e);
        cr_assert_eq(uturn_executor_run(ex, plan, &m, asked ? &o : NULL, &seen,
                                        NULL, &e),
                     UTURN_OK, "%s", e.message);
        for (uint64_t j = 2; asked && j <= k; j++)
            cr_assert_eq(uturn_executor_sweep(ex, &m, &seen, NULL, &e),
                         UTURN_OK, "%s", e.message);
        cr_assert_eq(c.turns, k);
        cr_assert_eq(seen.forward_steps, n);
        cr_assert_eq(seen.reverse_steps, k * n);
        for (uint64_t j = 0; j < k; j++)
            cr_assert_eq(memcmp(c.grad[j], truth[j], sizeof truth[j]), 0,
                         "sweep %llu", (unsigned long long)j);
    }
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* The last progress report of a run, both callbacks'. */
struct last_progress {
    uint64_t done, total, reversed, steps;
};

static int note_new(void *user, const uturn_progress_t *p)
{
    struct last_progress *l = user;
    cr_assert_leq(p->done, p->total == UTURN_NONE ? UINT64_MAX : p->total);
    l->done  = p->done;
    l->total = p->total;
    return 0;
}

static int note_old(void *user, uint64_t reversed, uint64_t steps)
{
    struct last_progress *l = user;
    cr_assert_leq(reversed, steps);
    l->reversed = reversed;
    l->steps    = steps;
    return 0;
}

/* Once the end is known, an online run of k sweeps predicts forward
 * steps plus k n of work, and the old callback counts k n reverse steps
 * (an outside review found k - 1 sweeps left out: progress past 100 %). */
Test(sweeps, online_progress_counts_every_sweep)
{
    const uint64_t n = 10, k = 2;
    uturn_plan_t *plan = make_online(4, k, 0);
    struct chain c;
    start_chain(&c, 0);
    c.stop_at              = n;
    struct last_progress l = {0, 0, 0, 0};
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.progress           = note_old;
    o.progress_user      = &l;
    o.on_progress        = note_new;
    o.on_progress_user   = &l;
    o.on_progress_every  = 1;
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    const uturn_model_t m = chain_model(&c);
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, &seen, NULL, NULL),
                 UTURN_OK);
    cr_assert_eq(l.total, seen.forward_steps + k * n);
    cr_assert_eq(l.done, l.total);
    cr_assert_eq(l.steps, k * n);
    cr_assert_eq(l.reversed, k * n);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* Unbounded on request: sweeps until released, each bitwise. */
Test(sweeps, online_unbounded_on_request_until_released)
{
    const uint64_t n   = 90;
    uturn_plan_t *plan = make_online(6, UTURN_SWEEPS_UNBOUNDED, 0);
    struct chain c;
    start_chain(&c, 0);
    c.stop_at                   = n;
    const uturn_model_t m       = chain_model(&c);
    const uturn_run_options_t o = on_request();
    uturn_executor_t *ex        = NULL;
    cr_assert_eq(uturn_executor_create(NULL, &ex, NULL), UTURN_OK);
    uturn_report_t r;
    uturn_report_init(&r);
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_executor_run(ex, plan, &m, &o, NULL, &r, &e), UTURN_OK,
                 "%s", e.message);
    uint64_t further = 0;
    for (uint64_t j = 2; j <= KMAX; j++) {
        cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, &r, &e), UTURN_OK, "%s",
                     e.message);
        cr_assert(r.trajectory_held && r.sweeps_done == j);
        /* sweep 2 adds the layout's first forward from x_0; the steady
         * layout's sweeps after it take the same each */
        if (j > 3)
            cr_assert_eq(r.sweep_forward_steps, further);
        further = r.sweep_forward_steps;
        double truth[DIM];
        store_all_gradient(n, j - 1, truth);
        cr_assert_eq(memcmp(c.grad[j - 1], truth, sizeof truth), 0);
    }
    uturn_executor_release(ex);
    cr_assert_eq(uturn_executor_sweep(ex, &m, NULL, NULL, NULL),
                 UTURN_E_INVALID_ARG);
    uturn_executor_free(ex);
    uturn_plan_free(plan);
}

/* max_steps ends sweep 1 by itself; too few slots or too many are refused
 * by name. */
Test(sweeps, online_limits)
{
    uturn_plan_t *plan = make_online(5, 2, 40);
    cr_assert_eq(online_walk(plan, 5, 2, 40),
                 online_walk(plan, 5, 2, 40)); /* and the same each time */
    uturn_plan_free(plan);
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_ONLINE;
    p.slots   = 3;
    p.sweeps  = 2;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(e.message, "at least 4") != NULL, "%s", e.message);
    p.slots = UTURN_SWEEPS_MAX_SLOTS + 1;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_E_UNSUPPORTED);
    cr_assert(strstr(e.message, "1024") != NULL, "%s", e.message);
    p.slots        = 0;
    p.budget_bytes = 4096; /* sizes as the run goes */
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_E_UNSUPPORTED);
}
