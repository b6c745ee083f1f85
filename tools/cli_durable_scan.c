/*
 * What a durable directory holds, from its entries: a run of one process
 * (its lock or manifest there), or the root of a run across MPI ranks
 * (its commit record, rank-R parts). Read once, so that show and remove
 * see every part there, whatever a commit record says (or whether there
 * still is one: a removal cut short takes the record first).
 */
#define _DEFAULT_SOURCE /* opendir */
#include "cli_durable.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "rank-R", R decimal without leading zeros (but "0"), below 2^31. */
static bool rank_of(const char *name, uint64_t *out)
{
    if (strncmp(name, "rank-", 5) != 0)
        return false;
    const char *p = name + 5;
    if (*p == '\0' || (*p == '0' && p[1] != '\0'))
        return false;
    uint64_t v = 0;
    for (; *p != '\0'; p++) {
        if (*p < '0' || *p > '9' || v > (1u << 30))
            return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return v < (1ull << 31);
}

static int by_rank(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int add(struct cli_ranks *r, uint64_t rank, size_t *cap)
{
    if (r->count == CLI_MOST_RANKS)
        return E2BIG;
    if (r->count == *cap) {
        const size_t grown = *cap == 0 ? 16 : 2 * *cap;
        uint64_t *more     = realloc(r->rank, grown * sizeof *more);
        if (more == NULL)
            return ENOMEM;
        r->rank = more;
        *cap    = grown;
    }
    r->rank[r->count++] = rank;
    return 0;
}

int cli_ranks_scan(const char *dir, struct cli_ranks *out)
{
    memset(out, 0, sizeof *out);
    DIR *d = opendir(dir);
    if (d == NULL)
        return errno;
    size_t cap = 0;
    int rc     = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        uint64_t rank = 0;
        if (strcmp(e->d_name, "lock") == 0 ||
            strcmp(e->d_name, "manifest") == 0)
            out->plain = true;
        else if (strcmp(e->d_name, "commit") == 0)
            out->has_commit = true;
        else if (rank_of(e->d_name, &rank))
            rc = add(out, rank, &cap);
    }
    closedir(d);
    if (rc != 0)
        cli_ranks_free(out);
    else if (out->count > 1)
        qsort(out->rank, out->count, sizeof *out->rank, by_rank);
    return rc;
}

void cli_ranks_free(struct cli_ranks *r)
{
    free(r->rank);
    memset(r, 0, sizeof *r);
}

bool cli_ranks_has(const struct cli_ranks *r, uint64_t rank)
{
    return r->count != 0 &&
           bsearch(&rank, r->rank, r->count, sizeof rank, by_rank) != NULL;
}
