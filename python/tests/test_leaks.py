"""10^5 calls in a loop leak no reference and no memory, and errors raised in a loop neither."""
import resource
import sys

import numpy as np

import linkdyn
from conftest import example


def resident_kib():
    """Peak resident memory so far (KiB): a leak of a few hundred bytes per call shows over 10^5."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_rnea_loop_leaks_nothing():
    robot = linkdyn.load_robot(example("robots/iiwa14.urdf"))
    data = robot.create_data()
    q = np.linspace(0.1, 0.7, robot.nq)
    for _ in range(10000):  # warm up: the interpreter's own caches
        linkdyn.rnea(robot, data, q, q, q)
    counts = (sys.getrefcount(robot), sys.getrefcount(data), sys.getrefcount(q))
    before = resident_kib()
    for _ in range(100000):
        linkdyn.rnea(robot, data, q, q, q)
    assert (sys.getrefcount(robot), sys.getrefcount(data), sys.getrefcount(q)) == counts
    assert resident_kib() - before < 2048, "more than 20 bytes per call kept"


def test_batched_and_result_loops_leak_nothing():
    robot = linkdyn.load_robot(example("robots/iiwa14.urdf"))
    data = robot.create_data()
    Q = np.random.default_rng(3).uniform(-1, 1, (50, robot.nq))
    model = linkdyn.load(example("seed001-fourbar.yaml"))
    for _ in range(200):
        linkdyn.crba(robot, data, Q)
        linkdyn.kinematics(model, steps=12)["coupler.angle"]
    before = resident_kib()
    for _ in range(5000):
        linkdyn.crba(robot, data, Q)
        column = linkdyn.kinematics(model, steps=12)["coupler.angle"]
    assert column.shape == (13,)
    assert resident_kib() - before < 2048


def test_errors_in_a_loop_leak_nothing():
    robot = linkdyn.load_robot(example("robots/iiwa14.urdf"))
    data = robot.create_data()
    bad = np.zeros(3)

    def fail_twice():
        try:
            linkdyn.rnea(robot, data, bad, bad, bad)
        except ValueError:
            pass
        try:
            linkdyn.load("/nonexistent/model.yaml")
        except linkdyn.InputError as e:
            assert e.file == "/nonexistent/model.yaml"

    for _ in range(1000):
        fail_twice()
    before = resident_kib()
    for _ in range(20000):
        fail_twice()
    assert resident_kib() - before < 2048
