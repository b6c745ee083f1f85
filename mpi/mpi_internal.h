/*
 * Declarations shared by the files of the MPI layer. The layer is a client
 * of the public API: it includes <uturn.h> and <mpi.h>, never the core's
 * internal headers.
 */
#ifndef UTURN_MPI_INTERNAL_H_INCLUDED
#define UTURN_MPI_INTERNAL_H_INCLUDED

#include "uturn_mpi.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- allocation (mpi_alloc.c: the only caller of malloc and free) ---- */

/* The caller's allocator, or malloc/free, with a count of the bytes live:
 * a plan made through it reports the memory it holds. */
struct uturn__mpi_alloc {
    uturn_allocator_t base;    /* where the bytes come from */
    uturn_allocator_t counted; /* base, counting into `live`; user = this */
    uint64_t live;
};

/* Set @p a up over @p base (NULL: malloc/free). @p a must not move while
 * anything made with a->counted lives. */
void uturn__mpi_alloc_init(struct uturn__mpi_alloc *a,
                           const uturn_allocator_t *base);
void *uturn__mpi_alloc(const uturn_allocator_t *a, size_t bytes);
void uturn__mpi_free(const uturn_allocator_t *a, void *p, size_t bytes);

/* ---- the layer's communicator and votes (mpi_comm.c, mpi_vote.c) ---- */

/* The layer's duplicate of the caller's communicator, with the datatype
 * and reduction of its votes, and how much it has talked. */
struct uturn__mpi_comm {
    MPI_Comm comm;
    int rank, size;
    MPI_Datatype vote_type;
    MPI_Op vote_op;
    uint64_t collectives; /* collective calls made so far */
    double seconds;       /* spent inside them */
};

/* One rank's contribution to a vote; each field has a fixed reduction, so
 * that a vote is one MPI_Allreduce whatever it decides. */
/* Room in a vote: the run's figures (2) and each level's bytes written and
 * read; the first vote's level capacities. */
#define UTURN__MPI_FIGURES ((int)(2 + 2 * UTURN_MPI_LEVELS))
struct uturn__mpi_vote {
    uint64_t failed;      /* sum: ranks that failed */
    uint64_t failed_rank; /* min: the lowest of them (UINT64_MAX: none) */
    uint64_t key_min;     /* min and max of a value every rank must */
    uint64_t key_max;     /* share: they differ when a rank differs */
    uint64_t low[UTURN__MPI_FIGURES];   /* min */
    uint64_t high[UTURN__MPI_FIGURES];  /* max */
    uint64_t total[UTURN__MPI_FIGURES]; /* sum */
    double seconds_max[UTURN__MPI_FIGURES * 2];
    double seconds_sum[UTURN__MPI_FIGURES];
};

/* The vote's reduction (mpi_vote.c). */
void uturn__mpi_vote_op(MPI_Op *op);
/* Counted collectives on the layer's communicator. */
void uturn__mpi_bcast(struct uturn__mpi_comm *c, void *buf, size_t bytes,
                      int root);
void uturn__mpi_max_u64(struct uturn__mpi_comm *c, uint64_t *values,
                        uint64_t count);

/* Whether MPI can carry messages on @p comm at all: initialized, not
 * finalized, and not MPI_COMM_NULL. The only checks made before the
 * first collective (a rank that fails them cannot take part). */
bool uturn__mpi_usable(MPI_Comm comm);
/* Duplicate @p user (collective) and make the vote's type and operation. */
void uturn__mpi_comm_open(struct uturn__mpi_comm *c, MPI_Comm user);
/* Free them again (collective: MPI_Comm_free). */
void uturn__mpi_comm_close(struct uturn__mpi_comm *c);

/* A vote that changes nothing: every reduction's neutral value. */
void uturn__mpi_vote_init(struct uturn__mpi_vote *v);
/* Set the value every rank must share. */
void uturn__mpi_vote_key(struct uturn__mpi_vote *v, uint64_t key);
/* Record that this rank failed. */
void uturn__mpi_vote_fail(struct uturn__mpi_vote *v,
                          const struct uturn__mpi_comm *c);
/* One MPI_Allreduce: @p v becomes the combined vote. */
void uturn__mpi_vote(struct uturn__mpi_comm *c, struct uturn__mpi_vote *v);

/* ---- agreed errors (mpi_agree.c) ---- */

/* After a vote in which some rank failed: the lowest failing rank
 * broadcasts @p mine (its status and error), and every rank writes the
 * same status and "rank R of P: ..." message into @p out. Returns that
 * status. @p mine may be NULL on ranks that did not fail. */
uturn_status_t uturn__mpi_agree_failure(struct uturn__mpi_comm *c,
                                        const struct uturn__mpi_vote *v,
                                        const uturn_error_t *mine,
                                        uturn_error_t *out);
/* After a vote whose key differs between ranks: find the lowest rank
 * whose @p key differs from rank 0's, and fail every rank with @p status
 * and a message quoting that rank's @p what and rank 0's. */
uturn_status_t uturn__mpi_name_odd_rank(struct uturn__mpi_comm *c, uint64_t key,
                                        const char *what, uturn_status_t status,
                                        uturn_error_t *out);

/* ---- errors and structs (mpi_error.c, mpi_structs.c) ---- */

/* Fill @p error (may be NULL) with @p status and a formatted message.
 * Returns @p status. */
uturn_status_t uturn__mpi_fail(uturn_error_t *error, uturn_status_t status,
                               const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Copy @p in into the caller's @p out, no byte past out->size. */
void uturn__mpi_error_export(const uturn_error_t *in, uturn_error_t *out);
/* The same for any struct whose first field is its size: @p full bytes
 * known to the library. */
void uturn__mpi_export(void *out, const void *in, size_t full);
/* The caller's @p in (may be NULL: the defaults in @p out) read no byte
 * past in->size. */
void uturn__mpi_options_read(const uturn_mpi_options_t *in,
                             uturn_mpi_options_t *out);
void uturn__mpi_run_options_read(const uturn_mpi_run_options_t *in,
                                 uturn_mpi_run_options_t *out);
void uturn__mpi_problem_read(const uturn_problem_t *in, uturn_problem_t *out);

/* ---- the MPI plan (mpi_plan.c) ---- */

struct uturn_mpi_plan {
    struct uturn__mpi_alloc alloc;
    struct uturn__mpi_comm comm;
    uturn_plan_t *plan;           /* owned unless borrowed */
    const uturn_plan_t *borrowed; /* adopted: the caller's */
    uint64_t *step_bytes;         /* this rank's sizes, per-step plans */
    uint64_t steps;
    uint64_t budget_bytes; /* this rank's budget, or 0 */
    uturn_mpi_plan_info_t info;
};

/* A new, empty MPI plan from @p alloc (NULL: malloc), or NULL. */
uturn_mpi_plan_t *uturn__mpi_plan_new(const uturn_allocator_t *alloc);
/* Free what uturn__mpi_plan_new() made and the sizes; not the plan or
 * the communicator. NULL is a no-op. */
void uturn__mpi_plan_delete(uturn_mpi_plan_t *mp);
/* "fingerprint F (planner P, N steps, ...)" for messages. */
void uturn__mpi_plan_text(const uturn_plan_t *plan, uint64_t fp, char *buf,
                          size_t cap);
/* The plan runs use (its own, or the borrowed one). */
const uturn_plan_t *uturn__mpi_plan_of(const uturn_mpi_plan_t *mp);

/* ---- agreement on a problem (mpi_create.c, mpi_shape.c, mpi_uniform.c,
 * mpi_sized.c, mpi_adopt.c) ---- */

/* What creation works with on this rank: the caller's arguments, the MPI
 * plan being made and the layer's communicator. */
struct uturn__mpi_making {
    uturn_mpi_plan_t *mp; /* NULL when it could not be allocated */
    struct uturn__mpi_comm comm;
    const uturn_executor_t *ex;
    uturn_problem_t problem; /* this rank's, read at its size */
    uturn_mpi_options_t options;
    uturn_status_t status; /* this rank's first failure */
    uturn_error_t error;   /* and what it said */
    uint64_t stride;       /* uniform: this rank's slot stride */
    uint64_t own_slots;    /* uniform: its own capacity (max: none) */
    uint64_t agreed_slots; /* uniform: the agreed capacity (0: none) */
    bool limiting;         /* uniform: its capacity is the agreed one */
    uint64_t usable;       /* per-step: bytes its budget can use */
    uint64_t *strides;     /* per-step: s_i */
    uint64_t *units;       /* per-step: u_i, then the costs */
    uint64_t agreed_units; /* per-step: U */
    uturn_plan_t *plan;    /* the agreed plan */
    uint64_t own_cost;     /* compare: this rank's own forward_cost */
    /* Storage levels (uniform states): each level's slots on this rank,
     * then the agreed ones (the least over ranks); the levels planned. */
    uint64_t level_count;
    uint64_t level_own[UTURN_MPI_LEVELS];
    uint64_t level_slots[UTURN_MPI_LEVELS];
    uturn_level_t levels[UTURN_MPI_LEVELS];
    double started;
};

/* Record this rank's first failure (later ones are consequences). */
void uturn__mpi_making_fail(struct uturn__mpi_making *mk, uturn_status_t status,
                            const uturn_error_t *err);
void uturn__mpi_making_failf(struct uturn__mpi_making *mk,
                             uturn_status_t status, uint64_t minimum_slots,
                             uint64_t minimum_bytes, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* The agreed plan of @p agreed, in the MPI plan's counted memory, into
 * mk->plan; false (the failure recorded) when it cannot be made. */
bool uturn__mpi_make_plan(struct uturn__mpi_making *mk,
                          const uturn_problem_t *agreed);
/* Online plans with sizes as the run goes (mpi_online.c). */
bool uturn__mpi_online_sized(const uturn_problem_t *p);
void uturn__mpi_online_prepare(struct uturn__mpi_making *mk);
void uturn__mpi_make_online(struct uturn__mpi_making *mk);
/* The key of what every rank must share, and its text for messages. */
uint64_t uturn__mpi_shape_key(const struct uturn__mpi_making *mk);
/* What ranks must share, as text: items "NAME VALUE" separated by ", ",
 * so that a disagreement names the items that differ. */
#define UTURN__MPI_WHAT 1024
void uturn__mpi_shape_text(const struct uturn__mpi_making *mk, char *buf,
                           size_t cap);
/* Check this rank's problem before the first vote. */
void uturn__mpi_shape_check(struct uturn__mpi_making *mk);

/* Before the first vote: this rank's capacity, or its strides. */
void uturn__mpi_uniform_prepare(struct uturn__mpi_making *mk);
void uturn__mpi_sized_prepare(struct uturn__mpi_making *mk);
/* After it: the agreed plan into mk->plan (a failure is in mk). */
void uturn__mpi_make_uniform(struct uturn__mpi_making *mk,
                             const struct uturn__mpi_vote *first);
void uturn__mpi_make_sized(struct uturn__mpi_making *mk);
/* Storage levels (mpi_levels.c): this rank's capacity of each level, the
 * agreed ones from the first vote, and a problem with given slots. */
void uturn__mpi_levels_prepare(struct uturn__mpi_making *mk);
void uturn__mpi_levels_agree(struct uturn__mpi_making *mk,
                             const struct uturn__mpi_vote *first);
void uturn__mpi_levels_problem(const struct uturn__mpi_making *mk,
                               const uint64_t *slots, uturn_level_t *out,
                               uturn_problem_t *p);

/* A vote's verdict: when some rank failed or the key differs, every rank
 * gets the same status and message in @p error, the making is undone
 * (the communicator freed), and true comes back with the status. */
bool uturn__mpi_settled(struct uturn__mpi_making *mk,
                        const struct uturn__mpi_vote *v, uturn_status_t odd,
                        uint64_t key, const char *what, uturn_error_t *error,
                        uturn_status_t *status);
/* The last vote (failures, fingerprints, costs) and the MPI plan. */
uturn_status_t uturn__mpi_make_finish(struct uturn__mpi_making *mk,
                                      uturn_mpi_plan_t **out,
                                      uturn_mpi_plan_info_t *info,
                                      uturn_error_t *error);

/* ---- the run (mpi_gate.c, mpi_run.c) ---- */

/* Where a rank is at its first callback: the gate is closed until the
 * first vote of the run, then open (every rank passed its preflight) or
 * shut (some rank failed: no callback of the model runs). */
enum uturn__mpi_gate_state {
    UTURN__GATE_CLOSED,
    UTURN__GATE_OPEN,
    UTURN__GATE_SHUT
};

/* What a callback returns when the gate is shut; any non-zero value stops
 * the executor, and the agreed error replaces what it says. */
#define UTURN__MPI_REFUSED 0x7574

struct uturn__mpi_gate {
    struct uturn__mpi_comm comm; /* the plan's, counting this run */
    uturn_model_t user;          /* the caller's model */
    enum uturn__mpi_gate_state state;
    bool failed_here;            /* this rank voted a failure */
    struct uturn__mpi_vote vote; /* the combined vote of the gate */
    uint64_t share_limit;        /* online, sizes: the plan's budget (U) */
    bool agreed_failure;         /* x_0 fits no plan: all ranks fail */
    bool blameless;              /* and this rank's own x_0 fitted */
    /* Online plans: each state of the first sweep has an end vote
     * (gated_agree) until the end is agreed or max_steps is reached. */
    bool online;
    uint64_t max_steps; /* the plan's, 0: none */
    bool sweep_over;    /* no further end vote will come */
    bool on_request;    /* this rank's run has sweeps_on_request */
    /* Why every rank refuses the run together (no rank has is_last and
     * there is no max_steps; sweeps_on_request differs), or NULL. */
    const char *refusal;
};

/* The gate's vote, if it has not been taken (the first callback, or the
 * first durable vote, takes it): 0 open, else UTURN__MPI_REFUSED. */
int uturn__mpi_gate_pass(struct uturn__mpi_gate *g);

/* A durable run across ranks (mpi_durable.c). */
struct uturn__mpi_durable {
    struct uturn__mpi_gate *gate;
    bool active;        /* the run options name a durable directory */
    bool failure_seen;  /* a vote carried a rank's failure */
    uint64_t resume;    /* the committed point resumed from, or 0 */
    uint64_t committed; /* the last point committed by this run */
    bool made_root;     /* rank 0: this run made the root */
    uint64_t votes;
    char root[4096]; /* the caller's directory */
    char shown[100]; /* root as messages name it: whole up to 96 bytes,
                        else "..." and its last 93 (the reason fits) */
    char dir[4200];  /* this rank's part: root/rank-R */
    /* the tag this rank's part is made with: the caller's and the rank,
     * so that a part resumed on another rank is refused (at most 200
     * bytes, the core's bound on durable_tag; one more for its NUL) */
    char tag[201];
};
/* Before the run: the root's commit record read on rank 0 and agreed,
 * the mode chosen (or a refusal, the same on every rank), a fresh start's
 * leftovers cleared, and @p run pointed at this rank's part with the
 * layer's durable_agree and durable_commit. Collective. */
uturn_status_t uturn__mpi_durable_begin(struct uturn__mpi_durable *d,
                                        struct uturn__mpi_gate *g,
                                        uturn_run_options_t *run,
                                        uturn_error_t *error);
/* After this rank's run: its last durable vote (carrying its failure),
 * unless it saw a failure in one. */
void uturn__mpi_durable_end(struct uturn__mpi_durable *d, bool failed);
/* After the agreed end of a complete run: the commit record goes, then
 * every rank's part, then the root when empty. Collective. After an
 * agreed failure before any commit of this run: the root, when this run
 * made it and it is empty (rank 0). */
void uturn__mpi_durable_done(struct uturn__mpi_durable *d,
                             uturn_status_t agreed);

/* The model the executor runs: @p g's, every callback through the gate. */
void uturn__mpi_gate_model(struct uturn__mpi_gate *g, uturn_model_t *out);
/* The gate's vote, with this rank's verdict; sets the state. */
void uturn__mpi_gate_vote(struct uturn__mpi_gate *g, bool failed);
/* A rank whose run failed in an online first sweep, with the other ranks
 * still to vote on the next state's end: its part of that vote, carrying
 * the failure, so that they stop with it (the callbacks being local). */
void uturn__mpi_gate_catch_up(struct uturn__mpi_gate *g);
/* Read a caller's struct no byte past its size (fields it lacks keep
 * their defaults). */
void uturn__mpi_model_read(const uturn_model_t *in, uturn_model_t *out);
void uturn__mpi_core_options_read(const uturn_run_options_t *in,
                                  uturn_run_options_t *out);

#endif
