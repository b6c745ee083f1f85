/*
 * Several sweeps on storage levels with hrevolve's segments (bases on the
 * last level, each segment reversed by hrevolve over the rest), against
 * truth written out here, independently of schedules/:
 *  - hrevolve's recurrence (its documented A, B and D) in a plain dynamic
 *    program, and with it the family's cost of every placement of every
 *    m (docs/model.md section 13): the plan never costs more than the best
 *    of them, on every small case;
 *  - every plan on three levels goes through a validator of the same
 *    levels, counts and cost as predicted;
 *  - with free I/O the plan on two levels takes the forward steps of the
 *    plan on one level with all the slots, where that plan's persistent
 *    checkpoints fit on the further level;
 *  - on two levels with costs, never more than on memory alone.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

/* after Criterion, whose macros it uses */
#include "plan_walk.h"

#define ULL(x)  ((unsigned long long)(x))
#define INF     (UINT64_MAX / 4)
#define MAXN    13
#define MAXSLOT 6

/* hrevolve's recurrence for two levels, every entry l <= MAXN, m <= MAXSLOT. */
struct rec {
    uint64_t c[2], w[2], r[2];
    uint64_t A[2][MAXN + 1][MAXSLOT + 1], B[2][MAXN + 1][MAXSLOT + 1];
};

static uint64_t min2(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static uint64_t down(const struct rec *q, int k, uint64_t l)
{
    return k == 0 ? INF : q->A[k - 1][l][q->c[k - 1]];
}

static void fill_level(struct rec *q, int k);

/* Two levels: memory c0 free, then c1 slots writing at w and reading at r. */
static struct rec rec_of(uint64_t c0, uint64_t c1, uint64_t w, uint64_t r)
{
    struct rec q;
    memset(&q, 0, sizeof q);
    q.c[0] = c0, q.c[1] = c1, q.w[1] = w, q.r[1] = r;
    return q;
}

static void fill_level(struct rec *q, int k)
{
    for (uint64_t m = 0; m <= MAXSLOT; m++)
        q->A[k][0][m] = q->B[k][0][m] = 0;
    for (uint64_t l = 1; l <= MAXN; l++) {
        q->A[k][l][0] = down(q, k, l);
        q->B[k][l][0] = INF;
        for (uint64_t m = 1; m <= MAXSLOT; m++) {
            uint64_t b = down(q, k, l);
            for (uint64_t j = 1; j <= l; j++)
                b = min2(b, j + q->A[k][l - j][m - 1] + q->r[k] +
                                q->B[k][j - 1][m]);
            q->B[k][l][m] = b;
            q->A[k][l][m] = min2(down(q, k, l), q->w[k] + b);
        }
    }
}

/* A segment of L states with j level-1 slots, its base read or live. */
static uint64_t seg(const struct rec *q, uint64_t L, uint64_t j, int cold)
{
    return q->B[1][L - 1][j] + (cold ? q->r[1] : 0);
}

/* The family's cost of lengths L[0 .. m-1] for k sweeps. */
static uint64_t family(const struct rec *q, const uint64_t *L, uint64_t m,
                       uint64_t k)
{
    const uint64_t s = q->c[1], c = s - m + 1, top = m - 1;
    uint64_t sum =
        m * q->w[1] + seg(q, L[top], c, 0) + (k - 1) * seg(q, L[top], c, 1);
    for (uint64_t i = 0; i < top; i++)
        sum += L[i] + (k - 1) * seg(q, L[i], c, 1) + seg(q, L[i], s - i, 1);
    return sum;
}

/* The least family cost over every composition of `left` states into
 * parts L[i ..] (m parts in all). */
static uint64_t every(const struct rec *q, uint64_t *L, uint64_t i, uint64_t m,
                      uint64_t left, uint64_t k)
{
    if (i + 1 == m) {
        L[i] = left;
        return family(q, L, m, k);
    }
    uint64_t best = INF;
    for (uint64_t x = 1; x + (m - i - 1) <= left; x++) {
        L[i] = x;
        best = min2(best, every(q, L, i + 1, m, left - x, k));
    }
    return best;
}

static uturn_problem_t two(uint64_t n, const struct rec *q, uint64_t k,
                           uturn_level_t *lv)
{
    for (int j = 0; j < 2; j++) {
        uturn_level_init(&lv[j]);
        lv[j].slots      = q->c[j];
        lv[j].write_cost = q->w[j];
        lv[j].read_cost  = q->r[j];
    }
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps       = n;
    p.levels      = lv;
    p.level_count = 2;
    p.sweeps      = k;
    return p;
}

Test(sweeps_hr, never_above_the_best_placement_of_the_family)
{
    const uint64_t costs[4][2] = {{0, 0}, {1, 1}, {2, 5}, {10, 10}};
    unsigned cases = 0, tied = 0;
    for (uint64_t c0 = 1; c0 <= 2; c0++)
        for (uint64_t c1 = 1; c1 <= 4; c1++)
            for (int cc = 0; cc < 4; cc++) {
                struct rec q = rec_of(c0, c1, costs[cc][0], costs[cc][1]);
                fill_level(&q, 0);
                fill_level(&q, 1);
                for (uint64_t n = 1; n + 1 <= MAXN; n++)
                    for (uint64_t k = 2; k <= 4; k++) {
                        uint64_t L[MAXN + 1], best = INF;
                        for (uint64_t m = 1; m <= c1 && m <= n + 1; m++)
                            best = min2(best, every(&q, L, 0, m, n + 1, k));
                        uturn_level_t lv[2];
                        const uturn_problem_t p = two(n, &q, k, lv);
                        const uint64_t got      = plan_stats_of(&p).cost;
                        cr_assert_leq(
                            got, best, "n=%llu %llu+%llu w=%llu r=%llu k=%llu",
                            ULL(n), ULL(c0), ULL(c1), ULL(costs[cc][0]),
                            ULL(costs[cc][1]), ULL(k));
                        cases++;
                        tied += got == best;
                    }
            }
    /* the family is the plan in most cases; elsewhere another is cheaper */
    cr_assert_gt(tied, cases / 2, "%u of %u", tied, cases);
}

Test(sweeps_hr, every_plan_on_three_levels_is_valid_and_counted)
{
    const uint64_t ks[3] = {2, 5, UTURN_SWEEPS_UNBOUNDED};
    for (uint64_t n = 1; n <= 120; n += 7)
        for (uint64_t c0 = 1; c0 <= 3; c0 += 2)
            for (uint64_t c1 = 1; c1 <= 4; c1 += 3)
                for (uint64_t c2 = 1; c2 <= 6; c2 += 5)
                    for (int j = 0; j < 3; j++) {
                        uturn_level_t lv[3];
                        const uint64_t slots[3] = {c0, c1, c2};
                        const uint64_t cost[3]  = {0, 1 + n % 3, 4 + n % 5};
                        for (int k = 0; k < 3; k++) {
                            uturn_level_init(&lv[k]);
                            lv[k].slots      = slots[k];
                            lv[k].write_cost = cost[k];
                            lv[k].read_cost  = cost[k] + (uint64_t)k;
                        }
                        uturn_problem_t p;
                        uturn_problem_init(&p);
                        p.steps       = n;
                        p.levels      = lv;
                        p.level_count = 3;
                        p.sweeps      = ks[j];
                        plan_walk_as_planned(&p);
                    }
}

/* The plan of one level with s slots. */
static uturn_stats_t one_level(uint64_t n, uint64_t s, uint64_t k)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps  = n;
    p.slots  = s;
    p.sweeps = k;
    return plan_stats_of(&p);
}

/* With free I/O the bases may as well be on the further level, and each
 * segment has its other slots and all of memory, as on one level: the
 * same forward steps whenever the plan of one level keeps no more
 * persistent checkpoints than the further level holds. */
Test(sweeps_hr, free_io_takes_the_forward_steps_of_one_level)
{
    const uint64_t rams[3] = {5, 10, 20}, disks[3] = {10, 20, 50};
    unsigned equal = 0;
    for (int b = 0; b < 3; b++)
        for (int d = 0; d < 3; d++)
            for (uint64_t k = 2; k <= 10; k += 8) {
                const uturn_stats_t one =
                    one_level(1000, rams[b] + disks[d], k);
                const struct rec q = rec_of(rams[b], disks[d], 0, 0);
                uturn_level_t lv[2];
                const uturn_problem_t p = two(1000, &q, k, lv);
                const uturn_stats_t got = plan_stats_of(&p);
                if (one.persistent <= disks[d]) {
                    cr_assert_eq(got.forward_steps, one.forward_steps,
                                 "%llu + %llu, k=%llu", ULL(rams[b]),
                                 ULL(disks[d]), ULL(k));
                    equal++;
                }
            }
    cr_assert_geq(equal, 12);
}

/* With costs, never more than the same sweeps on memory alone. */
Test(sweeps_hr, costs_never_above_memory_alone)
{
    for (uint64_t n = 50; n <= 2000; n = n * 3 + 1)
        for (uint64_t io = 1; io <= 64; io *= 4)
            for (uint64_t k = 2; k <= 6; k += 4) {
                const struct rec q = rec_of(4, 12, io, io + 1);
                uturn_level_t lv[2];
                const uturn_problem_t p = two(n, &q, k, lv);
                cr_assert_leq(plan_stats_of(&p).cost,
                              one_level(n, 4, k).forward_steps);
            }
}

static uint64_t fingerprint_of(const uturn_problem_t *p)
{
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(p, NULL, &plan, NULL), UTURN_OK);
    uint64_t fp = 0;
    uturn_plan_fingerprint(plan, &fp);
    uturn_plan_free(plan);
    return fp;
}

/* The lengths follow every level's costs, so the fingerprint does too. */
Test(sweeps_hr, the_fingerprint_follows_every_level)
{
    uturn_level_t lv[3];
    const uint64_t slots[3] = {2, 3, 5}, io[3] = {0, 1, 4};
    for (int k = 0; k < 3; k++) {
        uturn_level_init(&lv[k]);
        lv[k].slots      = slots[k];
        lv[k].write_cost = lv[k].read_cost = io[k];
    }
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = 200;
    p.levels           = lv;
    p.level_count      = 3;
    p.sweeps           = 3;
    const uint64_t one = fingerprint_of(&p);
    lv[1].read_cost    = 2;
    const uint64_t two = fingerprint_of(&p);
    lv[2].slots        = 6;
    cr_assert(one != two && two != fingerprint_of(&p));
}

/* ---- the true optimum on two levels, by search over every plan ------- */

/* A position: the sweep, its next state to reverse (n: the turn), the
 * live state (n + 1: none), the states held in memory and on the further
 * level (a bit each). Moves: one step (1), a store (w of its level), a
 * restore (r of its level), a free (0), the turn or the reverse of the
 * target when it is live (0; a reverse leaves no live state). Dijkstra
 * with a binary heap; positions are packed into 64 bits. */
struct opt {
    uint64_t n, k, c[2], w[2], r[2];
    uint64_t *dist;
    uint64_t *heap; /* (distance << 40) | position */
    size_t size, cap;
};

static uint64_t opt_pack(const struct opt *o, uint64_t sw, uint64_t t,
                         uint64_t live, uint64_t m0, uint64_t m1)
{
    const uint64_t b = o->n + 1;
    return ((((sw * (o->n + 1) + t) * (o->n + 2) + live) << b | m0) << b) | m1;
}

static void opt_push(struct opt *o, uint64_t d, uint64_t pos)
{
    if (d >= o->dist[pos])
        return;
    o->dist[pos] = d;
    cr_assert_lt(o->size, o->cap);
    size_t i            = o->size++;
    const uint64_t item = d << 40 | pos;
    while (i > 0 && o->heap[(i - 1) / 2] > item) {
        o->heap[i] = o->heap[(i - 1) / 2];
        i          = (i - 1) / 2;
    }
    o->heap[i] = item;
}

static uint64_t opt_pop(struct opt *o)
{
    const uint64_t top = o->heap[0], last = o->heap[--o->size];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= o->size)
            break;
        if (c + 1 < o->size && o->heap[c + 1] < o->heap[c])
            c++;
        if (o->heap[c] >= last)
            break;
        o->heap[i] = o->heap[c];
        i          = c;
    }
    o->heap[i] = last;
    return top;
}

/* Stores, restores and frees on level j of a position at distance d. */
static void opt_level_moves(struct opt *o, uint64_t d, uint64_t sw, uint64_t t,
                            uint64_t live, const uint64_t m[2], int j)
{
    const uint64_t n = o->n, none = n + 1;
    uint64_t next[2] = {m[0], m[1]};
    for (uint64_t x = 0; x <= n; x++)
        if (m[j] >> x & 1) {
            opt_push(o, d + o->r[j], opt_pack(o, sw, t, x, m[0], m[1]));
            next[j] = m[j] & ~(1ull << x);
            opt_push(o, d, opt_pack(o, sw, t, live, next[0], next[1]));
            next[j] = m[j];
        }
    if (live != none && !(m[j] >> live & 1) &&
        (uint64_t)__builtin_popcountll(m[j]) < o->c[j]) {
        next[j] = m[j] | 1ull << live;
        opt_push(o, d + o->w[j], opt_pack(o, sw, t, live, next[0], next[1]));
    }
}

static void opt_moves(struct opt *o, uint64_t d, uint64_t pos)
{
    const uint64_t n = o->n, b = n + 1, none = n + 1;
    const uint64_t m[2] = {pos >> b & ((1ull << b) - 1),
                           pos & ((1ull << b) - 1)};
    uint64_t rest       = pos >> 2 * b;
    const uint64_t live = rest % (n + 2);
    rest /= n + 2;
    const uint64_t t = rest % (n + 1), sw = rest / (n + 1);
    for (int j = 0; j < 2; j++)
        opt_level_moves(o, d, sw, t, live, m, j);
    if (live != none && live < n)
        opt_push(o, d + 1, opt_pack(o, sw, t, live + 1, m[0], m[1]));
    if (live == t && t == n)
        opt_push(o, d, opt_pack(o, sw, n - 1, live, m[0], m[1]));
    else if (live == t && t == 0) /* the last one ends at one position */
        opt_push(o, d,
                 sw + 1 == o->k ? opt_pack(o, o->k, 0, 0, 0, 0)
                                : opt_pack(o, sw + 1, n, none, m[0], m[1]));
    else if (live == t)
        opt_push(o, d, opt_pack(o, sw, t - 1, none, m[0], m[1]));
}

/* The least cost of any plan of k sweeps over n steps on these levels. */
static uint64_t optimum(uint64_t n, const struct rec *q, uint64_t k)
{
    struct opt o             = {n,
                                k,
                                {q->c[0], q->c[1]},
                                {q->w[0], q->w[1]},
                                {q->r[0], q->r[1]},
                                NULL,
                                NULL,
                                0,
                                0};
    const uint64_t positions = opt_pack(&o, k, 0, 0, 0, 0) + 1;
    o.dist                   = malloc(positions * sizeof *o.dist);
    o.cap                    = (size_t)positions * 8;
    o.heap                   = malloc(o.cap * sizeof *o.heap);
    cr_assert(o.dist != NULL && o.heap != NULL);
    for (uint64_t i = 0; i < positions; i++)
        o.dist[i] = INF;
    opt_push(&o, 0, opt_pack(&o, 0, n, 0, 0, 0));
    uint64_t answer = INF;
    while (o.size > 0 && answer == INF) {
        const uint64_t item = opt_pop(&o), d = item >> 40;
        const uint64_t pos = item & ((1ull << 40) - 1);
        if (d != o.dist[pos])
            continue;
        if (pos == opt_pack(&o, k, 0, 0, 0, 0))
            answer = d;
        else
            opt_moves(&o, d, pos);
    }
    free(o.heap);
    free(o.dist);
    return answer;
}

/* Never below the optimum (a plan below it would be invalid or miscounted),
 * and optimal where the family holds the optimum. */
Test(sweeps_hr, against_every_plan_on_small_chains)
{
    const uint64_t costs[3][2] = {{0, 0}, {1, 1}, {3, 5}};
    double worst               = 1;
    unsigned cases = 0, optimal = 0;
    for (uint64_t n = 1; n <= 5; n++)
        for (uint64_t c0 = 1; c0 <= 2; c0++)
            for (uint64_t c1 = 1; c1 <= 3; c1++)
                for (int cc = 0; cc < 3; cc++)
                    for (uint64_t k = 2; k <= 3; k++) {
                        const struct rec q =
                            rec_of(c0, c1, costs[cc][0], costs[cc][1]);
                        uturn_level_t lv[2];
                        const uturn_problem_t p = two(n, &q, k, lv);
                        const uint64_t got      = plan_stats_of(&p).cost;
                        const uint64_t best     = optimum(n, &q, k);
                        cr_assert_geq(got, best,
                                      "n=%llu %llu+%llu w=%llu r=%llu k=%llu: "
                                      "%llu < %llu",
                                      ULL(n), ULL(c0), ULL(c1),
                                      ULL(costs[cc][0]), ULL(costs[cc][1]),
                                      ULL(k), ULL(got), ULL(best));
                        cases++;
                        optimal += got == best;
                        if ((double)got / best > worst)
                            worst = (double)got / best;
                    }
    /* measured: optimal in 109 of the 180, at worst 3 times the optimum
     * (n = 1, one slot on each level, free I/O, 3 sweeps: the optimum
     * keeps x_n, which the family never does); the gaps are that and
     * persistent checkpoints on both levels at once (n = 3 over 2 + 2
     * free slots holds every state: 3 forward steps, the family 7) */
    cr_log_info("two levels: optimal in %u of %u, at worst %.3f", optimal,
                cases, worst);
    cr_assert_geq(optimal, 109, "%u of %u", optimal, cases);
}

/* An unbounded plan is chosen for each further sweep, not for its first
 * forward and sweep 1: with free I/O, every further sweep on levels takes
 * no more forward steps than on memory alone (an outside review found 12
 * against 6, n = 12 over 7 + 5 + 1 slots, when the families were compared
 * by the stream's cost). */
Test(sweeps_hr, unbounded_further_sweeps_never_above_memory_alone)
{
    for (uint64_t n = 1; n <= 40; n += 3)
        for (uint64_t c0 = 1; c0 <= 7; c0 += 2)
            for (uint64_t c1 = 1; c1 <= 5; c1 += 2)
                for (uint64_t count = 2; count <= 3; count++) {
                    uturn_level_t lv[3];
                    const uint64_t slots[3] = {c0, c1, 1};
                    for (int k = 0; k < 3; k++) {
                        uturn_level_init(&lv[k]);
                        lv[k].slots = slots[k];
                    }
                    uturn_problem_t p;
                    uturn_problem_init(&p);
                    p.steps       = n;
                    p.levels      = lv;
                    p.level_count = count;
                    p.sweeps      = UTURN_SWEEPS_UNBOUNDED;
                    cr_assert_leq(plan_stats_of(&p).sweep_forward_steps,
                                  one_level(n, c0, UTURN_SWEEPS_UNBOUNDED)
                                      .sweep_forward_steps,
                                  "n=%llu %llu + %llu (+ 1)", ULL(n), ULL(c0),
                                  ULL(c1));
                }
}

struct watch {
    uint64_t calls, last, total;
    bool stop;
};

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    struct watch *w = user;
    cr_assert_leq(done, total);
    cr_assert_geq(done, w->last);
    w->calls++, w->last = done, w->total = total;
    return w->stop && w->calls == 3;
}

/* Building hrevolve's tables reports progress, and a callback can stop it. */
Test(sweeps_hr, planning_reports_progress_and_stops_when_asked)
{
    const struct rec q = rec_of(5, 30, 2, 2);
    uturn_level_t lv[2];
    uturn_problem_t p    = two(3000, &q, 3, lv);
    struct watch w       = {0, 0, 0, false};
    p.progress           = on_progress;
    p.progress_user      = &w;
    const uint64_t steps = plan_stats_of(&p).forward_steps;
    cr_assert(steps > 0 && w.calls >= 10 && w.last == w.total, "%llu calls",
              ULL(w.calls));
    w                  = (struct watch){0, 0, 0, true};
    uturn_plan_t *plan = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, &e), UTURN_E_CALLBACK);
    cr_assert(plan == NULL && strstr(e.message, "progress callback") != NULL,
              "%s", e.message);
    cr_assert_eq(w.calls, 3);
}
