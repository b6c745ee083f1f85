/* Comparing action arrays field by field: the bytes after an action's op
 * are padding, which no generator writes, so a memcmp of two arrays may
 * differ where every action is equal. */
#ifndef UTURN_TEST_SAME_ACTIONS_H
#define UTURN_TEST_SAME_ACTIONS_H

#include <stddef.h>
#include <uturn.h>

/* The index of the first action where a and b differ, or n. */
static inline size_t first_difference(const uturn_action_t *a,
                                      const uturn_action_t *b, size_t n)
{
    size_t k = 0;
    while (k < n && a[k].op == b[k].op && a[k].step == b[k].step &&
           a[k].step_end == b[k].step_end && a[k].slot == b[k].slot)
        k++;
    return k;
}

#endif
