/* Status strings and names, from one table each. */
#include "internal.h"

#define STATUS_COUNT 12

static const char *const messages[] = {
    [UTURN_OK]                 = "success",
    [UTURN_E_INVALID_ARG]      = "invalid argument",
    [UTURN_E_NOMEM]            = "out of memory",
    [UTURN_E_INFEASIBLE]       = "no schedule fits the memory budget",
    [UTURN_E_OVERFLOW]         = "a count does not fit in 64 bits",
    [UTURN_E_UNSUPPORTED]      = "the planner cannot handle this problem",
    [UTURN_E_CALLBACK]         = "a user callback returned an error",
    [UTURN_E_INVALID_PLAN]     = "invalid plan",
    [UTURN_E_PARSE]            = "malformed plan text",
    [UTURN_E_IO]               = "input/output error",
    [UTURN_E_NONDETERMINISTIC] = "a recomputed state differs from the first",
    [UTURN_E_STOPPED] = "stopped at a durable point, as asked",
};

static const char *const names[] = {
    [UTURN_OK]                 = "UTURN_OK",
    [UTURN_E_INVALID_ARG]      = "UTURN_E_INVALID_ARG",
    [UTURN_E_NOMEM]            = "UTURN_E_NOMEM",
    [UTURN_E_INFEASIBLE]       = "UTURN_E_INFEASIBLE",
    [UTURN_E_OVERFLOW]         = "UTURN_E_OVERFLOW",
    [UTURN_E_UNSUPPORTED]      = "UTURN_E_UNSUPPORTED",
    [UTURN_E_CALLBACK]         = "UTURN_E_CALLBACK",
    [UTURN_E_INVALID_PLAN]     = "UTURN_E_INVALID_PLAN",
    [UTURN_E_PARSE]            = "UTURN_E_PARSE",
    [UTURN_E_IO]               = "UTURN_E_IO",
    [UTURN_E_NONDETERMINISTIC] = "UTURN_E_NONDETERMINISTIC",
    [UTURN_E_STOPPED]          = "UTURN_E_STOPPED",
};

_Static_assert(sizeof messages / sizeof messages[0] == STATUS_COUNT,
               "every status needs a message");
_Static_assert(sizeof names / sizeof names[0] == STATUS_COUNT,
               "every status needs a name");
_Static_assert(UTURN_E_STOPPED + 1 == STATUS_COUNT,
               "the tables must cover the enum");

const char *uturn_strerror(uturn_status_t status)
{
    const unsigned index = (unsigned)status;
    if (index >= STATUS_COUNT)
        return "unknown status";
    return messages[index];
}

const char *uturn_status_name(uturn_status_t status)
{
    const unsigned index = (unsigned)status;
    if (index >= STATUS_COUNT)
        return "UTURN_E_UNKNOWN";
    return names[index];
}
