/* Counting allocator for tests; the header says what it does. Each block
 * carries its size in front so frees can be checked against it. */
#include "counting_alloc.h"

#include <stdlib.h>
#include <string.h>

#define HEADER 16

static void *count_alloc(void *user, size_t size)
{
    counting_alloc_t *c = user;
    c->total_allocs += 1;
    if (size > c->largest_block)
        c->largest_block = size;
    if (c->fail_at != 0 && c->total_allocs == c->fail_at)
        return NULL;
    unsigned char *block = malloc(size + HEADER);
    if (block == NULL)
        return NULL;
    memcpy(block, &size, sizeof size);
    c->live_blocks += 1;
    c->live_bytes += size;
    if (c->live_bytes > c->peak_bytes)
        c->peak_bytes = c->live_bytes;
    if (c->on_alloc != NULL)
        c->on_alloc(c->context, c);
    return block + HEADER;
}

static void count_free(void *user, void *ptr, size_t size)
{
    counting_alloc_t *c = user;
    if (ptr == NULL)
        return;
    unsigned char *block = (unsigned char *)ptr - HEADER;
    size_t recorded      = 0;
    memcpy(&recorded, block, sizeof recorded);
    if (recorded != size)
        c->size_mismatches += 1;
    c->live_blocks -= 1;
    c->live_bytes -= recorded;
    free(block);
}

uturn_allocator_t counting_allocator(counting_alloc_t *counts)
{
    uturn_allocator_t a = {count_alloc, count_free, counts};
    return a;
}
