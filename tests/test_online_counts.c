/*
 * An online cursor's realised counts (uturn_cursor_stats) against a count
 * of the actions it handed out, made here: the online planner for many
 * slots tallies its reversal as it walks instead of looking at each
 * action, so a tally that is off by one leaf, one restore or one store in
 * some branch of the walk shows here. Read capacities from 1 (the
 * cursor's own buffer) to 1000 (straight into the caller's array) cut the
 * walk at every kind of point. The cursor counts what it generated, which
 * may run ahead of what it handed out by what it buffers: equal at the
 * end, never behind before.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <uturn.h>

struct tally {
    uint64_t actions, forward, stores, restores, frees, reverses, held, peak;
};

static void add(struct tally *t, const uturn_action_t *a, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        t->actions += 1;
        if (a[i].op == UTURN_OP_ADVANCE)
            t->forward += a[i].step_end - a[i].step;
        else if (a[i].op == UTURN_OP_STORE) {
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

static void same(const uturn_cursor_t *c, const struct tally *t,
                 const char *where, uint64_t s, uint64_t n, size_t cap)
{
    uturn_stats_t got;
    uturn_stats_init(&got);
    cr_assert_eq(uturn_cursor_stats(c, &got), UTURN_OK);
    const int ok = got.actions == t->actions &&
                   got.forward_steps == t->forward && got.stores == t->stores &&
                   got.restores == t->restores && got.frees == t->frees &&
                   got.reverse_steps == t->reverses &&
                   got.peak_slots == t->peak;
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

/* One run of n steps with s slots, read cap actions at a time. */
static void run(uint64_t s, uint64_t n, size_t cap)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_ONLINE;
    p.slots            = s;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_plan_create(&p, NULL, &plan, NULL), UTURN_OK);
    uturn_cursor_t *c = NULL;
    cr_assert_eq(uturn_cursor_create(plan, NULL, &c), UTURN_OK);
    uturn_action_t *a = malloc(cap * sizeof *a);
    cr_assert_not_null(a);
    struct tally t = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t count   = 0;
    bool ended     = false;
    while (uturn_cursor_read(c, a, cap, &count) == UTURN_OK && count > 0) {
        add(&t, a, count);
        ahead(c, &t);
        if (!ended && a[count - 1].op == UTURN_OP_ADVANCE &&
            a[count - 1].step_end == n) {
            cr_assert_eq(uturn_cursor_end(c), UTURN_OK);
            ended = true;
        }
    }
    cr_assert(ended);
    cr_assert_eq(t.reverses, n, "every state reversed once");
    cr_assert_eq(t.held, 0, "every slot freed");
    same(c, &t, "the end", s, n, cap);
    free(a);
    uturn_cursor_free(c);
    uturn_plan_free(plan);
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
