/*
 * Reading plan text (format described in uturn.h at uturn_plan_parse()).
 * Every byte is read through bounds-checked indices; the text need not be
 * NUL-terminated. Actions are validated as they are read.
 */
#include "validator.h"

#include <string.h>

#define MAX_FIELDS 5

struct field {
    const char *at;
    size_t len;
};

enum header { H_STEPS, H_SLOTS, H_SLOT_BYTES, H_BUDGET, H_PLANNER, H_COUNT };
static const char *const header_names[H_COUNT] = {
    "steps", "slots", "slot_bytes", "budget_bytes", "planner"};

struct parser {
    const char *text;
    size_t len, pos;
    uint64_t line;
    uturn_plan_t *plan;
    uturn_validator_t *validator;
    bool magic, seen[H_COUNT];
    uturn_error_t *error;
};

static bool is(const struct field *f, const char *word)
{
    return f->len == strlen(word) && memcmp(f->at, word, f->len) == 0;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static uturn_status_t
malformed(struct parser *p, const char *fmt, ...)
{
    char reason[200];
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, sizeof reason, fmt, args);
    va_end(args);
    return uturn__fail_at(p->error, UTURN_E_PARSE, UTURN_NONE, p->line,
                          UTURN_NONE, "line %llu: %s",
                          (unsigned long long)p->line, reason);
}

/* The bounds of the next line, without its newline; advances past it. */
static void next_line(struct parser *p, size_t *start, size_t *end)
{
    *start = p->pos;
    *end   = p->pos;
    while (*end < p->len && p->text[*end] != '\n')
        (*end)++;
    p->pos = *end < p->len ? *end + 1 : *end;
    p->line += 1;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* The next field of text[*at .. end), stopping at '#'; false at the end. */
static bool next_field(const struct parser *p, size_t *at, size_t end,
                       struct field *out)
{
    while (*at < end && blank(p->text[*at]))
        (*at)++;
    if (*at >= end || p->text[*at] == '#')
        return false;
    out->at = p->text + *at;
    while (*at < end && !blank(p->text[*at]) && p->text[*at] != '#')
        (*at)++;
    out->len = (size_t)(p->text + *at - out->at);
    return true;
}

/* Split text[start .. end) into fields; returns the count or -1. */
static int split_fields(const struct parser *p, size_t start, size_t end,
                        struct field out[MAX_FIELDS])
{
    int count = 0;
    struct field f;
    while (next_field(p, &start, end, &f)) {
        if (count == MAX_FIELDS)
            return -1;
        out[count++] = f;
    }
    return count;
}

static uturn_status_t number(struct parser *p, const struct field *f,
                             uint64_t *out)
{
    uint64_t value = 0;
    for (size_t i = 0; i < f->len; i++) {
        const char c = f->at[i];
        if (c < '0' || c > '9')
            return malformed(p, "'%.*s' is not a whole number", (int)f->len,
                             f->at);
        if (value > (UINT64_MAX - (uint64_t)(c - '0')) / 10)
            return malformed(p, "'%.*s' does not fit in 64 bits", (int)f->len,
                             f->at);
        value = value * 10 + (uint64_t)(c - '0');
    }
    *out = value;
    return UTURN_OK;
}

static uturn_status_t header_line(struct parser *p, const struct field *f,
                                  int count, int h)
{
    if (p->validator != NULL)
        return malformed(p, "header '%s' after the first action",
                         header_names[h]);
    if (p->seen[h])
        return malformed(p, "header '%s' given twice", header_names[h]);
    if (count != 2)
        return malformed(p, "header '%s' takes one value", header_names[h]);
    p->seen[h] = true;
    if (h == H_PLANNER)
        return UTURN_OK; /* informational: the plan is what its actions say */
    uint64_t *const fields[] = {
        &p->plan->problem.steps, &p->plan->problem.slots,
        &p->plan->problem.slot_bytes, &p->plan->problem.budget_bytes};
    return number(p, &f[1], fields[h]);
}

/* The headers are complete: check them and start the validator. */
static uturn_status_t start_actions(struct parser *p)
{
    uturn_problem_t *pr = &p->plan->problem;
    if (!p->seen[H_STEPS] || !p->seen[H_SLOTS])
        return malformed(p, "the headers 'steps' and 'slots' must come "
                            "before the first action");
    if (pr->steps == 0)
        return malformed(p, "steps must be at least 1");
    if (p->seen[H_BUDGET] && pr->slot_bytes == 0 && pr->step_bytes == NULL)
        return malformed(p, "'budget_bytes' needs a non-zero 'slot_bytes' "
                            "or 'step_bytes'");
    uturn_stats_t limits;
    uturn_stats_init(&limits);
    limits.steps        = pr->steps;
    limits.slots        = pr->slots;
    limits.slot_bytes   = pr->slot_bytes;
    limits.budget_bytes = pr->budget_bytes;
    if (uturn__validator_new(&p->plan->alloc, &limits, p->plan->step_bytes,
                             p->plan->step_costs, &p->validator) != UTURN_OK)
        return uturn__fail(p->error, UTURN_E_NOMEM,
                           "out of memory for a validator");
    return UTURN_OK;
}

static uturn_status_t append(struct parser *p, const uturn_action_t *a)
{
    uturn_plan_t *plan = p->plan;
    if (plan->action_count == plan->action_capacity) {
        const uint64_t cap =
            plan->action_capacity ? plan->action_capacity * 2 : 256;
        uturn_action_t *grown =
            cap > SIZE_MAX / sizeof *grown
                ? NULL
                : uturn__alloc(&plan->alloc, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return uturn__fail(p->error, UTURN_E_NOMEM,
                               "out of memory for %llu actions",
                               (unsigned long long)cap);
        if (plan->action_count != 0)
            memcpy(grown, plan->actions,
                   (size_t)plan->action_count * sizeof *grown);
        uturn__free(&plan->alloc, plan->actions,
                    (size_t)plan->action_capacity * sizeof *grown);
        plan->actions         = grown;
        plan->action_capacity = cap;
    }
    plan->actions[plan->action_count++] = *a;
    const bool has_slot                 = a->op == UTURN_OP_STORE ||
                          a->op == UTURN_OP_RESTORE || a->op == UTURN_OP_FREE;
    if (has_slot && a->slot >= plan->slot_span)
        plan->slot_span = a->slot + 1;
    return UTURN_OK;
}

/* An action line: its op, then as many numbers as the op takes. */
static uturn_status_t action_line(struct parser *p, const struct field *f,
                                  int count)
{
    static const uturn_op_t ops[] = {UTURN_OP_ADVANCE, UTURN_OP_STORE,
                                     UTURN_OP_RESTORE, UTURN_OP_FREE,
                                     UTURN_OP_TURN,    UTURN_OP_REVERSE};
    static const int args[]       = {2, 2, 2, 1, 0, 1};
    size_t i                      = 0;
    while (i < 6 && !is(&f[0], uturn_op_name(ops[i])))
        i++;
    if (i == 6)
        return malformed(p, "unknown keyword '%.*s'", (int)f[0].len, f[0].at);
    if (count - 1 != args[i])
        return malformed(p, "'%s' takes %d numbers, not %d",
                         uturn_op_name(ops[i]), args[i], count - 1);
    uint64_t v[2]         = {0, 0};
    uturn_status_t status = UTURN_OK;
    for (int k = 0; k < args[i] && status == UTURN_OK; k++)
        status = number(p, &f[k + 1], &v[k]);
    if (status == UTURN_OK && p->validator == NULL)
        status = start_actions(p);
    if (status != UTURN_OK)
        return status;
    uturn_action_t a = {ops[i], 0, 0, 0};
    if (a.op == UTURN_OP_FREE)
        a.slot = v[0];
    else if (a.op != UTURN_OP_TURN)
        a.step = v[0];
    if (a.op == UTURN_OP_ADVANCE)
        a.step_end = v[1];
    else if (a.op == UTURN_OP_STORE || a.op == UTURN_OP_RESTORE)
        a.slot = v[1];
    status = uturn__validator_push_line(p->validator, &a, p->line, p->error);
    return status == UTURN_OK ? append(p, &a) : status;
}

/* "step_bytes v0 .. v(n-1)" or "step_costs ...": one value per step, each
 * at least 1, after "steps" and before the first action. */
static uturn_status_t per_step_line(struct parser *p, const struct field *kw,
                                    size_t at, size_t end)
{
    const bool sizes = is(kw, "step_bytes");
    uint64_t **slot  = sizes ? &p->plan->step_bytes : &p->plan->step_costs;
    const uint64_t n = p->plan->problem.steps;
    if (!p->seen[H_STEPS] || p->validator != NULL || *slot != NULL)
        return malformed(p,
                         "'%.*s' comes once, after 'steps' and before "
                         "the first action",
                         (int)kw->len, kw->at);
    *slot = uturn__alloc_zeroed(&p->plan->alloc, n, sizeof **slot);
    if (*slot == NULL)
        return uturn__fail(p->error, UTURN_E_NOMEM,
                           "out of memory for %llu values",
                           (unsigned long long)n);
    struct field f;
    uint64_t count = 0;
    for (; next_field(p, &at, end, &f); count++) {
        uturn_status_t st = count < n ? number(p, &f, &(*slot)[count])
                                      : malformed(p, "more than %llu values",
                                                  (unsigned long long)n);
        if (st == UTURN_OK && (*slot)[count] == 0)
            st = malformed(p, "value %llu is 0; each must be at least 1",
                           (unsigned long long)count);
        if (st != UTURN_OK)
            return st;
    }
    if (count < n)
        return malformed(p, "%llu values for %llu steps",
                         (unsigned long long)count, (unsigned long long)n);
    if (sizes)
        p->plan->problem.step_bytes = p->plan->step_bytes;
    else
        p->plan->problem.step_costs = p->plan->step_costs;
    return UTURN_OK;
}

static uturn_status_t one_line(struct parser *p)
{
    size_t start = 0, end = 0, at = 0;
    next_line(p, &start, &end);
    struct field f[MAX_FIELDS];
    at = start;
    if (!next_field(p, &at, end, &f[0]))
        return UTURN_OK;
    if (p->magic && (is(&f[0], "step_bytes") || is(&f[0], "step_costs")))
        return per_step_line(p, &f[0], at, end);
    const int count = split_fields(p, start, end, f);
    if (count < 0)
        return malformed(p, "too many fields");
    if (!p->magic) {
        if (count != 2 || !is(&f[0], "uturn-plan"))
            return malformed(p, "expected 'uturn-plan 1' first");
        if (!is(&f[1], "1"))
            return malformed(p, "unsupported plan format version '%.*s'",
                             (int)f[1].len, f[1].at);
        p->magic = true;
        return UTURN_OK;
    }
    for (int h = 0; h < H_COUNT; h++)
        if (is(&f[0], header_names[h]))
            return header_line(p, f, count, h);
    return action_line(p, f, count);
}

static uturn_status_t parse_all(struct parser *p)
{
    uturn_status_t status = UTURN_OK;
    if (p->len != 0 && memchr(p->text, '\0', p->len) != NULL) {
        p->line = 1;
        for (size_t i = 0; p->text[i] != '\0'; i++)
            p->line += p->text[i] == '\n';
        return malformed(p, "the text contains a NUL byte");
    }
    while (status == UTURN_OK && p->pos < p->len)
        status = one_line(p);
    if (status == UTURN_OK && !p->magic)
        return malformed(p, "expected 'uturn-plan 1' first");
    if (status == UTURN_OK && p->validator == NULL)
        status = start_actions(p);
    if (status != UTURN_OK)
        return status;
    p->plan->problem.planner = UTURN_PLANNER_PARSED;
    return uturn__validator_finish_line(p->validator, &p->plan->stats, p->line,
                                        p->error);
}

uturn_status_t uturn_plan_parse(const char *text, size_t length,
                                const uturn_allocator_t *alloc,
                                uturn_plan_t **out, uturn_error_t *error)
{
    if (out != NULL)
        *out = NULL;
    if ((text == NULL && length != 0) || out == NULL)
        return uturn__fail(error, UTURN_E_INVALID_ARG,
                           "text and out must not be NULL");
    struct parser p       = {.text = text, .len = length, .error = error};
    uturn_status_t status = uturn__plan_new(alloc, &p.plan, error);
    if (status == UTURN_OK)
        status = parse_all(&p);
    uturn_validator_free(p.validator);
    if (status != UTURN_OK) {
        uturn_plan_free(p.plan);
        return status;
    }
    p.plan->stats.size = sizeof p.plan->stats;
    *out               = p.plan;
    return UTURN_OK;
}
