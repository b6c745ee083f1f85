/* Errors of the MPI layer, written into the caller's uturn_error_t no byte
 * past the size it records (as the core does). */
#include "mpi_internal.h"

#include <stdio.h>
#include <string.h>

uturn_status_t uturn__mpi_fail(uturn_error_t *error, uturn_status_t status,
                               const char *fmt, ...)
{
    if (error == NULL)
        return status;
    uturn_error_t e;
    uturn_error_init(&e);
    e.status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    *error = e;
    return status;
}

void uturn__mpi_export(void *out, const void *in, size_t full)
{
    if (out == NULL)
        return;
    size_t recorded = 0;
    memcpy(&recorded, out, sizeof recorded);
    /* A zero size (the caller skipped _init) is read as the current one. */
    const size_t n = recorded == 0 || recorded > full ? full : recorded;
    memcpy(out, in, n);
    memcpy(out, &n, sizeof n);
}

void uturn__mpi_error_export(const uturn_error_t *in, uturn_error_t *out)
{
    uturn__mpi_export(out, in, sizeof *in);
}
