#!/usr/bin/env python3
"""Write bench/RESULTS.md, the whole file, from the raw outputs in
bench/results/ (bench/run.sh writes them; nothing is rerun here).

usage: bench/write_results.py [OUT]      (default bench/RESULTS.md; - for
                                          standard output)
       bench/write_results.py --recorded  (the raw files moved in by hand
                                          from earlier runs)

A raw file bench/results/PART.txt is the output of bench/run.sh's part
PART: header lines `#| key: value` (part, date, commit, machine, build,
load before, load after, note, and for an earlier run moved in by hand,
recorded and load), `#| block: NAME` lines that split it into named
blocks, `$ COMMAND` lines before each command's output, and `uptime`
lines around them.

Each section of RESULTS.md is one function below, registered with
@section(PART, TITLE): it gets the parsed raw file and returns the
section's markdown and its rows of the summary table (Row). Adding a
section: a part in bench/run.sh that writes bench/results/PART.txt, and
one such function.
"""
import re
import statistics
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results"
sys.path.insert(0, str(BENCH))
sys.dont_write_bytecode = True  # no bench/__pycache__ in the tree
import executor_targets  # noqa: E402  (bench/executor_targets.py)

LOAD = re.compile(r"load average(?: at start)?: ([\d.]+)")
UPTIME = re.compile(r"^ ?\d\d:\d\d:\d\d up .*load average: ")


class Command:
    """One `$ COMMAND` line, its output, and the load around it."""

    def __init__(self, line, load_before):
        self.line = line
        self.output = []
        self.load_before = load_before
        self.load_after = None

    def text(self):
        """The output, without the uptime lines around it."""
        return "\n".join(x for x in self.output if not UPTIME.match(x))


class Raw:
    """A raw file: its header, its blocks, and its commands."""

    def __init__(self, path):
        self.part = path.stem
        self.path = path
        self.head = {}
        self.blocks = {"": []}
        block, load = "", None
        self.commands = []
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^#\| ([a-z ]+): ?(.*)$", line)
            if m and m.group(1) == "block":
                block = m.group(2)
                self.blocks.setdefault(block, [])
                continue
            if m:
                self.head.setdefault(m.group(1), []).append(m.group(2))
                continue
            self.blocks[block].append(line)
            m = LOAD.search(line)
            if m and not line.startswith("$ "):
                load = float(m.group(1))
                self.saw_load(load)
            if line.startswith("$ "):
                self.commands.append(Command(line[2:], load))
            elif self.commands:
                self.commands[-1].output.append(line)

    def saw_load(self, load):
        """A load line: the load after every command still without one;
        or, as a command's first line, the load before it."""
        if self.commands and not any(not LOAD.search(x) for x in
                                     self.commands[-1].output):
            self.commands[-1].load_before = load
            return
        for c in self.commands:
            if c.load_after is None:
                c.load_after = load

    def get(self, key, default=""):
        return " ".join(self.head.get(key, [default]))

    def block(self, name):
        return "\n".join(self.blocks.get(name, []))

    def find(self, pattern):
        """The commands whose line matches the regular expression."""
        return [c for c in self.commands if re.search(pattern, c.line)]

    def load(self, short=True):
        """The part's load: 1-minute averages before -> after, or as
        recorded (short: without its parenthesis)."""
        if "load before" in self.head:
            return arrow(self.get("load before").split()[0],
                         self.get("load after", "?").split()[0])
        text = self.get("load", "not recorded")
        return text.split(" (")[0] if short else text

    def load_of(self, command):
        """The load around one command, else the part's."""
        if command is not None and command.load_before is not None:
            if command.load_after is None:
                return "%.2f at the start" % command.load_before
            return arrow("%.2f" % command.load_before,
                         "%.2f" % command.load_after)
        return self.load()

    def rerun(self):
        return "recorded" not in self.head


def arrow(before, after):
    return "%s → %s" % (before, after)


class Row:
    """One line of the summary: a headline figure beside its target."""

    def __init__(self, figure, uturn, target, ratio, met, command, load):
        self.figure, self.uturn, self.target = figure, uturn, target
        self.ratio, self.met, self.command, self.load = ratio, met, command, load


def counts(load):
    """The load column of a figure that is a count: no load changes it."""
    return "any (a count; ran at %s)" % load


def verdict(value, limit, at_most=True):
    ok = value <= limit if at_most else value >= limit
    return "yes" if ok else "**no**"


# --- markdown helpers ------------------------------------------------------

def fence(text):
    return "```\n%s\n```" % text.strip("\n")


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(out)


def code(text):
    return "`%s`" % text


def anchor(title):
    a = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
    return "#" + a


def power(n):
    """10^k for a power of ten, else the number."""
    k = len(n) - 1
    return "10^%d" % k if k > 2 and n == "1" + "0" * k else n


def med(values):
    return statistics.median(values)


def md_rows(text):
    """The rows of the markdown tables in text, as lists of cells."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"^\|[-:| ]+\|$", line):
            rows.append([x.strip() for x in line.strip().strip("|").split("|")])
    return rows


def num(pattern, text, group=1, cast=float):
    m = re.search(pattern, text)
    return cast(m.group(group)) if m else None


# --- the registry ----------------------------------------------------------

SECTIONS = []


def section(part, title, earlier=False):
    """Register fn as the section of bench/results/PART.txt; earlier: an
    earlier run or experiment, shown after the current figures."""
    def register(fn):
        SECTIONS.append((part, title, fn, earlier))
        return fn
    return register


def provenance(raw):
    """The line under every title: where the figures come from."""
    load = ("%s (1-minute, before → after)" % raw.load()
            if "load before" in raw.head else raw.load(short=False))
    out = ["Raw output: [`bench/results/%s.txt`](results/%s.txt); run %s "
           "at commit %s; load average %s."
           % (raw.part, raw.part, raw.get("date", "(date not recorded)"),
              raw.get("commit", "(not recorded)"), load)]
    if raw.rerun():
        out.append("`bench/run.sh %s` reruns it." % raw.part)
    else:
        out.append("*Recorded*: %s." % raw.get("recorded"))
    notes = raw.head.get("note", [])
    text = " ".join(out)
    if notes:
        text += "\n\n" + "\n\n".join("Note: " + n for n in notes)
    return text


# --- sections: the current figures, one per part of bench/run.sh ----------

REVOLVE_CASE = re.compile(
    r"revolve n=(\d+) s=(\d+): (\d+) actions\s+uturn_cursor_next\s+([\d.]+)"
    r" ns/action.*?\s+uturn_cursor_read\s+([\d.]+) ns/action", re.S)


@section("revolve", "Revolve plan generation")
def revolve(raw):
    rows, summary = [], []
    for c in raw.find(r"bench_revolve"):
        lib = "libuturn.so" if "shared" in c.line else "libuturn.a"
        for m in REVOLVE_CASE.finditer(c.text()):
            n, s, actions, nxt, read = m.groups()
            rows.append([lib, n, s, actions, nxt, read, raw.load_of(c)])
            if lib == "libuturn.a" and not summary:
                for how, v in (("`uturn_cursor_next`", nxt),
                               ("`uturn_cursor_read` (batches)", read)):
                    summary.append(Row(
                        "revolve generation, %s (libuturn.a, n = %s, "
                        "s = %s)" % (how, power(n), s), "%s ns/action" % v,
                        "≤ 5 ns (TOMS 799's revolve here)",
                        "%.2f" % (float(v) / 5), verdict(float(v), 5),
                        code(c.line), raw.load_of(c)))
    body = ("Commands: `bench_revolve` (linked with libuturn.a) and "
            "`bench_revolve_shared` (libuturn.so) walk every action of the "
            "plan through a cursor, no printing; best of 5. Target: at most "
            "5 ns per action (TOMS 799's revolve measures about 5 ns here, "
            "one call per action).\n\n"
            + table(["library", "steps", "slots", "actions",
                     "uturn_cursor_next ns/action",
                     "uturn_cursor_read ns/action", "load"], rows))
    return body, summary


EXECUTOR_TARGETS = (
    "Targets (issue 11): store-all at most 1.5x a hand-written loop at 64 B "
    "and 1.05x from 4 KiB up; revolve at most 1.3x at 64 B and 1.05x from "
    "4 KiB; copy throughput at least 90 % of the hand loop's memcpy; a cold "
    "run at most 1.2x; each run of the alternating sequence at most 1.1x its "
    "hand loop (median over its rounds), with no more page faults than the "
    "bytes grown allow. Every ratio is a median of 11 interleaved pairs. "
    "`bench/executor_targets.py` names each output's figures past their "
    "target, then each figure's median over the outputs.")


def size_name(text):
    b = int(text.split()[0])
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= size and b % size == 0:
            return "%d %s" % (b // size, unit)
    return "%d B" % b


def missed_name(key, value):
    kind, size, planner = key
    if kind == "warm":
        return "%s %s %.3f" % (planner, size_name(size), value)
    if kind == "copy":
        return "copy %s %.1f %%" % (size_name(size), value)
    if kind == "cold":
        return "cold %s %.3f" % (size_name(size), value)
    if kind == "faults":
        return "faults (cycle %s, %s) %d > %d" % (size, planner, *value)
    return "%s %s %.3f" % (kind, size, value)


def executor_outputs(raw):
    """Each bench_executor output in the file: (command, figures)."""
    out = []
    for c in raw.find(r"bench_executor(?!.*--)"):
        figs = executor_targets.figures_of(c.output)
        if figs:
            out.append((c, figs))
    return out


def executor_run_table(raw, outputs):
    rows, clean = [], 0
    for i, (c, f) in enumerate(outputs, 1):
        missed = [missed_name(k, v) for k, v in f.items()
                  if not executor_targets.passes(k, v)]
        clean += not missed
        rows.append([i, raw.load_of(c),
                     "%.3f" % f[("warm", "64 B", "store-all")],
                     "%.3f" % f[("warm", "64 B", "revolve")],
                     "%.1f %%" % f[("copy", "64 B", "")],
                     "%.3f" % f[("cold", "64 B", "")],
                     ", ".join(missed) or "none", len(f)])
    text = table(["run", "load", "store-all 64 B", "revolve 64 B",
                  "copy 64 B", "cold 64 B", "figures past target",
                  "figures"], rows)
    return text + ("\n\n%d of %d run%s met every figure." %
                   (clean, len(outputs), "" if len(outputs) == 1 else "s"))


TARGET_LINE = re.compile(
    r"^(warm|copy|cold|alternating)\s+(\S+(?: \S+)*?)\s{2,}(?:(\S+)\s+)?"
    r"median\s+([\d.]+)\s+range ([\d.]+)\.\.([\d.]+)\s+target (<=|>=) "
    r"([\d.]+)\s+(ok|MISSED)$")


def executor_medians(text):
    """executor_targets.py's median lines: {(kind, size, planner): ...}."""
    out = {}
    for line in text.splitlines():
        m = TARGET_LINE.match(line.strip())
        if m:
            kind, size, planner = m.group(1), m.group(2), m.group(3) or ""
            if kind == "alternating":
                size, planner = (size + " " + planner).strip(), ""
            out[(kind, size, planner)] = (float(m.group(4)), m.group(7),
                                          float(m.group(8)))
    return out


def executor_summary(raw, medians, runs, command):
    def pick(kind, pred=lambda k: True):
        return {k: v for k, v in medians.items() if k[0] == kind and pred(k)}

    def row(figure, chosen, worst, target):
        key = worst(chosen, key=lambda k: chosen[k][0])
        value, op, limit = chosen[key]
        label = size_name(key[1]) if key[0] != "alternating" else key[1]
        label = " ".join(x for x in (label, key[2]) if x)
        return Row(figure.replace("{}", label),
                   ("%.1f %%" if key[0] == "copy" else "%.3f") % value +
                   " (median of %d)" % runs,
                   target, "%.3f" % (value / limit),
                   verdict(value, limit, op == "<="), command, raw.load())

    rows = [row("executor / hand loop, warm, {}", {k: medians[k]}, max,
                "≤ %g" % medians[k][2])
            for k in (("warm", "64 B", "store-all"), ("warm", "64 B",
                                                       "revolve"))
            if k in medians]
    rows.append(row("executor / hand loop, warm, 4 KiB to 16 MiB, worst "
                    "({})", pick("warm", lambda k: k[1] != "64 B"), max,
                    "≤ 1.05"))
    rows.append(row("copy throughput / the hand loop's memcpy, lowest ({})", pick("copy"), min, "≥ 90 %"))
    rows.append(row("executor / hand loop, cold, worst ({})", pick("cold"),
                    max, "≤ 1.2"))
    rows.append(row("executor / hand loop, alternating plans, worst ({})", pick("alternating"), max, "≤ 1.1"))
    return rows


REGROW = re.compile(r"^\| right after (.+?) \| ([\d.]+) \| ([\d.]+)\.\.([\d.]+)"
                    r" \| ([\d.]+) \| ([\d.]+) \| (\d+) \| (\d+) \|$", re.M)


def regrow_rows(raw, outputs):
    """Section 6 of each output: store-all after a 10 % run, repeated."""
    rows = []
    for i, (c, _) in enumerate(outputs, 1):
        for m in REGROW.finditer(c.text()):
            rows.append([i, raw.load_of(c), "store-all right after " +
                         m.group(1), m.group(2),
                         "%s..%s" % (m.group(3), m.group(4))] +
                        [m.group(k) for k in range(5, 9)])
    return rows


@section("executor", "Executor")
def executor(raw):
    outputs = executor_outputs(raw)
    targets = "\n".join(t.text() for t in raw.find(r"executor_targets\.py"))
    medians = executor_medians(targets)
    runs = len(outputs) or len(md_rows(raw.block("runs"))) - 1
    parts = ["Command: `build-bench/bench/bench_executor`, %d times in a row, "
             "then `bench/executor_targets.py` over the outputs. %s"
             % (runs, EXECUTOR_TARGETS)]
    if outputs:
        parts.append("Each output's headline figures and the figures it "
                     "missed:\n\n" + executor_run_table(raw, outputs))
    elif raw.block("runs"):
        parts.append("Each run's headline figures and the figures it missed "
                     "(transcribed):\n\n" + raw.block("runs").strip())
    if medians:
        parts.append("Each figure's median over the runs "
                     "(`bench/executor_targets.py`):\n\n" +
                     fence("\n".join(
                         l for l in targets.splitlines()
                         if TARGET_LINE.match(l.strip()) or
                         l.strip().endswith("past their target"))))
    summary = executor_summary(
        raw, medians, runs, "`build-bench/bench/bench_executor` ×%d, "
        "`bench/executor_targets.py`" % runs) if medians else []
    regrow = regrow_rows(raw, outputs)
    if regrow:
        parts.append(
            "Store-all after a smaller budget (section 6 of each output): "
            "the executor keeps its region only up to each run's budget, so "
            "store-all (64 KiB states, 2048 steps, 128 MiB) right after a "
            "periodic run at 10 % of that grows the region again and faults "
            "its pages in anew; after the same periodic run given "
            "store-all's budget (`budget_bytes` of `uturn_run_options_t`), "
            "or repeated, it faults none. Each against a hand loop that "
            "keeps all its pages (no target: this measures what the budget "
            "promise costs).\n\n" + table(
                ["output", "load", "run", "executor / hand", "range",
                 "executor ms", "hand ms", "executor faults", "hand faults"],
                regrow))
        after = [float(r[3]) for r in regrow if r[2].endswith("10 %")]
        kept = [float(r[3]) for r in regrow if "budget" in r[2]]
        again = [float(r[3]) for r in regrow if "repeated" in r[2]]
        summary.append(Row(
            "store-all (128 MiB) right after a 10 % run, one executor "
            "/ a hand loop keeping its pages",
            "%.3f (median of %d; after it with store-all's budget: %s; "
            "repeated: %.3f)" % (med(after), len(after), "%.3f" % med(kept)
                                 if kept else "not run", med(again)),
            "anchor: the same run repeated", "%.3f" % (med(after) /
                                                       med(again)),
            "—", "`build-bench/bench/bench_executor` (section 6)",
            raw.load()))
    parts.append("The outputs themselves are in the raw file." if outputs
                 else "")
    return "\n\n".join(p for p in parts if p), summary


EXACT = re.compile(r"^exact\s+n=(\d+)\s+threads=(\d+)\s+seconds median\s+"
                   r"([\d.]+)\s+\[([\d.]+), ([\d.]+)\] of (\d+)\s+cost (\d+)",
                   re.M)


def dp_exact_rows(raw):
    """(n, threads, median, lo, hi, repeats, cost, command) per line."""
    return [(int(m.group(1)), int(m.group(2)), float(m.group(3)),
             m.group(4), m.group(5), int(m.group(6)), m.group(7), c)
            for c in raw.find(r"bench_dp exact") for m in
            EXACT.finditer(c.text())]


@section("dp_exact", "dp: exact plan creation at n = 200, 500 and 1000")
def dp_exact(raw):
    rows = dp_exact_rows(raw)
    body = ("Commands: `build-bench/bench/bench_dp exact REPEATS THREADS "
            "N...`: one `uturn_plan_create()` per repeat; random sizes 1..8 "
            "and costs 1..10, budget half of store-all's need, unit 1 byte "
            "(table limit raised: n = 1000 needs about 2.7 GB). Aims "
            "(timings are reported, never tested): n = 500 at most 8 s and "
            "n = 1000 at most 60 s, single-threaded.\n\n" + table(
                ["n", "threads", "seconds, median", "range", "repeats",
                 "cost", "command", "load"],
                [[n, t, "%.3f" % s, "%s .. %s" % (lo, hi), r, cost,
                  code(c.line), raw.load_of(c)]
                 for n, t, s, lo, hi, r, cost, c in rows]))
    summary = []
    for n, aim in ((500, 8), (1000, 60)):
        one = [r for r in rows if r[0] == n and r[1] == 1]
        if one:
            best = max(one, key=lambda r: r[5])  # the most repeats
            summary.append(Row(
                "dp exact, n = %d, one thread (median of %d)"
                % (n, best[5]), "%.2f s" % best[2], "≤ %d s (aim)" % aim,
                "%.2f" % (best[2] / aim), verdict(best[2], aim),
                code(best[7].line), raw.load_of(best[7])))
    return body, summary


@section("dp_approx", "dp: the approximate planner")
def dp_approx(raw):
    summary, parts = [], [
        "Commands: `build-bench/bench/bench_dp approx REPEATS THREADS N` (the "
        "approximate planner at n = 10,000 on the same kind of chain: time, "
        "cost, certified lower bound) and `build-bench/bench/bench_dp quality "
        "CHAINS N` (20 chains of 300 steps planned exactly and "
        "approximately). Aims: n = 10,000 at most 10 s; within 5 % of exact "
        "on 20 chains of 300 steps."]
    for c in raw.commands:
        parts.append("%s (load %s):\n\n%s" % (code(c.line), raw.load_of(c),
                                              fence(c.text())))
    for c in raw.find(r"bench_dp approx"):
        s = num(r"seconds median\s+([\d.]+)", c.text())
        reps = num(r"\] of (\d+)", c.text(), cast=int)
        n = num(r"approximate n=(\d+)", c.text(), cast=int)
        if s is not None:
            summary.append(Row(
                "dp approximate, n = %s (median of %d)" % (power(str(n)),
                                                          reps),
                "%.2f s" % s, "≤ 10 s (aim)", "%.2f" % (s / 10),
                verdict(s, 10), code(c.line), raw.load_of(c)))
    for c in raw.find(r"bench_dp quality"):
        worst = num(r"median [\d.]+, worst ([\d.]+)", c.text())
        if worst is not None:
            summary.append(Row(
                "dp approximate / exact, worst of 20 chains of 300 steps", "%.4f" % worst, "≤ 1.05 (aim)", "%.4f" % (worst /
                                                                  1.05),
                verdict(worst, 1.05), code(c.line), counts(raw.load_of(c))))
    return "\n\n".join(parts), summary


@section("dp_search", "dp: how much the nested restriction costs")
def dp_search(raw):
    c = raw.find(r"dp_search")[0]
    text = c.text()
    body = ("Command: `build-bench/bench/dp_search` (random chains, n <= 7, "
            "sizes 1..8, costs 1..10, every feasible budget; dp against the "
            "optimum over all valid action sequences, found by Dijkstra). "
            "Counts, not times: the same on every machine.\n\n" + fence(text))
    m = re.search(r"largest relative gap: .*all-sequences (\d+), dp (\d+)",
                  text)
    share = re.search(r"^all\s+(\d+)\s+(\d+)\s+([\d.]+%)", text, re.M)
    summary = []
    if m and share:
        best, dp = int(m.group(1)), int(m.group(2))
        summary.append(Row(
            "dp / the best of all action sequences, worst (n ≤ 7, every "
            "budget)",
            "%d / %d; above 1 in %s of %s pairs"
            % (dp, best, share.group(3), share.group(1)),
            "anchor: the optimum (1)", "%.3f" % (dp / best), "—",
            code(c.line), counts(raw.load_of(c))))
    return body, summary


@section("hrevolve", "hrevolve: planning time over memory and disk")
def hrevolve(raw):
    c = raw.find(r"bench_hrevolve")[0]
    body = ("Command: `build-bench/bench/bench_hrevolve 3`: three "
            "`uturn_plan_create()` calls for n = 10^4 steps over memory 20 "
            "slots (w = r = 0) and disk 500 slots (w = r = 5), each timed in "
            "wall and CPU seconds; then one validated walk of the plan, "
            "whose counts must equal the prediction. Aim: at most 10 s.\n\n"
            + fence(c.text()))
    s = num(r"planning time: median ([\d.]+) s", c.text())
    summary = [Row("hrevolve, n = 10^4, memory 20 + disk 500 slots "
                   "(median of 3, wall)", "%.2f s" % s, "≤ 10 s (aim)",
                   "%.2f" % (s / 10), verdict(s, 10), code(c.line),
                   raw.load_of(c))] if s is not None else []
    return body, summary


@section("levels_costs", "Storage levels: hrevolve's costs")
def levels_costs(raw):
    c = raw.find(r"levels_costs\.sh")[0]
    body = ("hrevolve's cost (forward steps plus every write and read) "
            "against revolve with the same memory alone, for the reference "
            "cases of docs/model.md section 4. Command: %s. Counts, not "
            "times.\n\n%s" % (code(c.line), c.text().strip()))
    ratios = [float(r[-1]) for r in md_rows(c.text())[1:]]
    summary = [Row("hrevolve / revolve with memory alone, cost (%d "
                   "reference cases)" % len(ratios),
                   "%.3f .. %.3f" % (min(ratios), max(ratios)),
                   "anchor: revolve, memory alone (1)",
                   "%.3f .. %.3f" % (min(ratios), max(ratios)), "—",
                   code(c.line), counts(raw.load_of(c)))] if ratios else []
    return body, summary


@section("sweeps", "Several sweeps: against TwoLevelCheckpointSchedule")
def sweeps(raw):
    c = raw.find(r"sweeps_grid\.sh")[0]
    all_rows = md_rows(c.text())[1:]
    rows = [r for r in all_rows if not r[2].startswith("unbounded")]
    open_rows = [r for r in all_rows if r[2].startswith("unbounded")]
    open_worse = sum(int(r[4]) > int(r[3]) for r in open_rows)
    total, worse = {}, 0
    for r in rows:
        k, theirs, ours = int(r[2]), int(r[3]), int(r[4])
        t = total.setdefault(k, [0, 0])
        t[0], t[1] = t[0] + theirs, t[1] + ours
        worse += ours > theirs
    sums = table(["sweeps", "TwoLevel, summed", "uturn, summed", "fewer"],
                 [[k, t[0], t[1], "%.2f %%" % (100 * (1 - t[1] / t[0]))]
                  for k, t in sorted(total.items())])
    body = ("Forward steps of `revolve --sweeps K` with RAM + disk slots "
            "against checkpoint_schedules' TwoLevelCheckpointSchedule with "
            "the same RAM and disk slots, in uturn's count (docs/model.md "
            "section 13), on n = 1000 and 10000, RAM 5, 10, 20, disk 10, "
            "20, 50. Command: %s. Counts, not times. Cases where uturn "
            "takes more: %d of %d. With an open number of sweeps "
            "(`--sweeps unbounded`), each further sweep against one of "
            "TwoLevel's sweeps: more in %d of %d configurations."
            "\n\n%s\n\nEvery case:\n\n%s"
            % (code(c.line), worse, len(rows), open_worse, len(open_rows),
               sums, c.text().strip()))
    summary = []
    if open_rows:
        ours = sum(int(r[4]) for r in open_rows)
        theirs = sum(int(r[3]) for r in open_rows)
        summary.append(Row(
            "unbounded sweeps: each further sweep against one of TwoLevel's "
            "(%d configurations, %d dearer)" % (len(open_rows), open_worse),
            "%.2f %% fewer, summed" % (100 * (1 - ours / theirs)),
            "never more (issue 25)", "%.3f" % (ours / theirs),
            verdict(open_worse, 0), code(c.line), counts(raw.load_of(c))))
    for k in (2, 5, 10):
        if k in total:
            t = total[k]
            fewer = 100 * (1 - t[1] / t[0])
            summary.append(Row(
                "%d sweeps: fewer forward steps than TwoLevel, summed over "
                "the grid (%d configurations; cases worse, any K: %d of %d)"
                % (k, len(rows) // 4, worse, len(rows)),
                "%.2f %%" % fewer, "≥ 20 % (issue 25), never worse",
                "%.3f" % (t[1] / t[0]), verdict(fewer, 20, at_most=False),
                code(c.line), counts(raw.load_of(c))))
    return body, summary


@section("sweeps_bound", "Several sweeps: how far any plan could go")
def sweeps_bound(raw):
    c = raw.find(r"sweeps_bound")[0]
    rows = [r for r in md_rows(c.text()) if len(r) == 4 and r[0].isdigit()]
    body = ("A lower bound on the forward steps of every plan of K sweeps "
            "with RAM + disk slots as one level, beside uturn's plan and "
            "TwoLevel's count, on the grid of the TwoLevel section "
            "(docs/model.md section 13: the first forward and sweep 1 take "
            "at least revolve's optimum, every later sweep at least the "
            "cheapest sweep from any s stored states). Command: %s. Counts, "
            "not times.\n\n%s" % (code(c.line), c.text().strip()))
    summary = []
    for r in rows:
        k = int(r[0])
        if k in (5, 10):
            most = float(r[3].split()[0])
            summary.append(Row(
                "%d sweeps: the most any plan could save against TwoLevel, "
                "summed over the grid (from a lower bound on every plan)" % k,
                "%.2f %% (uturn: %s)" % (most, r[2]),
                "≥ 20 % asked (issue 25)", "%.3f" % (1 - most / 100),
                verdict(most, 20, at_most=False), code(c.line),
                counts(raw.load_of(c))))
    return body, summary


@section("sweeps_remake",
         "Several sweeps: what freeing and remaking a checkpoint buys")
def sweeps_remake(raw):
    c = raw.find(r"sweeps_remake")[0]
    grid = [r for r in md_rows(c.text()) if r[0].startswith("n = ")]
    body = ("The trick of the plans that beat uturn's family on small "
            "chains (docs/model.md section 13, \"How far any plan could "
            "go\"): in a sweep between the first and the last, free the "
            "persistent checkpoint above the segment being reversed, use "
            "its slot as scratch, make it again from a checkpoint of the "
            "segment once the part above that checkpoint is reversed. For "
            "each case, the family's sweep (exact), the same with the trick "
            "in every segment below the top at equal lengths (a plan), and "
            "a lower bound on it over every choice of lengths, so the most "
            "the trick could save; beside each, the repetition number of "
            "the family's longest segment with its c slots and with all s "
            "(where it does not drop, freed slots save the segment only a "
            "constant, not a step per state). The first row is the "
            "exhaustive search's "
            "case n = 9, s = 2 (its optimum takes 18 in each such sweep). "
            "Command: %s. Counts, not times.\n\n%s"
            % (code(c.line), c.text().strip()))
    summary = []
    if grid:
        most = float(grid[0][4].split()[0])
        summary.append(Row(
            "several sweeps: the most freeing and remaking a persistent "
            "checkpoint could save in a sweep between the first and the "
            "last, summed over the grid",
            "%.3f %%" % most,
            "anchor: 1.95 % (K = 5) and 1.97 % (K = 10), what 20 % against "
            "TwoLevel would need from these sweeps alone (issue 25)",
            "%.4f" % (1 - most / 100), "—", code(c.line),
            counts(raw.load_of(c))))
    return body, summary


@section("sweeps_exact",
         "Several sweeps: the true optimum on short chains")
def sweeps_exact(raw):
    c = raw.find(r"sweeps_exact")[0]
    rows = [r for r in md_rows(c.text()) if len(r) == 11 and r[0].isdigit()]
    body = ("The least forward steps of any plan of K sweeps with s slots, "
            "by a search over every action sequence (docs/model.md section "
            "13, \"How close the family comes\"), beside uturn's plan of K "
            "sweeps; per further sweep, the optimum's (the mean of its "
            "later sweeps, which may alternate) beside the unbounded plan's "
            "and the lower bound B of the section \"Several sweeps: how far "
            "any plan could go\", and the share of the room between uturn "
            "and B that the optimum takes. Command: %s. Counts, not times."
            "\n\n%s" % (code(c.line), c.text().strip()))
    summary = []
    longest = {}
    for r in rows:
        n, s = int(r[0]), int(r[1])
        if n >= longest.get(s, (0,))[0]:
            longest[s] = (n, float(r[8]) / int(r[7]), float(r[10].split()[0]))
    if longest:
        saved = [100 * v[1] for v in longest.values()]
        share = [v[2] for v in longest.values()]
        where = ", ".join("s = %d: n = %d" % (s, longest[s][0])
                          for s in sorted(longest))
        summary.append(Row(
            "several sweeps: what the true optimum saves in a further sweep "
            "against uturn's, on the longest chain searched for each s (%s)"
            % where,
            "%.2f .. %.2f %%; of the room down to the lower bound B, "
            "%.1f .. %.1f %%" % (min(saved), max(saved), min(share),
                                 max(share)),
            "anchor: 1.95 % (K = 5) and 1.97 % (K = 10), what 20 % against "
            "TwoLevel would need from these sweeps alone (issue 25)",
            "%.4f" % (1 - max(saved) / 100), "—", code(c.line),
            counts(raw.load_of(c))))
    return body, summary


@section("sweeps_levels", "Several sweeps on storage levels, with I/O costs")
def sweeps_levels(raw):
    c = raw.find(r"sweeps_levels\.sh")[0]
    rows = [r for r in md_rows(c.text()) if r[0].isdigit()]
    older = len(rows) > 0 and len(rows[0]) > 7
    body = ("The whole cost (forward steps plus every write and read) of "
            "`revolve --sweeps K --levels mem:RAM,disk:DISK:w=IO:r=IO`, the "
            "family of docs/model.md section 13 whose segments hrevolve "
            "reverses, against the same sweeps on memory alone%s. Command: "
            "%s. Counts, not times.\n\n%s"
            % (" and against an older build's plan (its binary the "
               "command's second argument)" if older else "",
               code(c.line), c.text().strip()))
    summary = []
    if rows:
        mem = [float(r[6]) for r in rows]
        summary.append(Row(
            "several sweeps on two levels / on memory alone, cost (%d cases)"
            % len(rows), "%.3f .. %.3f" % (min(mem), max(mem)),
            "≤ 1 (the further level never costs more)", "%.3f" % max(mem),
            verdict(max(mem), 1), code(c.line), counts(raw.load_of(c))))
    if older:
        old = [float(r[8]) for r in rows]
        summary.append(Row(
            "several sweeps on two levels / the older build's plan, cost "
            "(%d cases, %d dearer)" % (len(rows), sum(x > 1 for x in old)),
            "%.3f .. %.3f" % (min(old), max(old)),
            "≤ 1 (the placement that weighs reads)", "%.3f" % max(old),
            verdict(max(old), 1), code(c.line), counts(raw.load_of(c))))
    return body, summary


@section("online_sweeps", "Several sweeps of an online plan")
def online_sweeps(raw):
    c = raw.find(r"online_sweeps\.sh")[0]
    rows = [r for r in md_rows(c.text()) if r[0].isdigit()]
    body = ("An online plan of K sweeps (sweep 1 finds n; the sweeps left "
            "are revolve's plan of K - 1 over that n, docs/model.md section "
            "13), the end told at n, against revolve's plan of K sweeps "
            "made knowing n, and against K separate runs of the online plan "
            "of one sweep. Command: %s. Counts, not times.\n\n%s"
            % (code(c.line), c.text().strip()))
    summary = []
    if rows:
        vs_rv = [float(r[5]) for r in rows]
        vs_runs = {int(r[2]): [] for r in rows}
        for r in rows:
            vs_runs[int(r[2])].append(float(r[7]))
        summary.append(Row(
            "online plans of K sweeps / revolve's plan knowing n (%d cases)"
            % len(rows), "%.3f .. %.3f" % (min(vs_rv), max(vs_rv)),
            "anchor: revolve knowing n (1)",
            "%.3f .. %.3f" % (min(vs_rv), max(vs_rv)), "—", code(c.line),
            counts(raw.load_of(c))))
        summary.append(Row(
            "online plans of K sweeps / K online runs of one sweep, per K",
            "; ".join("K = %d: %.3f .. %.3f" % (k, min(v), max(v))
                      for k, v in sorted(vs_runs.items())),
            "≤ 1 (never more than running again)",
            "%.3f" % max(max(v) for v in vs_runs.values()),
            verdict(max(max(v) for v in vs_runs.values()), 1), code(c.line),
            counts(raw.load_of(c))))
    return body, summary


@section("durable", "Durable runs: killed at 100 random points, resumed")
def durable(raw):
    c = raw.find(r"bench_durable")[0]
    rows = md_rows(c.text())[1:]
    kills = sum(int(r[2]) for r in rows)
    good = sum(min(int(r[3]), int(r[4]), int(r[5])) for r in rows)
    lost = max(int(r[7]) for r in rows) if rows else 0
    mpi = raw.find(r"durable_kills\.sh")
    mpi_lines = []
    mpi_kills = mpi_ok = 0
    for m in mpi:
        done = re.search(r"durable_kills: (\d+) kills on (\d+) ranks, every "
                         r"resume ok", m.text())
        oks = len(re.findall(r"^ok calls", m.text(), re.M)) - 1
        k = len(re.findall(r"^kill \d+:", m.text(), re.M))
        mpi_kills += k
        mpi_ok += oks if done else 0
        mpi_lines.append("- %s: %d kills, %d resumed with the reference's "
                         "gradient on every rank and exactly the plan's "
                         "remaining forward steps%s"
                         % (code(m.line), k, oks if done else 0,
                            "" if done else " (**the run stopped early**)"))
    body = ("A durable run (a point asked for every 7 forward steps) killed "
            "with SIGKILL at a random callback, then resumed in a new "
            "process; counts, not times. Command: %s.\n\n%s\n\n"
            "Across MPI ranks (tests/mpi/mpi_durable.c, the ring chain whose "
            "every step exchanges with both neighbours; one rank killed at a "
            "random callback, the job resumed in a new one):\n\n%s"
            % (code(c.line), c.text().strip(), "\n".join(mpi_lines)))
    summary = [Row("durable runs: kills resumed bitwise with exactly the "
                   "plan's remaining forward steps (%d configurations)"
                   % len(rows),
                   "%d of %d" % (good, kills), "every one (issue 26)",
                   "%.3f" % (good / kills if kills else 0),
                   verdict(good, kills, at_most=False), code(c.line),
                   counts(raw.load_of(c))),
               Row("durable runs: forward steps lost to a kill, at most",
                   str(lost), "≤ the 7 between points", "—",
                   verdict(lost, 7), code(c.line), counts(raw.load_of(c)))]
    if mpi:
        summary.append(Row(
            "durable MPI runs (2 and 4 ranks): kills resumed bitwise",
            "%d of %d" % (mpi_ok, mpi_kills), "every one (issue 26)",
            "%.3f" % (mpi_ok / mpi_kills if mpi_kills else 0),
            verdict(mpi_ok, mpi_kills, at_most=False), code(mpi[0].line),
            counts(raw.load_of(mpi[0]))))
    return body, summary


LEVELS_RUN = re.compile(
    r"memory only, same actions\s+([\d.]+) s.*?synchronous I/O\s+([\d.]+) s"
    r".*?([\d.]+)x memory-only.*?overlapped I/O\s+([\d.]+) s.*?([\d.]+)x "
    r"memory-only", re.S)


@section("levels_io", "Storage levels: overlapped I/O")
def levels_io(raw):
    rows, over = [], []
    for i, c in enumerate(raw.find(r"bench_levels"), 1):
        m = LEVELS_RUN.search(c.text())
        if m:
            rows.append([i, raw.load_of(c), m.group(1), m.group(2),
                         m.group(3), m.group(4), m.group(5)])
            over.append(float(m.group(5)))
    body = ("Memory + disk with overlapped I/O against the same hrevolve "
            "plan with synchronous I/O and against the same actions with "
            "every slot in memory (the same recomputation, no I/O). The disk "
            "is a file level whose `pwrite` and `pread` sleep bytes / "
            "bandwidth before the real call (files of this size sit in the "
            "page cache here, so unthrottled calls would time memcpy); the "
            "model's steps are calibrated, warm, to last as long as writing "
            "one state, and the memory-only run says what a step really "
            "took. Target: overlapped at most 1.15x memory-only. Command, "
            "three times: `build-bench/bench/bench_levels 7` (the median of "
            "7 interleaved runs of each).\n\n" + table(
                ["run", "load", "memory only, s", "synchronous, s",
                 "synchronous / memory", "overlapped, s",
                 "overlapped / memory"], rows))
    summary = [Row("memory + disk, overlapped I/O / memory only (median of "
                   "%d)" % len(over), "%.3f (%.3f .. %.3f)" % (
                       med(over), min(over), max(over)), "≤ 1.15",
                   "%.3f" % (med(over) / 1.15), verdict(med(over), 1.15),
                   "`build-bench/bench/bench_levels 7` ×%d" % len(over),
                   raw.load())] if over else []
    return body + "\n\nThe outputs are in the raw file.", summary


ONLINE_BEST = {2: 1.10833, 3: 1.05263}  # the best any online plan reaches
REVOLVE2 = {4: 1.22, 5: 1.25, 10: 1.31, 20: 1.33, 50: 1.17}
# Last round's ratios (s = 2..50), shown beside the current ones in the
# online_ratios section rather than in a section of their own.
COMPANIONS = {"online_ratios_previous": "online_ratios"}


def ratio_at(cell):
    """'1.0468 (n = 230)' -> (1.0468, '230')."""
    m = re.match(r"([\d.]+)(?: \(n = (\d+)\))?", cell)
    return float(m.group(1)), m.group(2)


def ratio_rows(raw):
    """The table rows (s first) of every command in raw."""
    rows = []
    for c in raw.commands:
        rows += [r for r in md_rows(c.text()) if r[0].isdigit()]
    return rows


@section("online_ratios", "Online plans: ratio to the offline optimum")
def online_ratios(raw):
    c = raw.find(r"bench_online ratios")[0]
    rows = ratio_rows(raw)
    header = md_rows(c.text())[0]
    worst = {int(r[0]): ratio_at(r[2]) for r in rows}
    late = {int(r[0]): ratio_at(r[3]) for r in rows}
    inexact = sum(int(r[4]) for r in rows)
    recomputed = sum(int(r[5]) for r in rows)
    prev = Raw(RESULTS / "online_ratios_previous.txt")
    before = ratio_rows(prev)
    was = {int(r[0]): (ratio_at(r[2]), ratio_at(r[3])) for r in before}
    beside = [[s, "%.4f (n = %s)" % was[s][0], "%.4f (n = %s)" % worst[s],
               "%.4f (n = %s)" % was[s][1], "%.4f (n = %s)" % late[s]]
              for s in sorted(was) if s in worst]
    body = (
        "The realised `forward_steps` of the online plan of s slots against "
        "the offline optimum `t(n+1, s)` for the same n: every n up to 10^4 "
        "(10^3 past 1000 slots), then every n within 40 of each beta(s, r) "
        "- 1 (where the ratio peaks) and every 0.2 %% between, up to 10^7; "
        "the worst ratio per s and where it occurs, the worst over n >= "
        "100, and the count of n breaking the rules of issue 23 (n <= "
        "(s+1)(s+2)/2 not exactly t(n+1, s); any recomputation with n <= "
        "s). Targets (issue 23): at most 1.05 for every n >= 100 at every "
        "s; none of those n; and still s <= 3 within 0.01 of the best any "
        "online plan can reach (an exhaustive search over every online "
        "strategy: 1.10833 at s = 2, 1.05263 at s = 3) and s >= 4 below "
        "Revolve 2.0's online chain (1.22 at s = 4, 1.25 at s = 5, 1.31 at "
        "s = 10, 1.33 at s = 20, 1.17 at s = 50). Counts, not times (the "
        "time column is the sweep's). Command: %s (its default list of s)."
        "\n\n%s\n\n**Beside last round's table**: s = 2..50, run at "
        "commit %s, %s, load average %s; raw output "
        "[`bench/results/online_ratios_previous.txt`]"
        "(results/online_ratios_previous.txt).\n\n%s\n\nLast round's "
        "table as recorded (n = 10^5 and 10^6: the ratio at those n), by "
        "`%s`:\n\n%s"
        % (code(c.line), table(header, rows), prev.get("commit"),
           prev.get("date"), prev.load(short=False),
           table(["s", "worst, last round", "worst, now",
                  "worst for n >= 100, last round",
                  "worst for n >= 100, now"], beside),
           prev.commands[0].line,
           table(md_rows(prev.commands[0].text())[0], before)))
    cmd = code(c.line)
    summary = []
    if late:
        s = max(late, key=lambda k: late[k][0])
        ps = max(was, key=lambda k: was[k][1][0]) if was else None
        summary.append(Row(
            "online / offline optimum, worst for n ≥ 100 over s = %s .. %s "
            "(at s = %d, n = %s)" % (min(late), power(str(max(late))), s,
                                    late[s][1]),
            "%.4f (last round, s = 2..50: %.4f at s = %d)"
            % (late[s][0], was[ps][1][0], ps) if ps else
            "%.4f" % late[s][0], "≤ 1.05 (issue 23)",
            "%.3f" % (late[s][0] / 1.05), verdict(late[s][0], 1.05), cmd,
            counts(raw.load_of(c))))
    summary.append(Row(
        "online: n breaking issue 23's rules (not t(n+1, s) with n ≤ "
        "(s+1)(s+2)/2; recomputation with n ≤ s), over %d values of s"
        % len(rows), "%d; %d" % (inexact, recomputed), "0; 0", "—",
        verdict(inexact + recomputed, 0), cmd, counts(raw.load_of(c))))
    for s, best in ONLINE_BEST.items():
        if s in worst:
            summary.append(Row(
                "online / offline optimum, worst, s = %d" % s,
                "%.4f" % worst[s][0], "≤ %.5f (best online %.5f + 0.01)"
                % (best + 0.01, best), "%.3f" % (worst[s][0] / best),
                verdict(worst[s][0], best + 0.01), cmd,
                counts(raw.load_of(c))))
    big = [s for s in REVOLVE2 if s in worst]
    if big:
        s = max(big, key=lambda k: worst[k][0] / REVOLVE2[k])
        summary.append(Row(
            "online / offline optimum, worst, s = %s: closest to "
            "Revolve 2.0's at s = %d" % (", ".join(map(str, big)), s),
            "%.4f" % worst[s][0], "< %.2f (Revolve 2.0's online chain)"
            % REVOLVE2[s], "%.3f" % (worst[s][0] / REVOLVE2[s]),
            verdict(worst[s][0], REVOLVE2[s]), cmd, counts(raw.load_of(c))))
    return body, summary


@section("online_decide", "Online plans: decision cost")
def online_decide(raw):
    c = raw.find(r"bench_online decide")[0]
    rows = [r for r in md_rows(c.text()) if r[0].isdigit()]
    body = ("The planner's decisions per first-sweep step (the online plan "
            "read through a cursor for n steps, no end told), median of 3, "
            "next to one forward step of the built-in Burgers model (256 "
            "points) in the same process. Target (issue 23): at most 1 µs "
            "(1000 ns) per first-sweep step at every s up to 10^5. Command: "
            "%s.\n\n%s" % (code(c.line), c.text().strip()))
    summary = []
    if rows:
        ns = {r[0]: float(r[2]) for r in rows}
        s = max(ns, key=ns.get)
        step = float(rows[0][3].split()[0])
        summary.append(Row(
            "online decision per first-sweep step, worst over s = %s .. %s "
            "(at s = %s; a Burgers step: %.0f ns)"
            % (rows[0][0], power(rows[-1][0]), power(s), step),
            "%.1f ns" % ns[s], "≤ 1000 ns (issue 23)",
            "%.3f" % (ns[s] / 1000), verdict(ns[s], 1000), code(c.line),
            raw.load_of(c)))
    return body, summary


@section("online_reverse", "Online plans: the reversal's cost per action")
def online_reverse(raw):
    runs = raw.find(r"bench_online_reverse time$")
    long = [r for c in raw.find(r"bench_online_reverse time \d")
            for r in md_rows(c.text()) if r[0].isdigit()]
    per = {}  # (s, n) -> [(online, revolve, ratio), ...], one per run
    for c in runs:
        for r in md_rows(c.text()):
            if r[0].isdigit():
                per.setdefault((r[0], r[1]), []).append(
                    tuple(float(x) for x in r[2:5]))
    rows, medians, every = [], [], []
    for (s, n), got in per.items():
        q = [x[2] for x in got]
        medians.append(med(q))
        every += q
        rows.append([power(s), power(n), "%.2f" % med(x[0] for x in got),
                     "%.2f" % med(x[1] for x in got),
                     ", ".join("%.3f" % x for x in q), "%.3f" % med(q)])
    body = ("The reversal of an online plan after the end (its actions read "
            "through a cursor once the end is told at step n) against "
            "revolve's whole plan for the same n and s (offline), ns per "
            "action, side by side in one process: seven pairs of runs, the "
            "order alternating within the pairs, each run's figure the "
            "median of its pairs' ratios. Target (issue 23): the online "
            "reversal no dearer per action than revolve's plan (online / "
            "revolve at most 1). Command, %d times: "
            "`build-bench/bench/bench_online_reverse time`; the ns columns "
            "are the medians over the runs, then each run's ratio and their "
            "median. The same cases counted in instructions, which no load "
            "changes, are in the next section.\n\n%s\n\nLoad per run: %s. "
            "The outputs are in the raw file." % (len(runs), table(
                ["s", "n", "online reversal, ns per action",
                 "revolve's plan, ns per action",
                 "online / revolve, each run", "median"], rows),
                ", ".join(raw.load_of(c) for c in runs)))
    if long:
        body += ("\n\nThe cases of n = 10^6 again, in 101 pairs each (one "
                 "run; the median of the pairs' ratios), which settle a "
                 "difference of a percent or two that seven pairs leave in "
                 "the noise. Command: `build-bench/bench/bench_online_reverse"
                 " time S 1000000 101`.\n\n%s" % table(
                     ["s", "n", "online reversal, ns per action",
                      "revolve's plan, ns per action",
                      "online / revolve, median of 101 pairs"],
                     [[power(r[0]), power(r[1])] + r[2:5] for r in long]))
    summary = []
    if medians:
        summary.append(Row(
            "online reversal / revolve's plan, ns per action (%d cases, "
            "median of %d runs each)" % (len(medians), len(runs)),
            "median %.3f, range %.3f .. %.3f (single runs: %.3f .. %.3f)"
            % (med(medians), min(medians), max(medians), min(every),
               max(every)),
            "≤ 1 in every case (issue 23)", "%.3f" % max(medians),
            verdict(max(medians), 1),
            "`build-bench/bench/bench_online_reverse time` ×%d" % len(runs),
            raw.load()))
    if long:
        q = [float(r[4]) for r in long]
        summary.append(Row(
            "online reversal / revolve's plan, ns per action, n = 10^6 in "
            "101 pairs (s = %s)" % ", ".join(r[0] for r in long),
            ", ".join("%.3f" % x for x in q), "≤ 1 in every case (issue 23)",
            "%.3f" % max(q), verdict(max(q), 1),
            "`build-bench/bench/bench_online_reverse time S 1000000 101`",
            raw.load()))
    return body, summary


@section("online_reverse_ir",
         "Online plans: the reversal's instructions per action")
def online_reverse_ir(raw):
    runs = raw.find(r"online_reverse_ir.sh")
    rows = [r for c in runs for r in md_rows(c.text()) if r[0].isdigit()]
    ratios = [float(r[6]) for r in rows]
    body = ("The cases of the section above, counted in instructions by "
            "callgrind in the reads alone (`--toggle-collect=measured_reads`"
            " of `bench_online_reverse ir`): one run each, since the count "
            "is the same whatever the machine's load. It does not see cache "
            "misses or mispredicted branches, which the timings do. "
            "Command: `bench/online_reverse_ir.sh "
            "build-bench/bench/bench_online_reverse` (needs valgrind, which "
            "scripts/install-deps installs).\n\n%s" % table(
                ["s", "n", "online reversal: instructions / actions",
                 "per action", "revolve's plan: instructions / actions",
                 "per action", "online / revolve"],
                [[power(r[0]), power(r[1])] + r[2:] for r in rows]))
    summary = []
    if ratios:
        summary.append(Row(
            "online reversal / revolve's plan, instructions per action "
            "(%d cases)" % len(ratios),
            "median %.3f, range %.3f .. %.3f" % (med(ratios), min(ratios),
                                                 max(ratios)),
            "≤ 1 in every case (issue 23)", "%.3f" % max(ratios),
            verdict(max(ratios), 1),
            "`bench/online_reverse_ir.sh build-bench/bench/"
            "bench_online_reverse`", counts(raw.load())))
    return body, summary

@section("online_bytes", "Online plans: states of different sizes")
def online_bytes(raw):
    c = raw.find(r"bench_online bytes")[0]
    rows = [r for r in md_rows(c.text()) if r[0] in ("growing", "noisy")]
    body = ("States of different sizes given only as they come, against dp "
            "planned offline with every size known. Command: %s. Counts, not "
            "times.\n\n%s" % (code(c.line), c.text().strip()))
    ratios = [float(r[-1]) for r in rows]
    summary = [Row("online / dp offline, states of different sizes "
                   "(%d chains)" % len(ratios),
                   "median %.3f, worst %.3f" % (med(ratios), max(ratios)),
                   "anchor: dp offline (1)",
                   "%.3f .. %.3f" % (min(ratios), max(ratios)), "—",
                   code(c.line), counts(raw.load_of(c)))] if ratios else []
    return body, summary


@section("online_wide", "Online plans: byte budgets past 256 states")
def online_wide(raw):
    c = raw.find(r"bench_online wide")[0]
    rows = [r for r in md_rows(c.text()) if r[0].isdigit()]
    body = ("A byte budget whose sizes come as the run goes, holding 10^3, "
            "10^4 or 10^5 states at x_1's size (past the 256 the online "
            "family plans): every state 64 bytes, or states growing from 64 "
            "to 128 bytes over the run, so that the plan gives up half its "
            "slots as it goes. The first sweep is timed through a cursor "
            "(ns per step: the decisions, the frees as states grow, the "
            "reads; median of 3); the counts are the realised plan's, "
            "against the offline optimum t(n+1, s) for the slots at x_1 "
            "and t(n+1, e) for the slots left at the end (a plan that had "
            "only e slots throughout). Target (issue 23): at most 1 µs per "
            "first-sweep step; with sizes alike, within 1.05 of t(n+1, s) "
            "as every uniform plan. Command: %s.\n\n%s"
            % (code(c.line), c.text().strip()))
    summary = []
    if rows:
        ns = {(r[0], r[2]): float(r[3]) for r in rows}
        k = max(ns, key=ns.get)
        summary.append(Row(
            "online on a byte budget past 256 states: ns per first-sweep "
            "step, worst (s = %s, %s)" % (power(k[0]), k[1]),
            "%.1f ns" % ns[k], "≤ 1000 ns (issue 23)",
            "%.3f" % (ns[k] / 1000), verdict(ns[k], 1000), code(c.line),
            raw.load_of(c)))
        alike = [float(r[6]) for r in rows if r[2] == "64 bytes"]
        grow = [float(r[7]) for r in rows if r[2] != "64 bytes"]
        if alike:
            summary.append(Row(
                "online on a byte budget past 256 states, sizes alike: "
                "forward / t(n+1, s), worst of %d" % len(alike),
                "%.4f" % max(alike), "≤ 1.05 (issue 23)",
                "%.3f" % (max(alike) / 1.05), verdict(max(alike), 1.05),
                code(c.line), counts(raw.load_of(c))))
        if grow:
            summary.append(Row(
                "online on a byte budget past 256 states, sizes growing to "
                "twice: forward / t(n+1, slots left at the end), %d cases"
                % len(grow), "%.4f .. %.4f" % (min(grow), max(grow)),
                "anchor: a plan with the end's slots throughout (1)",
                "%.3f .. %.3f" % (min(grow), max(grow)), "—", code(c.line),
                counts(raw.load_of(c))))
    return body, summary


@section("online_disk", "Online plans with storage levels (periodic disk)")
def online_disk(raw):
    c = raw.find(r"bench_online_disk")[0]
    body = ("Command: %s: for each configuration (slots, write and read "
            "cost per level) and each n, the online plan with levels "
            "(max_steps 10000) is walked through its cursor with the end "
            "said after n steps, its realised cost (forward steps plus every "
            "write and read) next to hrevolve's offline optimum for that n "
            "over the same levels: online / optimum = ratio. A line would "
            "say \"(prediction differs!)\" if `uturn_plan_online_cost()` "
            "disagreed with the walk. Counts, not times.\n\n%s"
            % (code(c.line), c.text().strip()))
    summary = []
    for r in md_rows(c.text()):
        if r[0] == "10000":
            ratios = [float(x.split("=")[-1]) for x in r[1:]]
            summary.append(Row(
                "online with levels / hrevolve offline, n = 10^4 (%d "
                "configurations)" % len(ratios),
                "%.3f .. %.3f" % (min(ratios), max(ratios)),
                "anchor: hrevolve, offline (1)",
                "%.3f .. %.3f" % (min(ratios), max(ratios)), "—",
                code(c.line), counts(raw.load_of(c))))
    return body, summary


@section("planners", "Planners on the Burgers model (hyperfine)")
def planners(raw):
    c = raw.find(r"hyperfine")[0]
    body = ("Command: %s (3 warm-ups, 10 runs). Each command plans, runs the "
            "store-all reference once (for the bitwise gradient check), then "
            "runs the chosen planner if the budget allows it; 4096 grid "
            "points, 2000 steps, 32 KiB states (store-all needs 62.5 MiB, so "
            "at 2 and 8 MiB its row is infeasible and the command times the "
            "reference run alone; periodic needs about 2 sqrt(n) = 90 "
            "slots, 2.8 MiB). The reference run is common to every command, "
            "so differences between rows are the planners' own. No target."
            "\n\n%s" % (code(c.line), raw.block("markdown").strip()))
    return body, []


PETSC_LINE = re.compile(r"^(\S+)\s+([\d.]+) s\s+([\d.]+)\s+([\d.]+)\s+"
                        r"([\d.]+) s\s+([\d.]+)\s+([\d.]+)$", re.M)
PETSC_FEW = re.compile(r"^(uturn-\d+%): (\d+) of (\d+) states .*?forward "
                       r"steps (\d+), revolve t\(n\+1,s\) (\d+)", re.M)


@section("petsc", "PETSc TSAdjoint: uturn trajectory vs PETSc's memory trajectory")
def petsc(raw):
    runs = []  # (command, {trajectory: (wall, cpu)}, few match)
    for c in raw.find(r"petsc_bench"):
        times = {m.group(1): (float(m.group(2)), float(m.group(5)))
                 for m in PETSC_LINE.finditer(c.text())}
        few = PETSC_FEW.search(c.text())
        if times and few:
            runs.append((c, times, few))
    names = list(runs[0][1]) if runs else []
    rows = []
    for i, (c, times, few) in enumerate(runs, 1):
        wall = {k: v[0] for k, v in times.items()}
        rows.append([i, raw.load_of(c), "%.3f s" % wall["memory"]] +
                    ["%.3f" % (wall[k] / wall["memory"]) for k in names[1:]] +
                    ["%.3f" % (times["uturn-all"][j] / times["memory-so"][j])
                     for j in (0, 1)] +
                    ["%s / %s" % (few.group(4), few.group(5))])
    body = (
        "The PETSc layer's TSTrajectory type `uturn` against PETSc's own "
        "`memory` trajectory, on one rank: Gray-Scott on a 64 x 64 DMDA "
        "(8192 unknowns, a state of 64 KiB), RK4, a fixed step, 200 steps, "
        "a solve and its TSAdjoint per repeat, the four configurations "
        "round robin, 9 repeats, median wall and CPU time: `memory` (every "
        "step and its stages, no replay), `memory-so` (solution only: one "
        "replay per adjoint step, as `uturn` does), `uturn-all` (a budget "
        "holding every state) and `uturn-2%%` (2 %% of store-all's states, "
        "revolve's plan). Command, %d times: `build-bench/bench/petsc_bench "
        "-bench_grid 64 -bench_repeat 9 -bench_percent 2` "
        "(bench/petsc_bench.c, on tests/petsc/'s model and driver). Each "
        "run's median wall time of `memory`, the others' / `memory`'s, "
        "`uturn-all` / `memory-so` in wall and CPU time, and uturn-2%%'s "
        "forward steps / revolve's t(n+1, s):\n\n%s\n\nNo issue sets a target "
        "here. The summary takes `memory` as the anchor; `uturn-all` / "
        "`memory-so` (the same work: a copy of the state each way and a "
        "replay per adjoint step) is held to 1.05, an aim of this harness, "
        "not an issue's. `uturn-all` / `memory` says what replaying instead "
        "of storing the stages costs on this problem. `memory` took %s "
        "over the runs, the same program on the same machine: read each "
        "ratio within its run, and the summary's as the median over the runs "
        "with their range beside it. The outputs, every CPU time included, "
        "are in the raw file."
        % (len(runs), table(["run", "load", "memory, wall"]
                            + ["%s / memory" % k for k in names[1:]]
                            + ["uturn-all / memory-so, wall",
                               "uturn-all / memory-so, CPU",
                               "uturn forward steps / t(n+1, s)"], rows),
           "%.3f .. %.3f s" % (min(x[1]["memory"][0] for x in runs),
                               max(x[1]["memory"][0] for x in runs))
           if runs else "no time"))
    if not runs:
        return body, []
    cmd = "%s ×%d" % (code(runs[0][0].line), len(runs))

    def ratio(a, b):
        q = [t[a][0] / t[b][0] for _, t, _ in runs]
        return med(q), min(q), max(q)

    def shown(q):
        return "%.3f (%.3f .. %.3f; median, range of %d runs)" % (
            q + (len(runs),))
    few = runs[0][2].group(1)
    all_mem, all_so, few_mem = (ratio("uturn-all", "memory"),
                                ratio("uturn-all", "memory-so"),
                                ratio(few, "memory"))
    steps = [(int(f.group(4)), int(f.group(5))) for _, _, f in runs]
    summary = [
        Row("PETSc TSAdjoint, wall: uturn-all / memory (Gray-Scott 64², "
            "RK4, 200 steps)", shown(all_mem),
            "anchor: PETSc's memory trajectory (1); no target", "%.3f"
            % all_mem[0], "—", cmd, raw.load()),
        Row("PETSc TSAdjoint, wall: uturn-all / memory-so (the same work)",
            shown(all_so), "≤ 1.05 (this harness's aim)",
            "%.3f" % (all_so[0] / 1.05), verdict(all_so[0], 1.05), cmd,
            raw.load()),
        Row("PETSc TSAdjoint, wall: %s / memory, %s of %s states"
            % (few, runs[0][2].group(2), runs[0][2].group(3)),
            "%s; forward steps %d, revolve's t(n+1, s) %d" % (
                shown(few_mem), steps[0][0], steps[0][1]),
            "forward steps = t(n+1, s); time: no target",
            "%.3f" % (steps[0][0] / steps[0][1]),
            verdict(max(a / b for a, b in steps), 1), cmd, raw.load())]
    return body, summary


@section("dp_scale", "dp at the sizes real chains have")
def dp_scale(raw):
    body = ("Command: `bench/dp_scale.sh [REPEATS [quick]]` (`bench/run.sh "
            "dp_scale` runs it with `2 quick`; half an hour or more on a "
            "shared machine, every heavy run niced). Each figure follows the "
            "command that printed it (`$ ...` lines), with the median and "
            "range over the repeats. Chains: random sizes 1..8 bytes and "
            "costs 1..10, budget half of store-all's need, unit 1 byte "
            "(bench_dp and the old driver draw the same chains; dp_ideas "
            "seeds with n, so its chains differ). `dp_ideas_VARIANT` are "
            "bench builds with the speed-ups turned off one after another; "
            "their counts (min-plus updates, bound tests, table bytes) are "
            "exact and the same on every machine, the target being at most "
            "0.4 x n^3 M / 6 updates at n = 500. `build-bench-old/driver` is "
            "the code before issue 12 (commit b2ed60a). `control` lines time "
            "a fixed CPU load on 1 and 2 threads: when the two are equal the "
            "second core was there, when 2 threads take twice as long it was "
            "not, and `uptime` gives the load average beside them. The "
            "timing aims are those of the sections above (n = 500 at most "
            "8 s, n = 1000 at most 60 s, approximate n = 10,000 at most "
            "10 s, within 5 % of exact on 20 chains of 300 steps).\n\n"
            + fence("\n".join(raw.blocks[""])))
    summary = []
    m = re.search(r"bounds\s+n=500 .*?= ([\d.]+) of n\^3M/6", raw.block(""))
    if m:
        w = float(m.group(1))
        summary.append(Row(
            "dp's work at n = 500: updates and bound tests / (n^3 M / 6)", "%.3f" % w, "≤ 0.4", "%.3f" % (w / 0.4),
            verdict(w, 0.4), "`build-bench/bench/dp_ideas_bounds 500 1`",
            counts(raw.load())))
    return body, summary


# --- sections: earlier runs and experiments, recorded ----------------------

def ab_pairs(text, after, before):
    """Seconds of alternating `after (...)`/`before (...)` runs."""
    out = {after: [], before: []}
    side = None
    for line in text.splitlines():
        if line.startswith(after):
            side = after
        elif line.startswith(before):
            side = before
        m = re.search(r"seconds median ([\d.]+)", line)
        if m and side:
            out[side].append(float(m.group(1)))
    return out


@section("executor_loaded", "Executor: the run of 2026-12-01 at load 4", earlier=True)
def executor_loaded(raw):
    outputs = executor_outputs(raw)
    return ("An earlier output of `build-bench/bench/bench_executor` (section "
            "4 at 3 rounds), taken with the rest of that day's regeneration "
            "at load about 4, before the four runs on a quiet machine below. "
            "%s\n\n%s" % (EXECUTOR_TARGETS,
                          executor_run_table(raw, outputs)), [])


@section("executor_quiet", "Executor: four runs on a quiet machine", earlier=True)
def executor_quiet(raw):
    outputs = executor_outputs(raw)
    revolve64 = ", ".join("%.3f" % f[("warm", "64 B", "revolve")]
                          for _, f in outputs)
    copy64 = ", ".join("%.1f %%" % f[("copy", "64 B", "")]
                       for _, f in outputs)
    return ("Four outputs of `build-bench/bench/bench_executor` in a row, "
            "before the generator and dispatch changes of the section "
            "Executor. %s\n\n%s\n\nOver the four runs 64 B revolve measured "
            "%s, and 64 B copy throughput %s. The outputs are in the raw "
            "file." % (EXECUTOR_TARGETS, executor_run_table(raw, outputs),
                       revolve64, copy64), [])


DISPATCH = re.compile(r"^(tables|no tables)\s+(store-all|revolve) 64 B.*?"
                      r"executor / hand ([\d.]+)", re.M)


@section("executor_dispatch", "Executor: dispatch without jump tables", earlier=True)
def executor_dispatch(raw):
    pairs = raw.block("pairs")
    got = {}
    for m in DISPATCH.finditer(pairs):
        got.setdefault((m.group(2), m.group(1)), []).append(float(m.group(3)))
    faster = sum(n < t for p in ("store-all", "revolve")
                 for t, n in zip(got[(p, "tables")], got[(p, "no tables")]))
    total = sum(len(got[(p, "tables")]) for p in ("store-all", "revolve"))
    medians = "; ".join(
        "%s from %.3f to %.3f" % (p, med(got[(p, "tables")]),
                                  med(got[(p, "no tables")]))
        for p in ("store-all", "revolve"))
    body = ("Alternating runs of `REPS=11 build-bench/bench/bench_executor "
            "--pairs store-all 64 empty` and `--pairs revolve 64`, each line "
            "the median of 11 pairs, with and without jump tables in the "
            "action loops. For the first 10 pairs the whole library was "
            "built with `-fno-jump-tables` and picked by `LD_LIBRARY_PATH`; "
            "for the last 8, only `src/run_plain.c` and `src/run_fast.c`, as "
            "`CMakeLists.txt` builds them since. The median executor / hand "
            "ratio went %s; %d of the %d pairs were faster without tables."
            "\n\n%s\n\nInstructions per action, which do not depend on the "
            "machine's load, from callgrind:\n\n%s"
            % (medians, faster, total, fence(pairs),
               fence(raw.block("callgrind"))))
    return body, []


@section("executor_nine", "Executor: nine runs at f07749b", earlier=True)
def executor_nine(raw):
    return executor(raw)[0], []


@section("dp_quiet", "dp at low load", earlier=True)
def dp_quiet(raw):
    text = "\n".join(raw.blocks[""])
    n500 = [float(x) for x in re.findall(
        r"exact\s+n=500\s+threads=1\s+seconds median\s+([\d.]+)", text)]
    return ("The commands of dp_scale, one at a time at load average 0.5 to "
            "1.9 (dp_scale ran at load 13 to 17), before the blocks of rows "
            "and the four-at-a-time skip. The machine's speed still moved "
            "within the hour: n = 500 on one thread took from %.2f to "
            "%.2f s.\n\n%s" % (min(n500), max(n500), fence(text)), [])


@section("dp_tiles", "dp with tiles sized to the cache and huge pages", earlier=True)
def dp_tiles(raw):
    ab = ab_pairs(raw.block("ab"), "after", "before")
    n500 = num(r"exact\s+n=500\s+threads=1\s+seconds median\s+([\d.]+)",
               raw.block("exact"))
    n1000 = num(r"exact\s+n=1000\s+threads=1\s+seconds median\s+([\d.]+)",
                raw.block("exact"))
    return ("Commit e3b8eb4 made three changes, each leaving every cell as it "
            "was: a tile is as many columns wide as 12 MiB holds, on "
            "average, from 2 to 8 (at n = 1000 that is 4; before, it was "
            "always 8, about 22 MB); the table asks for transparent huge "
            "pages; the chunk holding a candidate's shift runs the vector "
            "loop. Before it, the `adesc` variant's `UTURN_DP_BENCH_TILE` "
            "was never read, so the `adesc` figures of dp_scale were the "
            "tiles' figures; the variant is now one tile covering every "
            "column, the a-descending order alone.\n\n"
            "The same chain before and after, in alternating runs: before is "
            "`dp_ideas_bounds` built at 44a704e, after the same built at "
            "e3b8eb4, both statically linked, single-threaded, n = 1000. "
            "Before: %s s; after: %s s.\n\n%s\n\nEach speed-up at n = 300, "
            "with `adesc` really without tiles:\n\n%s\n\nThe exact figures "
            "at n = 200, 500 and 1000: n = 500 on one thread had a median "
            "of %.2f s, n = 1000 took %.1f s (aims 8 s and 60 s).\n\n%s"
            % (", ".join("%.1f" % x for x in ab["before"]),
               ", ".join("%.1f" % x for x in ab["after"]),
               fence(raw.block("ab")), fence(raw.block("ideas")), n500, n1000,
               fence(raw.block("exact"))), [])


@section("dp_skip", "dp: the skip steps four chunks at a time", earlier=True)
def dp_skip(raw):
    rows = [r for r in md_rows(raw.block("pairs")) if r[0].isdigit()]
    one = [float(r[1]) for r in rows]
    four = [float(r[2]) for r in rows]
    n1000 = num(r"exact\s+n=1000\s+threads=1\s+seconds median\s+([\d.]+)",
                raw.block("exact"))
    return ("Commit 374378d: the skip over chunks whose first cell is at "
            "most the bound steps four chunks at a time before one at a "
            "time. It stops at the same chunk, so the work counts are "
            "unchanged (at n = 300: 3.134e+08 updates and 3.936e+07 tests, "
            "both ways). Alternating runs of `dp_ideas_bounds 500 1` built "
            "with and without it (seconds); %d of the %d pairs were faster "
            "four at a time, with medians of %.2f s (one at a time) and "
            "%.2f s (four).\n\n%s\n\nWith it, n = 1000 on one thread took "
            "%.1f s against the aim of 60 s:\n\n%s"
            % (sum(f < o for o, f in zip(one, four)), len(rows), med(one),
               med(four), raw.block("pairs").split("\n", 1)[1].strip(),
               n1000, fence(raw.block("exact"))), [])


@section("dp_blocks", "dp in blocks of rows, past the cache", earlier=True)
def dp_blocks(raw):
    ab = ab_pairs(raw.block("ab"), "after", "before")
    shapes = raw.block("shapes").split("\n", 1)[1].strip()
    return ("Commit 90aa98f. While a tile's 8 columns fit in 12 MiB, nothing "
            "changed. Past that (n above about 750 with these sizes), tiles "
            "are 32 columns wide and go in blocks of 8 rows. A split above "
            "the block is tried on all 256 cells of the block in turn, so "
            "its rows are read from cache by the block's other cells. Every "
            "cell is as before (`dp_table::tile_shapes_give_the_same_table`)."
            " The work grows: splits far from a come first, and the bounds "
            "skip less well in that order.\n\nAlternating runs of "
            "`dp_ideas_bounds 1000` (statically linked, one thread), built "
            "at 90aa98f and at 3955a79 (rows one by one). After: %s s "
            "(median %.1f); before: %s s (median %.1f). The figures this "
            "change gave for the aims are in the section dp exact (as long "
            "as its raw file is that run).\n\n%s\n\nChoosing the shape: "
            "`dp_ideas_bounds 1000`, one thread, each build in turn, in "
            "rounds. The shapes are rows per block by columns per tile; "
            "\"rows one by one\" is 3955a79. Within a round the machine was "
            "steady enough to compare; between rounds it was not. 8 rows by "
            "32 or 64 columns were the fastest in rounds C and D; 32 columns "
            "keep twice as many tiles for the threads.\n\n%s"
            % (", ".join("%.1f" % x for x in sorted(ab["after"])),
               med(ab["after"]),
               ", ".join("%.1f" % x for x in sorted(ab["before"])),
               med(ab["before"]), fence(raw.block("ab")), shapes), [])


# --- the file --------------------------------------------------------------

def summary_table(rows):
    return table(["figure", "uturn", "target or anchor", "ratio", "met",
                  "command", "load", "section"],
                 [[r.figure, r.uturn, r.target, r.ratio, r.met, r.command,
                   r.load, "[%s](%s)" % (r.section, anchor(r.section))]
                  for r in rows])


def main(argv):
    if argv[1:] == ["--recorded"]:
        titles = {part: title for part, title, _, _ in SECTIONS}
        for part, shown in COMPANIONS.items():
            titles[part] = "(beside %s)" % titles[shown]
        for part, title in titles.items():
            path = RESULTS / (part + ".txt")
            if path.exists() and not Raw(path).rerun():
                print("recorded: %-22s %s" % (part, title))
        return 0
    out = argv[1] if len(argv) > 1 else str(BENCH / "RESULTS.md")
    known = {s[0] for s in SECTIONS} | set(COMPANIONS)
    for path in sorted(RESULTS.glob("*.txt")):
        if path.stem not in known:
            print("write_results.py: no section for %s" % path,
                  file=sys.stderr)
    rows, bodies, machines, current = [], [], [], True
    for part, title, fn, earlier in SECTIONS:
        path = RESULTS / (part + ".txt")
        if not path.exists():
            print("write_results.py: %s missing: section %s left out"
                  % (path, part), file=sys.stderr)
            continue
        raw = Raw(path)
        body, summary = fn(raw)
        for r in summary:
            r.section = title
        rows += summary
        if earlier and current:
            bodies.append("## Earlier runs and experiments\n\nRecorded "
                          "before bench/run.sh kept raw outputs (before and "
                          "after a change, at commits of their own); no "
                          "part of it reruns them.")
            current = False
        bodies.append("%s %s\n\n%s\n\n%s" % ("###" if earlier else "##",
                                              title, provenance(raw),
                                              body.strip()))
        machine = raw.get("machine")
        if machine and machine not in machines:
            machines.append(machine)
    text = "\n\n".join([
        "# Benchmark results",
        "Written by `bench/write_results.py` from the raw outputs in "
        "`bench/results/`, one file per section; `bench/run.sh [PART...]` "
        "reruns parts and writes this file again (bench/README.md). "
        "Machine: %s. The machine is shared and every part ran at its own "
        "load: each figure below is given with the load it ran at (the "
        "1-minute load average before → after, or as recorded), and "
        "figures are comparable within one section, not across." %
        "; ".join(machines),
        "## Summary",
        summary_table(rows),
        "\n\n".join(bodies)])
    text = re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"
    if out == "-":
        sys.stdout.write(text)
    else:
        Path(out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
