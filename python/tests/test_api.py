"""The package's surface: every public name documented and in the type stub; the examples run."""
import inspect
import os
import re
import subprocess
import sys

import linkdyn
from conftest import EXAMPLES

STUB = os.path.join(os.path.dirname(linkdyn.__file__), "__init__.pyi")


def test_every_public_function_has_a_docstring_with_its_arguments():
    for name in linkdyn.__all__:
        item = getattr(linkdyn, name)
        assert item.__doc__ and len(item.__doc__) > 20, f"linkdyn.{name} has no docstring"
        if inspect.isfunction(item):  # the Python layer's functions: each argument described
            for argument in inspect.signature(item).parameters:
                if argument not in ("model", "robot", "data", "path"):
                    assert argument in item.__doc__, f"linkdyn.{name}: argument {argument} not described"


def test_the_stub_declares_every_public_name():
    stub = open(STUB).read()
    for name in linkdyn.__all__:
        assert re.search(rf"^(def|class) {name}\b", stub, re.M), f"{name} missing from {STUB}"


def run_example(script, tmp_path, *args):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(linkdyn.__file__))))
    done = subprocess.run([sys.executable, os.path.join(EXAMPLES, "python", script), *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_fourbar_friction_example_writes_its_png(tmp_path):
    output = run_example("fourbar_friction.py", tmp_path, "torque.png")
    png = tmp_path / "torque.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10000
    assert "lost to friction" in output


def test_coupler_sweep_example(tmp_path):
    output = run_example("coupler_sweep.py", tmp_path)
    assert output.count("\n") >= 10 and "does not assemble" in output


def test_panda_inverse_dynamics_example(tmp_path):
    output = run_example("panda_inverse_dynamics.py", tmp_path, "panda.png")
    assert "panda_joint4" in output and (tmp_path / "panda.png").exists()
