/* Untrusted text in messages: shown, never interpreted by a terminal. */
#include "internal.h"

#include <stdio.h>

/* Append one byte as itself or as \xHH; false when out has no room. */
static bool put_byte(unsigned char c, char *out, size_t cap, size_t *used)
{
    char piece[5];
    size_t n = 0;
    if (c >= 0x20 && c < 0x7f && c != '\\') {
        piece[n++] = (char)c;
    } else if (c == '\\') {
        piece[n++] = '\\';
        piece[n++] = '\\';
    } else {
        snprintf(piece, sizeof piece, "\\x%02x", (unsigned)c);
        n = 4;
    }
    if (*used + n + 1 > cap)
        return false;
    for (size_t i = 0; i < n; i++)
        out[(*used)++] = piece[i];
    return true;
}

void uturn__quote(const char *text, size_t len, size_t max_shown, char *out,
                  size_t cap)
{
    size_t used = 0, i = 0;
    if (cap < 8) {
        if (cap != 0)
            out[0] = '\0';
        return;
    }
    for (; i < len && i < max_shown; i++)
        if (!put_byte((unsigned char)text[i], out, cap - 3, &used))
            break;
    if (i < len && used + 4 <= cap) {
        out[used++] = '.';
        out[used++] = '.';
        out[used++] = '.';
    }
    out[used] = '\0';
}
