"""The robot API: rnea, crba and aba equal the C++ results the command line writes; the
functions agree with each other (aba inverts rnea, M from rnea's columns, the Jacobian is the
derivative of the pose, the energies); batched calls equal the loop, on several threads too."""
import numpy as np
import pytest

import linkdyn
from conftest import example, read_csv, run_cli

ROBOTS = ["iiwa14.urdf", "puma560.yaml", "dual-iiwa14.urdf", "quadruped.urdf", "panda.urdf"]


def robot_and_states(name, count=6, seed=1):
    robot = linkdyn.load_robot(example("robots/" + name))
    rng = np.random.default_rng(seed)
    dq = rng.uniform(-1.0, 1.0, (count, robot.nv))
    q = np.array([_integrate(robot, robot.neutral_configuration(), d) for d in dq])
    v = rng.uniform(-1.0, 1.0, (count, robot.nv))
    a = rng.uniform(-1.0, 1.0, (count, robot.nv))
    return robot, q, v, a


def _integrate(robot, q0, dq):
    """q0 moved by dq: joint coordinates added; a free-flyer's position added, its quaternion
    turned by the rotation vector (x, y, z, w order after the position)."""
    if robot.nq == robot.nv:
        return q0 + dq
    q = q0.copy()
    q[:3] += dq[:3]
    angle = np.linalg.norm(dq[3:6])
    axis = dq[3:6] / angle
    q[3:7] = np.concatenate([axis * np.sin(angle / 2), [np.cos(angle / 2)]])
    q[7:] += dq[6:]
    return q


def states_from_csv(path, robot, suffixes):
    header, rows = read_csv(path)
    rows = np.array(rows)
    out = []
    for suffix, names in suffixes:
        out.append(rows[:, [header.index(f"{n}.{suffix}") for n in names]])
    return rows[:, 0], out


def test_rnea_equals_the_command_lines_inverse_dynamics(tmp_path):
    states = example("robots/iiwa14-trajectory.csv")
    code, output = run_cli(["robot", "id", example("robots/iiwa14.urdf"), "--states", states, "--csv", "id.csv"],
                           tmp_path)
    assert code == 0, output
    robot = linkdyn.load_robot(example("robots/iiwa14.urdf"))
    _, (q, v, a) = states_from_csv(states, robot, [("q", robot.q_names), ("qd", robot.v_names),
                                                  ("qdd", robot.v_names)])
    _, (tau,) = states_from_csv(tmp_path / "id.csv", robot, [("tau", robot.v_names)])
    data = robot.create_data()
    np.testing.assert_array_equal(linkdyn.rnea(robot, data, q, v, a), tau)
    for k in range(len(q)):
        np.testing.assert_array_equal(linkdyn.rnea(robot, data, q[k], v[k], a[k]), tau[k])


def test_aba_and_crba_equal_the_command_lines_forward_dynamics_and_mass_matrix(tmp_path):
    fd_states = example("robots/iiwa14-fd-states.csv")
    robot = linkdyn.load_robot(example("robots/iiwa14.urdf"))
    data = robot.create_data()
    code, output = run_cli(["robot", "fd", example("robots/iiwa14.urdf"), "--states", fd_states, "--csv", "fd.csv"],
                           tmp_path)
    assert code == 0, output
    _, (q, v, tau) = states_from_csv(fd_states, robot, [("q", robot.q_names), ("qd", robot.v_names),
                                                        ("tau", robot.v_names)])
    _, (qdd,) = states_from_csv(tmp_path / "fd.csv", robot, [("qdd", robot.v_names)])
    np.testing.assert_array_equal(linkdyn.aba(robot, data, q, v, tau), qdd)
    states = example("robots/iiwa14-trajectory.csv")
    code, output = run_cli(["robot", "mass-matrix", example("robots/iiwa14.urdf"), "--states", states, "--csv",
                            "m.csv"], tmp_path)
    assert code == 0, output
    header, rows = read_csv(tmp_path / "m.csv")
    _, (q,) = states_from_csv(states, robot, [("q", robot.q_names)])
    M = linkdyn.crba(robot, data, q)
    n = robot.nv
    for r, row in enumerate(rows):
        np.testing.assert_array_equal(M[r], np.array(row[1:]).reshape(n, n))


@pytest.mark.parametrize("name", ROBOTS)
def test_aba_inverts_rnea_and_the_mass_matrix_is_rneas_columns(name):
    robot, q, v, a = robot_and_states(name)
    data = robot.create_data()
    tau = linkdyn.rnea(robot, data, q, v, a, friction=False)
    np.testing.assert_allclose(linkdyn.aba(robot, data, q, v, tau, friction=False), a, rtol=0, atol=1e-9)
    np.testing.assert_allclose(linkdyn.aba(robot, data, q, v, tau, method="crba", friction=False), a, rtol=0,
                               atol=1e-9)
    M = linkdyn.crba(robot, data, q)
    bias = linkdyn.rnea(robot, data, q, v, np.zeros_like(a), friction=False)
    np.testing.assert_allclose(np.einsum("nij,nj->ni", M, a) + bias, tau, rtol=0, atol=1e-9 * np.abs(tau).max())
    np.testing.assert_allclose(M, np.transpose(M, (0, 2, 1)), rtol=0, atol=1e-12 * np.abs(M).max())
    g = linkdyn.gravity(robot, data, q)
    np.testing.assert_allclose(g, linkdyn.rnea(robot, data, q, 0 * v, 0 * a, friction=False, load=False), rtol=0,
                               atol=1e-12 * (1 + np.abs(g).max()))


@pytest.mark.parametrize("name", ROBOTS)
def test_batched_calls_equal_the_loop_on_every_thread_count(name):
    robot, q, v, a = robot_and_states(name, count=37)
    data = robot.create_data()
    one = np.array([linkdyn.rnea(robot, data, q[k], v[k], a[k]) for k in range(len(q))])
    for threads in (1, 2, 5):
        np.testing.assert_array_equal(linkdyn.rnea(robot, data, q, v, a, threads=threads), one)
        np.testing.assert_array_equal(linkdyn.crba(robot, data, q, threads=threads),
                                      np.array([linkdyn.crba(robot, data, x) for x in q]))
        np.testing.assert_array_equal(linkdyn.jacobian(robot, data, q, threads=threads),
                                      np.array([linkdyn.jacobian(robot, data, x) for x in q]))


def test_jacobian_is_the_derivative_of_the_pose():
    robot, q, _, _ = robot_and_states("iiwa14.urdf", count=1)
    data = robot.create_data()
    q = q[0]
    J = linkdyn.jacobian(robot, data, q)
    h = 1e-6
    for j in range(robot.nv):
        dq = np.zeros(robot.nv)
        dq[j] = h
        plus = linkdyn.forward_kinematics(robot, data, q + dq)
        minus = linkdyn.forward_kinematics(robot, data, q - dq)
        velocity = (plus[:3, 3] - minus[:3, 3]) / (2 * h)
        dR = (plus[:3, :3] - minus[:3, :3]) / (2 * h)
        R = linkdyn.forward_kinematics(robot, data, q)[:3, :3]
        W = dR @ R.T  # [omega x]
        omega = np.array([W[2, 1], W[0, 2], W[1, 0]])
        np.testing.assert_allclose(J[:3, j], velocity, atol=1e-8)
        np.testing.assert_allclose(J[3:, j], omega, atol=1e-8)


def test_acceleration_energies_and_torque_derivatives():
    robot, q, v, a = robot_and_states("iiwa14.urdf", count=1)
    data = robot.create_data()
    q, v, a = q[0], v[0], a[0]
    M = linkdyn.crba(robot, data, q)
    # Order 0: the kinetic energy v' M v / 2.
    assert linkdyn.acceleration_energy(robot, q, np.array([v]), order=0) == pytest.approx(0.5 * v @ M @ v, rel=1e-12)
    # Order 1 (Appell's function): its gradient in a is the inertial force M a + c(q, v).
    def appell(acc):
        return linkdyn.acceleration_energy(robot, q, np.array([v, acc]), order=1)
    h = 1e-3
    gradient = np.array([(appell(a + h * e) - appell(a - h * e)) / (2 * h) for e in np.eye(robot.nv)])
    inertial = linkdyn.rnea(robot, data, q, v, a, gravity=False, friction=False, load=False)
    np.testing.assert_allclose(gradient, inertial, rtol=0, atol=1e-8 * np.abs(inertial).max())
    # tau at the instant equals rnea's; dtau/dt is rnea's rate along the motion.
    jerk, snap = np.ones(robot.nv) * 0.3, np.ones(robot.nv) * -0.2
    tau, dtau, ddtau = linkdyn.torque_derivatives(robot, data, q, np.array([v, a, jerk, snap]), friction=False)
    np.testing.assert_allclose(tau, linkdyn.rnea(robot, data, q, v, a, friction=False), rtol=0, atol=1e-10)
    dt = 1e-5
    def tau_at(s):
        return linkdyn.rnea(robot, data, q + v * s + a * s * s / 2 + jerk * s ** 3 / 6, v + a * s + jerk * s * s / 2,
                            a + jerk * s, friction=False)
    np.testing.assert_allclose(dtau, (tau_at(dt) - tau_at(-dt)) / (2 * dt), rtol=0, atol=1e-6 * np.abs(dtau).max())
    assert ddtau.shape == (robot.nv,)


def test_simulate_robot_keeps_the_energy_of_a_free_motion():
    robot, q, v, _ = robot_and_states("iiwa14.urdf", count=1)
    data = robot.create_data()
    run = linkdyn.simulate_robot(robot, data, q[0], v[0], np.zeros(robot.nv), t_end=1.0, steps=50, rtol=1e-11,
                                 atol=1e-11, friction=False)
    energy = run["kinetic_energy"] + run["potential_energy"]
    assert np.abs(energy - energy[0]).max() < 1e-7 * (1 + abs(energy[0]))
    assert run.columns[:2] == ["t", robot.q_names[0] + ".q"]


def test_simulate_robot_with_a_controller_holds_a_pose():
    # tau = g(q) + Kp (q* - q) - Kd v from a Python function: the arm settles at q*.
    robot = linkdyn.load_robot(example("robots/iiwa14.urdf"))
    data = robot.create_data()
    target = np.linspace(0.1, 0.7, robot.nv)
    control = robot.create_data()

    def law(t, q, v):
        return linkdyn.gravity(robot, control, q) + 400.0 * (target - q) - 40.0 * v

    run = linkdyn.simulate_robot(robot, data, np.zeros(robot.nv), np.zeros(robot.nv), law, t_end=3.0, steps=30,
                                 friction=False)
    final = np.array([run[f"{n}.q"][-1] for n in robot.q_names])
    np.testing.assert_allclose(final, target, atol=1e-3)


def test_wrong_shapes_and_foreign_data_are_value_errors():
    robot = linkdyn.load_robot(example("robots/iiwa14.urdf"))
    data = robot.create_data()
    q = np.zeros(robot.nq)
    with pytest.raises(ValueError, match=r"q: expected shape \(7,\) or \(N, 7\), got \(6,\)"):
        linkdyn.rnea(robot, data, np.zeros(6), q, q)
    with pytest.raises(ValueError, match="v: 3 state"):
        linkdyn.rnea(robot, data, np.zeros((2, 7)), np.zeros((3, 7)), np.zeros((2, 7)))
    with pytest.raises(ValueError, match="another robot"):
        linkdyn.rnea(robot, linkdyn.load_robot(example("robots/puma560.yaml")).create_data(), q, q, q)
    with pytest.raises(ValueError, match="another robot"):  # the same size, another robot
        linkdyn.rnea(robot, linkdyn.load_robot(example("robots/panda.urdf")).create_data(), q, q, q)
    with pytest.raises(ValueError, match="frame"):
        linkdyn.jacobian(robot, data, q, frame="nowhere")
    with pytest.raises(ValueError):
        linkdyn.rnea(robot, data, "abc", q, q)
    with pytest.raises(ValueError, match="threads"):
        linkdyn.rnea(robot, data, np.zeros((3, 7)), np.zeros((3, 7)), np.zeros((3, 7)), threads=0)


def test_robot_file_errors_are_input_errors(tmp_path):
    with pytest.raises(linkdyn.InputError):
        linkdyn.load_robot(tmp_path / "missing.urdf")
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='x'><link name='a'/><joint name='j' type='revolute'><parent link='a'/>"
                   "<child link='b'/></joint></robot>")
    with pytest.raises(linkdyn.InputError):
        linkdyn.load_robot(bad)


def test_energies_and_torque_derivatives_batched_equal_the_loop():
    robot, q, v, a = robot_and_states("iiwa14.urdf", count=9)
    data = robot.create_data()
    derivatives = np.stack([v, a, 0.5 * a, -0.5 * a], axis=1)  # (N, 4, nv)
    energies = linkdyn.acceleration_energy(robot, q, derivatives[:, :2], order=1, threads=2)
    assert energies.shape == (9,)
    tau, dtau, ddtau = linkdyn.torque_derivatives(robot, data, q, derivatives, threads=3)
    for k in range(len(q)):
        assert energies[k] == linkdyn.acceleration_energy(robot, q[k], derivatives[k, :2], order=1)
        one = linkdyn.torque_derivatives(robot, data, q[k], derivatives[k])
        for batch, single in zip((tau, dtau, ddtau), one):
            np.testing.assert_array_equal(batch[k], single)


def test_lists_work_as_arrays():
    robot = linkdyn.load_robot(example("robots/iiwa14.urdf"))
    data = robot.create_data()
    zeros = [0.0] * robot.nv
    np.testing.assert_array_equal(linkdyn.rnea(robot, data, zeros, zeros, zeros),
                                  linkdyn.gravity(robot, data, np.zeros(robot.nv)) +
                                  linkdyn.rnea(robot, data, zeros, zeros, zeros, gravity=False))


def test_empty_batches_many_threads_and_every_batched_function():
    robot, q, v, a = robot_and_states("iiwa14.urdf", count=23)
    data = robot.create_data()
    empty = np.zeros((0, robot.nv))
    assert linkdyn.rnea(robot, data, empty, empty, empty).shape == (0, robot.nv)
    assert linkdyn.crba(robot, data, empty).shape == (0, robot.nv, robot.nv)
    tau = linkdyn.rnea(robot, data, q, v, a)
    for threads in (2, 64):  # more threads than rows and than the machine has
        np.testing.assert_array_equal(linkdyn.aba(robot, data, q, v, tau, threads=threads),
                                      linkdyn.aba(robot, data, q, v, tau))
        np.testing.assert_array_equal(linkdyn.gravity(robot, data, q, threads=threads), linkdyn.gravity(robot, data, q))
        np.testing.assert_array_equal(linkdyn.forward_kinematics(robot, data, q, threads=threads),
                                      linkdyn.forward_kinematics(robot, data, q))


def test_a_batch_releases_the_gil():
    # Another Python thread counts while a long batch runs: it makes progress only if the batch
    # released the interpreter.
    import threading
    robot, _, _, _ = robot_and_states("iiwa14.urdf", count=1)
    data = robot.create_data()
    Q = np.random.default_rng(5).uniform(-1, 1, (400000, robot.nv))
    count, running = [0], [True]

    def counter():
        while running[0]:
            count[0] += 1

    thread = threading.Thread(target=counter)
    thread.start()
    start = count[0]
    linkdyn.rnea(robot, data, Q, Q, Q)
    during = count[0] - start
    running[0] = False
    thread.join()
    assert during > 1000


def test_a_controllers_error_comes_back_as_itself():
    robot = linkdyn.load_robot(example("robots/iiwa14.urdf"))
    data = robot.create_data()

    def law(t, q, v):
        raise ZeroDivisionError("from the controller")

    with pytest.raises(ZeroDivisionError, match="from the controller"):
        linkdyn.simulate_robot(robot, data, np.zeros(robot.nv), np.zeros(robot.nv), law, t_end=0.1, steps=2)
    with pytest.raises(linkdyn.InputError, match="positive tolerances"):
        linkdyn.simulate_robot(robot, data, np.zeros(robot.nv), np.zeros(robot.nv), np.zeros(robot.nv), rtol=-1)


def test_bytes_and_path_objects_as_file_names():
    import pathlib
    a = linkdyn.load_robot(example("robots/iiwa14.urdf").encode())
    b = linkdyn.load_robot(pathlib.Path(example("robots/iiwa14.urdf")))
    assert a.nv == b.nv == 7
