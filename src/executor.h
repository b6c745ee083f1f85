/* The executor's objects, shared by executor.c, run_prep.c, run_peak.c
 * and run_loop.c. */
#ifndef UTURN_EXECUTOR_H_INCLUDED
#define UTURN_EXECUTOR_H_INCLUDED

#include "durable.h"
#include "planner.h"
#include "slot_space.h"
#include "storage.h"

#include <pthread.h>

/* Actions read from the generator at a time. */
#define UTURN__BATCH 256

/* A storage level beyond memory, and where its slots live in it. */
struct uturn__level_store {
    struct uturn__storage storage;
    struct uturn__space space;
    bool running;    /* begin_run succeeded: end_run is owed */
    bool overlapped; /* its reads and writes go to the I/O thread */
    /* The last run's counts, for uturn_executor_level_report(). */
    uint64_t stores, restores, held, peak;
    double wait_seconds; /* the run waited for this level's I/O */
};

/* Overlapped I/O (run_io.c): one thread per run performs the reads and
 * writes of every overlapped level, in the order they were asked (so a
 * read after a write of the same slot sees it, and a slot reused after a
 * free is written after the read that emptied it), from buffers reserved
 * in the memory region. */
#define UTURN__IO_JOBS        64
#define UTURN__IO_MAX_BUFFERS 16

enum uturn__io_op { UTURN__IO_WRITE, UTURN__IO_READ, UTURN__IO_DROP };
enum uturn__buf_state {
    UTURN__BUF_FREE,
    UTURN__BUF_FILLING, /* the run's thread is filling it */
    UTURN__BUF_WRITING,
    UTURN__BUF_READING,
    UTURN__BUF_READY /* read, not yet consumed */
};

struct uturn__io_job {
    enum uturn__io_op op;
    uint64_t level; /* 1, 2, .. */
    uint64_t buf, id, offset, bytes, step;
};

struct uturn__io_buf {
    unsigned char *addr;
    enum uturn__buf_state state;
    uint64_t slot, step;   /* READING, READY: which state */
    uturn_status_t status; /* READY: how the read went */
};

struct uturn__io {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    bool started, stop;
    struct uturn__io_job jobs[UTURN__IO_JOBS];
    uint64_t head, tail; /* jobs head .. tail-1 are queued or running */
    struct uturn__io_buf bufs[UTURN__IO_MAX_BUFFERS];
    uint64_t nbufs;
    uint64_t prefetched;               /* READING or READY buffers */
    struct uturn__level_store *levels; /* the executor's */
    /* The first failure; later jobs are skipped. */
    uturn_status_t failed;
    uint64_t failed_level, failed_step;
    size_t scan; /* the batch position read-ahead looks from */
};

struct uturn_executor {
    uturn_allocator_t alloc;       /* the executor's own bookkeeping */
    struct uturn__storage storage; /* the slot region, kept between runs */
    struct uturn__space space;     /* where slots live in it */
    /* Levels 1, 2, .. (uturn_executor_options_t.levels). */
    struct uturn__level_store *levels;
    uint64_t level_count;
    uint64_t io_buffers; /* uturn_executor_options_t.io_buffers */
    unsigned char *gen;  /* generator state, kept */
    size_t gen_bytes;
    uint64_t *hashes; /* verify mode: one per state, kept */
    uint64_t hashes_cap;
    unsigned char *records; /* step records: record_bytes per step, kept */
    uint64_t records_cap;   /* bytes */
    /* The last per-step peak found by simulating a plan (run_peak.c). */
    uint64_t peak_fingerprint, peak_bytes;
    const uturn_plan_t *peak_plan;
    uturn_level_report_t memory_report; /* level 0 in the last run */
    /* A run of several sweeps on request between its sweeps, or NULL
     * (executor.c); it owns the slots and the generator state. */
    struct uturn__run *held;
    /* A run or sweep is under way: a call from one of its callbacks into
     * run, sweep, release or trim is refused or does nothing. */
    bool running;
    uturn_action_t batch[UTURN__BATCH];
};

enum uturn__cost_kind { COST_FORWARD, COST_ADJOINT, COST_COPY, COST_NONE };

/* One run's state; lives on uturn_executor_run()'s stack. */
struct uturn__run {
    uturn_executor_t *ex;
    const uturn_plan_t *plan;
    uint64_t persisted;  /* online runs: the persist actions so far */
    uturn_model_t model; /* the caller's, copied at its size */
    uturn_run_options_t options;
    uturn_error_t *error;
    uint64_t steps;
    bool sized;            /* states differ in size: packed blocks */
    bool contiguous;       /* model.state: memcpy */
    const uint64_t *sizes; /* the plan's step_bytes, or NULL */
    uint64_t stride;       /* uniform: bytes per slot */
    uint64_t state_bytes;  /* uniform: bytes copied per state */
    uint64_t budget;       /* 0: none */
    uint64_t need;         /* region bytes the plan's peak takes */
    uint64_t room;         /* online, bytes mode: region bytes for shares */
    unsigned char *base;   /* the region */
    uint64_t *hashes;      /* verify: hash of x_i, or 0 while unknown */
    bool online;           /* the plan's steps are unknown until its end */
    uint64_t frontier;     /* steps computed once: F_i with i < it again */
    uint64_t record_bytes; /* per step, 0: no records */
    uint64_t levels;       /* the plan's storage levels */
    uint64_t level_base[UTURN__MAX_LEVELS]; /* the first plan slot of each */
    uint64_t buffers;      /* level I/O buffers after level 0's slots */
    unsigned char *buffer; /* the first of them */
    struct uturn__io io;
    uint64_t memory_held, memory_peak; /* level 0's slots, with levels */
    uint64_t held_bytes;               /* bytes held as the plan counts them */
    uint64_t index;                    /* of the current action */
    uturn_stats_t seen;
    uturn_report_t report;
    /* Progress over the whole run (uturn_progress_t). */
    uint64_t work_done, work_total, work_next, work_every;
    double started;
    /* Timing by sampling: see run_loop.c. */
    double spent[3];
    double mean_spent; /* running mean of the timed actions */
    uint64_t countdown, weight, random;
    /* Several sweeps on request: the generator pauses after each sweep. */
    bool on_request;
    /* A durable run (durable_run.c), or NULL; the live state's step as the
     * actions leave it (UTURN_NONE after a reverse), kept for its points. */
    struct uturn__drun *durable;
    uint64_t live;
};

/* Preflight (run_prep.c): check the model and the budget, size storage. */
uturn_status_t uturn__run_prepare(struct uturn__run *run);
/* After the run, on every path: empty the slots, keep what the budget
 * allows. */
void uturn__run_release(struct uturn__run *run);
/* The region bytes a per-step plan's peak takes (run_peak.c). */
uturn_status_t uturn__run_sized_need(struct uturn__run *run, uint64_t *need);
/* The reverse steps of the whole run: n, or k n with k sweeps (the old
 * progress callback's total). */
static inline uint64_t uturn__run_reverse_total(const struct uturn__run *run)
{
    const uint64_t planned = run->plan->stats.reverse_steps;
    if (run->plan->stats.sweeps == UTURN_SWEEPS_UNBOUNDED) {
        /* the sweeps begun so far, each further one asked for: k n for
         * the k-th (once an online plan knows n) */
        const uint64_t n = run->steps, r = run->seen.reverse_steps;
        if (n == 0 || (run->online && r == 0))
            return n;
        const uturn__u128 k = r == 0 ? 1 : (r - 1) / n + 1;
        return k * n > UINT64_MAX ? UINT64_MAX : (uint64_t)(k * n);
    }
    if (!run->online)
        return planned > run->steps ? planned : run->steps;
    /* online: k n once n is known */
    const uint64_t k = run->plan->stats.sweeps;
    const uturn__u128 total = (uturn__u128)(k >= 2 ? k : 1) * run->steps;
    return total > UINT64_MAX ? UINT64_MAX : (uint64_t)total;
}

/* Perform every action of the plan (run_loop.c); with on_request, those
 * up to the end of sweep 1. */
uturn_status_t uturn__run_actions(struct uturn__run *run);
/* Several sweeps on request: the actions of the next sweep. */
uturn_status_t uturn__run_next_sweep(struct uturn__run *run);
/* Shared by the general loop and the fast one (run_loop.c). */
uturn_status_t uturn__run_callback_failed(struct uturn__run *run,
                                          const char *which, uint64_t step,
                                          int rc);
uturn_status_t uturn__run_progress(struct uturn__run *run);
/* Record a timed action of op (spent seconds) and draw the next gap. */
void uturn__run_sampled(struct uturn__run *run, uturn_op_t op, double spent);
uturn_status_t uturn__run_start_generator(struct uturn__run *run);
void uturn__run_start_counters(struct uturn__run *run);
/* The fast loop (run_fast.c): uniform slots at fixed strides, a
 * contiguous state, slot indices used as they are, no verify mode. */
bool uturn__run_fast_applies(const struct uturn__run *run);
uturn_status_t uturn__run_fast(struct uturn__run *run);
/* The fast loop without progress callbacks (run_plain.c). */
bool uturn__run_plain_applies(const struct uturn__run *run);
uturn_status_t uturn__run_plain(struct uturn__run *run);
/* Seconds on a monotonic clock. */
double uturn__now(void);
/* Online runs and step records (run_online.c): room for what steps
 * up to `step` need (hashes, records), grown as the first sweep goes. */
uturn_status_t uturn__run_reserve_steps(struct uturn__run *run, uint64_t step);
/* One forward step, with its record when the model keeps them. */
int uturn__run_forward(struct uturn__run *run, uint64_t step);
/* After a batch of an online plan: the end asked, the next size given. */
uturn_status_t uturn__run_online_step(struct uturn__run *run,
                                      const uturn_action_t *last);
/* An online plan's n, once known, into the run and its counts. */
void uturn__run_online_known(struct uturn__run *run);
/* After the last action of an online plan: an error unless its first
 * sweep ended (the model said "last", or max_steps) before it stopped. */
uturn_status_t uturn__run_online_done(struct uturn__run *run);
/* Levels beyond memory (run_levels.c): open the executor's, check a
 * plan's against them and begin their run, end it on every path. */
uturn_status_t uturn__levels_open(uturn_executor_t *ex,
                                  const uturn_storage_t *levels, uint64_t count,
                                  uturn_error_t *error);
void uturn__levels_close(uturn_executor_t *ex);
uturn_status_t uturn__run_levels_begin(struct uturn__run *run);
/* After the run: the I/O thread stopped, every level's run ended, level
 * 0's counts kept for uturn_executor_level_report(). */
void uturn__run_levels_end(struct uturn__run *run);
/* Memory buffers for states in flight to and from a plan's levels. */
uint64_t uturn__level_buffers(const uturn_executor_t *ex,
                              const uturn_plan_t *plan);
uint64_t uturn__level_buffers_for(const uturn_executor_t *ex,
                                  uint64_t level_count);
/* A slot of level k >= 1 (run_level_io.c). A store takes a buffer to fill
 * (addr NULL: write from the model's state), then puts it; a restore gets
 * the state's bytes at *src and releases the buffer once copied out. */
uturn_status_t uturn__level_buffer(struct uturn__run *run, uint64_t level,
                                   uint64_t *buf, unsigned char **addr);
uturn_status_t uturn__level_put(struct uturn__run *run, uint64_t level,
                                const uturn_action_t *a, uint64_t buf,
                                const void *src, uint64_t bytes);
uturn_status_t uturn__level_get(struct uturn__run *run, uint64_t level,
                                const uturn_action_t *a, uint64_t bytes,
                                uint64_t *buf, const void **src);
void uturn__level_release(struct uturn__run *run, uint64_t buf);
uturn_status_t uturn__level_free(struct uturn__run *run, uint64_t level,
                                 const uturn_action_t *a);
/* Read-ahead from batch[from] on; the I/O thread's queue drained. */
void uturn__level_ahead(struct uturn__run *run, const uturn_action_t *batch,
                        size_t from, size_t count);
uturn_status_t uturn__levels_drain(struct uturn__run *run);
/* The I/O thread (run_io.c); waits are added to *waited. */
uturn_status_t uturn__io_start(struct uturn__io *io,
                               struct uturn__level_store *levels,
                               unsigned char *buffers, uint64_t count,
                               uint64_t stride);
void uturn__io_stop(struct uturn__io *io);
uturn_status_t uturn__io_acquire(struct uturn__io *io, double *waited,
                                 uint64_t *buf);
void uturn__io_release(struct uturn__io *io, uint64_t buf);
uturn_status_t uturn__io_submit(struct uturn__io *io,
                                const struct uturn__io_job *j, uint64_t slot,
                                double *waited);
bool uturn__io_find(struct uturn__io *io, uint64_t slot, uint64_t step,
                    uint64_t *buf);
uturn_status_t uturn__io_wait_read(struct uturn__io *io, uint64_t buf,
                                   double *waited);
uturn_status_t uturn__io_drain(struct uturn__io *io, double *waited);
bool uturn__io_spare(struct uturn__io *io, uint64_t *buf);
/* Bytes of x_step as the model holds it (run_loop.c). */
uint64_t uturn__run_data_bytes(const struct uturn__run *run, uint64_t step);
/* The level of plan slot k. */
static inline uint64_t uturn__run_level(const struct uturn__run *run,
                                        uint64_t slot)
{
    uint64_t k = 0;
    while (k + 1 < run->levels && slot >= run->level_base[k + 1])
        k++;
    return k;
}
/* Perform one action (run_loop.c); a durable run's resume re-makes its
 * slots by stores through it. */
uturn_status_t uturn__run_perform(struct uturn__run *run,
                                  const uturn_action_t *a);
/* The address of a held memory slot (run_loop.c). */
unsigned char *uturn__run_slot_addr(const struct uturn__run *run,
                                    uint64_t slot);

/* A durable run's state (durable_run.c, durable_point.c,
 * durable_resume.c). */
struct uturn__dheld {
    uint64_t step; /* UTURN_NONE: the slot is empty */
    uint64_t hash, bytes;
    bool durable; /* its bytes are in the directory under its name */
};

struct uturn__drun {
    int dirfd, lockfd;
    char *path;      /* for messages: the caller's text, or "..." and its
                      * last 93 bytes when longer than 96 */
    char real[4096]; /* its absolute path at the start ("": unknown) */
    char tag[UTURN__DURABLE_TAG];
    double interval, next_due;
    volatile sig_atomic_t *request;
    uint64_t point;            /* the last complete point's number */
    struct uturn__dheld *held; /* by plan slot */
    uint64_t held_cap;
    unsigned char *scratch;
    uint64_t scratch_cap;
    struct uturn__manifest resume; /* the point to resume from */
    bool resuming;
    /* per-step data in files that only grow: step records, and an
     * online plan's shares (each state's, x_0 first; read back at resume
     * for the replay) */
    struct uturn__dgrow records, share_file;
    /* a resumed run's first advance starts `shifted_by` steps into the
     * plan's action `shifted_action` (UTURN_NONE: none) */
    uint64_t shifted_action, shifted_by;
    uint64_t *shares;
    uint64_t nshares, shares_cap;
};

/* A generator taken to a durable point (durable_replay.c): gen started,
 * batch of UTURN__BATCH; each (may be NULL) sees every action before the
 * point. */
struct uturn__replay {
    const uturn_plan_t *plan;
    unsigned char **gen; /* grown as the plan asks (uturn__gen_set_size) */
    size_t *gen_bytes;
    const uturn_allocator_t *alloc;
    uturn_action_t *batch;
    const struct uturn__manifest *m;
    const uint64_t *shares; /* an online plan's, or none */
    uint64_t nshares;
    void (*each)(void *context, const uturn_action_t *a, size_t n);
    void *context;
};
/* Fill batches until the one that holds the point's action (or ends
 * right before it): *done actions before that batch, *count in it. false:
 * the plan ends first, or what the run learnt cannot be told again. */
bool uturn__replay_to(const struct uturn__replay *r, uint64_t *done,
                      size_t *count);

/* Before the run's first callback: the options checked, the directory
 * made, locked and read; a point to resume from checked against the plan
 * and the model. Sets run->durable (NULL when the run is not durable). */
uturn_status_t uturn__durable_open(struct uturn__run *run);
/* The point to resume from against the plan's actions up to it (held
 * checkpoints, live state, counts), before any callback
 * (durable_check.c). */
uturn_status_t uturn__durable_verify(struct uturn__run *run,
                                     const struct uturn__manifest *m);
/* After the run, on every path: a complete run removes its files; every
 * run gives back the lock. */
void uturn__durable_close(struct uturn__run *run, uturn_status_t status);
/* Write a durable point: `into` forward steps done into the action at
 * run->index (an advance), else 0; `asked` what was asked for
 * (UTURN_DURABLE_STOP: UTURN_E_STOPPED once written). */
uturn_status_t uturn__durable_point(struct uturn__run *run, uint64_t into,
                                    int asked);
/* A resumed run: the generator taken to the point's action (its batch in
 * ex->batch, from *from of *count), the slots, live state and adjoint
 * re-made, the counts the point's. */
uturn_status_t uturn__durable_resume(struct uturn__run *run, size_t *from,
                                     size_t *count);
/* Step records (durable_records.c): the ones written since the last
 * point appended to the file `records`, their count and hash into m; at
 * resume, read back; the hash's state freed. */
uturn_status_t uturn__durable_records(struct uturn__run *run,
                                      struct uturn__manifest *m);
uturn_status_t uturn__durable_records_load(struct uturn__run *run);
/* An online plan's share of x_step, as the run learnt it (in order). */
uturn_status_t uturn__durable_share(struct uturn__run *run, uint64_t step,
                                    uint64_t share);
/* The point's shares, read back and checked (before any callback). */
uturn_status_t uturn__durable_shares_load(struct uturn__run *run);
void uturn__durable_records_free(struct uturn__drun *d);
/* A store or a free of plan slot a->slot, for the durable slot table. */
uturn_status_t uturn__durable_stored(struct uturn__run *run,
                                     const uturn_action_t *a);
void uturn__durable_freed(struct uturn__run *run, uint64_t slot);
/* A point if one is due (asked for, or the interval passed; agreed with
 * the other processes when a layer says so): `into` as for
 * uturn__durable_point(). */
uturn_status_t uturn__durable_check(struct uturn__run *run, uint64_t into);

/* Give back the region and every table (executor.c). */
void uturn__executor_trim(uturn_executor_t *ex);

#endif
