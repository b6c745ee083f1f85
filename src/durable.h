/*
 * Durable runs (uturn_run_options_t.durable_dir): the manifest that says
 * where a run stands, the files it names, and the run's side of writing
 * durable points and resuming from one. A durable point is complete once
 * its manifest is renamed into place; until then the previous one stands.
 *
 * The directory holds
 *   manifest            the last complete point (text, checksummed); in
 *                       a run across processes manifest-P, point P, the
 *                       previous one kept until every process has P
 *   state-STEP-HASH     a checkpoint of x_STEP (its XXH3-64 in the name)
 *   live-P, adjoint-P   point P's live state and the model's adjoint
 *   lock                flock()ed by the run that holds the directory
 * and, after a kill mid-point, NAME.tmp files that the next point removes.
 */
#ifndef UTURN_DURABLE_H_INCLUDED
#define UTURN_DURABLE_H_INCLUDED

#include "internal.h"

#define UTURN__DURABLE_TAG        201 /* the tag's bytes, its NUL included */
#define UTURN__DURABLE_MAX_LEVELS UTURN__MAX_LEVELS

/* A checkpoint a point names: plan slot, state, bytes, XXH3-64. */
struct uturn__dslot {
    uint64_t slot, step, bytes, hash;
};

/* The counts a resumed run carries on with. */
struct uturn__dcounts {
    uint64_t forward, reverse, stores, restores, frees, peak_slots;
    uint64_t peak_bytes, work_done, memory_peak;
    uint64_t level_stores[UTURN__DURABLE_MAX_LEVELS];
    uint64_t level_restores[UTURN__DURABLE_MAX_LEVELS];
    uint64_t level_peak[UTURN__DURABLE_MAX_LEVELS];
};

/* What a manifest says (durable_manifest.c). */
struct uturn__manifest {
    uint64_t point, fingerprint, steps, state_bytes, adjoint_bytes, levels;
    char tag[UTURN__DURABLE_TAG];
    uint64_t found;        /* an online plan's n once known, else 0 */
    uint64_t action, into; /* actions done; steps done into the next */
    uint64_t live, live_bytes, live_hash; /* live UTURN_NONE: none */
    uint64_t adjoint_hash;
    uint64_t records, record_bytes, records_hash; /* step records */
    uint64_t shares, shares_hash; /* online plans' shares, x_0 first */
    struct uturn__dcounts counts;
    struct uturn__dslot *slots; /* nslots of them, allocated */
    uint64_t nslots;
};

/* The manifest as text into a buffer of its own (malloc; *len bytes). */
uturn_status_t uturn__manifest_format(const struct uturn__manifest *m,
                                      char **text, size_t *len);
/* Parse and check text (its checksum line included); fills *m, whose
 * slots the caller frees (uturn__manifest_clear). The message says what
 * is wrong, for a refusal naming the directory. */
uturn_status_t uturn__manifest_parse(const char *text, size_t len,
                                     struct uturn__manifest *m, char *why,
                                     size_t why_cap);
void uturn__manifest_clear(struct uturn__manifest *m);

/* Files (durable_file.c). Each returns 0 or an errno value. */
/* Write bytes to dir/name through dir/name.tmp: write, fsync, rename. */
int uturn__dfile_write(int dirfd, const char *name, const void *bytes,
                       uint64_t len);
/* Write len bytes at offset `at` of fd, whole (EINTR and short writes
 * retried). */
int uturn__dfile_write_at(int fd, const void *bytes, uint64_t len, uint64_t at);
/* Read dir/name whole into a malloc'd buffer (*len bytes). */
int uturn__dfile_read(int dirfd, const char *name, unsigned char **bytes,
                      uint64_t *len);
/* Check dir/name: exactly len bytes whose XXH3-64 is hash. 0, or an
 * errno value (EBADMSG: other bytes). */
int uturn__dfile_check(int dirfd, const char *name, uint64_t len,
                       uint64_t hash);
/* Take the directory's lock without waiting: 0, EWOULDBLOCK (held),
 * EINVAL (the file lock is not a regular file: a symlink, a FIFO), or
 * another errno value. *fd is the lock's descriptor. */
int uturn__dfile_lock(int dirfd, int *fd);
/* What a failure rc of uturn__dfile_lock means, for a message. */
const char *uturn__dfile_lock_why(int rc);
/* Whether a run holds the directory's lock now, found without making a
 * lock file or writing anything: no lock file, or one that is not a
 * regular file, is held by no run. */
bool uturn__dfile_locked(int dirfd);
/* Remove the durable files the manifest m does not name (every one when m
 * is NULL: the manifest and then the lock last, and only once the rest is
 * gone); returns the first failure, with the file's name in failed (cap
 * bytes) when failed is not NULL. */
int uturn__dfile_sweep(int dirfd, const struct uturn__manifest *m, char *failed,
                       size_t cap);
/* Whether the directory is empty or a durable run's: it holds a lock, or
 * a manifest whose first line says uturn-durable (durable_names.c). */
bool uturn__dfile_ours(int dirfd);
/* Whether entry @p name of the directory starts as a manifest does (its
 * first line says uturn-durable): a manifest a durable run wrote, damaged
 * or not, rather than a file of the user's under that name. */
bool uturn__dfile_says_durable(int dirfd, const char *name);
/* The directory as messages name it, in out (UTURN__SHOWN_CAP bytes):
 * whole up to 96 bytes, else "..." and its last 93, so that a long path
 * on a cluster's scratch leaves room for the reason in a message's 256
 * bytes (a message names the path, sometimes twice). */
enum { UTURN__SHOWN_CAP = 97 };
void uturn__durable_shown(const char *dir, char *out);
/* The names of a point's files. */
void uturn__dfile_state_name(uint64_t step, uint64_t hash, char *out,
                             size_t cap);
void uturn__dfile_point_name(const char *what, uint64_t point, char *out,
                             size_t cap);
/* "manifest", or "manifest-P" for point P != 0 (points committed by a
 * layer across processes). */
void uturn__dfile_manifest_name(uint64_t point, char *out, size_t cap);
/* XXH3-64 of bytes. */
uint64_t uturn__dfile_hash(const void *bytes, uint64_t len);

/* A file that only grows (durable_grow.c): `name`, the units in it that a
 * point counts, and the running XXH3-64 of them (an XXH3_state_t). */
struct uturn__dgrow {
    const char *name;
    uint64_t done;
    void *hash;
};
/* Append units [g->done, upto) of `unit` bytes at base, fsync; *written
 * the bytes. 0 or an errno value. */
int uturn__dgrow_append(int dirfd, struct uturn__dgrow *g,
                        const unsigned char *base, uint64_t unit, uint64_t upto,
                        uint64_t *written);
uint64_t uturn__dgrow_digest(struct uturn__dgrow *g);
/* Read the file's first count units (malloc'd into *bytes) and check
 * them against hash; g goes on from there. 0, EBADMSG or an errno. */
int uturn__dgrow_load(int dirfd, struct uturn__dgrow *g, uint64_t count,
                      uint64_t unit, uint64_t hash, unsigned char **bytes);
void uturn__dgrow_free(struct uturn__dgrow *g);

/* Read, parse and check dir's manifest (manifest-P for point P != 0) and
 * every file it names: 0 and
 * *m, UTURN__DURABLE_NONE (no manifest), or an errno value with a
 * message in why. */
#define UTURN__DURABLE_NONE (-1)
int uturn__durable_load(int dirfd, uint64_t point, struct uturn__manifest *m,
                        char *why, size_t why_cap);

#endif
