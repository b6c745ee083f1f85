/* A state's size told to an online plan's generator, and the generator's
 * state grown when the plan asks for more (planner.h): one path for the
 * cursor, the executor and the durable replays, so each grows the same. */
#include "planner.h"

#include <string.h>

uturn_status_t uturn__gen_set_size(const struct uturn__planner *g,
                                   const uturn_allocator_t *alloc,
                                   unsigned char **state, size_t *bytes,
                                   uint64_t step, uint64_t size)
{
    const uturn_status_t st = g->set_size(*state, step, size);
    if (st != UTURN_OK || g->state_need == NULL)
        return st;
    const size_t need = g->state_need(*state);
    if (need == 0) /* a block the caller kept may be larger: 0 alone says */
        return UTURN_OK;
    unsigned char *fresh =
        need == SIZE_MAX ? NULL : uturn__alloc(alloc, need);
    if (fresh == NULL)
        return UTURN_E_NOMEM;
    g->state_move(*state, fresh);
    uturn__free(alloc, *state, *bytes);
    *state = fresh;
    *bytes = need;
    return UTURN_OK;
}
