/*
 * Optima computed here, for the fuzz targets' oracles, from the model
 * (docs/model.md sections 2 and 4) and the recurrences the planners'
 * headers document, never from the planners' code:
 *  - fz_exhaust_cost: the least cost of any valid plan over storage
 *    levels, by Dijkstra over every state (live state, next step to
 *    reverse, what every slot holds) of tiny chains;
 *  - fz_hrevolve_cost: the H-Revolve recurrence of schedules/hrevolve.h
 *    (A_k, B_k, D_k), written out plainly for small chains;
 *  - fz_nested_cost: the least forward cost of a nested plan (dp's
 *    definition, schedules/dp.h) in memory units, for small chains.
 * UINT64_MAX means no plan exists.
 */
#ifndef UTURN_FUZZ_OPTIMUM_H_INCLUDED
#define UTURN_FUZZ_OPTIMUM_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

/* fz_exhaust_cost() takes (n + 2)^(slots + 2) <= this many states. */
#define FZ_EXHAUST_STATES 65536u

/* Whether fz_exhaust_cost() takes n steps over these levels' slots (a
 * level's slots past n count as n: more never help). */
int fz_exhaust_fits(uint64_t n, const uint64_t *slots, size_t count);

/* Levels: slots, write and read costs, fastest first; n >= 1. */
uint64_t fz_exhaust_cost(uint64_t n, const uint64_t *slots,
                         const uint64_t *write_cost, const uint64_t *read_cost,
                         size_t count);

/* n <= FZ_HREC_STEPS; costs at most 2^24 (sums stay far below 2^64). */
#define FZ_HREC_STEPS 120u
uint64_t fz_hrevolve_cost(uint64_t n, const uint64_t *slots,
                          const uint64_t *write_cost, const uint64_t *read_cost,
                          size_t count);

/* x_0 .. x_{n-1} of units[i] units, F_i of costs[i]; a budget of
 * `budget` units, x_0's included. n <= FZ_NESTED_STEPS, budget <=
 * FZ_NESTED_UNITS; costs below 2^32. */
#define FZ_NESTED_STEPS 12u
#define FZ_NESTED_UNITS 1024u
uint64_t fz_nested_cost(uint64_t n, const uint64_t *units,
                        const uint64_t *costs, uint64_t budget);

#endif
