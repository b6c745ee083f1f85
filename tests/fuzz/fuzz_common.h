/*
 * What the libFuzzer targets of tests/fuzz/ share: reading the input,
 * checks that abort, revolve's closed form t(n+1, s) (docs/model.md
 * section 4) in 128 bits, a checking allocator that can fail one call,
 * a plan's text round trip, and a walk of a plan through a cursor and
 * the public validator that counts, independently of the library, what
 * every action does (per storage level too).
 */
#ifndef UTURN_FUZZ_COMMON_H_INCLUDED
#define UTURN_FUZZ_COMMON_H_INCLUDED

#include "uturn.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__extension__ typedef unsigned __int128 u128;

#define U128_MAX (~(u128)0)

/* The most levels a problem or a plan text may give (src/internal.h). */
#define FZ_MAX_LEVELS 16

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,   \
                    #cond);                                                    \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* ---- the input ---- */

struct reader {
    const uint8_t *data;
    size_t size, pos;
};

/* The next byte, 0 past the end. */
uint8_t fz_byte(struct reader *r);
/* The next count bytes, little-endian. */
uint64_t fz_bytes_le(struct reader *r, int count);
/* FUZZ_VERBOSE=1 in the environment: print each problem. */
bool fz_verbose(void);
/* FUZZ_SLOW=1: try what the targets skip for their pace. */
bool fz_slow(void);
/* With FUZZ_VERBOSE=1: what became of the input ("skipped", a status's
 * name for a refusal, "planned"). */
void fz_verdict(const char *what);

/* ---- revolve's closed form ---- */

/* C(a + b, min(a, b)), saturated at cap (any cap up to 2^128 - 1). */
u128 fz_binomial(uint64_t a, uint64_t b, u128 cap);
/* The least r with beta(s, r) = C(s + r, s) >= n + 1; 1 <= s <= n. */
uint64_t fz_revolve_r(uint64_t n, uint64_t s);
/* t(n+1, s): the least forward steps of any plan for n >= 1 steps and
 * s >= 1 slots (s above n counts as n). */
u128 fz_revolve_forward(uint64_t n, uint64_t s);

/* ---- a checking allocator ---- */

/* Fails call number fail_at (1-based; 0: never) and every request above
 * cap (0: no cap); checks that free gets the size asked for; counts the
 * blocks alive. */
struct fz_arena {
    uint64_t calls, fail_at, live;
    size_t cap;
};

uturn_allocator_t fz_allocator(struct fz_arena *arena);

/* ---- counts ---- */

/* The counts of docs/model.md section 3 that every plan has (not cost,
 * levels, fingerprint or dp's fields). */
bool fz_stats_equal(const uturn_stats_t *a, const uturn_stats_t *b);

/* A failed call: a status among the allowed (a bit per status), the same
 * status in the error, a message. */
void fz_check_error(uturn_status_t status, const uturn_error_t *error,
                    unsigned allowed);

#define FZ_BIT(status) (1u << (unsigned)(status))

/* ---- plan text ---- */

/* The plan written as text (*text, *len: free(*text)) and parsed back;
 * aborts, printing the parser's message and the text's start, when the
 * text does not parse. */
uturn_plan_t *fz_text_round_trip(const uturn_plan_t *plan, char **text,
                                 size_t *len);

/* ---- walking a plan ---- */

/* What a walk needs to know of the problem: the validator's problem and
 * the levels' slots and costs (count 1 and the plan's capacity without
 * levels), per-step sizes and costs (NULL: slot_bytes and 1). */
struct fz_shape {
    uturn_problem_t validator;
    uint64_t level_count;
    uint64_t slots[FZ_MAX_LEVELS], write_cost[FZ_MAX_LEVELS],
        read_cost[FZ_MAX_LEVELS];
    const uint64_t *step_bytes, *step_costs;
    uint64_t slot_bytes;
};

/* What the walk counted itself (128 bits: nothing wraps). */
struct fz_tally {
    uint64_t actions, forward_steps, stores, restores, frees, reverses;
    u128 forward_cost, cost, bytes, peak_bytes;
    uint64_t held, peak_slots;
    uint64_t level_stores[FZ_MAX_LEVELS], level_restores[FZ_MAX_LEVELS];
    uint64_t level_held[FZ_MAX_LEVELS], level_peak[FZ_MAX_LEVELS];
    uint64_t *slot_step; /* per slot: the step held + 1, or 0 */
    uint64_t slot_count;
};

/* The level of a slot: levels number the slots one after the other. */
uint64_t fz_level_of(const struct fz_shape *shape, uint64_t slot);
/* Start a tally for a plan whose slots are below slot_count. */
void fz_tally_init(struct fz_tally *t, uint64_t slot_count);
void fz_tally_free(struct fz_tally *t);
/* Count one action (of a stream the validator accepted). */
void fz_tally_add(struct fz_tally *t, const struct fz_shape *shape,
                  const uturn_action_t *a);

/* Walk a plan that knows its steps through a cursor (batches of 1 to
 * 64 actions, as batch says) and a validator for shape: every action
 * must be valid, the counts the validator sees must be the plan's
 * predicted ones and the tally's, level by level. At most max_actions
 * (the walk is skipped above them: false). */
bool fz_walk_plan(const uturn_plan_t *plan, const struct fz_shape *shape,
                  uint64_t max_actions, unsigned batch);

/* The tally's counts against a plan's or a cursor's stats. */
void fz_check_tally(const struct fz_tally *t, const uturn_stats_t *st);

#endif
