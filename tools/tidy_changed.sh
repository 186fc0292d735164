#!/usr/bin/env bash
# clang-tidy (`make tidy-changed`) on the sources of src/ changed since a base, and on every
# source of src/ that includes, directly or through other headers, a header changed since then
# (a header's findings show through the sources that include it). The whole of src/ when
# .clang-tidy or this script changed (a source added to src/CMakeLists.txt is itself changed:
# the list alone changes no finding, and checking the whole tree takes about 15 minutes of CI). The base: $TIDY_BASE if set, else the
# merge base with the newest release tag (v*), else the merge base with main, or the previous
# commit when on main. Uncommitted and untracked changes count.
#   tools/tidy_changed.sh <build folder with compile_commands.json> <jobs>
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=${2:-2}
root=$(pwd)

base=${TIDY_BASE:-}
if [ -z "$base" ]; then
  if tag=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null); then
    base=$(git merge-base HEAD "$tag")
  else
    for main in main origin/main; do
      base=$(git merge-base HEAD "$main" 2>/dev/null) && break
    done
    if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
      base=$(git rev-parse --verify -q HEAD~1 || true)
    fi
  fi
fi
if [ -z "$base" ]; then
  echo "tidy-changed: no base to compare with: the whole of src/"
  exec run-clang-tidy -p "$build" -j "$jobs" -quiet "$root/src/"
fi

mapfile -t changed < <({ git diff --name-only "$base" -- src include .clang-tidy tools/tidy_changed.sh
                         git ls-files --others --exclude-standard -- src include; } | sort -u)
files=()
for f in "${changed[@]}"; do [ -f "$f" ] && files+=("$f"); done
echo "tidy-changed: ${#files[@]} file(s) changed since $(git rev-parse --short "$base")"
for f in "${files[@]}"; do
  case $f in
    .clang-tidy | tools/tidy_changed.sh)
      echo "tidy-changed: $f changed: the whole of src/"
      exec run-clang-tidy -p "$build" -j "$jobs" -quiet "$root/src/" ;;
  esac
done

# Headers changed, then those that include them, until none is added. A header is included by
# its path under include/ (public) or src/ (private).
headers=()
sources=()
for f in "${files[@]}"; do
  case $f in
    *.hpp) headers+=("$f") ;;
    src/*.cpp) sources+=("$f") ;;
  esac
done
declare -A seen=()
todo=("${headers[@]}")
while [ ${#todo[@]} -gt 0 ]; do
  patterns=()
  for h in "${todo[@]}"; do
    seen[$h]=1
    name=${h#include/}
    name=${name#src/}
    patterns+=(-e "#include \"$name\"")
  done
  todo=()
  mapfile -t includers < <(grep -rlF "${patterns[@]}" src include --include='*.hpp' --include='*.cpp' || true)
  for f in "${includers[@]}"; do
    case $f in
      *.hpp) [ -z "${seen[$f]:-}" ] && todo+=("$f") && seen[$f]=1 ;;
      src/*.cpp) sources+=("$f") ;;
    esac
  done
done

mapfile -t sources < <(printf '%s\n' "${sources[@]}" | sort -u | sed '/^$/d')
if [ ${#sources[@]} -eq 0 ]; then
  echo "tidy-changed: no source of src/ to check"
  exit 0
fi
echo "tidy-changed: ${#sources[@]} source(s) of src/ to check"
regexes=()
for s in "${sources[@]}"; do regexes+=("^$(printf '%s' "$root/$s" | sed 's/[.[\*^$+?(){}|]/\\&/g')\$"); done
exec run-clang-tidy -p "$build" -j "$jobs" -quiet "${regexes[@]}"
