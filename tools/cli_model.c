/*
 * The model uturn sweep runs: the built-in Burgers model, or a model
 * library loaded with dlopen() that exports the four functions of
 * <uturn_model_plugin.h>. Both sit behind the same reset, gradient and
 * destroy calls, so the runner never asks which it has.
 */
#define _POSIX_C_SOURCE 200809L
#include "burgers_model.h"
#include "sweep.h"

#include <dlfcn.h>
#include <string.h>

static int burgers_reset_call(void *handle)
{
    burgers_reset(handle);
    return 0;
}

static int burgers_gradient_call(void *handle, const void **gradient,
                                 uint64_t *bytes)
{
    *gradient = burgers_gradient(handle);
    *bytes    = (uint64_t)burgers_grid(handle) * sizeof(double);
    return 0;
}

static void burgers_destroy_call(void *handle)
{
    burgers_free(handle);
}

static int open_burgers(uint64_t grid, uint64_t steps, struct sweep_model *m)
{
    burgers_t *b = NULL;
    if (burgers_create((size_t)grid, steps, &b) != 0)
        return cli_fail("out of memory for the Burgers model (grid %llu)",
                        (unsigned long long)grid),
               CLI_CANNOT;
    burgers_model(b, &m->model);
    m->handle   = b;
    m->reset    = burgers_reset_call;
    m->gradient = burgers_gradient_call;
    m->destroy  = burgers_destroy_call;
    return CLI_OK;
}

/* A function the library exports, or NULL. dlsym() gives an object
 * pointer; POSIX guarantees it converts, and memcpy says so in ISO C. */
static bool symbol(void *library, const char *name, void *fn, size_t size)
{
    void *const sym = dlsym(library, name);
    if (sym == NULL || size != sizeof sym)
        return false;
    memcpy(fn, &sym, size);
    return true;
}

/* The four functions, or the first that is missing (message printed). */
static int find_functions(const char *path, void *library,
                          uturn_model_plugin_create_fn **create,
                          struct sweep_model *m)
{
    const char *missing = NULL;
    if (!symbol(library, "uturn_model_plugin_create", create, sizeof *create))
        missing = "uturn_model_plugin_create";
    else if (!symbol(library, "uturn_model_plugin_reset", &m->reset,
                     sizeof m->reset))
        missing = "uturn_model_plugin_reset";
    else if (!symbol(library, "uturn_model_plugin_gradient", &m->gradient,
                     sizeof m->gradient))
        missing = "uturn_model_plugin_gradient";
    else if (!symbol(library, "uturn_model_plugin_destroy", &m->destroy,
                     sizeof m->destroy))
        missing = "uturn_model_plugin_destroy";
    if (missing == NULL)
        return CLI_OK;
    return cli_fail("--model: '%s' is not a uturn model library: it does "
                    "not export %s (see uturn_model_plugin.h)",
                    path, missing);
}

/* What the sweep needs of the model the library made, or why not. */
static const char *model_problem(const uturn_model_t *model)
{
    if (model->forward == NULL || model->turn == NULL ||
        model->adjoint == NULL)
        return "it has no forward, turn or adjoint callback";
    if (model->state_bytes == 0)
        return "its state_bytes is 0";
    if (model->state == NULL && (model->save == NULL || model->load == NULL))
        return "it has neither a state nor save and load callbacks";
    if (model->state_size != NULL)
        return "it has per-step sizes (state_size), which the sweep does "
               "not plan";
    return NULL;
}

static int create_model(const char *path, const char *args, uint64_t steps,
                        uturn_model_plugin_create_fn *create,
                        struct sweep_model *m)
{
    char message[512] = "";
    uturn_model_init(&m->model);
    const int made = create(args, steps, &m->model, &m->handle, message,
                            sizeof message);
    message[sizeof message - 1] = '\0';
    if (made != 0)
        return cli_fail("--model: %s could not make its model (%s %d)%s%s",
                        path, "uturn_model_plugin_create returned", made,
                        message[0] != '\0' ? ": " : "", message),
               made == UTURN_MODEL_PLUGIN_E_ARGS ? CLI_BAD_INPUT : CLI_CANNOT;
    const char *problem = model_problem(&m->model);
    if (problem == NULL)
        return CLI_OK;
    m->destroy(m->handle);
    return cli_fail("--model: %s's model cannot be run: %s", path, problem);
}

static int open_library(const char *path, const char *args, uint64_t steps,
                        struct sweep_model *m)
{
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        return cli_fail("--model: cannot load '%s': %s", path,
                        why != NULL ? why : "dlopen failed");
    }
    uturn_model_plugin_create_fn *create = NULL;
    int rc = find_functions(path, library, &create, m);
    if (rc == CLI_OK)
        rc = create_model(path, args, steps, create, m);
    if (rc != CLI_OK) {
        dlclose(library);
        memset(m, 0, sizeof *m);
        return rc;
    }
    m->library = library;
    m->path    = path;
    return CLI_OK;
}

bool sweep_model_is_library(const char *spec)
{
    return strchr(spec, '/') != NULL;
}

int sweep_model_open(const char *spec, const char *args, uint64_t grid,
                     uint64_t steps, struct sweep_model *m)
{
    memset(m, 0, sizeof *m);
    if (sweep_model_is_library(spec))
        return open_library(spec, args != NULL ? args : "", steps, m);
    return open_burgers(grid, steps, m);
}

void sweep_model_close(struct sweep_model *m)
{
    if (m == NULL || m->destroy == NULL)
        return;
    m->destroy(m->handle);
    if (m->library != NULL)
        dlclose(m->library);
    memset(m, 0, sizeof *m);
}
