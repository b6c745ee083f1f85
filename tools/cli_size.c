/*
 * Sizes as people write them: "40M", "40MB", "40MiB", "40 mib", "1.5GiB",
 * "0.5MiB", "4096". The units follow GNU coreutils (dd, head, truncate):
 * K, M, G, T, P, E alone, with "i" or with "iB" are powers of 1024; KB, MB,
 * GB, TB, PB, EB powers of 1000; B or nothing is bytes; case does not
 * matter. A fraction is allowed when the size is a whole number of bytes,
 * and refused otherwise with the two whole sizes beside it; nothing is
 * rounded, and a size past 2^64 - 1 bytes is refused. The rule is stated
 * once for every --help in CLI_SIZE_HELP (cli.h).
 */
#include "cli.h"

#include <ctype.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* At most this many decimal places (after trailing zeros are dropped):
 * 10^19 still fits in 64 bits, and no size people write needs more. */
#define MAX_PLACES 19

/* A written size split into its parts; the number is M / 10^places. */
struct written {
    u128 mantissa;
    unsigned places;
    uint64_t factor;
    bool big; /* the whole part alone passes 2^64 - 1 */
};

/* The factor of a unit ("", "B", "k", "KiB", "mb", ...), or 0. */
static uint64_t unit_factor(const char *unit)
{
    static const char prefixes[] = "KMGTPE";
    if (unit[0] == '\0' ||
        ((unit[0] == 'b' || unit[0] == 'B') && unit[1] == '\0'))
        return 1;
    const char *p = strchr(prefixes, toupper((unsigned char)unit[0]));
    if (p == NULL)
        return 0;
    const int power = (int)(p - prefixes) + 1;
    char rest[4]    = {0};
    for (size_t i = 0; i < 3 && unit[1 + i] != '\0'; i++)
        rest[i] = (char)toupper((unsigned char)unit[1 + i]);
    if (strlen(unit + 1) > 2)
        return 0;
    const bool binary = strcmp(rest, "") == 0 || strcmp(rest, "I") == 0 ||
                        strcmp(rest, "IB") == 0;
    if (!binary && strcmp(rest, "B") != 0)
        return 0;
    uint64_t factor = 1;
    for (int i = 0; i < power; i++)
        factor *= binary ? 1024u : 1000u;
    return factor;
}

enum split_result { SIZE_OK, NOT_A_SIZE, TOO_MANY_PLACES };

/* Split text into number and unit. */
static enum split_result split(const char *text, struct written *w)
{
    const char *c = text;
    bool any      = false;
    *w            = (struct written){0, 0, 1, false};
    for (; isdigit((unsigned char)*c); c++, any = true) {
        const unsigned d = (unsigned)(*c - '0');
        w->big           = w->big || w->mantissa > (UINT64_MAX - d) / 10;
        if (!w->big)
            w->mantissa = w->mantissa * 10 + d;
    }
    const char *frac = *c == '.' ? c + 1 : c;
    size_t places    = 0;
    while (isdigit((unsigned char)frac[places]))
        places++;
    any = any || places > 0;
    c   = frac + places;
    while (places > 0 && frac[places - 1] == '0')
        places--; /* 1.50 is 1.5 */
    if (places > MAX_PLACES)
        return TOO_MANY_PLACES;
    for (size_t i = 0; i < places && !w->big; i++)
        w->mantissa = w->mantissa * 10 + (unsigned)(frac[i] - '0');
    w->places = (unsigned)places;
    while (*c == ' ' || *c == '\t')
        c++;
    w->factor = unit_factor(c);
    return any && w->factor != 0 ? SIZE_OK : NOT_A_SIZE;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        const uint64_t t = a % b;
        a                = b;
        b                = t;
    }
    return a;
}

static bool too_big(const char *what, const char *text)
{
    cli_fail("%s: '%s' does not fit in 64 bits (the largest size is "
             "18446744073709551615 bytes, just under 16 EiB)",
             what, text);
    return false;
}

/* The exact value of a size that is not whole, and the sizes beside it. */
static bool not_whole(const char *what, const char *text, u128 floor,
                      uint64_t frac, unsigned places)
{
    if (floor >= UINT64_MAX)
        return too_big(what, text);
    char digits[MAX_PLACES + 1];
    snprintf(digits, sizeof digits, "%0*llu", (int)places,
             (unsigned long long)frac);
    for (size_t len = strlen(digits); len > 0 && digits[len - 1] == '0';)
        digits[--len] = '\0';
    cli_fail("%s: '%s' is %llu.%s bytes, not a whole number of bytes: give "
             "%llu or %llu",
             what, text, (unsigned long long)floor, digits,
             (unsigned long long)floor, (unsigned long long)floor + 1);
    return false;
}

bool cli_size(const char *what, const char *text, uint64_t *out)
{
    struct written w;
    const enum split_result split_as = split(text, &w);
    if (split_as == TOO_MANY_PLACES)
        return cli_fail("%s: '%s' has more than %d decimal places", what, text,
                        MAX_PLACES),
               false;
    if (split_as == NOT_A_SIZE)
        return cli_fail("%s: '%s' is not a size (%s)", what, text,
                        CLI_SIZE_FORMS),
               false;
    if (w.big)
        return too_big(what, text);
    uint64_t den = 1;
    for (unsigned i = 0; i < w.places; i++)
        den *= 10;
    /* size = mantissa * factor / den, whole only when den / g divides the
     * mantissa (factor / g and den / g share no factor). */
    const uint64_t g = gcd(w.factor, den), f = w.factor / g, d = den / g;
    const u128 q = w.mantissa / d, r = w.mantissa % d;
    if (q > UINT64_MAX / f)
        return too_big(what, text);
    if (r != 0) {
        const u128 part = r * f; /* below d * f <= 10^19 * 2^60 */
        return not_whole(what, text, q * f + part / d,
                         (uint64_t)(part % d * (den / d)), w.places);
    }
    *out = (uint64_t)(q * f);
    return true;
}
