"""linkdyn: kinematics and dynamics of mechanisms, from Python and numpy.

Planar mechanisms (model files, as the ``linkdyn`` command line)::

    import linkdyn
    model = linkdyn.load("examples/seed001-fourbar.yaml")
    kin = linkdyn.kinematics(model, steps=360)       # kin["coupler.angle"] -> numpy array
    ks = linkdyn.kinetostatics(model, steps=360)      # ks.columns, ks.units, ks.values
    sim = linkdyn.simulate(model, method="reduced", t_end=2.0)

Robots, in the Model/Data style of Pinocchio::

    robot = linkdyn.load_robot("examples/robots/iiwa14.urdf")
    data = robot.create_data()
    tau = linkdyn.rnea(robot, data, q, v, a)        # one state, or one per row (N x n)

Every result is a numpy array; tables have the columns, units and numbers of the CSV files the
command line writes. Units are SI (angles in rad). Errors are linkdyn.InputError (bad model:
file, line, entity, fix) and linkdyn.AnalysisError (an analysis that cannot proceed), both
linkdyn.Error.
"""

import copy as _copy
import json as _json
import os as _os

from . import _linkdyn
from ._linkdyn import AnalysisError, Data, Error, InputError, Robot, Table
# The robot functions are the compiled ones themselves (no Python layer: a call costs what
# pybind11 costs).
from ._linkdyn import (aba, acceleration_energy, crba, forward_kinematics, gravity, jacobian, load_robot, rnea,
                       torque_derivatives)

__version__ = _linkdyn.__version__

__all__ = [
    "Error", "InputError", "AnalysisError", "Model", "Result", "Robot", "Data", "Table",
    "load", "kinematics", "kinetostatics", "reduce", "simulate", "steady_regime", "flex", "flex_response",
    "report", "load_robot", "rnea", "crba", "aba", "gravity", "forward_kinematics", "jacobian",
    "acceleration_energy", "torque_derivatives", "simulate_robot",
]


class Result:
    """A table of results: ``result["name"]`` is a column (a read-only numpy array sharing the
    table's memory), ``columns`` and ``units`` name them as in the CSV file, ``values`` is the
    whole (rows, columns) array, ``info`` the analysis' summary (a dict)."""

    def __init__(self, table, info):
        self.table = table
        self.info = dict(info)

    @property
    def columns(self):
        """The column names, as in the CSV header."""
        return self.table.columns

    @property
    def units(self):
        """The SI unit of each column, by name."""
        return dict(zip(self.table.columns, self.table.units))

    @property
    def values(self):
        """The (rows, columns) float64 array (read-only, no copy)."""
        return self.table.values

    def __getitem__(self, name):
        return self.table.column(name)

    def __contains__(self, name):
        return name in self.table.columns

    def __len__(self):
        return len(self.table)

    def __repr__(self):
        return f"<linkdyn.Result {len(self)} rows x {len(self.columns)} columns>"

    def to_pandas(self):
        """A pandas DataFrame of the table (needs pandas)."""
        import pandas  # optional: imported only here

        return pandas.DataFrame(self.values.copy(), columns=self.columns)


class Model:
    """A planar mechanism with what its model file describes (drivers, loads, actuators,
    elastic links): immutable. Made by :func:`load` or :meth:`Model.from_dict`;
    :meth:`with_changes` gives a changed copy without files."""

    def __init__(self, compiled, source=None, base_dir=None):
        self._compiled = compiled
        self._source = source  # the model as a dict, when known
        self._base_dir = base_dir

    @classmethod
    def from_dict(cls, description, base_dir=None, name="<dict>"):
        """A model from a dict with the structure of the YAML file (docs/model-format.md).
        File names in it (load tables) are relative to ``base_dir`` (default: the current
        folder); ``name`` stands for the file in error messages. Raises InputError naming the
        entity and the fix (no line number: there is no file)."""
        base_dir = _os.path.abspath(base_dir or _os.getcwd())
        text = _json.dumps(description, indent=1, ensure_ascii=False, default=_json_value)
        where = _os.path.join(base_dir, name)
        try:
            compiled = _linkdyn.parse_model(text, where)
        except InputError as error:  # its line counts in the JSON text: the entity names the place
            raise _without_line(error, where) from None
        return cls(compiled, _copy.deepcopy(description), base_dir)

    def to_dict(self):
        """The model as a dict with the structure of its YAML file (a copy)."""
        return _copy.deepcopy(self._source)

    def with_changes(self, changes):
        """A new model with entries changed: ``{"bodies.crank.mass": 5.0,
        "joints.A.friction": 0.1}`` (dotted paths into the model's dict; a list item by its
        index). The model itself is unchanged."""
        description = self.to_dict()
        for path, value in changes.items():
            keys = path.split(".")
            node = description
            for depth, key in enumerate(keys[:-1]):
                node = _child(node, key, ".".join(keys[: depth + 1]), path)
            last = keys[-1]
            if isinstance(node, list):
                node[_index(node, last, path)] = value
            elif isinstance(node, dict):
                node[last] = value
            else:
                raise KeyError(f"{path}: '{'.'.join(keys[:-1])}' is a value, not a section")
        base = self._base_dir
        name = _os.path.basename(self.path)
        return Model.from_dict(description, base, name if name.endswith(" (changed)") else name + " (changed)")

    @property
    def path(self):
        """The model file (or "<dict>" in its base folder)."""
        return self._compiled.path

    @property
    def name(self):
        return self._compiled.name

    @property
    def dof(self):
        """Degrees of freedom (number of drivers)."""
        return self._compiled.dof

    @property
    def structure(self):
        """The structural sequence: drivers and Assur groups, e.g. "R(crank) + RRR(B,C,D)"."""
        return self._compiled.structure

    @property
    def drivers(self):
        return self._compiled.drivers

    @property
    def bodies(self):
        """The moving bodies' names."""
        return self._compiled.bodies

    @property
    def actuators(self):
        return self._compiled.actuators

    def __repr__(self):
        return f"<linkdyn.Model '{self.name}': {self.structure}>"


def _without_line(error, where):
    """The same InputError without the line number of a text the user never saw."""
    message = str(error).replace(f"{where}:{error.line}", where)
    plain = InputError(message)
    plain.file, plain.line, plain.entity = error.file, 0, error.entity
    return plain


def _json_value(value):
    """numpy scalars and arrays (a sweep's values) as JSON numbers and lists."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{value!r} ({type(value).__name__}) is not a number, text, list or dict")


def _child(node, key, where, path):
    if isinstance(node, list):
        return node[_index(node, key, path)]
    if not isinstance(node, dict) or key not in node:
        raise KeyError(f"{path}: the model has no '{where}'")
    return node[key]


def _index(node, key, path):
    try:
        k = int(key)
    except ValueError:
        raise KeyError(f"{path}: '{key}' is not an index of a list") from None
    if not -len(node) <= k < len(node):
        raise KeyError(f"{path}: index {k} out of a list of {len(node)}")
    return k


def load(path):
    """Reads a model file (YAML, docs/model-format.md): the mechanism, its loads, actuators,
    constraint actions and elastic links. Raises InputError (file, line, entity, fix)."""
    path = _os.fsdecode(path)
    compiled = _linkdyn.read_model(path)
    # The file as read now (later edits of the file do not change the model), and where its
    # relative file names point (wherever the working folder goes later).
    source = _json.loads(_linkdyn.model_file_as_json(path))
    return Model(compiled, source, _os.path.dirname(_os.path.abspath(path)))


def _model(model):
    if isinstance(model, Model):
        return model._compiled
    if isinstance(model, (str, _os.PathLike)):
        return load(model)._compiled
    raise TypeError("model: a linkdyn.Model or the path of a model file")


def _steps(steps):
    """The step count of an analysis: None for the model's, else at least 1."""
    if steps is None:
        return 0
    if int(steps) != steps or steps < 1:
        raise ValueError(f"steps: a whole number of at least 1 (or None for the model's), not {steps!r}")
    return int(steps)


def kinematics(model, steps=None, singular_tol=1e-7):
    """Positions, velocities and accelerations over the drivers' motion (``linkdyn kinematics``).

    steps: positions over the model's motion (default: the model's). singular_tol: a group whose
    conditioning (sine of its transmission angle) is below it is at a dead point. Returns a
    Result: t, the drivers' coordinates, per body angle/omega/alpha (rad, rad/s, rad/s^2), per
    point x/y/vx/vy/ax/ay (m, m/s, m/s^2), singular, transmission angles; info: the sweep's
    intervals and events."""
    return Result(*_linkdyn.kinematics(_model(model), _steps(steps), singular_tol))


def kinetostatics(model, steps=None, friction=True, tol=1e-3, max_iterations=100):
    """Driver efforts, pair reactions and friction power at each position (``linkdyn
    kinetostatics``).

    steps: positions (default: the model's). friction: Coulomb friction in the pairs, solved by
    successive approximations [001] until no reaction changes by more than ``tol`` (N), at most
    ``max_iterations`` (beyond: the position is flagged near self-locking). Returns a Result
    (efforts in N m or N, reactions in N, powers in W); info: cycle works (J), mean driver
    power (W), efficiency (NaN without useful loads). Raises AnalysisError when the friction
    iterations converge nowhere, InputError when a useful load does no work."""
    return Result(*_linkdyn.kinetostatics(_model(model), _steps(steps), friction, tol, max_iterations))


def reduce(model, points=360):
    """Reduced inertia m(q), dm/dq and constraint-action parameters of a one-DOF mechanism by
    Eksergian's method [003] (``linkdyn reduce``), by the kinetic energy and by kinetostatics.

    points: intervals over the driver's range (a turn for a crank)."""
    return Result(*_linkdyn.reduce(_model(model), points))


def _simulate_args(method, integrator, t0, t_end, steps, rtol, atol, friction, reactions, kinematics, q0, qd0,
                   current0, table_tolerance, table_points, stop_q, rigid_links=False, elastic_modes=4):
    a = _linkdyn.SimulateArgs()
    a.method, a.integrator, a.t0, a.t_end, a.steps = method, integrator, float(t0), float(t_end), int(steps)
    a.rtol, a.atol = float(rtol), float(atol)
    a.friction, a.reactions, a.kinematics = bool(friction), bool(reactions), bool(kinematics)
    a.q0, a.qd0, a.stop_q = q0, qd0, stop_q
    a.current0 = [float(c) for c in (current0 or [])]
    a.table_tolerance, a.table_points = float(table_tolerance), int(table_points)
    a.rigid_links, a.elastic_modes = bool(rigid_links), int(elastic_modes)
    return a


def simulate(model, method="auto", integrator="rkf78", t0=0.0, t_end=1.0, steps=1000, rtol=1e-10, atol=1e-12,
             friction=True, reactions=False, kinematics=True, q0=None, qd0=None, current0=None,
             table_tolerance=0.0, table_points=0, stop_q=None, rigid_links=False, elastic_modes=4):
    """Direct dynamics of the machine under its actuators and loads (``linkdyn simulate``).

    method: "reduced" (one DOF, Eksergian's reduced model [003]), "full" (the constrained
    mechanism), "kane" (Kane's equations [004], any DOF) or "auto" (reduced for one DOF where
    its tables converge, else kane; info["method"] says which ran, info["method_note"] why). integrator: "rkf78" or "dopri5".
    t0, t_end (s); steps: output rows - 1; rtol, atol: the integration's tolerances. friction:
    Coulomb friction in the pairs; reactions: every pair's reaction at each row; kinematics:
    every body's and point's columns. q0, qd0: the first coordinate's initial state (default:
    the driver's law at t0); current0: the motors' initial currents (A). table_tolerance,
    table_points: the reduced method's table (its relative interpolation error, or a fixed
    number of intervals; default rtol / 10). stop_q: stop when q reaches it. With "kane" or
    "full" the model's elastic links act on the motion, each on ``elastic_modes`` modes at rest (0: every
    dof of its beam), unless ``rigid_links``. Returns a Result with the CLI's columns; info:
    events, steps, right-hand sides, final state, works and energy balance (J). Raises AnalysisError when the run cannot go on (a dead point, the
    mechanism leaves its range)."""
    args = _simulate_args(method, integrator, t0, t_end, steps, rtol, atol, friction, reactions, kinematics, q0, qd0,
                          current0, table_tolerance, table_points, stop_q, rigid_links, elastic_modes)
    return Result(*_linkdyn.simulate(_model(model), args))


def steady_regime(model, qd_guess=None, method="auto", integrator="rkf78", rtol=1e-10, atol=1e-12, friction=True,
                  q0=None, t0=0.0, table_tolerance=0.0, table_points=0):
    """The periodic (steady) regime of a one-DOF machine: the speed and currents at q0 that
    repeat one turn later, by Newton's method on the cycle map from ``qd_guess`` (default: the
    driver's law at t0). method, integrator, rtol, atol, friction, table_tolerance,
    table_points: as in :func:`simulate`; q0, t0: where the cycle starts. Returns a dict: qd0,
    current0, period (s), mean_speed, qd_min, qd_max, fluctuation, actuator_work per cycle (J),
    iterations. Raises AnalysisError when Newton's method does not converge."""
    args = _simulate_args(method, integrator, t0, t0 + 1.0, 1, rtol, atol, friction, False, False, q0, None, None,
                          table_tolerance, table_points, None)
    return _linkdyn.steady_regime(_model(model), args, qd_guess)


def flex(model, steps=None, modes=4, gyroscopic=True, friction=True):
    """Elastic links: the natural frequencies of each link's beam model along the cycle [004]
    (``linkdyn flex``) at ``steps`` positions, ``modes`` per link; gyroscopic: also the
    gyroscopic (quadratic) eigenproblem; friction: the end forces from kinetostatics with
    friction. Returns a Result: per link omega, epsilon, axial force and for k = 1..modes
    lambda<k> (1/s^2) and f<k> (Hz), with the gyroscopic problem fg<k>, sigma<k>."""
    return Result(*_linkdyn.flex_modes(_model(model), _steps(steps), modes, gyroscopic, friction))


def flex_response(model, link=None, steps=None, substeps=20, from_rest=False, friction=True):
    """The elastodynamic response of an elastic link (``link``, default the first) along the
    cycle at ``steps`` positions (Newmark, ``substeps`` per position; the steady periodic one
    unless ``from_rest``; friction: the end forces with friction): mid-span and end
    deflections and every node's w, u (m); info: the periodicity error."""
    return Result(*_linkdyn.flex_response(_model(model), link or "", _steps(steps), substeps, from_rest, friction))


def report(model, path, steps=None, friction=True, dynamics="auto", t_end=None, along=(), method="auto", rtol=1e-9):
    """Writes the self-contained HTML report (``linkdyn report``) to ``path``: animation and
    the plots of every analysis at ``steps`` positions (default: the model's); friction: the
    kinetostatics with friction. dynamics (a one-DOF machine with actuators): "auto" (the
    steady cycle when one exists, else the start-up), "steady" (an error without one) or
    "start-up" (from rest until t_end, s; default 5 times the analysis grid's duration, at
    least 1 s), as ``--steady``, ``--start-up``, ``--t-end``. along: (point, angle in rad)
    pairs whose signed motion along the direction is plotted, as ``--along POINT:ANGLE``.
    method, rtol: the direct dynamics' method and tolerance, as ``simulate``'s."""
    _linkdyn.report(_model(model), _os.fsdecode(path), _steps(steps), friction, dynamics,
                    float("nan") if t_end is None else float(t_end), [(str(p), float(a)) for p, a in along],
                    method, float(rtol))


def simulate_robot(robot, data, q0, v0, tau, t_end=1.0, steps=100, rtol=1e-10, atol=1e-10, integrator="dopri5",
                   method="aba", gravity=True, friction=True, load=True):
    """Time simulation of M qdd + h = tau from (q0, v0) over t_end (s), ``steps`` rows after the
    first: tau constant (nv) or a function tau(t, q, v) (a controller). integrator: "dopri5"
    or "rkf78", to rtol, atol; method: forward dynamics by "aba" or "crba"; gravity, friction,
    load: the terms included. Returns a Result: t, <q>.q, <v>.qd, <v>.qdd, <v>.tau,
    kinetic_energy, potential_energy (``linkdyn robot simulate``'s columns)."""
    return Result(*_linkdyn._simulate_robot(robot, data, q0, v0, tau, t_end, steps, rtol, atol, integrator, method,
                                            gravity, friction, load))
