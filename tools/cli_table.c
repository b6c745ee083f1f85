/* uturn sweep output: an aligned table for people, CSV and JSON for
 * machines (the names of docs/model.md section 3 as keys and columns). */
#include "sweep.h"

#include <string.h>

void sweep_human_bytes(uint64_t bytes, char *out, size_t cap)
{
    static const char *const units[] = {"B",   "KiB", "MiB", "GiB",
                                        "TiB", "PiB", "EiB"};
    double value                     = (double)bytes;
    size_t u                         = 0;
    while (value >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        value /= 1024.0;
        u++;
    }
    if (u == 0 || value >= 100.0 || value == (double)(uint64_t)value)
        snprintf(out, cap, "%.0f %s", value, units[u]);
    else
        snprintf(out, cap, "%.3g %s", value, units[u]);
}

static const char *name_of(const struct sweep_row *row)
{
    return uturn_planner_name(row->planner);
}

static void print_csv(FILE *out, const struct sweep *sw)
{
    fputs("planner,budget_bytes,feasible,slots,forward_steps,"
          "recompute_factor,peak_bytes",
          out);
    if (sw->has_levels)
        fputs(",cost", out);
    if (sw->sweeps > 1)
        fputs(",reruns", out);
    fputs(sw->run ? ",wall_seconds,measured_peak_bytes,gradient_matches,"
                    "status\n"
                  : ",status\n",
          out);
    for (size_t i = 0; i < sw->budget_count * sw->planner_count; i++) {
        const struct sweep_row *r = &sw->rows[i];
        fprintf(out, "%s,%llu,%s", name_of(r),
                (unsigned long long)r->budget_bytes,
                r->feasible ? "true" : "false");
        if (!r->feasible) {
            fprintf(out, "%s%s%s,%s\n", sw->run ? ",,,,,,," : ",,,,",
                    sw->has_levels ? "," : "", sw->sweeps > 1 ? "," : "",
                    sweep_status_text(r->status));
            continue;
        }
        fprintf(out, ",%llu,%llu,%.6g,%llu", (unsigned long long)r->slots,
                (unsigned long long)r->forward_steps, r->recompute_factor,
                (unsigned long long)r->peak_bytes);
        if (sw->has_levels)
            fprintf(out, ",%llu", (unsigned long long)r->cost);
        if (sw->sweeps > 1 && r->reruns != UINT64_MAX)
            fprintf(out, ",%llu", (unsigned long long)r->reruns);
        else if (sw->sweeps > 1) /* no one-sweep plan to rerun */
            fputs(",", out);
        if (sw->run)
            fprintf(out, ",%.6f,%llu,%s", r->wall_seconds,
                    (unsigned long long)r->measured_peak_bytes,
                    r->gradient_matches ? "true" : "false");
        fputs(",ok\n", out);
    }
}

static void print_json_row(FILE *out, const struct sweep *sw,
                           const struct sweep_row *r)
{
    fprintf(out,
            "  {\"planner\": \"%s\", \"budget_bytes\": %llu, "
            "\"feasible\": %s, \"status\": \"%s\"",
            name_of(r), (unsigned long long)r->budget_bytes,
            r->feasible ? "true" : "false", sweep_status_text(r->status));
    if (!r->feasible) {
        fputs(", \"slots\": null, \"forward_steps\": null, "
              "\"recompute_factor\": null, \"peak_bytes\": null",
              out);
        if (sw->has_levels)
            fputs(", \"cost\": null", out);
        if (sw->sweeps > 1)
            fputs(", \"reruns\": null", out);
        if (sw->run)
            fputs(", \"wall_seconds\": null, \"measured_peak_bytes\": null, "
                  "\"gradient_matches\": null",
                  out);
        fputc('}', out);
        return;
    }
    fprintf(out,
            ", \"slots\": %llu, \"forward_steps\": %llu, "
            "\"recompute_factor\": %.6g, \"peak_bytes\": %llu",
            (unsigned long long)r->slots, (unsigned long long)r->forward_steps,
            r->recompute_factor, (unsigned long long)r->peak_bytes);
    if (sw->has_levels)
        fprintf(out, ", \"cost\": %llu", (unsigned long long)r->cost);
    if (sw->sweeps > 1 && r->reruns != UINT64_MAX)
        fprintf(out, ", \"sweeps\": %llu, \"reruns\": %llu",
                (unsigned long long)sw->sweeps, (unsigned long long)r->reruns);
    else if (sw->sweeps > 1) /* no one-sweep plan to rerun */
        fprintf(out, ", \"sweeps\": %llu, \"reruns\": null",
                (unsigned long long)sw->sweeps);
    if (r->planner == UTURN_PLANNER_DP)
        cli_dp_print(out, &r->dp, CLI_DP_JSON);
    if (sw->run)
        fprintf(out,
                ", \"wall_seconds\": %.6f, \"measured_peak_bytes\": %llu, "
                "\"gradient_matches\": %s",
                r->wall_seconds, (unsigned long long)r->measured_peak_bytes,
                r->gradient_matches ? "true" : "false");
    fputc('}', out);
}

static void print_json(FILE *out, const struct sweep *sw)
{
    const size_t total = sw->budget_count * sw->planner_count;
    fputs("[\n", out);
    for (size_t i = 0; i < total; i++) {
        print_json_row(out, sw, &sw->rows[i]);
        fputs(i + 1 < total ? ",\n" : "\n", out);
    }
    fputs("]\n", out);
}

/* "Past memory (the budget): disk 100 slots, w=5 r=5; ..." */
static void print_levels_line(FILE *out, const struct sweep *sw)
{
    fputs("Past memory (the budget):", out);
    for (size_t k = 1; k < sw->levels.count; k++) {
        const uturn_level_t *lv = &sw->levels.levels[k];
        char size[32];
        sweep_human_bytes(lv->bytes, size, sizeof size);
        if (lv->slots != 0)
            snprintf(size, sizeof size, "%llu slots",
                     (unsigned long long)lv->slots);
        fprintf(out, "%s %s %s, w=%llu r=%llu", k > 1 ? ";" : "", lv->name,
                size, (unsigned long long)lv->write_cost,
                (unsigned long long)lv->read_cost);
    }
    fputs(sw->sweeps > 1 ? ". Planners of one level plan memory alone; "
                           "revolve with several sweeps plans every level.\n"
                         : ". Planners of one level plan memory alone.\n",
          out);
}

static void print_header(FILE *out, const struct sweep *sw)
{
    char state[32], slot[32];
    sweep_human_bytes(sw->state_bytes, state, sizeof state);
    sweep_human_bytes(sw->slot_cost, slot, sizeof slot);
    if (sw->model_path != NULL)
        fprintf(out, "Model %s: %llu steps; ", sw->model_path,
                (unsigned long long)sw->steps);
    else if (sw->model)
        fprintf(out, "Burgers model: %llu grid points, %llu steps; ",
                (unsigned long long)sw->grid, (unsigned long long)sw->steps);
    else
        fprintf(out, "Planning only: %llu steps; ",
                (unsigned long long)sw->steps);
    fprintf(out, "a state is %s, a slot counts as %s", state, slot);
    if (sw->run)
        fprintf(out,
                " (the state rounded up to 16 bytes; the executor holds "
                "whole pages of %llu bytes, or 16-byte units below one)",
                (unsigned long long)sw->granule);
    fputs(".\n", out);
    if (sw->has_levels)
        print_levels_line(out, sw);
    if (sw->sweeps > 1)
        fprintf(out,
                "%llu reverse sweeps over one forward: forward_steps counts "
                "them all; reruns, %llu separate runs of one sweep.\n",
                (unsigned long long)sw->sweeps, (unsigned long long)sw->sweeps);
    fprintf(out, "%-10s %10s %-11s %6s %13s %9s %10s", "planner", "budget",
            "feasible", "slots", "forward_steps", "recompute", "peak");
    if (sw->has_levels)
        fprintf(out, " %10s", "cost");
    if (sw->sweeps > 1)
        fprintf(out, " %13s", "reruns");
    if (sw->run)
        fprintf(out, " %9s %10s %8s", "wall_s", "measured", "gradient");
    fputc('\n', out);
}

static void print_text_row(FILE *out, const struct sweep *sw,
                           const struct sweep_row *r)
{
    char budget[32], peak[32], measured[32];
    sweep_human_bytes(r->budget_bytes, budget, sizeof budget);
    if (!r->feasible) {
        fprintf(out, "%-10s %10s %-11s %6s %13s %9s %10s%s%s%s\n", name_of(r),
                budget,
                r->status == UTURN_E_INFEASIBLE ? "no"
                                                : sweep_status_text(r->status),
                "-", "-", "-", "-", sw->has_levels ? "          -" : "",
                sw->sweeps > 1 ? "             -" : "",
                sw->run ? " "
                          "        -          -        -"
                        : "");
        return;
    }
    sweep_human_bytes(r->peak_bytes, peak, sizeof peak);
    fprintf(out, "%-10s %10s %-11s %6llu %13llu %9.3f %10s", name_of(r), budget,
            "yes", (unsigned long long)r->slots,
            (unsigned long long)r->forward_steps, r->recompute_factor, peak);
    if (sw->has_levels)
        fprintf(out, " %10llu", (unsigned long long)r->cost);
    if (sw->sweeps > 1 && r->reruns != UINT64_MAX)
        fprintf(out, " %13llu", (unsigned long long)r->reruns);
    else if (sw->sweeps > 1) /* no one-sweep plan to rerun */
        fprintf(out, " %13s", "-");
    if (sw->run) {
        sweep_human_bytes(r->measured_peak_bytes, measured, sizeof measured);
        fprintf(out, " %9.4f %10s %8s", r->wall_seconds, measured,
                r->gradient_matches ? "bitwise" : "DIFFERS");
    }
    fputc('\n', out);
}

/* Below the table: each dp row whose plan is approximate, with what
 * certifies it (the exact rows say nothing: they are the optimum). */
static void print_dp_notes(FILE *out, const struct sweep *sw)
{
    for (size_t i = 0; i < sw->budget_count * sw->planner_count; i++) {
        const struct sweep_row *r = &sw->rows[i];
        if (r->planner != UTURN_PLANNER_DP || !r->feasible || r->dp.exact)
            continue;
        char budget[32];
        sweep_human_bytes(r->budget_bytes, budget, sizeof budget);
        fprintf(out,
                "dp at %s: an approximate plan, "
                "forward cost %llu, certified lower bound %llu\n",
                budget, (unsigned long long)r->dp.forward_cost,
                (unsigned long long)r->dp.lower_bound_cost);
    }
}

void sweep_print(FILE *out, const struct sweep *sw)
{
    if (sw->format == FORMAT_CSV) {
        print_csv(out, sw);
    } else if (sw->format == FORMAT_JSON) {
        print_json(out, sw);
    } else {
        print_header(out, sw);
        for (size_t i = 0; i < sw->budget_count * sw->planner_count; i++)
            print_text_row(out, sw, &sw->rows[i]);
        print_dp_notes(out, sw);
    }
}
