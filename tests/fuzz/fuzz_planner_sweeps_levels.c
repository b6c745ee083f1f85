/*
 * fuzz_planner, part 4: several sweeps on storage levels (revolve with
 * sweeps = k >= 2, or unbounded, over 2 to 4 levels).
 *
 * The input decodes to levels (slots mostly 1 to 6, costs mostly 0 to 20,
 * now and then decreasing with the level or past hrevolve's 2^24), steps
 * (mostly 1 to 60, now and then to 2000) and sweeps. uturn_plan_create()
 * is checked against an oracle written here from docs/model.md section 13:
 *   - the status: on three or more levels, costs that decrease with the
 *     level or pass 2^24 are UTURN_E_UNSUPPORTED; anything else with a
 *     memory slot plans;
 *   - on a plan: k sweeps (or unbounded), reverse_steps k n (n when
 *     unbounded), the persistent checkpoints within the slots; a walk
 *     through a validator of the same levels and sweeps, every count as
 *     predicted, level by level (fz_walk_plan); the cost never above
 *     memory alone's when memory is free (revolve over its slots, k
 *     sweeps; an unbounded plan: each further sweep's forward steps, when
 *     all I/O is free);
 *   - a failed allocation at any point: UTURN_E_NOMEM, nothing leaked.
 * Input layout: see decode().
 */
#include "fuzz_planner.h"

#include <string.h>

#define WALK_ACTIONS 400000u

struct levels_case {
    uturn_problem_t p;
    uturn_level_t lv[4];
    uint64_t n, k;
    bool open;
};

/* byte: level count (2 to 4); per level: slots, write and read costs
 * (a byte each, mostly small); steps (2 bytes); sweeps. */
static void decode(struct reader *r, struct levels_case *c)
{
    uturn_problem_init(&c->p);
    const uint8_t b      = fz_byte(r);
    const uint64_t count = 2 + b % 3;
    for (uint64_t k = 0; k < count; k++) {
        uturn_level_init(&c->lv[k]);
        c->lv[k].slots  = 1 + fz_byte(r) % 6;
        const uint8_t w = fz_byte(r), rd = fz_byte(r);
        c->lv[k].write_cost = w == 255 ? ((uint64_t)1 << 24) + 1 : w % 21;
        c->lv[k].read_cost  = rd % 21;
    }
    c->lv[0].write_cost  = b & 8 ? c->lv[0].write_cost : 0;
    c->lv[0].read_cost   = b & 8 ? c->lv[0].read_cost : 0;
    const uint64_t steps = fz_bytes_le(r, 2);
    c->n                 = 1 + (b & 16 ? steps % 2000 : steps % 60);
    const uint8_t s      = fz_byte(r);
    c->open              = s % 8 == 7;
    c->k                 = 2 + s % 4;
    c->p.steps           = c->n;
    c->p.levels          = c->lv;
    c->p.level_count     = count;
    c->p.sweeps          = c->open ? UTURN_SWEEPS_UNBOUNDED : c->k;
}

/* Costs hrevolve takes: at most 2^24, not decreasing with the level. */
static bool hrevolve_costs(const struct levels_case *c)
{
    for (uint64_t k = 0; k < c->p.level_count; k++) {
        if (c->lv[k].write_cost > ((uint64_t)1 << 24) ||
            c->lv[k].read_cost > ((uint64_t)1 << 24))
            return false;
        if (k > 0 && (c->lv[k].write_cost < c->lv[k - 1].write_cost ||
                      c->lv[k].read_cost < c->lv[k - 1].read_cost))
            return false;
    }
    return true;
}

static void print_case(const char *what, const struct levels_case *c)
{
    fprintf(stderr, "%s: n=%llu sweeps=%s%llu levels", what,
            (unsigned long long)c->n, c->open ? "unbounded/" : "",
            (unsigned long long)c->k);
    for (uint64_t k = 0; k < c->p.level_count; k++)
        fprintf(stderr, " %llu:w=%llu:r=%llu",
                (unsigned long long)c->lv[k].slots,
                (unsigned long long)c->lv[k].write_cost,
                (unsigned long long)c->lv[k].read_cost);
    fprintf(stderr, "\n");
}

/* Memory alone: revolve over level 0's slots, k sweeps, its stats. */
static uturn_stats_t memory_alone(const struct levels_case *c)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.steps            = c->n;
    p.slots            = c->lv[0].slots;
    p.sweeps           = c->p.sweeps;
    uturn_plan_t *plan = NULL;
    CHECK(uturn_plan_create(&p, NULL, &plan, NULL) == UTURN_OK);
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    uturn_plan_free(plan);
    return st;
}

/* Whether every level's writes and reads are free. */
static bool free_io(const struct levels_case *c)
{
    for (uint64_t k = 0; k < c->p.level_count; k++)
        if (c->lv[k].write_cost != 0 || c->lv[k].read_cost != 0)
            return false;
    return true;
}

static void check_plan(const struct levels_case *c, const uturn_plan_t *plan,
                       struct reader *r)
{
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    CHECK(st.sweeps == c->p.sweeps);
    CHECK(st.reverse_steps == (c->open ? 1 : c->k) * c->n);
    uint64_t slots = 0;
    for (uint64_t k = 0; k < c->p.level_count; k++)
        slots += c->lv[k].slots;
    CHECK(st.persistent >= 1 && st.persistent <= slots);
    /* never above memory alone: the whole cost, or for an unbounded plan
     * each further sweep's (what it is placed for; its stats give the
     * forward steps, the whole cost when I/O is free) */
    if (c->lv[0].write_cost == 0 && c->lv[0].read_cost == 0 && !c->open)
        CHECK(st.cost <= memory_alone(c).cost);
    if (c->open && free_io(c))
        CHECK(st.sweep_forward_steps <= memory_alone(c).sweep_forward_steps);
    struct fz_shape shape;
    memset(&shape, 0, sizeof shape);
    uturn_problem_init(&shape.validator);
    shape.validator.steps       = c->n;
    shape.validator.levels      = c->lv;
    shape.validator.level_count = c->p.level_count;
    shape.validator.sweeps      = c->p.sweeps;
    shape.level_count           = c->p.level_count;
    for (uint64_t k = 0; k < c->p.level_count; k++) {
        shape.slots[k]      = c->lv[k].slots;
        shape.write_cost[k] = c->lv[k].write_cost;
        shape.read_cost[k]  = c->lv[k].read_cost;
    }
    fz_walk_plan(plan, &shape, WALK_ACTIONS, fz_byte(r));
}

void fz_planner_sweeps_levels(struct reader *r)
{
    struct levels_case c;
    memset(&c, 0, sizeof c);
    decode(r, &c);
    if (fz_verbose())
        print_case("problem", &c);
    const bool refused      = c.p.level_count > 2 && !hrevolve_costs(&c);
    struct fz_arena arena   = {0, 0, 0, 0};
    uturn_allocator_t alloc = fz_allocator(&arena);
    uturn_plan_t *plan      = NULL;
    uturn_error_t e;
    uturn_error_init(&e);
    uturn_status_t st = uturn_plan_create(&c.p, &alloc, &plan, &e);
    if (refused != (st != UTURN_OK)) {
        print_case(refused ? "accepted" : e.message, &c);
        abort();
    }
    if (refused) {
        fz_check_error(st, &e, FZ_BIT(UTURN_E_UNSUPPORTED));
        CHECK(plan == NULL && arena.live == 0);
        fz_verdict("refused");
        return;
    }
    const uint64_t calls = arena.calls; /* the plan's, not the walk's */
    fz_verdict("planned");
    check_plan(&c, plan, r);
    uturn_plan_free(plan);
    CHECK(arena.live == 0);
    arena.calls   = 0;
    arena.fail_at = 1 + fz_bytes_le(r, 2) % (calls != 0 ? calls : 1);
    st            = uturn_plan_create(&c.p, &alloc, &plan, &e);
    CHECK(st == UTURN_E_NOMEM && plan == NULL && arena.live == 0);
    CHECK(e.status == UTURN_E_NOMEM && e.message[0] != '\0');
}
