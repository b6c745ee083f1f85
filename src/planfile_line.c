/*
 * The plan text grammar, one line at a time (format in uturn.h at
 * uturn_plan_parse()). Every byte is read through bounds-checked indices;
 * a line may hold any bytes. Actions are validated as they are read, and
 * quoted text in messages is escaped (uturn__quote).
 */
#include "planfile.h"

#include <string.h>

#define MAX_FIELDS 5
#define SHOWN      40 /* bytes of a bad field a message shows */

struct field {
    const char *at;
    size_t len;
};

static const char *const header_names[UTURN__H_COUNT] = {
    "steps",   "slots",       "slot_bytes", "budget_bytes",
    "planner", "fingerprint", "sweeps"};

static bool is(const struct field *f, const char *word)
{
    return f->len == strlen(word) && memcmp(f->at, word, f->len) == 0;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static uturn_status_t
malformed(struct uturn__planfile *p, const char *fmt, ...)
{
    char reason[200];
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, sizeof reason, fmt, args);
    va_end(args);
    uturn_error_init(&p->failure);
    p->failed = uturn__fail_at(&p->failure, UTURN_E_PARSE, UTURN_NONE, p->line,
                               UTURN_NONE, "line %llu: %s",
                               (unsigned long long)p->line, reason);
    return p->failed;
}

static uturn_status_t out_of_memory(struct uturn__planfile *p, const char *what)
{
    uturn_error_init(&p->failure);
    p->failed = uturn__fail(&p->failure, UTURN_E_NOMEM,
                            "line %llu: out of memory for %s",
                            (unsigned long long)p->line, what);
    return p->failed;
}

/* A field as it may appear in a message. */
static const char *shown(const struct field *f, char out[4 * SHOWN + 8])
{
    uturn__quote(f->at, f->len, SHOWN, out, 4 * SHOWN + 8);
    return out;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* The next field of text[*at .. len), stopping at '#'; false at the end. */
static bool next_field(const char *text, size_t len, size_t *at,
                       struct field *out)
{
    while (*at < len && blank(text[*at]))
        (*at)++;
    if (*at >= len || text[*at] == '#')
        return false;
    out->at = text + *at;
    while (*at < len && !blank(text[*at]) && text[*at] != '#')
        (*at)++;
    out->len = (size_t)(text + *at - out->at);
    return true;
}

/* Split a line into fields; returns the count, or -1 past MAX_FIELDS. */
static int split_fields(const char *text, size_t len,
                        struct field out[MAX_FIELDS])
{
    int count = 0;
    size_t at = 0;
    struct field f;
    while (next_field(text, len, &at, &f)) {
        if (count == MAX_FIELDS)
            return -1;
        out[count++] = f;
    }
    return count;
}

static uturn_status_t number(struct uturn__planfile *p, const struct field *f,
                             uint64_t *out)
{
    char q[4 * SHOWN + 8];
    uint64_t value = 0;
    for (size_t i = 0; i < f->len; i++) {
        const char c = f->at[i];
        if (c < '0' || c > '9')
            return malformed(p, "'%s' is not a whole number", shown(f, q));
        if (value > (UINT64_MAX - (uint64_t)(c - '0')) / 10)
            return malformed(p, "'%s' does not fit in 64 bits", shown(f, q));
        value = value * 10 + (uint64_t)(c - '0');
    }
    *out = value;
    return UTURN_OK;
}

/* "planner NAME": a name uturn_planner_name() gives, "parsed" included. */
static uturn_status_t planner_header(struct uturn__planfile *p,
                                     const struct field *f)
{
    char q[4 * SHOWN + 8];
    if (is(f, "parsed"))
        return UTURN_OK;
    uturn_planner_t id = UTURN_PLANNER_STORE_ALL;
    if (f->len < 64) {
        char name[64];
        memcpy(name, f->at, f->len);
        name[f->len] = '\0';
        if (uturn_planner_from_name(name, &id) == UTURN_OK)
            return UTURN_OK;
    }
    char known[128];
    uturn__planner_names(known, sizeof known, "or parsed");
    return malformed(p, "unknown planner '%s' (%s)", shown(f, q), known);
}

/* "fingerprint HEX": the fingerprint of the plan that wrote the text, 16
 * hex digits; informational (a parsed plan's own fingerprint hashes its
 * actions), but it must be well formed. */
static uturn_status_t fingerprint_header(struct uturn__planfile *p,
                                         const struct field *f)
{
    char q[4 * SHOWN + 8];
    bool hex = f->len == 16;
    for (size_t i = 0; hex && i < f->len; i++) {
        const char c = f->at[i];
        hex          = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }
    return hex ? UTURN_OK
               : malformed(p, "fingerprint '%s' is not 16 lowercase hex digits",
                           shown(f, q));
}

static uturn_status_t header_line(struct uturn__planfile *p,
                                  const struct field *f, int count, int h)
{
    if (p->validator != NULL)
        return malformed(p, "header '%s' after the first action",
                         header_names[h]);
    if (p->seen[h])
        return malformed(p, "header '%s' given twice", header_names[h]);
    if (count != 2)
        return malformed(p, "header '%s' takes one value", header_names[h]);
    p->seen[h] = true;
    if (h == UTURN__H_PLANNER)
        return planner_header(p, &f[1]);
    if (h == UTURN__H_FINGERPRINT)
        return fingerprint_header(p, &f[1]);
    if (h == UTURN__H_SWEEPS && is(&f[1], "unbounded")) {
        p->problem.sweeps = UTURN_SWEEPS_UNBOUNDED;
        return UTURN_OK;
    }
    if (h == UTURN__H_SWEEPS) { /* refused on its own line */
        const uturn_status_t st = number(p, &f[1], &p->problem.sweeps);
        if (st == UTURN_OK && p->problem.sweeps < 2)
            return malformed(p,
                             "'sweeps' is at least 2 (leave it out for one)");
        if (st == UTURN_OK && p->problem.sweeps > UTURN_SWEEPS_MAX)
            return malformed(p,
                             "'sweeps' is at most %llu (UTURN_SWEEPS_MAX), or "
                             "'unbounded'",
                             (unsigned long long)UTURN_SWEEPS_MAX);
        return st;
    }
    uint64_t *const fields[] = {&p->problem.steps, &p->problem.slots,
                                &p->problem.slot_bytes,
                                &p->problem.budget_bytes};
    const uturn_status_t st  = number(p, &f[1], fields[h]);
    if (st == UTURN_OK && h == UTURN__H_STEPS && p->problem.steps == 0)
        return malformed(p, "steps must be at least 1");
    return st;
}

/* The name of the first required header not yet seen, or NULL. */
static const char *missing_header(const struct uturn__planfile *p)
{
    if (!p->seen[UTURN__H_STEPS])
        return "steps";
    return p->seen[UTURN__H_SLOTS] ? NULL : "slots";
}

/* Levels: their slots add up to the 'slots' header; not with per-step
 * sizes (not planned this round). */
static uturn_status_t check_levels(struct uturn__planfile *p)
{
    uint64_t total = 0;
    for (uint64_t k = 0; k < p->level_count; k++)
        if (uturn__add_u64(total, p->levels[k].slots, &total) != UTURN_OK)
            return malformed(p, "the levels' slots pass 2^64");
    if (p->level_count != 0 && total != p->problem.slots)
        return malformed(p,
                         "the levels hold %llu slots; the 'slots' header "
                         "says %llu",
                         (unsigned long long)total,
                         (unsigned long long)p->problem.slots);
    if (p->level_count != 0 && p->step_bytes != NULL)
        return malformed(p, "levels with 'step_bytes' are not supported");
    return UTURN_OK;
}

/* The headers are complete: check them and start the validator. */
static uturn_status_t start_actions(struct uturn__planfile *p)
{
    const uturn_problem_t *pr = &p->problem;
    const char *missing       = missing_header(p);
    if (missing != NULL)
        return malformed(p,
                         "the header '%s' must come before the first "
                         "action",
                         missing);
    if (p->seen[UTURN__H_BUDGET] && pr->slot_bytes == 0 &&
        p->step_bytes == NULL)
        return malformed(p, "'budget_bytes' needs a non-zero 'slot_bytes' "
                            "or 'step_bytes'");
    const uturn_status_t lv = check_levels(p);
    if (lv != UTURN_OK)
        return lv;
    uturn_stats_t limits;
    uturn_stats_init(&limits);
    limits.steps        = pr->steps;
    limits.slots        = pr->slots;
    limits.slot_bytes   = pr->slot_bytes;
    limits.budget_bytes = pr->budget_bytes;
    limits.sweeps       = pr->sweeps;
    if (uturn__validator_new(&p->alloc, &limits, p->step_bytes, p->step_costs,
                             &p->validator) != UTURN_OK)
        return out_of_memory(p, "a validator");
    if (p->level_count != 0)
        uturn__validator_set_levels(p->validator, p->levels, p->level_count);
    /* A parsed plan is its actions: its fingerprint hashes the headers
     * that matter, every action as it comes, and their count. */
    uturn__hasher_start(&p->hash);
    uturn__hash_u64(&p->hash, (uint64_t)UTURN_PLANNER_PARSED);
    uturn__hash_u64(&p->hash, pr->steps);
    uturn__hash_u64(&p->hash, pr->slots);
    uturn__hash_array(&p->hash, p->step_bytes, pr->steps);
    uturn__hash_array(&p->hash, p->step_costs, pr->steps);
    if (pr->sweeps > 1) /* plans of one sweep keep their fingerprints */
        uturn__hash_u64(&p->hash, pr->sweeps);
    /* Levels that version 1 cannot say (uturn_plan_write() writes one
     * level of no cost as version 1): a plan's text stays a fixed point */
    const bool costed = p->level_count == 1 && (p->levels[0].write_cost != 0 ||
                                                p->levels[0].read_cost != 0);
    for (uint64_t k = 0; (p->level_count > 1 || costed) && k < p->level_count;
         k++) {
        uturn__hash_u64(&p->hash, p->levels[k].slots);
        uturn__hash_u64(&p->hash, p->levels[k].write_cost);
        uturn__hash_u64(&p->hash, p->levels[k].read_cost);
    }
    return UTURN_OK;
}

static void hash_action(struct uturn__planfile *p, const uturn_action_t *a)
{
    uturn__hash_u64(&p->hash, (uint64_t)a->op);
    uturn__hash_u64(&p->hash, a->step);
    uturn__hash_u64(&p->hash, a->step_end);
    uturn__hash_u64(&p->hash, a->slot);
    p->hashed += 1;
}

/* Keep the action in the plan (uturn_plan_parse only). */
static uturn_status_t append(struct uturn__planfile *p, const uturn_action_t *a)
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
            return out_of_memory(p, "the actions");
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

/* The op a keyword names, with the count of numbers it takes; 0 if none. */
static uturn_op_t find_op(const struct field *f, int *args)
{
    static const uturn_op_t ops[] = {
        UTURN_OP_ADVANCE, UTURN_OP_STORE,   UTURN_OP_RESTORE, UTURN_OP_FREE,
        UTURN_OP_TURN,    UTURN_OP_REVERSE, UTURN_OP_PERSIST};
    static const int counts[] = {2, 2, 2, 1, 0, 1, 1};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (is(f, uturn_op_name(ops[i]))) {
            *args = counts[i];
            return ops[i];
        }
    return (uturn_op_t)0;
}

static uturn_action_t make_action(uturn_op_t op, const uint64_t v[2])
{
    uturn_action_t a = {op, 0, 0, 0};
    if (op == UTURN_OP_FREE || op == UTURN_OP_PERSIST)
        a.slot = v[0];
    else if (op != UTURN_OP_TURN)
        a.step = v[0];
    if (op == UTURN_OP_ADVANCE)
        a.step_end = v[1];
    else if (op == UTURN_OP_STORE || op == UTURN_OP_RESTORE)
        a.slot = v[1];
    return a;
}

/* An action line: its op, then as many numbers as the op takes. */
static uturn_status_t action_line(struct uturn__planfile *p,
                                  const struct field *f, int count)
{
    char q[4 * SHOWN + 8];
    int args            = 0;
    const uturn_op_t op = find_op(&f[0], &args);
    if (op == 0)
        return malformed(p, "unknown keyword '%s'", shown(&f[0], q));
    if (count - 1 != args)
        return malformed(p, "'%s' takes %d numbers, not %d", uturn_op_name(op),
                         args, count - 1);
    uint64_t v[2]         = {0, 0};
    uturn_status_t status = UTURN_OK;
    for (int k = 0; k < args && status == UTURN_OK; k++)
        status = number(p, &f[k + 1], &v[k]);
    if (status == UTURN_OK && p->validator == NULL)
        status = start_actions(p);
    if (status != UTURN_OK)
        return status;
    const uturn_action_t a = make_action(op, v);
    status = uturn__validator_push_line(p->validator, &a, p->line, NULL);
    if (status != UTURN_OK) {
        p->failed =
            uturn__validator_push_line(p->validator, NULL, 0, &p->failure);
        return p->failed;
    }
    hash_action(p, &a);
    return p->plan != NULL ? append(p, &a) : UTURN_OK;
}

/* Count the values after the keyword, so that nothing is allocated for a
 * count the line does not hold. */
static uint64_t count_values(const char *text, size_t len, size_t at)
{
    uint64_t count = 0;
    struct field f;
    while (next_field(text, len, &at, &f))
        count++;
    return count;
}

/* "step_bytes v0 .. v(n-1)" or "step_costs ...": one value per step, each
 * at least 1, after "steps" and before the first action. */
static uturn_status_t per_step_line(struct uturn__planfile *p,
                                    const struct field *kw, const char *text,
                                    size_t len, size_t at)
{
    const bool sizes = is(kw, "step_bytes");
    const char *name = sizes ? "step_bytes" : "step_costs";
    uint64_t **slot  = sizes ? &p->step_bytes : &p->step_costs;
    const uint64_t n = p->problem.steps;
    if (!p->seen[UTURN__H_STEPS] || p->validator != NULL || *slot != NULL)
        return malformed(p,
                         "'%s' comes once, after 'steps' and before the "
                         "first action",
                         name);
    const uint64_t count = count_values(text, len, at);
    if (count != n)
        return malformed(p, "'%s' has %llu values for %llu steps", name,
                         (unsigned long long)count, (unsigned long long)n);
    *slot = uturn__alloc_zeroed(&p->alloc, (size_t)n, sizeof **slot);
    if (*slot == NULL)
        return out_of_memory(p, name);
    struct field f;
    for (uint64_t i = 0; next_field(text, len, &at, &f); i++) {
        const uturn_status_t st = number(p, &f, &(*slot)[i]);
        if (st != UTURN_OK)
            return st;
        if ((*slot)[i] == 0)
            return malformed(p,
                             "'%s' value %llu is 0; each must be at "
                             "least 1",
                             name, (unsigned long long)i);
    }
    return UTURN_OK;
}

static uturn_status_t magic_line(struct uturn__planfile *p,
                                 const struct field *f, int count)
{
    char q[4 * SHOWN + 8];
    if (count != 2 || !is(&f[0], "uturn-plan"))
        return malformed(p, "expected 'uturn-plan 1' first");
    if (!is(&f[1], "1") && !is(&f[1], "2"))
        return malformed(p,
                         "unsupported plan format version '%s' (this "
                         "library reads versions 1 and 2)",
                         shown(&f[1], q));
    p->magic   = true;
    p->version = is(&f[1], "1") ? 1 : 2;
    return UTURN_OK;
}

/* "level NAME SLOTS W R" (version 2): a storage level, fastest first. */
static uturn_status_t level_line(struct uturn__planfile *p,
                                 const struct field *f, int count)
{
    char q[4 * SHOWN + 8];
    if (p->version < 2)
        return malformed(p, "'level' headers need 'uturn-plan 2'");
    if (p->validator != NULL)
        return malformed(p, "header 'level' after the first action");
    if (count != 5)
        return malformed(p, "'level' takes a name and three numbers (slots, "
                            "write cost, read cost)");
    if (p->level_count == UTURN__MAX_LEVELS)
        return malformed(p, "more than %d levels", UTURN__MAX_LEVELS);
    if (!uturn__level_name_ok(f[1].at, f[1].len))
        return malformed(p,
                         "level name '%s' must be 1 to %d letters, "
                         "digits, '_', '.' or '-'",
                         shown(&f[1], q), UTURN__LEVEL_NAME - 1);
    uturn_level_t *lv = &p->levels[p->level_count];
    uturn_level_init(lv);
    uturn_status_t st = number(p, &f[2], &lv->slots);
    if (st == UTURN_OK)
        st = number(p, &f[3], &lv->write_cost);
    if (st == UTURN_OK)
        st = number(p, &f[4], &lv->read_cost);
    if (st == UTURN_OK && lv->slots == 0)
        st = malformed(p, "level '%s' has no slots", shown(&f[1], q));
    if (st != UTURN_OK)
        return st;
    char *name = p->level_names[p->level_count];
    memcpy(name, f[1].at, f[1].len);
    name[f[1].len] = '\0';
    lv->name       = name;
    p->level_count += 1;
    return UTURN_OK;
}

static uturn_status_t one_line(struct uturn__planfile *p, const char *text,
                               size_t len)
{
    struct field f[MAX_FIELDS];
    size_t at = 0;
    if (memchr(text, '\0', len) != NULL)
        return malformed(p, "the text contains a NUL byte");
    if (!next_field(text, len, &at, &f[0]))
        return UTURN_OK;
    if (p->magic && (is(&f[0], "step_bytes") || is(&f[0], "step_costs")))
        return per_step_line(p, &f[0], text, len, at);
    const int count = split_fields(text, len, f);
    if (count < 0)
        return malformed(p, "too many fields");
    if (!p->magic)
        return magic_line(p, f, count);
    for (int h = 0; h < UTURN__H_COUNT; h++)
        if (is(&f[0], header_names[h]))
            return header_line(p, f, count, h);
    if (is(&f[0], "level"))
        return level_line(p, f, count);
    return action_line(p, f, count);
}

uturn_status_t uturn__planfile_line(struct uturn__planfile *p, const char *text,
                                    size_t len)
{
    if (p->failed != UTURN_OK)
        return p->failed;
    p->line += 1;
    return one_line(p, text, len);
}

uturn_status_t uturn__planfile_end(struct uturn__planfile *p,
                                   uturn_stats_t *observed)
{
    if (p->failed != UTURN_OK)
        return p->failed;
    const bool empty = p->line == 0;
    p->line          = empty ? 1 : p->line; /* lines count from 1 */
    if (!p->magic)
        return malformed(p, "%s",
                         empty ? "the text is empty; a plan starts "
                                 "with 'uturn-plan 1'"
                               : "expected 'uturn-plan 1' first");
    if (p->validator == NULL) {
        const char *missing = missing_header(p);
        if (missing != NULL)
            return malformed(p, "end of text: no '%s' header and no actions",
                             missing);
        if (start_actions(p) != UTURN_OK)
            return p->failed;
    }
    const uturn_status_t st = uturn__validator_finish_line(
        p->validator, observed, p->line, &p->failure);
    if (st != UTURN_OK)
        p->failed = st;
    uturn__hash_u64(&p->hash, p->hashed);
    if (observed != NULL)
        observed->fingerprint = uturn__hasher_end(&p->hash);
    return st;
}

void uturn__planfile_init(struct uturn__planfile *p,
                          const uturn_allocator_t *alloc, uturn_plan_t *plan)
{
    memset(p, 0, sizeof *p);
    uturn__alloc_resolve(alloc, &p->alloc);
    uturn_problem_init(&p->problem);
    uturn_error_init(&p->failure);
    p->plan   = plan;
    p->failed = UTURN_OK;
}

void uturn__planfile_release(struct uturn__planfile *p)
{
    const size_t bytes = (size_t)p->problem.steps * sizeof(uint64_t);
    uturn_validator_free(p->validator);
    uturn__free(&p->alloc, p->step_bytes, bytes);
    uturn__free(&p->alloc, p->step_costs, bytes);
    p->validator  = NULL;
    p->step_bytes = NULL;
    p->step_costs = NULL;
}

uturn_status_t uturn__planfile_report(const struct uturn__planfile *p,
                                      uturn_error_t *error)
{
    if (error != NULL && p->failed != UTURN_OK) {
        const size_t keep = error->size == 0 || error->size > sizeof *error
                                ? sizeof *error
                                : error->size;
        memcpy(error, &p->failure, keep);
        error->size = keep;
    }
    return p->failed;
}
