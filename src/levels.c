/*
 * Storage levels of a plan: owned copies with resolved slot counts and
 * names, each level's counts, and the plan's cost. A plan without levels
 * has one, memory, with the plan's capacity and no read or write cost, so
 * that every plan answers uturn_plan_level_stats() the same way.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

void uturn_level_init_size(uturn_level_t *level, size_t size)
{
    uturn_level_t d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    uturn__init_sized(level, size, &d, sizeof d);
}

void uturn_level_stats_init_size(uturn_level_stats_t *stats, size_t size)
{
    uturn_level_stats_t d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    uturn__init_sized(stats, size, &d, sizeof d);
}

/* Room for count levels, their counts and names of name_bytes: one block
 * (levels, then counts, then the names). */
static uturn_status_t allocate(uturn_plan_t *plan, uint64_t count,
                               size_t name_bytes)
{
    const size_t levels = (size_t)count * sizeof *plan->levels;
    const size_t stats  = (size_t)count * sizeof *plan->level_stats;
    unsigned char *block =
        uturn__alloc_zeroed(&plan->alloc, 1, levels + stats + name_bytes);
    if (block == NULL)
        return UTURN_E_NOMEM;
    plan->levels            = (uturn_level_t *)(void *)block;
    plan->level_stats       = (uturn_level_stats_t *)(void *)(block + levels);
    plan->level_names       = (char *)(block + levels + stats);
    plan->level_count       = count;
    plan->level_names_bytes = levels + stats + name_bytes;
    return UTURN_OK;
}

/* The one memory level of a plan without levels. */
static uturn_status_t one_level(uturn_plan_t *plan, uturn_error_t *error)
{
    if (allocate(plan, 1, 4) != UTURN_OK)
        return uturn__fail(error, UTURN_E_NOMEM, "out of memory for a level");
    memcpy(plan->level_names, "mem", 4);
    uturn_level_init(&plan->levels[0]);
    plan->levels[0].name  = plan->level_names;
    plan->levels[0].slots = plan->problem.slots;
    return UTURN_OK;
}

/* Level k's capacity in slots: given, or its bytes at slot_bytes. */
static uturn_status_t resolve_slots(uint64_t slot_bytes, uint64_t k,
                                    uturn_level_t *lv, uturn_error_t *error)
{
    if (lv->slots != 0)
        return UTURN_OK;
    if (lv->bytes == 0)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "level %llu has no capacity: give slots or bytes",
                           (unsigned long long)k);
    if (slot_bytes == 0)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "level %llu's capacity is in bytes: slot_bytes "
                           "must give the size of a state",
                           (unsigned long long)k);
    lv->slots = lv->bytes / slot_bytes;
    if (lv->slots == 0)
        return uturn__fail_infeasible(
            error, 1, slot_bytes,
            "level %llu holds no slot: %llu bytes at %llu bytes a slot",
            (unsigned long long)k, (unsigned long long)lv->bytes,
            (unsigned long long)slot_bytes);
    return UTURN_OK;
}

static size_t names_bytes(const uturn_problem_t *p)
{
    size_t total = 0;
    for (uint64_t k = 0; k < p->level_count; k++) {
        uturn_level_t lv;
        uturn_level_init(&lv);
        memcpy(&lv, &p->levels[k],
               p->levels[k].size != 0 && p->levels[k].size < sizeof lv
                   ? p->levels[k].size
                   : sizeof lv);
        total += (lv.name != NULL ? strlen(lv.name) : 8) + 1;
    }
    return total;
}

bool uturn__level_name_ok(const char *name, size_t len)
{
    if (len == 0 || len > 63)
        return false;
    for (size_t i = 0; i < len; i++) {
        const char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
            return false;
    }
    return true;
}

/* Copy level k (its struct at its size, its name into names). */
static uturn_status_t copy_one(uturn_plan_t *plan, const uturn_problem_t *p,
                               uint64_t k, size_t *used, uturn_error_t *error)
{
    uturn_level_t *lv = &plan->levels[k];
    uturn_level_init(lv);
    const size_t n = p->levels[k].size != 0 && p->levels[k].size < sizeof *lv
                         ? p->levels[k].size
                         : sizeof *lv;
    memcpy(lv, &p->levels[k], n);
    lv->size   = sizeof *lv;
    char *name = plan->level_names + *used;
    if (lv->name != NULL && !uturn__level_name_ok(lv->name, strlen(lv->name)))
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "level %llu's name must be 1 to 63 letters, "
                           "digits, '_', '.' or '-'",
                           (unsigned long long)k);
    if (lv->name != NULL)
        memcpy(name, lv->name, strlen(lv->name) + 1);
    else
        snprintf(name, 9, "level%llu", (unsigned long long)(k % 1000));
    lv->name = name;
    *used += strlen(name) + 1;
    return resolve_slots(plan->problem.slot_bytes, k, lv, error);
}

static uturn_status_t copy_levels(uturn_plan_t *plan, const uturn_problem_t *p,
                                  uturn_error_t *error)
{
    if (p->slots != 0 || p->budget_bytes != 0)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "with levels the capacity is the levels': give "
                           "neither slots nor budget_bytes");
    if (p->level_count > UTURN__MAX_LEVELS)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "%llu levels: at most %d",
                           (unsigned long long)p->level_count,
                           UTURN__MAX_LEVELS);
    if (allocate(plan, p->level_count, names_bytes(p)) != UTURN_OK)
        return uturn__fail(error, UTURN_E_NOMEM, "out of memory for levels");
    uint64_t total = 0;
    size_t used    = 0;
    for (uint64_t k = 0; k < p->level_count; k++) {
        const uturn_status_t st = copy_one(plan, p, k, &used, error);
        if (st != UTURN_OK)
            return st;
        if (uturn__add_u64(total, plan->levels[k].slots, &total) != UTURN_OK)
            return uturn__fail(error, UTURN_E_OVERFLOW,
                               "the levels' slots pass 2^64");
    }
    plan->problem.slots = total;
    plan->has_capacity  = true;
    return UTURN_OK;
}

uturn_status_t uturn__levels_copy(uturn_plan_t *plan,
                                  const uturn_problem_t *problem,
                                  uturn_error_t *error)
{
    if ((problem->levels == NULL) != (problem->level_count == 0))
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "levels and level_count go together");
    const uturn_status_t st = problem->levels == NULL
                                  ? one_level(plan, error)
                                  : copy_levels(plan, problem, error);
    plan->problem.levels      = plan->levels;
    plan->problem.level_count = plan->level_count;
    return st;
}

/* Level 0's counts are the plan's, for planners of one level. */
static void count_one_level(uturn_plan_t *plan)
{
    uturn_level_stats_t *ls = &plan->level_stats[0];
    const uturn_stats_t *s  = &plan->stats;
    plan->levels[0].slots   = s->slots;
    ls->stores              = s->stores;
    ls->restores            = s->restores;
    ls->peak_slots          = s->peak_slots;
    ls->peak_bytes          = s->peak_bytes;
}

bool uturn__level_cost(uint64_t forward_cost, const uturn_level_t *levels,
                       const uturn_level_stats_t *stats, uint64_t count,
                       uint64_t *cost)
{
    *cost = forward_cost;
    for (uint64_t k = 0; k < count; k++) {
        uint64_t w = 0, r = 0;
        if (uturn__mul_u64(stats[k].stores, levels[k].write_cost, &w) !=
                UTURN_OK ||
            uturn__mul_u64(stats[k].restores, levels[k].read_cost, &r) !=
                UTURN_OK ||
            uturn__add_u64(*cost, w, cost) != UTURN_OK ||
            uturn__add_u64(*cost, r, cost) != UTURN_OK) {
            *cost = UINT64_MAX;
            return false;
        }
    }
    return true;
}

/* forward_cost plus every level's writes and reads, checked. */
static uturn_status_t add_io_cost(uturn_plan_t *plan, uturn_error_t *error)
{
    if (uturn__level_cost(plan->stats.forward_cost, plan->levels,
                          plan->level_stats, plan->level_count,
                          &plan->stats.cost))
        return UTURN_OK;
    return uturn__fail(error, UTURN_E_OVERFLOW,
                       "the plan's cost (forward cost plus reads and "
                       "writes) does not fit in 64 bits");
}

uturn_status_t uturn__levels_finish(uturn_plan_t *plan, bool planner_counted,
                                    uturn_error_t *error)
{
    if (!planner_counted)
        count_one_level(plan);
    for (uint64_t k = 0; k < plan->level_count; k++) {
        uturn_level_stats_t *ls = &plan->level_stats[k];
        ls->size                = sizeof *ls;
        ls->name                = plan->levels[k].name;
        ls->slots               = plan->levels[k].slots;
        ls->write_cost          = plan->levels[k].write_cost;
        ls->read_cost           = plan->levels[k].read_cost;
    }
    plan->stats.levels = plan->level_count;
    return add_io_cost(plan, error);
}

void uturn__levels_free(uturn_plan_t *plan)
{
    /* One block from allocate(), its size in level_names_bytes. */
    uturn__free(&plan->alloc, plan->levels, plan->level_names_bytes);
    plan->levels      = NULL;
    plan->level_stats = NULL;
    plan->level_names = NULL;
    plan->level_count = 0;
}

uint64_t uturn__level_of(const uturn_level_t *levels, uint64_t count,
                         uint64_t slot)
{
    for (uint64_t k = 0; k + 1 < count; k++) {
        if (slot < levels[k].slots)
            return k;
        slot -= levels[k].slots;
    }
    return count - 1;
}

uturn_status_t uturn_plan_level_stats(const uturn_plan_t *plan,
                                      uint64_t level, uturn_level_stats_t *out)
{
    if (plan == NULL || out == NULL || level >= plan->level_count)
        return UTURN_E_INVALID_ARG;
    const size_t keep = out->size == 0 || out->size > sizeof *out
                            ? sizeof *out
                            : out->size;
    memcpy(out, &plan->level_stats[level], keep);
    out->size = keep;
    return UTURN_OK;
}

uturn_status_t uturn__levels_resolve(const uturn_problem_t *p,
                                     uturn_level_t out[UTURN__MAX_LEVELS],
                                     uint64_t *total, uturn_error_t *error)
{
    if ((p->levels == NULL) != (p->level_count == 0))
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "levels and level_count go together");
    if (p->level_count > UTURN__MAX_LEVELS)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "%llu levels: at most %d",
                           (unsigned long long)p->level_count,
                           UTURN__MAX_LEVELS);
    if (p->level_count != 0 && (p->slots != 0 || p->budget_bytes != 0))
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "with levels the capacity is the levels': give "
                           "neither slots nor budget_bytes");
    *total = 0;
    for (uint64_t k = 0; k < p->level_count; k++) {
        uturn_level_init(&out[k]);
        memcpy(&out[k], &p->levels[k],
               p->levels[k].size != 0 && p->levels[k].size < sizeof out[k]
                   ? p->levels[k].size
                   : sizeof out[k]);
        out[k].name             = NULL;
        const uturn_status_t st = resolve_slots(p->slot_bytes, k, &out[k],
                                                error);
        if (st != UTURN_OK)
            return st;
        if (uturn__add_u64(*total, out[k].slots, total) != UTURN_OK)
            return uturn__fail(error, UTURN_E_OVERFLOW,
                               "the levels' slots pass 2^64");
    }
    return UTURN_OK;
}
