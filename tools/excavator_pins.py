#!/usr/bin/env python3
"""The cylinder pins of examples/excavator.yaml from the joints' ranges and the cylinders' strokes.

A cylinder that turns a joint spans a triangle: its base pin at r1 from the joint (in the base
body), its rod pin at r2 (in the turning body), the angle phi between the two rays, and
L^2 = r1^2 + r2^2 - 2 r1 r2 cos(phi). Given the joint's range (a span Delta) and the cylinder's
stroke, phi from phi1 = 90 deg - Delta / 2 to 90 deg + Delta / 2 (a range
centred on 90 deg, where the cylinder's lever arm is largest) fixes the shorter of r1, r2 for
the longer one; the retracted length is L(phi1).

The joints' ranges were fitted (a random search over the boom foot's place and the three
ranges, straight pin-to-pin links of the Cat 320's Reach boom 5.7 m, R2.9 stick 2.9 m and bucket
tip radius 1.47 m) so that the envelope meets the Cat 320 datasheet's working ranges: maximum
reach at ground level 9.85 m (32.3 ft), digging depth 6.71 m (22 ft), cutting height 9.36 m
(30.7 ft), loading height 6.49 m (21.3 ft) (Caterpillar 320 Hydraulic Excavator, Reach boom,
R2.9 stick, HD 1.19 m3 bucket, as listed by Cat dealers, e.g.
https://www.stowerscat.com/new-equipment/machines/medium-excavators/cat-320-hydraulic-excavator).
Strokes and bores: the same datasheet (boom 1260 mm, stick 1504 mm, bucket 1104 mm).
tests/planar/test_excavator.cpp checks the envelope with linkdyn's kinematics.

Prints the points of the model (body frames: each body's x axis along its pin-to-pin line).
"""
import math

BOOM, STICK, TIP = 5.7, 2.9, 1.47
FOOT = (0.22, 2.04)
RANGES = {"boom": (-50.0, 55.0), "stick": (31.0, 153.5), "bucket": (-51.0, 48.5)}  # deg
# (the longer radius, is it the base pin's (r1)?, stroke, direction of the base pin's ray in the
# base body's frame, deg)
CYLINDERS = {"boom": (2.6, False, 1.260, -75.0), "stick": (2.8, True, 1.504, 172.0), "bucket": (2.3, True, 1.104, 170.0)}


def length(r1, r2, phi):
    return math.sqrt(r1 * r1 + r2 * r2 - 2 * r1 * r2 * math.cos(phi))


def short_radius(long, span, stroke):
    """The shorter radius that makes the stroke turn `span` with phi centred on 90 deg (the
    cylinder's lever arm largest in mid-range, the transmission equally good at both ends)."""
    lo, hi = 1e-3, long
    f = lambda r: length(long, r, (math.pi + span) / 2) - length(long, r, (math.pi - span) / 2) - stroke
    if f(hi) < 0:
        raise SystemExit(f"stroke {stroke} cannot turn {math.degrees(span):.1f} deg with a radius {long}")
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def polar(r, deg):
    return (r * math.cos(math.radians(deg)), r * math.sin(math.radians(deg)))


def main():
    out = {}
    for joint, (long, long_is_base, stroke, psi1) in CYLINDERS.items():
        low, high = RANGES[joint]
        span = math.radians(high - low)
        short = short_radius(long, span, stroke)
        r1, r2 = (long, short) if long_is_base else (short, long)
        phi1 = (math.pi - span) / 2
        retracted = length(r1, r2, phi1)
        # Boom: phi = alpha + psi2 - psi1; stick, bucket: phi = psi1 + (fold angle) - psi2.
        psi2 = math.degrees(phi1) - low + psi1 if joint == "boom" else psi1 + low - math.degrees(phi1)
        out[joint] = (r1, r2, psi1, psi2, retracted, retracted + stroke)
        print(f"{joint}: phi {math.degrees(phi1):.3f} to {math.degrees(phi1 + span):.3f} deg, "
              f"retracted {retracted:.4f} m, extended {retracted + stroke:.4f} m, psi2 {psi2:.3f} deg")
    r1, r2, psi1, psi2, *_ = out["boom"]
    base = polar(r1, psi1)
    print(f"ground C_boom: [{FOOT[0] + base[0]:.4f}, {FOOT[1] + base[1]:.4f}]")
    print("boom D: [%.4f, %.4f]" % polar(r2, psi2))
    r1, r2, psi1, psi2, *_ = out["stick"]
    s = polar(r1, psi1)
    print(f"boom S: [{BOOM + s[0]:.4f}, {s[1]:.4f}]")
    print("stick E: [%.4f, %.4f]" % polar(r2, psi2))
    r1, r2, psi1, psi2, *_ = out["bucket"]
    k = polar(r1, psi1)
    print(f"stick K: [{STICK + k[0]:.4f}, {k[1]:.4f}]")
    print("bucket F: [%.4f, %.4f]" % polar(r2, psi2))


if __name__ == "__main__":
    main()
