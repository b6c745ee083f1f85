/*
 * uturn durable on the directory of a durable run across MPI ranks: the
 * commit record DIR/commit (which point every rank holds) and each rank's
 * part DIR/rank-R, itself a durable directory. show checks the record's
 * checksum and each part's; remove takes the record first, then the
 * parts, as a completed run does, so that a removal cut short leaves no
 * point to resume rather than a point some part lacks.
 */
#include "cli.h"
#include "mpi_commit.h"

#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Parts looked for without a record: rank-0, rank-1, .. while they are
 * there, at most this many. */
#define MOST_RANKS (1u << 24)

/* DIR/rank-R, or DIR/commit when rank is UINT64_MAX. */
static bool path_of(char *out, size_t cap, const char *dir, uint64_t rank)
{
    const int n = rank == UINT64_MAX
                      ? snprintf(out, cap, "%s/commit", dir)
                      : snprintf(out, cap, "%s/rank-%" PRIu64, dir, rank);
    return n > 0 && (size_t)n < cap;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool cli_durable_is_ranks(const char *dir)
{
    char path[4200];
    struct stat st;
    return (path_of(path, sizeof path, dir, UINT64_MAX) &&
            stat(path, &st) == 0) ||
           (path_of(path, sizeof path, dir, 0) && is_dir(path));
}

/* The record: 1 (point and ranks set), 0 (none), or -1 (failed, said). */
static int record(const char *dir, uint64_t *point, uint64_t *ranks)
{
    const int rc = uturn__mpi_commit_read(dir, point, ranks);
    if (rc == 0)
        return 1;
    if (rc == ENOENT)
        return 0;
    if (rc == EBADMSG)
        cli_fail("%s/commit, the commit record of a durable run across "
                 "MPI ranks, is damaged (its text or its checksum)",
                 dir);
    else
        cli_fail("%s/commit: %s", dir, strerror(rc));
    return -1;
}

/* The parts: the record's ranks, or those there from rank-0 on. */
static uint64_t parts(const char *dir, int have, uint64_t ranks)
{
    if (have == 1)
        return ranks;
    char path[4200];
    uint64_t r = 0;
    while (r < MOST_RANKS && path_of(path, sizeof path, dir, r) && is_dir(path))
        r++;
    return r;
}

static int show_part(const char *dir, uint64_t r, uint64_t point)
{
    char path[4200];
    if (!path_of(path, sizeof path, dir, r))
        return cli_fail("%s: the path is too long", dir);
    if (!is_dir(path))
        return cli_fail("%s is missing: the commit record names a part "
                        "for every rank",
                        path);
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    uturn_error_t err;
    uturn_error_init(&err);
    if (uturn_durable_inspect_point(path, point, &info, &err) != UTURN_OK)
        return cli_fail("%s", err.message);
    printf("rank %-9" PRIu64 " in_use %s", r, info.in_use ? "yes" : "no");
    if (info.has_point)
        printf(", point %" PRIu64 ", steps %" PRIu64 ", forward_steps %" PRIu64
               ", reverse_steps %" PRIu64 ", bytes %" PRIu64 "\n",
               info.point, info.steps, info.forward_steps, info.reverse_steps,
               info.bytes);
    else
        printf(", point none\n");
    return CLI_OK;
}

static void show_bare(const char *dir, uint64_t r)
{
    char path[4200];
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    const bool held = path_of(path, sizeof path, dir, r) &&
                      uturn_durable_inspect(path, &info, NULL) == UTURN_OK &&
                      info.in_use;
    printf("rank %-9" PRIu64 " in_use %s, point none\n", r,
           held ? "yes" : "no");
}

int cli_durable_ranks_show(const char *dir)
{
    uint64_t point = 0, ranks = 0;
    const int have = record(dir, &point, &ranks);
    if (have < 0)
        return CLI_BAD_INPUT;
    printf("directory      %s\n", dir);
    printf("layout         ranks (a durable run across MPI ranks)\n");
    if (have == 1)
        printf("commit         point %" PRIu64 " of %" PRIu64 " ranks\n", point,
               ranks);
    else
        printf("commit         none (no point committed: a new run starts "
               "afresh)\n");
    /* without a record, no part holds a point to resume (the parts'
     * numbered points were never committed) */
    const uint64_t count = parts(dir, have, ranks);
    for (uint64_t r = 0; r < count; r++)
        if (have == 0)
            show_bare(dir, r);
        else if (show_part(dir, r, point) != CLI_OK)
            return CLI_BAD_INPUT;
    return CLI_OK;
}

/* Refused while a run holds any part (before anything is removed). */
static int none_in_use(const char *dir, uint64_t count)
{
    char path[4200];
    for (uint64_t r = 0; r < count; r++) {
        uturn_durable_info_t info;
        uturn_durable_info_init(&info);
        if (path_of(path, sizeof path, dir, r) &&
            uturn_durable_inspect(path, &info, NULL) == UTURN_OK && info.in_use)
            return cli_fail("%s: a run holds it now; nothing was removed",
                            path);
    }
    return CLI_OK;
}

int cli_durable_ranks_remove(const char *dir)
{
    uint64_t point = 0, ranks = 0;
    const int rc         = uturn__mpi_commit_read(dir, &point, &ranks);
    const int have       = rc == 0 ? 1 : 0; /* a damaged record goes too */
    const uint64_t count = parts(dir, have, ranks);
    if (none_in_use(dir, count) != CLI_OK)
        return CLI_BAD_INPUT;
    char path[4200];
    if (rc != ENOENT && path_of(path, sizeof path, dir, UINT64_MAX) &&
        unlink(path) != 0 && errno != ENOENT)
        return cli_fail("%s: %s", path, strerror(errno));
    for (uint64_t r = 0; r < count; r++) {
        uturn_error_t err;
        uturn_error_init(&err);
        if (path_of(path, sizeof path, dir, r) && is_dir(path) &&
            uturn_durable_remove(path, &err) != UTURN_OK)
            return cli_fail("%s (the commit record is gone: no point is "
                            "left to resume)",
                            err.message);
    }
    if (rmdir(dir) != 0)
        printf("removed the durable files of %s (%" PRIu64
               " rank parts); the directory holds other files and stays\n",
               dir, count);
    else
        printf("removed %s (%" PRIu64 " rank parts)\n", dir, count);
    return CLI_OK;
}
