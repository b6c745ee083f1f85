/*
 * fuzz_planner, part 2: hrevolve, and storage levels (uturn_level_t) on
 * every planner that knows its steps. The input decodes to a planner
 * (mostly hrevolve), n, and a capacity: levels (1 to 4, sometimes 0 or
 * 17; slots or bytes; write and read costs that mostly do not decrease
 * with the level, sometimes do or pass 2^24; names good, absent or that
 * plan text cannot carry: '(', ESC, empty, 64 bytes), or slots or a
 * budget for one memory level. Or, for hrevolve, one of the reference
 * problems of docs/model.md section 4. The oracle, from uturn.h and
 * docs/model.md sections 4 and 7:
 *   - refusals: exactly the documented statuses for what the problem
 *     breaks, with a message (for hrevolve's table limits: required far
 *     past them, allowed near them, refused nowhere else); infeasible
 *     names one slot and the bytes of a state, and that is enough;
 *   - every plan is walked through a cursor and the public validator
 *     given the levels: valid, with the predicted counts, total and per
 *     level, which a tally kept here agrees with, and the cost (forward
 *     steps plus every write and read) the tally computes;
 *   - hrevolve: with one memory level of no cost, t(n+1, s) forward
 *     steps (revolve); the least cost of any plan, found by an exhaustive
 *     search over every plan (fuzz_optimum.c) on tiny chains, and the
 *     H-Revolve recurrence of schedules/hrevolve.h written out here on
 *     small ones; the reference costs (284, 2755, 938; memory alone 320);
 *     never below t(n+1, every slot), never above revolve on memory alone
 *     when memory costs nothing; one more slot never costs more;
 *   - a planner of one level given one level: the plan it makes for the
 *     same slots, with the level's costs added to its cost; several levels:
 *     UTURN_E_UNSUPPORTED;
 *   - level names and slots as given (default names levelK), and small
 *     plans written as text (format 2) and parsed back to the same counts
 *     and cost.
 * One allocation of uturn_plan_create() is made to fail: UTURN_E_NOMEM and
 * nothing leaked. Skipped for pace: hrevolve requests whose plain dynamic
 * program would evaluate more than LEVELS_WORK splits (FUZZ_SLOW=1 tries
 * them), problems of another planner past LEVELS_STEPS steps, and the
 * reference problem of 1000 steps (seconds: FUZZ_SLOW=1 plans it).
 */
#define _POSIX_C_SOURCE 200809L

#include "fuzz_optimum.h"
#include "fuzz_planner.h"

#include <string.h>

#define LEVELS_WORK     4000000u
#define RECURRENCE_WORK 2000000u
#define LEVELS_STEPS    2000u
#define TEXT_ACTIONS    3000u
#define WALK_ACTIONS    400000u
#define MAX_IO_COST     ((uint64_t)1 << 24)
#define HR_MAX_STEPS    ((uint64_t)1 << 28)
#define HR_TABLES       ((uint64_t)1 << 30) /* UTURN_HREVOLVE_TABLE_BYTES */

struct request {
    uturn_problem_t p;
    uturn_level_t levels[FZ_MAX_LEVELS + 1];
    uint64_t count;     /* levels decoded (p.level_count may lie) */
    bool bad_name;      /* a name uturn_level_t cannot take */
    uint64_t reference; /* a reference problem's cost, or 0 */
};

/* ---- decoding ---- */

static const char *decode_name(struct reader *r, bool *bad)
{
    static const char long_name[] =
        "a123456789b123456789c123456789d123456789e123456789f123456789wxyz";
    _Static_assert(sizeof long_name == 65, "64 bytes: one too many");
    static const char *const names[] = {
        NULL,          NULL,  "mem",     "disk", "nvme-0.x_Y", long_name,
        long_name + 1, "a(b", "\x1b[1m", "",     "sp ace"};
    const size_t i = fz_byte(r) % (sizeof names / sizeof names[0]);
    *bad |= i == 5 || i >= 7; /* 64 bytes, '(', ESC, empty, a space */
    return names[i];
}

/* Level k: costs mostly at least the previous level's. */
static void decode_level(struct reader *r, struct request *q, uint64_t k)
{
    uturn_level_t *lv = &q->levels[k];
    uturn_level_init(lv);
    const uint8_t how = fz_byte(r);
    switch (how & 7) {
    case 0:
        lv->slots = 0;
        lv->bytes = fz_bytes_le(r, 2); /* resolved with slot_bytes */
        break;
    case 1:
        lv->slots = 1 + fz_byte(r) % 64;
        break;
    case 2:
        lv->slots = fz_byte(r) % 2 ? UINT64_MAX / 2 + 1 : UINT64_MAX;
        break;
    default:
        lv->slots = 1 + fz_byte(r) % 6;
        break;
    }
    const uint64_t w0 = k > 0 ? q->levels[k - 1].write_cost : 0;
    const uint64_t r0 = k > 0 ? q->levels[k - 1].read_cost : 0;
    lv->write_cost    = w0 + fz_byte(r) % 4;
    lv->read_cost     = r0 + fz_byte(r) % 4;
    if ((how & 0x18) == 0x18 && w0 > 0)
        lv->write_cost = w0 - 1; /* cheaper than a faster level */
    if ((how & 0x18) == 0x10)
        lv->read_cost = MAX_IO_COST + (how >> 7);
    lv->name = decode_name(r, &q->bad_name);
}

static uint64_t decode_steps(struct reader *r, uint8_t how)
{
    switch (how >> 6) {
    case 0:
        return 1 + fz_byte(r) % 8;
    case 1:
        return 1 + fz_byte(r) % FZ_HREC_STEPS;
    case 2:
        return 1 + fz_bytes_le(r, 2) % 600;
    default: {
        static const uint64_t odd[] = {0,
                                       HR_MAX_STEPS,
                                       HR_MAX_STEPS + 1,
                                       (uint64_t)1 << 26,
                                       1000000000000ull,
                                       UINT64_MAX};
        return odd[fz_byte(r) % 6];
    }
    }
}

/* The reference problems of docs/model.md section 4. */
static void reference(struct request *q, uint8_t which)
{
    static const struct {
        uint64_t n, count, slots[3], w[3], cost;
    } refs[] = {{100, 2, {5, 100, 0}, {0, 5, 0}, 284},
                {1000, 2, {10, 170, 0}, {0, 5, 0}, 2755},
                {300, 3, {4, 8, 16}, {0, 2, 10}, 938},
                {100, 1, {5, 0, 0}, {0, 0, 0}, 320}};
    size_t i = which % 4;
    if (i == 1 && !fz_slow())
        i = 0; /* n = 1000 over 180 slots: seconds under the sanitizers */
    q->p.steps = refs[i].n;
    q->count   = refs[i].count;
    for (uint64_t k = 0; k < q->count; k++) {
        uturn_level_init(&q->levels[k]);
        q->levels[k].slots      = refs[i].slots[k];
        q->levels[k].write_cost = refs[i].w[k];
        q->levels[k].read_cost  = refs[i].w[k];
    }
    q->p.levels      = q->levels;
    q->p.level_count = q->count;
    q->reference     = refs[i].cost;
}

static void decode_capacity(struct reader *r, struct request *q)
{
    uturn_problem_t *p = &q->p;
    const uint8_t kind = fz_byte(r);
    switch (kind & 7) {
    case 0:
        p->slots = fz_byte(r) % 12;
        break;
    case 1:
        p->budget_bytes = fz_bytes_le(r, 2);
        break;
    case 2:
        break; /* none */
    default:
        q->count = 1 + fz_byte(r) % 4;
        if ((kind & 0x18) == 0x18)
            q->count = (kind & 0x20) ? 0 : FZ_MAX_LEVELS + 1;
        for (uint64_t k = 0; k < q->count && k <= FZ_MAX_LEVELS; k++)
            decode_level(r, q, k);
        p->levels      = q->count != 0 ? q->levels : NULL;
        p->level_count = q->count;
        if ((kind & 0xe0) == 0xe0) /* one without the other */
            p->levels = p->levels != NULL ? NULL : q->levels;
        if ((kind & 0xe0) == 0xc0)
            p->slots = 2; /* levels and slots: refused */
        break;
    }
}

/* Byte 0: planner (bits 0-2), reference (3-5 all set), steps class
 * (6-7). Byte 1: slot_bytes, stride, step_costs. Then the steps and the
 * capacity. */
static void decode(struct reader *r, struct request *q)
{
    static const uturn_planner_t planners[] = {
        UTURN_PLANNER_HREVOLVE, UTURN_PLANNER_HREVOLVE,  UTURN_PLANNER_HREVOLVE,
        UTURN_PLANNER_HREVOLVE, UTURN_PLANNER_STORE_ALL, UTURN_PLANNER_PERIODIC,
        UTURN_PLANNER_REVOLVE,  UTURN_PLANNER_SQRT};
    memset(q, 0, sizeof *q);
    uturn_problem_t *p = &q->p;
    uturn_problem_init(p);
    const uint8_t head = fz_byte(r), flags = fz_byte(r);
    p->planner                    = planners[head & 7];
    static const uint64_t sizes[] = {0, 0, 8, 24, 4096, UINT64_MAX};
    p->slot_bytes                 = sizes[flags % 6];
    if ((head & 0x38) == 0x38 && p->planner == UTURN_PLANNER_HREVOLVE) {
        p->slot_bytes = 0;
        reference(q, flags);
        return;
    }
    p->steps = decode_steps(r, head);
    if (p->planner == UTURN_PLANNER_PERIODIC && (flags & 0x40))
        p->stride = 1 + fz_byte(r) % (p->steps < 16 ? p->steps + 1 : 16);
    if ((flags & 0xc0) == 0x80 && p->steps != 0 && p->steps <= 8) {
        static const uint64_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
        p->step_costs                 = ones; /* dp's only */
    }
    decode_capacity(r, q);
}

static void print_request(const char *what, const struct request *q)
{
    const uturn_problem_t *p = &q->p;
    fprintf(stderr,
            "%s: %s steps %llu slots %llu slot_bytes %llu budget_bytes %llu "
            "stride %llu levels %p count %llu\n",
            what, uturn_planner_name(p->planner), (unsigned long long)p->steps,
            (unsigned long long)p->slots, (unsigned long long)p->slot_bytes,
            (unsigned long long)p->budget_bytes, (unsigned long long)p->stride,
            (const void *)p->levels, (unsigned long long)p->level_count);
    for (uint64_t k = 0; k < q->count && k <= FZ_MAX_LEVELS; k++)
        fprintf(stderr,
                "  level %llu '%s': slots %llu bytes %llu w %llu r "
                "%llu\n",
                (unsigned long long)k,
                q->levels[k].name ? q->levels[k].name : "(null)",
                (unsigned long long)q->levels[k].slots,
                (unsigned long long)q->levels[k].bytes,
                (unsigned long long)q->levels[k].write_cost,
                (unsigned long long)q->levels[k].read_cost);
}

/* ---- the levels as the plan must resolve them ---- */

struct resolved {
    uint64_t count; /* levels (1 without) */
    uint64_t slots[FZ_MAX_LEVELS], w[FZ_MAX_LEVELS], r[FZ_MAX_LEVELS];
    u128 total;     /* every slot */
    bool none_held; /* a level whose bytes hold no state */
    bool costs_up;  /* no cost decreases with the level */
    bool costs_ok;  /* every cost at most 2^24 */
    bool capacity;  /* some capacity was given */
};

static void resolve(const struct request *q, struct resolved *v)
{
    const uturn_problem_t *p = &q->p;
    memset(v, 0, sizeof *v);
    v->costs_up = v->costs_ok = true;
    if (p->levels == NULL) {
        v->count    = 1;
        v->capacity = p->slots != 0 || p->budget_bytes != 0;
        v->slots[0] = p->slots != 0 ? p->slots
                      : p->budget_bytes != 0 && p->slot_bytes != 0
                          ? p->budget_bytes / p->slot_bytes
                          : 0;
        v->total    = v->slots[0];
        return;
    }
    /* Past FZ_MAX_LEVELS the problem is refused (levels_invalid). */
    v->count = p->level_count < FZ_MAX_LEVELS ? p->level_count : FZ_MAX_LEVELS;
    v->capacity = true;
    for (uint64_t k = 0; k < v->count; k++) {
        const uturn_level_t *lv = &p->levels[k];
        v->slots[k]             = lv->slots != 0       ? lv->slots
                                  : p->slot_bytes != 0 ? lv->bytes / p->slot_bytes
                                                       : 0;
        v->none_held |= lv->slots == 0 && lv->bytes != 0 &&
                        p->slot_bytes != 0 && v->slots[k] == 0;
        v->w[k] = lv->write_cost;
        v->r[k] = lv->read_cost;
        v->total += v->slots[k];
        v->costs_ok &= v->w[k] <= MAX_IO_COST && v->r[k] <= MAX_IO_COST;
        if (k > 0)
            v->costs_up &= v->w[k] >= v->w[k - 1] && v->r[k] >= v->r[k - 1];
    }
}

/* ---- the statuses ---- */

struct expect {
    unsigned must, may;
};

static bool levels_invalid(const struct request *q)
{
    const uturn_problem_t *p = &q->p;
    if ((p->levels == NULL) != (p->level_count == 0))
        return true;
    if (p->levels == NULL)
        return false;
    if (p->slots != 0 || p->budget_bytes != 0 ||
        p->level_count > FZ_MAX_LEVELS || q->bad_name)
        return true;
    for (uint64_t k = 0; k < p->level_count; k++)
        if (p->levels[k].slots == 0 &&
            (p->levels[k].bytes == 0 || p->slot_bytes == 0))
            return true;
    return false;
}

static bool invalid(const struct request *q, const struct resolved *v)
{
    const uturn_problem_t *p = &q->p;
    const bool needs_capacity =
        p->planner == UTURN_PLANNER_HREVOLVE ||
        p->planner == UTURN_PLANNER_REVOLVE ||
        (p->planner == UTURN_PLANNER_PERIODIC && p->stride == 0);
    return p->steps == 0 || p->stride > p->steps ||
           (p->slots != 0 && p->budget_bytes != 0) ||
           (p->budget_bytes != 0 && p->slot_bytes == 0) || levels_invalid(q) ||
           (needs_capacity && !v->capacity);
}

/* hrevolve's limits, as uturn.h states them (about 12 n c + 8 n bytes
 * and c n^2 / 2 split evaluations per level, c n for a free level 0):
 * 2 far past them, 1 near, 0 well within. */
static int hrevolve_limits(uint64_t n, const struct resolved *v)
{
    if (n > HR_MAX_STEPS)
        return 2;
    u128 bytes = 8 * (u128)n, work = 0;
    for (uint64_t k = 0; k < v->count; k++) {
        const uint64_t c = v->slots[k] < n ? v->slots[k] : n;
        bytes += (12 * (u128)c + 8) * n;
        work += k == 0 && v->w[0] == 0 && v->r[0] == 0 ? (u128)c * n
                                                       : (u128)c * n * n / 2;
    }
    if (bytes > 2 * (u128)HR_TABLES || work > 2 * (u128)UTURN_HREVOLVE_WORK)
        return 2;
    if (bytes * 2 > HR_TABLES || work * 2 > UTURN_HREVOLVE_WORK)
        return 1;
    return 0;
}

static struct expect predict(const struct request *q, const struct resolved *v)
{
    const uturn_problem_t *p = &q->p;
    struct expect e          = {0, 0};
    const bool hr            = p->planner == UTURN_PLANNER_HREVOLVE;
    if (invalid(q, v))
        e.must |= FZ_BIT(UTURN_E_INVALID_ARG);
    if (v->none_held ||
        (v->capacity && p->levels == NULL && hr && v->slots[0] == 0))
        e.must |= FZ_BIT(UTURN_E_INFEASIBLE);
    if (v->total > UINT64_MAX)
        e.must |= FZ_BIT(UTURN_E_OVERFLOW);
    if (p->step_costs != NULL || (!hr && v->count > 1))
        e.must |= FZ_BIT(UTURN_E_UNSUPPORTED);
    if (hr && (!v->costs_ok || !v->costs_up))
        e.must |= FZ_BIT(UTURN_E_UNSUPPORTED);
    if (q->p.slot_bytes >= ((uint64_t)1 << 32))
        e.may |= FZ_BIT(UTURN_E_OVERFLOW); /* peak bytes past 2^64 */
    if (hr) {
        const int limits = hrevolve_limits(p->steps, v);
        e.must |= limits == 2 ? FZ_BIT(UTURN_E_UNSUPPORTED) : 0;
        e.may |= limits == 1 ? FZ_BIT(UTURN_E_UNSUPPORTED) : 0;
    } else {
        /* The uniform planners' own refusals (fuzz_planner_uniform.c
         * predicts them): what a plan for these slots returns. */
        e.may |= FZ_BIT(UTURN_E_INFEASIBLE) | FZ_BIT(UTURN_E_OVERFLOW) |
                 FZ_BIT(UTURN_E_UNSUPPORTED);
    }
    return e;
}

/* ---- the oracle on a plan ---- */

static void walk(const struct request *q, const struct resolved *v,
                 const uturn_plan_t *plan, struct reader *r)
{
    struct fz_shape shape;
    memset(&shape, 0, sizeof shape);
    uturn_problem_init(&shape.validator);
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    shape.validator.steps = q->p.steps;
    shape.level_count     = v->count;
    uturn_level_t levels[FZ_MAX_LEVELS];
    for (uint64_t k = 0; k < v->count; k++) {
        uturn_level_init(&levels[k]);
        shape.slots[k] = levels[k].slots = v->slots[k];
        shape.write_cost[k] = levels[k].write_cost = v->w[k];
        shape.read_cost[k] = levels[k].read_cost = v->r[k];
    }
    if (q->p.levels != NULL) {
        shape.validator.levels      = levels;
        shape.validator.level_count = v->count;
    } else {
        shape.validator.slots = st.slots;
        shape.slots[0]        = st.slots;
    }
    shape.validator.slot_bytes = q->p.slot_bytes;
    shape.slot_bytes           = q->p.slot_bytes;
    fz_walk_plan(plan, &shape, WALK_ACTIONS, fz_byte(r));
}

/* Every level as given: name (default levelK), slots, costs. */
static void check_level_names(const struct request *q, const struct resolved *v,
                              const uturn_plan_t *plan)
{
    for (uint64_t k = 0; k < v->count; k++) {
        uturn_level_stats_t ls;
        uturn_level_stats_init(&ls);
        CHECK(uturn_plan_level_stats(plan, k, &ls) == UTURN_OK);
        char fallback[16];
        snprintf(fallback, sizeof fallback, "level%llu", (unsigned long long)k);
        const char *name = q->p.levels == NULL           ? "mem"
                           : q->p.levels[k].name != NULL ? q->p.levels[k].name
                                                         : fallback;
        CHECK(strcmp(ls.name, name) == 0);
        if (q->p.levels != NULL)
            CHECK(ls.slots == v->slots[k]);
    }
}

/* hrevolve's optima and bounds. */
static void check_hrevolve(const struct request *q, const struct resolved *v,
                           const uturn_stats_t *st)
{
    const uint64_t n = q->p.steps;
    const u128 all =
        fz_revolve_forward(n, v->total < n ? (uint64_t)v->total : n);
    CHECK(st->forward_steps >= all && st->cost >= all);
    if (v->w[0] == 0 && v->r[0] == 0)
        CHECK(st->cost <= fz_revolve_forward(n, v->slots[0]));
    if (v->count == 1 && v->w[0] == 0 && v->r[0] == 0)
        CHECK(st->forward_steps == all && st->cost == st->forward_steps);
    if (q->reference != 0 && st->cost != q->reference) {
        print_request("reference", q);
        fprintf(stderr, "cost %llu, docs/model.md says %llu\n",
                (unsigned long long)st->cost, (unsigned long long)q->reference);
        abort();
    }
    uint64_t best = UINT64_MAX;
    u128 work     = 0; /* the recurrence's, written plainly */
    for (uint64_t k = 0; k < v->count; k++)
        work += (u128)(v->slots[k] < n ? v->slots[k] : n) * n * n / 2;
    if (fz_exhaust_fits(n, v->slots, (size_t)v->count))
        best = fz_exhaust_cost(n, v->slots, v->w, v->r, (size_t)v->count);
    else if (n <= FZ_HREC_STEPS && work <= RECURRENCE_WORK)
        best = fz_hrevolve_cost(n, v->slots, v->w, v->r, (size_t)v->count);
    if (best != UINT64_MAX && st->cost != best) {
        print_request("not the optimum", q);
        fprintf(stderr, "cost %llu, optimum %llu\n",
                (unsigned long long)st->cost, (unsigned long long)best);
        abort();
    }
}

/* One more slot in level k never costs more (the optimum over a larger
 * set of plans). */
static void check_more_slots(const struct request *q, const struct resolved *v,
                             const uturn_stats_t *st, uint8_t pick)
{
    const uint64_t k = pick % v->count;
    if (q->p.levels == NULL || q->p.steps > FZ_HREC_STEPS ||
        v->total >= UINT64_MAX || v->slots[k] > q->p.steps ||
        q->p.slot_bytes >= ((uint64_t)1 << 32)) /* peak bytes may wrap */
        return;
    struct request more  = *q;
    more.p.levels        = more.levels;
    more.levels[k].slots = v->slots[k] + 1;
    uturn_plan_t *plan   = NULL;
    CHECK(uturn_plan_create(&more.p, NULL, &plan, NULL) == UTURN_OK);
    uturn_stats_t s2;
    uturn_stats_init(&s2);
    CHECK(uturn_plan_stats(plan, &s2) == UTURN_OK);
    if (s2.cost > st->cost) {
        print_request("one more slot costs more", q);
        fprintf(stderr, "level %llu: cost %llu, with one more slot %llu\n",
                (unsigned long long)k, (unsigned long long)st->cost,
                (unsigned long long)s2.cost);
        abort();
    }
    uturn_plan_free(plan);
}

/* A planner of one level, given one level: the plan for its slots. */
static void check_one_level(const struct request *q, const struct resolved *v,
                            const uturn_stats_t *st)
{
    uturn_problem_t plain = q->p;
    plain.levels          = NULL;
    plain.level_count     = 0;
    plain.slots           = v->slots[0];
    uturn_plan_t *plan    = NULL;
    CHECK(uturn_plan_create(&plain, NULL, &plan, NULL) == UTURN_OK);
    uturn_stats_t s2;
    uturn_stats_init(&s2);
    CHECK(uturn_plan_stats(plan, &s2) == UTURN_OK);
    CHECK(fz_stats_equal(&s2, st));
    CHECK((u128)st->cost == (u128)st->forward_cost +
                                (u128)st->stores * v->w[0] +
                                (u128)st->restores * v->r[0]);
    uturn_plan_free(plan);
}

/* Write the plan as text (format 2 when it has levels that format 1
 * cannot say) and parse it back: the same counts and cost. */
static void check_text(const uturn_plan_t *plan, const uturn_stats_t *st)
{
    if (st->actions > TEXT_ACTIONS)
        return;
    char *text           = NULL;
    size_t len           = 0;
    uturn_plan_t *parsed = fz_text_round_trip(plan, &text, &len);
    const bool format2   = strncmp(text, "uturn-plan 2\n", 13) == 0;
    CHECK(format2 || st->levels == 1);
    uturn_stats_t back;
    uturn_stats_init(&back);
    CHECK(uturn_plan_stats(parsed, &back) == UTURN_OK);
    CHECK(fz_stats_equal(&back, st) && back.cost == st->cost &&
          back.levels == st->levels);
    for (uint64_t k = 0; k < st->levels; k++) {
        uturn_level_stats_t a, b;
        uturn_level_stats_init(&a);
        uturn_level_stats_init(&b);
        CHECK(uturn_plan_level_stats(plan, k, &a) == UTURN_OK);
        CHECK(uturn_plan_level_stats(parsed, k, &b) == UTURN_OK);
        CHECK(a.stores == b.stores && a.restores == b.restores &&
              a.slots == b.slots);
        /* Format 1 (one level of no cost) carries no name: "mem". */
        CHECK(strcmp(a.name, b.name) == 0 || !format2);
    }
    uturn_plan_free(parsed);
    free(text);
}

static void check_plan(const struct request *q, const struct resolved *v,
                       const uturn_plan_t *plan, struct reader *r)
{
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    CHECK(st.steps == q->p.steps && st.reverse_steps == q->p.steps);
    CHECK(st.levels == v->count && st.frees == st.stores && !st.online);
    if (q->p.levels != NULL)
        CHECK(st.slots == v->total);
    walk(q, v, plan, r);
    check_level_names(q, v, plan);
    if (q->p.planner == UTURN_PLANNER_HREVOLVE) {
        check_hrevolve(q, v, &st);
        check_more_slots(q, v, &st, fz_byte(r));
    } else if (q->p.levels != NULL) {
        check_one_level(q, v, &st);
    }
    check_text(plan, &st);
}

/* ---- refusals ---- */

/* Infeasible: one slot of slot_bytes, and that is enough. */
static void check_minimum(const struct request *q, const uturn_error_t *error)
{
    CHECK(error->minimum_slots == 1);
    CHECK(error->minimum_bytes == q->p.slot_bytes);
    struct request more = *q;
    if (more.p.levels != NULL) {
        more.p.levels = more.levels;
        for (uint64_t k = 0; k < more.count; k++)
            if (more.levels[k].slots == 0 &&
                more.levels[k].bytes < q->p.slot_bytes)
                more.levels[k].bytes = q->p.slot_bytes;
    } else if (more.p.budget_bytes != 0) {
        more.p.budget_bytes = error->minimum_bytes;
    } else {
        more.p.slots = 1;
    }
    uturn_plan_t *plan      = NULL;
    const uturn_status_t st = uturn_plan_create(&more.p, NULL, &plan, NULL);
    CHECK(st != UTURN_E_INFEASIBLE);
    uturn_plan_free(plan);
}

static void check_refusal(const struct request *q, uturn_status_t status,
                          const uturn_error_t *error, const struct expect *e)
{
    if (e->must == 0 && (e->may & FZ_BIT(status)) == 0) {
        print_request("refused", q);
        fprintf(stderr, "got %s: %s\n", uturn_status_name(status),
                error->message);
        abort();
    }
    fz_check_error(status, error, e->must | e->may);
    if (status == UTURN_E_INFEASIBLE && q->p.planner == UTURN_PLANNER_HREVOLVE)
        check_minimum(q, error);
}

/* ---- pace ---- */

static bool too_slow(const struct request *q, const struct resolved *v)
{
    if (fz_slow() || q->p.steps == 0)
        return false;
    if (q->p.planner != UTURN_PLANNER_HREVOLVE)
        return q->p.steps > LEVELS_STEPS;
    if (hrevolve_limits(q->p.steps, v) == 2)
        return false; /* refused at once */
    u128 work = 0;
    for (uint64_t k = 0; k < v->count; k++) {
        const uint64_t c = v->slots[k] < q->p.steps ? v->slots[k] : q->p.steps;
        work += (u128)c * q->p.steps * q->p.steps / 2;
    }
    return work > LEVELS_WORK && q->reference == 0;
}

void fz_planner_levels(struct reader *r)
{
    struct request q;
    decode(r, &q);
    if (fz_verbose())
        print_request("problem", &q);
    struct resolved v;
    resolve(&q, &v);
    if (too_slow(&q, &v)) {
        fz_verdict("skipped");
        return;
    }
    const struct expect e = predict(&q, &v);

    struct fz_arena arena   = {0, 0, 0, 0};
    uturn_allocator_t alloc = fz_allocator(&arena);
    uturn_plan_t *plan      = NULL;
    uturn_error_t error;
    uturn_error_init(&error);
    uturn_status_t status = uturn_plan_create(&q.p, &alloc, &plan, &error);
    if (status != UTURN_OK) {
        CHECK(plan == NULL && arena.live == 0);
        check_refusal(&q, status, &error, &e);
        fz_verdict(uturn_status_name(status));
        return;
    }
    if (e.must != 0) {
        print_request("accepted", &q);
        abort();
    }
    const uint64_t calls = arena.calls;
    fz_verdict("planned");
    check_plan(&q, &v, plan, r);
    uturn_plan_free(plan);
    CHECK(arena.live == 0);

    arena.calls   = 0;
    arena.fail_at = 1 + fz_bytes_le(r, 2) % (calls != 0 ? calls : 1);
    status        = uturn_plan_create(&q.p, &alloc, &plan, &error);
    CHECK(status == UTURN_E_NOMEM && plan == NULL && arena.live == 0);
    CHECK(error.status == UTURN_E_NOMEM && error.message[0] != '\0');
}
