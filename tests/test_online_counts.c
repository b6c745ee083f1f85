/*
 * An online cursor's realised counts (uturn_cursor_stats) against a count
 * of the actions it handed out, made here. The online planner for many
 * slots does not count its reversal action by action: each segment's
 * counts in all and its walk's rest are closed forms (revolve_rest.c),
 * and segments of one or two states are written without a walk. A count
 * off by one leaf, one restore or one store in some branch of the walk
 * shows here. Read capacities from 1 (the cursor's own buffer) to 1000
 * (straight into the caller's array) cut the walk at every kind of point.
 * The cursor counts what it generated, which may run ahead of what it
 * handed out by what it buffers: equal at the end, never behind before.
 * White-box cases below check the planner's counts and a walk's rest
 * exactly after every fill, with no buffer between.
 */
#include "online_slots.h"
#include "revolve_node.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <uturn.h>

struct tally {
    uint64_t actions, forward, stores, restores, frees, reverses, held, peak;
    uint64_t advances;
};

static void add(struct tally *t, const uturn_action_t *a, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        t->actions += 1;
        if (a[i].op == UTURN_OP_ADVANCE) {
            t->forward += a[i].step_end - a[i].step;
            t->advances += 1;
        } else if (a[i].op == UTURN_OP_STORE) {
            t->stores += 1;
            t->held += 1;
            t->peak = t->held > t->peak ? t->held : t->peak;
        } else if (a[i].op == UTURN_OP_RESTORE)
            t->restores += 1;
        else if (a[i].op == UTURN_OP_FREE) {
            t->frees += 1;
            t->held -= 1;
        } else if (a[i].op == UTURN_OP_REVERSE)
            t->reverses += 1;
    }
}

/* Never behind what was handed out. */
static void ahead(const uturn_cursor_t *c, const struct tally *t)
{
    uturn_stats_t got;
    uturn_stats_init(&got);
    cr_assert_eq(uturn_cursor_stats(c, &got), UTURN_OK);
    cr_assert(got.actions >= t->actions && got.forward_steps >= t->forward &&
              got.stores >= t->stores && got.reverse_steps >= t->reverses &&
              got.peak_slots >= t->peak);
}

/* The counts st says are those of t. */
static bool tally_is(const struct tally *t, const uturn_stats_t *st)
{
    return st->actions == t->actions && st->forward_steps == t->forward &&
           st->stores == t->stores && st->restores == t->restores &&
           st->frees == t->frees && st->reverse_steps == t->reverses &&
           st->peak_slots == t->peak;
}

static void same(const uturn_cursor_t *c, const struct tally *t,
                 const char *where, uint64_t s, uint64_t n, size_t cap)
{
    uturn_stats_t got;
    uturn_stats_init(&got);
    cr_assert_eq(uturn_cursor_stats(c, &got), UTURN_OK);
    const bool ok = tally_is(t, &got);
    cr_assert(
        ok,
        "s %llu, n %llu, reads of %zu, %s: cursor says actions %llu "
        "forward %llu stores %llu restores %llu frees %llu reverses "
        "%llu peak %llu; the actions were %llu %llu %llu %llu %llu "
        "%llu %llu",
        (unsigned long long)s, (unsigned long long)n, cap, where,
        (unsigned long long)got.actions, (unsigned long long)got.forward_steps,
        (unsigned long long)got.stores, (unsigned long long)got.restores,
        (unsigned long long)got.frees, (unsigned long long)got.reverse_steps,
        (unsigned long long)got.peak_slots, (unsigned long long)t->actions,
        (unsigned long long)t->forward, (unsigned long long)t->stores,
        (unsigned long long)t->restores, (unsigned long long)t->frees,
        (unsigned long long)t->reverses, (unsigned long long)t->peak);
}

/* One run of n steps with s slots, read cap actions at a time; with a
 * byte budget (budget != 0) instead, each state's size given as the run
 * reaches it: size + grow * step bytes. */
static void run_sized(uint64_t s, uint64_t n, size_t cap, uint64_t budget,
                      uint64_t size, uint64_t grow)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_ONLINE;
    if (budget != 0)
        p.budget_bytes = budget;
    else
        p.slots = s;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_cursor_t *c = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    if (budget != 0)
        cr_assert_eq(uturn_cursor_set_size(c, 0, size), UTURN_OK);
    uturn_action_t *a = malloc(cap * sizeof *a);
    cr_assert_not_null(a);
    struct tally t = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    size_t count   = 0;
    bool ended     = false;
    while (uturn_cursor_read(c, a, cap, &count) == UTURN_OK && count > 0) {
        add(&t, a, count);
        ahead(c, &t);
        const uint64_t m = a[count - 1].step_end;
        if (ended || a[count - 1].op != UTURN_OP_ADVANCE)
            continue;
        if (m == n) {
            cr_assert_eq(uturn_cursor_end(c), UTURN_OK);
            ended = true;
        } else if (budget != 0)
            cr_assert_eq(uturn_cursor_set_size(c, m, size + grow * m),
                         UTURN_OK);
    }
    cr_assert(ended);
    cr_assert_eq(t.reverses, n, "every state reversed once");
    cr_assert_eq(t.held, 0, "every slot freed");
    same(c, &t, budget != 0 ? "the end, a byte budget" : "the end", s, n, cap);
    free(a);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
}

static void run(uint64_t s, uint64_t n, size_t cap)
{
    run_sized(s, n, cap, 0, 0, 0);
}

Test(online_counts, the_cursor_counts_what_it_hands_out)
{
    static const uint64_t slots[] = {4, 5, 7, 20, 100};
    static const size_t caps[]    = {1, 2, 5, 64, 1000};
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
        const uint64_t s    = slots[i];
        const uint64_t lim2 = (s + 1) * (s + 2) / 2;
        const uint64_t ns[] = {1,        2,    3,        s - 1, s,   s + 1,
                               lim2 - 1, lim2, lim2 + 1, 1000,  4321};
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
            for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++)
                run(s, ns[j], caps[k]);
    }
}

/* Byte budgets past 256 states reverse with the walk that counts each
 * action, their s falling as sizes grow: the counts, peak included. */
Test(online_counts, byte_budgets_count_what_they_hand_out)
{
    static const size_t caps[] = {1, 7, 1000};
    for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
        run_sized(1000, 2000, caps[k], 1000000, 1000, 0);
        run_sized(1000, 5000, caps[k], 1000000, 1000, 0);
        run_sized(700, 3000, caps[k], 700000, 1000, 1);
    }
}

/* ---- white-box: exact after every fill ---------------------------------- */

/* The planner's fill_counted and reversal_counts, driven with no cursor,
 * fills of random capacity (>= UTURN__FILL_MIN) and the end said at n:
 * after every fill the counts equal those of the actions written. */
static void planner_run(uint64_t s, uint64_t n, unsigned seed)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.slots            = s;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    const struct uturn__planner *pl = plan->planner;
    cr_assert_eq(pl, &uturn__online_slots);
    size_t bytes = 0;
    cr_assert_eq(pl->state_size(plan, &bytes), UTURN_OK);
    void *state = malloc(bytes);
    cr_assert_not_null(state);
    pl->start(plan, state);
    uturn_stats_t counted;
    uturn_stats_init(&counted);
    uint64_t held  = 0;
    struct tally t = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    uturn_action_t a[70];
    srand(seed);
    for (;;) {
        const size_t cap = UTURN__FILL_MIN + (size_t)rand() % 66;
        const size_t got = pl->fill_counted(state, a, cap, &counted, &held);
        if (got == 0)
            break;
        add(&t, a, got);
        uturn_stats_t st = counted;
        pl->reversal_counts(state, &st);
        cr_assert(tally_is(&t, &st),
                  "s %llu n %llu seed %u: counts differ after %llu actions",
                  (unsigned long long)s, (unsigned long long)n, seed,
                  (unsigned long long)t.actions);
        if (pl->awaits_end(state) && a[got - 1].op == UTURN_OP_ADVANCE &&
            a[got - 1].step_end == n)
            cr_assert_eq(pl->end(state), UTURN_OK);
    }
    cr_assert_eq(t.reverses, n);
    cr_assert_eq(t.held, 0);
    free(state);
    uturn_plan_free(plan);
}

Test(online_counts, the_planner_counts_exactly_after_every_fill)
{
    static const uint64_t slots[] = {4, 6, 11, 30, 257};
    unsigned seed                 = 1;
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
        const uint64_t s    = slots[i];
        const uint64_t lim2 = (s + 1) * (s + 2) / 2;
        const uint64_t ns[] = {1, 2, s - 1, s, s + 1, lim2, lim2 + 3, 5000};
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
            planner_run(s, ns[j], seed++);
    }
}

/* The stores revolve makes for a node of l states with c slots, its first
 * state's left out: revolve's own closed form for l - 1 steps. */
static uint64_t revolve_stores(uint64_t l, uint64_t c)
{
    if (l <= 2)
        return 0;
    uturn_stats_t st;
    uturn_stats_init(&st);
    cr_assert_eq(uturn__revolve_counts(l - 1, c < l - 1 ? c : l - 1, &st),
                 UTURN_OK);
    return st.stores - 1;
}

/* One walk of l states with c slots from its stored base, in reads of
 * random size: at every point, what it wrote and its rest make its rest
 * at the start, which is revolve's forward steps and stores. */
static void walk_rest(uint64_t l, uint64_t c, bool keep_root)
{
    static struct uturn__rv_node stack[64];
    static uint64_t map[64];
    const struct uturn__rv_node root = uturn__rv_node_of(7, l, c);
    for (uint64_t i = 0; i <= root.c; i++)
        map[i] = root.c - i; /* slot of a node with i slots: revolve's */
    struct uturn__rv_walker w        = {.cur       = root,
                                        .stack     = stack,
                                        .s         = root.c,
                                        .n         = UINT64_MAX,
                                        .map       = map,
                                        .keep_root = keep_root};
    const struct uturn__rv_tally all = uturn__rv_walk_rest(&w, stack);
    struct tally t                   = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    uturn_action_t a[48];
    while (!w.done) {
        const size_t got =
            uturn__rv_walk_fill_online(&w, a, 3 + (size_t)rand() % 45);
        add(&t, a, got);
        const struct uturn__rv_tally r = uturn__rv_walk_rest(&w, stack);
        cr_assert(t.forward + r.forward == all.forward &&
                      t.stores + r.stores == all.stores &&
                      t.restores + r.restores == all.restores &&
                      t.frees + r.frees == all.frees &&
                      t.reverses + r.reverses == all.reverses &&
                      t.advances + r.advances == all.advances,
                  "l %llu c %llu keep %d: rest off after %llu actions",
                  (unsigned long long)l, (unsigned long long)c, keep_root,
                  (unsigned long long)t.actions);
    }
    cr_assert_eq(t.forward, uturn__bin_t(l, c));
    cr_assert_eq(t.stores, revolve_stores(l, c));
    cr_assert_eq(t.reverses, l);
    cr_assert_eq(t.advances, l - 1, "each state but the first reached once");
    /* every store's slot freed, and the base's unless it is kept */
    cr_assert_eq(t.frees, t.stores + (keep_root ? 0 : 1));
}

Test(online_counts, a_walks_rest_is_what_it_still_writes)
{
    srand(11);
    for (int trial = 0; trial < 600; trial++) {
        const uint64_t l = 1 + (uint64_t)rand() % (trial < 500 ? 2000 : 60000);
        const uint64_t c = 1 + (uint64_t)rand() % 40;
        walk_rest(l, c, trial % 3 == 0);
    }
}
