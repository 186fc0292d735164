#!/usr/bin/env python3
"""Compares two folders written by tools/cli_outputs.sh: the same files, the same exit codes, the
same text, numbers equal within a relative tolerance (default 1e-12 of the column's largest
value; timings and the computing time excepted). Prints every difference; exit 1 if any.

Usage: tools/compare_outputs.py BEFORE AFTER [--rtol R]
"""
import argparse
import csv
import json
import os
import re
import sys

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
VOLATILE = re.compile(r"s of computing|x real time|\(\d+ kB\)|seconds|generated")


def numbers_close(a, b, scale, rtol):
    return abs(a - b) <= rtol * max(scale, abs(a), abs(b), 1e-300)


def compare_csv(pa, pb, rtol, report):
    ra, rb = list(csv.reader(open(pa))), list(csv.reader(open(pb)))
    if not ra or not rb or ra[0] != rb[0]:
        report(f"{pa}: columns differ")
        return
    if len(ra) != len(rb):
        report(f"{pa}: {len(ra)} rows before, {len(rb)} after")
        return
    header = ra[0]
    for c, name in enumerate(header):
        col_a = [row[c] for row in ra[1:]]
        col_b = [row[c] for row in rb[1:]]
        try:
            fa, fb = [float(x) for x in col_a], [float(x) for x in col_b]
        except ValueError:
            if col_a != col_b:
                report(f"{pa}: column {name} differs (text)")
            continue
        finite = [abs(x) for x in fa if x == x and abs(x) != float("inf")]
        scale = max(finite) if finite else 0.0
        worst = max((abs(x - y) for x, y in zip(fa, fb) if x == x and y == y), default=0.0)
        nan_a, nan_b = [x != x for x in fa], [y != y for y in fb]
        if nan_a != nan_b or any(not numbers_close(x, y, scale, rtol) for x, y in zip(fa, fb) if x == x):
            report(f"{pa}: column {name} differs by {worst:.3g} (scale {scale:.3g})")


def flatten(value, prefix, out):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(v, f"{prefix}.{k}", out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            flatten(v, f"{prefix}[{i}]", out)
    else:
        out[prefix] = value


def compare_json(pa, pb, rtol, report):
    fa, fb = {}, {}
    flatten(json.load(open(pa)), "", fa)
    flatten(json.load(open(pb)), "", fb)
    if fa.keys() != fb.keys():
        report(f"{pa}: keys differ: {sorted(set(fa) ^ set(fb))[:5]}")
        return
    for k in fa:
        a, b = fa[k], fb[k]
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
            if not numbers_close(a, b, 0.0, rtol) and not ("seconds" in k or "computing" in k):
                report(f"{pa}: {k} {a!r} -> {b!r}")
        elif a != b:
            report(f"{pa}: {k} {a!r} -> {b!r}")


def compare_text(pa, pb, rtol, report):
    la, lb = open(pa, errors="replace").read().splitlines(), open(pb, errors="replace").read().splitlines()
    if len(la) != len(lb):
        report(f"{pa}: {len(la)} lines before, {len(lb)} after")
    for x, y in zip(la, lb):
        if x == y or (VOLATILE.search(x) and VOLATILE.search(y)):
            continue
        nx, ny = NUMBER.findall(x), NUMBER.findall(y)
        if NUMBER.sub("#", x) == NUMBER.sub("#", y) and len(nx) == len(ny) and all(
                numbers_close(float(a), float(b), 0.0, max(rtol, 1e-8)) for a, b in zip(nx, ny)):
            continue
        report(f"{pa}:\n  - {x}\n  + {y}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rtol", type=float, default=1e-12)
    a = parser.parse_args()
    differences = []
    report = differences.append
    for root, _, files in os.walk(a.before):
        for f in sorted(files):
            pa = os.path.join(root, f)
            pb = os.path.join(a.after, os.path.relpath(pa, a.before))
            if not os.path.exists(pb):
                report(f"{pb}: missing after")
                continue
            if f.endswith(".csv"):
                compare_csv(pa, pb, a.rtol, report)
            elif f.endswith(".json"):
                compare_json(pa, pb, a.rtol, report)
            elif f.endswith(".html") or f.endswith(".svg"):
                if open(pa, "rb").read() != open(pb, "rb").read():
                    report(f"{pa}: differs")
            else:
                compare_text(pa, pb, a.rtol, report)
    for root, _, files in os.walk(a.after):
        for f in files:
            pb = os.path.join(root, f)
            if not os.path.exists(os.path.join(a.before, os.path.relpath(pb, a.after))):
                report(f"{pb}: new")
    for d in differences:
        print(d)
    print(f"{len(differences)} difference(s)")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
