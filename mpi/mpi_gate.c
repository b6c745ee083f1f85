/*
 * The gate: the point between a rank's preflight and its first callback.
 * uturn_executor_run() checks the model, the budget and the slot memory
 * before it calls anything, and any of those may fail on one rank alone;
 * the others would then start their first forward step and wait in a
 * halo exchange for a rank that has already returned. So every callback
 * of the model goes through the gate: the first one to arrive holds the
 * run's first vote (a rank whose run failed before any callback joins it
 * from uturn_mpi_run(), voting its failure), and when any rank failed,
 * no callback of the model runs anywhere. After that vote the gate costs
 * one predictable branch per callback.
 */
#include "mpi_internal.h"

void uturn__mpi_gate_vote(struct uturn__mpi_gate *g, bool failed)
{
    uturn__mpi_vote_init(&g->vote);
    if (failed)
        uturn__mpi_vote_fail(&g->vote, &g->comm);
    /* key_max: whether any rank's model can say "last". */
    g->vote.key_max = g->user.is_last != NULL;
    /* low[0], high[0]: whether the run keeps its trajectory for sweeps on
     * request (a rank that did not would leave the others' next sweep
     * waiting for it) */
    g->vote.low[0] = g->vote.high[0] = g->on_request;
    g->failed_here                   = failed;
    uturn__mpi_vote(&g->comm, &g->vote);
    g->state = g->vote.failed == 0 ? UTURN__GATE_OPEN : UTURN__GATE_SHUT;
    if (g->state != UTURN__GATE_OPEN)
        return;
    if (g->vote.low[0] != g->vote.high[0])
        g->refusal = "sweeps_on_request differs between the ranks: give "
                     "every rank the same";
    else if (g->online && g->max_steps == 0 && g->vote.key_max == 0)
        g->refusal = "an online plan without max_steps needs is_last in "
                     "some rank's model: its first sweep would never end";
    if (g->refusal != NULL) /* every rank refuses the run, together */
        g->state = UTURN__GATE_SHUT;
}

static int pass(struct uturn__mpi_gate *g)
{
    if (g->state == UTURN__GATE_CLOSED)
        uturn__mpi_gate_vote(g, false);
    return g->state == UTURN__GATE_OPEN ? 0 : UTURN__MPI_REFUSED;
}

int uturn__mpi_gate_pass(struct uturn__mpi_gate *g)
{
    return pass(g);
}

static int gated_forward(void *user, uint64_t step)
{
    struct uturn__mpi_gate *g = user;
    if (g->state != UTURN__GATE_OPEN && pass(g) != 0)
        return UTURN__MPI_REFUSED;
    return g->user.forward(g->user.user, step);
}

static int gated_turn(void *user)
{
    struct uturn__mpi_gate *g = user;
    if (g->state != UTURN__GATE_OPEN && pass(g) != 0)
        return UTURN__MPI_REFUSED;
    return g->user.turn(g->user.user);
}

static int gated_adjoint(void *user, uint64_t step)
{
    struct uturn__mpi_gate *g = user;
    if (g->state != UTURN__GATE_OPEN && pass(g) != 0)
        return UTURN__MPI_REFUSED;
    return g->user.adjoint(g->user.user, step);
}

static int gated_save(void *user, uint64_t step, void *dst, uint64_t bytes)
{
    struct uturn__mpi_gate *g = user;
    if (g->state != UTURN__GATE_OPEN && pass(g) != 0)
        return UTURN__MPI_REFUSED;
    return g->user.save(g->user.user, step, dst, bytes);
}

static int gated_load(void *user, uint64_t step, const void *src,
                      uint64_t bytes)
{
    struct uturn__mpi_gate *g = user;
    if (g->state != UTURN__GATE_OPEN && pass(g) != 0)
        return UTURN__MPI_REFUSED;
    return g->user.load(g->user.user, step, src, bytes);
}

/* Online plans: is_last is this rank's own answer (a rank without one
 * answers "not last"); no call is made here. */
static int gated_is_last(void *user, uint64_t step)
{
    struct uturn__mpi_gate *g = user;
    if (g->state != UTURN__GATE_OPEN && pass(g) != 0)
        return 0; /* the run stops at agree, which follows */
    return g->user.is_last != NULL && g->user.is_last(g->user.user, step) != 0;
}

/* After is_last and the state's share: the run's one collective per
 * first-sweep state (and x_0's, with sizes), the largest end flag and
 * share over the ranks, so that every rank's plan goes the same way; none
 * in the reversal, where nothing is asked. A later state past a rank's
 * budget is simply not kept; an x_0 past it fails every rank at once, and
 * the ranks whose own x_0 fitted leave the blame to those whose did not. */
static int gated_agree(void *user, uint64_t step, int *last, uint64_t *share)
{
    struct uturn__mpi_gate *g = user;
    if (g->state != UTURN__GATE_OPEN && pass(g) != 0)
        return UTURN__MPI_REFUSED;
    uint64_t v[3] = {*last != 0, *share, 0};
    uturn__mpi_max_u64(&g->comm, v, 3);
    if (v[2] != 0) { /* a rank failed since the last vote */
        g->blameless = true;
        g->state     = UTURN__GATE_SHUT;
        return UTURN__MPI_REFUSED;
    }
    if (step == 0 && v[1] > g->share_limit) {
        g->agreed_failure = true; /* every rank fails here, together */
        g->blameless      = *share <= g->share_limit;
    }
    *last         = v[0] != 0;
    *share        = v[1];
    g->sweep_over = *last || (g->max_steps != 0 && step >= g->max_steps);
    return 0;
}

void uturn__mpi_gate_catch_up(struct uturn__mpi_gate *g)
{
    uint64_t v[3] = {0, 0, 1};
    uturn__mpi_max_u64(&g->comm, v, 3);
    g->sweep_over = true;
}

static int gated_forward_record(void *user, uint64_t step, void *record,
                                bool again)
{
    struct uturn__mpi_gate *g = user;
    if (g->state != UTURN__GATE_OPEN && pass(g) != 0)
        return UTURN__MPI_REFUSED;
    return g->user.forward_record(g->user.user, step, record, again);
}

/* A size query, asked during the preflight: passed through, never
 * gated (it must not communicate). */
static uint64_t passed_state_size(void *user, uint64_t step)
{
    struct uturn__mpi_gate *g = user;
    return g->user.state_size(g->user.user, step);
}

/* A durable run's adjoint state (durable points come after the gate has
 * opened, at a durable vote, and a resume's load after the gate's vote
 * too): passed through. */
static int passed_save_adjoint(void *user, void *dst, uint64_t bytes)
{
    struct uturn__mpi_gate *g = user;
    if (g->state != UTURN__GATE_OPEN && pass(g) != 0)
        return UTURN__MPI_REFUSED;
    return g->user.save_adjoint(g->user.user, dst, bytes);
}

static int passed_load_adjoint(void *user, const void *src, uint64_t bytes)
{
    struct uturn__mpi_gate *g = user;
    if (g->state != UTURN__GATE_OPEN && pass(g) != 0)
        return UTURN__MPI_REFUSED;
    return g->user.load_adjoint(g->user.user, src, bytes);
}

/* Callbacks the caller left NULL stay NULL, so that the executor refuses
 * the model exactly as it would without the layer. */
void uturn__mpi_gate_model(struct uturn__mpi_gate *g, uturn_model_t *out)
{
    const uturn_model_t *m = &g->user;
    *out                   = *m;
    out->user              = g;
    out->forward           = m->forward != NULL ? gated_forward : NULL;
    out->turn              = m->turn != NULL ? gated_turn : NULL;
    out->adjoint           = m->adjoint != NULL ? gated_adjoint : NULL;
    out->save              = m->save != NULL ? gated_save : NULL;
    out->load              = m->load != NULL ? gated_load : NULL;
    out->state_size        = m->state_size != NULL ? passed_state_size : NULL;
    out->is_last           = gated_is_last;
    out->agree             = gated_agree;
    out->forward_record =
        m->forward_record != NULL ? gated_forward_record : NULL;
    out->save_adjoint = m->save_adjoint != NULL ? passed_save_adjoint : NULL;
    out->load_adjoint = m->load_adjoint != NULL ? passed_load_adjoint : NULL;
}
