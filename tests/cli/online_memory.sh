#!/usr/bin/env bash
# uturn stats online walks the plan it makes without keeping it: its
# memory does not grow with the steps (issue 23: it once built the whole
# plan as text, 373 MB at 10^6 steps and 3 GB at 10^7). The peak resident
# memory of a walk of 2*10^6 steps must be within 1.5 times (plus 4 MB) of
# one of 10^5 steps, and a step count past what a walk can count is refused
# at once. Python's getrusage gives each child's peak.
# usage: online_memory.sh UTURN_BINARY
set -u
uturn=$1
python3 - "$uturn" <<'PY'
import resource, subprocess, sys, time

uturn = sys.argv[1]


def peak_kb(steps):
    """Run `uturn stats online` in a fresh child; its peak RSS in KiB."""
    code = ("import resource, subprocess, sys;"
            "r = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
            "print(r.returncode, resource.getrusage("
            "resource.RUSAGE_CHILDREN).ru_maxrss);"
            "print(r.stdout); print(r.stderr, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code, uturn, "stats",
                          "online", "--steps", str(steps), "--slots", "10",
                          "--json"], capture_output=True, text=True, check=True)
    first = out.stdout.split("\n", 1)[0].split()
    assert first[0] == "0", out.stderr
    return int(first[1])


small, large = peak_kb(10**5), peak_kb(2 * 10**6)
print("peak RSS: 10^5 steps %d KiB, 2*10^6 steps %d KiB" % (small, large))
if large > 1.5 * small + 4096:
    sys.exit("FAIL: memory grows with the steps")
start = time.monotonic()
r = subprocess.run([uturn, "stats", "online", "--steps",
                    "18446744073709551615", "--slots", "10"],
                   capture_output=True, text=True)
took = time.monotonic() - start
if r.returncode != 2 or "this tool walks" not in r.stderr or took > 10:
    sys.exit("FAIL: 2^64-1 steps: exit %d after %.1f s: %s"
             % (r.returncode, took, r.stderr))
print("2^64-1 steps refused at once: " + r.stderr.strip())
PY
