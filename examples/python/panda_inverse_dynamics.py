#!/usr/bin/env python3
"""The Franka Emika Panda's driving torques along a trajectory: each joint swings 0.3 rad about
the arm's ready pose for 4 s; inverse dynamics (recursive Newton-Euler) at 2001 states in one
batched call, then the peak torque of each joint against its limit.

    PYTHONPATH=build/python python3 examples/python/panda_inverse_dynamics.py [torques.png]
"""
import os
import sys

import numpy as np

import linkdyn

here = os.path.dirname(os.path.abspath(__file__))
robot = linkdyn.load_robot(os.path.join(here, "..", "robots", "panda.urdf"))
data = robot.create_data()

# q_i(t) = ready_i + 0.3 sin(w_i t + phi_i), with its rates.
t = np.linspace(0.0, 4.0, 2001)[:, None]
ready = np.array([0.0, -np.pi / 4, 0.0, -3 * np.pi / 4, 0.0, np.pi / 2, np.pi / 4])
w = np.linspace(1.0, 2.2, robot.nv)
phi = np.linspace(0.0, 1.5, robot.nv)
q = ready + 0.3 * np.sin(w * t + phi)
v = 0.3 * w * np.cos(w * t + phi)
a = -0.3 * w * w * np.sin(w * t + phi)

tau = linkdyn.rnea(robot, data, q, v, a)  # (2001, 7), looped in C++
gravity = linkdyn.gravity(robot, data, q)
limits = np.array([87, 87, 87, 87, 12, 12, 12], dtype=float)  # N m, the URDF's effort limits
print(f"{robot.name}: {robot.nv} joints, {len(t)} states over {t[-1, 0]:g} s")
print(f"{'joint':>14} {'peak |tau| (N m)':>17} {'of which gravity':>17} {'limit':>7}")
for j, name in enumerate(robot.v_names):
    k = int(np.argmax(np.abs(tau[:, j])))
    print(f"{name:>14} {abs(tau[k, j]):17.3f} {gravity[k, j]:17.3f} {limits[j]:7.0f}")
assert np.all(np.abs(tau) < limits), "a joint exceeds its effort limit"

if len(sys.argv) > 1:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.5))
    for j, name in enumerate(robot.v_names):
        axes.plot(t[:, 0], tau[:, j], label=name)
    axes.set_xlabel("t (s)")
    axes.set_ylabel("driving torque (N m)")
    axes.set_title("Franka Emika Panda: inverse dynamics along the trajectory")
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=8, ncol=2)
    figure.savefig(sys.argv[1], dpi=120, bbox_inches="tight")
    print(f"wrote {sys.argv[1]}")
