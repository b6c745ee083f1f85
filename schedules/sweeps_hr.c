/*
 * Several sweeps on storage levels, every segment reversed by hrevolve:
 * the family of sweeps.h with its m persistent checkpoints on level q >= 1
 * (slots base_q + i) and each segment, in every sweep, reversed by
 * hrevolve's held sub-problem over the other slots of level q and every
 * slot of the levels below (hrevolve.h: B_q(l, j), x_0 live and held in
 * one of the j level-q slots). A segment of L states is B_q(L - 1, j),
 * plus the read of its base when the sweep does not start from it live.
 * So the family's cost, with w and r level q's costs, c = s - m + 1 and s
 * level q's effective slots, is
 *
 *   sum_{i < m-1} [L_i + w + (k-1)(r + B(L_i - 1, c)) + r + B(L_i - 1, s-i)]
 *   + w + B(L_top - 1, c) + (k-1)(r + B(L_top - 1, c))
 *
 * (the last sweep gives segment i the slots of the bases above it, as on
 * one level; an unbounded plan is placed for the sum of r + B(L_i - 1, c),
 * one further sweep). B is not convex in l once reads cost something, so
 * the lengths for each m are placed greedily by marginal cost and then
 * improved by moving states between pairs of segments: the best m's
 * lengths are a local optimum of the whole cost, not a proven one
 * (tests/test_sweeps_hr.c measures them against every placement).
 */
#include "hrevolve.h"
#include "sweeps.h"

typedef uturn__u128 u128;

#define U128_MAX (~(u128)0)

struct fam {
    const struct uturn__hr_tables *t;
    size_t q;
    uint64_t s, m, c, k, w, r;
    bool steady;
};

static u128 sat(u128 a, u128 b)
{
    return a > U128_MAX - b ? U128_MAX : a + b;
}

/* A segment of L states with j level-q slots, from its base live or not. */
static u128 seg(const struct fam *f, uint64_t L, uint64_t j, bool cold)
{
    const uint64_t slots = j < f->t->cap[f->q] ? j : f->t->cap[f->q];
    const uint64_t b     = uturn__hr_b(f->t, f->q, L - 1, slots);
    if (b == UTURN__HR_INF)
        return U128_MAX;
    return (u128)b + (cold ? f->r : 0);
}

/* Segment i's part of the family's cost at length L. */
static u128 part(const struct fam *f, uint64_t i, uint64_t L)
{
    const bool top   = i + 1 == f->m;
    const u128 later = seg(f, L, f->c, true);
    if (f->steady)
        return later;
    if (later == U128_MAX)
        return U128_MAX;
    const u128 middle = later * (f->k - 1 - top);
    const u128 first  = top ? seg(f, L, f->c, false) : L;
    const u128 last   = top ? later : seg(f, L, f->s - i, true);
    return sat(sat(sat(first, middle), last), f->w);
}

/* A min-heap of segments by the marginal cost of one more state. */
struct heap {
    uint64_t *key;
    uint64_t *seg;
    uint64_t size;
};

static void heap_swap(struct heap *h, uint64_t a, uint64_t b)
{
    const uint64_t k = h->key[a];
    const uint64_t s = h->seg[a];
    h->key[a] = h->key[b], h->seg[a] = h->seg[b];
    h->key[b] = k, h->seg[b] = s;
}

/* Restore the heap order below position a. */
static void heap_down(struct heap *h, uint64_t a)
{
    for (;;) {
        uint64_t least = a;
        for (uint64_t c = 2 * a + 1; c <= 2 * a + 2 && c < h->size; c++)
            if (h->key[c] < h->key[least])
                least = c;
        if (least == a)
            return;
        heap_swap(h, a, least);
        a = least;
    }
}

/* The marginal cost of segment i's next state (0 when it falls),
 * saturated. */
static uint64_t marginal(const struct fam *f, uint64_t i, uint64_t L)
{
    if (L > f->t->n) /* L - 1 steps is the whole chain: no state to add */
        return UINT64_MAX;
    const u128 now = part(f, i, L), next = part(f, i, L + 1);
    const u128 d = next > now ? next - now : 0;
    return d > UINT64_MAX ? UINT64_MAX : (uint64_t)d;
}

/* Lengths for f->m: all 1, then each further state to the segment whose
 * cost grows least. h has room for m entries. */
static void greedy(const struct fam *f, uint64_t n, uint64_t *L, struct heap *h)
{
    h->size = f->m;
    for (uint64_t i = 0; i < f->m; i++) {
        L[i]      = 1;
        h->seg[i] = i;
        h->key[i] = marginal(f, i, 1);
    }
    for (uint64_t a = f->m / 2 + 1; a-- > 0;)
        heap_down(h, a);
    for (uint64_t left = n + 1 - f->m; left > 0; left--) {
        const uint64_t i = h->seg[0];
        L[i] += 1;
        h->key[0] = marginal(f, i, L[i]);
        heap_down(h, 0);
    }
}

static u128 total(const struct fam *f, const uint64_t *L)
{
    u128 sum = 0;
    for (uint64_t i = 0; i < f->m; i++)
        sum = sat(sum, part(f, i, L[i]));
    return sum;
}

/* Move d states from segment a to b when that costs less. */
static bool try_move(const struct fam *f, uint64_t *L, uint64_t a, uint64_t b,
                     uint64_t d)
{
    const u128 now  = sat(part(f, a, L[a]), part(f, b, L[b]));
    const u128 then = sat(part(f, a, L[a] - d), part(f, b, L[b] + d));
    if (then >= now)
        return false;
    L[a] -= d;
    L[b] += d;
    return true;
}

/* Pairwise moves of 2^e states, largest first, until none helps (at
 * most 64 passes). */
static void polish(const struct fam *f, uint64_t *L)
{
    for (int pass = 0; pass < 64; pass++) {
        bool moved = false;
        for (uint64_t a = 0; a < f->m; a++)
            for (uint64_t b = 0; b < f->m; b++)
                for (uint64_t d = (uint64_t)1 << 40; a != b && d > 0; d >>= 1)
                    if (d < L[a])
                        moved |= try_move(f, L, a, b, d);
        if (!moved)
            return;
    }
}

/* Segments past this many are placed greedily only (polish is m^2). */
#define POLISH_MAX_M 128

/* Greedy lengths for m into L, polished when m is small enough; their
 * cost. */
static u128 place_m(struct fam *f, uint64_t n, uint64_t m, uint64_t *L,
                    struct heap *h, bool polished)
{
    f->m = m, f->c = f->s - m + 1;
    greedy(f, n, L, h);
    if (polished && m <= POLISH_MAX_M)
        polish(f, L);
    return total(f, L);
}

u128 uturn__sw_hr_place(const struct uturn__hr_tables *t, size_t q, uint64_t w,
                        uint64_t r, struct uturn__sw_layout *x,
                        uint64_t *scratch)
{
    struct fam f     = {t, q, x->s, 1, 0, x->k, w, r, x->steady};
    const uint64_t s = x->s, top = s < x->n + 1 ? s : x->n + 1;
    struct heap h  = {scratch, scratch + s, 0};
    uint64_t *cur  = scratch + 2 * s;
    uint64_t first = 0, second = 0; /* the two cheapest m, greedy */
    u128 c1 = U128_MAX, c2 = U128_MAX;
    for (uint64_t m = 1; m <= top; m++) {
        const u128 c = place_m(&f, x->n, m, cur, &h, false);
        if (c < c1)
            second = first, c2 = c1, first = m, c1 = c;
        else if (c < c2)
            second = m, c2 = c;
    }
    u128 best = place_m(&f, x->n, first, x->L, &h, true);
    x->m      = first;
    const u128 other =
        second != 0 ? place_m(&f, x->n, second, cur, &h, true) : U128_MAX;
    if (other < best) {
        best = other;
        x->m = second;
        for (uint64_t i = 0; i < second; i++)
            x->L[i] = cur[i];
    }
    return best;
}
