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

/* With r = 2 and l <= V = beta(c-1, 2), a split peels off one state
 * (j = 1): the left part is x_a alone and the right part is (l-1, c-1),
 * still r = 2. That repeats while d(d-1)/2 >= l - c for d = c, c-1, ..
 * (l - c stays fixed), so the chain has a closed form: k steps store k
 * states and hold one more slot each. Without it the walk took O(s) steps
 * (6 s for n = 10^9, s = 10^8; found by the fuzzer). */
static void peel_r2(struct uturn__rv_node *x, struct tally *t)
{
    if (x->r != 2 || x->c < 3 || x->l > x->V)
        return;
    const uturn__u128 D = x->l - x->c;
    uint64_t lo = 1, hi = x->c; /* largest d <= c with d(d-1)/2 < D */
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if ((uturn__u128)mid * (mid - 1) / 2 < D)
            lo = mid;
        else
            hi = mid - 1;
    }
    const uint64_t stop = lo > 2 ? lo : 2;
    const uint64_t k    = x->c - stop;
    if (k == 0)
        return;
    t->stores += k;
    note_peak(t, k);
    t->held += k;
    x->a += k;
    x->l -= k;
    x->c = stop;
    x->U = stop + 1;
    x->V = (uint64_t)((uturn__u128)stop * (stop + 1) / 2);
}

/* Walk the non-full path; each step lowers c or r, and r = 2 chains are
 * skipped in closed form, so at most about sqrt(2n) + r steps. */
static void walk(struct uturn__rv_node x, struct tally *t)
{
    for (peel_r2(&x, t); !closed_form(&x, t); peel_r2(&x, t)) {
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
