/* Optima for the fuzz targets' oracles: see fuzz_optimum.h. */
#include "fuzz_optimum.h"

#include "fuzz_common.h"

#include <string.h>

#define INF UINT64_MAX

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a == INF || b == INF || a + b < a ? INF : a + b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* ---- exhaustive search ---- */

/* Every level's slots, each at most n. */
static uint64_t capped_total(uint64_t n, const uint64_t *slots, size_t count)
{
    uint64_t total = 0;
    for (size_t k = 0; k < count; k++)
        total += min_u64(slots[k], n);
    return total;
}

int fz_exhaust_fits(uint64_t n, const uint64_t *slots, size_t count)
{
    const uint64_t total_slots = capped_total(n, slots, count);
    if (n >= FZ_EXHAUST_STATES || count > 16 || total_slots > 16)
        return 0;
    uint64_t states = 1;
    for (uint64_t i = 0; i < total_slots + 2; i++) {
        states *= n + 2;
        if (states > FZ_EXHAUST_STATES)
            return 0;
    }
    return total_slots >= 1;
}

/* A state: the live state (n + 1: undefined), the next to reverse plus
 * one (n + 1: before the turn; 0: done), and each slot's state (n + 1:
 * empty), as digits in base n + 2. */
struct space {
    uint64_t n, base, slots;
    uint64_t w[16], r[16];
    uint64_t digit[17]; /* live's place, then each slot's */
};

struct heap {
    uint64_t *key; /* cost << 20 | state */
    size_t count, cap;
};

static void heap_push(struct heap *h, uint64_t key)
{
    if (h->count == h->cap) {
        h->cap       = h->cap != 0 ? 2 * h->cap : 4096;
        uint64_t *at = realloc(h->key, h->cap * sizeof *at);
        CHECK(at != NULL);
        h->key = at;
    }
    size_t i = h->count++;
    while (i > 0 && h->key[(i - 1) / 2] > key) {
        h->key[i] = h->key[(i - 1) / 2];
        i         = (i - 1) / 2;
    }
    h->key[i] = key;
}

static uint64_t heap_pop(struct heap *h)
{
    const uint64_t top  = h->key[0];
    const uint64_t last = h->key[--h->count];
    size_t i            = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->count)
            break;
        if (c + 1 < h->count && h->key[c + 1] < h->key[c])
            c++;
        if (h->key[c] >= last)
            break;
        h->key[i] = h->key[c];
        i         = c;
    }
    if (h->count > 0)
        h->key[i] = last;
    return top;
}

struct search {
    const struct space *sp;
    uint64_t *dist;
    struct heap heap;
};

static void relax(struct search *s, uint64_t state, uint64_t cost)
{
    if (cost >= s->dist[state])
        return;
    CHECK(cost < ((uint64_t)1 << 43));
    s->dist[state] = cost;
    heap_push(&s->heap, cost << 20 | state);
}

/* Every action from `state` (cost d): advance, turn, reverse; store,
 * restore and free for each slot. */
static void expand(struct search *s, uint64_t state, uint64_t d)
{
    const struct space *sp = s->sp;
    const uint64_t n = sp->n, base = sp->base, none = n + 1;
    const uint64_t live = state / sp->digit[0] % base;
    const uint64_t next = state % base;
    if (live < n)
        relax(s, state + sp->digit[0], d + 1);
    if (next == n + 1 && live == n)
        relax(s, state - 1, d); /* the turn */
    if (next >= 1 && next <= n && live == next - 1)
        relax(s, state - 1 + (none - live) * sp->digit[0], d);
    for (uint64_t k = 0; k < sp->slots; k++) {
        const uint64_t held = state / sp->digit[k + 1] % base;
        if (held == none && live != none)
            relax(s, state - (none - live) * sp->digit[k + 1], d + sp->w[k]);
        if (held != none) {
            const uint64_t moved =
                state - live * sp->digit[0] + held * sp->digit[0];
            relax(s, moved, d + sp->r[k]);
            relax(s, state + (none - held) * sp->digit[k + 1], d);
        }
    }
}

uint64_t fz_exhaust_cost(uint64_t n, const uint64_t *slots,
                         const uint64_t *write_cost, const uint64_t *read_cost,
                         size_t count)
{
    static struct space sp;
    CHECK(n >= 1 && fz_exhaust_fits(n, slots, count));
    sp.n = n, sp.base = n + 2, sp.slots = 0;
    for (size_t k = 0; k < count; k++)
        for (uint64_t i = 0; i < min_u64(slots[k], n); i++, sp.slots++) {
            sp.w[sp.slots] = write_cost[k];
            sp.r[sp.slots] = read_cost[k];
        }
    /* Digits: next is base^0, then the slots, then live (digit[0]). */
    uint64_t power = sp.base;
    for (uint64_t k = 0; k < sp.slots; k++, power *= sp.base)
        sp.digit[k + 1] = power;
    sp.digit[0]          = power;
    const uint64_t empty = n + 1;
    uint64_t start       = n + 1; /* x_0 live, before the turn */
    for (uint64_t k = 0; k < sp.slots; k++)
        start += empty * sp.digit[k + 1];
    struct search s = {&sp, malloc((size_t)(power * sp.base) * 8), {0}};
    CHECK(s.dist != NULL);
    memset(s.dist, 0xff, (size_t)(power * sp.base) * 8);
    relax(&s, start, 0);
    uint64_t best = INF;
    while (s.heap.count > 0) {
        const uint64_t key   = heap_pop(&s.heap);
        const uint64_t state = key & ((1u << 20) - 1), d = key >> 20;
        if (d != s.dist[state])
            continue;
        if (state % sp.base == 0) {
            best = d; /* next is 0: every step reversed */
            break;
        }
        expand(&s, state, d);
    }
    free(s.heap.key);
    free(s.dist);
    return best;
}

/* ---- the H-Revolve recurrence ---- */

/* One level's tables: B_k(l, m) at l * (cap + 1) + m, D_k(l). */
struct hrec {
    uint64_t n, cap, w, r;
    uint64_t *b, *d;
};

static uint64_t hrec_a(const struct hrec *h, uint64_t l, uint64_t m)
{
    if (l == 0)
        return 0;
    if (m == 0)
        return h->d[l];
    return min_u64(h->d[l], sat_add(h->w, h->b[l * (h->cap + 1) + m]));
}

static void hrec_fill(struct hrec *h)
{
    for (uint64_t m = 1; m <= h->cap; m++) {
        h->b[m] = 0;
        for (uint64_t l = 1; l <= h->n; l++) {
            uint64_t best = h->d[l];
            for (uint64_t j = 1; j <= l; j++) {
                uint64_t c = sat_add(j + h->r, hrec_a(h, l - j, m - 1));
                c          = sat_add(c, h->b[(j - 1) * (h->cap + 1) + m]);
                best       = min_u64(best, c);
            }
            h->b[l * (h->cap + 1) + m] = best;
        }
    }
}

uint64_t fz_hrevolve_cost(uint64_t n, const uint64_t *slots,
                          const uint64_t *write_cost, const uint64_t *read_cost,
                          size_t count)
{
    CHECK(n >= 1 && n <= FZ_HREC_STEPS && count >= 1);
    uint64_t *down = calloc((size_t)n + 1, sizeof *down);
    CHECK(down != NULL);
    for (uint64_t l = 1; l <= n; l++)
        down[l] = INF; /* D_0: no level below memory */
    uint64_t cost = INF;
    for (size_t k = 0; k < count; k++) {
        struct hrec h = {
            n, min_u64(slots[k], n), write_cost[k], read_cost[k], NULL, down};
        h.b = calloc((size_t)((n + 1) * (h.cap + 1)), sizeof *h.b);
        CHECK(h.b != NULL);
        hrec_fill(&h);
        uint64_t *next = calloc((size_t)n + 1, sizeof *next);
        CHECK(next != NULL);
        for (uint64_t l = 0; l <= n; l++)
            next[l] = hrec_a(&h, l, h.cap); /* D_{k+1}(l) */
        cost = next[n];
        free(h.b);
        free(down);
        down = next;
    }
    free(down);
    return cost;
}

/* ---- nested plans (dp) ---- */

uint64_t fz_nested_cost(uint64_t n, const uint64_t *units,
                        const uint64_t *costs, uint64_t budget)
{
    CHECK(n >= 1 && n <= FZ_NESTED_STEPS && budget <= FZ_NESTED_UNITS);
    if (units[0] > budget)
        return INF;
    const uint64_t w = budget + 1, span = n + 2;
    /* F(a, e, m) at (a * span + e) * w + m. */
    uint64_t *f = calloc((size_t)(span * span * w), sizeof *f);
    uint64_t prefix[FZ_NESTED_STEPS + 2] = {0};
    CHECK(f != NULL);
    for (uint64_t i = 0; i < n; i++)
        prefix[i + 1] = prefix[i] + costs[i];
    for (uint64_t len = 2; len <= n + 1; len++)
        for (uint64_t a = 0; a + len <= n + 1; a++) {
            const uint64_t e = a + len;
            for (uint64_t m = 0; m <= budget; m++) {
                uint64_t best = INF;
                for (uint64_t j = a + 1; j < e; j++) {
                    uint64_t c =
                        prefix[j] - prefix[a] + f[(a * span + j) * w + m];
                    if (j != e - 1)
                        c = units[j] <= m
                                ? sat_add(c,
                                          f[(j * span + e) * w + m - units[j]])
                                : INF;
                    best = min_u64(best, c);
                }
                f[(a * span + e) * w + m] = best;
            }
        }
    const uint64_t cost = f[(0 * span + n + 1) * w + budget - units[0]];
    free(f);
    return cost;
}
