/*
 * hrevolve's generator, shared by the hrevolve planner (the whole chain)
 * and the online planner with levels (one period at a time, from a
 * checkpoint held on the slowest level).
 *
 * The generator walks the recursion with an explicit stack of pending
 * left parts, one frame per held checkpoint, so a cursor holds
 * O(sum of min(c_k, n)) memory. Slots of a level are used as a stack from
 * the level's first slot, numbered across levels from the given
 * capacities (level 0 holds 0 .. c_0-1, level 1 the next c_1, ...); a
 * segment may instead name the top level's slots it uses (its map).
 */
#include "hrevolve.h"

#include <assert.h>
#include <string.h>

enum node_type { NODE_A, NODE_B };

struct frame {
    uint64_t a, l, m, slot;
    size_t k;
};

struct state {
    const struct uturn__hr_tables *t;
    const uint64_t *map; /* the top level's slots by depth, or NULL */
    uint64_t n;          /* the chain's steps: x_n's reversal is the turn */
    size_t level;        /* the segment's top level */
    bool keep;           /* the held x_a's slot stays stored at the end */
    enum node_type type;
    struct frame cur;
    bool live, done;
    uint64_t depth[UTURN__MAX_LEVELS]; /* slots in use per level */
    uint64_t top;                      /* frames on the stack */
    struct frame stack[];
};

static uint64_t frame_bound(const struct uturn__hr_tables *t)
{
    uint64_t frames = 1;
    for (size_t k = 0; k < t->levels; k++)
        frames += t->cap[k];
    return frames;
}

uturn_status_t uturn__hr_gen_size(const struct uturn__hr_tables *t,
                                  size_t *bytes)
{
    const uint64_t frames = frame_bound(t);
    if (frames > (SIZE_MAX - sizeof(struct state)) / sizeof(struct frame))
        return UTURN_E_NOMEM;
    *bytes = sizeof(struct state) + (size_t)frames * sizeof(struct frame);
    return UTURN_OK;
}

/* A segment with x_a live and in no slot starts as an A node at the top
 * level; one whose x_a is held in map[0] as a B node whose first state is
 * not live (its first action restores it). */
void uturn__hr_gen_start(const struct uturn__hr_tables *t, void *state,
                         const struct uturn__hr_segment *seg)
{
    struct state *g = state;
    assert(seg->above < t->levels);
    const size_t top = t->levels - 1 - seg->above;
    assert(seg->l <= t->n && seg->m <= t->cap[top]);
    memset(g, 0, sizeof *g);
    g->t     = t;
    g->map   = seg->map;
    g->n     = seg->n;
    g->level = top;
    g->keep  = seg->held && seg->keep;
    g->live  = !seg->held || seg->live;
    g->type  = seg->held ? NODE_B : NODE_A;
    g->cur   = (struct frame){seg->a, seg->l, seg->m, 0, top};
    if (seg->held) {
        assert(seg->map != NULL && seg->m >= 1);
        g->cur.slot   = seg->map[0];
        g->depth[top] = 1;
    }
}

/* The slot at depth d of level k. */
static uint64_t slot_at(const struct state *g, size_t k, uint64_t d)
{
    if (g->map != NULL && k == g->level)
        return g->map[d];
    return g->t->base[k] + d;
}

/* A sub-problem is done: resume the latest pending left part, whose first
 * state is in its slot but no longer live. */
static void pop_or_done(struct state *g)
{
    if (g->top == 0) {
        g->done = true;
        return;
    }
    g->cur  = g->stack[--g->top];
    g->type = NODE_B;
    g->live = false;
}

static void go_down(struct state *g)
{
    assert(g->cur.k > 0);
    g->cur.k--;
    g->cur.m = g->t->cap[g->cur.k];
    g->type  = NODE_A;
}

static size_t step_a(struct state *g, uturn_action_t *out)
{
    const struct frame c = g->cur;
    if (c.l == 0) {
        const size_t count = uturn__put_reverse(out, c.a, g->n);
        pop_or_done(g);
        return count;
    }
    if (uturn__hr_a_goes_down(g->t, c.k, c.l, c.m)) {
        go_down(g);
        return 0;
    }
    g->cur.slot = slot_at(g, c.k, g->depth[c.k]++);
    g->type     = NODE_B;
    return uturn__put(out, UTURN_OP_STORE, c.a, 0, g->cur.slot);
}

/* Free the slot of the current B node: its level's top, since a level's
 * slots are used as a stack; a kept x_a (the top level's first) stays. */
static size_t release(struct state *g, uturn_action_t *out)
{
    const size_t k = g->cur.k;
    assert(g->depth[k] > 0);
    g->depth[k]--;
    assert(slot_at(g, k, g->depth[k]) == g->cur.slot);
    if (g->keep && k == g->level && g->depth[k] == 0)
        return 0;
    return uturn__put(out, UTURN_OP_FREE, 0, 0, g->cur.slot);
}

static size_t step_b(struct state *g, uturn_action_t *out)
{
    const struct frame c = g->cur;
    size_t count         = 0;
    if (!g->live)
        count += uturn__put(out + count, UTURN_OP_RESTORE, c.a, 0, c.slot);
    g->live = true;
    if (c.l == 0) { /* kept: a sweep's end holds only what persists */
        if (g->keep)
            count += release(g, out + count);
        count += uturn__put_reverse(out + count, c.a, g->n);
        if (!g->keep)
            count += release(g, out + count);
        pop_or_done(g);
        return count;
    }
    const uint64_t j = uturn__hr_split(g->t, c.k, c.l, c.m);
    if (j == 0) {
        count += release(g, out + count);
        go_down(g);
        return count;
    }
    count += uturn__put(out + count, UTURN_OP_ADVANCE, c.a, c.a + j, 0);
    assert(g->top < frame_bound(g->t));
    g->stack[g->top++] = (struct frame){c.a, j - 1, c.m, c.slot, c.k};
    g->cur             = (struct frame){c.a + j, c.l - j, c.m - 1, 0, c.k};
    g->type            = NODE_A;
    return count;
}

/* Each step writes at most 3 actions (restore, reverse, free). */
size_t uturn__hr_gen_fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct state *g = state;
    size_t count    = 0;
    while (!g->done && count + 3 <= capacity)
        count +=
            g->type == NODE_A ? step_a(g, out + count) : step_b(g, out + count);
    return count;
}
