/*
 * hrevolve: the optimal plan over storage levels for uniform states
 * (Herrmann and Pallez, "H-Revolve", ACM TOMS 46(2), 2020), in uturn's
 * model. Shared by hrevolve.c (the planner and its generator),
 * hrevolve_table.c (limits and the tables) and hrevolve_counts.c (the
 * predicted counts).
 *
 * Levels k = 0 .. K-1, fastest first, with capacities c_k, write costs w_k
 * and read costs r_k. A sub-problem reverses a segment of l steps (states
 * x_0 .. x_l, relative) whose first state is live, with m slots of level k
 * and every slot of every level below k, all empty when it starts; every
 * slot it stores, it frees before it ends.
 *
 *   A_k(l, m)  x_0 is in no slot;
 *   B_k(l, m)  x_0 is also held in one of the m level-k slots, which the
 *              sub-problem frees;
 *   D_k(l)   = A_{k-1}(l, c_{k-1})  (work one level down; D_0 = infinity).
 *
 *   A_k(0, m) = B_k(0, m) = 0
 *   A_k(l, 0) = D_k(l)
 *   A_k(l, m) = min(D_k(l), w_k + B_k(l, m))
 *   B_k(l, m) = min(D_k(l),
 *                   min over 1 <= j <= l of
 *                     j + A_k(l-j, m-1) + r_k + B_k(j-1, m))
 *   cost      = A_{K-1}(n, c_{K-1})
 *
 * The split j advances x_0 to x_j, reverses x_j .. x_l (the right part)
 * while x_0 stays held, restores x_0 and reverses x_0 .. x_{j-1} (the left
 * part). D in B gives up the level-k copy and works one level down. j = l
 * is allowed everywhere: the published recurrence allows it only on a
 * single level-0 slot, and an exhaustive search over every plan shows that
 * it then misses the optimum when level 0 has costs (tests/test_hrevolve.c
 * checks this recurrence against such a search).
 */
#ifndef UTURN_HREVOLVE_H_INCLUDED
#define UTURN_HREVOLVE_H_INCLUDED

#include "planner.h"

#define UTURN__HR_INF UINT64_MAX
/* Under these bounds every finite cost is below 2^57 (B_k(l, m) is at most
 * the cost of always splitting at j = l, l(l+1)/2 + l r_k, and A adds one
 * write), so a sum of a few finite costs never wraps and only
 * UTURN__HR_INF needs care; a step index fits the uint32_t splits and the
 * 29 bits it has in a count node's key. */
#define UTURN__HR_MAX_STEPS   ((uint64_t)1 << 28)
#define UTURN__HR_MAX_IO_COST ((uint64_t)1 << 24)

/* hrevolve's rule on the levels' costs: each at most
 * UTURN__HR_MAX_IO_COST, none cheaper to write or to read than the level
 * before it. What the first level to break it breaks (*level: its index),
 * or UTURN__HR_COSTS_OK. */
enum uturn__hr_costs {
    UTURN__HR_COSTS_OK,
    UTURN__HR_COSTS_WRITE_PAST, /* its write cost past the most */
    UTURN__HR_COSTS_READ_PAST,
    UTURN__HR_COSTS_WRITE_LESS, /* cheaper to write than level - 1 */
    UTURN__HR_COSTS_READ_LESS
};
enum uturn__hr_costs uturn__hr_costs_rule(const uturn_level_t *levels,
                                          uint64_t count, uint64_t *level);

struct uturn__hr_level {
    uint64_t slots, write_cost, read_cost;
};

/* The dynamic program's tables, immutable once built (plan->data). For
 * every level, B_k(l, m) and its split j (0: the D branch) for
 * 1 <= m <= cap[k] and 0 <= l <= n, and the column D_k(l). */
struct uturn__hr_tables {
    uint64_t n;
    size_t levels;
    uint64_t cap[UTURN__MAX_LEVELS];  /* effective slots, min(c_k, n) */
    uint64_t base[UTURN__MAX_LEVELS]; /* first slot index, from the c_k */
    uint64_t w[UTURN__MAX_LEVELS], r[UTURN__MAX_LEVELS];
    uint64_t *cost[UTURN__MAX_LEVELS];  /* B_k(l, m) at (m-1)(n+1) + l */
    uint32_t *split[UTURN__MAX_LEVELS]; /* its split j */
    uint64_t *down[UTURN__MAX_LEVELS];  /* D_k(l) */
    /* The work of the build: split candidates and range bounds the
     * pruned search evaluated, against its limit; progress reports. */
    uint64_t evals, limit;
    struct uturn__hr_watch *watch;
};

/* Who watches a build (uturn_problem_t.progress), or NULL: called about
 * every 1% of the plain work, with rows done and to do in those units. */
struct uturn__hr_watch {
    int (*progress)(void *user, uint64_t done, uint64_t total);
    void *user;
    uint64_t total, done, next; /* plain work: all, finished rows, next call */
    bool stopped;               /* progress said stop */
};

/* What a build would take, saturated at UINT64_MAX: bytes (the tables,
 * their header and the scratch row, all held at once) and work (split
 * candidates the plain dynamic program evaluates, an upper bound for the
 * pruned search). O(levels), whatever n is. */
struct uturn__hr_need {
    uint64_t bytes, work;
};

void uturn__hr_need(uint64_t n, const struct uturn__hr_level *levels,
                    size_t count, struct uturn__hr_need *out);

/* Build the tables for n <= UTURN__HR_MAX_STEPS steps and levels whose
 * costs are at most UTURN__HR_MAX_IO_COST (the caller checked both and
 * that some level has a slot). UTURN_E_NOMEM on a failed allocation;
 * UTURN_E_INFEASIBLE when no plan exists; UTURN_E_UNSUPPORTED when the
 * search passes @p limit evaluations; UTURN_E_CALLBACK when @p watch
 * (may be NULL) said stop. */
uturn_status_t uturn__hr_build_watched(const uturn_allocator_t *alloc,
                                       uint64_t n,
                                       const struct uturn__hr_level *levels,
                                       size_t count, uint64_t limit,
                                       struct uturn__hr_watch *watch,
                                       struct uturn__hr_tables **out);
/* The same, unwatched and without a limit on evaluations. */
uturn_status_t uturn__hr_build(const uturn_allocator_t *alloc, uint64_t n,
                               const struct uturn__hr_level *levels,
                               size_t count, struct uturn__hr_tables **out);
void uturn__hr_free(const uturn_allocator_t *alloc,
                    struct uturn__hr_tables *tables);

/* The predicted counts of the plan the generator makes, without making
 * it; per-level arrays have tables->levels entries. */
struct uturn__hr_counts {
    uint64_t forward_steps, actions, peak_slots;
    uint64_t stores[UTURN__MAX_LEVELS], restores[UTURN__MAX_LEVELS];
    uint64_t peak[UTURN__MAX_LEVELS];
};

uturn_status_t uturn__hr_count(const uturn_allocator_t *alloc,
                               const struct uturn__hr_tables *tables,
                               struct uturn__hr_counts *out);
/* The same for a segment of l steps at level k with m slots: held, a B
 * node (x_0 live and in one of them, freed by the segment); else an A
 * node (x_0 live, in no slot; m = 0 works one level down). */
uturn_status_t uturn__hr_count_node(const uturn_allocator_t *alloc,
                                    const struct uturn__hr_tables *tables,
                                    size_t k, uint64_t l, uint64_t m, bool held,
                                    struct uturn__hr_counts *out);

/* The generator (hrevolve_gen.c). A segment reverses steps a .. a+l-1 of
 * an n-step chain (l <= tables->n) at its top level with m slots
 * (1 <= m <= its cap, or 0 to start one level down). Its top level is the
 * last one, or `above` levels below it (those it never uses). Without
 * held, x_a is live and in no slot; with held, x_a is in map[0] and not
 * live (the first action restores it; with live too, it is live and
 * nothing restores it) and the segment frees that slot, unless keep: then
 * x_a stays stored there after the segment (a persistent checkpoint).
 * map, when not NULL, names the top level's m slots by depth (it must
 * outlive the generator); else they are the level's first m. */
struct uturn__hr_segment {
    uint64_t a, l, n, m;
    const uint64_t *map;
    bool held, live, keep;
    size_t above;
};

uturn_status_t uturn__hr_gen_size(const struct uturn__hr_tables *t,
                                  size_t *bytes);
void uturn__hr_gen_start(const struct uturn__hr_tables *t, void *state,
                         const struct uturn__hr_segment *seg);
/* Up to capacity (>= 3) next actions; 0 at the segment's end. */
size_t uturn__hr_gen_fill(void *state, uturn_action_t *out, size_t capacity);

/* ---- the recurrences' lookups, shared by the generator and the counts */

static inline uint64_t uturn__hr_sat_add(uint64_t a, uint64_t b)
{
    return (a == UTURN__HR_INF || b == UTURN__HR_INF) ? UTURN__HR_INF : a + b;
}

/* Callers guarantee 1 <= m <= cap[k] and l <= n (the hot path). */
static inline size_t uturn__hr_entry(const struct uturn__hr_tables *t,
                                     uint64_t l, uint64_t m)
{
    return (size_t)((m - 1) * (t->n + 1) + l);
}

static inline uint64_t uturn__hr_b(const struct uturn__hr_tables *t, size_t k,
                                   uint64_t l, uint64_t m)
{
    return t->cost[k][uturn__hr_entry(t, l, m)];
}

static inline uint64_t uturn__hr_a(const struct uturn__hr_tables *t, size_t k,
                                   uint64_t l, uint64_t m)
{
    if (l == 0)
        return 0;
    if (m == 0)
        return t->down[k][l];
    const uint64_t store = uturn__hr_sat_add(t->w[k], uturn__hr_b(t, k, l, m));
    return t->down[k][l] < store ? t->down[k][l] : store;
}

/* In A, work one level down rather than store x_0 at level k. Ties go
 * down, so a plan never pays for a slower store it does not need. The
 * generator and the counts both decide here, so they always agree. */
static inline bool uturn__hr_a_goes_down(const struct uturn__hr_tables *t,
                                         size_t k, uint64_t l, uint64_t m)
{
    if (m == 0)
        return true;
    return t->down[k][l] <= uturn__hr_sat_add(t->w[k], uturn__hr_b(t, k, l, m));
}

/* The split of B_k(l, m), l >= 1: j >= 1, or 0 for the D branch. */
static inline uint64_t uturn__hr_split(const struct uturn__hr_tables *t,
                                       size_t k, uint64_t l, uint64_t m)
{
    return t->split[k][uturn__hr_entry(t, l, m)];
}

#endif
