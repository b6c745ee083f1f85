/*
 * Sizes as the uturn CLI reads them: "64MB", "64MiB", "64M", "1.5GiB",
 * "4096". K, M, G, T, P, E alone, with "i" or with "iB" are powers of
 * 1024; KB, MB, GB, TB, PB, EB powers of 1000; B or nothing is bytes; case
 * does not matter; spaces may separate the number from its unit. A
 * fraction is allowed when the size is a whole number of bytes; nothing
 * is rounded, and a size past 2^64 - 1 bytes is refused.
 */
#include "petsc_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

__extension__ typedef unsigned __int128 wide_t;

/* The factor of a unit ("", "B", "k", "KiB", "mb", ...), or 0. */
static uint64_t unit_factor(const char *unit)
{
    static const char prefixes[] = "KMGTPE";
    if (unit[0] == '\0' ||
        (toupper((unsigned char)unit[0]) == 'B' && unit[1] == '\0'))
        return 1;
    const char *p = strchr(prefixes, toupper((unsigned char)unit[0]));
    if (p == NULL || unit[0] == '\0' || strlen(unit) > 3)
        return 0;
    char rest[3] = {0};
    for (size_t i = 0; i < 2 && unit[1 + i] != '\0'; i++)
        rest[i] = (char)toupper((unsigned char)unit[1 + i]);
    const bool binary = strcmp(rest, "") == 0 || strcmp(rest, "I") == 0 ||
                        strcmp(rest, "IB") == 0;
    if (!binary && strcmp(rest, "B") != 0)
        return 0;
    uint64_t factor = 1;
    for (long i = 0; i <= p - prefixes; i++)
        factor *= binary ? 1024u : 1000u;
    return factor;
}

/* The digits of a number with an optional fraction, as mantissa / 10^places
 * (at most 19 places); *end is where the unit begins. False: no digits,
 * too many places, or a whole part past 64 bits. */
static bool number(const char *text, wide_t *mantissa, unsigned *places,
                   const char **end)
{
    const char *c = text;
    bool any      = false;
    *mantissa     = 0;
    for (; isdigit((unsigned char)*c); c++, any = true) {
        *mantissa = *mantissa * 10 + (unsigned)(*c - '0');
        if (*mantissa > UINT64_MAX)
            return false;
    }
    const char *frac = *c == '.' ? c + 1 : c;
    size_t n         = 0;
    while (isdigit((unsigned char)frac[n]))
        n++;
    *end = frac + n;
    any  = any || n > 0;
    while (n > 0 && frac[n - 1] == '0')
        n--;
    if (!any || n > 19)
        return false;
    for (size_t i = 0; i < n; i++)
        *mantissa = *mantissa * 10 + (unsigned)(frac[i] - '0');
    *places = (unsigned)n;
    return true;
}

bool uturn__petsc_size(const char *text, uint64_t *out, char *why,
                       size_t why_bytes)
{
    wide_t mantissa  = 0;
    unsigned places  = 0;
    const char *unit = text;
    if (!number(text, &mantissa, &places, &unit)) {
        snprintf(why, why_bytes,
                 "'%s' is not a size (e.g. 4096, 64MB, "
                 "64MiB, 1.5GiB)",
                 text);
        return false;
    }
    while (*unit == ' ' || *unit == '\t')
        unit++;
    const uint64_t factor = unit_factor(unit);
    if (factor == 0) {
        snprintf(why, why_bytes,
                 "'%s' has no known unit (B, K, KiB, KB, "
                 "M, MiB, MB, ... up to E)",
                 text);
        return false;
    }
    wide_t den = 1;
    for (unsigned i = 0; i < places; i++)
        den *= 10;
    /* A product past 128 bits is past 2^64 bytes once divided by den. */
    const bool huge     = mantissa > ~(wide_t)0 / factor;
    const wide_t scaled = huge ? 0 : mantissa * factor;
    if (huge || scaled % den != 0 || scaled / den > UINT64_MAX) {
        snprintf(why, why_bytes,
                 "'%s' is not a whole number of bytes "
                 "below 2^64",
                 text);
        return false;
    }
    *out = (uint64_t)(scaled / den);
    return true;
}
