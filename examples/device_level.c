/*
 * device_level: checkpoints kept in "device memory" through a storage level
 * of the user's own, with a host-memory stand-in for the device that counts
 * every transfer (there is no GPU here).
 *
 * The route for a GPU code: memory (level 0) keeps a few states on the
 * host, and a USER level keeps the rest in device memory. The executor
 * hands the level each state to keep (put: one host-to-device copy) and
 * asks for it back (get: one device-to-host copy); drop returns its space.
 * Replace the two memcpy calls marked DEVICE with cudaMemcpy (or
 * hipMemcpy, or a SYCL queue copy) and the pool with device allocations.
 *
 * A 1D Burgers run of 1500 steps with 3 host slots and up to 40 device
 * slots, planned by hrevolve (a device copy counted as 1 forward step each
 * way). Checks: the gradient equals a run with every state on the host,
 * bit for bit; the device saw exactly the plan's stores and restores, and
 * the bytes of as many states each way; never more device slots in use
 * than the plan's peak. Exits 0 when every check passed.
 *
 * Build: cc -std=c11 device_level.c burgers_model.c -luturn -lm
 */
#include "burgers_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn.h>

#define STEPS  1500u
#define GRID   2048u
#define HOST   3u
#define DEVICE 40u

/* The stand-in device: a pool of slots and transfer counters. */
struct device {
    unsigned char *pool; /* ids * slot bytes ("device memory") */
    uint64_t ids, slot_bytes;
    uint64_t in_use, most_in_use;
    bool *held;
    uint64_t to_device, to_host;             /* transfers */
    uint64_t bytes_to_device, bytes_to_host; /* their bytes */
};

static int dev_open(void *user, uint64_t ids, uint64_t bytes)
{
    struct device *d = user;
    d->ids           = ids;
    d->slot_bytes    = ids != 0 ? bytes / ids : 0;
    d->pool          = malloc(bytes != 0 ? bytes : 1); /* cudaMalloc */
    d->held          = calloc(ids != 0 ? ids : 1, sizeof *d->held);
    return d->pool != NULL && d->held != NULL ? 0 : 1;
}

static int dev_put(void *user, uint64_t id, uint64_t step, const void *src,
                   uint64_t bytes)
{
    struct device *d = user;
    (void)step;
    if (id >= d->ids || bytes > d->slot_bytes)
        return 1;
    memcpy(d->pool + id * d->slot_bytes, src, bytes); /* DEVICE: H2D */
    d->to_device += 1;
    d->bytes_to_device += bytes;
    d->in_use += !d->held[id];
    d->held[id]    = true;
    d->most_in_use = d->in_use > d->most_in_use ? d->in_use : d->most_in_use;
    return 0;
}

static int dev_get(void *user, uint64_t id, uint64_t step, void *dst,
                   uint64_t bytes)
{
    struct device *d = user;
    (void)step;
    if (id >= d->ids || !d->held[id])
        return 2;
    memcpy(dst, d->pool + id * d->slot_bytes, bytes); /* DEVICE: D2H */
    d->to_host += 1;
    d->bytes_to_host += bytes;
    return 0;
}

static void dev_drop(void *user, uint64_t id)
{
    struct device *d = user;
    d->in_use -= id < d->ids && d->held[id];
    if (id < d->ids)
        d->held[id] = false;
}

static void dev_close(void *user)
{
    struct device *d = user;
    free(d->pool); /* cudaFree */
    free(d->held);
    d->pool = NULL;
    d->held = NULL;
}

static int check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    return ok ? 0 : 1;
}

/* Plan p and run the model on ex; 0 on success. */
static int run(uturn_executor_t *ex, burgers_t *b, const uturn_problem_t *p,
               uturn_plan_t **plan)
{
    uturn_error_t err;
    uturn_error_init(&err);
    uturn_model_t m;
    uturn_model_init(&m);
    burgers_reset(b);
    burgers_model(b, &m);
    if (uturn_plan_create(p, NULL, plan, &err) != UTURN_OK ||
        uturn_executor_run(ex, *plan, &m, NULL, NULL, NULL, &err) !=
            UTURN_OK) {
        fprintf(stderr, "FAIL: %s\n", err.message);
        return 1;
    }
    return 0;
}

/* Every state on the host: the gradient to match. */
static int host_only(burgers_t *b, double *grad)
{
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner = UTURN_PLANNER_STORE_ALL;
    p.steps   = STEPS;
    uturn_executor_t *ex = NULL;
    uturn_plan_t *plan   = NULL;
    int failed = uturn_executor_open(NULL, &ex, NULL) != UTURN_OK ||
                 run(ex, b, &p, &plan);
    if (!failed)
        memcpy(grad, burgers_gradient(b), GRID * sizeof *grad);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    return failed;
}

static int checks(const burgers_t *b, const double *want,
                  const uturn_plan_t *plan, const struct device *d)
{
    uturn_level_stats_t dev;
    uturn_level_stats_init(&dev);
    uturn_plan_level_stats(plan, 1, &dev);
    const uint64_t state = GRID * sizeof(double);
    int failed = check(memcmp(burgers_gradient(b), want, GRID * sizeof *want) ==
                           0,
                       "the gradient through the device equals the host's, "
                       "bit for bit");
    failed |= check(d->to_device == dev.stores && d->to_host == dev.restores,
                    "one transfer each way per store and restore of the plan");
    failed |= check(d->bytes_to_device == dev.stores * state &&
                        d->bytes_to_host == dev.restores * state,
                    "a state's bytes per transfer");
    failed |= check(d->most_in_use <= dev.peak_slots,
                    "device slots in use within the plan's peak");
    printf("device: %llu transfers to it (%.1f MiB), %llu back (%.1f MiB), "
           "at most %llu slots in use\n",
           (unsigned long long)d->to_device, (double)d->bytes_to_device / 1048576.0,
           (unsigned long long)d->to_host, (double)d->bytes_to_host / 1048576.0,
           (unsigned long long)d->most_in_use);
    return failed;
}

int main(void)
{
    burgers_t *b = NULL;
    double *want = malloc(GRID * sizeof *want);
    if (want == NULL || burgers_create(GRID, STEPS, &b) != 0 ||
        host_only(b, want) != 0)
        return 1;
    struct device dev            = {0};
    uturn_storage_callbacks_t cb = {.size  = sizeof cb,
                                    .user  = &dev,
                                    .open  = dev_open,
                                    .put   = dev_put,
                                    .get   = dev_get,
                                    .drop  = dev_drop,
                                    .close = dev_close};
    uturn_storage_t level;
    uturn_storage_init(&level);
    level.kind      = UTURN_STORAGE_USER;
    level.callbacks = &cb;
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.levels      = &level;
    o.level_count = 1;
    uturn_level_t lv[2];
    uturn_level_init(&lv[0]);
    uturn_level_init(&lv[1]);
    lv[0].name  = "host";
    lv[0].slots = HOST;
    lv[1].name  = "device";
    lv[1].slots = DEVICE;
    lv[1].write_cost = lv[1].read_cost = 1;
    uturn_problem_t p;
    uturn_problem_init(&p);
    p.planner     = UTURN_PLANNER_HREVOLVE;
    p.steps       = STEPS;
    p.levels      = lv;
    p.level_count = 2;
    uturn_executor_t *ex = NULL;
    uturn_plan_t *plan   = NULL;
    int failed = uturn_executor_open(&o, &ex, NULL) != UTURN_OK ||
                 run(ex, b, &p, &plan);
    if (!failed)
        failed = checks(b, want, plan, &dev);
    uturn_plan_free(plan);
    uturn_executor_free(ex);
    burgers_free(b);
    free(want);
    return failed;
}
