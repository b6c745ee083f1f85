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
#include "damaged_chain.h"

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

#define STEPS     DC_STEPS
#define VICTIM    DC_VICTIM
#define MAX_BYTES DC_MAX_BYTES

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

/* The chain and the all-on-disk plan: tests/support/damaged_chain.h. */
#define state_of dc_state_of

struct setting {
    uint64_t bytes, pos;
    bool synchronous, save_load;
    int victim_rank;
};

/* What every rank must see after the damaged run. */
static bool expect_agreed(uturn_status_t st, const uturn_error_t *err,
                          const uturn_mpi_report_t *all,
                          const uturn_report_t *rep, const struct dc_model *m,
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
    ok &= check(!m->bad_sizes, "save and load got the state's size");
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
    char parent[]        = "/tmp/uturn-mpi-sum-XXXXXX";
    bool ok              = check(mkdtemp(parent) != NULL, "mkdtemp");
    uturn_executor_t *ex = NULL;
    ok &= check(dc_file_executor(parent, c->synchronous, &ex) == UTURN_OK,
                "executor");
    static struct dc_model m;
    m = (struct dc_model){.bytes = c->bytes, .parent = parent};
    ok &= check(uturn_executor_slot_bytes(ex, c->bytes, &m.stride) == UTURN_OK,
                "stride");
    m.damage_pos    = my_rank == c->victim_rank ? (long)c->pos : -1;
    uturn_model_t d = dc_describe(&m, c->save_load);
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
    d            = dc_describe(&m, c->save_load);
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
    uturn_plan_t *plan   = dc_all_on_disk(NULL);
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
