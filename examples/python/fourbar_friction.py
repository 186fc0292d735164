#!/usr/bin/env python3
"""The seed four-bar [001]: the crank's driving torque over a turn with the pairs' Coulomb
friction and without it, plotted to a PNG.

    PYTHONPATH=build/python python3 examples/python/fourbar_friction.py [out.png]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import linkdyn  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
model = linkdyn.load(os.path.join(here, "..", "seed001-fourbar.yaml"))
with_friction = linkdyn.kinetostatics(model, steps=360)
crank = np.degrees(with_friction["crank_drive.angle"])
torque = with_friction["crank_drive.torque"]
frictionless = with_friction["crank_drive.torque_frictionless"]

figure, axes = plt.subplots(figsize=(8, 4.5))
axes.plot(crank, torque, label="with friction (f' = 0.40, r = 7.5 mm)")
axes.plot(crank, frictionless, "--", label="frictionless")
axes.set_xlabel("crank angle (deg)")
axes.set_ylabel("driving torque (N m)")
axes.set_title(f"{model.name}: driving torque over a turn")
axes.grid(True, alpha=0.3)
axes.legend()
output = sys.argv[1] if len(sys.argv) > 1 else "fourbar_friction.png"
figure.savefig(output, dpi=120, bbox_inches="tight")
info = with_friction.info
# The loads are a constant force and moment (conservative): over a turn the driver supplies
# exactly what friction dissipates.
print(f"driving work over the turn: {info['driver_work']:.6g} J, lost to friction {info['friction_work']:.6g} J")
print(f"wrote {output}")
