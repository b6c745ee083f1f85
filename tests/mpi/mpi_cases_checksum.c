/*
 * A file level's checksum across ranks (its own program, `mpi_checksum`,
 * run with 2 and 4 ranks): every rank keeps every state of a plan on a
 * file level of its own (plan text, adopted by the ranks, so which state
 * is restored when is known). On one rank, not rank 0, the first adjoint
 * callback flips the first, a middle or the last byte of x_3 in that
 * rank's slots file, for states of 1, 17, 64 and 4099 bytes, overlapped
 * and synchronous, through the state and through save/load. <uturn_mpi.h>
 * promises that no rank returns success while another failed and that
 * the message names the lowest rank that failed: every rank must return
 * UTURN_E_IO with "rank R of P: " and that rank's "checkpoint x_3 ...
 * checksum mismatch", the combined report naming rank R alone; no adjoint
 * on any rank sees a state other than its own, the failing rank stops at
 * x_3, and the next run of the same plan succeeds everywhere.
 *
 * The model exchanges nothing between ranks in its callbacks, and says so
 * (local_callbacks), so the ranks that did not fail run to their end and
 * meet the failed one in the layer's vote after the run instead of the
 * job being aborted (<uturn_mpi.h>).
 */
#define _GNU_SOURCE /* mkdtemp, pread, pwrite, open_memstream */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uturn.h>
#include <uturn_mpi.h>

#define STEPS     10u
#define VICTIM    3u /* restored six restores after the damage */
#define MAX_BYTES 4099u

static int my_rank, ranks;

static bool check(bool cond, const char *what)
{
    if (!cond) {
        printf("FAIL rank %d: %s\n", my_rank, what);
        fflush(stdout);
    }
    return cond;
}

static bool everywhere(bool cond)
{
    int mine = cond ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all != 0;
}

/* x_step[j] = 1 + 29 step + 7 j (mod 256): x_{i+1} = x_i + 29. */
static void state_of(uint64_t step, unsigned char *out, uint64_t bytes)
{
    for (uint64_t j = 0; j < bytes; j++)
        out[j] = (unsigned char)(1 + 29 * step + 7 * j);
}

struct model {
    unsigned char x[MAX_BYTES];
    uint64_t bytes, stride;
    const char *parent;
    long damage_pos; /* byte of x_VICTIM to flip on this rank; -1: none */
    bool damaged, lost;
    uint64_t adjoints, wrong_states;
    char where[PATH_MAX + 16];
};

static int m_forward(void *user, uint64_t step)
{
    struct model *m = user;
    (void)step;
    for (uint64_t j = 0; j < m->bytes; j++)
        m->x[j] = (unsigned char)(m->x[j] + 29);
    return 0;
}

static int m_turn(void *user)
{
    (void)user;
    return 0;
}

/* The run's directory under parent (exactly one). */
static bool run_dir(const char *parent, char out[PATH_MAX])
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

/* The offset of the slot whose bytes are x_VICTIM (polled: an overlapped
 * write may still be on its way), or -1. */
static off_t find_victim(int fd, const struct model *m)
{
    unsigned char want[MAX_BYTES], got[MAX_BYTES];
    state_of(VICTIM, want, m->bytes);
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
        if (matches == 1)
            return found;
        const struct timespec wait = {0, 10 * 1000 * 1000};
        nanosleep(&wait, NULL);
    }
    return -1;
}

static void damage(struct model *m)
{
    char dir[PATH_MAX];
    m->damaged = true;
    if (!run_dir(m->parent, dir)) {
        m->lost = true;
        return;
    }
    snprintf(m->where, sizeof m->where, "%s/slots", dir);
    const int fd       = open(m->where, O_RDWR);
    const off_t slot   = fd >= 0 ? find_victim(fd, m) : -1;
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

static int m_adjoint(void *user, uint64_t step)
{
    struct model *m = user;
    unsigned char want[MAX_BYTES];
    state_of(step, want, m->bytes);
    m->wrong_states += memcmp(m->x, want, m->bytes) != 0;
    m->adjoints += 1;
    if (m->damage_pos >= 0 && !m->damaged)
        damage(m);
    return 0;
}

static int m_save(void *user, uint64_t step, void *dst, uint64_t bytes)
{
    const struct model *m = user;
    (void)step;
    memcpy(dst, m->x, bytes < m->bytes ? bytes : m->bytes);
    return bytes == m->bytes ? 0 : 1;
}

static int m_load(void *user, uint64_t step, const void *src, uint64_t bytes)
{
    struct model *m = user;
    (void)step;
    memcpy(m->x, src, bytes < m->bytes ? bytes : m->bytes);
    return bytes == m->bytes ? 0 : 1;
}

static uturn_model_t describe(struct model *m, bool save_load)
{
    state_of(0, m->x, m->bytes);
    m->adjoints = m->wrong_states = 0;
    m->damaged = m->lost = false;
    uturn_model_t d;
    uturn_model_init(&d);
    d.user        = m;
    d.forward     = m_forward;
    d.turn        = m_turn;
    d.adjoint     = m_adjoint;
    d.state_bytes = m->bytes;
    if (save_load) {
        d.save = m_save;
        d.load = m_load;
    } else {
        d.state = m->x;
    }
    return d;
}

/* Store x_i in disk slot 1 + i, restore each on the way down. */
static uturn_plan_t *all_on_disk(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f    = open_memstream(&text, &len);
    if (f == NULL)
        return NULL;
    fprintf(f,
            "uturn-plan 2\nsteps %u\nslots %u\nlevel mem 1 0 0\n"
            "level disk %u 1 1\n",
            STEPS, STEPS + 1, STEPS);
    for (unsigned i = 0; i < STEPS; i++)
        fprintf(f, "store %u %u\nadvance %u %u\n", i, i + 1, i, i + 1);
    fprintf(f, "turn\n");
    for (unsigned i = STEPS; i-- > 0;)
        fprintf(f, "restore %u %u\nreverse %u\nfree %u\n", i, i + 1, i, i + 1);
    fclose(f);
    uturn_plan_t *plan = NULL;
    if (uturn_plan_parse(text, len, NULL, &plan, NULL) != UTURN_OK)
        plan = NULL;
    free(text);
    return plan;
}

struct setting {
    uint64_t bytes, pos;
    bool synchronous, save_load;
    int victim_rank;
};

/* What every rank must see after the damaged run. */
static bool expect_agreed(uturn_status_t st, const uturn_error_t *err,
                          const uturn_mpi_report_t *all,
                          const uturn_report_t *rep, const struct model *m,
                          const struct setting *c)
{
    char line[512];
    snprintf(line, sizeof line,
             "%llu-byte states, byte %llu of x_%u flipped on rank %d (sync "
             "%d, save/load %d): %s \"%s\"",
             (unsigned long long)c->bytes, (unsigned long long)c->pos, VICTIM,
             c->victim_rank, c->synchronous, c->save_load,
             uturn_status_name(st), err->message);
    char prefix[64], named[64];
    snprintf(prefix, sizeof prefix, "rank %d of %d: ", c->victim_rank, ranks);
    snprintf(named, sizeof named, "checkpoint x_%u ", VICTIM);
    bool ok = check(st == UTURN_E_IO && err->status == UTURN_E_IO, line);
    ok &= check(strncmp(err->message, prefix, strlen(prefix)) == 0, line);
    ok &= check(strstr(err->message, named) != NULL, line);
    ok &= check(strstr(err->message, "checksum mismatch") != NULL, line);
    ok &=
        check(all->status == UTURN_E_IO && all->failed_rank == c->victim_rank &&
                  all->failed_ranks == 1,
              "the combined report names the damaged rank alone");
    ok &= check(m->wrong_states == 0, "an adjoint saw a damaged state");
    if (my_rank == c->victim_rank) {
        ok &= check(m->damaged && !m->lost, "the damage was made");
        ok &= check(strstr(err->message, m->where) != NULL, line);
        ok &= check(rep->status == UTURN_E_IO && rep->failed_step == VICTIM,
                    "this rank's own report names x_3");
        ok &= check(m->adjoints == STEPS - 1 - VICTIM, "the run went on");
    } else {
        ok &= check(rep->status == UTURN_OK && m->adjoints == STEPS,
                    "an undamaged rank runs to its end");
    }
    return ok;
}

static bool run_case(const uturn_mpi_plan_t *mp, const struct setting *c)
{
    char parent[] = "/tmp/uturn-mpi-sum-XXXXXX";
    bool ok       = check(mkdtemp(parent) != NULL, "mkdtemp");
    uturn_storage_t file;
    uturn_storage_init(&file);
    file.kind        = UTURN_STORAGE_FILE;
    file.directory   = parent;
    file.synchronous = c->synchronous;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels             = &file;
    o.level_count        = 1;
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_open(&o, &ex, NULL) == UTURN_OK, "executor");
    static struct model m;
    m = (struct model){.bytes = c->bytes, .parent = parent};
    ok &= check(uturn_executor_slot_bytes(ex, c->bytes, &m.stride) == UTURN_OK,
                "stride");
    m.damage_pos    = my_rank == c->victim_rank ? (long)c->pos : -1;
    uturn_model_t d = describe(&m, c->save_load);
    uturn_report_t rep;
    uturn_mpi_report_t all;
    uturn_error_t err;
    uturn_report_init(&rep);
    uturn_mpi_report_init(&all);
    uturn_error_init(&err);
    /* The model exchanges nothing: the run may return (not abort). */
    uturn_mpi_run_options_t ro;
    uturn_mpi_run_options_init(&ro);
    ro.local_callbacks = true;
    uturn_status_t st  = uturn_mpi_run(mp, ex, &d, &ro, NULL, &rep, &all, &err);
    ok &= expect_agreed(st, &err, &all, &rep, &m, c);
    m.damage_pos = -1;
    d            = describe(&m, c->save_load);
    st           = uturn_mpi_run(mp, ex, &d, &ro, NULL, NULL, NULL, &err);
    ok &= check(st == UTURN_OK && m.adjoints == STEPS && m.wrong_states == 0,
                "the next run succeeds everywhere");
    uturn_executor_free(ex);
    ok &= check(rmdir(parent) == 0, "nothing left in the level directory");
    return ok;
}

static bool every_case(const uturn_mpi_plan_t *mp)
{
    static const uint64_t sizes[] = {1, 17, 64, MAX_BYTES};
    bool ok                       = true;
    int cases                     = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int which = 0; which < 3; which++) {
            const uint64_t b   = sizes[s];
            const uint64_t pos = which == 0 ? 0 : which == 1 ? b / 2 : b - 1;
            if (which > 0 && pos == (which == 1 ? 0 : b / 2))
                continue; /* a one-byte state has one position */
            for (int mode = 0; mode < 4; mode++, cases++) {
                const struct setting c = {.bytes       = b,
                                          .pos         = pos,
                                          .synchronous = mode / 2 == 1,
                                          .save_load   = mode % 2 == 1,
                                          .victim_rank =
                                              1 + cases % (ranks - 1)};
                ok &= run_case(mp, &c);
            }
        }
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    bool ok = check(ranks >= 2, "mpi_checksum needs at least two ranks");
    uturn_plan_t *plan   = all_on_disk();
    uturn_mpi_plan_t *mp = NULL;
    uturn_error_t err;
    uturn_error_init(&err);
    ok &= check(plan != NULL, "the plan text parses");
    if (ok)
        ok &= check(uturn_mpi_plan_adopt(MPI_COMM_WORLD, plan, NULL, &mp, NULL,
                                         &err) == UTURN_OK,
                    err.message);
    if (everywhere(ok))
        ok &= every_case(mp);
    uturn_mpi_plan_free(mp);
    uturn_plan_free(plan);
    ok = everywhere(ok);
    if (my_rank == 0)
        printf(ok ? "ok checksum on %d ranks\n" : "FAIL checksum on %d ranks\n",
               ranks);
    MPI_Finalize();
    return ok ? 0 : 1;
}
