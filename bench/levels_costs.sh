#!/usr/bin/env bash
# hrevolve's cost over memory and further levels against revolve with the
# same memory alone, for the reference cases of docs/model.md section 4.
# usage: bench/levels_costs.sh UTURN_BINARY
set -euo pipefail
uturn=$1
field() { sed -n "s/^$1 *//p"; }
row() { # steps memory levels
  local h r
  h=$("$uturn" stats hrevolve --steps "$1" --levels "$3")
  r=$("$uturn" stats revolve --steps "$1" --slots "$2")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$3" \
    "$(field forward_steps <<<"$h")" "$(field cost <<<"$h")" \
    "$(field cost <<<"$r")" \
    "$(awk -v a="$(field cost <<<"$h")" -v b="$(field cost <<<"$r")" 'BEGIN {printf "%.3f", a / b}')"
}
echo "| steps | levels | hrevolve forward_steps | hrevolve cost | revolve cost, memory alone | ratio |"
echo "| --- | --- | --- | --- | --- | --- |"
row 100 5 mem:5,disk:100:w=5:r=5
row 1000 10 mem:10,disk:170:w=5:r=5
row 300 4 mem:4,l1:8:w=2:r=2,l2:16:w=10:r=10
row 100 5 mem:5
row 10000 20 mem:20,disk:500:w=5:r=5
