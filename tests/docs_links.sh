#!/usr/bin/env bash
# The repository's documents point only at files it contains: every
# markdown link and every backticked path under one of the repository's
# top-level directories, in README.md, docs/*.md, bench/*.md and the public
# headers, must exist; and no tracked file names the design notes that
# live outside the repository.
# usage: docs_links.sh SOURCE_DIR
set -u
root=$1
cd "$root" || exit 1
fail=0 checked=0
dirs='include|src|schedules|tests|bench|tools|examples|bindings|docs|scripts|cmake|mpi'
docs=(README.md docs/*.md bench/*.md include/*.h include/*.hpp)
for doc in "${docs[@]}"; do
  [ -f "$doc" ] || continue
  base=$(dirname "$doc")
  # Prose only: code blocks hold C and shell, not links.
  prose=$(awk '/^```/ { code = !code; next } !code' "$doc")
  # markdown links [text](path), relative to the document
  while IFS= read -r link; do
    target=${link%%#*}
    [ -z "$target" ] && continue
    case $target in http*|mailto:*) continue ;; esac
    checked=$((checked + 1))
    if [ ! -e "$base/$target" ]; then
      echo "$doc: link to missing $target"; fail=1
    fi
  done < <(grep -oE '\]\([^) ]+\)' <<<"$prose" | sed -E 's/^\]\((.*)\)$/\1/')
  # backticked repository paths, relative to the root
  while IFS= read -r path; do
    checked=$((checked + 1))
    if [ ! -e "$path" ] && [ ! -e "${path%/}" ]; then
      echo "$doc: names missing $path"; fail=1
    fi
  done < <(grep -oE "\`($dirs)/[A-Za-z0-9_./-]*\`" <<<"$prose" | tr -d '`' |
           grep -vE '\*|/$|NAME|\.\.\.|^bench/out/')
  # plain mentions of a document, as comments in headers make them
  while IFS= read -r path; do
    checked=$((checked + 1))
    [ -e "$path" ] || { echo "$doc: names missing $path"; fail=1; }
  done < <(grep -oE '(^|[^A-Za-z0-9_/])docs/[A-Za-z0-9_-]+\.md' "$doc" |
           sed -E 's/^[^d]*//' | sort -u)
done
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  hits=$(git -C "$root" grep -lE 'DESIGN\.md|STYLE\.md' -- . ':!tests/docs_links.sh' || true)
  if [ -n "$hits" ]; then
    echo "files naming design notes outside the repository: $hits"; fail=1
  fi
fi
echo "$checked references checked"
exit $fail
