/*
 * A durable point's manifest as text (durable.h): one fact per line, the
 * tag in hex (any bytes), and a last line `sum HASH`, the XXH3-64 of every
 * byte before it, so that damage anywhere is refused:
 *
 *   uturn-durable 1
 *   point 3
 *   fingerprint 6f1c0e5a9b2d4c77
 *   steps 1000
 *   found 0                             (an online plan's n, once known)
 *   state_bytes 8000
 *   adjoint_bytes 8008
 *   levels 1
 *   tag 6275726765727331
 *   action 2841
 *   into 0
 *   live 17 8000 1f2e3d4c5b6a7988      (or: live none)
 *   adjoint 9a8b7c6d5e4f3a2b
 *   records COUNT BYTES HASH            (step records; 0 0 0: none)
 *   shares COUNT HASH                   (an online plan's; 0 0: none)
 *   counts F R STORES RESTORES FREES PEAK_SLOTS PEAK_BYTES WORK MEM_PEAK
 *   level K STORES RESTORES PEAK        (one per level beyond memory)
 *   slot SLOT STEP BYTES HASH           (one per checkpoint held)
 *   sum 0123456789abcdef
 */
#include "durable.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing text buffer. */
struct text {
    char *p;
    size_t len, cap;
    bool failed;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
put(struct text *t, const char *fmt, ...)
{
    for (int tries = 0; tries < 2 && !t->failed; tries++) {
        va_list args;
        va_start(args, fmt);
        const int n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, args);
        va_end(args);
        if (n >= 0 && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        const size_t cap = 2 * t->cap + (size_t)(n > 0 ? n : 0) + 64;
        char *grown      = realloc(t->p, cap);
        t->failed        = n < 0 || grown == NULL;
        t->p             = grown != NULL ? grown : t->p;
        t->cap           = grown != NULL ? cap : t->cap;
    }
}

static void put_head(struct text *t, const struct uturn__manifest *m)
{
    put(t,
        "uturn-durable 1\npoint %" PRIu64 "\nfingerprint %016" PRIx64
        "\nsteps %" PRIu64 "\nfound %" PRIu64 "\nstate_bytes %" PRIu64
        "\nadjoint_bytes %" PRIu64 "\nlevels %" PRIu64 "\ntag ",
        m->point, m->fingerprint, m->steps, m->found, m->state_bytes,
        m->adjoint_bytes, m->levels);
    for (const char *c = m->tag; *c != '\0'; c++)
        put(t, "%02x", (unsigned)(unsigned char)*c);
    put(t, "\naction %" PRIu64 "\ninto %" PRIu64 "\n", m->action, m->into);
    if (m->live == UTURN_NONE)
        put(t, "live none\n");
    else
        put(t, "live %" PRIu64 " %" PRIu64 " %016" PRIx64 "\n", m->live,
            m->live_bytes, m->live_hash);
    put(t, "adjoint %016" PRIx64 "\n", m->adjoint_hash);
    put(t, "records %" PRIu64 " %" PRIu64 " %016" PRIx64 "\n", m->records,
        m->record_bytes, m->records_hash);
    put(t, "shares %" PRIu64 " %016" PRIx64 "\n", m->shares, m->shares_hash);
}

uturn_status_t uturn__manifest_format(const struct uturn__manifest *m,
                                      char **text, size_t *len)
{
    struct text t = {malloc(1024), 0, 1024, false};
    t.failed      = t.p == NULL;
    put_head(&t, m);
    const struct uturn__dcounts *c = &m->counts;
    put(&t,
        "counts %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
        " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
        c->forward, c->reverse, c->stores, c->restores, c->frees, c->peak_slots,
        c->peak_bytes, c->work_done, c->memory_peak);
    for (uint64_t k = 1; k < m->levels; k++)
        put(&t, "level %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", k,
            c->level_stores[k], c->level_restores[k], c->level_peak[k]);
    for (uint64_t i = 0; i < m->nslots; i++)
        put(&t, "slot %" PRIu64 " %" PRIu64 " %" PRIu64 " %016" PRIx64 "\n",
            m->slots[i].slot, m->slots[i].step, m->slots[i].bytes,
            m->slots[i].hash);
    if (!t.failed)
        put(&t, "sum %016" PRIx64 "\n", uturn__dfile_hash(t.p, t.len));
    if (t.failed) {
        free(t.p);
        return UTURN_E_NOMEM;
    }
    *text = t.p;
    *len  = t.len;
    return UTURN_OK;
}

/* ---- parsing ---------------------------------------------------------- */

struct reader {
    const char *p, *end;
    char line[512];
    uint64_t number; /* of the line read last, or tried last */
    bool ended;      /* the text ended where a whole line was due */
};

/* The next line into r->line; false at the end or on an over-long line. */
static bool next_line(struct reader *r)
{
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    r->number++;
    r->ended = nl == NULL;
    if (nl == NULL || (size_t)(nl - r->p) >= sizeof r->line)
        return false;
    memcpy(r->line, r->p, (size_t)(nl - r->p));
    r->line[nl - r->p] = '\0';
    r->p               = nl + 1;
    /* numbers are unsigned: no sign anywhere past the first line (sscanf
     * would read "-1" as 2^64 - 1) */
    return r->number == 1 || strpbrk(r->line, "+-") == NULL;
}

/* "key N" with exactly that key and one number. */
static bool keyed(struct reader *r, const char *key, const char *fmt,
                  uint64_t *v)
{
    char want[64];
    int used = 0;
    snprintf(want, sizeof want, "%s %s%%n", key, fmt);
    return next_line(r) && sscanf(r->line, want, v, &used) == 1 &&
           r->line[used] == '\0';
}

static bool read_tag(struct reader *r, char *tag)
{
    if (!next_line(r) || strncmp(r->line, "tag ", 4) != 0)
        return false;
    const char *h = r->line + 4;
    size_t n      = 0;
    for (; h[0] != '\0' && n + 1 < UTURN__DURABLE_TAG; h += 2) {
        unsigned byte = 0;
        if (h[1] == '\0' || sscanf(h, "%2x", &byte) != 1 || byte == 0)
            return false;
        tag[n++] = (char)byte;
    }
    tag[n] = '\0';
    return h[0] == '\0';
}

static bool read_live(struct reader *r, struct uturn__manifest *m)
{
    int used = 0;
    if (!next_line(r))
        return false;
    if (strcmp(r->line, "live none") == 0) {
        m->live = UTURN_NONE;
        return true;
    }
    return sscanf(r->line, "live %" SCNu64 " %" SCNu64 " %16" SCNx64 "%n",
                  &m->live, &m->live_bytes, &m->live_hash, &used) == 3 &&
           r->line[used] == '\0' && m->live != UTURN_NONE;
}

static bool read_records(struct reader *r, struct uturn__manifest *m)
{
    int used = 0;
    if (!next_line(r) ||
        sscanf(r->line, "records %" SCNu64 " %" SCNu64 " %16" SCNx64 "%n",
               &m->records, &m->record_bytes, &m->records_hash, &used) != 3 ||
        r->line[used] != '\0')
        return false;
    return next_line(r) &&
           sscanf(r->line, "shares %" SCNu64 " %16" SCNx64 "%n", &m->shares,
                  &m->shares_hash, &used) == 2 &&
           r->line[used] == '\0';
}

static bool read_head(struct reader *r, struct uturn__manifest *m)
{
    return next_line(r) && strcmp(r->line, "uturn-durable 1") == 0 &&
           keyed(r, "point", "%" SCNu64, &m->point) &&
           keyed(r, "fingerprint", "%16" SCNx64, &m->fingerprint) &&
           keyed(r, "steps", "%" SCNu64, &m->steps) &&
           keyed(r, "found", "%" SCNu64, &m->found) &&
           keyed(r, "state_bytes", "%" SCNu64, &m->state_bytes) &&
           keyed(r, "adjoint_bytes", "%" SCNu64, &m->adjoint_bytes) &&
           keyed(r, "levels", "%" SCNu64, &m->levels) && m->levels >= 1 &&
           m->levels <= UTURN__DURABLE_MAX_LEVELS && read_tag(r, m->tag) &&
           keyed(r, "action", "%" SCNu64, &m->action) &&
           keyed(r, "into", "%" SCNu64, &m->into) && read_live(r, m) &&
           keyed(r, "adjoint", "%16" SCNx64, &m->adjoint_hash) &&
           read_records(r, m);
}

static bool read_counts(struct reader *r, struct uturn__manifest *m)
{
    struct uturn__dcounts *c = &m->counts;
    int used                 = 0;
    if (!next_line(r) ||
        sscanf(r->line,
               "counts %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
               " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 "%n",
               &c->forward, &c->reverse, &c->stores, &c->restores, &c->frees,
               &c->peak_slots, &c->peak_bytes, &c->work_done, &c->memory_peak,
               &used) != 9 ||
        r->line[used] != '\0')
        return false;
    for (uint64_t k = 1; k < m->levels; k++) {
        uint64_t level = 0;
        if (!next_line(r) ||
            sscanf(r->line,
                   "level %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 "%n",
                   &level, &c->level_stores[k], &c->level_restores[k],
                   &c->level_peak[k], &used) != 4 ||
            r->line[used] != '\0' || level != k)
            return false;
    }
    return true;
}

/* The slot lines, up to the sum line (left in r->line). */
static bool read_slots(struct reader *r, struct uturn__manifest *m)
{
    uint64_t cap = 0;
    while (next_line(r) && strncmp(r->line, "slot ", 5) == 0) {
        if (m->nslots == cap) {
            cap                    = 2 * cap + 16;
            struct uturn__dslot *g = realloc(m->slots, cap * sizeof *g);
            if (g == NULL)
                return false;
            m->slots = g;
        }
        struct uturn__dslot *s = &m->slots[m->nslots++];
        int used               = 0;
        if (sscanf(r->line,
                   "slot %" SCNu64 " %" SCNu64 " %" SCNu64 " %16" SCNx64 "%n",
                   &s->slot, &s->step, &s->bytes, &s->hash, &used) != 4 ||
            r->line[used] != '\0')
            return false;
    }
    return strncmp(r->line, "sum ", 4) == 0;
}

/* Whether @p line is a sum line, "sum HASH" and nothing more. */
static bool is_sum_line(const char *line)
{
    uint64_t sum = 0;
    int used     = 0;
    return sscanf(line, "sum %16" SCNx64 "%n", &sum, &used) == 1 &&
           line[used] == '\0';
}

/* Where a manifest that does not parse went wrong, by line. */
static void why_not(const struct reader *r, char *why, size_t why_cap)
{
    const unsigned long long at = (unsigned long long)r->number;
    const bool sum_line         = is_sum_line(r->line);
    if (r->ended && at == 1)
        snprintf(why, why_cap, "it is empty");
    else if (r->ended)
        snprintf(why, why_cap, "it ends after its line %llu, with no sum line",
                 at - 1);
    else if (sum_line && r->p != r->end)
        snprintf(why, why_cap, "it goes on after its sum line (line %llu)", at);
    else
        snprintf(why, why_cap, "its line %llu is not what a manifest holds",
                 at);
}

uturn_status_t uturn__manifest_parse(const char *text, size_t len,
                                     struct uturn__manifest *m, char *why,
                                     size_t why_cap)
{
    memset(m, 0, sizeof *m);
    struct reader r    = {text, text + len, {0}, 0, false};
    const char *sum_at = NULL;
    const bool ok      = read_head(&r, m) && read_counts(&r, m) &&
                    read_slots(&r, m) && (sum_at = r.p - strlen(r.line) - 1) &&
                    is_sum_line(r.line) && r.p == r.end;
    if (!ok) {
        why_not(&r, why, why_cap);
        uturn__manifest_clear(m);
        return UTURN_E_PARSE;
    }
    /* the sum line exactly as written (hex digits in lower case) */
    char want[32];
    snprintf(want, sizeof want, "sum %016" PRIx64,
             uturn__dfile_hash(text, (uint64_t)(sum_at - text)));
    if (strcmp(want, r.line) != 0) {
        snprintf(why, why_cap, "its checksum does not match its contents");
        uturn__manifest_clear(m);
        return UTURN_E_PARSE;
    }
    return UTURN_OK;
}

void uturn__manifest_clear(struct uturn__manifest *m)
{
    free(m->slots);
    m->slots  = NULL;
    m->nslots = 0;
}
