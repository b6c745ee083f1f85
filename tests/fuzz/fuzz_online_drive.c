/*
 * Driving an online plan the way a time loop does: read the cursor (in
 * batches of the run's size, or one action at a time), give each new
 * state's size after its advance (a byte budget alone), say "this is the
 * last state" after the run's end step, and push every action through a
 * public validator that learns n only then (or, with sizes, is given them
 * all). What the documentation promises of the stream is checked on the
 * way: a read never goes past the next first-sweep advance, the end is
 * refused where it does not apply, the first sweep with storage levels
 * stores only on the last level at multiples of its period.
 */
#include "fuzz_online.h"

#include <string.h>

struct drive {
    const struct run *run;
    uturn_cursor_t *cursor;
    uturn_validator_t *validator;
    struct fz_shape shape;
    uint64_t last;   /* the steps the run ends at: end, or max_steps */
    bool sweep_over; /* the end was said, or the sweep ended itself */
    bool size_missing;
    struct outcome *out;
};

static uint64_t last_step(const struct run *run)
{
    const uint64_t max = run->p.max_steps;
    return max != 0 && max < run->end ? max : run->end;
}

static void make_shape(struct drive *d, const uturn_plan_t *plan)
{
    const struct run *run = d->run;
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    struct fz_shape *s = &d->shape;
    memset(s, 0, sizeof *s);
    uturn_problem_init(&s->validator);
    s->validator.sweeps = run->p.sweeps; /* each sweep with its own turn */
    s->level_count      = 1;
    s->slots[0]         = st.slots;
    if (run->mode == RUN_LEVELS) {
        s->level_count           = run->level_count;
        s->validator.levels      = run->levels;
        s->validator.level_count = run->level_count;
        for (uint64_t k = 0; k < run->level_count; k++) {
            s->slots[k]      = run->levels[k].slots;
            s->write_cost[k] = run->levels[k].write_cost;
            s->read_cost[k]  = run->levels[k].read_cost;
        }
    } else if (run->mode == RUN_BYTES) {
        s->validator.steps        = d->last;
        s->validator.step_bytes   = run->sizes;
        s->validator.budget_bytes = run->p.budget_bytes;
        s->step_bytes             = run->sizes;
        /* The validator counts budget / largest state as its slots (a
         * bug: crashes/wrong-validator-sizes-capacity-of-largest-state.bin,
         * through dp): then it counts slots only, and fuzz_online.c checks
         * the bytes with the tally. */
        if (!fz_slow()) {
            s->validator.budget_bytes = 0;
            s->validator.slots        = st.slots;
        }
    } else {
        s->validator.slots = st.slots;
    }
}

/* Calls that must be refused before the first read. */
static void misuse_first(struct drive *d)
{
    uturn_cursor_t *c = d->cursor;
    CHECK(uturn_cursor_end(c) == UTURN_E_INVALID_ARG);
    if (d->run->mode != RUN_BYTES) {
        CHECK(uturn_cursor_set_size(c, 0, 8) == UTURN_E_UNSUPPORTED);
    } else {
        CHECK(uturn_cursor_set_size(c, 1, 8) == UTURN_E_INVALID_ARG);
    }
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_cursor_stats(c, &st) == UTURN_OK);
    CHECK(st.online && st.steps == UTURN_NONE && st.actions == 0);
}

static size_t read_batch(struct drive *d, uturn_action_t *buf)
{
    if (d->run->batch == 0)
        return uturn_cursor_next(d->cursor, buf) ? 1 : 0;
    size_t got = 0;
    const uturn_status_t st =
        uturn_cursor_read(d->cursor, buf, d->run->batch, &got);
    CHECK(got <= d->run->batch);
    /* a read of nothing: UTURN_OK at the end only; where the plan stopped
     * before its end was said, why (a size not given; levels past their
     * reach), and again on the next read */
    CHECK(st == UTURN_OK || got == 0);
    if (got == 0) {
        CHECK((st == UTURN_OK) == d->sweep_over);
        CHECK(d->sweep_over || st == (d->size_missing ? UTURN_E_INVALID_ARG
                                                      : UTURN_E_INFEASIBLE));
        size_t again = 1;
        CHECK(uturn_cursor_read(d->cursor, buf, d->run->batch, &again) == st &&
              again == 0);
    }
    return got;
}

/* A first-sweep store with levels: on the last level, at a multiple of
 * the period (the first store after x_0's). */
static void check_sweep_store(struct drive *d, const uturn_action_t *a)
{
    struct outcome *o = d->out;
    if (d->run->mode != RUN_LEVELS || d->sweep_over)
        return;
    CHECK(fz_level_of(&d->shape, a->slot) == d->shape.level_count - 1);
    if (o->period == 0 && a->step != 0)
        o->period = a->step;
    if (o->period != 0)
        CHECK(a->step % o->period == 0);
    else
        CHECK(a->step == 0);
}

/* Push one batch; true when its last action is a first-sweep advance. */
static bool push_batch(struct drive *d, const uturn_action_t *buf, size_t got)
{
    struct outcome *o = d->out;
    uturn_error_t error;
    uturn_error_init(&error);
    bool at_advance = false;
    for (size_t i = 0; i < got; i++) {
        const uturn_action_t *a = &buf[i];
        if (uturn_validator_push(d->validator, a, &error) != UTURN_OK) {
            fprintf(stderr, "action %llu: %s\n",
                    (unsigned long long)o->tally.actions, error.message);
            abort();
        }
        fz_tally_add(&o->tally, &d->shape, a);
        if (a->op == UTURN_OP_STORE)
            check_sweep_store(d, a);
        o->ended |= a->op == UTURN_OP_TURN;
        at_advance = !d->sweep_over && a->op == UTURN_OP_ADVANCE &&
                     a->step == o->reached && a->step_end == o->reached + 1;
        /* A read stops at the first-sweep advance where the run may end. */
        CHECK(!at_advance || i + 1 == got);
        if (at_advance)
            o->reached += 1;
    }
    return at_advance;
}

/* The validator learns n (it was given it ahead with sizes). */
static void tell_steps(struct drive *d, uint64_t n)
{
    d->sweep_over = true;
    d->out->steps = n;
    if (d->run->mode == RUN_BYTES)
        return;
    uturn_error_t error;
    uturn_error_init(&error);
    CHECK(uturn_validator_set_steps(d->validator, n, &error) == UTURN_OK);
    CHECK(uturn_validator_set_steps(d->validator, n, &error) ==
          UTURN_E_INVALID_ARG);
}

/* Right after advance m-1 m of the first sweep: the size of x_m, then
 * the end if the run ends here. */
static void after_advance(struct drive *d, uint64_t m)
{
    const struct run *run = d->run;
    if (run->mode == RUN_BYTES && m <= RUN_STEPS) {
        if (m == run->skip_size && m != d->last)
            d->size_missing = true; /* the cursor must stop */
        else
            CHECK(uturn_cursor_set_size(d->cursor, m, run->sizes[m]) ==
                  UTURN_OK);
    }
    if (m == run->end) {
        CHECK(uturn_cursor_end(d->cursor) == UTURN_OK);
        tell_steps(d, m);
        if (run->misuse)
            CHECK(uturn_cursor_end(d->cursor) == UTURN_E_INVALID_ARG);
    } else if (m == run->p.max_steps) {
        tell_steps(d, m); /* the sweep ends by itself */
    }
}

/* Bytes: x_0's size first; false when the budget cannot hold it. */
static bool first_size(struct drive *d)
{
    if (d->run->mode != RUN_BYTES)
        return true;
    const uint64_t x0       = d->run->sizes[0];
    const uturn_status_t st = uturn_cursor_set_size(d->cursor, 0, x0);
    if (x0 > d->run->p.budget_bytes) {
        CHECK(st == UTURN_E_INFEASIBLE);
        return false;
    }
    CHECK(st == UTURN_OK);
    return true;
}

static void finish(struct drive *d)
{
    struct outcome *o = d->out;
    uturn_error_t error;
    uturn_error_init(&error);
    uturn_stats_init(&o->seen);
    const uturn_status_t st =
        uturn_validator_finish(d->validator, &o->seen, &error);
    o->complete = st == UTURN_OK;
    if (o->ended && !o->complete) {
        fprintf(stderr, "finish: %s\n", error.message);
        abort();
    }
    uturn_stats_init(&o->cursor);
    CHECK(uturn_cursor_stats(d->cursor, &o->cursor) == UTURN_OK);
    CHECK(o->cursor.online);
    CHECK(o->cursor.steps == (d->sweep_over ? o->steps : UTURN_NONE));
}

void fz_online_drive(const uturn_plan_t *plan, const struct run *run,
                     struct outcome *out)
{
    memset(out, 0, sizeof *out);
    struct drive d;
    memset(&d, 0, sizeof d);
    d.run  = run;
    d.last = last_step(run);
    d.out  = out;
    make_shape(&d, plan);
    fz_tally_init(&out->tally, 64);
    uturn_error_t error;
    uturn_error_init(&error);
    if (uturn_validator_create(&d.shape.validator, NULL, &d.validator,
                               &error) != UTURN_OK) {
        fprintf(stderr, "validator: %s\n", error.message);
        abort();
    }
    CHECK(uturn_cursor_create(plan, NULL, &d.cursor) == UTURN_OK);
    if (run->misuse)
        misuse_first(&d);
    uturn_action_t buf[64];
    if (first_size(&d)) {
        for (size_t got; (got = read_batch(&d, buf)) != 0;)
            if (push_batch(&d, buf, got))
                after_advance(&d, out->reached);
    }
    finish(&d);
    uturn_action_t extra;
    CHECK(!uturn_cursor_next(d.cursor, &extra)); /* the end stays */
    uturn_cursor_free(d.cursor);
    uturn_validator_free(d.validator);
}
