#define _POSIX_C_SOURCE 200809L /* open_memstream */
/* Shared by the libFuzzer targets: see fuzz_common.h. */
#include "fuzz_common.h"

#include <string.h>

/* ---- the input ---- */

uint8_t fz_byte(struct reader *r)
{
    return r->pos < r->size ? r->data[r->pos++] : 0;
}

uint64_t fz_bytes_le(struct reader *r, int count)
{
    uint64_t v = 0;
    for (int i = 0; i < count; i++)
        v |= (uint64_t)fz_byte(r) << (8 * i);
    return v;
}

bool fz_verbose(void)
{
    static int verbose = -1;
    if (verbose < 0)
        verbose = getenv("FUZZ_VERBOSE") != NULL;
    return verbose != 0;
}

bool fz_slow(void)
{
    static int slow = -1;
    if (slow < 0)
        slow = getenv("FUZZ_SLOW") != NULL;
    return slow != 0;
}

void fz_verdict(const char *what)
{
    if (fz_verbose())
        fprintf(stderr, "verdict: %s\n", what);
}

/* ---- revolve's closed form ---- */

u128 fz_binomial(uint64_t a, uint64_t b, u128 cap)
{
    const uint64_t k = a < b ? a : b, base = a < b ? b : a;
    u128 v = 1;
    for (uint64_t i = 1; i <= k; i++) {
        const u128 f = (u128)base + i;
        if (v > U128_MAX / f)
            return cap;
        v = v * f / i;
        if (v >= cap)
            return cap;
    }
    return v;
}

uint64_t fz_revolve_r(uint64_t n, uint64_t s)
{
    const u128 l = (u128)n + 1;
    uint64_t lo = 1, hi = n; /* beta(s, n) >= beta(1, n) = n + 1 */
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (fz_binomial(s, mid, l) >= l)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* t(n+1, s) = r*(n+1) - beta(s+1, r-1), r least with beta(s, r) >= n+1.
 * Exact in 128 bits for n < 2^64. */
u128 fz_revolve_forward(uint64_t n, uint64_t s)
{
    s                = s < n ? s : n;
    const u128 l     = (u128)n + 1;
    const uint64_t r = fz_revolve_r(n, s);
    CHECK(fz_binomial(s, r, l) >= l &&
          (r == 1 || fz_binomial(s, r - 1, l) < l));
    const u128 block = fz_binomial(s + 1, r - 1, U128_MAX);
    CHECK(block < U128_MAX);
    const u128 total = (u128)r * l;
    CHECK(total > block);
    return total - block;
}

/* ---- a checking allocator ---- */

#define HEADER 16 /* keeps the block 16-byte aligned */

static void *arena_alloc(void *user, size_t size)
{
    struct fz_arena *a = user;
    a->calls += 1;
    if (size == 0 || (a->cap != 0 && size > a->cap) || a->calls == a->fail_at ||
        size > SIZE_MAX - HEADER)
        return NULL;
    unsigned char *block = malloc(HEADER + size);
    if (block == NULL)
        return NULL;
    memcpy(block, &size, sizeof size);
    a->live += 1;
    return block + HEADER;
}

static void arena_free(void *user, void *ptr, size_t size)
{
    struct fz_arena *a = user;
    CHECK(ptr != NULL);
    unsigned char *block = (unsigned char *)ptr - HEADER;
    size_t asked         = 0;
    memcpy(&asked, block, sizeof asked);
    CHECK(asked == size); /* free receives the size that was asked for */
    CHECK(a->live > 0);
    a->live -= 1;
    free(block);
}

uturn_allocator_t fz_allocator(struct fz_arena *arena)
{
    const uturn_allocator_t alloc = {arena_alloc, arena_free, arena};
    return alloc;
}

/* ---- counts ---- */

bool fz_stats_equal(const uturn_stats_t *a, const uturn_stats_t *b)
{
    return a->steps == b->steps && a->forward_steps == b->forward_steps &&
           a->recomputed_steps == b->recomputed_steps &&
           a->reverse_steps == b->reverse_steps && a->stores == b->stores &&
           a->restores == b->restores && a->frees == b->frees &&
           a->peak_slots == b->peak_slots && a->peak_bytes == b->peak_bytes &&
           a->actions == b->actions && a->slots == b->slots &&
           a->slot_bytes == b->slot_bytes &&
           a->budget_bytes == b->budget_bytes &&
           a->forward_cost == b->forward_cost &&
           a->recompute_cost == b->recompute_cost &&
           a->recompute_factor == b->recompute_factor;
}

void fz_check_error(uturn_status_t status, const uturn_error_t *error,
                    unsigned allowed)
{
    if ((unsigned)status >= 32 || (allowed & FZ_BIT(status)) == 0) {
        fprintf(stderr, "status %s (%s) is not one of the allowed\n",
                uturn_status_name(status), error->message);
        abort();
    }
    CHECK(error->status == status);
    CHECK(error->message[0] != '\0');
    CHECK(memchr(error->message, '\0', sizeof error->message) != NULL);
}

/* ---- walking a plan ---- */

uint64_t fz_level_of(const struct fz_shape *shape, uint64_t slot)
{
    for (uint64_t k = 0; k + 1 < shape->level_count; k++) {
        if (slot < shape->slots[k])
            return k;
        slot -= shape->slots[k];
    }
    return shape->level_count - 1;
}

void fz_tally_init(struct fz_tally *t, uint64_t slot_count)
{
    memset(t, 0, sizeof *t);
    t->slot_count = slot_count != 0 ? slot_count : 1;
    t->slot_step  = calloc((size_t)t->slot_count, sizeof *t->slot_step);
    CHECK(t->slot_step != NULL);
}

void fz_tally_free(struct fz_tally *t)
{
    free(t->slot_step);
    t->slot_step = NULL;
}

/* Room for slot index `slot` (the validator bounds it by the capacity,
 * which may be huge; a planner uses the low ones). */
static void tally_grow(struct fz_tally *t, uint64_t slot)
{
    if (slot < t->slot_count)
        return;
    CHECK(slot < ((uint64_t)1 << 26));
    uint64_t count = t->slot_count;
    while (count <= slot)
        count *= 2;
    uint64_t *grown = realloc(t->slot_step, (size_t)count * sizeof *grown);
    CHECK(grown != NULL);
    memset(grown + t->slot_count, 0,
           (size_t)(count - t->slot_count) * sizeof *grown);
    t->slot_step  = grown;
    t->slot_count = count;
}

static uint64_t size_of(const struct fz_shape *shape, uint64_t step)
{
    return shape->step_bytes != NULL ? shape->step_bytes[step]
                                     : shape->slot_bytes;
}

static void tally_store(struct fz_tally *t, const struct fz_shape *shape,
                        const uturn_action_t *a)
{
    const uint64_t k = fz_level_of(shape, a->slot);
    tally_grow(t, a->slot);
    CHECK(t->slot_step[a->slot] == 0);
    t->slot_step[a->slot] = a->step + 1;
    t->stores += 1;
    t->held += 1;
    t->bytes += size_of(shape, a->step);
    t->level_stores[k] += 1;
    t->level_held[k] += 1;
    t->cost += shape->write_cost[k];
    t->peak_slots = t->held > t->peak_slots ? t->held : t->peak_slots;
    t->peak_bytes = t->bytes > t->peak_bytes ? t->bytes : t->peak_bytes;
    if (t->level_held[k] > t->level_peak[k])
        t->level_peak[k] = t->level_held[k];
}

static void tally_free_slot(struct fz_tally *t, const struct fz_shape *shape,
                            uint64_t slot)
{
    const uint64_t k = fz_level_of(shape, slot);
    CHECK(slot < t->slot_count && t->slot_step[slot] != 0);
    t->bytes -= size_of(shape, t->slot_step[slot] - 1);
    t->slot_step[slot] = 0;
    t->held -= 1;
    t->level_held[k] -= 1;
    t->frees += 1;
}

void fz_tally_add(struct fz_tally *t, const struct fz_shape *shape,
                  const uturn_action_t *a)
{
    t->actions += 1;
    switch (a->op) {
    case UTURN_OP_ADVANCE:
        t->forward_steps += a->step_end - a->step;
        for (uint64_t i = a->step; i < a->step_end; i++) {
            const uint64_t c =
                shape->step_costs != NULL ? shape->step_costs[i] : 1;
            t->forward_cost += c;
            t->cost += c;
        }
        break;
    case UTURN_OP_STORE:
        tally_store(t, shape, a);
        break;
    case UTURN_OP_RESTORE: {
        const uint64_t k = fz_level_of(shape, a->slot);
        t->restores += 1;
        t->level_restores[k] += 1;
        t->cost += shape->read_cost[k];
        break;
    }
    case UTURN_OP_FREE:
        tally_free_slot(t, shape, a->slot);
        break;
    case UTURN_OP_REVERSE:
        t->reverses += 1;
        break;
    default:
        break;
    }
}

void fz_check_tally(const struct fz_tally *t, const uturn_stats_t *st)
{
    CHECK(t->actions == st->actions);
    CHECK(t->forward_steps == st->forward_steps);
    CHECK(t->forward_cost == st->forward_cost);
    CHECK(t->stores == st->stores && t->restores == st->restores);
    CHECK(t->frees == st->frees && t->reverses == st->reverse_steps);
    CHECK(t->peak_slots == st->peak_slots);
    CHECK(t->peak_bytes == st->peak_bytes);
    CHECK(t->held == 0 && t->bytes == 0);
}

/* The counts the validator saw are the plan's (not its capacity, which
 * the validator takes from the shape). */
static void check_seen(const uturn_stats_t *seen, const uturn_stats_t *st)
{
    CHECK(seen->steps == st->steps);
    CHECK(seen->forward_steps == st->forward_steps);
    CHECK(seen->recomputed_steps == st->recomputed_steps);
    CHECK(seen->reverse_steps == st->reverse_steps);
    CHECK(seen->stores == st->stores && seen->restores == st->restores);
    CHECK(seen->frees == st->frees && seen->actions == st->actions);
    CHECK(seen->peak_slots == st->peak_slots);
    CHECK(seen->forward_cost == st->forward_cost);
    CHECK(seen->recompute_cost == st->recompute_cost);
    CHECK(seen->cost == st->cost);
}

/* Every level's counts: the plan's, the validator's and the tally's. */
static void check_levels(const uturn_plan_t *plan, const uturn_validator_t *v,
                         const struct fz_shape *shape, const struct fz_tally *t)
{
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    CHECK(st.levels == shape->level_count);
    for (uint64_t k = 0; k < shape->level_count; k++) {
        uturn_level_stats_t ls, vs;
        uturn_level_stats_init(&ls);
        uturn_level_stats_init(&vs);
        CHECK(uturn_plan_level_stats(plan, k, &ls) == UTURN_OK);
        CHECK(uturn_validator_level_stats(v, k, &vs) == UTURN_OK);
        CHECK(ls.name != NULL && ls.name[0] != '\0');
        CHECK(ls.write_cost == shape->write_cost[k]);
        CHECK(ls.read_cost == shape->read_cost[k]);
        CHECK(ls.stores == t->level_stores[k] && vs.stores == ls.stores);
        CHECK(ls.restores == t->level_restores[k] &&
              vs.restores == ls.restores);
        CHECK(ls.peak_slots == t->level_peak[k] &&
              vs.peak_slots == ls.peak_slots);
        CHECK(ls.peak_slots <= ls.slots);
    }
    uturn_level_stats_t past;
    uturn_level_stats_init(&past);
    CHECK(uturn_plan_level_stats(plan, shape->level_count, &past) ==
          UTURN_E_INVALID_ARG);
}

/* The next batch of actions: cursor_next one at a time (batch 0) or
 * cursor_read of up to batch. */
static size_t next_batch(uturn_cursor_t *c, uturn_action_t *buf, unsigned batch)
{
    if (batch == 0)
        return uturn_cursor_next(c, buf) ? 1 : 0;
    size_t got = 0;
    CHECK(uturn_cursor_read(c, buf, batch, &got) == UTURN_OK);
    CHECK(got <= batch);
    return got;
}

bool fz_walk_plan(const uturn_plan_t *plan, const struct fz_shape *shape,
                  uint64_t max_actions, unsigned batch)
{
    uturn_stats_t st;
    uturn_stats_init(&st);
    CHECK(uturn_plan_stats(plan, &st) == UTURN_OK);
    if (st.actions > max_actions)
        return false;
    uturn_error_t error;
    uturn_error_init(&error);
    uturn_validator_t *v = NULL;
    if (uturn_validator_create(&shape->validator, NULL, &v, &error) !=
        UTURN_OK) {
        fprintf(stderr, "validator: %s\n", error.message);
        abort();
    }
    uturn_cursor_t *c = NULL;
    CHECK(uturn_cursor_create(plan, NULL, &c) == UTURN_OK);
    struct fz_tally t;
    fz_tally_init(&t, 64);
    uturn_action_t buf[64];
    batch = batch % 65;
    for (size_t got; (got = next_batch(c, buf, batch)) != 0;) {
        for (size_t i = 0; i < got; i++) {
            if (uturn_validator_push(v, &buf[i], &error) != UTURN_OK) {
                fprintf(stderr, "action %llu: %s\n",
                        (unsigned long long)t.actions, error.message);
                abort();
            }
            fz_tally_add(&t, shape, &buf[i]);
        }
    }
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    if (uturn_validator_finish(v, &seen, &error) != UTURN_OK) {
        fprintf(stderr, "finish: %s\n", error.message);
        abort();
    }
    check_seen(&seen, &st);
    fz_check_tally(&t, &st);
    CHECK(t.cost == st.cost);
    check_levels(plan, v, shape, &t);
    fz_tally_free(&t);
    uturn_cursor_free(c);
    uturn_validator_free(v);
    return true;
}

uturn_plan_t *fz_text_round_trip(const uturn_plan_t *plan, char **text,
                                 size_t *len)
{
    *text        = NULL;
    *len         = 0;
    FILE *stream = open_memstream(text, len);
    CHECK(stream != NULL);
    CHECK(uturn_plan_write(plan, stream, NULL) == UTURN_OK);
    CHECK(fclose(stream) == 0);
    uturn_plan_t *parsed = NULL;
    uturn_error_t error;
    uturn_error_init(&error);
    if (uturn_plan_parse(*text, *len, NULL, &parsed, &error) != UTURN_OK) {
        fprintf(stderr, "parse: %s\n%.*s\n", error.message,
                (int)(*len < 1000 ? *len : 1000), *text);
        abort();
    }
    return parsed;
}
