/*
 * hrevolve's tables (the recurrences are in hrevolve.h): what a build
 * needs, in time independent of n, and the build itself. Rows run in
 * increasing m and columns in increasing l; level k is built after level
 * k-1, whose A it reads as D_k.
 */
#include "hrevolve.h"

#include <assert.h>

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static uint64_t saturate(uturn__u128 x)
{
    return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

/* Split candidates the plain dynamic program evaluates for one level of
 * cap slots: l of them for every m <= cap and m <= l <= n (rows m > l are
 * copies), that is cap n(n+1)/2 - (cap-1) cap (cap+1)/6; cap n on a free
 * level 0, whose rows have a closed form. */
static uturn__u128 level_work(uint64_t n, uint64_t cap, bool closed)
{
    if (closed || cap == 0)
        return (uturn__u128)cap * n;
    const uturn__u128 all  = (uturn__u128)cap * n * (n + 1) / 2;
    const uturn__u128 less = (uturn__u128)(cap - 1) * cap * (cap + 1) / 6;
    return all - less;
}

static bool closed_form(const struct uturn__hr_level *levels, size_t k)
{
    return k == 0 && levels[0].write_cost == 0 && levels[0].read_cost == 0;
}

void uturn__hr_need(uint64_t n, const struct uturn__hr_level *levels,
                    size_t count, struct uturn__hr_need *out)
{
    /* Below 2^40 steps every term is below 2^124 and there are at most
     * UTURN__MAX_LEVELS of them, so 128 bits are exact; longer chains are
     * refused on their steps alone, and saturated figures say enough. */
    out->bytes = UINT64_MAX;
    out->work  = UINT64_MAX;
    if (n >= (uint64_t)1 << 40)
        return;
    uturn__u128 bytes =
        sizeof(struct uturn__hr_tables) + 8 * (uturn__u128)(n + 1);
    uturn__u128 work = 0;
    for (size_t k = 0; k < count; k++) {
        const uint64_t cap = min_u64(levels[k].slots, n);
        bytes += (12 * (uturn__u128)cap + 8) * (n + 1);
        work += level_work(n, cap, closed_form(levels, k));
    }
    out->bytes = saturate(bytes);
    out->work  = saturate(work);
}

/* ---- the pruned split search */

/* One entry's search for its best split. */
struct search {
    const uint64_t *left;  /* B_k(., m), the row being filled */
    const uint64_t *right; /* A_k(., m-1), copied out once per row */
    uint64_t read, l, best, j;
    uint64_t evals; /* bounds and candidates evaluated */
};

static inline uint64_t candidate(const struct search *s, uint64_t j)
{
    return uturn__hr_sat_add(uturn__hr_sat_add(j + s->read, s->left[j - 1]),
                             s->right[s->l - j]);
}

/*
 * Every candidate j in [lo, hi] costs at least
 *   hi + r_k + B_k(lo-1, m) + A_k(l-hi, m-1),
 * because A_k, B_k and D_k grow by at least 1 per step of length (by
 * induction on l and k: a split at length l+1 costs at least the same
 * split at length l plus 1, the new split j = l+1 costs at least B(l) + 1,
 * and the D branch inherits it from the level below). So B(j-1) >=
 * B(lo-1) + (j-lo) and A(l-j) >= A(l-hi) + (hi-j). A range whose bound is
 * not below the best so far holds no strictly better split, so the
 * minimum stays exact; the first best met wins, so the choice is
 * deterministic.
 */
static void search_range(struct search *s, uint64_t lo, uint64_t hi)
{
    const uint64_t bound = uturn__hr_sat_add(
        uturn__hr_sat_add(hi + s->read, s->left[lo - 1]), s->right[s->l - hi]);
    s->evals += 1;
    if (bound >= s->best)
        return;
    if (hi - lo < 8) {
        s->evals += hi - lo + 1;
        for (uint64_t j = lo; j <= hi; j++) {
            const uint64_t v = candidate(s, j);
            if (v < s->best) {
                s->best = v;
                s->j    = j;
            }
        }
        return;
    }
    const uint64_t mid = lo + (hi - lo) / 2;
    search_range(s, lo, mid);
    search_range(s, mid + 1, hi);
}

/* B_k(l, m) for 1 <= m <= l. The D branch and the split found for l - 1
 * seed the best, which only speeds the pruning up. */
static void fill_entry(struct uturn__hr_tables *t, size_t k, uint64_t l,
                       uint64_t m, const uint64_t *right)
{
    struct search s  = {&t->cost[k][uturn__hr_entry(t, 0, m)],
                        right,
                        t->r[k],
                        l,
                        t->down[k][l],
                        0,
                        0};
    uint64_t hint    = uturn__hr_split(t, k, l - 1, m);
    hint             = hint < 1 ? 1 : hint > l ? l : hint;
    const uint64_t v = candidate(&s, hint);
    if (v < s.best) {
        s.best = v;
        s.j    = hint;
    }
    search_range(&s, 1, l);
    t->cost[k][uturn__hr_entry(t, l, m)]  = s.best;
    t->split[k][uturn__hr_entry(t, l, m)] = (uint32_t)s.j;
    t->evals += s.evals;
}

/*
 * With w_0 = r_0 = 0, level 0 is single-level revolve: B_0(l, m) =
 * t(l+1, m) with beta(m, r) = C(m+r, m), r least with beta(m, r) >= L =
 * l+1, t(L, m) = r L - beta(m+1, r-1), and one optimal split is
 * j = max(1, beta(m, r-2), L - beta(m-1, r)) (as revolve's). r only grows
 * with l, so a row costs O(n) and each beta is an exact integer quotient
 * of the one before. Every beta here is below 2^30 and every product
 * below 2^60 (L <= 2^28 + 1).
 */
static void fill_row_closed(struct uturn__hr_tables *t, uint64_t m)
{
    uint64_t r = 1, beta = m + 1, prev = 1; /* beta(m, r), beta(m, r-1) */
    for (uint64_t l = 1; l <= t->n && l < m; l++) {
        t->cost[0][uturn__hr_entry(t, l, m)] = uturn__hr_b(t, 0, l, l);
        t->split[0][uturn__hr_entry(t, l, m)] =
            t->split[0][uturn__hr_entry(t, l, l)];
    }
    for (uint64_t l = m; l <= t->n; l++) {
        const uint64_t L = l + 1;
        while (beta < L) {
            prev = beta;
            r++;
            beta = prev * (m + r) / r;
        }
        const uint64_t block = prev * (m + r) / (m + 1); /* beta(m+1,r-1) */
        const uint64_t left  = r >= 2 ? prev * (r - 1) / (m + r - 1) : 0;
        const uint64_t right = beta * m / (m + r); /* beta(m-1, r) */
        uint64_t j           = L > right ? L - right : 0;
        j                    = j > left ? j : left;
        j                    = j > 1 ? j : 1;
        t->cost[0][uturn__hr_entry(t, l, m)]  = r * L - block;
        t->split[0][uturn__hr_entry(t, l, m)] = (uint32_t)j;
    }
}

static void fill_down(struct uturn__hr_tables *t, size_t k)
{
    t->down[k][0] = 0;
    for (uint64_t l = 1; l <= t->n; l++)
        t->down[k][l] =
            k == 0 ? UTURN__HR_INF : uturn__hr_a(t, k - 1, l, t->cap[k - 1]);
}

/* Row m of a level without the closed form. A row m > l copies B_k(l, l):
 * a segment of l steps has only l states worth storing, and storing one
 * twice in a level is useless, so B_k(l, m) = B_k(l, min(m, l)). false
 * when the search passed its limit (the row is then unfinished). */
static bool fill_row(struct uturn__hr_tables *t, size_t k, uint64_t m,
                     uint64_t *right)
{
    for (uint64_t l = 0; l <= t->n; l++)
        right[l] = uturn__hr_a(t, k, l, m - 1);
    for (uint64_t l = 1; l <= t->n; l++) {
        if (m > l) {
            t->cost[k][uturn__hr_entry(t, l, m)] = uturn__hr_b(t, k, l, l);
            t->split[k][uturn__hr_entry(t, l, m)] =
                (uint32_t)uturn__hr_split(t, k, l, l);
        } else {
            fill_entry(t, k, l, m, right);
            if (t->evals > t->limit)
                return false;
        }
    }
    return true;
}

/* A finished row's plain work (hrevolve_need's units): n on a closed
 * level, else the l candidates of each l from m to n. */
static uint64_t row_work(uint64_t n, uint64_t m, bool closed)
{
    if (closed)
        return n;
    return (uint64_t)((uturn__u128)n * (n + 1) / 2 -
                      (uturn__u128)(m - 1) * m / 2);
}

/* Report progress when another 1% of the plain work is done; false when
 * the watcher says stop. */
static bool report(struct uturn__hr_tables *t, uint64_t work)
{
    struct uturn__hr_watch *w = t->watch;
    if (w == NULL)
        return true;
    w->done += work;
    if (w->done < w->next && w->done < w->total)
        return true;
    w->next    = w->done + (w->total / 100 > 0 ? w->total / 100 : 1);
    w->stopped = w->progress(w->user, w->done, w->total) != 0;
    return !w->stopped;
}

static uturn_status_t fill_level(struct uturn__hr_tables *t, size_t k,
                                 bool closed, uint64_t *right)
{
    fill_down(t, k);
    for (uint64_t m = 1; m <= t->cap[k]; m++) {
        t->cost[k][uturn__hr_entry(t, 0, m)]  = 0;
        t->split[k][uturn__hr_entry(t, 0, m)] = 0;
        if (closed)
            fill_row_closed(t, m);
        else if (!fill_row(t, k, m, right))
            return UTURN_E_UNSUPPORTED;
        if (!report(t, row_work(t->n, m, closed)))
            return UTURN_E_CALLBACK;
    }
    return UTURN_OK;
}

static size_t cells(const struct uturn__hr_tables *t, size_t k)
{
    return (size_t)(t->cap[k] * (t->n + 1));
}

static uturn_status_t alloc_level(const uturn_allocator_t *a,
                                  struct uturn__hr_tables *t, size_t k)
{
    t->down[k]  = uturn__alloc(a, (size_t)(t->n + 1) * sizeof(uint64_t));
    t->cost[k]  = uturn__alloc(a, cells(t, k) * sizeof(uint64_t));
    t->split[k] = uturn__alloc(a, cells(t, k) * sizeof(uint32_t));
    if (t->down[k] == NULL || t->cost[k] == NULL || t->split[k] == NULL)
        return UTURN_E_NOMEM;
    return UTURN_OK;
}

void uturn__hr_free(const uturn_allocator_t *a, struct uturn__hr_tables *t)
{
    if (t == NULL)
        return;
    for (size_t k = 0; k < t->levels; k++) {
        uturn__free(a, t->down[k], (size_t)(t->n + 1) * sizeof(uint64_t));
        uturn__free(a, t->cost[k], cells(t, k) * sizeof(uint64_t));
        uturn__free(a, t->split[k], cells(t, k) * sizeof(uint32_t));
    }
    uturn__free(a, t, sizeof *t);
}

static uturn_status_t build_levels(const uturn_allocator_t *a,
                                   struct uturn__hr_tables *t,
                                   const struct uturn__hr_level *levels,
                                   uint64_t *row)
{
    for (size_t k = 0; k < t->levels; k++) {
        t->cap[k]  = min_u64(levels[k].slots, t->n);
        t->base[k] = k == 0 ? 0 : t->base[k - 1] + levels[k - 1].slots;
        t->w[k]    = levels[k].write_cost;
        t->r[k]    = levels[k].read_cost;
        if (alloc_level(a, t, k) != UTURN_OK)
            return UTURN_E_NOMEM;
        const uturn_status_t st = fill_level(t, k, closed_form(levels, k), row);
        if (st != UTURN_OK)
            return st;
    }
    const size_t top = t->levels - 1;
    return uturn__hr_a(t, top, t->n, t->cap[top]) == UTURN__HR_INF
               ? UTURN_E_INFEASIBLE
               : UTURN_OK;
}

uturn_status_t uturn__hr_build(const uturn_allocator_t *a, uint64_t n,
                               const struct uturn__hr_level *levels,
                               size_t count, struct uturn__hr_tables **out)
{
    return uturn__hr_build_watched(a, n, levels, count, UINT64_MAX, NULL, out);
}

uturn_status_t uturn__hr_build_watched(const uturn_allocator_t *a, uint64_t n,
                                       const struct uturn__hr_level *levels,
                                       size_t count, uint64_t limit,
                                       struct uturn__hr_watch *watch,
                                       struct uturn__hr_tables **out)
{
    assert(n >= 1 && n <= UTURN__HR_MAX_STEPS);
    assert(count >= 1 && count <= UTURN__MAX_LEVELS);
    *out                       = NULL;
    struct uturn__hr_tables *t = uturn__alloc_zeroed(a, 1, sizeof *t);
    uint64_t *row              = uturn__alloc(a, (size_t)(n + 1) * sizeof *row);
    if (t == NULL || row == NULL) {
        uturn__free(a, t, sizeof *t);
        uturn__free(a, row, (size_t)(n + 1) * sizeof *row);
        return UTURN_E_NOMEM;
    }
    t->n                    = n;
    t->levels               = count;
    t->limit                = limit;
    t->watch                = watch;
    const uturn_status_t st = build_levels(a, t, levels, row);
    uturn__free(a, row, (size_t)(n + 1) * sizeof *row);
    if (st != UTURN_OK) {
        uturn__hr_free(a, t);
        return st;
    }
    *out = t;
    return UTURN_OK;
}
