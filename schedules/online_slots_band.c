/* The online planner for any slot count: its first sweep up to lim2,
 * Stumm and Walther's band rule with O(1) bookkeeping (online_slots.h). */
#include "online_slots.h"

#define NIL UTURN__OS_NIL

static bool before(const struct uturn__os_view *v, uint32_t a, uint32_t b)
{
    return v->nodes[v->heap[a]].pos < v->nodes[v->heap[b]].pos;
}

static void heap_swap(struct uturn__os_view *v, uint32_t a, uint32_t b)
{
    const uint32_t t             = v->heap[a];
    v->heap[a]                   = v->heap[b];
    v->heap[b]                   = t;
    v->nodes[v->heap[a]].heap_at = a;
    v->nodes[v->heap[b]].heap_at = b;
}

/* A leftover: a checkpoint no region's chain holds any more. */
static void heap_push(struct uturn__os_view *v, uint32_t node)
{
    uint32_t i             = v->h->nheap++;
    v->heap[i]             = node;
    v->nodes[node].heap_at = i;
    while (i > 0 && before(v, i, (i - 1) / 2)) {
        heap_swap(v, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

/* The lowest leftover, taken out of the heap. */
static uint32_t heap_pop(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h      = v->h;
    const uint32_t top           = v->heap[0];
    v->heap[0]                   = v->heap[--h->nheap];
    v->nodes[v->heap[0]].heap_at = 0;
    for (uint32_t i = 0;;) {
        const uint32_t l = 2 * i + 1, r = l + 1;
        uint32_t b = i;
        b          = l < h->nheap && before(v, l, b) ? l : b;
        b          = r < h->nheap && before(v, r, b) ? r : b;
        if (b == i)
            break;
        heap_swap(v, i, b);
        i = b;
    }
    v->nodes[top].heap_at = NIL;
    return top;
}

static uint32_t node_append(struct uturn__os_view *v, uint64_t pos,
                            uint64_t slot)
{
    struct uturn__os_hdr *h = v->h;
    const uint32_t i        = v->spare[--h->nnf];
    v->nodes[i]             = (struct uturn__os_node){
                    .pos = pos, .slot = slot, .prev = h->tail, .next = NIL, .heap_at = NIL};
    if (h->tail != NIL)
        v->nodes[h->tail].next = i;
    else
        h->head = i;
    h->tail = i;
    h->k += 1;
    return i;
}

static void node_remove(struct uturn__os_view *v, uint32_t i)
{
    struct uturn__os_hdr *h        = v->h;
    const struct uturn__os_node *n = &v->nodes[i];
    if (n->prev != NIL)
        v->nodes[n->prev].next = n->next;
    else
        h->head = n->next;
    if (n->next != NIL)
        v->nodes[n->next].prev = n->prev;
    else
        h->tail = n->prev;
    v->spare[h->nnf++] = i;
    h->k -= 1;
}

void uturn__os_band_start(struct uturn__os_view *v, uint64_t slot)
{
    struct uturn__os_hdr *h = v->h;
    const uint64_t s        = h->s;
    h->nnf                  = 0;
    for (uint32_t i = (uint32_t)(s + 2); i-- > 0;)
        v->spare[h->nnf++] = i;
    h->head = h->tail = NIL;
    h->nheap          = 0;
    h->k              = 0;
    node_append(v, 0, slot);
    for (uint64_t y = 0; y < s + 3; y++)
        v->chain_node[y] = NIL;
    v->P[0] = 0;
    v->R[1] = 0;
    v->Q[1] = v->QM[1] = 1;
    v->QA[1]           = 1;
    h->d               = 0;
    h->last            = 1;
    h->next_trig       = 1;
}

/* Region x triggered at m: its chain moves to m, the deeper regions'
 * chain checkpoints become leftovers, region x + 1 restarts. */
static void trigger(struct uturn__os_view *v, uint64_t x, uint64_t m)
{
    struct uturn__os_hdr *h = v->h;
    const uint64_t s        = h->s;
    for (uint64_t y = x; y <= h->d; y++)
        if (v->chain_node[y] != NIL) {
            heap_push(v, v->chain_node[y]);
            v->chain_node[y] = NIL;
        }
    v->R[x] += 1;
    v->P[x]           = m;
    v->Q[x]           = uturn__sat_add(v->P[x - 1],
                                       uturn__bin_beta(s - x + 1, v->R[x], UINT64_MAX));
    h->d              = x;
    const bool lowest = x == 1 || v->Q[x] < v->QM[x - 1];
    v->QM[x]          = lowest ? v->Q[x] : v->QM[x - 1];
    v->QA[x]          = lowest ? (uint32_t)x : v->QA[x - 1];
    h->last           = x;
    if (s - x >= 2) {
        v->R[x + 1]  = 0;
        v->Q[x + 1]  = m + 1;
        const bool l = m + 1 < v->QM[x];
        v->QM[x + 1] = l ? m + 1 : v->QM[x];
        v->QA[x + 1] = l ? (uint32_t)(x + 1) : v->QA[x];
        h->last      = x + 1;
    }
    h->next_trig = v->QM[h->last];
}

struct uturn__os_decision uturn__os_band_step(struct uturn__os_view *v)
{
    struct uturn__os_hdr *h     = v->h;
    const uint64_t m            = h->m;
    struct uturn__os_decision d = {false, UTURN_NONE, 0};
    if (m != h->next_trig)
        return d;
    const uint64_t x = v->QA[h->last]; /* the lowest region due at m */
    trigger(v, x, m);
    if (h->k == h->s) { /* every slot held: free the lowest leftover */
        const uint32_t gone = heap_pop(v);
        d.free_slot         = v->nodes[gone].slot;
        uturn__os_push(v, d.free_slot);
        node_remove(v, gone);
    }
    d.store          = true;
    d.slot           = uturn__os_pop(v);
    v->chain_node[x] = node_append(v, m, d.slot);
    return d;
}
