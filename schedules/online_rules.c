/* The online planner's rules for the first sweep: whether to store x_m
 * and which checkpoint to evict (see online.h and docs/model.md). */
#include "online.h"


/*
 * The keep-all reversal estimate after evicting held[q] (1 <= q < k) with
 * s slots, at n = m + 1 with x_m stored: ranges below q keep their slots,
 * the merged range takes the lower one's, every range above gains one.
 * Evaluated for all q with prefix and suffix sums; returns the best q.
 */
uint64_t uturn__ol_cheapest(struct view *v, uint64_t m, uint64_t s)
{
    const uint64_t k = v->h->k;
    for (uint64_t i = 0; i < k; i++) {
        const uint64_t end = i + 1 < k ? v->held[i + 1] : m;
        v->L[i]            = end - v->held[i];
    }
    v->A[0] = 0; /* A[q] = sum over i < q of t(L_i, s - i) */
    for (uint64_t i = 0; i < k; i++)
        v->A[i + 1] = uturn__sat_add(v->A[i], uturn__bin_t(v->L[i], s - i));
    v->B[k] = 0; /* B[q] = sum over i >= q of t(L_i, s - i + 1) */
    for (uint64_t i = k; i-- > 1;)
        v->B[i] = uturn__sat_add(v->B[i + 1], uturn__bin_t(v->L[i], s - i + 1));
    uint64_t best = INF, bq = 1;
    for (uint64_t q = 1; q < k; q++) {
        const uint64_t merged = uturn__bin_t(v->L[q - 1] + v->L[q], s - q + 1);
        const uint64_t c = uturn__sat_add(uturn__sat_add(v->A[q - 1], merged), v->B[q + 1]);
        if (c < best) {
            best = c;
            bq   = q;
        }
    }
    return bq;
}

/* The store threshold uturn__bin_rep(m + 2, s), kept incrementally: it only grows
 * while m grows and s stays. */
static uint64_t threshold(struct hdr *h, uint64_t m, uint64_t s)
{
    if (h->rep_s != s || h->rep_now == 0) {
        h->rep_s   = s;
        h->rep_now = uturn__bin_rep(m + 2, s);
    }
    while (uturn__bin_beta(s, h->rep_now, m + 2) < m + 2)
        h->rep_now++;
    return h->rep_now;
}

/* The rule past band 1 (and the bytes mode's only rule). */
static struct decision general_rule(struct view *v, uint64_t m, uint64_t s)
{
    struct hdr *h = v->h;
    if (h->k < s)
        return (struct decision){true, 0};
    if (s < 2 || m - v->held[h->k - 1] < threshold(h, m, s))
        return (struct decision){false, 0};
    return (struct decision){true, uturn__ol_cheapest(v, m, s)};
}

/* Band rule: region x has base P[x-1] and c = s - x + 1 slots; its latest
 * checkpoint is P[x] at offset uturn__bin_beta(c, R[x] - 1), its next one is due at
 * Q[x]. A trigger at region x restarts every deeper region. */
static struct decision band_rule(struct view *v, uint64_t m)
{
    struct hdr *h    = v->h;
    const uint64_t s = h->s;
    if (m != h->next_trig)
        return (struct decision){false, 0};
    uint64_t x = 1;
    while (v->Q[x] != m)
        x++;
    v->R[x]++;
    v->P[x] = m;
    h->d    = x;
    v->Q[x] = uturn__sat_add(v->P[x - 1], uturn__bin_beta(s - x + 1, v->R[x], INF));
    uint64_t last = x;
    if (s - x >= 2) {
        v->R[x + 1] = 0;
        v->Q[x + 1] = m + 1;
        last        = x + 1;
    }
    h->next_trig = INF;
    for (uint64_t y = 1; y <= last; y++)
        h->next_trig = v->Q[y] < h->next_trig ? v->Q[y] : h->next_trig;
    if (h->k < s)
        return (struct decision){true, 0};
    /* Evict the lowest checkpoint outside the chain P[1..x-1]. */
    uint64_t q = 1, y = 1;
    while (y < x && v->held[q] == v->P[y]) {
        q++;
        y++;
    }
    return (struct decision){true, q};
}

/* s = 3 up to step 145: the minimax schedule (exhaustive search, see
 * docs/model.md). Each row is a step and the held index it evicts (0 = none). */
static const uint16_t S3_TABLE[][2] = {
    {1, 0},   {2, 0},   {4, 1},   {6, 1},   {7, 2},   {10, 1},
    {14, 1},  {15, 2},  {21, 1},  {28, 1},  {38, 1},  {50, 1},
    {66, 1},  {74, 2},  {92, 1},  {107, 2}, {130, 1}, {145, 2}};

/* Integer cube root, for the s = 3 rule's gap. */
static uint64_t icbrt(uint64_t x)
{
    uint64_t r = 0;
    for (int b = 21; b >= 0; b--) {
        const uint64_t t = r | ((uint64_t)1 << b);
        if ((uturn__u128)t * t * t <= x)
            r = t;
    }
    return r;
}

static struct decision small_rule(struct view *v, uint64_t m)
{
    struct hdr *h = v->h;
    if (h->s == 2) {
        if (m != h->sched)
            return (struct decision){false, 0};
        /* Steps 1, 3, 6, 10 (band ends), then C(p + 2, 2) for the held p. */
        h->tri++;
        const uint64_t next = m + h->tri;
        h->sched = m < 10 ? next : uturn__bin_beta(2, m, INF);
        return (struct decision){true, h->k == 2 ? 1 : 0};
    }
    const size_t rows = sizeof S3_TABLE / sizeof S3_TABLE[0];
    if (h->sched <= rows) {
        if (m != S3_TABLE[h->sched - 1][0])
            return (struct decision){false, 0};
        return (struct decision){true, S3_TABLE[h->sched++ - 1][1]};
    }
    /* Slide the pair: x_m replaces the older one once the gap from the
     * newer, b, reaches 1.2 b^(2/3); the step is worked out once per store
     * (in tri, which s = 3 does not otherwise use). */
    const uint64_t b = v->held[2];
    if (h->tri <= b) {
        const uint64_t c = icbrt((uturn__u128)b * b > INF ? INF : b * b);
        h->tri           = b + (6 * c + 4) / 5;
    }
    if (m < h->tri)
        return (struct decision){false, 0};
    return (struct decision){true, 1};
}

struct decision uturn__ol_decide(struct view *v, uint64_t m)
{
    struct hdr *h = v->h;
    if (h->bytes)
        return general_rule(v, m, h->s_cur);
    if (h->s == 1)
        return (struct decision){false, 0};
    if (h->s <= 3)
        return small_rule(v, m);
    if (m < h->lim2)
        return band_rule(v, m);
    return general_rule(v, m, h->s);
}
