/*
 * Reading plan text one line at a time, shared by uturn_plan_parse() (a
 * whole text in memory, actions kept in the plan) and the streaming reader
 * (uturn_reader_*: text in pieces, actions validated and dropped). The
 * grammar is in planfile_line.c; memory grows with the per-step arrays a
 * text declares only once their values are in the text, never with a
 * number the text merely states.
 */
#ifndef UTURN_PLANFILE_H_INCLUDED
#define UTURN_PLANFILE_H_INCLUDED

#include "validator.h"

/* The longest level name plan text takes, with its NUL. */
#define UTURN__LEVEL_NAME 64

enum uturn__header {
    UTURN__H_STEPS,
    UTURN__H_SLOTS,
    UTURN__H_SLOT_BYTES,
    UTURN__H_BUDGET,
    UTURN__H_PLANNER,
    UTURN__H_FINGERPRINT,
    UTURN__H_SWEEPS,
    UTURN__H_COUNT
};

struct uturn__planfile {
    uturn_allocator_t alloc;
    uturn_problem_t problem;    /* steps, slots, slot_bytes, budget_bytes */
    uint64_t *step_bytes;       /* owned until taken by a plan */
    uint64_t *step_costs;       /* owned until taken by a plan */
    uint64_t line;              /* 1-based number of the line being read */
    bool magic;                 /* "uturn-plan 1" or "uturn-plan 2" seen */
    unsigned version;           /* 1 or 2 */
    bool seen[UTURN__H_COUNT];  /* each header at most once */
    uturn_validator_t *validator; /* started at the first action */
    uturn_plan_t *plan;         /* collects the actions, or NULL */
    uturn_status_t failed;      /* sticky: the first failure */
    uturn_error_t failure;      /* its details */
    struct uturn__hasher hash;  /* the fingerprint, from the first action */
    uint64_t hashed;            /* actions fed to it */
    /* Version 2: "level NAME SLOTS W R" headers, fastest first. */
    uint64_t level_count;
    uturn_level_t levels[UTURN__MAX_LEVELS];
    char level_names[UTURN__MAX_LEVELS][UTURN__LEVEL_NAME];
};

/* An empty reader state; alloc is resolved (NULL: malloc). */
void uturn__planfile_init(struct uturn__planfile *p,
                          const uturn_allocator_t *alloc, uturn_plan_t *plan);
/* Read one line (without its newline; it may hold any bytes). */
uturn_status_t uturn__planfile_line(struct uturn__planfile *p,
                                    const char *text, size_t len);
/* The text ended: check what the end needs, count into observed (its
 * fingerprint is the stream's: the same for the parse and the reader). */
uturn_status_t uturn__planfile_end(struct uturn__planfile *p,
                                   uturn_stats_t *observed);
/* Free what the state still owns (not the plan). */
void uturn__planfile_release(struct uturn__planfile *p);
/* Copy the sticky failure into the caller's error (may be NULL). */
uturn_status_t uturn__planfile_report(const struct uturn__planfile *p,
                                      uturn_error_t *error);

#endif
