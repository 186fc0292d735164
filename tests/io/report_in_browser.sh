#!/usr/bin/env bash
# Opens reports in headless Chromium (Debian's package `chromium`, installed by `make deps`) with the
# page's built-in check (#selftest): no script error, every plot present, the slider moves the
# mechanism and every chart's cursor, the mouse over a chart shows every series' value under the
# cursor and moves the slider, a drag zooms, a click on a legend entry hides its series, and every
# element of the machine in the page's data is drawn. Each model's own elements (sliders on their
# guides, springs, dampers, load arrows, wheels) must be there. Also a 10^5-step report, which must
# stay small and open fast.
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
check() {  # NAME HTML [WORDS THE TITLE MUST HOLD, e.g. "blocks 1"...]
  local title name=$1 html=$2
  shift 2
  title=$(browser "file://$html#selftest" | grep -o '<title>[^<]*</title>' || true)
  echo "$name: $title"
  case "$title" in
    *"linkdyn-selftest: PASS"*) ;;
    *) failures=$((failures + 1)) ;;
  esac
  for words in "$@"; do
    case "$title" in
      *" $words "*) ;;
      *) echo "  expected \"$words\""; failures=$((failures + 1)) ;;
    esac
  done
}

report() {  # MODEL [WORDS...]
  local model=$1
  shift
  "$linkdyn" report "$examples/$model.yaml" -o "$work/$model.html" >/dev/null
  check "$model" "$work/$model.html" "$@"
}
report seed001-fourbar "loads 1" "cursor true" "zoom true" "toggle true"
report class3-triad
report pump-2dof "springs 1" "blocks 1" "guides 1"
report non-grashof-fourbar
report offset-slider-crank "blocks 1" "guides 1" "loads 1"
report toggle-press "blocks 1" "guides 1" "loads 1" "wheels 1"
report fourbar-flywheel "wheels 2"
report inverted-slider-crank "dampers 1" "blocks 1"
# A crank turning backwards: its charts' x descends in the sweep and must reach the library ascending.
sed 's|speed: 10 rad/s|speed: -10 rad/s|' "$examples/seed001-fourbar.yaml" >"$work/backwards.yaml"
grep -q "speed: -10 rad/s" "$work/backwards.yaml"
"$linkdyn" report "$work/backwards.yaml" -o "$work/backwards.html" >/dev/null
check "seed001-fourbar turning backwards" "$work/backwards.html" "cursor true" "zoom true"

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
