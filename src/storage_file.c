/* The file backend: not yet built (see the issue "Storage levels"). */
#include "storage.h"

static uint64_t granule(const struct uturn__storage *st)
{
    (void)st;
    return 1;
}

static bool cost(const struct uturn__storage *st, uint64_t bytes,
                 uint64_t *out)
{
    (void)st;
    *out = bytes;
    return true;
}

static uint64_t usable(const struct uturn__storage *st, uint64_t budget)
{
    (void)st;
    return budget;
}

static uturn_status_t resize(struct uturn__storage *st, uint64_t bytes)
{
    (void)st;
    return bytes == 0 ? UTURN_OK : UTURN_E_UNSUPPORTED;
}

static void close_file(struct uturn__storage *st)
{
    (void)st;
}

uturn_status_t uturn__storage_file_open(struct uturn__storage *st,
                                        const char *directory,
                                        bool synchronous)
{
    (void)st;
    (void)directory;
    (void)synchronous;
    return UTURN_E_UNSUPPORTED;
}

const struct uturn__storage_ops uturn__storage_file = {
    .name    = "file",
    .granule = granule,
    .cost    = cost,
    .usable  = usable,
    .resize  = resize,
    .close   = close_file,
};
