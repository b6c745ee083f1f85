#!/usr/bin/env python3
"""Issue 11's executor targets, checked on outputs of
build-bench/bench/bench_executor: for each output, every figure past its
target (80 per run: sections 1 to 3, section 4's medians and its page
faults against their allowance); then, the machine being shared and
noisy, each figure's median and range over all the outputs given.

usage: bench/executor_targets.py FILE [FILE...]
Exits 0 either way (a benchmark, never a test).
"""
import re
import statistics
import sys


def figures(path):
    """{key: value}: sections 1 to 4 (ratios, copy %, alternating)."""
    with open(path, encoding="utf-8") as f:
        return figures_of(f)


def figures_of(lines):
    """figures() of one output given as lines (bench/write_results.py)."""
    out, sec = {}, 0
    for line in lines:
        m = re.match(r"^## (\d)\.", line)
        if m:
            sec = int(m.group(1))
            continue
        if not line.startswith("| ") or line.startswith("|---"):
            continue
        f = [x.strip() for x in line.strip().strip("|").split("|")]
        try:
            if sec == 1:
                out[("warm", f[0], f[2])] = float(f[3])
            elif sec == 2:
                out[("copy", f[0], "")] = float(f[4].rstrip(" %"))
            elif sec == 3:
                out[("cold", f[0], "")] = float(f[2])
            elif sec == 4 and len(f) == 3 and f[0] != "plan":
                out[("alternating", f[0], "")] = float(f[1])
            elif sec == 4 and len(f) == 6 and f[0] != "cycle":
                out[("faults", f[0], f[1])] = (float(f[3]), float(f[4]))
        except (ValueError, IndexError):
            pass
    return out


def target(key):
    """(limit, True when the figure must be at most the limit)."""
    kind, size, planner = key
    if kind == "warm":
        if size == "64 B":
            return (1.5 if planner == "store-all" else 1.3), True
        return 1.05, True
    if kind == "copy":
        return 90.0, False
    if kind == "cold":
        return 1.2, True
    if kind == "faults":
        return None, True  # at most the allowance printed beside it
    return 1.1, True


def passes(key, value):
    limit, at_most = target(key)
    if limit is None:
        return value[0] <= value[1]
    return value <= limit if at_most else value >= limit


def single_runs(paths, runs):
    for path, run in zip(paths, runs):
        missed = [k for k, v in run.items() if not passes(k, v)]
        for k in missed:
            print("%s: missed: %s %s %s: %s" % (path, k[0], k[1], k[2],
                                                run[k]))
        print("%s: %d figures checked, %d missed" % (path, len(run),
                                                     len(missed)))


def main(paths):
    runs = [figures(p) for p in paths]
    single_runs(paths, runs)
    missed = 0
    for key in (k for k in runs[0] if k[0] != "faults"):
        values = [r[key] for r in runs if key in r]
        med = statistics.median(values)
        limit, at_most = target(key)
        ok = med <= limit if at_most else med >= limit
        missed += not ok
        print("%-12s %-16s %-10s median %8.3f  range %.3f..%.3f  "
              "target %s %s  %s"
              % (key[0], key[1], key[2], med, min(values), max(values),
                 "<=" if at_most else ">=", limit, "ok" if ok else "MISSED"))
    print("%d figures over %d runs; %d medians past their target"
          % (sum(k[0] != "faults" for k in runs[0]), len(runs), missed))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
