/*
 * revolve's predicted counts, in time that does not grow with n:
 * forward steps from the closed form t(n+1, s) = r*l - beta(s+1, r-1), and
 * stores and peak slots from a walk down the one path of the recursion that
 * is not a full binomial block (full blocks have closed forms: a block
 * beta(c, r) stores beta(c-1, r) states, its first included, and holds c
 * slots at its peak when r >= 1).
 */
#include "revolve_node.h"

void uturn__rv_root(uint64_t n, uint64_t s, struct uturn__rv_node *root)
{
    assert(n < UINT64_MAX && s >= 1);
    const uint64_t l = n + 1;
    const uint64_t c = s < n ? s : n;
    uint64_t lo = 1, hi = n; /* beta(c, n) >= beta(1, n) = l */
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (uturn__binomial_capped(c, mid, l) >= l)
            hi = mid;
        else
            lo = mid + 1;
    }
    const uint64_t r    = lo;
    const uint64_t U    = (uint64_t)uturn__binomial_capped(c, r - 1, l);
    const uturn__u128 V = (uturn__u128)U * (c + r) / r - U;
    *root               = (struct uturn__rv_node){
                      0, l, U, r, c, V >= UTURN__RV_SAT ? UTURN__RV_SAT : (uint64_t)V};
}

/* t(l, c) for the root: r*l - beta(c+1, r-1), with
 * beta(c+1, r-1) = beta(c, r-1) * (c + r) / (c + 1). */
static uturn_status_t forward_steps(const struct uturn__rv_node *root,
                                    uint64_t *out)
{
    const uturn__u128 total = (uturn__u128)root->r * root->l;
    const uturn__u128 block =
        (uturn__u128)root->U * (root->c + root->r) / (root->c + 1);
    const uturn__u128 t = total - block;
    if (t > UINT64_MAX)
        return UTURN_E_OVERFLOW;
    *out = (uint64_t)t;
    return UTURN_OK;
}

struct tally {
    uturn__u128 stores; /* stores so far, every node's first state included */
    uint64_t held;      /* slots held by the nodes above the current one */
    uint64_t peak;
};

static void note_peak(struct tally *t, uint64_t slots)
{
    if (t->held + slots > t->peak)
        t->peak = t->held + slots;
}

static bool is_full(const struct uturn__rv_node *x)
{
    return x->V != UTURN__RV_SAT && x->l - x->U == x->V;
}

/* A node whose counts are closed forms: a full block, a store-all node
 * (r = 1: stores x_a .. x_{a+l-2}), or c <= 2. Returns false otherwise. */
static bool closed_form(const struct uturn__rv_node *x, struct tally *t)
{
    if (x->l == 1) {
        t->stores += 1;
        note_peak(t, 1);
    } else if (x->r == 1) {
        t->stores += x->l - 1;
        note_peak(t, x->l - 1);
    } else if (is_full(x)) {
        t->stores += x->V;
        note_peak(t, x->c);
    } else if (x->c == 1) {
        t->stores += 1;
        note_peak(t, 1);
    } else if (x->c == 2) {
        /* Every split of a 2-slot node stores its r+1-state right part:
         * r stores in all, one more when the node is a full block. */
        t->stores += x->r;
        note_peak(t, 2);
    } else {
        return false;
    }
    return true;
}

/* beta(c, r) = C(c + r, r) below 2^64, else 2^64 (which no l reaches). */
static uturn__u128 beta_cap(uint64_t c, uint64_t r)
{
    return uturn__binomial_capped(c, r, (uturn__u128)1 << 64);
}

/* Whether the node (l, d, r) with l - beta(d, r-1) = D splits off its
 * left part as the full block beta(d, r-2), leaving a right part that is
 * not full: l < V + W, i.e. D < beta(d-1, r) + beta(d, r-2) - beta(d,
 * r-1). The right part is then (l - W, d - 1, r) with the same D. */
static bool peels(uint64_t d, uint64_t r, uturn__u128 D)
{
    const uturn__u128 top = beta_cap(d - 1, r);
    if (top >> 64)
        return true; /* D < l < 2^64 - beta(d, r-1) */
    return top + beta_cap(d, r - 2) > beta_cap(d, r - 1) + D;
}

/* A chain of such splits from c down to the first d that does not peel
 * has a closed form (hockey stick: the peeled blocks sum to beta(c, r-1) -
 * beta(d, r-1), their stores to beta(c-1, r-1) - beta(d-1, r-1)). Walking
 * it split by split took O(s) steps (seconds for n = 10^9, s = 10^8;
 * found by the fuzzer). */
static void peel(struct uturn__rv_node *x, struct tally *t)
{
    if (x->r < 2 || x->c < 3 || is_full(x))
        return;
    const uturn__u128 D = x->l - x->U;
    if (!peels(x->c, x->r, D))
        return;
    uint64_t lo = 2, hi = x->c - 1; /* largest d < c that does not peel */
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (peels(mid, x->r, D))
            hi = mid - 1;
        else
            lo = mid;
    }
    const uint64_t d = lo, k = x->c - d;
    t->stores += beta_cap(x->c - 1, x->r - 1) - beta_cap(d - 1, x->r - 1);
    note_peak(t, x->r >= 3 ? x->c : k); /* a peeled block holds c slots */
    t->held += k;
    const uint64_t U    = (uint64_t)beta_cap(d, x->r - 1);
    const uturn__u128 V = beta_cap(d - 1, x->r);
    x->a += x->l - (uint64_t)D - U;
    x->l = (uint64_t)D + U;
    x->c = d;
    x->U = U;
    x->V = V >> 64 ? UTURN__RV_SAT : (uint64_t)V;
}

/* Walk the non-full path; each step lowers c or r, and chains that lower
 * only c are taken in one closed-form step, so about s + r steps at most
 * without them, and O(r^2 log s) with. */
static void walk(struct uturn__rv_node x, struct tally *t)
{
    for (peel(&x, t); !closed_form(&x, t); peel(&x, t)) {
        struct uturn__rv_node left, right;
        uturn__rv_split(&x, &left, &right);
        /* One part is always a full block (or a single state). */
        const bool right_general = right.l >= 2 && !is_full(&right);
        if (right.l >= 2 && !right_general) {
            t->held += 1;
            closed_form(&right, t);
            t->held -= 1;
        }
        if (right_general) {
            closed_form(&left, t);
            t->held += 1;
            x = right;
        } else {
            x = left;
        }
    }
}

uint64_t uturn__rv_node_stores(const struct uturn__rv_node *x)
{
    struct tally t = {0, 0, 0};
    walk(*x, &t);
    return t.stores > UINT64_MAX ? UINT64_MAX : (uint64_t)t.stores;
}

uturn_status_t uturn__revolve_counts(uint64_t n, uint64_t s, uturn_stats_t *out)
{
    struct uturn__rv_node root;
    uturn__rv_root(n, s, &root);
    struct tally t = {0, 0, 0};
    walk(root, &t);
    if (forward_steps(&root, &out->forward_steps) != UTURN_OK ||
        t.stores > UINT64_MAX)
        return UTURN_E_OVERFLOW;
    out->stores        = (uint64_t)t.stores;
    out->frees         = out->stores;
    out->peak_slots    = t.peak;
    out->reverse_steps = n;
    out->restores      = n;
    /* n advances, n restores, n reverses, the turn, stores and frees. */
    uint64_t actions = 0;
    if (uturn__mul_u64(n, 3, &actions) != UTURN_OK ||
        uturn__add_u64(actions, 1, &actions) != UTURN_OK ||
        uturn__add_u64(actions, out->stores, &actions) != UTURN_OK ||
        uturn__add_u64(actions, out->frees, &out->actions) != UTURN_OK)
        return UTURN_E_OVERFLOW;
    return UTURN_OK;
}
