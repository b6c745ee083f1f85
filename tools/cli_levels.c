#define _POSIX_C_SOURCE 200809L /* strtok_r */
/*
 * --levels NAME:CAPACITY[:w=W:r=R],...: storage levels, fastest first. A
 * capacity is a slot count (digits only) or a size with a unit (then the
 * state size turns it into slots); level 0 defaults to w=r=0, and so does
 * every level that does not say. Names are the user's labels. In sweep
 * the budgets are level 0's capacity, so it is given as NAME[:w=W:r=R].
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* "w=5" or "r=5" into the level; false with the message printed. */
static bool cost_part(const char *part, uturn_level_t *lv, uint64_t k)
{
    char what[64];
    snprintf(what, sizeof what, "--levels level %llu", (unsigned long long)k);
    if (strncmp(part, "w=", 2) == 0)
        return cli_number(what, part + 2, &lv->write_cost);
    if (strncmp(part, "r=", 2) == 0)
        return cli_number(what, part + 2, &lv->read_cost);
    cli_fail("--levels: '%s' is not w=COST or r=COST (level %llu)", part,
             (unsigned long long)k);
    return false;
}

/* A capacity: digits are slots, anything else a size in bytes. */
static bool capacity_part(const char *part, uturn_level_t *lv, uint64_t k)
{
    char what[64];
    snprintf(what, sizeof what, "--levels level %llu capacity",
             (unsigned long long)k);
    const bool digits =
        part[0] != '\0' && strspn(part, "0123456789") == strlen(part);
    const bool ok = digits ? cli_number(what, part, &lv->slots)
                           : cli_size(what, part, &lv->bytes);
    if (ok && lv->slots == 0 && lv->bytes == 0)
        return cli_fail("%s must be at least 1", what), false;
    return ok;
}

/* One "NAME:CAPACITY[:w=W][:r=R]" item, split in place; with
 * open_capacity the capacity is left out ("NAME[:w=W:r=R]"). */
static bool one_level(char *item, uturn_level_t *lv, uint64_t k,
                      bool open_capacity)
{
    uturn_level_init(lv);
    char *save = NULL;
    char *name = strtok_r(item, ":", &save);
    char *cap =
        name != NULL && !open_capacity ? strtok_r(NULL, ":", &save) : NULL;
    if (name == NULL || (cap == NULL && !open_capacity))
        return cli_fail("--levels: level %llu is not NAME:CAPACITY[:w=W:r=R]",
                        (unsigned long long)k),
               false;
    lv->name = name;
    if (cap != NULL && !capacity_part(cap, lv, k))
        return false;
    bool seen_w = false, seen_r = false;
    for (char *part = strtok_r(NULL, ":", &save); part != NULL;
         part       = strtok_r(NULL, ":", &save)) {
        bool *seen = strncmp(part, "w=", 2) == 0   ? &seen_w
                     : strncmp(part, "r=", 2) == 0 ? &seen_r
                                                   : NULL;
        if (seen != NULL && *seen)
            return cli_fail("--levels: level %llu gives %.2s twice (give "
                            "each cost once)",
                            (unsigned long long)k, part),
                   false;
        if (seen != NULL)
            *seen = true;
        if (open_capacity && strncmp(part, "w=", 2) != 0 &&
            strncmp(part, "r=", 2) != 0)
            return cli_fail("--levels: memory's capacity is each budget "
                            "here: give level 1 as %s[:w=W:r=R], not with "
                            "'%s'",
                            name, part),
                   false;
        if (!cost_part(part, lv, k))
            return false;
    }
    return true;
}

int cli_parse_levels(const char *text, bool open_first, struct cli_levels *out)
{
    memset(out, 0, sizeof *out);
    if (strlen(text) >= sizeof out->text)
        return cli_fail("--levels: too long");
    strcpy(out->text, text);
    char *items[CLI_MAX_LEVELS + 1];
    size_t count = 0;
    for (char *w = out->text;; w++) {
        char *comma = strchr(w, ',');
        if (comma != NULL)
            *comma = '\0';
        if (*w == '\0')
            return cli_fail("--levels: level %zu is empty", count);
        if (count == CLI_MAX_LEVELS)
            return cli_fail("--levels: at most %d levels", CLI_MAX_LEVELS);
        items[count++] = w;
        if (comma == NULL)
            break;
        w = comma;
    }
    for (size_t k = 0; k < count; k++)
        if (!one_level(items[k], &out->levels[k], k, open_first && k == 0))
            return CLI_BAD_INPUT;
    out->count = count;
    return CLI_OK;
}
