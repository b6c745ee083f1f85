/* Actions as text: the one spelling used by plan files and the CLI. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

const char *uturn_op_name(uturn_op_t op)
{
    switch (op) {
    case UTURN_OP_ADVANCE:
        return "advance";
    case UTURN_OP_STORE:
        return "store";
    case UTURN_OP_RESTORE:
        return "restore";
    case UTURN_OP_FREE:
        return "free";
    case UTURN_OP_TURN:
        return "turn";
    case UTURN_OP_REVERSE:
        return "reverse";
    case UTURN_OP_PERSIST:
        return "persist";
    }
    return NULL;
}

/* Decimal digits of v into out, returning the count. */
static size_t put_u64(char *out, uint64_t v)
{
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

size_t uturn__action_text(const uturn_action_t *a, char out[64])
{
    const char *name = uturn_op_name(a->op);
    size_t len       = strlen(name);
    memcpy(out, name, len);
    if (a->op == UTURN_OP_ADVANCE || a->op == UTURN_OP_STORE ||
        a->op == UTURN_OP_RESTORE || a->op == UTURN_OP_REVERSE) {
        out[len++] = ' ';
        len += put_u64(out + len, a->step);
    }
    if (a->op == UTURN_OP_ADVANCE) {
        out[len++] = ' ';
        len += put_u64(out + len, a->step_end);
    }
    if (a->op == UTURN_OP_STORE || a->op == UTURN_OP_RESTORE ||
        a->op == UTURN_OP_FREE || a->op == UTURN_OP_PERSIST) {
        out[len++] = ' ';
        len += put_u64(out + len, a->slot);
    }
    out[len] = '\0';
    return len;
}

uturn_status_t uturn_action_format(const uturn_action_t *action, char *buffer,
                                   size_t capacity, size_t *length)
{
    if (action == NULL || uturn_op_name(action->op) == NULL ||
        (buffer == NULL && capacity != 0))
        return UTURN_E_INVALID_ARG;
    char text[64];
    const size_t len = uturn__action_text(action, text);
    if (capacity != 0) {
        const size_t copy = len < capacity ? len : capacity - 1;
        memcpy(buffer, text, copy);
        buffer[copy] = '\0';
    }
    if (length != NULL)
        *length = len;
    return UTURN_OK;
}
