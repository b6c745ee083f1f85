#!/usr/bin/env bash
# Which of issue 11's executor targets one output of bench_executor meets.
#   bench/executor_targets.sh FILE   (the output of build-bench/bench/bench_executor)
# Prints one line per target that is missed and a summary; exits 0 either
# way (a benchmark, never a test).
set -euo pipefail
awk '
function miss(what) { misses++; print "missed: " what }
/^## 1\./ { sec = 1 } /^## 2\./ { sec = 2 } /^## 3\./ { sec = 3 }
/^## 4\./ { sec = 4 } /^## 5\./ { sec = 5 }
sec && /^\| [0-9]/ {
    n = split($0, f, "|")
    for (i = 1; i <= n; i++) gsub(/^ +| +$/, "", f[i])
    if (sec == 1) {
        limit = f[2] == "64 B" ? (f[4] == "store-all" ? 1.5 : 1.3) : 1.05
        checked++
        if (f[5] + 0 > limit) miss(f[4] " " f[2] ": " f[5] " > " limit)
    } else if (sec == 2) {
        checked++
        if (f[6] + 0 < 90) miss("copy " f[2] ": " f[6] " < 90 %")
    } else if (sec == 3) {
        checked++
        if (f[4] + 0 > 1.2) miss("cold " f[2] ": " f[4] " > 1.2")
    } else if (sec == 4 && f[5] != "") {
        checked++
        if (f[5] + 0 > f[6] + 0)
            miss("faults, cycle " f[2] " " f[3] ": " f[5] " > " f[6])
    }
}
sec == 4 && /^\| [a-z]/ && $0 !~ /^\| (plan|cycle)/ {
    n = split($0, f, "|")
    for (i = 1; i <= n; i++) gsub(/^ +| +$/, "", f[i])
    checked++
    if (f[3] + 0 > 1.1) miss("alternating " f[2] ": median " f[3] " > 1.1")
}
END {
    printf "%d figures checked, %d missed\n", checked, misses + 0
}' "$1"
