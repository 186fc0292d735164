#!/usr/bin/env python3
"""Speed of the Python package against the C++ library (timeit, medians of repeated runs).

Usage: PYTHONPATH=build/python python3 bench/python_bench.py [build/bench/linkdyn_bench]

- one rnea call on the 7-DOF iiwa from Python, against the C++ call (BM_InverseDynamics_RNEA);
- a batched rnea over 10^5 states, per state, against the C++ call and against a C++ loop over
  the same kind of states (BM_InverseDynamics_RNEA_Batch);
- kinetostatics(model, steps=360) of the seed four-bar, against the C++ sweep of the same
  (BM_KinetostaticsSweep... from bench_kinetostatics: per position x 361).
The C++ figures come from linkdyn_bench (Google Benchmark) run here with --benchmark_format=json.
"""
import json
import os
import statistics
import subprocess
import sys
import timeit

import numpy as np

import linkdyn

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def median_seconds(statement, number, repeat=7):
    return statistics.median(timeit.repeat(statement, number=number, repeat=repeat)) / number


def cpp_nanoseconds(bench, pattern):
    out = subprocess.run([bench, f"--benchmark_filter={pattern}", "--benchmark_format=json",
                          "--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true"],
                         capture_output=True, text=True, check=True).stdout
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
            return b["real_time"] * scale
    raise RuntimeError(f"no benchmark matches {pattern}")


def main():
    bench = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bench", "linkdyn_bench")
    robot = linkdyn.load_robot(os.path.join(ROOT, "examples", "robots", "iiwa14.urdf"))
    data = robot.create_data()
    rng = np.random.default_rng(1)
    q, v, a = (rng.uniform(-1, 1, robot.nv) for _ in range(3))
    single = median_seconds(lambda: linkdyn.rnea(robot, data, q, v, a, friction=False), 20000) * 1e9
    Q, V, A = (rng.uniform(-1, 1, (100000, robot.nv)) for _ in range(3))
    batch = median_seconds(lambda: linkdyn.rnea(robot, data, Q, V, A, friction=False), 1, repeat=5) * 1e9 / 1e5
    model = linkdyn.load(os.path.join(ROOT, "examples", "seed001-fourbar.yaml"))
    sweep = median_seconds(lambda: linkdyn.kinetostatics(model, steps=360), 20) * 1e9

    cpp_rnea = cpp_nanoseconds(bench, "BM_InverseDynamics_RNEA/1$")
    cpp_loop = cpp_nanoseconds(bench, "BM_InverseDynamics_RNEA_Batch/1") / 1e5
    cpp_sweep = cpp_nanoseconds(bench, "kinetostatics_sweep/seed_fourbar_360")
    print(f"machine: {os.uname().machine}, {os.cpu_count()} cores; times are medians")
    print(f"rnea, iiwa14, one call:   Python {single:9.0f} ns, C++ {cpp_rnea:7.0f} ns, "
          f"overhead {single - cpp_rnea:7.0f} ns (budget 2000 ns)")
    print(f"rnea, iiwa14, batch 1e5:  Python {batch:9.1f} ns per state, C++ one call {cpp_rnea:7.0f} ns "
          f"(ratio {batch / cpp_rnea:5.2f}), C++ loop over 1e5 states {cpp_loop:7.1f} ns per state "
          f"(ratio {batch / cpp_loop:5.2f}; budget 1.2)")
    print(f"kinetostatics, seed four-bar, 360 steps: Python {sweep / 1e3:9.1f} us, C++ {cpp_sweep / 1e3:9.1f} us, "
          f"ratio {sweep / cpp_sweep:5.2f} (budget 1.2)")


if __name__ == "__main__":
    main()
