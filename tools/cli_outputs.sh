#!/usr/bin/env bash
# Runs every linkdyn command on every shipped example and writes what it prints and the files it
# writes under OUTDIR (one folder per example and command), with each command's exit code. Used
# to check that a refactoring changes no output: run it before and after, then
#   tools/compare_outputs.py BEFORE AFTER
# Usage: tools/cli_outputs.sh OUTDIR [path/to/linkdyn]
set -uo pipefail
out=${1:?usage: tools/cli_outputs.sh OUTDIR [linkdyn]}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${2:-$root/build/apps/linkdyn/linkdyn}
mkdir -p "$out"
run() {  # run NAME ARGS...: output, files and exit code of one command in $out/NAME
  local name=$1
  shift
  mkdir -p "$out/$name"
  (cd "$out/$name" && "$cli" "$@" > stdout.txt 2> stderr.txt; echo $? > exit_code.txt)
}
for model in "$root"/examples/*.yaml; do
  ex=$(basename "$model" .yaml)
  run "$ex/check" check "$model"
  run "$ex/kinematics" kinematics "$model" --csv k.csv --json k.json
  run "$ex/kinetostatics" kinetostatics "$model" --csv k.csv --json k.json
  run "$ex/reduce" reduce "$model" --csv r.csv
  run "$ex/simulate" simulate "$model" --t-end 0.3 --steps 60 --csv s.csv --json s.json
  run "$ex/simulate-kane" simulate "$model" --method kane --t-end 0.3 --steps 60 --reactions --csv s.csv
  run "$ex/flex" flex "$model" --steps 36 --csv f.csv --response r.csv --stress st.csv
  run "$ex/report" report "$model" -o report.html
done
robots="$root/examples/robots"
run robots/iiwa14-id robot id "$robots/iiwa14.urdf" --states "$robots/iiwa14-trajectory.csv" --csv id.csv
run robots/iiwa14-fd robot fd "$robots/iiwa14.urdf" --states "$robots/iiwa14-fd-states.csv" --csv fd.csv
run robots/iiwa14-mass-matrix robot mass-matrix "$robots/iiwa14.urdf" --states "$robots/iiwa14-trajectory.csv" --csv m.csv
run robots/planar-3r-jerk robot jerk "$robots/planar-3r.yaml" --states "$robots/planar-3r-trajectory.csv" --csv j.csv
run robots/planar-3r-energy robot energy "$robots/planar-3r.yaml" --states "$robots/planar-3r-trajectory.csv" --csv e.csv
run robots/quadruped-derivatives robot derivatives "$robots/quadruped.urdf" --states "$robots/quadruped-states.csv" --csv d.csv
run robots/dual-fk robot fk "$robots/dual-iiwa14.urdf" --states "$robots/dual-iiwa14-trajectory.csv" --csv fk.csv
run robots/dual-jacobian robot jacobian "$robots/dual-iiwa14.urdf" --frame left_tool0 --states "$robots/dual-iiwa14-trajectory.csv" --csv j.csv
run robots/iiwa14-coriolis robot coriolis "$robots/iiwa14.urdf" --states "$robots/iiwa14-trajectory.csv" --csv c.csv
run robots/iiwa14-simulate robot simulate "$robots/iiwa14.urdf" --states "$robots/iiwa14-trajectory.csv" --csv s.csv
run bodies/bracket mass "$root/examples/bodies/bracket.yaml"
echo "wrote $out"
