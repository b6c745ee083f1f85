/*
 * Declarations shared across src/ and schedules/. Nothing here is public:
 * every name starts with uturn__.
 */
#ifndef UTURN_INTERNAL_H_INCLUDED
#define UTURN_INTERNAL_H_INCLUDED

#include "uturn.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if !defined(__SIZEOF_INT128__)
#error "uturn needs a compiler with unsigned __int128 (gcc or clang, 64-bit)"
#endif
/* Exact intermediate arithmetic for binomials and their products. */
__extension__ typedef unsigned __int128 uturn__u128;

/* ---- structs that grow (problem.c) ---- */

/* The size of a struct as it was when `field` was its last member: what
 * the plain uturn_<noun>_init() of an older header's programs writes. */
#define UTURN__SIZE_THROUGH(type, field)                                       \
    ((offsetof(type, field) + sizeof(((type *)0)->field) + _Alignof(type) -    \
      1) /                                                                     \
     _Alignof(type) * _Alignof(type))

/* Write the first min(size, full) bytes of defaults (a whole struct whose
 * first member is its size_t size) into p and record that size. */
void uturn__init_sized(void *p, size_t size, const void *defaults,
                       size_t full);

/* plan.c: UTURN_E_UNSUPPORTED, naming why, for an online plan whose
 * stream cannot be generated ahead of a run (`what`: "walked",
 * "written"): one on a byte budget (the sizes come as the run goes), or
 * one without max_steps (its first sweep never ends by itself). */
uturn_status_t uturn__plan_closed(const uturn_plan_t *plan, const char *what,
                                  uturn_error_t *error);

/* ---- allocation (alloc.c is the only caller of malloc and free) ---- */

/* Copy *alloc, or malloc/free when alloc is NULL or incomplete. */
void uturn__alloc_resolve(const uturn_allocator_t *alloc,
                          uturn_allocator_t *out);
void *uturn__alloc(const uturn_allocator_t *alloc, size_t size);
/* count * size bytes, zeroed; NULL on overflow or failure. */
void *uturn__alloc_zeroed(const uturn_allocator_t *alloc, size_t count,
                          size_t size);
void uturn__free(const uturn_allocator_t *alloc, void *ptr, size_t size);
/* Bytes malloc really handed out for ptr (which came from malloc). */
size_t uturn__malloc_usable(void *ptr);
/* true when alloc is malloc/free (NULL or incomplete counts as that). */
bool uturn__alloc_is_default(const uturn_allocator_t *alloc);
/* Regions of at least this many bytes ask for transparent huge pages. */
#define UTURN__HUGE_REGION ((uint64_t)4 << 20)
/* Ask for transparent huge pages on the whole pages inside [ptr, ptr +
 * bytes) when bytes >= UTURN__HUGE_REGION: a first touch of 2 MiB then
 * costs one fault, not 512, and far-apart reads fewer TLB misses. For
 * private anonymous memory only (the executor's mappings, malloc's large
 * blocks): a user's allocator may hand out memory where the advice means
 * something else. Advice only: nothing depends on it. */
void uturn__advise_huge(void *ptr, uint64_t bytes);

/* ---- checked arithmetic (arith.c) ---- */

uturn_status_t uturn__mul_u64(uint64_t a, uint64_t b, uint64_t *out);
uturn_status_t uturn__add_u64(uint64_t a, uint64_t b, uint64_t *out);
/* a * b / d where the quotient is known to be exact and to fit; inline
 * because revolve's generator calls it once per split. */
static inline uint64_t uturn__muldiv_exact(uint64_t a, uint64_t b, uint64_t d)
{
    uint64_t product = 0;
    if (!__builtin_mul_overflow(a, b, &product))
        return product / d;
    return (uint64_t)((uturn__u128)a * b / d);
}
/* C(a + b, b), saturated at cap (returns cap when it is at least cap). */
uturn__u128 uturn__binomial_capped(uint64_t a, uint64_t b, uturn__u128 cap);
/* floor(sqrt(x)) exactly. */
uint64_t uturn__isqrt(uint64_t x);
/* ceil(a / b), b > 0. */
uint64_t uturn__ceil_div(uint64_t a, uint64_t b);

/* ---- errors (error.c) ---- */

/* Fill *error (if not NULL) and return status. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
uturn_status_t
uturn__fail(uturn_error_t *error, uturn_status_t status, const char *fmt, ...);
/* Like uturn__fail, with the action index, 1-based line (or 0) and step. */
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
uturn_status_t
uturn__fail_at(uturn_error_t *error, uturn_status_t status, uint64_t action,
               uint64_t line, uint64_t step, const char *fmt, ...);
/* Fail with UTURN_E_INFEASIBLE and record the least capacity that would
 * fit: `slots` slots of `slot_bytes` each. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
uturn_status_t
uturn__fail_infeasible(uturn_error_t *error, uint64_t slots,
                       uint64_t slot_bytes, const char *fmt, ...);

/* Quote len bytes of untrusted text for a message (quote.c): at most
 * max_shown of them, printable ASCII as is, every other byte as \xHH, and
 * "..." when cut, so that a file cannot put terminal escapes into a
 * message. out (cap >= 1) always ends in NUL. */
void uturn__quote(const char *text, size_t len, size_t max_shown, char *out,
                  size_t cap);

/* ---- a map from slot index to a non-zero value (slot_map.c), for slot
 * indices too sparse for an array ---- */

struct uturn__slot_map {
    uint64_t *keys, *vals; /* vals[i] == 0: free */
    size_t cap, count;
};

uint64_t uturn__slot_map_get(const struct uturn__slot_map *m, uint64_t slot);
uturn_status_t uturn__slot_map_put(struct uturn__slot_map *m,
                                   const uturn_allocator_t *a, uint64_t slot,
                                   uint64_t value);
void uturn__slot_map_erase(struct uturn__slot_map *m, uint64_t slot);
void uturn__slot_map_clear(struct uturn__slot_map *m); /* keeps the table */
void uturn__slot_map_free(struct uturn__slot_map *m,
                          const uturn_allocator_t *a);
uint64_t uturn__slot_map_first(const struct uturn__slot_map *m);

/* ---- problems (problem.c) ---- */

/* Copy the caller's struct, honouring its size, over the defaults. */
void uturn__problem_copy(const uturn_problem_t *in, uturn_problem_t *out);
/* Check the fields every planner shares and resolve the capacity into
 * out->slots; when none was given, *has_capacity is false and out->slots
 * is UINT64_MAX (unlimited), which a caller may also give explicitly. */
uturn_status_t uturn__problem_resolve(const uturn_problem_t *in,
                                      uturn_problem_t *out, bool *has_capacity,
                                      uturn_error_t *error);
/* "a budget of 100 bytes holds 0 slots of 1024 bytes" or "the capacity
 * given is 5 slots": what the caller gave, for infeasible messages. */
void uturn__capacity_text(const uturn_problem_t *p, char *out, size_t cap);
/* Write stats for a caller whose struct may be older (smaller). */
void uturn__stats_export(const uturn_stats_t *in, uturn_stats_t *out);
/* Fill the byte-valued and derived counts of stats from the others. */
uturn_status_t uturn__stats_finish(uturn_stats_t *stats,
                                   const uturn_problem_t *problem,
                                   uturn_error_t *error);

/* ---- plans (plan.c) ---- */

struct uturn__planner;
/* The names of the planners one can ask for, "store-all, periodic, ...",
 * then " LAST" when @p last is not NULL ("or parsed"), into @p out. */
void uturn__planner_names(char *out, size_t capacity, const char *last);

struct uturn_plan {
    uturn_allocator_t alloc;
    uturn_problem_t problem; /* resolved: slots is the capacity */
    bool has_capacity;       /* slots or a budget was given */
    uturn_stats_t stats;     /* predicted, or validated for parsed plans */
    const struct uturn__planner *planner;
    uint64_t slot_span;   /* highest slot index used, plus one */
    uint64_t *step_bytes; /* owned copy of problem.step_bytes, or NULL */
    uint64_t *step_costs; /* owned copy of problem.step_costs, or NULL */
    void *data;           /* the planner's own (dp: its table) */
    void (*data_free)(uturn_plan_t *plan);
    uturn_action_t *actions; /* parsed plans only */
    uint64_t action_count;
    uint64_t action_capacity;
    /* Storage levels, always at least one (levels.c): owned copies with
     * resolved slot counts and names, and each level's counts. */
    uturn_level_t *levels;
    uturn_level_stats_t *level_stats;
    char *level_names; /* the names, one after another */
    size_t level_names_bytes; /* of the one block holding all three */
    uint64_t level_count;
};

/* ---- storage levels (levels.c) ---- */

#define UTURN__MAX_LEVELS 16

/* Copy problem->levels into the plan, resolving byte capacities at
 * slot_bytes, or make the one memory level of a plan without levels (its
 * capacity: problem->slots). Sets plan->problem.slots to the total. */
uturn_status_t uturn__levels_copy(uturn_plan_t *plan,
                                  const uturn_problem_t *problem,
                                  uturn_error_t *error);
/* After a planner's prepare: level 0's counts for planners of one level,
 * then the plan's cost. */
uturn_status_t uturn__levels_finish(uturn_plan_t *plan, bool planner_counted,
                                    uturn_error_t *error);
void uturn__levels_free(uturn_plan_t *plan);
/* Resolve problem->levels (names dropped) into out; *total their slots. */
uturn_status_t uturn__levels_resolve(const uturn_problem_t *p,
                                     uturn_level_t out[UTURN__MAX_LEVELS],
                                     uint64_t *total, uturn_error_t *error);
/* ---- binomial arithmetic (binomial.c), saturating at UINT64_MAX ---- */

/* beta(c, r) = C(c + r, c), or cap when it is at least cap. */
uint64_t uturn__bin_beta(uint64_t c, uint64_t r, uint64_t cap);
/* The least r with beta(c, r) >= l: the repetition number of a range of
 * l states reversed with c slots. */
uint64_t uturn__bin_rep(uint64_t l, uint64_t c);
/* a + b, or UINT64_MAX when it passes 2^64. */
static inline uint64_t uturn__sat_add(uint64_t a, uint64_t b)
{
    uint64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}
/* t(l, c): revolve's forward steps to reverse l states from a stored
 * first one with c slots, r l - beta(c + 1, r - 1); t_at with r known. */
uint64_t uturn__bin_t(uint64_t l, uint64_t c);
uint64_t uturn__bin_t_at(uint64_t l, uint64_t c, uint64_t r);
/* revolve's smallest optimal split of l >= 2 states with c slots,
 * max(1, beta(c, r - 2), l - beta(c - 1, r)). */
uint64_t uturn__bin_split(uint64_t l, uint64_t c);

/* A name plan text can carry (and a problem's level may have): 1 to 63
 * letters, digits, '_', '.' or '-'; @p len bytes at @p name. */
bool uturn__level_name_ok(const char *name, size_t len);
/* A plan's cost: @p forward_cost plus each level's stores times its
 * write cost and restores times its read cost; false when it passes
 * 2^64 (*cost is then UINT64_MAX). */
bool uturn__level_cost(uint64_t forward_cost, const uturn_level_t *levels,
                       const uturn_level_stats_t *stats, uint64_t count,
                       uint64_t *cost);
/* The level holding plan slot k. */
uint64_t uturn__level_of(const uturn_level_t *levels, uint64_t count,
                         uint64_t slot);

/* ---- fingerprints (fingerprint.c) ---- */

/* A canonical little-endian encoding fed to XXH3-64. */
struct uturn__hasher {
    /* An XXH3_state_t at the first 64-byte boundary inside (the allocators
     * give 16-byte alignment, XXH3 wants 64); a hasher is not moved once
     * started. */
    unsigned char state[640 + 64];
};

void uturn__hasher_start(struct uturn__hasher *h);
void uturn__hash_u64(struct uturn__hasher *h, uint64_t value);
/* n values, or a marker for "none" when values is NULL. */
void uturn__hash_array(struct uturn__hasher *h, const uint64_t *values,
                       uint64_t n);
uint64_t uturn__hasher_end(struct uturn__hasher *h);
/* The plan's fingerprint, from its planner and resolved problem. */
uint64_t uturn__plan_fingerprint(const uturn_plan_t *plan);

/* An empty plan with its allocator set, for planners and the parser. */
uturn_status_t uturn__plan_new(const uturn_allocator_t *alloc,
                               uturn_plan_t **out, uturn_error_t *error);

/* ---- validation (check.c) ---- */

/* Describe a failed rule into error; used by the validator. */
uturn_status_t uturn__check_stream(const uturn_plan_t *plan,
                                   const uturn_problem_t *limits,
                                   uturn_stats_t *observed,
                                   uturn_error_t *error);

/* ---- text (action.c) ---- */

/* Append text for one action; returns the length written (< 64). */
size_t uturn__action_text(const uturn_action_t *action, char out[64]);

#endif
