#!/usr/bin/env bash
# Output that cannot be written is never reported as success: every
# command, with standard output on a full device (/dev/full) or closed,
# exits 1 with a message on stderr. And --plot writes its file in full or
# not at all: a bad path fails before the sweep runs, an existing file is
# not truncated when the write fails and keeps its mode, and a symbolic
# link at the target is replaced, never followed; a device, a FIFO or
# /dev/stdout is written in place, never replaced (as root it once left a
# regular 0600 file where /dev/full was).
# usage: output.sh UTURN_BINARY
set -u
uturn=$1
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

commands=(
  "--help" "--version" "help"
  "plan revolve --steps 50 --slots 4"
  "plan revolve --steps 50 --slots 4 --format json"
  "stats revolve --steps 100 --slots 5"
  "stats revolve --steps 100 --slots 5 --json"
  "stats periodic --steps 40 --stride 4 --walk"
  "check $here/cases/valid.plan"
  "check $here/cases/valid.plan --json"
  "sweep --steps 100 --state-bytes 8"
  "sweep --steps 100 --state-bytes 8 --format csv"
  "sweep --steps 100 --state-bytes 8 --format json"
  "budget revolve -n 1000 -B 8KiB -F 4"
  "budget revolve -n 1000 -B 8KiB -F 4 -j"
  "plan --help" "stats --help" "check --help" "sweep --help" "budget --help"
)
for c in "${commands[@]}"; do
  read -r -a args <<<"$c"
  # Each must succeed on a real stdout first, so the failures below are
  # about the output alone.
  "$uturn" "${args[@]}" >/dev/null 2>"$tmp/err" || bad "'$c' fails on /dev/null"
  "$uturn" "${args[@]}" >/dev/full 2>"$tmp/err"
  code=$?
  if [ $code -eq 1 ] && grep -q '^uturn: .*writ.*No space left on device' "$tmp/err"; then ok
  else bad "'$c' >/dev/full: exit $code, stderr: $(cat "$tmp/err")"; fi
  "$uturn" "${args[@]}" >&- 2>"$tmp/err"
  code=$?
  if [ $code -eq 1 ] && grep -q '^uturn: standard output is closed' "$tmp/err"; then ok
  else bad "'$c' >&-: exit $code, stderr: $(cat "$tmp/err")"; fi
done

sweep=(sweep --steps 100 --state-bytes 8 --planners revolve)
# A bad path fails at once, before any row is computed (no table printed).
"$uturn" "${sweep[@]}" --plot "$tmp/no/such/dir/p.svg" >"$tmp/out" 2>"$tmp/err"
code=$?
if [ $code -eq 1 ] && [ ! -s "$tmp/out" ] &&
   grep -q "No such file or directory" "$tmp/err"; then ok
else bad "bad plot path: exit $code, out $(wc -c <"$tmp/out") bytes"; fi
"$uturn" "${sweep[@]}" --plot "$tmp" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "Is a directory" "$tmp/err"; then ok
else bad "plot onto a directory: $(cat "$tmp/err")"; fi
# A symbolic link at the target is replaced, its target left alone.
echo precious >"$tmp/precious"
ln -s "$tmp/precious" "$tmp/link.svg"
"$uturn" "${sweep[@]}" --plot "$tmp/link.svg" >/dev/null 2>"$tmp/err"
if [ $? -eq 0 ] && [ ! -L "$tmp/link.svg" ] && grep -q '<svg' "$tmp/link.svg" &&
   [ "$(cat "$tmp/precious")" = precious ]; then ok
else bad "plot through a symlink: $(cat "$tmp/err")"; fi
# A plot that cannot be written leaves the old file whole, and no
# temporary file behind.
mkdir "$tmp/ro" && echo old >"$tmp/ro/p.svg" && chmod a-w "$tmp/ro"
"$uturn" "${sweep[@]}" --plot "$tmp/ro/p.svg" >/dev/null 2>"$tmp/err"
code=$?
if [ "$(id -u)" -eq 0 ]; then
  ok # root writes into read-only directories: nothing to check here
elif [ $code -eq 1 ] && [ "$(cat "$tmp/ro/p.svg")" = old ] &&
     [ "$(ls "$tmp/ro")" = p.svg ] && grep -q "Permission denied" "$tmp/err"; then ok
else bad "read-only directory: exit $code, $(cat "$tmp/err")"; fi
chmod u+w "$tmp/ro"
# A write that fails midway (the file size limit, which applies to root
# too) leaves the old file whole and no temporary file behind.
echo old >"$tmp/limit.svg"
(ulimit -f 1; trap '' XFSZ; exec "$uturn" "${sweep[@]}" --plot "$tmp/limit.svg") \
  >/dev/null 2>"$tmp/err"
code=$?
if [ $code -eq 1 ] && [ "$(cat "$tmp/limit.svg")" = old ] &&
   ! ls "$tmp" | grep -q 'limit.svg.tmp-' && grep -q "File too large" "$tmp/err"; then ok
else bad "plot write failing midway: exit $code, $(cat "$tmp/err"), $(ls "$tmp")"; fi
"$uturn" "${sweep[@]}" --plot "$tmp/ok.svg" >/dev/null 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '</svg>' "$tmp/ok.svg" && ! ls "$tmp" | grep -q tmp-; then ok
else bad "a good plot: $(cat "$tmp/err"), $(ls "$tmp")"; fi
# A device is written in place and stays a device; a full one is an
# error with its reason. As root the device is a copy of /dev/full made
# here (mknod), so that a wrong binary cannot replace the real one.
full=/dev/full
if [ "$(id -u)" -eq 0 ] && mknod "$tmp/full" c 1 7 2>/dev/null; then
  full=$tmp/full
fi
"$uturn" sweep --model none --steps 100 --state-bytes 8 --plot "$full" \
  >/dev/null 2>"$tmp/err"
code=$?
if [ $code -eq 1 ] && [ -c "$full" ] &&
   grep -q "cannot write '$full': No space left on device" "$tmp/err"; then ok
else bad "plot onto a full device: exit $code, $(cat "$tmp/err"), $(ls -l "$full")"; fi
# A FIFO is written in place: its reader gets the plot, and it stays a FIFO.
# (A binary that replaced the FIFO would leave its reader waiting: the
# time limit ends it.)
mkfifo "$tmp/fifo"
timeout 60 cat "$tmp/fifo" >"$tmp/from_fifo" &
reader=$!
timeout 60 "$uturn" "${sweep[@]}" --plot "$tmp/fifo" >/dev/null 2>"$tmp/err"
code=$?
wait $reader
if [ $code -eq 0 ] && [ -p "$tmp/fifo" ] && grep -q '</svg>' "$tmp/from_fifo"; then ok
else bad "plot into a FIFO: exit $code, $(cat "$tmp/err"), $(ls -l "$tmp/fifo")"; fi
# Standard output (a pipe here) through a link like /dev/stdout's is
# written in place too. The link is made here, so that a wrong binary can
# only replace this one, never the system's /dev/stdout.
ln -s /proc/self/fd/1 "$tmp/stdout"
"$uturn" "${sweep[@]}" --plot "$tmp/stdout" 2>"$tmp/err" | cat >"$tmp/piped"
code=${PIPESTATUS[0]}
if [ $code -eq 0 ] && [ -L "$tmp/stdout" ] && grep -q '</svg>' "$tmp/piped"; then ok
else bad "plot to standard output: exit $code, $(cat "$tmp/err")"; fi
# A replaced file keeps its mode; a new one gets 0666 less the umask.
echo old >"$tmp/mode.svg" && chmod 640 "$tmp/mode.svg"
"$uturn" "${sweep[@]}" --plot "$tmp/mode.svg" >/dev/null 2>"$tmp/err"
if [ "$(stat -c %a "$tmp/mode.svg")" = 640 ] && grep -q '</svg>' "$tmp/mode.svg"; then ok
else bad "a replaced file's mode: $(stat -c %a "$tmp/mode.svg")"; fi
(umask 022; "$uturn" "${sweep[@]}" --plot "$tmp/new.svg" >/dev/null 2>"$tmp/err")
if [ "$(stat -c %a "$tmp/new.svg")" = 644 ]; then ok
else bad "a new file's mode under umask 022: $(stat -c %a "$tmp/new.svg")"; fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
