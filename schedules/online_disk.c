/*
 * online with storage levels: the planner (checks, the period, the reach
 * of its tables). The schedule is described in online_disk.h; the period
 * and the costs are in online_disk_period.c, the cursor in
 * online_disk_cursor.c. The planner's id is online's: plan.c gives it
 * the problems of the online planner that have several levels.
 */
#include "online_disk.h"

/* Each cursor keeps three words per slot of the last level. */
#define MAX_DISK_SLOTS ((uint64_t)1 << 24)

/* Doublings of the period max_steps may ask for: 2^30 periods of disk
 * slots reach past hrevolve's step limit anyway. */
#define MAX_DOUBLINGS 30

/* The reversal runs hrevolve's tables, exact only when costs do not
 * decrease with the level and bounded like hrevolve's. */
static uturn_status_t check_costs(const uturn_plan_t *plan,
                                  uturn_error_t *error)
{
    const uturn_level_t *lv = plan->levels;
    for (uint64_t k = 0; k < plan->level_count; k++) {
        if (lv[k].write_cost > UTURN__HR_MAX_IO_COST ||
            lv[k].read_cost > UTURN__HR_MAX_IO_COST)
            return uturn__fail(error, UTURN_E_UNSUPPORTED,
                               "level %llu (%s): online with levels takes "
                               "write and read costs up to 2^24",
                               (unsigned long long)k, lv[k].name);
        if (k > 0 && (lv[k].write_cost < lv[k - 1].write_cost ||
                      lv[k].read_cost < lv[k - 1].read_cost))
            return uturn__fail(
                error, UTURN_E_UNSUPPORTED,
                "level %llu (%s) is cheaper to %s than level %llu: online "
                "with levels reverses each period by hrevolve, whose "
                "optimum is not guaranteed when costs decrease",
                (unsigned long long)k, lv[k].name,
                lv[k].write_cost < lv[k - 1].write_cost ? "write" : "read",
                (unsigned long long)(k - 1));
    }
    return UTURN_OK;
}

static uturn_status_t too_long(uturn_error_t *error, uint64_t max_steps)
{
    return uturn__fail(error, UTURN_E_UNSUPPORTED,
                       "online with levels: max_steps %llu needs tables for "
                       "periods past hrevolve's limits (2^30 bytes, 10^11 "
                       "split evaluations, 2^28 steps): give a smaller "
                       "max_steps or more slots on the last level",
                       (unsigned long long)max_steps);
}

/* The stride, the reach and the tables' length: the period doubled until
 * disk_slots periods reach max_steps (with one disk slot, one segment
 * from x_0 as long as max_steps, or the period). */
static uturn_status_t size_reach(struct uturn__od_plan *p, uint64_t max_steps,
                                 uint64_t *length, uturn_error_t *error)
{
    if (p->disk_slots == 1) {
        *length   = max_steps > p->period ? max_steps : p->period;
        p->reach  = *length;
        p->stride = *length + 1;
        return *length <= UTURN__HR_MAX_STEPS ? UTURN_OK
                                              : too_long(error, max_steps);
    }
    p->stride         = p->period;
    uint64_t doubling = 0;
    while ((uturn__u128)p->disk_slots * (p->period << doubling) < max_steps) {
        if (++doubling > MAX_DOUBLINGS)
            return too_long(error, max_steps);
    }
    *length  = p->period << doubling;
    p->reach = p->disk_slots * *length;
    return *length <= UTURN__HR_MAX_STEPS ? UTURN_OK
                                          : too_long(error, max_steps);
}

static void data_free(uturn_plan_t *plan)
{
    struct uturn__od_plan *p = plan->data;
    if (p != NULL)
        uturn__hr_free(&plan->alloc, p->tables);
    uturn__free(&plan->alloc, p, sizeof *p);
    plan->data = NULL;
}

static uturn_status_t build(uturn_plan_t *plan, struct uturn__od_plan *p,
                            const struct uturn__hr_level *lv,
                            uturn_error_t *error)
{
    uint64_t length   = 0;
    uturn_status_t st = uturn__od_period(plan, lv, &p->period, error);
    if (st == UTURN_OK)
        st = size_reach(p, plan->problem.max_steps, &length, error);
    if (st != UTURN_OK)
        return st;
    struct uturn__hr_need need;
    uturn__hr_need(length, lv, (size_t)plan->level_count, &need);
    if (need.bytes > UTURN_HREVOLVE_TABLE_BYTES ||
        need.work > UTURN_HREVOLVE_WORK)
        return too_long(error, plan->problem.max_steps);
    if (uturn__hr_build(&plan->alloc, length, lv, (size_t)plan->level_count,
                        &p->tables) != UTURN_OK)
        return uturn__fail(error, UTURN_E_NOMEM,
                           "out of memory for the periods' tables");
    return UTURN_OK;
}

/* What is known before the run: the capacity, per level too; the counts
 * come from the cursor (uturn_cursor_stats) or the run once n is found. */
static void known_counts(uturn_plan_t *plan)
{
    plan->stats.online     = true;
    plan->stats.slots      = plan->problem.slots;
    plan->stats.peak_slots = plan->problem.slots;
    plan->slot_span        = plan->problem.slots;
    for (uint64_t k = 0; k < plan->level_count; k++)
        plan->level_stats[k].peak_slots = plan->levels[k].slots;
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    uturn_status_t st = check_costs(plan, error);
    if (st != UTURN_OK)
        return st;
    const uturn_level_t *last = &plan->levels[plan->level_count - 1];
    if (last->slots > MAX_DISK_SLOTS)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "online with levels: level %llu (%s) has %llu "
                           "slots; its cursors keep 24 bytes for each, and "
                           "take at most 2^24",
                           (unsigned long long)(plan->level_count - 1),
                           last->name, (unsigned long long)last->slots);
    struct uturn__hr_level lv[UTURN__MAX_LEVELS];
    for (uint64_t k = 0; k < plan->level_count; k++)
        lv[k] = (struct uturn__hr_level){plan->levels[k].slots,
                                         plan->levels[k].write_cost,
                                         plan->levels[k].read_cost};
    struct uturn__od_plan *p = uturn__alloc_zeroed(&plan->alloc, 1, sizeof *p);
    if (p == NULL)
        return uturn__fail(error, UTURN_E_NOMEM, "out of memory for a plan");
    const size_t top = (size_t)plan->level_count - 1;
    *p =
        (struct uturn__od_plan){.top        = top,
                                .disk_slots = lv[top].slots,
                                .write_cost = lv[top].write_cost,
                                .read_cost  = lv[top].read_cost,
                                .base_top = plan->problem.slots - lv[top].slots,
                                .max_steps = plan->problem.max_steps};
    plan->data      = p;
    plan->data_free = data_free;
    st              = build(plan, p, lv, error);
    if (st == UTURN_OK)
        known_counts(plan);
    return st;
}

/* The levels (slots and costs) and max_steps fix the stream. */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    uturn__hash_u64(h, plan->level_count);
    for (uint64_t k = 0; k < plan->level_count; k++) {
        uturn__hash_u64(h, plan->levels[k].slots);
        uturn__hash_u64(h, plan->levels[k].write_cost);
        uturn__hash_u64(h, plan->levels[k].read_cost);
    }
    uturn__hash_u64(h, plan->problem.max_steps);
}

/* The forward steps of the reversal are not predicted (only its cost):
 * the run's progress total stays unknown. */
static uint64_t forward_total(const void *state)
{
    (void)state;
    return UINT64_MAX;
}

static bool sized(const uturn_plan_t *plan)
{
    (void)plan;
    return false;
}

static uturn_status_t realised_cost(const uturn_plan_t *plan, uint64_t steps,
                                    uint64_t *cost, uturn_error_t *error)
{
    const struct uturn__od_plan *p = plan->data;
    const uint64_t most = p->max_steps != 0 ? p->max_steps : p->reach;
    if (steps == 0 || steps > most)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "%llu steps: this online plan with levels ends "
                           "between 1 and %llu steps (%s)",
                           (unsigned long long)steps, (unsigned long long)most,
                           p->max_steps != 0 ? "its max_steps"
                                             : "its disk slots times its "
                                               "period");
    *cost = uturn__od_cost(p, steps);
    return UTURN_OK;
}

const struct uturn__planner uturn__online_disk = {
    .id            = UTURN_PLANNER_ONLINE,
    .name          = "online",
    .prepare       = prepare,
    .state_size    = uturn__od_state_size,
    .start         = uturn__od_start,
    .fill          = uturn__od_fill,
    .fingerprint   = fingerprint,
    .levels        = true,
    .awaits_end    = uturn__od_awaits_end,
    .end           = uturn__od_end,
    .steps_known   = uturn__od_steps_known,
    .forward_total = forward_total,
    .sized         = sized,
    .realised_cost = realised_cost,
};
