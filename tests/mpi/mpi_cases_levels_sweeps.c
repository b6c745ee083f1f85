/*
 * Several sweeps on three storage levels across ranks: memory, then two
 * file levels of each rank's own (the persistent checkpoints on the last,
 * each segment reversed by hrevolve over the rest). One agreed plan (one
 * fingerprint); uturn_mpi_run takes sweep 1 and uturn_mpi_sweep each
 * further one, every sweep's gradient the store-all reference's bit for
 * bit on every rank, the counts the plan's, and no rank leaves a file in
 * either directory once the trajectory is released.
 */
#define _GNU_SOURCE /* mkdtemp */
#include "mpi_test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LS_STEPS 150u
#define LS_K     3u

static void three_levels(const chain_t *c, uturn_level_t lv[3],
                         uturn_problem_t *p)
{
    const char *names[3]    = {"mem", "ssd", "disk"};
    const uint64_t slots[3] = {3, 4, 8}, io[3] = {0, 1, 4};
    for (int k = 0; k < 3; k++) {
        uturn_level_init(&lv[k]);
        lv[k].name       = names[k];
        lv[k].slots      = slots[k];
        lv[k].write_cost = lv[k].read_cost = io[k];
    }
    uturn_problem_init(p);
    p->planner     = UTURN_PLANNER_REVOLVE;
    p->steps       = c->steps;
    p->slot_bytes  = chain_bytes(c, 0);
    p->levels      = lv;
    p->level_count = 3;
    p->sweeps      = LS_K;
}

/* Whether dir is empty (no entry but . and ..). */
static bool empty(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return false;
    int n = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n == 0;
}

bool case_levels_sweeps(MPI_Comm comm)
{
    chain_t c;
    bool ok = check(chain_init(&c, comm, 300, 300, LS_STEPS), "chain_init");
    char dirs[2][32] = {"/tmp/uturn-mpi-ssd-XXXXXX",
                        "/tmp/uturn-mpi-dsk-XXXXXX"};
    uturn_storage_t files[2];
    for (int j = 0; j < 2; j++) {
        ok &= check(mkdtemp(dirs[j]) != NULL, "mkdtemp");
        uturn_storage_init(&files[j]);
        files[j].kind      = UTURN_STORAGE_FILE;
        files[j].directory = dirs[j];
    }
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels             = files;
    o.level_count        = 2;
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_open(&o, &ex, NULL) == UTURN_OK, "executor");
    uturn_level_t lv[3];
    uturn_problem_t p;
    three_levels(&c, lv, &p);
    uturn_mpi_plan_t *mp = NULL;
    uturn_mpi_plan_info_t info;
    const bool planned = plan_checked(comm, ex, &p, &mp, &info);
    ok &= planned;
    if (planned) {
        ok &= check(same_everywhere(comm, info.fingerprint), "one plan");
        ok &= run_sweeps(&c, ex, mp, true, 0);
    }
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    for (int j = 0; j < 2; j++)
        ok &= check(empty(dirs[j]) && rmdir(dirs[j]) == 0,
                    "nothing left in a level directory");
    chain_free(&c);
    return ok;
}
