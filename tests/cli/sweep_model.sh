#!/usr/bin/env bash
# uturn sweep --model ./libNAME.so (include/uturn_model_plugin.h):
# - the example model library (the Burgers model, examples/burgers_plugin.c)
#   runs through every feasible row with the gradient bitwise store-all's,
#   and its rows are exactly those of the built-in Burgers model on the same
#   grid (wall time aside), --run or not;
# - a path that does not load, a library without the functions, a
#   constructor that refuses its --model-args (exit 1) or fails otherwise
#   (exit 2), a model that cannot be run (exit 1), a failing callback, reset
#   or gradient (exit 2): each with its message, and nothing on stdout.
# usage: sweep_model.sh UTURN EXAMPLE_MODEL_SO FAULTS_SO ONLY_CREATE_SO
set -u
uturn=$1 example=$2 faults=$3 only_create=$4
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every feasible row's gradient matches, in CSV and JSON.
run=(sweep --run --steps 300 --budgets 1K,2K,4K,8K,16K,64K,200K)
"$uturn" "${run[@]}" --model "$example" --model-args grid=64 -f csv >"$tmp/lib.csv" 2>"$tmp/err"
code=$?
rows=$(grep -c ',true,.*,ok$' "$tmp/lib.csv")
matched=$(grep -c ',true,ok$' "$tmp/lib.csv")
if [ $code -eq 0 ] && [ "$rows" -ge 10 ] && [ "$rows" -eq "$matched" ] &&
   ! grep -q ',false,ok$' "$tmp/lib.csv" && [ ! -s "$tmp/err" ]; then ok
else bad "csv run: exit $code, $rows feasible rows, $matched match: $(cat "$tmp/lib.csv" "$tmp/err")"; fi
"$uturn" "${run[@]}" --model "$example" --model-args grid=64 -j >"$tmp/lib.json"
feasible=$(grep -o '"feasible": true' "$tmp/lib.json" | wc -l)
matches=$(grep -o '"gradient_matches": true' "$tmp/lib.json" | wc -l)
if [ "$feasible" -ge 10 ] && [ "$feasible" -eq "$matches" ] &&
   ! grep -q '"gradient_matches": false' "$tmp/lib.json"; then ok
else bad "json run: $feasible feasible, $matches match"; fi

# The same rows as the built-in model, but for the wall time (column 8).
"$uturn" "${run[@]}" --model burgers --grid 64 -f csv >"$tmp/builtin.csv"
if diff <(cut -d, -f1-7,9- "$tmp/lib.csv") <(cut -d, -f1-7,9- "$tmp/builtin.csv") >&2; then ok
else bad "library rows differ from the built-in model's"; fi
plan=(sweep --steps 300 --budgets 1K,4K,64K -f csv)
if diff <("$uturn" "${plan[@]}" --model "$example" --model-args grid=64) \
        <("$uturn" "${plan[@]}" --model burgers --grid 64) >&2; then ok
else bad "planning rows differ from the built-in model's"; fi

# expect CODE 'STDERR (exact, with @ for the library path)' ARGS...
expect() {
  local want_code=$1 want_err=$2 lib=$3
  shift 3
  "$uturn" sweep "$@" >"$tmp/out" 2>"$tmp/err"
  local code=$? err
  err=$(cat "$tmp/err")
  if [ $code -eq "$want_code" ] && [ "$err" = "${want_err//@/$lib}" ] && [ ! -s "$tmp/out" ]; then ok
  else bad "sweep $*: exit $code (want $want_code), stderr: $err"; fi
}
expect 1 "uturn: --model: cannot load '@': @: cannot open shared object file: No such file or directory" \
  "$tmp/none.so" --run --model "$tmp/none.so"
expect 1 "uturn: --model: cannot load '@': @: invalid ELF header" \
  "$here/cases/valid.plan" --run --model "$here/cases/valid.plan"
expect 1 "uturn: --model: '@' is not a uturn model library: it does not export uturn_model_plugin_reset (see uturn_model_plugin.h)" \
  "$only_create" --run --model "$only_create"
expect 1 "uturn: --model: @ could not make its model (uturn_model_plugin_create returned 1): grid must be a whole number of at least 4, not '2'" \
  "$example" --run --model "$example" --model-args grid=2
expect 1 "uturn: --model: @ could not make its model (uturn_model_plugin_create returned 1): unknown setting 'grd' (grid=N, fail_forward=K)" \
  "$example" --model "$example" --model-args grd=64
expect 2 "uturn: --model: @ could not make its model (uturn_model_plugin_create returned 2): cannot make a Burgers model of 99999999 points" \
  "$example" --model "$example" --model-args grid=99999999
expect 2 "uturn: the forward callback returned 1 at step 5 (action 11)" \
  "$example" --run --steps 20 --model "$example" --model-args grid=8,fail_forward=5
expect 1 "uturn: --model: @'s model cannot be run: it has no forward, turn or adjoint callback" \
  "$faults" --run --model "$faults" --model-args no-forward
expect 1 "uturn: --model: @'s model cannot be run: its state_bytes is 0" \
  "$faults" --model "$faults" --model-args zero-bytes
expect 1 "uturn: --model: @'s model cannot be run: it has per-step sizes (state_size), which the sweep does not plan" \
  "$faults" --model "$faults" --model-args per-step
expect 2 "uturn: the model has no gradient after the run (uturn_model_plugin_gradient failed, or gave none)" \
  "$faults" --run --steps 10 --model "$faults" --model-args no-gradient
expect 2 "uturn: the model could not reset to x_0 (uturn_model_plugin_reset failed)" \
  "$faults" --run --steps 10 --model "$faults" --model-args reset-fails
# The working fault-free chain: one double, every row bitwise.
if "$uturn" sweep --run --steps 10 --model "$faults" --model-args fine -f csv |
   awk -F, 'NR > 1 && $3 == "true" { n++; if ($10 != "true") bad++ }
            END { exit !(n > 0 && bad == 0) }'; then ok
else bad "the fine chain: not every feasible row matches"; fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
