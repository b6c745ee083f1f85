/* The version of the library actually linked. */
#include "internal.h"

unsigned uturn_version_number(void)
{
    return UTURN_VERSION_NUMBER;
}

const char *uturn_version_string(void)
{
    return UTURN_VERSION_STRING;
}
