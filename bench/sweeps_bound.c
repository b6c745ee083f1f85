/*
 * How far any plan of k sweeps could go on the grid: uturn's plan
 * (revolve --sweeps k over RAM + disk slots as one level), TwoLevel's
 * count (bench/sweeps_grid.sh's rule), and a lower bound on the forward
 * steps of every plan with s slots (docs/model.md section 13):
 *
 *   t(n+1, s) + (k - 1) B
 *
 * t(n+1, s): one sweep's optimum (the first forward and sweep 1 take at
 * least that); B: the cheapest sweep from any s stored states, freed as
 * it goes (sweeps_least.h; every later sweep starts from at most s stored
 * states and no live one). Counts, not times.
 * usage: sweeps_bound
 */
#include "sweeps_least.h"

#include <stdio.h>

/* TwoLevel: n + 1 + k * sum over periods of t(L, ram + 1). */
static uint64_t twolevel(uint64_t n, uint64_t ram, uint64_t disk, uint64_t k)
{
    const uint64_t P = (n + 1 + disk - 1) / disk;
    uint64_t sweep   = 0;
    for (uint64_t a = 0; a < n + 1; a += P)
        sweep += t_of(a + P <= n + 1 ? P : n + 1 - a, ram + 1);
    return n + 1 + k * sweep;
}

int main(void)
{
    const uint64_t ns[2] = {1000, 10000}, rams[3] = {5, 10, 20};
    const uint64_t disks[3] = {10, 20, 50}, ks[4] = {1, 2, 5, 10};
    uint64_t sum[4][3] = {{0}};
    printf("| n | RAM + disk | K | TwoLevel | uturn | bound on any plan |\n"
           "| --- | --- | --- | --- | --- | --- |\n");
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++)
            for (int d = 0; d < 3; d++) {
                const uint64_t n = ns[a], s = rams[b] + disks[d];
                const uint64_t one   = t_of(n + 1, s < n ? s : n);
                const uint64_t sweep = least_sweep(n, s);
                for (int j = 0; j < 4; j++) {
                    const uint64_t k      = ks[j];
                    const uint64_t row[3] = {twolevel(n, rams[b], disks[d], k),
                                             plan_counts(n, s, k).forward_steps,
                                             one + (k - 1) * sweep};
                    printf(
                        "| %llu | %llu + %llu | %llu | %llu | %llu | %llu |\n",
                        (unsigned long long)n, (unsigned long long)rams[b],
                        (unsigned long long)disks[d], (unsigned long long)k,
                        (unsigned long long)row[0], (unsigned long long)row[1],
                        (unsigned long long)row[2]);
                    for (int c = 0; c < 3; c++)
                        sum[j][c] += row[c];
                }
            }
    printf("\n| K | TwoLevel, summed | uturn: fewer | any plan: at most "
           "fewer |\n| --- | --- | --- | --- |\n");
    for (int j = 0; j < 4; j++)
        printf("| %llu | %llu | %.2f %% | %.2f %% |\n",
               (unsigned long long)ks[j], (unsigned long long)sum[j][0],
               100.0 * (1 - (double)sum[j][1] / (double)sum[j][0]),
               100.0 * (1 - (double)sum[j][2] / (double)sum[j][0]));
    return 0;
}
