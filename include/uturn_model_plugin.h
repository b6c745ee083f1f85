/*
 * uturn_model_plugin.h: a model in a shared library, for the uturn tool.
 *
 * `uturn sweep --run --model ./libmymodel.so --model-args TEXT` loads the
 * library with dlopen(), makes the model with uturn_model_plugin_create(),
 * and runs it through every feasible (budget, planner) row of the sweep;
 * for each row it compares the gradient with the one a store-all plan gave,
 * bit for bit (the row's `gradient_matches`). Without --run the model is
 * made only to learn its state size, and nothing runs.
 *
 * A model library defines the four functions below with exactly these
 * names and signatures and exports them (UTURN_MODEL_PLUGIN_EXPORT does,
 * also when the library is built with hidden visibility). The tool calls
 * them from one thread, in this order:
 *
 *     create, then for each run: reset, the run, gradient; then destroy.
 *
 * The library includes this header (which includes <uturn.h>) and may
 * call libuturn (uturn_model_init(), say), linking it as any program
 * does: the tool's own libuturn is the one it gets. `examples/burgers_plugin.c`
 * is a complete model library: the 1D Burgers model of
 * `examples/burgers_model.h`, built as libexample_model.so.
 *
 * These four names and their meaning are fixed for this interface; an
 * incompatible one would come with new names, so a library built against
 * this header keeps working or is refused as "does not export".
 * Since: 0.2
 */
#ifndef UTURN_MODEL_PLUGIN_H_INCLUDED
#define UTURN_MODEL_PLUGIN_H_INCLUDED

#include <stddef.h>
#include <stdint.h>
#include <uturn.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks the four functions for export from the model library. Since: 0.2 */
#if defined(_WIN32)
#define UTURN_MODEL_PLUGIN_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define UTURN_MODEL_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define UTURN_MODEL_PLUGIN_EXPORT
#endif

/**
 * What uturn_model_plugin_create() returns when @p args or @p steps are
 * not acceptable to the model (the tool then exits 1, bad input). Any
 * other non-zero value means the model could not be made (out of memory,
 * a missing file, ...; the tool exits 2). Since: 0.2
 */
#define UTURN_MODEL_PLUGIN_E_ARGS 1

/**
 * Make the model.
 *
 * @param args     The text of --model-args, as given; "" without it. Never
 *                 NULL. Its syntax is the model's own; the tool does not
 *                 look inside.
 * @param steps    n, the steps of the chain (the sweep's --steps; default
 *                 2000). The model's forward step must accept 0 .. n-1.
 * @param model    Prepared by the tool with uturn_model_init(): fill in
 *                 user, forward, turn and adjoint, and either state and
 *                 state_bytes (a contiguous live state) or save, load and
 *                 state_bytes; leave the other fields as they are, and
 *                 write only fields that lie within model->size bytes
 *                 (every field of uturn_model_t in 0.2 does). The tool
 *                 keeps a copy; everything it points to must stay valid
 *                 until uturn_model_plugin_destroy(). Per-step sizes
 *                 (state_size) are refused by the sweep.
 * @param[out] handle  The model's own pointer, passed to the other three
 *                 functions (often the same as model->user).
 * @param message  On failure, a NUL-terminated sentence for the person
 *                 ("grid must be at least 4, not 2"), which the tool
 *                 prints; may be left empty.
 * @param message_size  Bytes at @p message (at least 256).
 * @return 0 on success; UTURN_MODEL_PLUGIN_E_ARGS for unacceptable args
 *         or steps; another non-zero value when the model cannot be made.
 *         On failure *handle is not used and destroy is not called.
 * Ownership: the model owns what it makes, until destroy; the tool owns
 * @p model, @p message and @p args (valid during the call only).
 * Thread safety: called once, from the tool's one thread. Since: 0.2
 */
UTURN_MODEL_PLUGIN_EXPORT int uturn_model_plugin_create(
    const char *args, uint64_t steps, uturn_model_t *model, void **handle,
    char *message, size_t message_size);
/** The type of uturn_model_plugin_create(), for dlsym(). */
typedef int uturn_model_plugin_create_fn(const char *args, uint64_t steps,
                                         uturn_model_t *model, void **handle,
                                         char *message, size_t message_size);

/**
 * Make the live state x_0 again and clear the adjoint, so that the next
 * run starts as the first did. Called before every run, the first too.
 * A run of the same plan after a reset must give the same gradient bit
 * for bit (a forward step must be a function of its step and its state).
 * @param handle  What create gave; never NULL.
 * @return 0, or non-zero to stop the sweep (the tool exits 2).
 * Thread safety: never during a run, never concurrently. Since: 0.2
 */
UTURN_MODEL_PLUGIN_EXPORT int uturn_model_plugin_reset(void *handle);
/** The type of uturn_model_plugin_reset(), for dlsym(). */
typedef int uturn_model_plugin_reset_fn(void *handle);

/**
 * The gradient after a complete run (once adjoint step 0 has been taken):
 * dJ/dx_0 in the model's own representation, compared byte for byte.
 * @param[out] gradient  Its bytes, owned by the model; valid until the next
 *                 reset or destroy.
 * @param[out] bytes  How many; the same after every run.
 * @return 0, or non-zero when there is no gradient (the tool exits 2);
 *         a NULL gradient or 0 bytes counts as none.
 * Thread safety: after a run, never concurrently. Since: 0.2
 */
UTURN_MODEL_PLUGIN_EXPORT int uturn_model_plugin_gradient(
    void *handle, const void **gradient, uint64_t *bytes);
/** The type of uturn_model_plugin_gradient(), for dlsym(). */
typedef int uturn_model_plugin_gradient_fn(void *handle,
                                           const void **gradient,
                                           uint64_t *bytes);

/**
 * Free everything uturn_model_plugin_create() made. Called once, after a
 * successful create, on every exit path (a failing run included); the
 * library is unloaded afterwards. @p handle is what create gave.
 * Since: 0.2
 */
UTURN_MODEL_PLUGIN_EXPORT void uturn_model_plugin_destroy(void *handle);
/** The type of uturn_model_plugin_destroy(), for dlsym(). */
typedef void uturn_model_plugin_destroy_fn(void *handle);

#ifdef __cplusplus
}
#endif

#endif
