/* mpi_rd2d's arguments, strips and results (mpi_rd2d_args.c parses and
 * splits, mpi_rd2d_report.c prints; mpi_rd2d.c runs and checks). */
#ifndef UTURN_MPI_RD2D_H_INCLUDED
#define UTURN_MPI_RD2D_H_INCLUDED

#include "rd2d_model.h"

#include <uturn_mpi.h>

#define UTURN_RD2D_MAX_RANKS 64 /* the longest --split / --budgets list */

typedef struct args {
    uint64_t nx, ny, steps;
    uint64_t budget;                        /* every rank's, or ... */
    uint64_t budgets[UTURN_RD2D_MAX_RANKS]; /* ... one per rank */
    int nbudgets;
    uint64_t split[UTURN_RD2D_MAX_RANKS]; /* weights, one per rank */
    int nsplit;
    uint64_t expect_slots;   /* 0: not checked */
    uint64_t expect_forward; /* 0: not checked */
    bool reference;          /* compare with rank 0 alone */
    uint64_t disk;           /* bytes of a file level per rank (0: none) */
    uint64_t disk_cost;      /* its write and read cost, in steps */
    const char *disk_dir;    /* its directory (NULL: $TMPDIR) */
} args_t;

typedef struct strip {
    uint64_t row0, rows;
} strip_t;

typedef struct results {
    int rank, size;
    uint64_t budget;
    uturn_mpi_plan_info_t info;
    uturn_stats_t seen;
    uturn_report_t report;
    uturn_mpi_report_t all;
    double J, single_J; /* distributed, and rank 0 alone */
    bool bitwise;       /* the gradients are equal bit for bit */
    double gd, fd;      /* <dJ/du_0, d> and its finite difference */
    bool fd_ok;
} results_t;

/* Parse the command line (the same on every rank); false after a usage
 * message. */
bool parse_args(int argc, char **argv, int ranks, args_t *a);
/* The rows of rank @p q of @p ranks: shares in proportion to the weights
 * (1 : 2 : .. : ranks without --split). */
strip_t strip_of(const args_t *a, int q, int ranks);
/* Print the per-rank table and the verdicts (rank 0); collective. True
 * when every check passed. */
bool report(const args_t *a, const rd2d_t *m, const results_t *r);

#endif
