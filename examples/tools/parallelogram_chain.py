#!/usr/bin/env python3
"""Writes the model of a chain of N parallelogram four-bars (2N + 1 uniform bars).

N + 1 cranks of length L turn about ground pivots L apart on a horizontal line; N couplers of
length L join the tips of neighbouring cranks, so every four-bar is a rhombus and every inner
crank's tip is a compound pin of three bodies (the crank and two couplers). The first crank is
the driver coordinate. In parallelogram mode all cranks share one angle theta and the couplers
translate, so the chain is one pendulum:

    theta'' = -(g / L) ((N + 1) / 2 + N) / ((N + 1) / 3 + N) cos(theta)

At theta = 0 and pi every crank's tip lies on the next crank's pivot: each four-bar passes a
singular position there (a bifurcation towards its kite modes) while the chain moves on.

Usage: parallelogram_chain.py N [--length L] [--mass M] [--theta0 DEG] [--speed RAD_S]
                                [--duration S] [-o FILE]
"""
import argparse
import math
import sys


def chain_model(n, length, mass, theta0, speed, duration):
    inertia = mass * length * length / 12.0  # a uniform bar about its centre
    out = []
    w = out.append
    w(f"# A chain of {n} parallelogram four-bars ({2 * n + 1} uniform bars of {length} m and {mass} kg),")
    w("# written by examples/tools/parallelogram_chain.py. In parallelogram mode every crank has the")
    w("# driver's angle theta and the couplers translate:")
    w(f"#   theta'' = -(g/L) ((N+1)/2 + N) / ((N+1)/3 + N) cos(theta), N = {n}")
    w("# At theta = 0 and 180 deg each crank's tip lies on the next crank's pivot (a singular")
    w("# position of every four-bar); the chain passes it on its branch.")
    w(f"name: parallelogram-chain-{n}")
    w("gravity: [0, -9.81]")
    w("ground:")
    for k in range(n + 1):
        w(f"  O{k}: [{k * length:.12g}, 0]")
    w("bodies:")
    for k in range(n + 1):
        w(f"  crank{k}:")
        w(f"    mass: {mass:.12g}")
        w(f"    inertia: {inertia:.12g}")
        w(f"    com: [{length / 2:.12g}, 0]")
        w(f"    points: {{O{k}: [0, 0], T{k}: [{length:.12g}, 0]}}")
    for k in range(1, n + 1):
        w(f"  coupler{k}:")
        w(f"    mass: {mass:.12g}")
        w(f"    inertia: {inertia:.12g}")
        w(f"    com: [{length / 2:.12g}, 0]")
        w(f"    points: {{T{k - 1}: [0, 0], T{k}: [{length:.12g}, 0]}}")
    w("joints:")
    for k in range(n + 1):
        w(f"  O{k}: {{type: revolute, bodies: [ground, crank{k}]}}")
    # Tips: the first and last carry one coupler, the inner ones two (a compound pin).
    w(f"  T0: {{type: revolute, bodies: [crank0, coupler1]}}")
    for k in range(1, n):
        w(f"  T{k}: {{type: revolute, bodies: [crank{k}, coupler{k}, coupler{k + 1}]}}")
    w(f"  T{n}: {{type: revolute, bodies: [crank{n}, coupler{n}]}}")
    w("drivers:")
    w("  theta:")
    w("    type: rotational")
    w("    joint: O0")
    if speed == 0.0:
        # Released from rest: q = theta0 + t - sin(t) = theta0 + t + cos(t + pi/2) starts at rest
        # and sweeps one turn in 2 pi s (the analyses' grid; `simulate` starts at rest from it).
        w("    # q = theta0 + t - sin t: at rest at t = 0, one turn in 2 pi s")
        w(f"    law: {{type: harmonic, c: [{math.radians(theta0):.17g}, 1, 1, 1, {math.pi / 2:.17g}], "
          f"duration: {2 * math.pi:.17g}, steps: 360}}")
    else:
        w(f"    law: {{type: constant_speed, q0: {theta0:.12g} deg, speed: {speed:.12g}, duration: {duration:.12g}, steps: 360}}")
    w("assembly:                      # the parallelogram mode: each tip above its crank's pivot side")
    for k in range(1, n + 1):
        w(f"  coupler{k}.T{k}: {{near: [{(k + 1) * length:.12g}, {0.3 * length:.12g}]}}")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int, help="number of four-bars (>= 1)")
    parser.add_argument("--length", type=float, default=0.5, help="bar length and pivot spacing, m (default 0.5)")
    parser.add_argument("--mass", type=float, default=1.0, help="mass of each bar, kg (default 1)")
    parser.add_argument("--theta0", type=float, default=0.0, help="initial crank angle, deg (default 0: all bars horizontal)")
    parser.add_argument("--speed", type=float, default=0.0, help="crank speed of a constant-speed law, rad/s (default 0: released from rest, "
                        "a law that starts at rest and sweeps one turn)")
    parser.add_argument("--duration", type=float, default=2.0, help="duration of a constant-speed law's grid, s (default 2)")
    parser.add_argument("-o", "--output", help="file to write (default: standard output)")
    a = parser.parse_args()
    if a.n < 1 or a.length <= 0 or a.mass <= 0:
        parser.error("N >= 1, length > 0 and mass > 0 are required")
    text = chain_model(a.n, a.length, a.mass, a.theta0, a.speed, a.duration)
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
