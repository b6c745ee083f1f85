#!/usr/bin/env bash
# CLI golden tests: each cases/NAME.cmd holds the arguments of one uturn
# command (one line; "< FILE" feeds FILE from cases/ on standard input);
# NAME.out is the exact standard output, NAME.err the exact standard error
# (absent: must be empty), NAME.code the exit status (absent: 0).
# usage: run.sh UTURN_BINARY     (UPDATE=1 rewrites the expected files)
set -u
uturn=$1
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cmd in "$here"/cases/*.cmd; do
  name=$(basename "$cmd" .cmd)
  line=$(cat "$cmd")
  input=/dev/null
  if [[ $line == *"< "* ]]; then
    input="$here/cases/${line##*< }"
    line=${line%% <*}
  fi
  read -r -a args <<<"$line"
  (cd "$here/cases" && "$uturn" "${args[@]}" <"$input" >"$tmp/out" 2>"$tmp/err")
  code=$?
  sed -E -i 's/(planning_seconds"?:? +)[0-9]+\.[0-9]+/\1*/g' "$tmp/out"
  if [ "${UPDATE:-0}" = 1 ]; then
    cp "$tmp/out" "$here/cases/$name.out"
    if [ -s "$tmp/err" ]; then cp "$tmp/err" "$here/cases/$name.err"; else rm -f "$here/cases/$name.err"; fi
    if [ $code -ne 0 ]; then echo $code >"$here/cases/$name.code"; else rm -f "$here/cases/$name.code"; fi
  fi
  want_code=0
  [ -f "$here/cases/$name.code" ] && want_code=$(cat "$here/cases/$name.code")
  want_err=/dev/null
  [ -f "$here/cases/$name.err" ] && want_err="$here/cases/$name.err"
  if [ $code -eq "$want_code" ] && cmp -s "$tmp/out" "$here/cases/$name.out" &&
     cmp -s "$tmp/err" "$want_err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $code (want $want_code)"
    diff "$here/cases/$name.out" "$tmp/out" | head -20
    diff "$want_err" "$tmp/err" | head -5
  fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
