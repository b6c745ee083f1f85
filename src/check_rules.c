/* The rules of docs/model.md section 2, one action at a time. */
#include "validator.h"

#include <stdio.h>
#include <string.h>

/* Record a broken rule: "action K[ (line L)]: TEXT: REASON". */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static uturn_status_t
broken(uturn_validator_t *v, const uturn_action_t *a, uint64_t line,
       uint64_t step, const char *fmt, ...)
{
    char reason[160], where[48], text[64];
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, sizeof reason, fmt, args);
    va_end(args);
    if (line != 0)
        snprintf(where, sizeof where, " (line %llu)", (unsigned long long)line);
    else
        where[0] = '\0';
    if (a != NULL && uturn_op_name(a->op) != NULL)
        uturn__action_text(a, text);
    else if (a != NULL)
        snprintf(text, sizeof text, "op %d", (int)a->op);
    else
        snprintf(text, sizeof text, "end of plan");
    uturn_error_init(&v->failure);
    v->failed =
        uturn__fail_at(&v->failure, UTURN_E_INVALID_PLAN, v->index, line, step,
                       "action %llu%s: %s: %s", (unsigned long long)v->index,
                       where, text, reason);
    return v->failed;
}

static const char *live_text(const uturn_validator_t *v, char buf[32])
{
    if (v->live == UTURN_NONE)
        return "undefined";
    snprintf(buf, 32, "x_%llu", (unsigned long long)v->live);
    return buf;
}

/* Make slot k addressable in the dense array; k < UTURN__DENSE_SLOTS. */
static uturn_status_t reach_slot(uturn_validator_t *v, uint64_t k)
{
    if (k < v->slots_len)
        return UTURN_OK;
    size_t len = v->slots_len < 16 ? 16 : v->slots_len;
    while (len <= k && len < SIZE_MAX / 2)
        len *= 2;
    if (len <= k || len > SIZE_MAX / sizeof *v->slots)
        return UTURN_E_NOMEM;
    uint64_t *grown = uturn__alloc_zeroed(&v->alloc, len, sizeof *grown);
    if (grown == NULL)
        return UTURN_E_NOMEM;
    if (v->slots_len != 0)
        memcpy(grown, v->slots, v->slots_len * sizeof *grown);
    uturn__free(&v->alloc, v->slots, v->slots_len * sizeof *v->slots);
    v->slots     = grown;
    v->slots_len = len;
    return UTURN_OK;
}

static uturn_status_t advance(uturn_validator_t *v, const uturn_action_t *a,
                              uint64_t line)
{
    char buf[32];
    if (v->live != a->step)
        return broken(v, a, line, a->step, "the live state is %s, not x_%llu",
                      live_text(v, buf), (unsigned long long)a->step);
    if (a->step_end <= a->step)
        return broken(v, a, line, a->step, "the end must be after the start");
    if (v->steps != 0 && a->step_end > v->steps)
        return broken(v, a, line, a->step_end, "the end is past the %llu steps",
                      (unsigned long long)v->steps);
    uint64_t cost = a->step_end - a->step;
    bool wrapped  = false;
    for (uint64_t i = a->step; v->step_costs != NULL && i < a->step_end; i++)
        wrapped |= uturn__add_u64(cost, v->step_costs[i] - 1, &cost) !=
                   UTURN_OK;
    if (uturn__add_u64(v->stats.forward_steps, a->step_end - a->step,
                       &v->stats.forward_steps) != UTURN_OK)
        return broken(v, a, line, a->step,
                      "the forward steps pass 2^64 - 1");
    if (wrapped || uturn__add_u64(v->stats.forward_cost, cost,
                                  &v->stats.forward_cost) != UTURN_OK)
        return broken(v, a, line, a->step,
                      "the forward cost (steps times their step_costs) "
                      "passes 2^64 - 1");
    v->live    = a->step_end;
    v->reached = a->step_end > v->reached ? a->step_end : v->reached;
    return UTURN_OK;
}

static uturn_status_t slot_in_range(uturn_validator_t *v,
                                    const uturn_action_t *a, uint64_t line)
{
    if (a->slot >= v->capacity)
        return broken(v, a, line, a->step,
                      "slot %llu is beyond the capacity of %llu slots",
                      (unsigned long long)a->slot,
                      (unsigned long long)v->capacity);
    return UTURN_OK;
}

/* Set slot k's contents (UTURN__EMPTY to empty it). */
static uturn_status_t slot_set(uturn_validator_t *v, uint64_t k,
                               uint64_t contents)
{
    uturn_status_t status = UTURN_OK;
    if (k < UTURN__DENSE_SLOTS) {
        status = reach_slot(v, k);
        if (status == UTURN_OK)
            v->slots[k] = contents;
    } else if (contents != UTURN__EMPTY) {
        status = uturn__slot_map_put(&v->far, &v->alloc, k, contents);
    } else {
        uturn__slot_map_erase(&v->far, k);
    }
    if (status != UTURN_OK)
        return v->failed = uturn__fail(&v->failure, UTURN_E_NOMEM,
                                       "out of memory for slot %llu",
                                       (unsigned long long)k);
    return UTURN_OK;
}

/* The level of slot k (the levels hold consecutive ranges). */
static uint64_t level_of(const uturn_validator_t *v, uint64_t k)
{
    return uturn__level_of(v->levels, v->level_count, k);
}

static void count_level_store(uturn_validator_t *v, const uturn_action_t *a)
{
    const uint64_t k        = level_of(v, a->slot);
    uturn_level_stats_t *ls = &v->level_stats[k];
    ls->stores += 1;
    v->level_held[k] += 1;
    if (v->level_held[k] > ls->peak_slots)
        ls->peak_slots = v->level_held[k];
    const uint64_t bytes = v->level_held[k] * v->slot_bytes;
    ls->peak_bytes = bytes > ls->peak_bytes ? bytes : ls->peak_bytes;
}

static uturn_status_t store(uturn_validator_t *v, const uturn_action_t *a,
                            uint64_t line)
{
    char buf[32];
    uturn_status_t status = slot_in_range(v, a, line);
    if (status != UTURN_OK)
        return status;
    if (v->live != a->step)
        return broken(v, a, line, a->step, "the live state is %s, not x_%llu",
                      live_text(v, buf), (unsigned long long)a->step);
    const uint64_t held = uturn__slot_get(v, a->slot);
    if (held != UTURN__EMPTY)
        return broken(v, a, line, a->step, "slot %llu already holds x_%llu",
                      (unsigned long long)a->slot,
                      (unsigned long long)(held - 1));
    uint64_t bytes = 0;
    if (uturn__add_u64(v->held_bytes, uturn__validator_bytes(v, a->step),
                       &bytes) != UTURN_OK)
        return broken(v, a, line, a->step,
                      "the slots would hold more than 2^64 bytes");
    if (v->budget_bytes != 0 && bytes > v->budget_bytes)
        return broken(v, a, line, a->step,
                      "the slots would hold %llu bytes, above the budget of "
                      "%llu bytes",
                      (unsigned long long)bytes,
                      (unsigned long long)v->budget_bytes);
    status = slot_set(v, a->slot, a->step + 1);
    if (status != UTURN_OK)
        return status;
    v->held += 1;
    v->held_bytes = bytes;
    v->stats.stores += 1;
    if (v->held > v->stats.peak_slots)
        v->stats.peak_slots = v->held;
    if (bytes > v->stats.peak_bytes)
        v->stats.peak_bytes = bytes;
    count_level_store(v, a);
    return UTURN_OK;
}

static uturn_status_t restore(uturn_validator_t *v, const uturn_action_t *a,
                              uint64_t line)
{
    uturn_status_t status = slot_in_range(v, a, line);
    if (status != UTURN_OK)
        return status;
    const uint64_t held = uturn__slot_get(v, a->slot);
    if (held == UTURN__EMPTY)
        return broken(v, a, line, a->step, "slot %llu is empty",
                      (unsigned long long)a->slot);
    if (held != a->step + 1)
        return broken(v, a, line, a->step, "slot %llu holds x_%llu, not x_%llu",
                      (unsigned long long)a->slot,
                      (unsigned long long)(held - 1),
                      (unsigned long long)a->step);
    v->live = a->step;
    v->stats.restores += 1;
    v->level_stats[level_of(v, a->slot)].restores += 1;
    return UTURN_OK;
}

static uturn_status_t free_slot(uturn_validator_t *v, const uturn_action_t *a,
                                uint64_t line)
{
    uturn_status_t status = slot_in_range(v, a, line);
    if (status != UTURN_OK)
        return status;
    const uint64_t held = uturn__slot_get(v, a->slot);
    if (held == UTURN__EMPTY)
        return broken(v, a, line, UTURN_NONE, "slot %llu is empty",
                      (unsigned long long)a->slot);
    if (uturn__slot_map_get(&v->marks, a->slot) != 0) {
        uturn__slot_map_erase(&v->marks, a->slot);
        v->persist_held -= 1;
    }
    v->held -= 1;
    v->held_bytes -= uturn__validator_bytes(v, held - 1);
    v->stats.frees += 1;
    v->level_held[level_of(v, a->slot)] -= 1;
    return slot_set(v, a->slot, UTURN__EMPTY);
}

/* The first slot held but not marked persistent (there is one when
 * called): the dense ones, then those in the map. */
static uint64_t unmarked(const uturn_validator_t *v)
{
    for (size_t k = 0; k < v->slots_len; k++)
        if (v->slots[k] != UTURN__EMPTY &&
            uturn__slot_map_get(&v->marks, k) == 0)
            return (uint64_t)k;
    uint64_t first = UTURN_NONE;
    for (size_t i = 0; i < v->far.cap; i++) {
        const uint64_t k = v->far.keys[i];
        if (v->far.vals[i] != 0 && k < first &&
            uturn__slot_map_get(&v->marks, k) == 0)
            first = k;
    }
    return first;
}

/* A turn after the first: the previous sweep is complete, another is
 * planned (an unbounded plan's stream has one sweep), and every slot
 * still held was marked persistent. */
static uturn_status_t next_sweep(uturn_validator_t *v,
                                 const uturn_action_t *a, uint64_t line)
{
    if (v->sweeps == 1)
        return broken(v, a, line, v->steps, "the turn has already happened");
    if (v->next_reverse != 0)
        return broken(v, a, line, v->steps,
                      "sweep %llu is not complete: step %llu is next",
                      (unsigned long long)v->sweep,
                      (unsigned long long)(v->next_reverse - 1));
    if (v->sweeps == UTURN_SWEEPS_UNBOUNDED)
        return broken(v, a, line, v->steps,
                      "an unbounded plan's stream holds sweep 1 alone (each "
                      "further sweep is run on request)");
    if (v->sweep == v->sweeps)
        return broken(v, a, line, v->steps, "the plan has %llu sweeps",
                      (unsigned long long)v->sweeps);
    v->next_reverse = v->steps;
    return UTURN_OK;
}

/* The end of a sweep that is not the last: every slot still held was
 * marked persistent. */
static uturn_status_t sweep_ends(uturn_validator_t *v, const uturn_action_t *a,
                                 uint64_t line)
{
    if (v->next_reverse != 0 || v->sweep >= v->sweeps ||
        v->persist_held == v->held)
        return UTURN_OK;
    const uint64_t k = unmarked(v);
    return broken(v, a, line, 0,
                  "slot %llu holds x_%llu past sweep %llu without a persist",
                  (unsigned long long)k,
                  (unsigned long long)(uturn__slot_get(v, k) - 1),
                  (unsigned long long)v->sweep);
}

/* persist k: slot k holds a state a later sweep reads. */
static uturn_status_t persist(uturn_validator_t *v, const uturn_action_t *a,
                              uint64_t line)
{
    uturn_status_t status = slot_in_range(v, a, line);
    if (status != UTURN_OK)
        return status;
    if (v->sweeps == 1)
        return broken(v, a, line, UTURN_NONE,
                      "persist in a plan of one sweep");
    const uint64_t held = uturn__slot_get(v, a->slot);
    if (held == UTURN__EMPTY)
        return broken(v, a, line, UTURN_NONE, "slot %llu is empty",
                      (unsigned long long)a->slot);
    if (uturn__slot_map_get(&v->marks, a->slot) != 0)
        return broken(v, a, line, held - 1, "slot %llu is already persistent",
                      (unsigned long long)a->slot);
    if (uturn__slot_map_put(&v->marks, &v->alloc, a->slot, 1) != UTURN_OK)
        return v->failed = uturn__fail(&v->failure, UTURN_E_NOMEM,
                                       "out of memory for slot %llu",
                                       (unsigned long long)a->slot);
    v->persist_held += 1;
    v->stats.persistent += 1;
    return UTURN_OK;
}

static uturn_status_t turn_or_reverse(uturn_validator_t *v,
                                      const uturn_action_t *a, uint64_t line)
{
    char buf[32];
    const bool turn    = a->op == UTURN_OP_TURN;
    const uint64_t now = turn ? v->steps : a->step;
    if (turn && v->steps == 0)
        return broken(v, a, line, UTURN_NONE,
                      "the turn comes before the steps are known (an online "
                      "stream: uturn_validator_set_steps first)");
    if (turn && v->turned) {
        const uturn_status_t st = next_sweep(v, a, line);
        if (st != UTURN_OK)
            return st;
    }
    if (!turn && !v->turned)
        return broken(v, a, line, now, "reverse before the turn");
    if (!turn && v->next_reverse == 0)
        return broken(v, a, line, now, "every step is already reversed");
    if (!turn && a->step != v->next_reverse - 1)
        return broken(v, a, line, now, "the next step to reverse is %llu",
                      (unsigned long long)(v->next_reverse - 1));
    if (v->live != now)
        return broken(v, a, line, now, "the live state is %s, not x_%llu",
                      live_text(v, buf), (unsigned long long)now);
    if (turn) {
        v->turned = true;
        v->sweep += 1;
    } else {
        v->next_reverse -= 1;
        v->stats.reverse_steps += 1;
        v->live = UTURN_NONE;
    }
    return sweep_ends(v, a, line);
}

static uturn_status_t apply(uturn_validator_t *v, const uturn_action_t *a,
                            uint64_t line)
{
    switch (a->op) {
    case UTURN_OP_ADVANCE:
        return advance(v, a, line);
    case UTURN_OP_STORE:
        return store(v, a, line);
    case UTURN_OP_RESTORE:
        return restore(v, a, line);
    case UTURN_OP_FREE:
        return free_slot(v, a, line);
    case UTURN_OP_TURN:
    case UTURN_OP_REVERSE:
        return turn_or_reverse(v, a, line);
    case UTURN_OP_PERSIST:
        return persist(v, a, line);
    }
    return broken(v, a, line, UTURN_NONE, "unknown op");
}

uturn_status_t uturn__validator_push_line(uturn_validator_t *v,
                                          const uturn_action_t *a,
                                          uint64_t line, uturn_error_t *e)
{
    /* a is NULL only to copy an earlier failure out (see check.c). */
    if (v->failed == UTURN_OK && a != NULL && apply(v, a, line) == UTURN_OK) {
        v->index += 1;
        v->stats.actions += 1;
        return UTURN_OK;
    }
    if (e != NULL) {
        const size_t keep =
            e->size == 0 || e->size > sizeof *e ? sizeof *e : e->size;
        memcpy(e, &v->failure, keep);
        e->size = keep;
    }
    return v->failed;
}

uturn_status_t uturn_validator_push(uturn_validator_t *validator,
                                    const uturn_action_t *action,
                                    uturn_error_t *error)
{
    if (validator == NULL || action == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "validator and action must not be NULL");
    return uturn__validator_push_line(validator, action, 0, error);
}
