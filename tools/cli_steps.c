/* --sizes FILE and --costs FILE: one value per line (sizes may carry a
 * suffix), '#' comments and blank lines allowed, exactly --steps values,
 * each at least 1. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The value on one line, if any: trims blanks and a '#' comment. */
static char *value_text(char *line)
{
    char *hash = strchr(line, '#');
    if (hash != NULL)
        *hash = '\0';
    while (*line == ' ' || *line == '\t')
        line++;
    size_t len = strlen(line);
    while (len > 0 && strchr(" \t\r\n", line[len - 1]) != NULL)
        line[--len] = '\0';
    return len == 0 ? NULL : line;
}

/* Parse one value; 0 is refused; returns false with the message printed. */
static bool one_value(const char *opt, const char *path, uint64_t line_no,
                      const char *text, bool size, uint64_t *out)
{
    char what[512];
    snprintf(what, sizeof what, "%s %s line %llu", opt, path,
             (unsigned long long)line_no);
    if (!(size ? cli_size(what, text, out) : cli_number(what, text, out)))
        return false;
    if (*out == 0)
        return cli_fail("%s: 0: every %s must be at least 1", what,
                        size ? "state size" : "step cost"),
               false;
    return true;
}

/* Room for one more value: the array grows with the values the file
 * holds, never to a count --steps merely states. */
static bool grow(uint64_t **values, uint64_t *cap, uint64_t count)
{
    if (count < *cap)
        return true;
    const uint64_t more = *cap < 1024 ? 1024 : *cap * 2;
    if (more > SIZE_MAX / sizeof **values)
        return false;
    uint64_t *grown = realloc(*values, (size_t)more * sizeof **values);
    if (grown == NULL)
        return false;
    *values = grown;
    *cap    = more;
    return true;
}

int cli_read_values(const char *opt, const char *path, bool size, uint64_t n,
                    uint64_t **out)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (f == NULL)
        return cli_fail("%s: cannot read '%s': %s", opt, path, strerror(errno));
    uint64_t *values = NULL;
    char *line       = NULL;
    size_t cap       = 0;
    uint64_t count = 0, line_no = 0, room = 0;
    int rc         = CLI_OK;
    while (rc == CLI_OK && getline(&line, &cap, f) >= 0) {
        const char *text = value_text(line);
        line_no++;
        if (text == NULL)
            continue;
        if (count == n)
            rc = cli_fail("%s %s: more than the %llu values --steps asks "
                          "for (line %llu)",
                          opt, path, (unsigned long long)n,
                          (unsigned long long)line_no);
        else if (!grow(&values, &room, count))
            rc = cli_fail("out of memory for %s", opt);
        else if (!one_value(opt, path, line_no, text, size, &values[count++]))
            rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK && ferror(f))
        rc = cli_fail("%s: cannot read '%s': %s", opt, path, strerror(errno));
    if (rc == CLI_OK && count < n)
        rc = cli_fail("%s %s: %llu values for %llu steps", opt, path,
                      (unsigned long long)count, (unsigned long long)n);
    free(line);
    if (f != stdin)
        fclose(f);
    if (rc != CLI_OK)
        free(values);
    else
        *out = values;
    return rc;
}
