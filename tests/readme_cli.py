#!/usr/bin/env python3
"""README.md's `uturn` commands, run: every fenced block that starts with
`$ uturn ...` is run command by command (bash, in the source directory,
the built uturn first on PATH, stderr with stdout) and its output must be
the lines the README shows after the command. A line `...` stands for any
number of lines, and `...` within a line for any text. Commands that need
a file the reader makes first, or that time a run, are listed in SKIP with
the reason and reported as skipped.

usage: readme_cli.py SOURCE_DIR UTURN_BINARY"""
import os
import re
import subprocess
import sys

SKIP = {
    "broken.plan": "reads a plan file the reader writes by hand",
    "./libexample_model.so": "loads the model the reader builds first",
    "--run": "its wall_s column is a time",
}


def commands(text):
    """(command, the lines shown after it) for every `$ uturn` block."""
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M):
        lines = block.rstrip("\n").split("\n")
        if not lines[0].startswith("$ uturn "):
            continue
        i = 0
        while i < len(lines):
            cmd = lines[i][2:]
            while cmd.endswith("\\"):
                i += 1
                cmd = cmd[:-1] + lines[i].strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("$ "):
                j += 1
            yield cmd, lines[i + 1:j]
            i = j


def line_matches(want, got):
    if "..." not in want:
        return want == got
    pieces = [re.escape(p) for p in want.split("...")]
    return re.fullmatch(".*".join(pieces), got, re.S) is not None


def matches(want, got):
    """Whether got is want, with `...` lines standing for any lines."""
    if not want:
        return not got
    if want[0] == "...":
        return any(matches(want[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and line_matches(want[0], got[0]) and \
        matches(want[1:], got[1:])


def main():
    src, uturn = sys.argv[1], os.path.abspath(sys.argv[2])
    text = open(os.path.join(src, "README.md")).read()
    env = dict(os.environ,
               PATH=os.path.dirname(uturn) + ":" + os.environ["PATH"])
    checked = differ = 0
    for cmd, want in commands(text):
        why = [r for k, r in SKIP.items() if k in cmd]
        if why:
            print("skipped (%s): $ %s" % (why[0], cmd))
            continue
        out = subprocess.run(["bash", "-c", cmd], cwd=src, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, timeout=300)
        got = out.stdout.rstrip("\n").split("\n")
        checked += 1
        if not matches(want, got):
            differ += 1
            print("README shows, for $ %s:\n    %s\nthe command prints:\n"
                  "    %s" % (cmd, "\n    ".join(want), "\n    ".join(got)))
    print("%d README commands checked, %d differ" % (checked, differ))
    return 1 if differ or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
