/*
 * Durable runs across MPI ranks. Each rank's part lives in DIR/rank-R
 * (the executor's durable directory on that rank); DIR/commit says which
 * point every rank has written: rank 0 replaces it (temporary file,
 * fsync, rename, directory fsync) once a vote has found every rank's
 * manifest of that point on disk, and until then each rank keeps its
 * previous point too. A job killed at any moment resumes, on the same
 * number of ranks, from the point DIR/commit names.
 *
 * Points come at the same action on every rank: whether one is due is
 * voted at every place the executor may make one (durable_agree: the
 * largest of what the ranks found). Each vote is three numbers, the last
 * a failure notice, as the online end votes: a rank that fails with
 * local callbacks joins the next vote with it (its catch-up), and every
 * rank that did not see a failure votes once more after its run, so the
 * ranks always make the same votes.
 */
#define _GNU_SOURCE
#include "mpi_commit.h"
#include "mpi_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_commit(const char *root, uint64_t point, int ranks)
{
    char path[4096], tmp[4096], text[256];
    snprintf(path, sizeof path, "%s/commit", root);
    snprintf(tmp, sizeof tmp, "%s/commit.tmp", root);
    const int len = uturn__mpi_commit_text(point, ranks, text, sizeof text);
    const int fd  = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (len < 0 || fd < 0)
        return fd < 0 ? errno : EINVAL;
    int rc = write(fd, text, (size_t)len) == len ? 0 : EIO;
    if (rc == 0 && fsync(fd) != 0)
        rc = errno;
    close(fd);
    if (rc == 0 && rename(tmp, path) != 0)
        rc = errno;
    const int dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (rc == 0 && (dir < 0 || fsync(dir) != 0))
        rc = errno;
    if (dir >= 0)
        close(dir);
    return rc;
}

/* One durable vote: [what this rank found, 0, failure]. */
static bool vote(struct uturn__mpi_durable *d, uint64_t *due, bool failed)
{
    uint64_t v[3] = {*due, 0, failed};
    uturn__mpi_max_u64(&d->gate->comm, v, 3);
    d->votes += 1;
    *due = v[0];
    if (v[2] != 0) { /* another rank's failure: its message is the run's */
        d->failure_seen    = true;
        d->gate->blameless = !failed;
        d->gate->state     = UTURN__GATE_SHUT;
    }
    return v[2] == 0;
}

static int agree(void *user, int *due)
{
    struct uturn__mpi_durable *d = user;
    if (uturn__mpi_gate_pass(d->gate) != 0)
        return UTURN__MPI_REFUSED;
    uint64_t v = *due > 0 ? (uint64_t)*due : 0;
    if (!vote(d, &v, false))
        return UTURN__MPI_REFUSED;
    *due = (int)v;
    return 0;
}

/* Every rank has point P on disk (its manifest is written when this is
 * called): rank 0 records it, and the ranks learn that it did. */
static int commit(void *user, uint64_t point)
{
    struct uturn__mpi_durable *d    = user;
    const struct uturn__mpi_comm *c = &d->gate->comm;
    uint64_t none                   = 0;
    if (!vote(d, &none, false))
        return UTURN__MPI_REFUSED;
    const int rc = c->rank == 0 ? write_commit(d->root, point, c->size) : 0;
    if (rc != 0)
        fprintf(stderr,
                "uturn_mpi: durable directory %s: its commit record "
                "could not be written: %s\n",
                d->shown, strerror(rc));
    if (!vote(d, &none, rc != 0))
        return UTURN__MPI_REFUSED;
    d->committed = point;
    return 0;
}

/* What the root holds, as rank 0 found it, on every rank: [errno of
 * reading its commit record, point, ranks, errno of making the root]. */
static void read_root(struct uturn__mpi_durable *d, uint64_t found[4])
{
    struct uturn__mpi_comm *c = &d->gate->comm;
    if (c->rank == 0) {
        d->made_root    = mkdir(d->root, 0700) == 0;
        const bool made = d->made_root || errno == EEXIST;
        found[3]        = made ? 0 : (uint64_t)errno;
        found[0] = made ? (uint64_t)uturn__mpi_commit_read(d->root, &found[1],
                                                           &found[2])
                        : 0;
    }
    uturn__mpi_bcast(c, found, 4 * sizeof *found, 0);
}

/* The mode the ranks agree on, or a refusal (the same on every rank). */
static uturn_status_t choose(struct uturn__mpi_durable *d,
                             const uint64_t found[4], int mode,
                             uturn_error_t *error)
{
    const int size = d->gate->comm.size;
    const int err  = (int)found[0];
    if (found[3] != 0)
        return uturn__mpi_fail(error, UTURN_E_IO,
                               "durable directory %s cannot be made: %s",
                               d->shown, strerror((int)found[3]));
    if (err != 0 && err != ENOENT)
        return uturn__mpi_fail(error, UTURN_E_IO,
                               "durable directory %s: its commit record "
                               "cannot be read: %s",
                               d->shown,
                               err == EBADMSG ? "damaged" : strerror(err));
    const bool held = err == 0;
    if (held && found[2] != (uint64_t)size)
        return uturn__mpi_fail(error, UTURN_E_INVALID_ARG,
                               "durable directory %s holds a run of %" PRIu64
                               " ranks; this one has %d (resume on as many)",
                               d->shown, found[2], size);
    if (held && mode == UTURN_DURABLE_NEW)
        return uturn__mpi_fail(error, UTURN_E_INVALID_ARG,
                               "durable directory %s holds point %" PRIu64
                               " of an earlier run; resume it or remove it",
                               d->shown, found[1]);
    if (!held && mode == UTURN_DURABLE_RESUME)
        return uturn__mpi_fail(error, UTURN_E_INVALID_ARG,
                               "durable directory %s holds no committed "
                               "durable point to resume",
                               d->shown);
    d->resume = held ? found[1] : 0;
    return UTURN_OK;
}

/* A fresh start: what a killed run left in this rank's part goes, on
 * every rank, or every rank fails. */
static uturn_status_t clear_part(struct uturn__mpi_durable *d,
                                 uturn_error_t *error)
{
    uturn_error_t mine;
    uturn_error_init(&mine);
    struct stat st;
    const bool there = stat(d->dir, &st) == 0;
    uint64_t v[3]    = {0, 0, 0};
    v[2]             = there && uturn_durable_remove(d->dir, &mine) != UTURN_OK;
    uturn__mpi_max_u64(&d->gate->comm, v, 3);
    if (v[2] == 0)
        return UTURN_OK;
    return uturn__mpi_fail(error, UTURN_E_IO,
                           "durable directory %s: a rank's part could not be "
                           "cleared for a new run%s%s",
                           d->shown, mine.message[0] != '\0' ? ": " : "",
                           mine.message);
}

/* Every rank's durable_mode the same, and a mode at all (one vote). */
static uturn_status_t same_mode(struct uturn__mpi_durable *d, int mode,
                                uturn_error_t *error)
{
    const uint64_t m = (uint64_t)(int64_t)mode;
    uint64_t v[3]    = {m, ~m, 0};
    uturn__mpi_max_u64(&d->gate->comm, v, 3);
    if (v[0] != ~v[1])
        return uturn__mpi_fail(error, UTURN_E_INVALID_ARG,
                               "durable_mode differs between the ranks: give "
                               "every rank the same");
    if (mode < UTURN_DURABLE_NEW || mode > UTURN_DURABLE_AUTO)
        return uturn__mpi_fail(error, UTURN_E_INVALID_ARG,
                               "durable_mode %d is none of UTURN_DURABLE_NEW, "
                               "_RESUME and _AUTO",
                               mode);
    return UTURN_OK;
}

/* This rank's tag: the caller's and " [rank R of N]", on every rank or
 * on none (a vote: ranks of more digits make longer tags). A part moved
 * to another rank's place then resumes with another tag: refused. */
static uturn_status_t rank_tag(struct uturn__mpi_durable *d,
                               uturn_run_options_t *run, uturn_error_t *error)
{
    const struct uturn__mpi_comm *c = &d->gate->comm;
    const char *user = run->durable_tag != NULL ? run->durable_tag : "";
    const int len = snprintf(d->tag, sizeof d->tag, "%s [rank %d of %d]", user,
                             c->rank, c->size);
    uint64_t v[3] = {0, 0, len < 0 || (size_t)len >= sizeof d->tag};
    uturn__mpi_max_u64(&d->gate->comm, v, 3);
    if (v[2] != 0)
        return uturn__mpi_fail(error, UTURN_E_INVALID_ARG,
                               "durable_tag has %zu bytes; across MPI ranks "
                               "at most %zu, for the layer adds \" [rank R "
                               "of N]\" to each rank's",
                               strlen(user),
                               sizeof d->tag - 1 -
                                   (size_t)snprintf(NULL, 0, " [rank %d of %d]",
                                                    c->size - 1, c->size));
    run->durable_tag = d->tag;
    return UTURN_OK;
}

uturn_status_t uturn__mpi_durable_begin(struct uturn__mpi_durable *d,
                                        struct uturn__mpi_gate *g,
                                        uturn_run_options_t *run,
                                        uturn_error_t *error)
{
    memset(d, 0, sizeof *d);
    d->gate = g;
    if (run->durable_dir == NULL)
        return UTURN_OK;
    d->active = true;
    if (g->online)
        return uturn__mpi_fail(error, UTURN_E_UNSUPPORTED,
                               "durable online runs across MPI ranks are not "
                               "supported yet: plan with the step count");
    snprintf(d->root, sizeof d->root, "%s", run->durable_dir);
    const size_t len = strlen(d->root), from = len > 96 ? len - 93 : 0;
    snprintf(d->shown, sizeof d->shown, "%s%.*s", from != 0 ? "..." : "", 96,
             d->root + from);
    snprintf(d->dir, sizeof d->dir, "%s/rank-%d", d->root, g->comm.rank);
    uint64_t found[4] = {0, 0, 0, 0};
    read_root(d, found);
    uturn_status_t st = same_mode(d, run->durable_mode, error);
    if (st == UTURN_OK)
        st = rank_tag(d, run, error);
    if (st == UTURN_OK)
        st = choose(d, found, run->durable_mode, error);
    if (st == UTURN_OK && d->resume == 0)
        st = clear_part(d, error);
    if (st != UTURN_OK)
        return st;
    run->durable_dir = d->dir;
    run->durable_mode =
        d->resume != 0 ? UTURN_DURABLE_RESUME : UTURN_DURABLE_NEW;
    run->durable_resume_point = d->resume;
    run->durable_agree        = agree;
    run->durable_commit       = commit;
    run->durable_user         = d;
    return UTURN_OK;
}

void uturn__mpi_durable_end(struct uturn__mpi_durable *d, bool failed)
{
    if (!d->active || d->failure_seen || d->gate->state != UTURN__GATE_OPEN)
        return;
    uint64_t none = 0;
    vote(d, &none, failed);
}

/* Rank 0 removes the commit record (synced); the parts go after it, so
 * that a kill in between leaves either a resumable point or none. */
static void remove_commit(const struct uturn__mpi_durable *d)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/commit", d->root);
    unlink(path);
    const int dir = open(d->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        fsync(dir);
        close(dir);
    }
}

void uturn__mpi_durable_done(struct uturn__mpi_durable *d,
                             uturn_status_t agreed)
{
    if (!d->active)
        return;
    struct uturn__mpi_comm *c = &d->gate->comm;
    if (agreed != UTURN_OK) {
        /* a run refused (or failed) before its first commit leaves no
         * root it made: the parts are gone by now (each rank's core
         * leaves its part as it found it before the agreement) */
        if (c->rank == 0 && d->made_root && d->committed == 0)
            rmdir(d->root); /* when empty */
        return;
    }
    if (c->rank == 0)
        remove_commit(d);
    uint64_t v[3] = {0, 0, 0};
    uturn__mpi_max_u64(c, v, 3); /* the record is gone everywhere */
    uturn_durable_remove(d->dir, NULL);
    uturn__mpi_max_u64(c, v, 3); /* and every part */
    if (c->rank == 0)
        rmdir(d->root); /* when empty */
}
