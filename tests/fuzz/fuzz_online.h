/*
 * The fuzz_online target: a run of an online plan (steps unknown),
 * decoded in fuzz_online.c and driven in fuzz_online_drive.c.
 */
#ifndef UTURN_FUZZ_ONLINE_H_INCLUDED
#define UTURN_FUZZ_ONLINE_H_INCLUDED

#include "fuzz_common.h"

/* The most steps a run takes (sizes are kept for each). */
#define RUN_STEPS 3000u

enum run_mode {
    RUN_SLOTS,  /* a capacity in slots */
    RUN_BUDGET, /* a byte budget of uniform states (slot_bytes) */
    RUN_BYTES,  /* a byte budget alone: each size given as it comes */
    RUN_LEVELS  /* storage levels: the periodic disk schedule */
};

/* A run: the problem, where it ends, what the caller does on the way. */
struct run {
    uturn_problem_t p;
    uturn_level_t levels[FZ_MAX_LEVELS];
    uint64_t level_count;
    enum run_mode mode;
    uint64_t end;                  /* the caller says "last" after x_end */
    uint64_t sizes[RUN_STEPS + 1]; /* RUN_BYTES: the size of each x_i */
    uint64_t skip_size; /* RUN_BYTES: a step whose size is not given, or 0 */
    unsigned batch;     /* read up to this many (0: one at a time) */
    bool misuse;        /* also make the calls that must be refused */
    bool bad_name;      /* a level name uturn_level_t cannot take */
};

/* What a drive saw. */
struct outcome {
    bool ended;           /* the stream reached its turn */
    bool complete;        /* ... and every step was reversed: valid */
    uint64_t steps;       /* n as the run found it */
    uint64_t reached;     /* the furthest state of the first sweep */
    uint64_t period;      /* RUN_LEVELS: the second first-sweep store */
    uturn_stats_t seen;   /* the validator's counts (complete runs) */
    uturn_stats_t cursor; /* uturn_cursor_stats() at the end */
    struct fz_tally tally;
};

/* Drive plan as the run says, every action through a validator: see
 * fuzz_online_drive.c. out->tally must be freed (fz_tally_free). */
void fz_online_drive(const uturn_plan_t *plan, const struct run *run,
                     struct outcome *out);

#endif
