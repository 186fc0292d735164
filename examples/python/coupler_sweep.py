#!/usr/bin/env python3
"""A design sweep without files: the seed four-bar with its coupler lengthened or shortened, the
peak driving torque (with friction) of each over a turn.

    PYTHONPATH=build/python python3 examples/python/coupler_sweep.py
"""
import os

import numpy as np

import linkdyn

here = os.path.dirname(os.path.abspath(__file__))
base = linkdyn.load(os.path.join(here, "..", "seed001-fourbar.yaml"))
print(f"{'coupler BC (m)':>15} {'peak torque (N m)':>18} {'at crank (deg)':>15} {'friction loss (J)':>18}"
      f" {'positions':>10}")
for length in np.linspace(5.0, 7.0, 9):
    # The coupler's C point at its new length; its centre of mass and the load point S stay.
    model = base.with_changes({"bodies.coupler.points.C": [float(length), 0.0]})
    try:  # where the loop cannot close over the whole turn, the positions that assemble
        result = linkdyn.kinetostatics(model, steps=360)
    except linkdyn.AnalysisError as error:  # not even at the start
        print(f"{length:15.3f}  does not assemble: {str(error)[:60]}...")
        continue
    torque = result["crank_drive.torque"]
    k = int(np.nanargmax(np.abs(torque)))
    print(f"{length:15.3f} {torque[k]:18.2f} {np.degrees(result['crank_drive.angle'][k]):15.1f} "
          f"{result.info['friction_work']:18.2f} {len(result):4d} of {result.info['steps']}")
