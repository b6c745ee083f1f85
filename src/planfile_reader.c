/*
 * The streaming reader: plan text in pieces of any size, each line read
 * by the grammar (planfile_line.c) as soon as it is complete, actions
 * validated and dropped. It holds one partial line at most, so its memory
 * follows the longest line and the slots in use, never the plan's length.
 */
#include "planfile.h"

#include <string.h>

struct uturn_reader {
    uturn_allocator_t alloc;
    struct uturn__planfile file;
    char *partial; /* the start of a line not yet ended */
    size_t partial_len, partial_cap;
    bool finished;
};

uturn_status_t uturn_reader_create(const uturn_allocator_t *alloc,
                                   uturn_reader_t **out, uturn_error_t *error)
{
    if (out == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG, "out must not be NULL");
    *out = NULL;
    uturn_allocator_t resolved;
    uturn__alloc_resolve(alloc, &resolved);
    uturn_reader_t *r = uturn__alloc_zeroed(&resolved, 1, sizeof *r);
    if (r == NULL)
        return uturn__fail(error, UTURN_E_NOMEM, "out of memory for a reader");
    r->alloc = resolved;
    uturn__planfile_init(&r->file, &resolved, NULL);
    *out = r;
    return UTURN_OK;
}

/* Append bytes to the partial line, growing it geometrically. */
static uturn_status_t keep_partial(uturn_reader_t *r, const char *text,
                                   size_t len)
{
    if (len > SIZE_MAX / 2 - r->partial_len)
        return UTURN_E_NOMEM;
    const size_t need = r->partial_len + len;
    if (need > r->partial_cap) {
        size_t cap = r->partial_cap != 0 ? r->partial_cap : 256;
        while (cap < need)
            cap *= 2;
        char *grown = uturn__alloc(&r->alloc, cap);
        if (grown == NULL)
            return UTURN_E_NOMEM;
        if (r->partial_len != 0)
            memcpy(grown, r->partial, r->partial_len);
        uturn__free(&r->alloc, r->partial, r->partial_cap);
        r->partial     = grown;
        r->partial_cap = cap;
    }
    memcpy(r->partial + r->partial_len, text, len);
    r->partial_len = need;
    return UTURN_OK;
}

/* A line ends at text[len] (the newline): read it, joined to the partial
 * line when one is waiting. */
static uturn_status_t end_line(uturn_reader_t *r, const char *text, size_t len)
{
    if (r->partial_len == 0)
        return uturn__planfile_line(&r->file, text, len);
    if (keep_partial(r, text, len) != UTURN_OK)
        return UTURN_E_NOMEM;
    const uturn_status_t st =
        uturn__planfile_line(&r->file, r->partial, r->partial_len);
    r->partial_len = 0;
    return st;
}

static uturn_status_t no_memory(uturn_reader_t *r, uturn_error_t *error)
{
    if (r->file.failed == UTURN_OK) {
        r->file.failed = uturn__fail(&r->file.failure, UTURN_E_NOMEM,
                                     "out of memory for a line of %llu+ "
                                     "bytes",
                                     (unsigned long long)r->partial_len);
    }
    return uturn__planfile_report(&r->file, error);
}

uturn_status_t uturn_reader_feed(uturn_reader_t *reader, const char *text,
                                 size_t length, uturn_error_t *error)
{
    if (reader == NULL || (text == NULL && length != 0))
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "reader and text must not be NULL");
    if (reader->finished)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "the reader has already finished");
    size_t start = 0;
    while (start < length && reader->file.failed == UTURN_OK) {
        const char *nl = memchr(text + start, '\n', length - start);
        if (nl == NULL) {
            if (keep_partial(reader, text + start, length - start) != UTURN_OK)
                return no_memory(reader, error);
            break;
        }
        const size_t end = (size_t)(nl - text);
        if (end_line(reader, text + start, end - start) == UTURN_E_NOMEM &&
            reader->file.failed == UTURN_OK)
            return no_memory(reader, error);
        start = end + 1;
    }
    return uturn__planfile_report(&reader->file, error);
}

uturn_status_t uturn_reader_finish(uturn_reader_t *reader,
                                   uturn_stats_t *observed,
                                   uturn_error_t *error)
{
    if (reader == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "reader must not be NULL");
    if (reader->finished)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "the reader has already finished");
    reader->finished = true;
    if (reader->file.failed == UTURN_OK && reader->partial_len != 0) {
        uturn__planfile_line(&reader->file, reader->partial,
                             reader->partial_len);
        reader->partial_len = 0;
    }
    uturn_stats_t seen;
    uturn_stats_init(&seen);
    const uturn_status_t st = uturn__planfile_end(&reader->file, &seen);
    if (observed != NULL && reader->file.validator != NULL)
        uturn__stats_export(&seen, observed);
    if (st != UTURN_OK)
        return uturn__planfile_report(&reader->file, error);
    return UTURN_OK;
}

void uturn_reader_free(uturn_reader_t *reader)
{
    if (reader == NULL)
        return;
    const uturn_allocator_t alloc = reader->alloc;
    uturn__planfile_release(&reader->file);
    uturn__free(&alloc, reader->partial, reader->partial_cap);
    uturn__free(&alloc, reader, sizeof *reader);
}
