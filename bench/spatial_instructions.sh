#!/bin/sh
# Instructions per call of the robot algorithms (callgrind), for each example robot:
#   bench/spatial_instructions.sh [BUILD_DIR]   (default build)
set -e
build=${1:-build}
out=$(mktemp)
for robot in puma560.yaml iiwa14.urdf dual-iiwa14.urdf quadruped.urdf; do
  valgrind --tool=callgrind --callgrind-out-file="$out" "$build/bench/linkdyn_spatial_instructions" "$robot" >/dev/null 2>&1
  echo "$robot"
  callgrind_annotate --inclusive=yes "$out" 2>/dev/null | grep -E "count_[a-z_]+\(" |
    sed -E 's/^ *([0-9,]+).*(count_[a-z_]+).*/\2 \1/' | awk '{gsub(",", "", $2); printf "  %-38s %8.0f\n", $1, $2 / 1000}'
done
rm -f "$out"
