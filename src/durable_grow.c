/*
 * Files of a durable directory that only grow (durable.h): per-step data
 * written once (step records, online shares), of which each point appends
 * what came since the last, synced before the manifest that counts it,
 * with a running XXH3-64 of everything so far. A kill mid-append leaves
 * bytes past the count the previous point names, which nothing reads.
 */
#define _GNU_SOURCE
#include "durable.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

static XXH3_state_t *state_of(struct uturn__dgrow *g)
{
    return g->hash;
}

static int start_hash(struct uturn__dgrow *g)
{
    if (g->hash == NULL)
        g->hash = XXH3_createState();
    return g->hash == NULL || XXH3_64bits_reset(state_of(g)) ? ENOMEM : 0;
}

int uturn__dgrow_append(int dirfd, struct uturn__dgrow *g,
                        const unsigned char *base, uint64_t unit, uint64_t upto,
                        uint64_t *written)
{
    *written = 0;
    if (g->done == 0 && start_hash(g) != 0)
        return ENOMEM;
    if (upto <= g->done)
        return 0;
    const int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
                      (g->done == 0 ? O_TRUNC : 0);
    const int fd = openat(dirfd, g->name, flags, 0600);
    if (fd < 0)
        return errno;
    const unsigned char *from = base + g->done * unit;
    const uint64_t len        = (upto - g->done) * unit;
    int rc = uturn__dfile_write_at(fd, from, len, g->done * unit);
    if (rc == 0 && fsync(fd) != 0)
        rc = errno;
    close(fd);
    if (rc != 0)
        return rc;
    XXH3_64bits_update(state_of(g), from, (size_t)len);
    g->done  = upto;
    *written = len;
    return 0;
}

uint64_t uturn__dgrow_digest(struct uturn__dgrow *g)
{
    return g->hash != NULL ? XXH3_64bits_digest(state_of(g)) : 0;
}

int uturn__dgrow_load(int dirfd, struct uturn__dgrow *g, uint64_t count,
                      uint64_t unit, uint64_t hash, unsigned char **bytes)
{
    uint64_t len        = 0;
    *bytes              = NULL;
    const uint64_t want = count * unit;
    if (unit == 0 || want / unit != count)
        return EBADMSG;
    int rc = uturn__dfile_read(dirfd, g->name, bytes, &len);
    if (rc == 0 && len < want)
        rc = EBADMSG;
    if (rc == 0)
        rc = start_hash(g);
    if (rc == 0) {
        XXH3_64bits_update(state_of(g), *bytes, (size_t)want);
        rc = XXH3_64bits_digest(state_of(g)) == hash ? 0 : EBADMSG;
    }
    if (rc != 0) {
        free(*bytes);
        *bytes = NULL;
        return rc;
    }
    g->done = count;
    return 0;
}

void uturn__dgrow_free(struct uturn__dgrow *g)
{
    if (g->hash != NULL)
        XXH3_freeState(state_of(g));
    g->hash = NULL;
    g->done = 0;
}
