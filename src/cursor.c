/* Cursors: buffered pulls from a planner's generator. */
#include "planner.h"

#include <stdalign.h>
#include <string.h>

#define BUFFERED 64

struct uturn_cursor {
    uturn_allocator_t alloc;
    const struct uturn__planner *planner;
    size_t bytes; /* of this whole object */
    size_t head, count;
    bool done;
    uturn_action_t buffer[BUFFERED];
    alignas(16) unsigned char state[];
};

uturn_status_t uturn_cursor_create(const uturn_plan_t *plan,
                                   const uturn_allocator_t *alloc,
                                   uturn_cursor_t **out)
{
    if (out != NULL)
        *out = NULL;
    if (plan == NULL || out == NULL)
        return UTURN_E_INVALID_ARG;
    size_t state_bytes    = 0;
    uturn_status_t status = plan->planner->state_size(plan, &state_bytes);
    if (status != UTURN_OK)
        return status;
    if (state_bytes > SIZE_MAX - sizeof(uturn_cursor_t))
        return UTURN_E_NOMEM;
    uturn_allocator_t resolved = plan->alloc;
    if (alloc != NULL)
        uturn__alloc_resolve(alloc, &resolved);
    const size_t bytes     = sizeof(uturn_cursor_t) + state_bytes;
    uturn_cursor_t *cursor = uturn__alloc(&resolved, bytes);
    if (cursor == NULL)
        return UTURN_E_NOMEM;
    cursor->alloc   = resolved;
    cursor->planner = plan->planner;
    cursor->bytes   = bytes;
    cursor->head    = 0;
    cursor->count   = 0;
    cursor->done    = false;
    plan->planner->start(plan, cursor->state);
    *out = cursor;
    return UTURN_OK;
}

bool uturn_cursor_next(uturn_cursor_t *cursor, uturn_action_t *action)
{
    if (cursor->head == cursor->count) {
        if (cursor->done)
            return false;
        cursor->count =
            cursor->planner->fill(cursor->state, cursor->buffer, BUFFERED);
        cursor->head = 0;
        if (cursor->count == 0) {
            cursor->done = true;
            return false;
        }
    }
    *action = cursor->buffer[cursor->head++];
    return true;
}

void uturn_cursor_free(uturn_cursor_t *cursor)
{
    if (cursor == NULL)
        return;
    const uturn_allocator_t alloc = cursor->alloc;
    uturn__free(&alloc, cursor, cursor->bytes);
}
