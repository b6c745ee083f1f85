#!/bin/sh
# docs/consumers.md shows the tested consumer files verbatim: each file
# follows a line "<!-- file: PATH -->" in a fenced block. Fail when a block
# differs from its file, or when a FILE given here has no block.
# Usage: check_docs.sh DOC ROOT FILE...  (FILE relative to ROOT); it writes
# one temporary file in the current directory.
set -eu
doc=$1
root=$2
shift 2
status=0
tmp="./.check_docs.$$"  # in the working directory (the build tree)
trap 'rm -f "$tmp"' EXIT
for f in "$@"; do
    if ! grep -qxF "<!-- file: $f -->" "$doc"; then
        echo "check_docs: $doc has no block for $f"
        status=1
        continue
    fi
    awk -v marker="<!-- file: $f -->" '
        state == 0 && $0 == marker { state = 1; next }
        state == 1 { if ($0 !~ /^```/) exit 2; state = 2; next }
        state == 2 && $0 == "```" { state = 3; exit }
        state == 2 { print }
        END { if (state != 3) exit 2 }
    ' "$doc" >"$tmp" || {
        echo "check_docs: the marker for $f must be followed by a fenced block"
        status=1
        continue
    }
    if ! diff -u "$root/$f" "$tmp" >&2; then
        echo "check_docs: the block for $f differs from the file (diff above)"
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "check_docs: ok, $# files shown verbatim in $doc"
exit "$status"
