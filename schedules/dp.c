/* dp: the planner's interface and its action generator. What to build is
 * decided in dp_admit.c, the tables are dp_table.c's and dp_band.c's, the
 * counts dp_count.c's. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "dp.h"

#include "dp_band.h"

#include <time.h>

/* A child of a coarse or band node: the short rows' exact plan once the
 * segment is short enough for them (the grid reads the same rows, so the
 * values agree), else the coarse grid. */
static uint64_t grid_kind(const struct uturn__dp *dp, uint64_t a, uint64_t e)
{
    return e - a <= dp->band->W ? UTURN__DP_TABLE : UTURN__DP_COARSE;
}

/* The split of a band or coarse node, and the kinds of its children. */
static uint64_t decide_grid(const struct uturn__dp *dp,
                            struct uturn__dp_node *n, uint64_t *left,
                            uint64_t *right)
{
    const struct uturn__dp_band *b = dp->band;
    if (n->kind == UTURN__DP_COARSE) {
        bool band        = false;
        const uint64_t j = uturn__dp_coarse_split(b, n->a, n->e, n->m, &band);
        if (!band) {
            *left  = grid_kind(dp, n->a, j);
            *right = grid_kind(dp, j, n->e);
            return j;
        }
        n->kind = UTURN__DP_BAND; /* the band from here to the end */
    }
    if (n->a + b->W >= dp->chain.n + 1) {
        *left = *right = UTURN__DP_TABLE;
        return uturn__dp_split(&dp->table, &dp->chain, n->a, n->e, n->m);
    }
    *left  = UTURN__DP_TABLE;
    *right = UTURN__DP_BAND;
    return uturn__dp_band_next(b, n->a, n->m);
}

uint64_t uturn__dp_decide(const struct uturn__dp *dp,
                          const struct uturn__dp_node *n,
                          struct uturn__dp_node *left,
                          struct uturn__dp_node *right)
{
    struct uturn__dp_node node = *n;
    uint64_t j = 0, lk = node.kind, rk = node.kind;
    if (node.kind == UTURN__DP_STORE_ALL)
        j = node.a + 1;
    else if (node.kind == UTURN__DP_SWEEP)
        j = node.e - 1;
    else if (node.kind == UTURN__DP_TABLE)
        j = uturn__dp_split(&dp->table, &dp->chain, node.a, node.e, node.m);
    else
        j = decide_grid(dp, &node, &lk, &rk);
    *left = (struct uturn__dp_node){node.a, j, node.m, node.slot, lk};
    const uint64_t u = j < dp->chain.n ? dp->chain.units[j] : 0;
    *right = (struct uturn__dp_node){j, node.e, node.m >= u ? node.m - u : 0,
                                     node.slot + 1, rk};
    return j;
}

/* The generator walks the plan's split tree depth first: cur is the
 * segment being reversed, stack the left parts waiting for it. */
struct state {
    const struct uturn__dp *dp;
    struct uturn__dp_node cur;
    uint64_t depth;
    bool live;
    int phase; /* 0 start, 1 running, 2 done */
    struct uturn__dp_node stack[];
};

static size_t leaf(struct state *st, uturn_action_t *out)
{
    size_t count = 0;
    if (!st->live)
        uturn__put(out + count++, UTURN_OP_RESTORE, st->cur.a, 0, st->cur.slot);
    uturn__put_reverse(out + count++, st->cur.a, st->dp->chain.n);
    if (st->depth == 0) {
        uturn__put(out + count++, UTURN_OP_FREE, 0, 0, 0);
        st->phase = 2;
        return count;
    }
    st->cur = st->stack[--st->depth];
    uturn__put(out + count++, UTURN_OP_FREE, 0, 0, st->cur.slot + 1);
    st->live = false;
    return count;
}

static size_t split(struct state *st, uturn_action_t *out)
{
    const struct uturn__dp_node n = st->cur;
    struct uturn__dp_node left, right;
    const uint64_t j = uturn__dp_decide(st->dp, &n, &left, &right);
    size_t count     = 0;
    if (!st->live)
        uturn__put(out + count++, UTURN_OP_RESTORE, n.a, 0, n.slot);
    uturn__put(out + count++, UTURN_OP_ADVANCE, n.a, j, 0);
    if (j == n.e - 1) {
        uturn__put_reverse(out + count++, j, st->dp->chain.n);
        st->cur  = left;
        st->live = false;
        return count;
    }
    uturn__put(out + count++, UTURN_OP_STORE, j, 0, n.slot + 1);
    st->stack[st->depth++] = left;
    st->cur                = right;
    st->live               = true;
    return count;
}

static size_t fill(void *state, uturn_action_t *out, size_t capacity)
{
    struct state *st = state;
    size_t count     = 0;
    if (st->phase == 0 && capacity > 0) {
        uturn__put(out + count++, UTURN_OP_STORE, 0, 0, 0);
        st->phase = 1;
    }
    while (st->phase == 1 && count + 3 <= capacity)
        count += st->cur.e - st->cur.a == 1 ? leaf(st, out + count)
                                            : split(st, out + count);
    return count;
}

uturn_status_t uturn__dp_state_size(const uturn_plan_t *plan, size_t *bytes)
{
    const uint64_t frames = plan->problem.steps + 1;
    if (frames >
        (SIZE_MAX - sizeof(struct state)) / sizeof(struct uturn__dp_node))
        return UTURN_E_NOMEM;
    *bytes =
        sizeof(struct state) + (size_t)frames * sizeof(struct uturn__dp_node);
    return UTURN_OK;
}

void uturn__dp_start(const uturn_plan_t *plan, void *state)
{
    struct state *st = state;
    st->dp           = plan->data;
    st->depth        = 0;
    st->live         = true;
    st->phase        = 0;
    st->cur          = st->dp->top;
}

size_t uturn__dp_fill(void *state, uturn_action_t *out, size_t capacity)
{
    return fill(state, out, capacity);
}

static void dp_free(uturn_plan_t *plan)
{
    struct uturn__dp *dp = plan->data;
    if (dp == NULL)
        return;
    uturn__dp_release(dp, &plan->alloc);
    uturn__free(&plan->alloc, dp, sizeof *dp);
    plan->data = NULL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    const double start   = now();
    struct uturn__dp *dp = uturn__alloc_zeroed(&plan->alloc, 1, sizeof *dp);
    if (dp == NULL)
        return uturn__fail(error, UTURN_E_NOMEM, "out of memory for dp");
    plan->data            = dp;
    plan->data_free       = dp_free;
    uturn_status_t status = uturn__dp_build(plan, dp, error);
    if (status == UTURN_OK)
        status = uturn__dp_count(plan, error);
    plan->stats.planning_seconds = now() - start;
    return status;
}

/* The stream follows from the steps, the chain in units (unit, sizes,
 * costs), the units free at the top and what was built: store-all, the
 * exact table, or the approximate planner with its band width and coarse
 * grid (which table_bytes decides). The thread count never changes it. */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    const struct uturn__dp *dp = plan->data;
    uturn__hash_u64(h, plan->problem.steps);
    uturn__hash_u64(h, dp->top.m);
    uturn__hash_u64(h, dp->chain.unit);
    uturn__hash_u64(h, dp->top.kind);
    uturn__hash_u64(h, dp->band != NULL ? dp->band->W : 0);
    uturn__hash_u64(h, dp->band != NULL ? dp->band->K : 0);
    uturn__hash_array(h, plan->step_bytes, plan->problem.steps);
    uturn__hash_array(h, plan->step_costs, plan->problem.steps);
    uturn__hash_u64(h, plan->step_bytes == NULL ? plan->problem.slot_bytes : 0);
}

const struct uturn__planner uturn__dp = {
    .id          = UTURN_PLANNER_DP,
    .name        = "dp",
    .prepare     = prepare,
    .state_size  = uturn__dp_state_size,
    .start       = uturn__dp_start,
    .fill        = uturn__dp_fill,
    .fingerprint = fingerprint,
};
