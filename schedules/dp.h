/*
 * dp: optimal nested checkpointing for chains whose states differ in size
 * and whose steps differ in cost (after Beaumont et al. 2019, "Optimal
 * checkpointing for heterogeneous chains"). Shared by dp.c (the planner)
 * and dp_table.c (the dynamic program).
 *
 * F(a, e, m): the least cost to reverse x_a .. x_{e-1} (x_n by the turn)
 * when x_a sits in a slot and m more memory units are free:
 *   F(a, a+1, m) = 0
 *   F(a, e, m)   = min over a < j < e of  cost(F_a .. F_{j-1})
 *                  + F(a, j, m)                       (the left part)
 *                  + 0                 if j = e-1     (x_j reversed at once)
 *                  + F(j, e, m - u_j)  otherwise      (x_j stored)
 * The plan stores x_0 (u_0 units) and reverses F(0, n+1, M - u_0).
 */
#ifndef UTURN_DP_H_INCLUDED
#define UTURN_DP_H_INCLUDED

#include "planner.h"

#define UTURN__DP_INF 0x3fffffffu /* above every finite cost */

struct uturn__dp {
    uint64_t n;       /* steps; states are x_0 .. x_n */
    uint64_t M;       /* memory units in the budget */
    uint64_t unit;    /* bytes per unit */
    uint32_t *units;  /* units of x_i, i < n */
    uint64_t *prefix; /* prefix[i] = cost of F_0 .. F_{i-1}, i <= n */
    uint64_t *offset; /* offset[l]: first row of segments of l states */
    uint32_t *zero;   /* a row of M + 1 zeros */
    uint32_t *table;  /* rows of M + 1 costs, one per segment of >= 2 */
    size_t table_rows;
};

/* The row of F for the segment [a, e) (e - a >= 2). */
static inline uint32_t *uturn__dp_row(const struct uturn__dp *dp, uint64_t a,
                                      uint64_t e)
{
    return dp->table + (dp->offset[e - a] + a) * (dp->M + 1);
}

/* Bytes the table would take, or 0 when that overflows. */
uint64_t uturn__dp_table_bytes(uint64_t n, uint64_t M);
/* Fill every row. */
void uturn__dp_solve(struct uturn__dp *dp);
/* The best split j of [a, e) with m units free (the smallest if tied). */
uint64_t uturn__dp_split(const struct uturn__dp *dp, uint64_t a, uint64_t e,
                         uint64_t m);

#endif
