"""The planar API: every analysis equals the command line's CSV on every shipped example (to the
last digit written), models from dicts and changed copies, results as numpy without copies."""
import gc
import json
import math
import os

import numpy as np
import pytest

import linkdyn
from conftest import TEST_DATA, assert_same_as_csv, example, planar_examples, run_cli

# Each analysis: the command line's arguments and the same call from Python.
ANALYSES = {
    "kinematics": (["kinematics"], lambda m: linkdyn.kinematics(m)),
    "kinetostatics": (["kinetostatics"], lambda m: linkdyn.kinetostatics(m)),
    "kinetostatics-frictionless": (["kinetostatics", "--no-friction"],
                                   lambda m: linkdyn.kinetostatics(m, friction=False)),
    "reduce": (["reduce", "--points", "90"], lambda m: linkdyn.reduce(m, points=90)),
    "simulate": (["simulate", "--t-end", "0.3", "--steps", "60"], lambda m: linkdyn.simulate(m, t_end=0.3, steps=60)),
    "simulate-kane": (["simulate", "--method", "kane", "--t-end", "0.2", "--steps", "20", "--reactions"],
                      lambda m: linkdyn.simulate(m, method="kane", t_end=0.2, steps=20, reactions=True)),
    "flex": (["flex", "--steps", "24", "--no-response"], lambda m: linkdyn.flex(m, steps=24)),
}


@pytest.mark.parametrize("analysis", sorted(ANALYSES))
@pytest.mark.parametrize("name", planar_examples())
def test_every_analysis_equals_the_command_lines_csv(name, analysis, tmp_path):
    cli_args, call = ANALYSES[analysis]
    path = example(name + ".yaml")
    code, output = run_cli(cli_args + [path, "--csv", "out.csv"], tmp_path)
    model = linkdyn.load(path)
    if code == 0:
        assert_same_as_csv(call(model), tmp_path / "out.csv")
        return
    # The command line refused (exit 2: bad input, 3: the analysis cannot proceed): Python raises
    # the matching exception, with the same message.
    expected = linkdyn.InputError if code == 2 else linkdyn.AnalysisError
    assert code in (2, 3), output
    with pytest.raises(expected) as raised:
        call(model)
    assert str(raised.value) in output


def test_result_columns_are_views_of_the_table_with_units(fourbar):
    kin = linkdyn.kinematics(fourbar, steps=36)
    assert len(kin) == 37 and kin.columns[0] == "t" and kin.units["t"] == "s"
    assert kin.units["coupler.angle"] == "rad" and kin.units["B.vx"] == "m/s"
    angle = kin["coupler.angle"]
    assert angle.dtype == np.float64 and angle.shape == (37,)
    assert np.shares_memory(angle, kin.values), "a column is a view, not a copy"
    assert not angle.flags.writeable
    np.testing.assert_array_equal(angle, kin.values[:, kin.columns.index("coupler.angle")])
    assert "coupler.angle" in kin and "nothing" not in kin
    with pytest.raises(KeyError):
        kin["nothing"]
    kept = angle.copy()
    del kin  # the column keeps the table alive
    gc.collect()
    for _ in range(20):  # reuse freed memory, were the table gone
        linkdyn.kinetostatics(fourbar, steps=36)
    np.testing.assert_array_equal(angle, kept)


def test_to_pandas_when_pandas_is_installed(fourbar):
    pandas = pytest.importorskip("pandas")
    frame = linkdyn.kinematics(fourbar, steps=12).to_pandas()
    assert isinstance(frame, pandas.DataFrame) and frame.shape[0] == 13


def test_a_model_from_its_dict_gives_the_same_results(fourbar):
    description = fourbar.to_dict()
    assert list(description["bodies"]) == ["crank", "coupler", "rocker"]  # the file's order
    again = linkdyn.Model.from_dict(json.loads(json.dumps(description)))
    a, b = linkdyn.kinetostatics(fourbar, steps=36), linkdyn.kinetostatics(again, steps=36)
    assert a.columns == b.columns
    np.testing.assert_array_equal(a.values, b.values)


def test_with_changes_returns_a_changed_copy(fourbar):
    heavier = fourbar.with_changes({"bodies.coupler.mass": 40.0})
    assert heavier.to_dict()["bodies"]["coupler"]["mass"] == 40.0
    assert fourbar.to_dict()["bodies"]["coupler"]["mass"] == 30.0, "the original is unchanged"
    # No gravity in this model: the added mass changes the coupler's inertial forces only. Their
    # work over a turn at constant speed is the change of kinetic energy, zero: the driver's
    # frictionless work over the cycle stays while its torque changes.
    a = linkdyn.kinetostatics(fourbar, friction=False)
    b = linkdyn.kinetostatics(heavier, friction=False)
    change = np.abs(b["crank_drive.torque"] - a["crank_drive.torque"])
    assert change.max() > 1.0
    scale = np.trapz(change * 10.0, a["t"])  # the work of |torque change| at 10 rad/s
    assert abs(b.info["driver_work"] - a.info["driver_work"]) < 1e-9 * scale


def test_with_changes_names_a_missing_entry(fourbar):
    with pytest.raises(KeyError, match="bodies.wheel"):
        fourbar.with_changes({"bodies.wheel.mass": 1.0})


def test_a_bad_value_is_an_input_error_naming_the_entity(fourbar):
    with pytest.raises(linkdyn.InputError) as raised:
        fourbar.with_changes({"bodies.crank.mass": -1.0})
    assert "crank" in str(raised.value) and "(changed)" in str(raised.value)
    assert raised.value.entity and raised.value.line == 0, "no line of a JSON text the user never saw"
    assert isinstance(raised.value, linkdyn.Error)


def test_a_model_that_does_not_assemble_is_an_analysis_error(fourbar):
    # A coupler too short to close the loop anywhere.
    short = fourbar.with_changes({"bodies.coupler.points.C": [0.2, 0.0]})
    with pytest.raises(linkdyn.AnalysisError) as raised:
        linkdyn.kinematics(short)
    assert "assemble" in str(raised.value) or "close" in str(raised.value)


def test_model_file_errors_are_input_errors_with_file_and_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nbodies:\n  crank: {mass: 1, inertia: 1, points: {A: [0, 0]}}\njoints: [\n")
    with pytest.raises(linkdyn.InputError) as raised:
        linkdyn.load(bad)
    assert raised.value.file == str(bad) and raised.value.line > 0


def test_steady_regime_repeats_and_simulating_from_it_closes_the_cycle():
    model = linkdyn.load(example("seed001-fourbar-motor.yaml"))
    s = linkdyn.steady_regime(model)
    assert s["period"] > 0 and s["qd_min"] <= s["mean_speed"] <= s["qd_max"]
    run = linkdyn.simulate(model, qd0=s["qd0"], current0=s["current0"], t_end=s["period"], steps=50)
    speed = run["crank_drive.omega"]
    assert abs(speed[-1] - speed[0]) < 1e-6 * abs(speed[0])


def test_a_method_not_chosen_falls_back_to_kane_where_the_reduced_tables_cannot_be_built():
    rocker = os.path.join(TEST_DATA, "triple-rocker-spring.yaml")  # does not assemble over a whole turn
    run = linkdyn.simulate(rocker, q0=math.radians(40), qd0=0.0, t_end=1.0, steps=10)
    assert run.info["method"] == "kane"
    assert "cannot tabulate" in run.info["method_note"]
    kane = linkdyn.simulate(rocker, method="kane", q0=math.radians(40), qd0=0.0, t_end=1.0, steps=10)
    np.testing.assert_array_equal(run["rock.angle"], kane["rock.angle"])
    assert kane.info["method_note"] == ""
    with pytest.raises(linkdyn.AnalysisError, match="does not assemble"):
        linkdyn.simulate(rocker, method="reduced", q0=math.radians(40), qd0=0.0, t_end=1.0, steps=10)
    lift = linkdyn.simulate(os.path.join(TEST_DATA, "scissor-lift.yaml"), q0=0.5, qd0=0.0, t_end=0.5, steps=10)
    assert lift.info["method"] == "reduced" and lift.info["method_note"] == ""


def test_kinematics_info_holds_the_design_numbers_of_the_command_lines_json():
    design = linkdyn.kinematics(example("seed001-fourbar.yaml")).info["design"]
    rocker = next(o for o in design["outputs"] if o["name"] == "rocker")
    assert rocker["kind"] == "swing" and math.isclose(math.degrees(rocker["travel"]), 93.383211593, rel_tol=1e-9)
    assert math.isclose(rocker["time_ratio"], 1.219423242447, rel_tol=1e-9)
    assert design["four_bars"][0]["type"] == "crank-rocker"


def test_kinetostatics_info_holds_each_drivers_peak_and_rms_effort_with_and_without_friction():
    motor = linkdyn.kinetostatics(example("scotch-yoke.yaml")).info["driver_efforts"]["motor"]
    # T = 1.5 (1 - cos 2 theta) + 0.05 sin 2 theta without friction (tests/planar/test_kinetostatics.cpp)
    assert math.isclose(motor["rms_frictionless"], math.sqrt(1.5 ** 2 + (1.5 ** 2 + 0.05 ** 2) / 2), rel_tol=1e-12)
    assert motor["rms"] > motor["rms_frictionless"] and motor["peak"] > motor["peak_frictionless"]


def test_simulation_energy_balance_closes():
    run = linkdyn.simulate(example("seed001-fourbar-motor.yaml"), t_end=0.5, steps=50, rtol=1e-11)
    assert abs(run.info["energy_residual"]) < 1e-7 * sum(abs(w) for w in run.info["actuator_work"])
    np.testing.assert_allclose(run["energy.residual"][-1], run.info["energy_residual"], rtol=0, atol=1e-12)


def test_flex_response_of_the_pump(tmp_path):
    model = linkdyn.load(example("seed004-pump.yaml"))
    response = linkdyn.flex_response(model, steps=36)
    link = response.info["link"]
    assert f"{link}.mid.w" in response and response.units[f"{link}.mid.w"] == "m"
    assert np.all(np.isfinite(response[f"{link}.mid.w"]))
    with pytest.raises(ValueError, match="no elastic link"):
        linkdyn.flex_response(model, link="nothing", steps=12)


def test_report_writes_the_html(fourbar, tmp_path):
    path = tmp_path / "fourbar.html"
    linkdyn.report(fourbar, path, steps=36)
    text = path.read_text()
    assert text.startswith("<!DOCTYPE html>") and "seed001-fourbar" in text


def test_report_shows_the_steady_cycle_or_the_start_up_as_the_command_line(tmp_path):
    press = linkdyn.load(example("toggle-press.yaml"))
    path = tmp_path / "press.html"
    linkdyn.report(press, path, steps=72, dynamics="steady")
    assert "steady regime: period" in path.read_text()
    linkdyn.report(press, path, steps=72, dynamics="start-up", t_end=0.25)
    text = path.read_text()
    assert "start-up from rest" in text and "until t = 0.25 s" in text
    with pytest.raises(linkdyn.InputError, match="start-up"):
        linkdyn.report(press, path, dynamics="steady", t_end=0.25)
    linkdyn.report(press, path, steps=72, along=[("T", math.pi / 2)])
    assert "T along 90 deg" in path.read_text()
    with pytest.raises(linkdyn.InputError, match="is not a tracked point"):
        linkdyn.report(press, path, steps=72, along=[("nowhere", 0.0)])
    with pytest.raises(linkdyn.InputError, match="not a choice"):
        linkdyn.report(press, path, dynamics="later")


def test_bad_arguments_are_value_errors(fourbar):
    with pytest.raises(ValueError, match="method"):
        linkdyn.simulate(fourbar, method="euler")
    with pytest.raises(ValueError, match="points"):
        linkdyn.reduce(fourbar, points=2)
    with pytest.raises(TypeError):
        linkdyn.kinematics(42)
    with pytest.raises(ValueError, match="not finite"):
        linkdyn.simulate(example("seed001-fourbar-motor.yaml"), qd0=math.inf)


def test_a_path_works_where_a_model_does():
    a = linkdyn.kinematics(example("seed001-fourbar.yaml"), steps=12)
    b = linkdyn.kinematics(linkdyn.load(os.path.join(os.path.dirname(example("x")), "seed001-fourbar.yaml")), steps=12)
    np.testing.assert_array_equal(a.values, b.values)


def test_bad_options_are_refused_with_the_entity(fourbar):
    motor = example("seed001-fourbar-motor.yaml")
    for options in ({"rtol": -1.0}, {"atol": 0.0}, {"table_points": -3}, {"table_tolerance": -1e-3},
                    {"current0": [1.0, 2.0, 3.0]}, {"t_end": -1.0}):
        with pytest.raises(linkdyn.InputError, match="simulation"):
            linkdyn.simulate(motor, **options)
    for steps in (-5, 0, 2.5):
        with pytest.raises(ValueError, match="steps"):
            linkdyn.kinematics(fourbar, steps=steps)


def test_a_loaded_model_is_the_file_as_read_wherever_the_work_goes(tmp_path, monkeypatch):
    model_file = tmp_path / "table.yaml"
    model_file.write_text(open(example("fourbar-table.yaml")).read())
    for name in ("fourbar-table.csv", "fourbar-table-load.csv"):
        (tmp_path / name).write_text(open(example(name)).read())
    monkeypatch.chdir(tmp_path)
    model = linkdyn.load("table.yaml")  # relative path, relative table files
    before = linkdyn.kinematics(model, steps=24).values.copy()
    model_file.write_text(model_file.read_text().replace("name:", "name: edited_after_load\nold_name:", 1))
    monkeypatch.chdir("/")
    again = model.with_changes({})
    assert again.name == model.name, "the model as loaded, not the file as edited since"
    np.testing.assert_array_equal(linkdyn.kinematics(again, steps=24).values, before)


def test_model_json_types_scalars_as_the_parser_reads_them(tmp_path):
    path = tmp_path / "scalars.yaml"
    path.write_text("a: 1e3\nb: .5\nc: -3\nd: 0x10\ne: True\nf: true\ng: '5'\nh: 30 deg\ni: !!str 7\nj: ~\n"
                    "k: +5\nl: [1, x]\nm: {n: 2}\n")
    description = json.loads(linkdyn._linkdyn.model_file_as_json(str(path)))
    assert description == {"a": 1000.0, "b": 0.5, "c": -3, "d": "0x10", "e": "True", "f": True, "g": "5",
                           "h": "30 deg", "i": "7", "j": None, "k": 5, "l": [1, "x"], "m": {"n": 2}}
    assert list(description) == list("abcdefghijklm"), "the file's order"


def test_a_duplicated_entry_is_refused_naming_both_lines(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text(open(example("seed001-fourbar.yaml")).read().replace("    mass: 4.8", "    mass: 4.8\n    mass: 9.9"))
    with pytest.raises(linkdyn.InputError, match=r"'mass' in 'crank': is defined twice .* lines 12 and 13"):
        linkdyn.load(path)


def test_numpy_values_and_any_text_in_changes(fourbar):
    heavier = fourbar.with_changes({"bodies.coupler.mass": np.float32(40.0), "bodies.crank.com": np.array([1.0, 0.0]),
                                    "description": "Viergelenk \u00e4 \U0001F600"})
    assert heavier.to_dict()["bodies"]["coupler"]["mass"] == 40.0
    linkdyn.kinematics(heavier, steps=12)


def test_a_cylinders_columns_give_its_length_speed_force_power_and_pressure():
    excavator = linkdyn.load(example("excavator.yaml"))
    kin = linkdyn.kinematics(excavator, steps=40)
    assert kin.units["stick_cylinder.length"] == "m" and kin.units["stick_cylinder.speed"] == "m/s"
    assert kin["stick_cylinder.length"][0] == pytest.approx(2.3077, abs=1e-12)
    np.testing.assert_allclose(kin["stick_cylinder.speed"], 0.2468, rtol=1e-12)
    ks = linkdyn.kinetostatics(excavator, steps=40)
    force, speed = ks["stick_cylinder.force"], ks["stick_cylinder.speed"]
    np.testing.assert_allclose(ks["stick_cylinder.power"], force * speed, rtol=1e-14)
    piston, annulus = math.pi * 0.140**2 / 4, math.pi * (0.140**2 - 0.100**2) / 4
    expected = np.where(force >= 0, force / piston, -force / annulus)
    assert ks.units["stick_cylinder.pressure"] == "Pa"
    np.testing.assert_allclose(ks["stick_cylinder.pressure"], expected, rtol=1e-14)
