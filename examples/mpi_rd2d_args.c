/* mpi_rd2d's command line and its uneven split of the rows. */
#include "mpi_rd2d.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool number(const char *s, uint64_t *out)
{
    char *end = NULL;
    if (s == NULL || *s < '0' || *s > '9')
        return false;
    *out = strtoull(s, &end, 10);
    return *end == '\0';
}

/* "A,B,C" into @p out; false unless it has exactly @p want values > 0. */
static bool list(const char *s, uint64_t *out, int want, int *count)
{
    char copy[1024];
    if (s == NULL || strlen(s) >= sizeof copy || want > UTURN_RD2D_MAX_RANKS)
        return false;
    strcpy(copy, s);
    *count = 0;
    for (char *tok = strtok(copy, ","); tok != NULL; tok = strtok(NULL, ",")) {
        if (*count == want || !number(tok, &out[*count]) || out[*count] == 0)
            return false;
        *count += 1;
    }
    return *count == want;
}

static bool one(const char *opt, const char *val, int ranks, args_t *a)
{
    if (strcmp(opt, "--cols") == 0)
        return number(val, &a->nx) && a->nx > 0;
    if (strcmp(opt, "--rows") == 0)
        return number(val, &a->ny) && a->ny > 0;
    if (strcmp(opt, "--steps") == 0)
        return number(val, &a->steps) && a->steps > 0;
    if (strcmp(opt, "--budget") == 0)
        return number(val, &a->budget);
    if (strcmp(opt, "--budgets") == 0)
        return list(val, a->budgets, ranks, &a->nbudgets);
    if (strcmp(opt, "--split") == 0)
        return list(val, a->split, ranks, &a->nsplit);
    if (strcmp(opt, "--expect-slots") == 0)
        return number(val, &a->expect_slots);
    if (strcmp(opt, "--expect-forward-steps") == 0)
        return number(val, &a->expect_forward);
    if (strcmp(opt, "--disk") == 0)
        return number(val, &a->disk) && a->disk > 0;
    if (strcmp(opt, "--disk-cost") == 0)
        return number(val, &a->disk_cost);
    if (strcmp(opt, "--disk-dir") == 0)
        return (a->disk_dir = val), true;
    return false;
}

static bool usage(int rank)
{
    if (rank == 0)
        fprintf(stderr, "usage: mpirun -np P mpi_rd2d [--cols NX] [--rows NY] "
                        "[--steps N]\n  [--budget BYTES | --budgets B0,B1,..] "
                        "[--split W0,W1,..] [--expect-slots S]\n"
                        "  [--expect-forward-steps F] [--no-reference]\n"
                        "  [--disk BYTES [--disk-cost C] [--disk-dir DIR]]\n");
    return false;
}

bool parse_args(int argc, char **argv, int ranks, args_t *a)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(a, 0, sizeof *a);
    a->nx        = 200;
    a->ny        = 240;
    a->steps     = 200;
    a->budget    = 2 * 1024 * 1024;
    a->reference = true;
    a->disk_cost = 2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-reference") == 0)
            a->reference = false;
        else if (i + 1 >= argc || !one(argv[i], argv[i + 1], ranks, a))
            return usage(rank);
        else
            i++;
    }
    for (int q = 0; q < ranks; q++)
        if (strip_of(a, q, ranks).rows == 0)
            return usage(rank);
    return ranks <= UTURN_RD2D_MAX_RANKS || usage(rank);
}

static uint64_t weight(const args_t *a, int q)
{
    return a->nsplit > 0 ? a->split[q] : (uint64_t)q + 1;
}

strip_t strip_of(const args_t *a, int q, int ranks)
{
    uint64_t total = 0, before = 0;
    for (int i = 0; i < ranks; i++) {
        total += weight(a, i);
        before += i < q ? weight(a, i) : 0;
    }
    const uint64_t first = a->ny * before / total;
    const uint64_t end   = a->ny * (before + weight(a, q)) / total;
    return (strip_t){first, end - first};
}
