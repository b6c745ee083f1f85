/* Option parsing for the uturn tool: strict, with messages that name the
 * option and the problem. */
#define _POSIX_C_SOURCE 200809L /* fcntl, open */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

int cli_fail(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fputs("uturn: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    return CLI_BAD_INPUT;
}

int cli_output_open(void)
{
    if (fcntl(STDERR_FILENO, F_GETFD) == -1 && errno == EBADF) {
        const int fd = open("/dev/null", O_WRONLY);
        if (fd != STDERR_FILENO && fd >= 0)
            close(fd);
    }
    if (fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF)
        return cli_fail("standard output is closed: nothing could be "
                        "written");
    return CLI_OK;
}

int cli_output_done(int rc)
{
    errno = 0;
    if ((fflush(stdout) == 0 && !ferror(stdout)) || rc != CLI_OK)
        return rc; /* a failed command has said why already */
    const int err = errno;
    cli_fail("writing to standard output failed%s%s", err != 0 ? ": " : "",
             err != 0 ? strerror(err) : "");
    return CLI_BAD_INPUT;
}

int cli_library_error(uturn_status_t status, const uturn_error_t *error)
{
    const char *detail = error != NULL && error->message[0] != '\0'
                             ? error->message
                             : uturn_strerror(status);
    if (status == UTURN_E_INVALID_PLAN)
        cli_fail("invalid plan: %s", detail);
    else if (status == UTURN_E_PARSE)
        cli_fail("malformed plan: %s", detail);
    else
        cli_fail("%s", detail);
    switch (status) {
    case UTURN_E_INVALID_ARG:
    case UTURN_E_INVALID_PLAN:
    case UTURN_E_PARSE:
    case UTURN_E_IO:
        return CLI_BAD_INPUT;
    default:
        return CLI_CANNOT;
    }
}

/* Digits of text[0..len) into *out; false on anything else or overflow. */
static bool digits(const char *text, size_t len, uint64_t *out, bool *big)
{
    uint64_t value = 0;
    *big           = false;
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        const uint64_t d = (uint64_t)(text[i] - '0');
        if (value > (UINT64_MAX - d) / 10) {
            *big = true;
            return false;
        }
        value = value * 10 + d;
    }
    *out = value;
    return true;
}

bool cli_number(const char *what, const char *text, uint64_t *out)
{
    bool big = false;
    if (digits(text, strlen(text), out, &big))
        return true;
    if (big)
        cli_fail("%s: '%s' does not fit in 64 bits", what, text);
    else
        cli_fail("%s: '%s' is not a whole number (digits only)", what, text);
    return false;
}

bool cli_decimal(const char *what, const char *text, uint64_t *num,
                 uint64_t *den)
{
    const char *dot  = strchr(text, '.');
    const size_t len = dot != NULL ? (size_t)(dot - text) : strlen(text);
    const char *frac = dot != NULL ? dot + 1 : "";
    size_t places    = strlen(frac);
    while (places > 0 && frac[places - 1] == '0')
        places--; /* 2.50 is 2.5 */
    uint64_t whole = 0, part = 0, scale = 1;
    bool big = false, ok = (len > 0 || places > 0) &&
                           (len == 0 || digits(text, len, &whole, &big)) &&
                           (places == 0 || digits(frac, places, &part, &big));
    if (ok && strspn(frac, "0123456789") != strlen(frac))
        ok = false;
    if (!ok && !big)
        return cli_fail("%s: '%s' is not a number (digits with an optional "
                        "fraction, e.g. 2.5)",
                        what, text),
               false;
    for (size_t i = 0; ok && i < places; i++)
        big = big || __builtin_mul_overflow(scale, 10, &scale);
    if (big || __builtin_mul_overflow(whole, scale, num) ||
        __builtin_add_overflow(*num, part, num))
        return cli_fail("%s: '%s' has more digits than 64 bits hold", what,
                        text),
               false;
    *den = scale;
    return true;
}
