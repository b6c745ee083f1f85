/*
 * uturn durable on the directory of a durable run across MPI ranks: the
 * commit record DIR/commit (which point every rank holds) and each rank's
 * part DIR/rank-R, itself a durable directory. show checks the record's
 * checksum and each part's files at the committed point; remove takes
 * the record first, then every part there (whatever the record says), as
 * a completed run does, so that a removal cut short leaves no point to
 * resume rather than a point some part lacks, and a second remove takes
 * the rest. Everything is checked before anything is removed.
 */
#define _DEFAULT_SOURCE /* lstat, S_IFMT */
#include "cli.h"
#include "cli_durable.h"
#include "mpi_commit.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* DIR/rank-R, or DIR/commit when rank is UINT64_MAX; false (said) when it
 * does not fit. */
static bool path_of(char *out, size_t cap, const char *dir, uint64_t rank)
{
    const int n = rank == UINT64_MAX
                      ? snprintf(out, cap, "%s/commit", dir)
                      : snprintf(out, cap, "%s/rank-%" PRIu64, dir, rank);
    if (n > 0 && (size_t)n < cap)
        return true;
    cli_fail("%s: the path of its parts is too long", dir);
    return false;
}

/* The entry at path is a @p kind (S_IFDIR, S_IFREG) of its own, not a
 * symbolic link: CLI_OK, or the message printed. */
static int own_entry(const char *path, mode_t kind, const char *what)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return cli_fail("%s: %s", path, strerror(errno));
    if ((st.st_mode & S_IFMT) != kind)
        return cli_fail("%s is %s, not %s: nothing was done", path,
                        S_ISLNK(st.st_mode) ? "a symbolic link"
                                            : "another kind of file",
                        what);
    return CLI_OK;
}

static int scan(const char *dir, struct cli_ranks *r)
{
    const int rc = cli_ranks_scan(dir, r);
    if (rc == E2BIG)
        return cli_fail("%s holds more than %zu rank parts", dir,
                        CLI_MOST_RANKS);
    return rc == 0 ? CLI_OK : cli_fail("%s: %s", dir, strerror(rc));
}

bool cli_durable_is_ranks(const char *dir)
{
    struct cli_ranks r;
    const int rc = cli_ranks_scan(dir, &r);
    if (rc == E2BIG)
        return true; /* show and remove say so */
    const bool ranks = rc == 0 && !r.plain && (r.has_commit || r.count > 0);
    cli_ranks_free(&r);
    return ranks;
}

/* The record: CLI_OK (point and ranks set), or the message printed. */
static int record(const char *dir, uint64_t *point, uint64_t *ranks)
{
    char path[4200];
    if (!path_of(path, sizeof path, dir, UINT64_MAX) ||
        own_entry(path, S_IFREG, "a commit record") != CLI_OK)
        return CLI_BAD_INPUT;
    const int rc = uturn__mpi_commit_read(dir, point, ranks);
    if (rc == EBADMSG)
        return cli_fail("%s, the commit record of a durable run across MPI "
                        "ranks, is damaged (its text or its checksum)",
                        path);
    return rc == 0 ? CLI_OK : cli_fail("%s: %s", path, strerror(rc));
}

/* Rank r's part at the committed point, which it must hold. */
static int show_part(const char *dir, uint64_t r, uint64_t point)
{
    char path[4200];
    if (!path_of(path, sizeof path, dir, r) ||
        own_entry(path, S_IFDIR, "a rank's part") != CLI_OK)
        return CLI_BAD_INPUT;
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    uturn_error_t err;
    uturn_error_init(&err);
    if (uturn_durable_inspect_point(path, point, &info, &err) != UTURN_OK)
        return cli_fail("%s", err.message);
    if (!info.has_point)
        return cli_fail("%s does not hold point %" PRIu64 ", which the "
                        "commit record names: the run cannot resume from it",
                        path, point);
    printf("rank %-9" PRIu64 " in_use %s, point %" PRIu64 ", steps %" PRIu64
           ", forward_steps %" PRIu64 ", reverse_steps %" PRIu64
           ", bytes %" PRIu64 "\n",
           r, info.in_use ? "yes" : "no", info.point, info.steps,
           info.forward_steps, info.reverse_steps, info.bytes);
    return CLI_OK;
}

/* Whether a run holds the part now (false when it cannot be told). */
static bool held(const char *path)
{
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    return uturn_durable_inspect(path, &info, NULL) == UTURN_OK && info.in_use;
}

static int show_committed(const char *dir, const struct cli_ranks *r,
                          uint64_t point, uint64_t ranks)
{
    printf("commit         point %" PRIu64 " of %" PRIu64 " ranks\n", point,
           ranks);
    for (uint64_t k = 0; k < ranks; k++) {
        if (!cli_ranks_has(r, k))
            return cli_fail("%s/rank-%" PRIu64 " is missing: the commit "
                            "record names %" PRIu64 " ranks, and a resume "
                            "needs each one's part",
                            dir, k, ranks);
        if (show_part(dir, k, point) != CLI_OK)
            return CLI_BAD_INPUT;
    }
    for (size_t i = 0; i < r->count; i++)
        if (r->rank[i] >= ranks)
            printf("rank %-9" PRIu64 " not named by the commit record: a "
                   "resume leaves it alone\n",
                   r->rank[i]);
    return CLI_OK;
}

/* No record: the parts there hold no point to resume. */
static int show_bare(const char *dir, const struct cli_ranks *r)
{
    printf("commit         none (no point committed: a new run starts "
           "afresh)\n");
    char path[4200];
    for (size_t i = 0; i < r->count; i++) {
        if (!path_of(path, sizeof path, dir, r->rank[i]) ||
            own_entry(path, S_IFDIR, "a rank's part") != CLI_OK)
            return CLI_BAD_INPUT;
        printf("rank %-9" PRIu64 " in_use %s, point none\n", r->rank[i],
               held(path) ? "yes" : "no");
    }
    return CLI_OK;
}

int cli_durable_ranks_show(const char *dir)
{
    struct cli_ranks r;
    if (scan(dir, &r) != CLI_OK)
        return CLI_BAD_INPUT;
    uint64_t point = 0, ranks = 0;
    int rc = r.has_commit ? record(dir, &point, &ranks) : CLI_OK;
    if (rc == CLI_OK) {
        cli_durable_line("directory", dir);
        printf("layout         ranks (a durable run across MPI ranks)\n");
        rc = r.has_commit ? show_committed(dir, &r, point, ranks)
                          : show_bare(dir, &r);
    }
    cli_ranks_free(&r);
    return rc == CLI_OK ? CLI_OK : CLI_BAD_INPUT;
}

/* Before anything goes: the record a file, each part a directory of its
 * own (a symbolic link is not followed), none held by a run. */
static int removable(const char *dir, const struct cli_ranks *r)
{
    char path[4200];
    if (r->has_commit && (!path_of(path, sizeof path, dir, UINT64_MAX) ||
                          own_entry(path, S_IFREG, "a commit record")))
        return CLI_BAD_INPUT;
    for (size_t i = 0; i < r->count; i++) {
        if (!path_of(path, sizeof path, dir, r->rank[i]) ||
            own_entry(path, S_IFDIR, "a rank's part") != CLI_OK)
            return CLI_BAD_INPUT;
        if (held(path))
            return cli_fail("%s: a run holds it now; nothing was removed",
                            path);
    }
    return CLI_OK;
}

static int remove_all(const char *dir, const struct cli_ranks *r)
{
    char path[4200];
    if (r->has_commit && path_of(path, sizeof path, dir, UINT64_MAX) &&
        unlink(path) != 0)
        return cli_fail("%s: %s; nothing was removed", path, strerror(errno));
    for (size_t i = 0; i < r->count; i++) {
        uturn_error_t err;
        uturn_error_init(&err);
        if (path_of(path, sizeof path, dir, r->rank[i]) &&
            uturn_durable_remove(path, &err) != UTURN_OK)
            return cli_fail("%s (the commit record is gone, so no point is "
                            "left to resume; remove again once mended)",
                            err.message);
    }
    if (rmdir(dir) == 0)
        printf("removed %s (%zu rank parts)\n", dir, r->count);
    else
        printf("removed the durable files of %s (%zu rank parts); the "
               "directory stays: %s\n",
               dir, r->count,
               errno == ENOTEMPTY || errno == EEXIST ? "it holds other files"
                                                     : strerror(errno));
    return CLI_OK;
}

int cli_durable_ranks_remove(const char *dir)
{
    struct cli_ranks r;
    if (scan(dir, &r) != CLI_OK)
        return CLI_BAD_INPUT;
    int rc = removable(dir, &r);
    if (rc == CLI_OK)
        rc = remove_all(dir, &r);
    cli_ranks_free(&r);
    return rc == CLI_OK ? CLI_OK : CLI_BAD_INPUT;
}
