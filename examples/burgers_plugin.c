/*
 * The 1D Burgers model (burgers_model.h) as a model library for the uturn
 * tool (uturn_model_plugin.h), built as libexample_model.so:
 *
 *   uturn sweep --run --model ./libexample_model.so --model-args grid=64
 *
 * --model-args is a comma-separated list of settings:
 *   grid=N          grid points (default 256, at least 4)
 *   fail_forward=K  forward step K fails (returns 1) in every run: to see
 *                   how uturn reports a model that fails
 * The same grid gives the same gradient as the tool's built-in Burgers
 * model (--model burgers --grid N), bit for bit.
 */
#include "burgers_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uturn_model_plugin.h>

struct plugin {
    burgers_t *burgers;
    uturn_model_t inner; /* the Burgers model's own callbacks */
    uint64_t fail_forward;
    int fails; /* fail_forward was given */
};

static int on_forward(void *user, uint64_t step)
{
    struct plugin *p = user;
    if (p->fails && step == p->fail_forward)
        return 1;
    return p->inner.forward(p->inner.user, step);
}

static int on_turn(void *user)
{
    struct plugin *p = user;
    return p->inner.turn(p->inner.user);
}

static int on_adjoint(void *user, uint64_t step)
{
    struct plugin *p = user;
    return p->inner.adjoint(p->inner.user, step);
}

/* "12" into *out; 0 on anything but digits (or past 64 bits). */
static int whole(const char *text, uint64_t *out)
{
    uint64_t v = 0;
    if (*text == '\0')
        return 0;
    for (; *text >= '0' && *text <= '9'; text++) {
        const uint64_t d = (uint64_t)(*text - '0');
        if (v > (UINT64_MAX - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    *out = v;
    return *text == '\0';
}

/* One "key=value" setting; 0 with a message when it is not one. */
static int setting(char *item, uint64_t *grid, struct plugin *p, char *msg,
                   size_t size)
{
    char *eq = strchr(item, '=');
    if (eq != NULL)
        *eq = '\0';
    const char *value = eq != NULL ? eq + 1 : "";
    if (strcmp(item, "grid") == 0 && whole(value, grid) && *grid >= 4)
        return 1;
    if (strcmp(item, "fail_forward") == 0 && whole(value, &p->fail_forward))
        return p->fails = 1;
    if (strcmp(item, "grid") == 0)
        snprintf(msg, size, "grid must be a whole number of at least 4, "
                            "not '%s'", value);
    else if (strcmp(item, "fail_forward") == 0)
        snprintf(msg, size, "fail_forward must be a step number, not '%s'",
                 value);
    else
        snprintf(msg, size, "unknown setting '%s' (grid=N, fail_forward=K)",
                 item);
    return 0;
}

/* Every setting of args; 0 with a message at the first bad one. */
static int settings(const char *args, uint64_t *grid, struct plugin *p,
                    char *msg, size_t size)
{
    char copy[256];
    if (strlen(args) >= sizeof copy)
        return snprintf(msg, size, "--model-args is too long"), 0;
    strcpy(copy, args);
    for (char *item = copy; *item != '\0';) {
        char *comma = strchr(item, ',');
        if (comma != NULL)
            *comma = '\0';
        if (!setting(item, grid, p, msg, size))
            return 0;
        item = comma != NULL ? comma + 1 : item + strlen(item);
    }
    return 1;
}

UTURN_MODEL_PLUGIN_EXPORT int uturn_model_plugin_create(
    const char *args, uint64_t steps, uturn_model_t *model, void **handle,
    char *message, size_t message_size)
{
    struct plugin *p = calloc(1, sizeof *p);
    uint64_t grid    = 256;
    if (p == NULL)
        return snprintf(message, message_size, "out of memory"), 2;
    if (!settings(args, &grid, p, message, message_size)) {
        free(p);
        return UTURN_MODEL_PLUGIN_E_ARGS;
    }
    if (grid > (1u << 24) ||
        burgers_create((size_t)grid, steps, &p->burgers) != 0) {
        snprintf(message, message_size,
                 "cannot make a Burgers model of %llu points",
                 (unsigned long long)grid);
        free(p);
        return 2;
    }
    burgers_model(p->burgers, &p->inner);
    model->user        = p;
    model->forward     = on_forward;
    model->turn        = on_turn;
    model->adjoint     = on_adjoint;
    model->state       = p->inner.state;
    model->state_bytes = p->inner.state_bytes;
    *handle            = p;
    return 0;
}

UTURN_MODEL_PLUGIN_EXPORT int uturn_model_plugin_reset(void *handle)
{
    struct plugin *p = handle;
    burgers_reset(p->burgers);
    return 0;
}

UTURN_MODEL_PLUGIN_EXPORT int uturn_model_plugin_gradient(
    void *handle, const void **gradient, uint64_t *bytes)
{
    struct plugin *p = handle;
    *gradient        = burgers_gradient(p->burgers);
    *bytes = (uint64_t)burgers_grid(p->burgers) * sizeof(double);
    return 0;
}

UTURN_MODEL_PLUGIN_EXPORT void uturn_model_plugin_destroy(void *handle)
{
    struct plugin *p = handle;
    burgers_free(p->burgers);
    free(p);
}
