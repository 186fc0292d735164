#!/usr/bin/env bash
# Opens reports in headless Chromium (Debian's package `chromium`, installed by `make deps`) with the
# page's built-in check (#selftest): no script error, every plot present, the slider moves the
# mechanism and the plot markers. Also a 10^5-step report, which must stay small and open fast.
# Usage: report_in_browser.sh LINKDYN EXAMPLES_DIR WORK_DIR
set -euo pipefail
linkdyn=$1 examples=$2 work=$3
mkdir -p "$work"

if ! command -v chromium >/dev/null 2>&1; then
  echo "chromium not found: this test needs Debian's chromium package; run \`make deps\` (or \`make test\`) to install it"
  exit 1
fi

browser() {  # URL -> the page's DOM after its scripts ran
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --virtual-time-budget=10000 --dump-dom "$1" 2>/dev/null
}

failures=0
check() {  # NAME HTML
  local title
  title=$(browser "file://$2#selftest" | grep -o '<title>[^<]*</title>' || true)
  echo "$1: $title"
  case "$title" in
    *"linkdyn-selftest: PASS"*) ;;
    *) failures=$((failures + 1)) ;;
  esac
}

for model in seed001-fourbar class3-triad pump-2dof non-grashof-fourbar offset-slider-crank toggle-press; do
  "$linkdyn" report "$examples/$model.yaml" -o "$work/$model.html" >/dev/null
  check "$model" "$work/$model.html"
done

# Design studies' pages: Chart.js embedded, every chart drawn, values under the cursor, series
# toggled from the legend.
for study in fourbar-tolerances fourbar-synthesis dwell-flywheel; do
  "$linkdyn" study "$examples/studies/$study.yaml" --quiet --report "$work/study-$study.html" >/dev/null
  check "study $study" "$work/study-$study.html"
done

# A 10^5-step sweep: decimated for display (animation frames and plot points), so the file
# stays small; the CSV keeps every row.
"$linkdyn" report "$examples/seed001-fourbar.yaml" --steps 100000 -o "$work/large.html" >/dev/null
size=$(stat -c %s "$work/large.html")
echo "10^5-step report: $size bytes"
if [ "$size" -gt 2000000 ]; then
  echo "the 10^5-step report is larger than 2 MB"
  failures=$((failures + 1))
fi
check "seed001-fourbar, 10^5 steps" "$work/large.html"

if [ "$failures" -ne 0 ]; then
  echo "$failures report check(s) failed"
  exit 1
fi
echo "all reports passed in the browser"
