/* Matching command-line words against a subcommand's option specs. */
#include "cli.h"

#include <stddef.h>
#include <string.h>

static bool set_format(struct cli_options *o, const char *v)
{
    if (strcmp(v, "text") == 0)
        o->format = FORMAT_TEXT;
    else if (strcmp(v, "json") == 0)
        o->format = FORMAT_JSON;
    else if (strcmp(v, "csv") == 0 && strcmp(o->command, "sweep") == 0)
        o->format = FORMAT_CSV;
    else
        return cli_fail("--format: '%s' is not a format (text, json%s)", v,
                        strcmp(o->command, "sweep") == 0 ? ", csv" : ""),
               false;
    return true;
}

/* The options only uturn sweep takes. */
static bool apply_sweep(struct cli_options *o, const char *name, const char *v)
{
    if (strcmp(name, "grid") == 0)
        return o->has_grid = true, cli_number("--grid", v, &o->grid);
    if (strcmp(name, "run") == 0)
        return o->run = true, true;
    if (strcmp(name, "unit") == 0)
        return o->has_unit = true, cli_size("--unit", v, &o->unit);
    if (strcmp(name, "threads") == 0)
        return o->has_threads = true, cli_number("--threads", v, &o->threads);
    if (strcmp(name, "table-bytes") == 0)
        return o->has_table_bytes = true,
               cli_size("--table-bytes", v, &o->table_bytes);
    if (strcmp(name, "dp-mode") == 0)
        return o->has_dp_mode = true, cli_dp_mode(v, &o->dp_mode);
    if (strcmp(name, "sizes") == 0)
        return o->sizes_path = v, true;
    if (strcmp(name, "costs") == 0)
        return o->costs_path = v, true;
    if (strcmp(name, "levels") == 0)
        return o->levels = v, true;
    if (strcmp(name, "level-dir") == 0)
        return o->level_dir = v, true;
    if (strcmp(name, "factor") == 0)
        return o->has_factor = true, o->factor_text = v,
               cli_decimal("--factor", v, &o->factor_num, &o->factor_den);
    if (strcmp(name, "cost") == 0)
        return o->has_cost = true, cli_number("--cost", v, &o->cost);
    const char **const text[] = {&o->model,    &o->budgets, &o->budget_range,
                                 &o->planners, &o->plot,    &o->model_args};
    const char *const names[] = {"model",    "budgets", "budget-range",
                                 "planners", "plot",    "model-args"};
    for (size_t i = 0; i < 6; i++)
        if (strcmp(name, names[i]) == 0)
            return *text[i] = v, true;
    return cli_fail("internal: option --%s has no handler", name), false;
}

/* Store one option's value; false (message printed) when it is bad. */
static bool apply(struct cli_options *o, const char *name, const char *v)
{
    if (strcmp(name, "steps") == 0)
        return o->has_steps = true, cli_number("--steps", v, &o->steps);
    if (strcmp(name, "slots") == 0)
        return o->has_slots = true, cli_number("--slots", v, &o->slots);
    if (strcmp(name, "stride") == 0)
        return o->has_stride = true, cli_number("--stride", v, &o->stride);
    if (strcmp(name, "sweeps") == 0 && strcmp(v, "unbounded") == 0)
        return o->has_sweeps = true, o->sweeps = UTURN_SWEEPS_UNBOUNDED, true;
    if (strcmp(name, "sweeps") == 0 && strspn(v, "0123456789") != strlen(v))
        return cli_fail("--sweeps: '%s' is neither a whole number nor "
                        "'unbounded'",
                        v),
               false;
    if (strcmp(name, "sweeps") == 0) /* UTURN_SWEEPS_UNBOUNDED is a word */
        return o->has_sweeps = true,
               cli_number("--sweeps", v, &o->sweeps) &&
                   (o->sweeps <= UTURN_SWEEPS_MAX ||
                    (cli_fail("--sweeps: plans take at most %u sweeps, or "
                              "'unbounded'; %s asked",
                              UTURN_SWEEPS_MAX, v),
                     false));
    if (strcmp(name, "max-steps") == 0)
        return o->has_max_steps = true,
               cli_number("--max-steps", v, &o->max_steps);
    if (strcmp(name, "budget") == 0)
        return o->has_budget = true, cli_size("--budget", v, &o->budget);
    if (strcmp(name, "state-bytes") == 0)
        return o->has_state_bytes = true,
               cli_size("--state-bytes", v, &o->state_bytes);
    if (strcmp(name, "slot-bytes") == 0)
        return o->has_slot_bytes = true,
               cli_size("--slot-bytes", v, &o->slot_bytes);
    if (strcmp(name, "format") == 0)
        return set_format(o, v);
    if (strcmp(name, "json") == 0)
        return o->format = FORMAT_JSON, true;
    if (strcmp(name, "walk") == 0)
        return o->walk = true, true;
    if (strcmp(name, "help") == 0)
        return o->help = true, true;
    return apply_sweep(o, name, v);
}

static const struct cli_spec *find_spec(const struct cli_spec *specs,
                                        const char *name, size_t len)
{
    for (; specs->name != NULL; specs++)
        if (strlen(specs->name) == len && strncmp(specs->name, name, len) == 0)
            return specs;
    return NULL;
}

static const struct cli_spec *find_short(const struct cli_spec *specs,
                                         char letter)
{
    for (; specs->name != NULL; specs++)
        if (specs->short_name != '\0' && specs->short_name == letter)
            return specs;
    return NULL;
}

/* An option may be given once: a repeat is refused rather than "the last
 * one wins", which hides typos in long command lines. --json is --format
 * json, so the two together are a repeat too. */
static int note_seen(const struct cli_spec *specs, const struct cli_spec *spec,
                     uint64_t *seen)
{
    const bool format =
        strcmp(spec->name, "json") == 0 || strcmp(spec->name, "format") == 0;
    const ptrdiff_t index = format ? 63 : spec - specs;
    if (index >= 63)
        return format && (*seen >> 63) != 0
                   ? cli_fail("give --format or --json once, not both or "
                              "twice")
                   : (*seen |= (uint64_t)1 << 63, CLI_OK);
    if ((*seen >> index) & 1)
        return cli_fail("--%s given twice (give each option once)", spec->name);
    *seen |= (uint64_t)1 << index;
    return CLI_OK;
}

/* The option argv[*i] names (spec, as "-n" or "--steps"); value is the
 * text after '=', or NULL to take the next word. */
static int take(int argc, char **argv, int *i, const struct cli_spec *specs,
                const struct cli_spec *spec, const char *value,
                struct cli_options *o, uint64_t *seen)
{
    if (note_seen(specs, spec, seen) != CLI_OK)
        return CLI_BAD_INPUT;
    const bool is_short = argv[*i][1] != '-';
    if (spec->takes_value && value == NULL) {
        if (*i + 1 >= argc)
            return is_short ? cli_fail("%s (--%s) needs a value", argv[*i],
                                       spec->name)
                            : cli_fail("--%s needs a value", spec->name);
        value = argv[++*i];
    } else if (!spec->takes_value && value != NULL) {
        return cli_fail("--%s takes no value", spec->name);
    }
    return apply(o, spec->name, value) ? CLI_OK : CLI_BAD_INPUT;
}

/* One "--name[=value]" word (and maybe the next word as its value). */
static int long_option(int argc, char **argv, int *i,
                       const struct cli_spec *specs, struct cli_options *o,
                       uint64_t *seen)
{
    const char *word = argv[*i] + 2;
    const char *eq   = strchr(word, '=');
    const size_t len = eq != NULL ? (size_t)(eq - word) : strlen(word);
    const struct cli_spec *spec = find_spec(specs, word, len);
    if (spec == NULL)
        return cli_fail("%s: unknown option '%s' (see uturn %s --help)",
                        o->command, argv[*i], o->command);
    return take(argc, argv, i, specs, spec, eq != NULL ? eq + 1 : NULL, o,
                seen);
}

/* One "-X" word: a short option alone, its value (if any) the next word.
 * "-steps" (one dash, a long name) and "-n100" or "-jr" (a value or more
 * options in the same word) are refused, not guessed at: "-sizes" would
 * otherwise be --slots with the value "izes". */
static int short_option(int argc, char **argv, int *i,
                        const struct cli_spec *specs, struct cli_options *o,
                        uint64_t *seen)
{
    const char *word            = argv[*i];
    const struct cli_spec *spec = find_short(specs, word[1]);
    if (word[2] == '\0' && spec != NULL)
        return take(argc, argv, i, specs, spec, NULL, o, seen);
    const char *eq   = strchr(word + 1, '=');
    const size_t len = eq != NULL ? (size_t)(eq - word - 1) : strlen(word + 1);
    if (word[2] != '\0' && find_spec(specs, word + 1, len) != NULL)
        return cli_fail("%s: '%s': a long option takes two dashes (-%s)",
                        o->command, word, word);
    if (word[2] != '\0' && spec != NULL)
        return spec->takes_value
                   ? cli_fail("%s: '%s': give the value of -%c as the next "
                              "word (-%c %s)",
                              o->command, word, word[1], word[1], word + 2)
                   : cli_fail("%s: '%s': give short options one to a word "
                              "(-%c takes no value)",
                              o->command, word, word[1]);
    return cli_fail("%s: unknown option '%s' (see uturn %s --help)", o->command,
                    word, o->command);
}

int cli_parse(int argc, char **argv, int first, const struct cli_spec *specs,
              struct cli_options *o)
{
    uint64_t seen = 0;
    for (int i = first; i < argc; i++) {
        const char *word = argv[i];
        int rc           = CLI_OK;
        if (strncmp(word, "--", 2) == 0 && word[2] != '\0')
            rc = long_option(argc, argv, &i, specs, o, &seen);
        else if (word[0] == '-' && word[1] != '\0')
            rc = short_option(argc, argv, &i, specs, o, &seen);
        else if (o->positional == NULL)
            o->positional = word;
        else
            rc = cli_fail("%s: unexpected argument '%s'", o->command, word);
        if (rc != CLI_OK)
            return rc;
    }
    return CLI_OK;
}
