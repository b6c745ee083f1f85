/*
 * Storage levels across ranks: every rank gives the same byte budget for
 * memory and for a disk level, with states of different sizes, so each
 * rank's own capacities differ; the agreed plan holds the least of each
 * level on every rank (one fingerprint), every rank's disk is files of its
 * own, the gradient equals the store-all reference bit for bit, the
 * combined report sums what the ranks wrote and read, and no rank leaves a
 * file behind.
 */
#define _GNU_SOURCE /* mkdtemp */
#include "mpi_test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LEVEL_STEPS 300u

/* Entries in dir other than . and .. (-1: cannot read it). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    int n = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void level_problem(const chain_t *c, uturn_level_t lv[2],
                          uturn_problem_t *p)
{
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].name  = "mem";
    lv[0].bytes = 64u * 1024u; /* 8000 B states: 6 slots + 2 buffers */
    lv[1].name  = "disk";
    lv[1].bytes = 40u * 8016u; /* 40 slots of 8000 B states, 20 of 16000 */
    lv[1].write_cost = lv[1].read_cost = 3;
    uturn_problem_init(p);
    p->planner     = UTURN_PLANNER_HREVOLVE;
    p->steps       = c->steps;
    p->slot_bytes  = chain_bytes(c, 0);
    p->levels      = lv;
    p->level_count = 2;
}

static bool run_levels(const uturn_mpi_plan_t *mp, uturn_executor_t *ex,
                       chain_t *c, const char *dir)
{
    uturn_model_t model;
    chain_model(c, false, &model);
    chain_reset(c);
    uturn_mpi_report_t all;
    uturn_mpi_report_init(&all);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_mpi_run(mp, ex, &model, NULL, NULL, NULL, &all, &err);
    bool ok = check(st == UTURN_OK, err.message);
    double *ref = calloc(c->len[0], sizeof *ref);
    ok &= check(ref != NULL && chain_reference(c, ref), "reference");
    chain_reset(c);
    ok &= check(uturn_mpi_run(mp, ex, &model, NULL, NULL, NULL, &all, &err) ==
                    UTURN_OK,
                err.message);
    ok &= check(memcmp(ref, c->xbar, c->len[0] * sizeof *ref) == 0,
                "the gradient through memory and disk equals the reference");
    free(ref);
    uturn_level_report_t disk;
    uturn_level_report_init(&disk);
    ok &= check(uturn_executor_level_report(ex, 1, &disk) == UTURN_OK,
                "level report");
    ok &= check(disk.bytes_written > 0, "this rank wrote to its disk");
    ok &= check(all.levels == 1 &&
                    all.level_bytes_written_sum[0] ==
                        sum_over(c->comm, disk.bytes_written) &&
                    all.level_bytes_read_sum[0] ==
                        sum_over(c->comm, disk.bytes_read),
                "the combined report sums every rank's disk bytes");
    ok &= check(entries(dir) == 0, "the rank's level directory is empty");
    return ok;
}

bool case_levels(MPI_Comm comm)
{
    chain_t c;
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const uint64_t m = 1000u * (uint64_t)(rank % 2 + 1);
    bool ok = check(chain_init(&c, comm, m, m, LEVEL_STEPS), "chain_init");
    char dir[] = "/tmp/uturn-mpi-levels-XXXXXX";
    ok &= check(mkdtemp(dir) != NULL, "mkdtemp");
    uturn_storage_t file;
    uturn_storage_init(&file);
    file.kind      = UTURN_STORAGE_FILE;
    file.directory = dir;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = &file;
    o.level_count = 1;
    uturn_executor_t *ex = NULL;
    ok &= check(uturn_executor_open(&o, &ex, NULL) == UTURN_OK, "executor");
    uturn_level_t lv[2];
    uturn_problem_t p;
    level_problem(&c, lv, &p);
    uint64_t mem = 0, disk = 0;
    ok &= check(uturn_executor_level_slots(ex, &p, 0, &mem, NULL) == UTURN_OK &&
                    uturn_executor_level_slots(ex, &p, 1, &disk, NULL) ==
                        UTURN_OK,
                "own capacities");
    uturn_mpi_plan_t *mp = NULL;
    uturn_mpi_plan_info_t info;
    const bool planned = plan_checked(comm, ex, &p, &mp, &info);
    ok &= planned;
    if (planned) {
        uturn_level_stats_t a, b;
        uturn_level_stats_init(&a);
        uturn_level_stats_init(&b);
        uturn_plan_level_stats(uturn_mpi_plan_core(mp), 0, &a);
        uturn_plan_level_stats(uturn_mpi_plan_core(mp), 1, &b);
        ok &= check(a.slots == min_over(comm, mem) &&
                        b.slots == min_over(comm, disk),
                    "each level holds its least capacity over the ranks");
        ok &= check(same_everywhere(comm, info.fingerprint), "one fingerprint");
        ok &= run_levels(mp, ex, &c, dir);
    }
    uturn_mpi_plan_free(mp);
    uturn_executor_free(ex);
    ok &= check(rmdir(dir) == 0, "nothing left in the level directory");
    chain_free(&c);
    return ok;
}
