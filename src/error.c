/* Filling uturn_error_t: the per-call channel for messages (no globals). */
#include "internal.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

void uturn_error_init_size(uturn_error_t *error, size_t size)
{
    uturn_error_t d;
    memset(&d, 0, sizeof d);
    d.size   = sizeof d;
    d.status = UTURN_OK;
    d.action = UTURN_NONE;
    d.step   = UTURN_NONE;
    uturn__init_sized(error, size, &d, sizeof d);
}

#undef uturn_error_init
/* For programs built against older headers: the struct of 0.1. */
void uturn_error_init(uturn_error_t *error)
{
    uturn_error_init_size(error, UTURN__SIZE_THROUGH(uturn_error_t, message));
}

/* Internal callers pass their whole struct. */
#define uturn_error_init(p) uturn_error_init_size((p), sizeof *(p))

/* Callers that skipped uturn_error_init() get a zero size: treat that as a
 * current struct rather than refusing, since the message is what matters. */
static bool has_field(const uturn_error_t *error, size_t end)
{
    return error->size == 0 || error->size >= end;
}

static void error_vset(uturn_error_t *error, uturn_status_t status,
                       const char *fmt, va_list args)
{
    error->status = status;
    if (has_field(error, offsetof(uturn_error_t, minimum_bytes) + 8)) {
        error->action        = UTURN_NONE;
        error->line          = 0;
        error->step          = UTURN_NONE;
        error->minimum_slots = 0;
        error->minimum_bytes = 0;
    }
    if (has_field(error, sizeof *error))
        vsnprintf(error->message, sizeof error->message, fmt, args);
}

uturn_status_t uturn__fail(uturn_error_t *error, uturn_status_t status,
                           const char *fmt, ...)
{
    if (error == NULL)
        return status;
    va_list args;
    va_start(args, fmt);
    error_vset(error, status, fmt, args);
    va_end(args);
    return status;
}

uturn_status_t uturn__fail_at(uturn_error_t *error, uturn_status_t status,
                              uint64_t action, uint64_t line, uint64_t step,
                              const char *fmt, ...)
{
    if (error == NULL)
        return status;
    va_list args;
    va_start(args, fmt);
    error_vset(error, status, fmt, args);
    va_end(args);
    if (has_field(error, offsetof(uturn_error_t, step) + 8)) {
        error->action = action;
        error->line   = line;
        error->step   = step;
    }
    return status;
}

uturn_status_t uturn__fail_infeasible(uturn_error_t *error, uint64_t slots,
                                      uint64_t slot_bytes, const char *fmt, ...)
{
    if (error == NULL)
        return UTURN_E_INFEASIBLE;
    va_list args;
    va_start(args, fmt);
    error_vset(error, UTURN_E_INFEASIBLE, fmt, args);
    va_end(args);
    if (!has_field(error, offsetof(uturn_error_t, minimum_bytes) + 8))
        return UTURN_E_INFEASIBLE;
    uint64_t bytes = 0;
    if (uturn__mul_u64(slots, slot_bytes, &bytes) != UTURN_OK)
        bytes = UINT64_MAX;
    error->minimum_slots = slots;
    error->minimum_bytes = bytes;
    return UTURN_E_INFEASIBLE;
}
