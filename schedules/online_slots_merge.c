/* The online planner for any slot count: its first sweep past lim2,
 * stores at a threshold and the cheapest merge (online_slots.h). */
#include "online_slots.h"

#include <assert.h>

/* Segment j of length len becomes final: its cost with c_j = ks - j
 * slots, the prefix sums and the prefix minimum of the merge keys (ks is
 * s but for a byte budget's plan whose s fell a little since the last
 * rekey: the keys then rank the merges for a few slots more than there
 * are, which changes no promise, only the choice). */
static void push(struct uturn__os_view *v, uint64_t j, uint64_t pos,
                 uint64_t slot, uint64_t len)
{
    const uint64_t c        = v->h->ks - j;
    struct uturn__os_ent *e = &v->e[j];
    e->pos                  = pos;
    e->slot                 = slot;
    e->len                  = len;
    e->t                    = uturn__bin_t(len, c);
    e->pg = (j != 0 ? v->e[j - 1].pg : 0) + (e->t - uturn__bin_t(len, c + 1));
    if (j == 0)
        return;
    const struct uturn__os_ent *p = &v->e[j - 1];
    const int64_t merge           = (int64_t)uturn__bin_t(p->len + len, c + 1) -
                          (int64_t)p->t - (int64_t)e->t;
    e->key            = merge + (int64_t)e->pg;
    const bool lowest = j == 1 || e->key <= p->min_key;
    e->min_key        = lowest ? e->key : p->min_key;
    e->min_at         = lowest ? j : p->min_at;
}

void uturn__os_to_merge(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h = v->h;
    uint64_t j              = 0;
    h->ks                   = h->s;
    for (uint32_t i = h->head; i != UTURN__OS_NIL; i = v->nodes[i].next, j++) {
        const struct uturn__os_node *n = &v->nodes[i];
        if (n->next == UTURN__OS_NIL) {
            h->top_pos  = n->pos;
            h->top_slot = n->slot;
        } else {
            push(v, j, n->pos, n->slot, v->nodes[n->next].pos - n->pos);
        }
    }
    h->phase = OS_MERGE;
    h->ks    = h->s;
    h->rnow  = uturn__bin_rep(h->m + 2, h->s);
    h->bnow  = uturn__bin_beta(h->s, h->rnow, UINT64_MAX);
}

/* Free the checkpoint that starts segment q (1 <= q < k): segments q-1
 * and q merge, the ones above move down a place. */
static uint64_t merge_at(struct uturn__os_view *v, uint64_t q)
{
    const uint64_t k    = v->h->k;
    const uint64_t gone = v->e[q].slot;
    const uint64_t len  = v->e[q - 1].len + v->e[q].len;
    push(v, q - 1, v->e[q - 1].pos, v->e[q - 1].slot, len);
    for (uint64_t j = q; j + 1 < k; j++) {
        const struct uturn__os_ent old = v->e[j + 1];
        push(v, j, old.pos, old.slot, old.len);
    }
    return gone;
}

struct uturn__os_decision uturn__os_merge_step(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h = v->h;
    const uint64_t m = h->m, k = h->k;
    struct uturn__os_decision d = {false, UTURN_NONE, 0};
    if (h->s == 1) /* x_0's slot alone: nothing else is ever held */
        return d;
    while (h->bnow < m + 2)
        h->bnow = uturn__bin_beta(h->s, ++h->rnow, UINT64_MAX);
    if (k == h->s && m - h->top_pos < h->rnow + h->add)
        return d;
    push(v, k - 1, h->top_pos, h->top_slot, m - h->top_pos);
    if (k == h->s) {
        assert(k >= 2);
        d.free_slot = merge_at(v, v->e[k - 1].min_at);
        uturn__os_push(v, d.free_slot);
    } else {
        h->k += 1;
    }
    d.store     = true;
    d.slot      = uturn__os_pop(v);
    h->top_pos  = m;
    h->top_slot = d.slot;
    return d;
}

uint64_t uturn__os_evict(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h = v->h;
    const uint64_t k        = h->k;
    assert(k >= 2 && k > h->s);
    push(v, k - 1, h->top_pos, h->top_slot, h->m - h->top_pos);
    const uint64_t gone = merge_at(v, v->e[k - 1].min_at);
    h->k                = k - 1;
    h->top_pos          = v->e[k - 2].pos;
    h->top_slot         = v->e[k - 2].slot;
    uturn__os_push(v, gone);
    return gone;
}

void uturn__os_rekey(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h = v->h;
    h->ks                   = h->s;
    for (uint64_t j = 0; j + 1 < h->k; j++) {
        const struct uturn__os_ent old = v->e[j];
        push(v, j, old.pos, old.slot, old.len);
    }
    h->lim2 = (h->s + 1) * (h->s + 2) / 2;
    h->add  = h->s <= 6 ? 1 : 0;
    h->rnow = uturn__bin_rep(h->m + 2, h->s);
    h->bnow = uturn__bin_beta(h->s, h->rnow, UINT64_MAX);
}
