/*
 * online: the planner for a step count found as the run goes (steps 0),
 * here with uniform slots (slots, or a byte budget with slot_bytes) of
 * fewer than 4 (plan.c gives 4 and more to online_slots.c, and a byte
 * budget alone, whose sizes come as the run goes, to online_bytes.c,
 * which plans small ones with this family's bytes mode). The rules and
 * the reversal are in online_sweep.c, online_rules.c, online_dp.c and
 * online_walk.c (see online.h).
 */
#include "online.h"

/* The slots past which the reversal's search (its cost grows like s^4 in
 * bad cases) is refused. */
#define MAX_SLOTS UTURN_ONLINE_MAX_SLOTS_BYTES

static uturn_status_t check_capacity(const uturn_plan_t *plan,
                                     uturn_error_t *error)
{
    const uturn_problem_t *p = &plan->problem;
    if (!plan->has_capacity)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "online needs a capacity: slots, a byte budget "
                           "and slot_bytes, or a byte budget alone (each "
                           "state's size then given as it is reached)");
    if (p->slots == 0) {
        char given[128];
        uturn__capacity_text(p, given, sizeof given);
        return uturn__fail_infeasible(error, 1, p->slot_bytes,
                                      "online needs at least 1 slot (%llu "
                                      "bytes) to hold x_0; %s",
                                      (unsigned long long)p->slot_bytes,
                                      given);
    }
    if (p->slots > MAX_SLOTS && p->budget_bytes == 0)
        return uturn__fail(error, UTURN_E_UNSUPPORTED,
                           "online plans hold at most %d slots (the search "
                           "for the best reversal grows like slots^4); %llu "
                           "asked: give %d or fewer",
                           MAX_SLOTS, (unsigned long long)p->slots,
                           MAX_SLOTS);
    return UTURN_OK;
}

static uturn_status_t prepare(uturn_plan_t *plan, uturn_error_t *error)
{
    const uturn_status_t st = check_capacity(plan, error);
    if (st != UTURN_OK)
        return st;
    const uturn_problem_t *p = &plan->problem;
    /* A budget that holds more than MAX_SLOTS: the plan uses MAX_SLOTS
     * (less memory than allowed; stats.slots says so). */
    const uint64_t s = p->slots > MAX_SLOTS ? MAX_SLOTS : p->slots;
    return uturn__online_capacity(plan, s,
                                  uturn__ol_state_bytes(s, p->max_steps),
                                  error);
}

static uturn_status_t state_size(const uturn_plan_t *plan, size_t *bytes)
{
    *bytes = uturn__ol_state_bytes(plan->stats.slots, plan->problem.max_steps);
    return *bytes != 0 ? UTURN_OK : UTURN_E_NOMEM;
}

static void start(const uturn_plan_t *plan, void *state)
{
    uturn__ol_start(state, plan->stats.slots, plan->problem.max_steps);
}

/* The slots and max_steps fix the stream (the 0: the mode of 0.3, when
 * this planner also took byte budgets). */
static void fingerprint(const uturn_plan_t *plan, struct uturn__hasher *h)
{
    uturn__hash_u64(h, 0);
    uturn__hash_u64(h, plan->problem.slots);
    uturn__hash_u64(h, plan->problem.max_steps);
}

static uturn_status_t end(void *state)
{
    return uturn__ol_status_of(uturn__ol_end(state));
}

static uturn_status_t set_size(void *state, uint64_t step, uint64_t bytes)
{
    return uturn__ol_status_of(uturn__ol_set_size(state, step, bytes));
}

static uint64_t steps_known(const void *state)
{
    return uturn__ol_steps(state);
}

static uint64_t forward_total(const void *state)
{
    return uturn__ol_forward(state);
}

static bool sized(const uturn_plan_t *plan)
{
    (void)plan;
    return false;
}

const struct uturn__planner uturn__online = {
    .id            = UTURN_PLANNER_ONLINE,
    .name          = "online",
    .prepare       = prepare,
    .state_size    = state_size,
    .start         = start,
    .fill          = uturn__ol_fill,
    .fingerprint   = fingerprint,
    .awaits_end    = uturn__ol_awaits_end,
    .end           = end,
    .set_size      = set_size,
    .steps_known   = steps_known,
    .forward_total = forward_total,
    .sized         = sized,
};
