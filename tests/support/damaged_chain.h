/* A chain whose states tell their step apart at every byte, and a plan
 * that keeps every state on a file level, for the checksum tests
 * (tests/test_file_checksum.c, tests/mpi/mpi_cases_checksum.c): the first
 * adjoint callback flips one byte of x_DC_VICTIM in the run's slots file,
 * found there by its bytes at a slot boundary (slots start at multiples
 * of 16 and take the stride, as <uturn.h> says), not by the backend's
 * layout code. Header-only (static inline), no test framework: a step that
 * cannot be done sets `lost`, and the caller checks it. Needs _GNU_SOURCE
 * (pread, pwrite, open_memstream) before the first include. */
#ifndef UTURN_DAMAGED_CHAIN_H_INCLUDED
#define UTURN_DAMAGED_CHAIN_H_INCLUDED

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uturn.h>

#define DC_STEPS     10u
#define DC_VICTIM    3u /* the state damaged; restored 6 restores later */
#define DC_MAX_BYTES 4099u

/* x_step[j] = 1 + 29 step + 7 j (mod 256): x_{i+1} = x_i + 29, every state
 * differs from every other at every byte, and none is all zero. */
static inline void dc_state_of(uint64_t step, unsigned char *out,
                               uint64_t bytes)
{
    for (uint64_t j = 0; j < bytes; j++)
        out[j] = (unsigned char)(1 + 29 * step + 7 * j);
}

struct dc_model {
    unsigned char x[DC_MAX_BYTES];
    uint64_t bytes, stride;
    const char *parent; /* the file level's parent directory */
    int64_t damage_pos; /* byte of x_DC_VICTIM to flip; -1: none */
    bool damaged, lost; /* lost: the damage could not be done */
    bool bad_sizes;     /* save or load was asked for another size */
    uint64_t adjoints, wrong_states;
    char where[PATH_MAX + 16]; /* the damaged file, for messages */
};

static inline int dc_forward(void *user, uint64_t step)
{
    struct dc_model *m = user;
    (void)step;
    for (uint64_t j = 0; j < m->bytes; j++)
        m->x[j] = (unsigned char)(m->x[j] + 29);
    return 0;
}

static inline int dc_turn(void *user)
{
    (void)user;
    return 0;
}

/* The run's directory under parent (exactly one). */
static inline bool dc_run_dir(const char *parent, char out[PATH_MAX])
{
    DIR *d = opendir(parent);
    int n  = 0;
    for (struct dirent *e = d != NULL ? readdir(d) : NULL; e != NULL;
         e                = readdir(d))
        if (strncmp(e->d_name, "uturn-", 6) == 0 &&
            snprintf(out, PATH_MAX, "%s/%s", parent, e->d_name) < PATH_MAX)
            n++;
    if (d != NULL)
        closedir(d);
    return n == 1;
}

/* The slot of the file whose bytes are x_step (polled for a few seconds:
 * an overlapped write may still be on its way); -1 if none, or if two
 * slots hold it. */
static inline off_t dc_find_state(int fd, const struct dc_model *m,
                                  uint64_t step)
{
    unsigned char want[DC_MAX_BYTES], got[DC_MAX_BYTES];
    dc_state_of(step, want, m->bytes);
    for (int attempt = 0; attempt < 500; attempt++) {
        struct stat s;
        if (fstat(fd, &s) != 0)
            return -1;
        off_t found = -1;
        int matches = 0;
        for (off_t at = 0; at + (off_t)m->bytes <= s.st_size;
             at += (off_t)m->stride)
            if (pread(fd, got, m->bytes, at) == (ssize_t)m->bytes &&
                memcmp(got, want, m->bytes) == 0) {
                found = at;
                matches++;
            }
        if (matches > 1)
            return -1;
        if (matches == 1)
            return found;
        const struct timespec wait = {0, 10 * 1000 * 1000};
        nanosleep(&wait, NULL);
    }
    return -1;
}

/* Flip one byte of x_DC_VICTIM where the run's file holds it. */
static inline void dc_damage(struct dc_model *m)
{
    char dir[PATH_MAX];
    m->damaged = true;
    if (!dc_run_dir(m->parent, dir)) {
        m->lost = true;
        return;
    }
    snprintf(m->where, sizeof m->where, "%s/slots", dir);
    const int fd       = open(m->where, O_RDWR);
    const off_t slot   = fd >= 0 ? dc_find_state(fd, m, DC_VICTIM) : -1;
    unsigned char byte = 0;
    const off_t at     = slot + (off_t)m->damage_pos;
    if (slot < 0 || pread(fd, &byte, 1, at) != 1)
        m->lost = true;
    byte ^= 0xa5;
    if (!m->lost && pwrite(fd, &byte, 1, at) != 1)
        m->lost = true;
    if (fd >= 0)
        close(fd);
}

/* Every adjoint sees exactly its state; the first one damages. */
static inline int dc_adjoint(void *user, uint64_t step)
{
    struct dc_model *m = user;
    unsigned char want[DC_MAX_BYTES];
    dc_state_of(step, want, m->bytes);
    m->wrong_states += memcmp(m->x, want, m->bytes) != 0;
    m->adjoints += 1;
    if (m->damage_pos >= 0 && !m->damaged)
        dc_damage(m);
    return 0;
}

static inline int dc_save(void *user, uint64_t step, void *dst, uint64_t bytes)
{
    struct dc_model *m = user;
    (void)step;
    m->bad_sizes |= bytes != m->bytes;
    memcpy(dst, m->x, bytes < m->bytes ? bytes : m->bytes);
    return bytes == m->bytes ? 0 : 1;
}

static inline int dc_load(void *user, uint64_t step, const void *src,
                          uint64_t bytes)
{
    struct dc_model *m = user;
    (void)step;
    m->bad_sizes |= bytes != m->bytes;
    memcpy(m->x, src, bytes < m->bytes ? bytes : m->bytes);
    return bytes == m->bytes ? 0 : 1;
}

/* The model at x_0, through the state or through save/load. */
static inline uturn_model_t dc_describe(struct dc_model *m, bool save_load)
{
    dc_state_of(0, m->x, m->bytes);
    m->adjoints = m->wrong_states = 0;
    m->damaged = m->lost = m->bad_sizes = false;
    uturn_model_t d;
    uturn_model_init(&d);
    d.user        = m;
    d.forward     = dc_forward;
    d.turn        = dc_turn;
    d.adjoint     = dc_adjoint;
    d.state_bytes = m->bytes;
    if (save_load) {
        d.save = dc_save;
        d.load = dc_load;
    } else {
        d.state = m->x;
    }
    return d;
}

/* An executor whose one level is a file level in parent (its directory),
 * writing synchronously or overlapped. */
static inline uturn_status_t
dc_file_executor(const char *parent, bool synchronous, uturn_executor_t **ex)
{
    uturn_storage_t file;
    uturn_storage_init(&file);
    file.kind        = UTURN_STORAGE_FILE;
    file.directory   = parent;
    file.synchronous = synchronous;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = &file;
    o.level_count = 1;
    return uturn_executor_open(&o, ex, NULL);
}

/* Every state on the disk level: store x_i in disk slot 1 + i on the way
 * up, restore each on the way down (memory's one slot stays unused).
 * NULL on failure (err says why). */
static inline uturn_plan_t *dc_all_on_disk(uturn_error_t *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f    = open_memstream(&text, &len);
    if (f == NULL)
        return NULL;
    fprintf(f,
            "uturn-plan 2\nsteps %u\nslots %u\nlevel mem 1 0 0\n"
            "level disk %u 1 1\n",
            DC_STEPS, DC_STEPS + 1, DC_STEPS);
    for (unsigned i = 0; i < DC_STEPS; i++)
        fprintf(f, "store %u %u\nadvance %u %u\n", i, i + 1, i, i + 1);
    fprintf(f, "turn\n");
    for (unsigned i = DC_STEPS; i-- > 0;)
        fprintf(f, "restore %u %u\nreverse %u\nfree %u\n", i, i + 1, i, i + 1);
    fclose(f);
    uturn_plan_t *plan = NULL;
    if (uturn_plan_parse(text, len, NULL, &plan, err) != UTURN_OK)
        plan = NULL;
    free(text);
    return plan;
}

#endif
