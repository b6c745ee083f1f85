/* dp's dynamic program: see dp.h. The inner loops run over memory, so
 * they are plain array operations the compiler vectorises. */
#include "dp.h"

#include <assert.h>

uint64_t uturn__dp_table_bytes(uint64_t n, uint64_t M)
{
    const uint64_t states = n + 1;
    uint64_t rows = 0, cells = 0, bytes = 0;
    if (uturn__mul_u64(states, states - 1, &rows) != UTURN_OK ||
        uturn__mul_u64(rows / 2, M + 1, &cells) != UTURN_OK ||
        uturn__mul_u64(cells, sizeof(uint32_t), &bytes) != UTURN_OK)
        return 0;
    return bytes;
}

/* row[m] = min(row[m], c + left[m]): x_j is reversed at once. */
static void relax_inline(uint32_t *row, const uint32_t *left, uint32_t c,
                         uint64_t M)
{
    for (uint64_t m = 0; m <= M; m++) {
        const uint32_t v = c + left[m];
        row[m]           = v < row[m] ? v : row[m];
    }
}

/* row[m] = min(row[m], c + left[m] + right[m - u]) for m >= u. */
static void relax_stored(uint32_t *row, const uint32_t *left,
                         const uint32_t *right, uint32_t c, uint64_t u,
                         uint64_t M)
{
    for (uint64_t m = u; m <= M; m++) {
        const uint32_t v = c + left[m] + right[m - u];
        row[m]           = v < row[m] ? v : row[m];
    }
}

static void solve_segment(struct uturn__dp *dp, uint64_t a, uint64_t e)
{
    uint32_t *row = uturn__dp_row(dp, a, e);
    for (uint64_t m = 0; m <= dp->M; m++)
        row[m] = 3 * UTURN__DP_INF; /* sums of three terms stay in 32 bits */
    for (uint64_t j = a + 1; j < e; j++) {
        const uint32_t c     = (uint32_t)(dp->prefix[j] - dp->prefix[a]);
        const uint32_t *left = j - a == 1 ? dp->zero : uturn__dp_row(dp, a, j);
        if (j == e - 1)
            relax_inline(row, left, c, dp->M);
        else if (dp->units[j] <= dp->M)
            relax_stored(row, left, uturn__dp_row(dp, j, e), c, dp->units[j],
                         dp->M);
    }
    for (uint64_t m = 0; m <= dp->M; m++)
        row[m] = row[m] < UTURN__DP_INF ? row[m] : UTURN__DP_INF;
}

void uturn__dp_solve(struct uturn__dp *dp)
{
    const uint64_t states = dp->n + 1;
    for (uint64_t l = 2; l <= states; l++)
        for (uint64_t a = 0; a + l <= states; a++)
            solve_segment(dp, a, a + l);
}

uint64_t uturn__dp_split(const struct uturn__dp *dp, uint64_t a, uint64_t e,
                         uint64_t m)
{
    assert(e - a >= 2);
    uint64_t best_j = e - 1, best = UINT64_MAX;
    for (uint64_t j = a + 1; j < e; j++) {
        const uint64_t left = j - a == 1 ? 0 : uturn__dp_row(dp, a, j)[m];
        uint64_t right      = 0;
        if (j != e - 1)
            right = dp->units[j] <= m
                        ? uturn__dp_row(dp, j, e)[m - dp->units[j]]
                        : UTURN__DP_INF;
        const uint64_t v = dp->prefix[j] - dp->prefix[a] + left + right;
        if (v < best && left < UTURN__DP_INF && right < UTURN__DP_INF) {
            best   = v;
            best_j = j;
        }
    }
    return best_j;
}
