/*
 * The model of the budget tests (test_budget.c, test_budget_held.c): a
 * chain of states of 64 doubles, or of 8, 16, 24 or 32 doubles by step
 * (sized), with every callback of a run (contiguous, save/load, is_last)
 * and the exact gradient of its first component. Each callback calls the
 * test's watch, whose answer is the callback's (non-zero: it fails); a
 * save or load of the wrong size returns 9 and is counted.
 */
#ifndef UTURN_BUDGET_CHAIN_H_INCLUDED
#define UTURN_BUDGET_CHAIN_H_INCLUDED

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <uturn.h>

#define BC_MAX_N 48
#define BC_WIDTH 64 /* doubles in the largest state */

struct bc_chain {
    double x[BC_WIDTH], xbar;
    uint64_t width;       /* doubles in a uniform state */
    bool sized;           /* x_i has 8 * (1 + i % 4) doubles */
    uint64_t stop_at;     /* is_last: the last step */
    uint64_t wrong_sizes; /* saves and loads given a wrong size */
    int (*watch)(struct bc_chain *chain);
};

/* A run's chain: x_0, no wrong sizes yet. */
static inline void bc_reset(struct bc_chain *c, bool sized, uint64_t width,
                            uint64_t stop_at)
{
    c->sized   = sized;
    c->width   = sized ? BC_WIDTH : width;
    c->stop_at = stop_at;
    for (uint64_t i = 0; i < BC_WIDTH; i++)
        c->x[i] = 0.1 * (double)i;
}

static inline uint64_t bc_doubles_of(const struct bc_chain *c, uint64_t step)
{
    return c->sized ? 8 * (1 + step % 4) : c->width;
}

static inline int bc_forward(void *u, uint64_t step)
{
    struct bc_chain *c = u;
    for (uint64_t i = 0; i < BC_WIDTH; i++)
        c->x[i] = sin(c->x[i]) + 0.001 * (double)(step + i);
    return c->watch(c);
}

static inline int bc_turn(void *u)
{
    struct bc_chain *c = u;
    c->xbar            = 1.0;
    return c->watch(c);
}

static inline int bc_adjoint(void *u, uint64_t step)
{
    struct bc_chain *c = u;
    (void)step;
    c->xbar *= cos(c->x[0]);
    return c->watch(c);
}

static inline uint64_t bc_size_of(void *u, uint64_t step)
{
    return 8 * bc_doubles_of(u, step);
}

static inline int bc_save(void *u, uint64_t step, void *dst, uint64_t bytes)
{
    struct bc_chain *c = u;
    if (bytes != bc_size_of(u, step)) {
        c->wrong_sizes += 1;
        return 9;
    }
    memcpy(dst, c->x, (size_t)bytes);
    return c->watch(c);
}

static inline int bc_load(void *u, uint64_t step, const void *src,
                          uint64_t bytes)
{
    struct bc_chain *c = u;
    if (bytes != bc_size_of(u, step)) {
        c->wrong_sizes += 1;
        return 9;
    }
    memcpy(c->x, src, (size_t)bytes);
    return c->watch(c);
}

static inline int bc_is_last(void *u, uint64_t step)
{
    const struct bc_chain *c = u;
    return step == c->stop_at;
}

/* The model of a run: contiguous states, or save/load (sizes told by
 * state_size unless the plan has them); is_last for online plans. */
static inline uturn_model_t bc_describe(struct bc_chain *c, bool contiguous,
                                        bool plan_sizes, bool online)
{
    uturn_model_t d;
    uturn_model_init(&d);
    d.user    = c;
    d.forward = bc_forward;
    d.turn    = bc_turn;
    d.adjoint = bc_adjoint;
    d.is_last = online ? bc_is_last : NULL;
    if (contiguous) {
        d.state       = c->x;
        d.state_bytes = 8 * c->width;
        return d;
    }
    d.save        = bc_save;
    d.load        = bc_load;
    d.state_bytes = c->sized ? 0 : 8 * c->width;
    d.state_size  = c->sized && !plan_sizes ? bc_size_of : NULL;
    return d;
}

/* The gradient of x_0[0]'s chain for n steps, computed directly. */
static inline double bc_reference(uint64_t n)
{
    double x[BC_WIDTH], g = 1.0, first[BC_MAX_N];
    for (uint64_t i = 0; i < BC_WIDTH; i++)
        x[i] = 0.1 * (double)i;
    for (uint64_t s = 0; s < n; s++) {
        first[s] = x[0];
        for (uint64_t i = 0; i < BC_WIDTH; i++)
            x[i] = sin(x[i]) + 0.001 * (double)(s + i);
    }
    for (uint64_t s = n; s-- > 0;)
        g *= cos(first[s]);
    return g;
}

#endif
