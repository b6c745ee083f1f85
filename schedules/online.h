/*
 * The online planner's parts (schedules/online*.c): checkpointing when the
 * number of steps is unknown. The generator state is one flat block of
 * uturn__ol_state_bytes() bytes with no pointer inside (a cursor may be
 * copied with memcpy), the header below followed by arrays of cap or
 * cap * cap words; nothing here allocates.
 *
 * The stream, with s slots (x_0's included):
 *
 *   store 0 0, advance 0 1 | [free k] [store 1 k] advance 1 2 | ...
 *   | (the caller said "last" after advance n-1 n) [free ...] turn,
 *     [restore, advance, free, store] ..., reverse n-1, ..., reverse 0, free
 *
 * During the first sweep a fill stops right after each `advance i i+1`;
 * the decisions about x_{i+1} (frees and a store) come with the next fill.
 * After the end the fills write the reversal, planned exactly for the
 * checkpoints held at that moment (online_dp.c), then 0.
 *
 * Two modes: uniform (s states fit) and bytes (a byte budget; the size of
 * x_i is given once x_i exists, and the plan never holds more than the
 * budget whatever sizes arrive).
 */
#ifndef UTURN_ONLINE_H_INCLUDED
#define UTURN_ONLINE_H_INCLUDED

#include "planner.h"
#include "segwalk.h"

__extension__ typedef unsigned __int128 uturn__u128;

#define INF UINT64_MAX
/* The size of a state was not given (bytes mode): stops the plan. */
#define UTURN__OL_NEED_SIZE 1000

enum phase { PH_START, PH_SWEEP, PH_REVERSE, PH_DONE };
enum rstage { RS_FREE, RS_TURN, RS_RANGE, RS_WALK };

struct hdr {
    uint64_t cap;       /* slots the arrays are sized for */
    uint64_t s;         /* slot capacity (uniform mode) */
    uint64_t max_steps; /* 0 = unknown */
    uint64_t m;         /* live step of the first sweep */
    uint64_t n;         /* steps, once known */
    uint64_t k;         /* held checkpoints, x_0 included */
    uint64_t nfree;     /* entries on the free-slot stack */
    uint64_t lim2;      /* (s+1)(s+2)/2: the exact band-1 range */
    uint64_t rep_now;   /* rep(m + 2, rep_s), the store threshold */
    uint64_t rep_s;     /* slots rep_now was computed for */
    uint64_t d;         /* band rule: depth of the chain */
    uint64_t next_trig; /* band rule: earliest trigger step */
    uint64_t sched;     /* s = 2, 3: next scheduled step or table row */
    uint64_t tri;       /* s = 2: triangular index */
    uint64_t budget, size0, size_max, size_live, s_cur; /* bytes mode */
    uint64_t nranges, cur_range, free_scan, predicted;
    struct uturn__walk walk; /* the reversal of the current range */
    int phase, rstage, status, fatal, bytes, have_size, after_advance,
        overflow;
};

/* The arrays that follow the header, every one of cap or cap*cap words. */
struct view {
    struct hdr *h;
    uint64_t *held, *hslot, *hbytes, *freestk;
    uint64_t *P, *Q, *R;    /* band rule chain */
    uint64_t *F, *ch, *LB;  /* dynamic program, cap*cap each */
    uint64_t *re, *rb, *rc; /* reversal ranges: start, base, slots */
    uint64_t *stk;          /* walker frames, 4 words each */
    uint64_t *L, *off, *A, *B, *asg, *used; /* scratch */
};

enum { VEC_WORDS = 20, MAT_WORDS = 3 };

/* A decision about x_m: whether to store it and which held index to evict
 * first (0 = none). */
struct decision {
    bool store;
    uint64_t victim;
};

/* The reversal's choice (online_dp.c): its cost and its last block. */
struct best {
    uint64_t cost, i, j, K;
};

static inline struct view uturn__ol_view(void *state)
{
    struct view v;
    v.h              = state;
    const uint64_t c = v.h->cap, w = c + 1;
    uint64_t *p      = (uint64_t *)(void *)(v.h + 1);
    uint64_t **vecs[] = {&v.held, &v.hslot, &v.hbytes, &v.freestk, &v.P,
                         &v.Q,    &v.R,     &v.re,     &v.rb,      &v.rc,
                         &v.L,    &v.off,   &v.A,      &v.B,       &v.asg,
                         &v.used};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++, p += w)
        *vecs[i] = p;
    v.stk = p;
    p += 4 * w;
    v.F  = p;
    v.ch = p + c * c;
    v.LB = p + 2 * c * c;
    return v;
}

static inline uint64_t uturn__ol_pop(struct view *v)
{
    return v->freestk[--v->h->nfree];
}

static inline void uturn__ol_push(struct view *v, uint64_t slot)
{
    v->freestk[v->h->nfree++] = slot;
}


/* The planner's own status as the library's (a missing size is the
 * caller's bad call). */
static inline uturn_status_t uturn__ol_status_of(int st)
{
    return st == UTURN__OL_NEED_SIZE ? UTURN_E_INVALID_ARG
                                     : (uturn_status_t)st;
}

/* The state block and the first sweep (online_sweep.c). */
size_t uturn__ol_state_bytes(uint64_t slots, uint64_t max_steps);
void uturn__ol_init(void *state, uint64_t cap, uint64_t max_steps);
void uturn__ol_start(void *state, uint64_t slots, uint64_t max_steps);
void uturn__ol_start_bytes(void *state, uint64_t max_slots, uint64_t max_steps,
                           uint64_t budget_bytes);
int uturn__ol_status(const void *state);
uint64_t uturn__ol_steps(const void *state);
uint64_t uturn__ol_forward(const void *state);
uint64_t uturn__ol_min_bytes(const void *state);
int uturn__ol_fail(struct hdr *h, int status);
uint64_t uturn__ol_bytes_slots(const struct hdr *h, uint64_t size_max);
int uturn__ol_set_size(void *state, uint64_t step, uint64_t bytes);
size_t uturn__ol_sweep_start(struct view *v, uturn_action_t *out);
size_t uturn__ol_sweep_step(struct view *v, uturn_action_t *out, size_t cap);

/* The rules of the first sweep (online_rules.c). */
struct decision uturn__ol_decide(struct view *v, uint64_t m);
uint64_t uturn__ol_cheapest(struct view *v, uint64_t m, uint64_t s);

/* The reversal's dynamic program (online_dp.c): the best plan for the
 * held set, its ranges (re, rb, rc), and its cost alone for tests. */
void uturn__ol_dp(struct view *v, uint64_t s, uint64_t n, struct best *b);
uint64_t uturn__ol_ranges(struct view *v, uint64_t s, uint64_t n,
                          const struct best *b);
uint64_t uturn__ol_reversal_cost(const uint64_t *held, uint64_t k, uint64_t n,
                                 uint64_t s, void *scratch);

/* The end and the reversal's actions (online_walk.c). */
int uturn__ol_end_sweep(struct view *v);
int uturn__ol_end(void *state);
bool uturn__ol_awaits_end(const void *state);
size_t uturn__ol_fill(void *state, uturn_action_t *out, size_t capacity);

#endif
