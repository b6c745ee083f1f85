/*
 * A model library that goes wrong on purpose, for tests/cli/sweep_model.sh:
 * --model-args names the fault.
 *   no-forward   the model has no forward callback
 *   zero-bytes   its state_bytes is 0
 *   per-step     it has per-step sizes (state_size)
 *   no-gradient  uturn_model_plugin_gradient fails
 *   reset-fails  uturn_model_plugin_reset fails
 *   fine         a working chain x_{i+1} = x_i + 1 (one double)
 * Built with FAULTS_ONLY_CREATE it exports uturn_model_plugin_create alone.
 */
#include <stdlib.h>
#include <string.h>
#include <uturn_model_plugin.h>

struct chain {
    double x, xbar;
    char fault[32];
};

static int forward(void *user, uint64_t step)
{
    struct chain *c = user;
    (void)step;
    c->x += 1.0;
    return 0;
}

static int turn(void *user)
{
    struct chain *c = user;
    c->xbar         = c->x;
    return 0;
}

static int adjoint(void *user, uint64_t step)
{
    (void)user;
    (void)step;
    return 0;
}

static uint64_t state_size(void *user, uint64_t step)
{
    (void)user;
    return step + 1;
}

UTURN_MODEL_PLUGIN_EXPORT int uturn_model_plugin_create(
    const char *args, uint64_t steps, uturn_model_t *model, void **handle,
    char *message, size_t message_size)
{
    (void)steps;
    (void)message;
    (void)message_size;
    struct chain *c = calloc(1, sizeof *c);
    if (c == NULL)
        return 2;
    strncpy(c->fault, args, sizeof c->fault - 1);
    model->user        = c;
    model->forward     = strcmp(args, "no-forward") == 0 ? NULL : forward;
    model->turn        = turn;
    model->adjoint     = adjoint;
    model->state       = &c->x;
    model->state_bytes = strcmp(args, "zero-bytes") == 0 ? 0 : sizeof c->x;
    model->state_size  = strcmp(args, "per-step") == 0 ? state_size : NULL;
    *handle            = c;
    return 0;
}

#ifndef FAULTS_ONLY_CREATE
UTURN_MODEL_PLUGIN_EXPORT int uturn_model_plugin_reset(void *handle)
{
    struct chain *c = handle;
    c->x            = 0.0;
    c->xbar         = 0.0;
    return strcmp(c->fault, "reset-fails") == 0;
}

UTURN_MODEL_PLUGIN_EXPORT int uturn_model_plugin_gradient(
    void *handle, const void **gradient, uint64_t *bytes)
{
    struct chain *c = handle;
    *gradient       = &c->xbar;
    *bytes          = sizeof c->xbar;
    return strcmp(c->fault, "no-gradient") == 0;
}

UTURN_MODEL_PLUGIN_EXPORT void uturn_model_plugin_destroy(void *handle)
{
    free(handle);
}
#endif
