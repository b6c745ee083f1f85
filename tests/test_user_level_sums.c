/*
 * What goes through a user storage level is checksummed (issue 22,
 * findings 7 and 12). A user level whose get filled half the buffer and
 * returned 0 once gave UTURN_OK and a wrong gradient (and verify mode
 * blamed the model). Here a level that gives back short, stale or damaged
 * states (one byte at the first, a middle and the last position, states
 * of 1, 17, 64 and 4099 bytes) must stop the run with UTURN_E_IO naming
 * the step; a faithful level must run to the truth of a plain loop; a
 * level that declares itself lossy is not checked and the report says
 * lossy.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define STEPS   30
#define IDS     16
#define MAXSIZE 4099

enum damage { NONE, SHORT, STALE, FLIP };

struct level {
    unsigned char bytes[IDS][MAXSIZE];
    uint64_t step[IDS], len[IDS];
    enum damage damage;
    uint64_t pos; /* FLIP: the byte flipped (of every get) */
    uint64_t gets;
};

static int put(void *u, uint64_t id, uint64_t step, const void *src,
               uint64_t bytes)
{
    struct level *l = u;
    if (id >= IDS || bytes > MAXSIZE)
        return 9;
    memcpy(l->bytes[id], src, (size_t)bytes);
    l->step[id] = step;
    l->len[id]  = bytes;
    return 0;
}

static int get(void *u, uint64_t id, uint64_t step, void *dst, uint64_t bytes)
{
    struct level *l = u;
    if (id >= IDS || l->step[id] != step || l->len[id] != bytes)
        return 9;
    l->gets += 1;
    unsigned char *d = dst;
    switch (l->damage) {
    case NONE:
        memcpy(d, l->bytes[id], (size_t)bytes);
        break;
    case SHORT: /* half the state, the rest as the buffer was */
        memcpy(d, l->bytes[id], (size_t)(bytes / 2));
        break;
    case STALE: /* another slot's state, or this one's if alone */
        memcpy(d, l->bytes[(id + 1) % IDS], (size_t)bytes);
        break;
    case FLIP:
        memcpy(d, l->bytes[id], (size_t)bytes);
        d[l->pos] ^= 0x10;
        break;
    }
    return 0;
}

/* The model: a state of `size` bytes, b_{i+1}[j] = 3 b_i[j] + j + i + 1
 * (mod 256); each adjoint step folds the live state into a running hash,
 * so the "gradient" sees every x_i in order. */
struct chain {
    unsigned char x[MAXSIZE];
    uint64_t size, hash;
};

static void step_bytes(unsigned char *x, uint64_t size, uint64_t i)
{
    for (uint64_t j = 0; j < size; j++)
        x[j] = (unsigned char)(3 * x[j] + j + i + 1);
}

static int forward(void *u, uint64_t i)
{
    struct chain *c = u;
    step_bytes(c->x, c->size, i);
    return 0;
}

static int turn(void *u)
{
    struct chain *c = u;
    c->hash         = 1469598103934665603ull;
    return 0;
}

static uint64_t fold(uint64_t h, const unsigned char *x, uint64_t size,
                     uint64_t i)
{
    for (uint64_t j = 0; j < size; j++)
        h = (h ^ x[j]) * 1099511628211ull;
    return h ^ i;
}

static int adjoint(void *u, uint64_t i)
{
    struct chain *c = u;
    c->hash         = fold(c->hash, c->x, c->size, i);
    return 0;
}

static uint64_t plain_hash(uint64_t size)
{
    static unsigned char xs[STEPS][MAXSIZE];
    memset(xs[0], 7, (size_t)size);
    for (uint64_t i = 0; i + 1 < STEPS; i++) {
        memcpy(xs[i + 1], xs[i], (size_t)size);
        step_bytes(xs[i + 1], size, i);
    }
    uint64_t h = 1469598103934665603ull;
    for (uint64_t i = STEPS; i-- > 0;)
        h = fold(h, xs[i], size, i);
    return h;
}

struct outcome {
    uturn_status_t status;
    uint64_t hash, failed_step, gets;
    bool lossy;
    char message[256];
};

/* One memory slot and 8 on the level: hrevolve keeps states there. */
static uturn_plan_t *hrevolve_plan(uturn_executor_t *ex, uint64_t size)
{
    uturn_level_t levels[2];
    uturn_level_init(&levels[0]);
    uturn_level_init(&levels[1]);
    levels[0].slots      = 1;
    levels[1].slots      = 8;
    levels[1].write_cost = levels[1].read_cost = 1;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner          = UTURN_PLANNER_HREVOLVE;
    p.steps            = STEPS;
    p.slot_bytes       = size;
    p.levels           = levels;
    p.level_count      = 2;
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_executor_plan(ex, &p, &plan, NULL), UTURN_OK);
    return plan;
}

static struct outcome run(uint64_t size, enum damage damage, uint64_t pos,
                          bool lossy)
{
    static struct level lv;
    memset(&lv, 0, sizeof lv);
    lv.damage = damage;
    lv.pos    = pos;
    uturn_storage_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.size  = sizeof cb;
    cb.user  = &lv;
    cb.put   = put;
    cb.get   = get;
    cb.lossy = lossy;
    uturn_storage_t level;
    uturn_storage_init(&level);
    level.kind      = UTURN_STORAGE_USER;
    level.callbacks = &cb;
    uturn_executor_options_t eo;
    uturn_executor_options_init(&eo);
    eo.levels            = &level;
    eo.level_count       = 1;
    uturn_executor_t *ex = NULL;
    cr_assert_eq(uturn_executor_open(&eo, &ex, NULL), UTURN_OK);
    uturn_plan_t *plan = hrevolve_plan(ex, size);
    static struct chain c;
    memset(c.x, 7, sizeof c.x);
    c.size = size;
    uturn_model_t m;
    uturn_model_init(&m);
    m.user        = &c;
    m.forward     = forward;
    m.turn        = turn;
    m.adjoint     = adjoint;
    m.state       = c.x;
    m.state_bytes = size;
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    struct outcome o = {0};
    o.status         = uturn_executor_run(ex, plan, &m, NULL, NULL, &rep, &err);
    o.hash           = c.hash;
    o.failed_step    = rep.failed_step;
    o.lossy          = rep.lossy;
    o.gets           = lv.gets;
    memcpy(o.message, err.message, sizeof o.message);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    return o;
}

static const uint64_t sizes[] = {1, 17, 64, MAXSIZE};

Test(user_level_sums, a_faithful_level_gives_the_plain_loops_gradient)
{
    for (size_t k = 0; k < 4; k++) {
        const struct outcome o = run(sizes[k], NONE, 0, false);
        cr_assert_eq(o.status, UTURN_OK, "%s", o.message);
        cr_assert_eq(o.hash, plain_hash(sizes[k]), "size %llu",
                     (unsigned long long)sizes[k]);
        cr_assert_gt(o.gets, 0, "the plan read from the level");
        cr_assert(!o.lossy);
    }
}

static void refused(uint64_t size, enum damage damage, uint64_t pos,
                    const char *words)
{
    const struct outcome o = run(size, damage, pos, false);
    cr_assert_eq(o.status, UTURN_E_IO, "size %llu, damage %d at %llu: %s (%s)",
                 (unsigned long long)size, (int)damage, (unsigned long long)pos,
                 uturn_status_name(o.status), o.message);
    char step[32];
    snprintf(step, sizeof step, "x_%llu", (unsigned long long)o.failed_step);
    cr_assert_neq(o.failed_step, UTURN_NONE);
    cr_assert(strstr(o.message, step) != NULL, "%s", o.message);
    cr_assert(strstr(o.message, words) != NULL, "%s", o.message);
}

Test(user_level_sums, a_short_or_stale_get_stops_the_run)
{
    for (size_t k = 1; k < 4; k++) /* one byte has no half */
        refused(sizes[k], SHORT, 0, "checksum mismatch");
    for (size_t k = 0; k < 4; k++)
        refused(sizes[k], STALE, 0, "checksum mismatch");
}

Test(user_level_sums, one_byte_anywhere_in_a_state_stops_the_run)
{
    for (size_t k = 0; k < 4; k++) {
        const uint64_t n = sizes[k];
        refused(n, FLIP, 0, "checksum mismatch");
        refused(n, FLIP, n / 2, "checksum mismatch");
        refused(n, FLIP, n - 1, "checksum mismatch");
    }
}

Test(user_level_sums, a_lossy_level_is_not_checked_and_says_so)
{
    const struct outcome o = run(64, FLIP, 63, true);
    cr_assert_eq(o.status, UTURN_OK, "%s", o.message);
    cr_assert(o.lossy);
    cr_assert_neq(o.hash, plain_hash(64), "the damage reached the gradient");
    const struct outcome clean = run(64, NONE, 0, true);
    cr_assert_eq(clean.status, UTURN_OK);
    cr_assert(clean.lossy, "lossy is what the level declares");
    cr_assert_eq(clean.hash, plain_hash(64));
}
