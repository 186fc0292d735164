"""Shared by the pytest suite: where the examples and the command line are, and CSV reading."""
import csv
import math
import os
import subprocess

import pytest

EXAMPLES = os.environ.get("LINKDYN_EXAMPLES", os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
CLI = os.environ.get("LINKDYN_CLI", os.path.join(os.path.dirname(__file__), "..", "..", "build", "apps", "linkdyn",
                                                 "linkdyn"))
TEST_DATA = os.environ.get("LINKDYN_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data"))


def example(name):
    return os.path.join(EXAMPLES, name)


def planar_examples():
    return sorted(f[:-5] for f in os.listdir(EXAMPLES) if f.endswith(".yaml"))


def run_cli(args, cwd):
    """Runs the command line; its exit code and output."""
    done = subprocess.run([CLI] + args, cwd=cwd, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def read_csv(path):
    """Header and rows of a CSV file the command line wrote (empty cells: NaN)."""
    with open(path, newline="") as f:
        rows = [row for row in csv.reader(f) if row and not row[0].startswith("#")]
    return rows[0], [[float(c) if c != "" else math.nan for c in row] for row in rows[1:]]


def assert_same_as_csv(result, path):
    """Every column name and every number of the CSV file, to the last digit written."""
    header, rows = read_csv(path)
    assert list(result.columns) == header
    values = result.values
    assert values.shape == (len(rows), len(header))
    for r, row in enumerate(rows):
        for c, expected in enumerate(row):
            got = values[r, c]
            assert (math.isnan(expected) and math.isnan(got)) or got == expected, \
                f"{path}: row {r}, column {header[c]}: Python {got!r}, CSV {expected!r}"


@pytest.fixture
def fourbar():
    import linkdyn
    return linkdyn.load(example("seed001-fourbar.yaml"))
