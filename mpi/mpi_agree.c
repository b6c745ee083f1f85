/*
 * Agreed failures. Once a vote says that some rank failed, the lowest
 * failing rank broadcasts what its own call said, and every rank returns
 * exactly that, prefixed with the rank: the same status everywhere, a
 * message a person can act on whichever rank's log they read, and the
 * failing rank's own figures (its minimum budget, the step that failed).
 */
#include "mpi_internal.h"

#include <stdio.h>
#include <string.h>

/* What travels: the fields of a uturn_error_t, at fixed positions. */
struct wire {
    int32_t status;
    uint64_t action, line, step, minimum_slots, minimum_bytes;
    char message[sizeof((uturn_error_t *)0)->message];
};

static void to_wire(const uturn_error_t *e, struct wire *w)
{
    memset(w, 0, sizeof *w);
    w->status        = (int32_t)e->status;
    w->action        = e->action;
    w->line          = e->line;
    w->step          = e->step;
    w->minimum_slots = e->minimum_slots;
    w->minimum_bytes = e->minimum_bytes;
    memcpy(w->message, e->message, sizeof w->message);
    w->message[sizeof w->message - 1] = '\0';
}

/* "rank R of P[ (and K more)]: MESSAGE" with the wire's fields. */
static void from_wire(const struct wire *w, const struct uturn__mpi_comm *c,
                      const struct uturn__mpi_vote *v, uturn_error_t *out)
{
    char more[48] = "";
    if (v->failed > 1)
        snprintf(more, sizeof more, " (and %llu more)",
                 (unsigned long long)(v->failed - 1));
    const uturn_status_t status = (uturn_status_t)w->status;
    const char *text =
        w->message[0] != '\0' ? w->message : uturn_strerror(status);
    uturn__mpi_fail(out, status, "rank %llu of %d%s: %s",
                    (unsigned long long)v->failed_rank, c->size, more, text);
    if (out == NULL)
        return;
    out->action        = w->action;
    out->line          = w->line;
    out->step          = w->step;
    out->minimum_slots = w->minimum_slots;
    out->minimum_bytes = w->minimum_bytes;
}

uturn_status_t uturn__mpi_agree_failure(struct uturn__mpi_comm *c,
                                        const struct uturn__mpi_vote *v,
                                        const uturn_error_t *mine,
                                        uturn_error_t *out)
{
    struct wire w;
    memset(&w, 0, sizeof w);
    const int root = (int)v->failed_rank;
    if (c->rank == root && mine != NULL)
        to_wire(mine, &w);
    uturn__mpi_bcast(c, &w, sizeof w, root);
    if (w.status == UTURN_OK) /* a failing rank always has a status */
        w.status = UTURN_E_INVALID_ARG;
    from_wire(&w, c, v, out);
    return (uturn_status_t)w.status;
}

/* A key and its text, as rank 0 and the odd rank send them. */
struct quote {
    uint64_t key;
    char what[UTURN__MPI_WHAT];
};

/* The next ", "-separated item of *text (its length), *text past it. */
static size_t next_item(const char **text, const char **item)
{
    *item           = *text;
    const char *end = strstr(*text, ", ");
    const size_t n  = end != NULL ? (size_t)(end - *text) : strlen(*text);
    *text += n + (end != NULL ? 2 : 0);
    return n;
}

/* "rank R has ITEM where rank 0 has ITEM" for each item that differs
 * (the texts hold the same items in the same order). */
static void differences(const char *odd_text, const char *first_text, int odd,
                        char *out, size_t cap)
{
    size_t used = 0;
    out[0]      = '\0';
    while (*odd_text != '\0' && *first_text != '\0' && used < cap) {
        const char *a = NULL, *b = NULL;
        const size_t na = next_item(&odd_text, &a);
        const size_t nb = next_item(&first_text, &b);
        if (na == nb && memcmp(a, b, na) == 0)
            continue;
        const int n = snprintf(out + used, cap - used,
                               "%srank %d has %.*s where rank 0 has %.*s",
                               used != 0 ? "; " : "", odd, (int)na, a, (int)nb,
                               b);
        used += n > 0 ? (size_t)n : 0;
    }
}

uturn_status_t uturn__mpi_name_odd_rank(struct uturn__mpi_comm *c, uint64_t key,
                                        const char *what, uturn_status_t status,
                                        uturn_error_t *out)
{
    struct quote mine, first;
    memset(&mine, 0, sizeof mine);
    mine.key = key;
    snprintf(mine.what, sizeof mine.what, "%s", what);
    first = mine;
    uturn__mpi_bcast(c, &first, sizeof first, 0);
    struct uturn__mpi_vote v;
    uturn__mpi_vote_init(&v);
    if (key != first.key)
        v.low[0] = (uint64_t)c->rank;
    uturn__mpi_vote(c, &v);
    const int odd      = v.low[0] < (uint64_t)c->size ? (int)v.low[0] : 0;
    struct quote other = mine;
    uturn__mpi_bcast(c, &other, sizeof other, odd);
    char diff[UTURN__MPI_WHAT];
    differences(other.what, first.what, odd, diff, sizeof diff);
    if (diff[0] != '\0')
        return uturn__mpi_fail(out, status,
                               "rank %d of %d disagrees with rank 0: %s", odd,
                               c->size, diff);
    return uturn__mpi_fail(out, status,
                           "rank %d of %d disagrees with rank 0: rank %d has "
                           "%s; rank 0 has %s",
                           odd, c->size, odd, other.what, first.what);
}
