/*
 * What every rank must share before the ranks can agree on a plan: the
 * planner, the steps, the stride, whether states have per-step sizes and
 * steps per-step costs, dp's table limit and mode (they decide between
 * its exact and approximate plans), and the options; not dp's thread
 * count, which never changes a plan. A rank's own problem is checked
 * here before the first vote, so that a rank with a bad argument fails
 * with every other rank instead of leaving them waiting.
 */
#include "mpi_internal.h"

#include <stdio.h>
#include <string.h>

void uturn__mpi_making_fail(struct uturn__mpi_making *mk, uturn_status_t status,
                            const uturn_error_t *err)
{
    if (mk->status != UTURN_OK)
        return;
    mk->status = status;
    if (err != NULL)
        mk->error = *err;
    else
        uturn__mpi_fail(&mk->error, status, "%s", uturn_strerror(status));
    mk->error.status = status;
}

void uturn__mpi_making_failf(struct uturn__mpi_making *mk,
                             uturn_status_t status, uint64_t minimum_slots,
                             uint64_t minimum_bytes, const char *fmt, ...)
{
    uturn_error_t e;
    uturn_error_init(&e);
    e.status        = status;
    e.minimum_slots = minimum_slots;
    e.minimum_bytes = minimum_bytes;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    uturn__mpi_making_fail(mk, status, &e);
}

static void refuse(struct uturn__mpi_making *mk, uturn_status_t status,
                   const char *why)
{
    uturn__mpi_making_failf(mk, status, 0, 0, "%s", why);
}

/* splitmix64's finalizer: every input bit moves every output bit, so that
 * two shapes that differ anywhere give different keys (a key is compared,
 * never trusted for more). */
static uint64_t mix(uint64_t h, uint64_t v)
{
    uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
    z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* dp's table limit as it applies (0 is the default). */
static uint64_t dp_table_bytes(const uturn_problem_t *p)
{
    return p->table_bytes != 0 ? p->table_bytes : UTURN_DP_TABLE_BYTES;
}

/* The caller's level k, read no byte past its size. */
static uturn_level_t level_at(const uturn_problem_t *p, uint64_t k)
{
    uturn_level_t lv;
    uturn_level_init(&lv);
    memcpy(&lv, &p->levels[k],
           p->levels[k].size != 0 && p->levels[k].size < sizeof lv
               ? p->levels[k].size
               : sizeof lv);
    return lv;
}

/* Whether the rank gives a capacity at all: a rank with none would take
 * the others' (a single process is refused, or stores every state). */
static bool capacity_given(const uturn_problem_t *p)
{
    return p->slots != 0 || p->budget_bytes != 0 || p->levels != NULL;
}

uint64_t uturn__mpi_shape_key(const struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p     = &mk->problem;
    const uturn_mpi_options_t *o = &mk->options;
    const uint64_t fields[]      = {(uint64_t)p->planner,
                                    p->steps,
                                    p->stride,
                                    p->step_bytes != NULL,
                                    uturn__mpi_online_sized(p),
                                    p->step_costs != NULL,
                                    o->units,
                                    o->table_bytes,
                                    o->compare,
                                    p->max_steps,
                                    dp_table_bytes(p),
                                    (uint64_t)p->dp_mode,
                                    p->sweeps,
                                    capacity_given(p)};
    uint64_t h                   = 0x757475726e2d6d70ull;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        h = mix(h, fields[i]);
    /* Levels: how many and what each costs (capacities are each rank's). */
    const uint64_t levels = p->levels != NULL ? p->level_count : 0;
    h                     = mix(h, levels);
    for (uint64_t k = 0; k < levels && k < UTURN_MPI_LEVELS; k++) {
        const uturn_level_t lv = level_at(p, k);
        h                      = mix(mix(h, lv.write_cost), lv.read_cost);
    }
    return h;
}

/* ", level K write_cost W, level K read_cost R" for each level. */
static void levels_text(const uturn_problem_t *p, char *buf, size_t cap)
{
    const uint64_t levels = p->levels != NULL ? p->level_count : 0;
    size_t used           = 0;
    buf[0]                = '\0';
    for (uint64_t k = 0; k < levels && k < UTURN_MPI_LEVELS && used < cap;
         k++) {
        const uturn_level_t lv = level_at(p, k);
        const int n =
            snprintf(buf + used, cap - used,
                     ", level %llu write_cost %llu, level %llu read_cost %llu",
                     (unsigned long long)k, (unsigned long long)lv.write_cost,
                     (unsigned long long)k, (unsigned long long)lv.read_cost);
        used += n > 0 ? (size_t)n : 0;
    }
}

void uturn__mpi_shape_text(const struct uturn__mpi_making *mk, char *buf,
                           size_t cap)
{
    const uturn_problem_t *p = &mk->problem;
    const char *name         = uturn_planner_name(p->planner);
    char levels[UTURN__MPI_WHAT / 2];
    levels_text(p, levels, sizeof levels);
    snprintf(
        buf, cap,
        "planner %s, steps %llu, stride %llu, step_bytes %s, step_costs %s, "
        "units %llu, table_bytes %llu, compare %d, max_steps %llu, "
        "dp table_bytes %llu, dp_mode %d, sweeps %llu, capacity %s, "
        "levels %llu%s",
        name != NULL ? name : "?", (unsigned long long)p->steps,
        (unsigned long long)p->stride,
        p->step_bytes                ? "given"
        : uturn__mpi_online_sized(p) ? "as the run goes"
                                     : "none",
        p->step_costs ? "given" : "none", (unsigned long long)mk->options.units,
        (unsigned long long)mk->options.table_bytes, (int)mk->options.compare,
        (unsigned long long)p->max_steps, (unsigned long long)dp_table_bytes(p),
        (int)p->dp_mode, (unsigned long long)p->sweeps,
        capacity_given(p) ? "given" : "none",
        (unsigned long long)(p->levels != NULL ? p->level_count : 0), levels);
}

static void check_sized(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    if (p->planner != UTURN_PLANNER_DP)
        refuse(mk, UTURN_E_UNSUPPORTED, "per-step sizes need the dp planner");
    else if (p->budget_bytes == 0)
        refuse(mk, UTURN_E_INVALID_ARG,
               "with step_bytes, give this rank's budget_bytes");
    else if (p->slots != 0 || p->unit_bytes != 0)
        refuse(mk, UTURN_E_INVALID_ARG,
               "with step_bytes, slots and unit_bytes must be 0 (the MPI "
               "layer plans in units of its own: options.units)");
}

static void check_uniform(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    if (p->slot_bytes == 0)
        refuse(mk, UTURN_E_INVALID_ARG,
               "slot_bytes must give this rank's state size");
    else if (p->unit_bytes != 0)
        refuse(mk, UTURN_E_INVALID_ARG,
               "unit_bytes must be 0: the MPI layer plans dp in slots");
    else if (p->slots != 0 && p->budget_bytes != 0)
        refuse(mk, UTURN_E_INVALID_ARG, "give slots or budget_bytes, not both");
}

/* Sizes as the run goes: this rank's budget, nothing else of capacity. */
static void check_online_sized(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    if (p->levels != NULL)
        refuse(mk, UTURN_E_UNSUPPORTED,
               "storage levels take uniform states: give slot_bytes");
    else if (p->budget_bytes == 0)
        refuse(mk, UTURN_E_INVALID_ARG,
               "an online plan needs slot_bytes (uniform states), or this "
               "rank's budget_bytes alone (sizes as the run goes)");
    else if (p->slots != 0 || p->unit_bytes != 0)
        refuse(mk, UTURN_E_INVALID_ARG,
               "with sizes as the run goes, slots and unit_bytes must be 0 "
               "(the MPI layer plans in units of its own)");
}

void uturn__mpi_shape_check(struct uturn__mpi_making *mk)
{
    const uturn_problem_t *p = &mk->problem;
    if (p->steps == 0 && p->planner != UTURN_PLANNER_ONLINE)
        refuse(mk, UTURN_E_INVALID_ARG,
               "steps must be at least 1 (0, the step count unknown, is for "
               "the online planner)");
    else if (uturn__mpi_online_sized(p))
        check_online_sized(mk);
    else if (p->levels != NULL && p->step_bytes != NULL)
        refuse(mk, UTURN_E_UNSUPPORTED,
               "storage levels take uniform states (no step_bytes)");
    else if (p->planner == UTURN_PLANNER_PARSED)
        refuse(mk, UTURN_E_INVALID_ARG,
               "a parsed plan is agreed with uturn_mpi_plan_adopt()");
    else if (uturn_planner_name(p->planner) == NULL)
        refuse(mk, UTURN_E_INVALID_ARG, "unknown planner");
    else if (mk->options.table_bytes > UTURN_DP_TABLE_BYTES)
        refuse(mk, UTURN_E_INVALID_ARG,
               "options.table_bytes is above UTURN_DP_TABLE_BYTES");
    else if (p->step_bytes != NULL)
        check_sized(mk);
    else
        check_uniform(mk);
}
