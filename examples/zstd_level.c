/*
 * zstd_level: a storage level of the user's own that compresses states
 * with zstd (Debian's libzstd), under memory in a two-level plan.
 *
 * A 1D Burgers run of 2000 steps keeps 4 states in memory and up to 60 in
 * the compressed level; hrevolve plans the two levels, counting a
 * compressed store and restore at 2 and 1 forward steps. The program checks
 * that the gradient equals a run with every state in memory, bit for bit
 * (zstd is lossless), that the level held exactly the plan's counts, and
 * prints what the compression saved. Exits 0 when every check passed.
 *
 * The same callbacks are the route for device memory or a remote store:
 * put keeps a state under an id, get writes it back, drop forgets it.
 *
 * Build: cc -std=c11 zstd_level.c burgers_model.c -luturn -lzstd -lm
 */
#include "burgers_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>
#include <zstd.h>

#define STEPS 2000u
#define GRID  4096u
#define MEM   4u  /* states in memory */
#define SHELF 60u /* compressed states */

/* One compressed state per slot id. */
struct shelf {
    void **blob;
    size_t *blob_bytes;
    uint64_t ids;
    uint64_t puts, gets;
    uint64_t raw_bytes, packed_bytes; /* over every put */
};

static int shelf_open(void *user, uint64_t ids, uint64_t bytes)
{
    struct shelf *s = user;
    (void)bytes;
    s->blob       = calloc(ids, sizeof *s->blob);
    s->blob_bytes = calloc(ids, sizeof *s->blob_bytes);
    s->ids        = ids;
    return s->blob != NULL && s->blob_bytes != NULL ? 0 : 1;
}

static int shelf_put(void *user, uint64_t id, uint64_t step, const void *src,
                     uint64_t bytes)
{
    struct shelf *s = user;
    (void)step;
    if (id >= s->ids)
        return 1;
    const size_t cap = ZSTD_compressBound((size_t)bytes);
    void *blob       = realloc(s->blob[id], cap);
    if (blob == NULL)
        return 1;
    const size_t got = ZSTD_compress(blob, cap, src, (size_t)bytes, 1);
    if (ZSTD_isError(got))
        return 2;
    s->blob[id]       = blob;
    s->blob_bytes[id] = got;
    s->puts += 1;
    s->raw_bytes += bytes;
    s->packed_bytes += got;
    return 0;
}

static int shelf_get(void *user, uint64_t id, uint64_t step, void *dst,
                     uint64_t bytes)
{
    struct shelf *s = user;
    (void)step;
    if (id >= s->ids || s->blob[id] == NULL)
        return 3;
    const size_t got =
        ZSTD_decompress(dst, (size_t)bytes, s->blob[id], s->blob_bytes[id]);
    s->gets += 1;
    return !ZSTD_isError(got) && got == bytes ? 0 : 3;
}

static void shelf_close(void *user)
{
    struct shelf *s = user;
    for (uint64_t i = 0; i < s->ids; i++)
        free(s->blob[i]);
    free(s->blob);
    free(s->blob_bytes);
    s->blob       = NULL;
    s->blob_bytes = NULL;
}

static int check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    return ok ? 0 : 1;
}

/* Plan and run b through ex; 0 on success. */
static int run(uturn_executor_t *ex, burgers_t *b, const uturn_problem_t *p,
               uturn_plan_t **plan)
{
    uturn_error_t err;
    uturn_error_init(&err);
    if (uturn_plan_create(p, NULL, plan, &err) != UTURN_OK) {
        fprintf(stderr, "FAIL: plan: %s\n", err.message);
        return 1;
    }
    uturn_model_t m;
    uturn_model_init(&m);
    burgers_reset(b);
    burgers_model(b, &m);
    if (uturn_executor_run(ex, *plan, &m, NULL, NULL, NULL, &err) != UTURN_OK) {
        fprintf(stderr, "FAIL: run: %s\n", err.message);
        return 1;
    }
    return 0;
}

static int reference(burgers_t *b, double *grad)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_STORE_ALL;
    p.steps   = STEPS;
    uturn_executor_t *ex = NULL;
    uturn_plan_t *plan   = NULL;
    int failed           = uturn_executor_open(NULL, &ex, NULL) != UTURN_OK;
    failed               = failed || run(ex, b, &p, &plan);
    if (!failed)
        memcpy(grad, burgers_gradient(b), GRID * sizeof *grad);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    return failed;
}

/* hrevolve over memory and the compressed level (a write costs two
 * forward steps, a read one). */
static void level_problem(uturn_level_t lv[2], uturn_problem_t *p)
{
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].name       = "mem";
    lv[0].slots      = MEM;
    lv[1].name       = "zstd";
    lv[1].slots      = SHELF;
    lv[1].write_cost = 2;
    lv[1].read_cost  = 1;
    uturn_problem_init(p);
    p->planner     = UTURN_PLANNER_HREVOLVE;
    p->steps       = STEPS;
    p->levels      = lv;
    p->level_count = 2;
}

int main(void)
{
    burgers_t *b = NULL;
    double *want = malloc(GRID * sizeof *want);
    if (want == NULL || burgers_create(GRID, STEPS, &b) != 0 ||
        reference(b, want) != 0)
        return 1;
    struct shelf shelf           = {0};
    uturn_storage_callbacks_t cb = {.size  = sizeof cb,
                                    .user  = &shelf,
                                    .open  = shelf_open,
                                    .put   = shelf_put,
                                    .get   = shelf_get,
                                    .close = shelf_close};
    uturn_storage_t level;
    uturn_storage_init(&level);
    level.kind      = UTURN_STORAGE_USER;
    level.callbacks = &cb;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = &level;
    o.level_count = 1;
    uturn_level_t lv[2];
    uturn_problem_t p;
    level_problem(lv, &p);
    uturn_executor_t *ex = NULL;
    uturn_plan_t *plan   = NULL;
    int failed = uturn_executor_open(&o, &ex, NULL) != UTURN_OK;
    failed     = failed || run(ex, b, &p, &plan);
    if (!failed) {
        uturn_level_stats_t want_counts;
        uturn_level_stats_init(&want_counts);
        uturn_plan_level_stats(plan, 1, &want_counts);
        failed |= check(memcmp(burgers_gradient(b), want,
                               GRID * sizeof *want) == 0,
                        "the gradient through zstd equals memory's, bit for "
                        "bit");
        failed |= check(shelf.puts == want_counts.stores &&
                            shelf.gets == want_counts.restores,
                        "the level held the plan's stores and restores");
        printf("zstd level: %llu states in, %llu out; %.1f MiB compressed "
               "to %.1f MiB (%.2fx)\n",
               (unsigned long long)shelf.puts, (unsigned long long)shelf.gets,
               (double)shelf.raw_bytes / 1048576.0,
               (double)shelf.packed_bytes / 1048576.0,
               (double)shelf.raw_bytes / (double)shelf.packed_bytes);
    }
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    burgers_free(b);
    free(want);
    return failed;
}
