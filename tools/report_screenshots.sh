#!/usr/bin/env bash
# Screenshots of every example's report (the top of the page: animation at 40 % of the cycle,
# summary, first charts) as small PNGs in docs/report-screenshots/, with headless Chromium
# (Debian's chromium, installed by `make deps`). Review them before committing.
# Usage: tools/report_screenshots.sh [LINKDYN] [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
linkdyn=${1:-$here/build/apps/linkdyn/linkdyn}
out=${2:-$here/docs/report-screenshots}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
for model in "$here"/examples/*.yaml; do
  name=$(basename "$model" .yaml)
  if ! "$linkdyn" report "$model" -o "$work/$name.html" >/dev/null 2>"$work/$name.err"; then
    echo "$name: no report ($(head -1 "$work/$name.err"))"
    continue
  fi
  chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
    --user-data-dir="$work/profile" --virtual-time-budget=5000 \
    --force-device-scale-factor=0.5 --window-size=1320,1600 \
    --screenshot="$out/$name.png" "file://$work/$name.html#at=0.4" 2>/dev/null
  echo "$name: $(stat -c %s "$out/$name.png") bytes"
done
