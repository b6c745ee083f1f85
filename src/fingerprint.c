/*
 * Plan fingerprints: XXH3-64 of a canonical encoding of what determines a
 * plan's action stream, so that processes (MPI ranks) can check cheaply
 * that they will perform the same actions. The encoding is a sequence of
 * 64-bit little-endian words: a tag and the encoding's version, the
 * planner's id, then what the planner says fixes its stream (by default:
 * steps, slots and stride as resolved). Arrays enter as their length and
 * the XXH3-64 of their little-endian words. What does not change the
 * stream (thread counts, allocators, the bytes a slot is counted as) is
 * left out, so that ranks with different state sizes that agree on a
 * capacity agree on the fingerprint too.
 */
#include "planner.h"

#define XXH_INLINE_ALL
#include <string.h>
#include <xxhash.h>

#define FINGERPRINT_TAG     0x7475726e2d667070ull /* "turn-fpp" */
#define FINGERPRINT_VERSION 1u
#define NO_ARRAY            0xffffffffffffffffull

_Static_assert(sizeof(XXH3_state_t) + 64 <=
                   sizeof(((struct uturn__hasher *)0)->state),
               "the hasher holds an XXH3 state at a 64-byte boundary");
_Static_assert(_Alignof(XXH3_state_t) <= 64, "64 bytes align it");

static XXH3_state_t *state_of(struct uturn__hasher *h)
{
    const uintptr_t at = ((uintptr_t)h->state + 63) & ~(uintptr_t)63;
    return (XXH3_state_t *)(void *)(h->state + (at - (uintptr_t)h->state));
}

static void little_endian(uint64_t value, unsigned char out[8])
{
    for (int i = 0; i < 8; i++)
        out[i] = (unsigned char)(value >> (8 * i));
}

void uturn__hasher_start(struct uturn__hasher *h)
{
    XXH3_64bits_reset(state_of(h));
    uturn__hash_u64(h, FINGERPRINT_TAG);
    uturn__hash_u64(h, FINGERPRINT_VERSION);
}

void uturn__hash_u64(struct uturn__hasher *h, uint64_t value)
{
    unsigned char bytes[8];
    little_endian(value, bytes);
    XXH3_64bits_update(state_of(h), bytes, sizeof bytes);
}

void uturn__hash_array(struct uturn__hasher *h, const uint64_t *values,
                       uint64_t n)
{
    if (values == NULL) {
        uturn__hash_u64(h, NO_ARRAY);
        return;
    }
    XXH3_state_t inner;
    XXH3_64bits_reset(&inner);
    for (uint64_t i = 0; i < n; i++) {
        unsigned char bytes[8];
        little_endian(values[i], bytes);
        XXH3_64bits_update(&inner, bytes, sizeof bytes);
    }
    uturn__hash_u64(h, n);
    uturn__hash_u64(h, XXH3_64bits_digest(&inner));
}

uint64_t uturn__hasher_end(struct uturn__hasher *h)
{
    return XXH3_64bits_digest(state_of(h));
}

uint64_t uturn__plan_fingerprint(const uturn_plan_t *plan)
{
    struct uturn__hasher h;
    uturn__hasher_start(&h);
    uturn__hash_u64(&h, (uint64_t)plan->planner->id);
    if (plan->planner->fingerprint != NULL) {
        plan->planner->fingerprint(plan, &h);
    } else {
        uturn__hash_u64(&h, plan->problem.steps);
        uturn__hash_u64(&h, plan->stats.slots);
        uturn__hash_u64(&h, plan->problem.stride);
    }
    return uturn__hasher_end(&h);
}

uturn_status_t uturn_plan_fingerprint(const uturn_plan_t *plan, uint64_t *out)
{
    if (plan == NULL || out == NULL)
        return UTURN_E_INVALID_ARG;
    *out = plan->stats.fingerprint;
    return UTURN_OK;
}
