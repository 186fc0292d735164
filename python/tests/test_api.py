"""The package's surface: every public name documented and in the type stub; the examples run."""
import inspect
import os
import re
import subprocess
import sys

import linkdyn
from conftest import EXAMPLES

STUB = os.path.join(os.path.dirname(linkdyn.__file__), "__init__.pyi")


def described(item):
    """The docstring's text (for a compiled function: after pybind11's signature line)."""
    doc = item.__doc__ or ""
    if not inspect.isfunction(item) and not inspect.isclass(item) and doc.startswith(item.__name__ + "("):
        doc = doc.split("\n", 1)[1] if "\n" in doc else ""
    return doc.strip()


def parameters(item):
    """The names of a function's parameters (compiled: from pybind11's signature line)."""
    if inspect.isfunction(item):
        return list(inspect.signature(item).parameters)
    return re.findall(r"(\w+): ", item.__doc__.split("\n", 1)[0])


def test_every_public_function_has_a_docstring_with_its_arguments():
    for name in linkdyn.__all__:
        item = getattr(linkdyn, name)
        assert len(described(item)) > 20, f"linkdyn.{name} has no docstring"
        if inspect.isfunction(item):  # the Python layer's functions: each argument described
            for argument in inspect.signature(item).parameters:
                if argument not in ("model", "robot", "data", "path"):
                    assert argument in item.__doc__, f"linkdyn.{name}: argument {argument} not described"


def test_the_stub_declares_every_public_name_with_its_parameters():
    stub = open(STUB).read()
    for name in linkdyn.__all__:
        assert re.search(rf"^(def|class) {name}\b", stub, re.M), f"{name} missing from {STUB}"
        item = getattr(linkdyn, name)
        if inspect.isclass(item):
            continue
        declaration = re.search(rf"^def {name}\((.*?)\) ->", stub, re.M | re.S).group(1)
        stub_parameters = re.findall(r"(\w+):", declaration)
        assert stub_parameters == parameters(item), f"{name}: the stub's parameters differ"
    # Model.from_dict's too.
    declaration = re.search(r"def from_dict\((.*?)\) ->", stub, re.S).group(1)
    assert re.findall(r"(\w+):", declaration) == list(inspect.signature(linkdyn.Model.from_dict).parameters)


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


def test_the_tour_in_docs_python_md_runs(monkeypatch, tmp_path):
    # Every ```python block of the tour, in order, from the project's root (pandas lines only
    # when pandas is installed; the report written into a temporary folder).
    root = os.path.dirname(os.path.abspath(EXAMPLES))
    monkeypatch.chdir(root)
    text = open(os.path.join(root, "docs", "python.md")).read()
    try:
        import pandas  # noqa: F401
        has_pandas = True
    except ImportError:
        has_pandas = False
    namespace = {}
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        block = re.sub(r'"(\w+\.html)"', lambda m: repr(str(tmp_path / m.group(1))), block)  # every report
        lines = [line for line in block.splitlines() if has_pandas or "to_pandas" not in line]
        exec("\n".join(lines), namespace)  # noqa: S102 - the documentation's own examples
    assert "TAU" in namespace and namespace["TAU"].shape == (100000, 7)
    assert (tmp_path / "fourbar.html").exists() and (tmp_path / "press.html").exists()
