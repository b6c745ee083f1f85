/* uturn durable: what a durable directory holds, read once
 * (cli_durable_scan.c), for show and remove of a run across MPI ranks
 * (cli_durable_ranks.c). */
#ifndef UTURN_CLI_DURABLE_H_INCLUDED
#define UTURN_CLI_DURABLE_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most rank-R parts a directory may hold. */
#define CLI_MOST_RANKS ((size_t)1 << 20)

struct cli_ranks {
    bool plain;      /* DIR/lock or DIR/manifest: a run of one process */
    bool has_commit; /* an entry named commit */
    uint64_t *rank;  /* R of each rank-R entry (any kind), increasing */
    size_t count;
};

/* Read DIR's entries into *out: 0, or an errno (E2BIG: more than
 * CLI_MOST_RANKS parts). */
int cli_ranks_scan(const char *dir, struct cli_ranks *out);
void cli_ranks_free(struct cli_ranks *r);
/* Whether rank-R is among the entries. */
bool cli_ranks_has(const struct cli_ranks *r, uint64_t rank);
/* Print "label text" as one line of show: text's printing ASCII as
 * itself, a backslash doubled, any other byte as \xHH (cli_durable.c). */
void cli_durable_line(const char *label, const char *text);

#endif
