/*
 * uturn sweep --plot: an SVG written directly (no plotting dependency).
 * One panel per measure, budget on a log axis, the measure on a log axis
 * (recompute factors span 1 to n/2), one line per planner, and a legend.
 * Markers shrink from planner to planner so that coinciding points (store-
 * all and periodic at full memory, say) all stay visible.
 */
#include "sweep.h"

#include <math.h>

#define WIDTH   860.0
#define PANEL_H 400.0
#define LEFT    90.0
#define RIGHT   180.0
#define TOP     50.0
#define BOTTOM  60.0

/* Eight distinct colours (Dark2), one per planner. */
static const char *const colours[] = {"#1b9e77", "#d95f02", "#7570b3",
                                      "#e7298a", "#66a61e", "#e6ab02",
                                      "#a6761d", "#666666"};

/* A log axis from lo to hi (both > 0) mapped onto [a, b] pixels. */
struct axis {
    double lo, hi, a, b;
};

static double place(const struct axis *ax, double v)
{
    const double t = (log(v) - log(ax->lo)) / (log(ax->hi) - log(ax->lo));
    return ax->a + t * (ax->b - ax->a);
}

typedef double (*measure_fn)(const struct sweep_row *row);

static double factor(const struct sweep_row *row)
{
    return row->recompute_factor;
}

/* With levels: the plan's cost per step (forward plus I/O), which is the
 * recompute factor when nothing is written or read at a cost. */
static double cost_factor(const struct sweep_row *row)
{
    return row->cost_factor;
}

static double wall(const struct sweep_row *row)
{
    return row->wall_seconds > 1e-9 ? row->wall_seconds : 1e-9;
}

/* Tick labels at powers of two for bytes, at 1-2-5 decades otherwise. */
static void x_ticks(FILE *out, const struct axis *x, double y0, double y1)
{
    const int first = (int)ceil(log2(x->lo)), last = (int)floor(log2(x->hi));
    const int step = (last - first) / 8 + 1;
    for (int e = first; e <= last; e += step) {
        const double px = place(x, ldexp(1.0, e));
        char label[32];
        sweep_human_bytes((uint64_t)ldexp(1.0, e), label, sizeof label);
        fprintf(out,
                "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
                "stroke='#ddd'/>\n<text x='%.1f' y='%.1f' "
                "text-anchor='middle'>%s</text>\n",
                px, y0, px, y1, px, y1 + 18, label);
    }
}

static void y_ticks(FILE *out, const struct axis *y, double x0, double x1)
{
    static const double mant[] = {1, 2, 5};
    for (int e = (int)floor(log10(y->lo)); e <= (int)ceil(log10(y->hi)); e++)
        for (int m = 0; m < 3; m++) {
            const double v = mant[m] * pow(10.0, e);
            if (v < y->lo * 0.999 || v > y->hi * 1.001)
                continue;
            const double py = place(y, v);
            fprintf(out,
                    "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
                    "stroke='#ddd'/>\n<text x='%.1f' y='%.1f' "
                    "text-anchor='end'>%g</text>\n",
                    x0, py, x1, py, x0 - 6, py + 4, v);
        }
}

/* One planner's feasible rows as a line with markers. */
static void series(FILE *out, const struct sweep *sw, size_t p,
                   const struct axis *x, const struct axis *y, measure_fn value)
{
    fprintf(out,
            "<polyline fill='none' stroke='%s' stroke-width='2' "
            "points='",
            colours[p % 8]);
    for (size_t b = 0; b < sw->budget_count; b++) {
        const struct sweep_row *r = &sw->rows[b * sw->planner_count + p];
        if (r->feasible)
            fprintf(out, "%.1f,%.1f ", place(x, (double)r->budget_bytes),
                    place(y, value(r)));
    }
    fputs("'/>\n", out);
    for (size_t b = 0; b < sw->budget_count; b++) {
        const struct sweep_row *r = &sw->rows[b * sw->planner_count + p];
        if (r->feasible)
            fprintf(out, "<circle cx='%.1f' cy='%.1f' r='%.1f' fill='%s'/>\n",
                    place(x, (double)r->budget_bytes), place(y, value(r)),
                    7.0 - 1.3 * (double)(p % 4), colours[p % 8]);
    }
}

static void legend(FILE *out, const struct sweep *sw, double top)
{
    for (size_t p = 0; p < sw->planner_count; p++) {
        const double y = top + 20.0 + 22.0 * (double)p;
        fprintf(out,
                "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
                "stroke='%s' stroke-width='3'/>\n<text x='%.1f' "
                "y='%.1f'>%s</text>\n",
                WIDTH - RIGHT + 20, y, WIDTH - RIGHT + 50, y, colours[p % 8],
                WIDTH - RIGHT + 58, y + 5, uturn_planner_name(sw->planners[p]));
    }
}

/* The y range of a measure over the feasible rows, widened a little. */
static struct axis y_range(const struct sweep *sw, measure_fn value, double top)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < sw->budget_count * sw->planner_count; i++)
        if (sw->rows[i].feasible) {
            lo = fmin(lo, value(&sw->rows[i]));
            hi = fmax(hi, value(&sw->rows[i]));
        }
    if (!(hi > 0))
        lo = hi = 1;
    return (struct axis){lo / 1.25, hi * 1.25, top + PANEL_H - BOTTOM,
                         top + TOP};
}

static void panel(FILE *out, const struct sweep *sw, double top,
                  measure_fn value, const char *label)
{
    const struct axis x = {(double)sw->budgets[0] / 1.15,
                           (double)sw->budgets[sw->budget_count - 1] * 1.15,
                           LEFT, WIDTH - RIGHT};
    const struct axis y = y_range(sw, value, top);
    x_ticks(out, &x, y.b, y.a);
    y_ticks(out, &y, x.a, x.b);
    fprintf(out,
            "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' "
            "fill='none' stroke='#333'/>\n",
            x.a, y.b, x.b - x.a, y.a - y.b);
    for (size_t p = 0; p < sw->planner_count; p++)
        series(out, sw, p, &x, &y, value);
    fprintf(out,
            "<text x='%.1f' y='%.1f' text-anchor='middle'>budget "
            "(log scale)</text>\n",
            (x.a + x.b) / 2, y.a + 42);
    fprintf(out,
            "<text transform='translate(%.1f,%.1f) rotate(-90)' "
            "text-anchor='middle'>%s (log scale)</text>\n",
            LEFT - 62, (y.a + y.b) / 2, label);
    legend(out, sw, top + TOP);
}

void sweep_plot(const struct sweep *sw, FILE *out)
{
    const double height = PANEL_H * (sw->run ? 2 : 1);
    fprintf(out,
            "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' "
            "height='%.0f' font-family='sans-serif' font-size='13'>\n"
            "<rect width='100%%' height='100%%' fill='white'/>\n",
            WIDTH, height);
    char state[32];
    sweep_human_bytes(sw->state_bytes, state, sizeof state);
    fprintf(out,
            "<text x='%.1f' y='28' text-anchor='middle' font-size='16'>"
            "%s%llu steps, %s per state: %s against "
            "memory%s</text>\n",
            WIDTH / 2,
            sw->model_path != NULL ? "Model library, "
            : sw->model            ? "Burgers model, "
                                   : "",
            (unsigned long long)sw->steps, state,
            sw->has_levels ? "cost" : "recomputation",
            sw->has_levels ? ", the levels past it fixed" : "");
    if (sw->has_levels)
        panel(out, sw, 0, cost_factor, "cost / steps (forward + I/O)");
    else
        panel(out, sw, 0, factor, "recompute factor");
    if (sw->run)
        panel(out, sw, PANEL_H, wall, "wall time of the run (s)");
    fputs("</svg>\n", out);
}
