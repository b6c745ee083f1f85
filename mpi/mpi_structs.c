/* The MPI layer's value structs: defaults, and reading a caller's struct
 * no byte past the size it records (fields it lacks keep defaults). */
#include "mpi_internal.h"

#include <string.h>

/* Write @p defaults (of @p full bytes) into @p p, at most @p size. */
static void init_sized(void *p, size_t size, const void *defaults, size_t full)
{
    if (p == NULL || size < sizeof(size_t))
        return;
    const size_t n = size < full ? size : full;
    memcpy(p, defaults, n);
    memcpy(p, &n, sizeof n);
}

static void options_defaults(uturn_mpi_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->size    = sizeof *o;
    o->compare = true;
}

void uturn_mpi_options_init_size(uturn_mpi_options_t *options, size_t size)
{
    uturn_mpi_options_t d;
    options_defaults(&d);
    init_sized(options, size, &d, sizeof d);
}

void uturn_mpi_plan_info_init_size(uturn_mpi_plan_info_t *info, size_t size)
{
    uturn_mpi_plan_info_t d;
    memset(&d, 0, sizeof d);
    d.size          = sizeof d;
    d.limiting_rank = -1;
    init_sized(info, size, &d, sizeof d);
}

void uturn_mpi_run_options_init_size(uturn_mpi_run_options_t *options,
                                     size_t size)
{
    uturn_mpi_run_options_t d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    init_sized(options, size, &d, sizeof d);
}

void uturn_mpi_report_init_size(uturn_mpi_report_t *report, size_t size)
{
    uturn_mpi_report_t d;
    memset(&d, 0, sizeof d);
    d.size        = sizeof d;
    d.failed_rank = -1;
    init_sized(report, size, &d, sizeof d);
}

/* Bytes of a caller's struct to read: its size, capped at ours; 0 (no
 * _init) reads as ours. */
static size_t readable(size_t recorded, size_t known)
{
    return recorded == 0 || recorded > known ? known : recorded;
}

void uturn__mpi_options_read(const uturn_mpi_options_t *in,
                             uturn_mpi_options_t *out)
{
    options_defaults(out);
    if (in != NULL)
        memcpy(out, in, readable(in->size, sizeof *in));
    out->size = sizeof *out;
}

void uturn__mpi_run_options_read(const uturn_mpi_run_options_t *in,
                                 uturn_mpi_run_options_t *out)
{
    uturn_mpi_run_options_init(out);
    if (in != NULL)
        memcpy(out, in, readable(in->size, sizeof *in));
    out->size = sizeof *out;
}

void uturn__mpi_problem_read(const uturn_problem_t *in, uturn_problem_t *out)
{
    uturn_problem_init(out);
    memcpy(out, in, readable(in->size, sizeof *in));
    out->size = sizeof *out;
}

void uturn__mpi_model_read(const uturn_model_t *in, uturn_model_t *out)
{
    uturn_model_init(out);
    memcpy(out, in, readable(in->size, sizeof *in));
    out->size = sizeof *out;
}

void uturn__mpi_core_options_read(const uturn_run_options_t *in,
                                  uturn_run_options_t *out)
{
    uturn_run_options_init(out);
    if (in != NULL)
        memcpy(out, in, readable(in->size, sizeof *in));
    out->size = sizeof *out;
}
