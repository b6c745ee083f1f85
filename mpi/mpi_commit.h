/*
 * DIR/commit, the record of a durable run across MPI ranks: which point
 * every rank's part (DIR/rank-R) holds. mpi_durable.c writes it; the CLI
 * (uturn durable) reads it. No MPI here, so both include it.
 */
#ifndef UTURN_MPI_COMMIT_H_INCLUDED
#define UTURN_MPI_COMMIT_H_INCLUDED

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

/* The record's text for point P of N ranks, with its checksum line, into
 * out: its length, or -1 when it does not fit in cap. */
static inline int uturn__mpi_commit_text(uint64_t point, int ranks, char *out,
                                         size_t cap)
{
    int n = snprintf(out, cap,
                     "uturn-durable-commit 1\npoint %" PRIu64 "\nranks %d\n",
                     point, ranks);
    if (n < 0 || (size_t)n >= cap)
        return -1;
    const uint64_t sum = XXH3_64bits(out, (size_t)n);
    const int m =
        snprintf(out + n, cap - (size_t)n, "sum %016" PRIx64 "\n", sum);
    return m < 0 || (size_t)(n + m) >= cap ? -1 : n + m;
}

/* Read root/commit: 0 and *point, *ranks; ENOENT (or another errno of
 * opening it); EBADMSG (damaged: not this text, or its checksum). */
static inline int uturn__mpi_commit_read(const char *root, uint64_t *point,
                                         uint64_t *ranks)
{
    char path[4200], text[256], want[256];
    snprintf(path, sizeof path, "%s/commit", root);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return errno;
    const size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len]  = '\0';
    int n      = 0;
    int ranks_ = 0;
    if (sscanf(text, "uturn-durable-commit 1\npoint %" SCNu64 "\nranks %d\n%n",
               point, &ranks_, &n) != 2 ||
        ranks_ < 1)
        return EBADMSG;
    *ranks      = (uint64_t)ranks_;
    const int m = uturn__mpi_commit_text(*point, ranks_, want, sizeof want);
    return m > 0 && (size_t)m == len && memcmp(want, text, len) == 0 ? 0
                                                                     : EBADMSG;
}

#endif
