/* Driving an online plan through a cursor with the end revealed after n
 * steps, every action checked by a validator that learns n only then.
 * Header-only (static inline) for tests/test_online.c and
 * tests/online_sweep.c. */
#ifndef UTURN_ONLINE_DRIVE_H_INCLUDED
#define UTURN_ONLINE_DRIVE_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <uturn.h>

/* C(a, b), saturating at UINT64_MAX (small arguments in the tests). */
static inline uint64_t od_choose(uint64_t a, uint64_t b)
{
    if (b > a)
        return 0;
    b            = b < a - b ? b : a - b;
    __uint128_t r = 1;
    for (uint64_t i = 1; i <= b; i++) {
        r = r * (a - b + i) / i;
        if (r > UINT64_MAX)
            return UINT64_MAX;
    }
    return (uint64_t)r;
}

/* The offline optimum t(l, s) of docs/model.md section 4: r the least
 * with beta(s, r) = C(s + r, s) >= l, t = r l - beta(s + 1, r - 1) =
 * r l - C(s + r, s + 1). t(n + 1, s) is the least forward_steps of any
 * plan for n steps with s slots. */
static inline uint64_t od_t(uint64_t l, uint64_t s)
{
    if (l <= 1)
        return 0;
    if (s == 1)
        return l * (l - 1) / 2;
    uint64_t r = 0;
    while (od_choose(s + r, s) < l)
        r++;
    return r * l - od_choose(s + r, s + 1);
}

struct od_result {
    uturn_status_t status; /* UTURN_OK: valid, counts below */
    uint64_t forward_steps, peak_slots, actions;
    char message[256];
};

/* An online plan of `slots` slots; steps 0. */
static inline uturn_plan_t *od_plan(uint64_t slots, uint64_t max_steps)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner   = UTURN_PLANNER_ONLINE;
    p.slots     = slots;
    p.max_steps = max_steps;
    uturn_plan_t *plan = NULL;
    return uturn_plan_create(&p, NULL, &plan, NULL) == UTURN_OK ? plan : NULL;
}

/* Push every action of the batch; the first failure in r. */
static inline bool od_push(uturn_validator_t *v, const uturn_action_t *a,
                           size_t count, struct od_result *r)
{
    uturn_error_t err;
    uturn_error_init(&err);
    for (size_t i = 0; i < count; i++) {
        if (uturn_validator_push(v, &a[i], &err) != UTURN_OK) {
            r->status = err.status;
            memcpy(r->message, err.message, sizeof r->message);
            return false;
        }
        r->actions += 1;
    }
    return true;
}

/* Reveal the end after n steps; the first-sweep actions up to step n go
 * to prefix (their count to *prefix_count) when prefix is not NULL. */
static inline struct od_result od_drive(const uturn_plan_t *plan, uint64_t n,
                                        uturn_action_t *prefix,
                                        size_t prefix_cap,
                                        size_t *prefix_count)
{
    struct od_result r = {.status = UTURN_OK};
    uturn_problem_t vp;
    uturn_problem_init(&vp);
    uturn_stats_t ps;
    uturn_stats_init(&ps);
    uturn_plan_stats(plan, &ps);
    vp.slots             = ps.slots;
    uturn_validator_t *v = NULL;
    uturn_cursor_t *c    = NULL;
    uturn_validator_create(&vp, NULL, &v, NULL);
    uturn_cursor_create(plan, NULL, &c);
    uturn_action_t batch[64];
    size_t count = 0, kept = 0;
    bool ended   = false;
    while (uturn_cursor_read(c, batch, 64, &count) == UTURN_OK && count > 0) {
        for (size_t i = 0; !ended && prefix != NULL && i < count; i++)
            if (kept < prefix_cap)
                prefix[kept++] = batch[i];
        if (!od_push(v, batch, count, &r))
            break;
        const uturn_action_t *last = &batch[count - 1];
        if (!ended && last->op == UTURN_OP_ADVANCE && last->step_end == n) {
            ended = true;
            if (uturn_cursor_end(c) != UTURN_OK ||
                uturn_validator_set_steps(v, n, NULL) != UTURN_OK) {
                r.status = UTURN_E_INVALID_PLAN;
                strcpy(r.message, "the end was refused");
                break;
            }
        }
    }
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    uturn_error_t err;
    uturn_error_init(&err);
    if (r.status == UTURN_OK && uturn_validator_finish(v, &seen, &err) !=
                                    UTURN_OK) {
        r.status = err.status;
        memcpy(r.message, err.message, sizeof r.message);
    }
    r.forward_steps = seen.forward_steps;
    r.peak_slots    = seen.peak_slots;
    if (prefix_count != NULL)
        *prefix_count = kept;
    uturn_cursor_free(c);
    uturn_validator_free(v);
    return r;
}

#endif
