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

/* The slow path of uturn_cursor_next(), kept out of line so that the fast
 * path saves no registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool
refill(uturn_cursor_t *cursor, uturn_action_t *action)
{
    if (cursor->done)
        return false;
    cursor->count =
        cursor->planner->fill(cursor->state, cursor->buffer, BUFFERED);
    cursor->head = 0;
    if (cursor->count == 0) {
        cursor->done = true;
        return false;
    }
    *action      = cursor->buffer[0];
    cursor->head = 1;
    return true;
}

bool uturn_cursor_next(uturn_cursor_t *cursor, uturn_action_t *action)
{
    const size_t head = cursor->head;
    if (head == cursor->count)
        return refill(cursor, action);
    *action      = cursor->buffer[head];
    cursor->head = head + 1;
    return true;
}

uturn_status_t uturn_cursor_read(uturn_cursor_t *cursor,
                                 uturn_action_t *actions, size_t capacity,
                                 size_t *count)
{
    if (cursor == NULL || actions == NULL || capacity == 0 || count == NULL)
        return UTURN_E_INVALID_ARG;
    size_t written = 0;
    while (written < capacity && cursor->head < cursor->count)
        actions[written++] = cursor->buffer[cursor->head++];
    /* Generate straight into the caller's array while it has room. */
    while (!cursor->done && capacity - written >= UTURN__FILL_MIN) {
        const size_t got = cursor->planner->fill(
            cursor->state, actions + written, capacity - written);
        cursor->done = got == 0;
        written += got;
    }
    /* A tail too short for the generator goes through the buffer. */
    while (written < capacity && uturn_cursor_next(cursor, actions + written))
        written++;
    *count = written;
    return UTURN_OK;
}

void uturn_cursor_free(uturn_cursor_t *cursor)
{
    if (cursor == NULL)
        return;
    const uturn_allocator_t alloc = cursor->alloc;
    uturn__free(&alloc, cursor, cursor->bytes);
}
