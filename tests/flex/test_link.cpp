// Elastic links in a mechanism: the model file section, the coupling to kinematics and
// kinetostatics (checked against the beam's own distributed inertia), a crank as the rotating
// cantilever of elastic-links.md, and the Newmark response against closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <tuple>

#include "linkdyn/flex/internal_forces.hpp"
#include "linkdyn/flex/link.hpp"
#include "linkdyn/flex/modal.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/result_tables.hpp"

namespace linkdyn::flex {
namespace {

/// A four-bar whose rocker DC is a uniform steel bar (mass rho A L, centre at mid-length,
/// inertia m L^2 / 12), so the kinetostatic end forces balance the beam's distributed inertia.
std::string fourbar(const std::string& elastic, const std::string& gravity = "[0, -9.81]") {
  const double rho = 7850.0, A = 4.0e-4, L = 0.30, mass = rho * A * L;
  return "name: fourbar-elastic\n"
         "ground: {A: [0, 0], D: [0.40, 0]}\n"
         "bodies:\n"
         "  crank: {mass: 0.5, inertia: 0.001, com: [0.05, 0], points: {A: [0, 0], B: [0.10, 0]}}\n"
         "  coupler: {mass: 1.0, inertia: 0.01, com: [0.17, 0], points: {B: [0, 0], C: [0.35, 0]}}\n"
         "  rocker: {mass: " +
         std::to_string(mass) + ", inertia: " + std::to_string(mass * L * L / 12.0) +
         ", com: [0.15, 0], points: {D: [0, 0], C: [0.30, 0]}}\n"
         "joints:\n"
         "  A: {type: revolute, bodies: [ground, crank]}\n"
         "  B: {type: revolute, bodies: [crank, coupler]}\n"
         "  C: {type: revolute, bodies: [coupler, rocker]}\n"
         "  D: {type: revolute, bodies: [ground, rocker]}\n"
         "drivers:\n"
         "  motor: {type: rotational, joint: A, law: {type: constant_speed, speed: 600 rpm, steps: 72}}\n"
         "assembly:\n"
         "  C: {near: [0.35, 0.25]}\n"
         "gravity: " +
         gravity +
         "\n"
         "loads:\n"
         "  press: {type: force, body: coupler, point: C, value: [0, -200]}\n" +
         elastic;
}

const std::string rocker_link =
    "elastic_links:\n"
    "  rocker_beam:\n"
    "    body: rocker\n"
    "    from: D\n"
    "    to: C\n"
    "    E: 210e9\n"
    "    rho: 7850\n"
    "    A: 4.0e-4\n"
    "    I: 1.0e-9\n"
    "    elements: 8\n"
    "    supports: [pinned, sliding]\n";

/// A model's compiled mechanism and its elastic links.
struct Linked {
  planar::Mechanism m;
  std::vector<ElasticLinkSpec> specs;
  std::vector<ElasticLink> links() const { return make_elastic_links(m, specs); }
};

Linked compile_text(const std::string& text) {
  io::Model model = io::parse_model(text, "fourbar-elastic.yaml");
  return {planar::compile(model.mechanism), std::move(model.elastic_links)};
}

TEST(ElasticLinkModel, SectionIsReadWithItsSupportsAndEnds) {
  const Linked model = compile_text(fourbar(rocker_link));
  ASSERT_EQ(model.specs.size(), 1u);
  const ElasticLinkSpec& s = model.specs[0];
  EXPECT_EQ(s.name, "rocker_beam");
  EXPECT_EQ(s.elements, 8);
  EXPECT_EQ(s.supports[1], BeamSupport::sliding);
  EXPECT_TRUE(s.geometric_stiffness);
  const std::vector<ElasticLink> links = model.links();
  ASSERT_EQ(links.size(), 1u);
  EXPECT_NEAR(links[0].beam.length, 0.30, 1e-15);
  EXPECT_EQ(links[0].end_joints[0].size(), 1u);  // D
  EXPECT_EQ(links[0].end_joints[1].size(), 1u);  // C
}

TEST(ElasticLinkModel, ABodyThatBendsTakesItsInertiaFromTheBeamOrMustAgreeWithIt) {
  // The rocker as the model writes it (rho A L, mid-chord, m L^2 / 12) and with those entries
  // left out: the same body, to rounding.
  const double mass = 7850.0 * 4.0e-4 * 0.30;
  const Linked given = compile_text(fourbar(rocker_link));
  std::string text = fourbar(rocker_link);
  const size_t at = text.find("  rocker: {mass: ");
  text.replace(at, text.find("points:", at) - at, "  rocker: {");
  const Linked derived = compile_text(text);
  const planar::Body &a = given.m.bodies()[3], &b = derived.m.bodies()[3];
  EXPECT_NEAR(b.mass, mass, 1e-12);
  EXPECT_NEAR(b.inertia, mass * 0.09 / 12.0, 1e-12);
  EXPECT_NEAR((b.com - Vec2(0.15, 0.0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(a.mass, b.mass, 1e-6 * mass);
  // A mass that disagrees (the default 0 once made the axial force wrong without a word).
  std::string wrong = fourbar(rocker_link);
  const size_t value = wrong.find("  rocker: {mass: ") + 17;
  wrong.replace(value, wrong.find(',', value) - value, "0.5");
  try {
    compile_text(wrong);
    ADD_FAILURE() << "a rocker of 0.5 kg on a 0.942 kg beam was accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("body 'rocker': mass 0.5 kg differs from rho A L = 0.942 kg of its elastic link 'rocker_beam'"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("fourbar-elastic.yaml:6"), std::string::npos) << msg;
  }
}

TEST(ElasticLinkModel, ASteppedLinkTakesItsSegmentsSectionsAndItsBodyTheirInertia) {
  // The rocker (0.30 m) as a tube root of 0.12 m and a flat bar of 0.18 m: its beam has their
  // 4 + 6 elements and sections; its body's mass, centre and inertia are the two rods'; the
  // lengths must add up, and A or I beside segments is refused.
  std::string stepped = rocker_link;
  const std::string uniform = "    A: 4.0e-4\n    I: 1.0e-9\n    elements: 8\n";
  stepped.replace(stepped.find(uniform), uniform.size(),
                  "    segments:\n"
                  "      - {length: 120 mm, elements: 4, section: {shape: tube, outer: 20 mm, inner: 16 mm}}\n"
                  "      - {length: 0.18, elements: 6, section: {shape: rectangle, width: 20 mm, height: 6 mm}}\n");
  std::string text = fourbar(stepped);
  const std::string rocker_body =
      text.substr(text.find("  rocker: {"), text.find("joints:") - text.find("  rocker: {"));
  text.replace(text.find(rocker_body), rocker_body.size(), "  rocker: {points: {D: [0, 0], C: [0.30, 0]}}\n");
  const Linked model = compile_text(text);
  const ElasticLink link = model.links().front();
  ASSERT_EQ(link.beam.segments.size(), 2u);
  EXPECT_EQ(link.beam.elements, 10);
  const double tube = M_PI / 4.0 * (0.02 * 0.02 - 0.016 * 0.016), flat = 0.02 * 0.006;
  EXPECT_NEAR(link.beam.segments[0].section.A, tube, 1e-15);
  EXPECT_NEAR(link.beam.segments[1].section.I, 0.02 * std::pow(0.006, 3) / 12.0, 1e-20);
  EXPECT_GT(link.beam.segments[1].section.W, 0.0);
  const planar::Body& body = model.m.bodies()[link.body];
  const double m1 = 7850.0 * tube * 0.12, m2 = 7850.0 * flat * 0.18, x1 = 0.06, x2 = 0.21;
  const double com = (m1 * x1 + m2 * x2) / (m1 + m2);
  EXPECT_NEAR(body.mass, m1 + m2, 1e-12);
  EXPECT_NEAR(body.com.x(), com, 1e-12);
  EXPECT_NEAR(body.inertia,
              m1 * (0.12 * 0.12 / 12.0 + (x1 - com) * (x1 - com)) + m2 * (0.18 * 0.18 / 12.0 + (x2 - com) * (x2 - com)),
              1e-12);
  // Stresses at the step take the weaker side.
  const StressEnvelope envelope(link, InternalForceWorkspace(link.beam).forces.s);
  EXPECT_EQ(envelope.area(8), std::min(tube, flat));

  std::string short_text = text;
  short_text.replace(short_text.find("length: 0.18"), 12, "length: 0.17");
  try {
    (void)compile_text(short_text).links();
    FAIL() << "segments that fall short were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("its segments add up to 0.29 m, the link from 'D' to 'C' is 0.3 m long"),
              std::string::npos)
        << e.what();
  }
  std::string both = text;
  both.replace(both.find("    segments:"), 0, "    A: 1e-4\n");
  try {
    (void)compile_text(both);
    FAIL() << "A and segments were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gives A and segments"), std::string::npos) << e.what();
  }
}

TEST(ElasticLinkModel, AttachedMassesJoinTheBodysInertiaAndMustSitOnANode) {
  // A 0.2 kg tip mass (1e-5 kg m^2) at C on the rocker, body entries left out: the body's mass,
  // centre and inertia are the beam's and the mass's (parallel axes).
  const double bar = 7850.0 * 4.0e-4 * 0.30, tip = 0.2, J = 1e-5;
  std::string text = fourbar(rocker_link + "    masses: [{at: 300 mm, mass: 0.2, inertia: 1e-5}]\n");
  const size_t at = text.find("  rocker: {mass: ");
  text.replace(at, text.find("points:", at) - at, "  rocker: {");
  const Linked derived = compile_text(text);
  const planar::Body& b = derived.m.bodies()[3];
  const double com = (bar * 0.15 + tip * 0.30) / (bar + tip);
  EXPECT_NEAR(b.mass, bar + tip, 1e-12);
  EXPECT_NEAR(b.com.x(), com, 1e-12);
  EXPECT_NEAR(b.inertia, bar * (0.09 / 12.0 + std::pow(0.15 - com, 2)) + J + tip * std::pow(0.30 - com, 2), 1e-12);
  const std::vector<ElasticLink> links = derived.links();
  ASSERT_EQ(links[0].beam.node_masses.size(), 1u);
  EXPECT_EQ(links[0].beam.node_masses[0].node, 8);
  // Between nodes (8 elements of 37.5 mm): refused, naming the spacing.
  try {
    std::string between = text;
    between.replace(between.find("at: 300 mm"), 10, "at: 0.1");
    compile_text(between).links();
    ADD_FAILURE() << "a mass between nodes was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("a mass at 0.1 m is not at a node of its 8 elements (the nearest is at 0.1125 m"),
        std::string::npos)
        << e.what();
  }
}

TEST(ElasticLinkModel, BadSectionIsAnInputErrorNamingFileLineAndLink) {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      compile_text(fourbar(text));
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  const std::string unknown_support = error_of(
      "elastic_links:\n  lever: {body: rocker, from: D, to: C, E: 1, rho: 1, A: 1, I: 1, supports: [pinned, glued]}\n");
  EXPECT_NE(unknown_support.find("fourbar-elastic.yaml:20"), std::string::npos) << unknown_support;
  EXPECT_NE(unknown_support.find("elastic link 'lever'"), std::string::npos) << unknown_support;
  EXPECT_NE(unknown_support.find("glued"), std::string::npos) << unknown_support;
  EXPECT_NE(error_of("elastic_links:\n  lever: {body: rocker, from: D, to: X, E: 1, rho: 1, A: 1, I: 1, supports: "
                     "[pinned, pinned]}\n")
                .find("no point 'X'"),
            std::string::npos);
  EXPECT_NE(
      error_of(
          "elastic_links:\n  lever: {body: rocker, from: D, to: C, E: 1, rho: 1, A: 1, supports: [pinned, pinned]}\n")
          .find("'I'"),
      std::string::npos);
  EXPECT_NE(error_of("elastic_links:\n  lever: {body: rocker, from: D, to: C, E: 1, rho: 1, A: 1, I: -1, supports: "
                     "[pinned, pinned]}\n")
                .find("negative"),
            std::string::npos);
  EXPECT_NE(error_of(rocker_link + "    damping: {ratio: 1.5}\n").find("a damping ratio of 1 or more"),
            std::string::npos);
  EXPECT_NE(error_of(rocker_link + "    damping: {ratio: 0.02, beta: 1e-5}\n").find("a ratio and Rayleigh"),
            std::string::npos);
  // A ratio becomes Rayleigh coefficients on the link's beam.
  const std::vector<ElasticLink> damped = compile_text(fourbar(rocker_link + "    damping: {ratio: 0.05}\n")).links();
  EXPECT_GT(damped[0].beam.damping_alpha, 0.0);
  EXPECT_GT(damped[0].beam.damping_beta, 0.0);
  const Linked free_free = compile_text(fourbar(
      "elastic_links:\n  lever: {body: rocker, from: D, to: C, E: 1, rho: 7850, A: 4.0e-4, I: 1, supports: [free, "
      "free]}\n"));
  try {
    free_free.links();
    ADD_FAILURE() << "free-free accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fourbar-elastic.yaml:20"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rigid-body motion"), std::string::npos) << e.what();
  }
}

TEST(ElasticLinkCoupling, KinetostaticEndForcesBalanceTheBeamsDistributedInertiaAndWeight) {
  // Two independent routes: the pin reactions of the rigid kinetostatics, and the integral of
  // rho A (g - a(s)) along the beam from the frame motion (omega, epsilon, a_O).
  const Linked model = compile_text(fourbar(rocker_link));
  const planar::Mechanism& m = model.m;
  const std::vector<ElasticLink> links = model.links();
  const ElasticLink& link = links[0];
  planar::KinetostaticsOptions frictionless;
  frictionless.friction = false;
  RigidMotion rigid(m, frictionless);
  const double mu = link.beam.section.mass_per_length(), L = link.beam.length;
  double largest = 0.0;
  for (int k = 0; k < 72; ++k) {
    rigid.solve(k * 0.1 / 72.0);
    FrameMotion f;
    frame_motion(m, rigid.workspace(), link, f);
    // Forces: F0 + F1 + int rho A (g - a_O - eps J r + omega^2 r) ds = 0, r = (s, 0).
    const Vec2 inertia = mu * L * (f.gravity - f.origin_acceleration) +
                         mu * Vec2(0.5 * f.omega * f.omega * L * L, -0.5 * f.epsilon * L * L);
    const Vec2 residual = f.end_force[0] + f.end_force[1] + inertia;
    // Moment about the origin: L F1y + int s q_y ds = 0.
    const double moment = L * f.end_force[1].y() + mu * ((f.gravity.y() - f.origin_acceleration.y()) * L * L / 2.0 -
                                                         f.epsilon * L * L * L / 3.0);
    const double scale = f.end_force[0].norm() + f.end_force[1].norm();
    EXPECT_LT(residual.norm(), 1e-9 * scale) << "t step " << k;
    EXPECT_LT(std::abs(moment), 1e-9 * scale * L) << "t step " << k;
    const AxialForce p = axial_force(link.beam, f);
    EXPECT_NEAR(axial_at(link.beam, p, L), f.end_force[1].x(), 1e-9 * scale) << "the tension meets the far end's force";
    largest = std::max(largest, scale);
  }
  EXPECT_GT(largest, 50.0) << "the check is not trivial";
}

/// The gyroscopic problem's results of `other` against `reference`: frequencies within
/// `f_tolerance` (relative), real parts within `sigma_tolerance` of the largest circular frequency.
void expect_same_gyroscopic(const LinkModes& reference, const LinkModes& other, double f_tolerance,
                            double sigma_tolerance) {
  const double f_error = ((reference.gyroscopic_frequency - other.gyroscopic_frequency).array().abs() /
                          reference.gyroscopic_frequency.array().abs())
                             .maxCoeff();
  EXPECT_LT(f_error, f_tolerance);
  const double scale = 2.0 * M_PI * reference.gyroscopic_frequency.cwiseAbs().maxCoeff();
  EXPECT_LT((reference.gyroscopic_sigma - other.gyroscopic_sigma).cwiseAbs().maxCoeff(), sigma_tolerance * scale);
}

TEST(ElasticLinkCycle, GyroscopicProblemOnTwoUndampedModesPerModeIsTheFullProblemTo1e7AlongThePumpCycle) {
  // Modal truncation of the quadratic problem (a 16-state companion instead of 60): the wind
  // pump lever's damped frequencies and real parts along its cycle, against the full problem.
  const io::Model model = io::read_model(std::string(LINKDYN_EXAMPLES_DIR) + "/seed004-pump.yaml");
  const planar::Mechanism m = planar::compile(model.mechanism);
  const std::vector<ElasticLink> links = make_elastic_links(m, model.elastic_links);
  const planar::TimeGrid grid = m.default_grid();
  CycleOptions full{4, true, {}, 0}, projected{4, true, {}, 2};
  const EigenCycleResult a = eigen_cycle(m, links, grid, full), b = eigen_cycle(m, links, grid, projected);
  const LinkModes &la = a.links[0], &lb = b.links[0];
  ASSERT_EQ(la.gyroscopic_frequency.rows(), lb.gyroscopic_frequency.rows());
  expect_same_gyroscopic(la, lb, 1e-7, 1e-9);
  EXPECT_EQ(la.lambda, lb.lambda) << "the undamped problem is the same";
}

TEST(ElasticLinkCoupling, EndAtACompoundPinCarriesThePinsForceOnTheLink) {
  // The toggle press's upper link ends at the frame pin O and at the knuckle K, a pin of three
  // bodies: the force at K is the one the pin exerts on the link, the sum of its pairs'.
  const io::Model model = io::read_model(std::string(LINKDYN_EXAMPLES_DIR) + "/toggle-press.yaml");
  const planar::Mechanism m = planar::compile(model.mechanism);
  const std::vector<ElasticLink> links = make_elastic_links(m, model.elastic_links);
  ASSERT_EQ(links.size(), 1u);
  const ElasticLink& link = links[0];
  const int upper = m.spec().find_body("upper"), knuckle = m.spec().find_pin("K");
  EXPECT_EQ(link.end_joints[1].size(), 2u) << "both pairs of the pin that hold the link";
  RigidMotion rigid(m, {});
  double largest = 0.0;
  for (int k = 0; k < 48; ++k) {
    rigid.solve((k + 0.37) / 48.0);
    const planar::Workspace& ws = rigid.workspace();
    FrameMotion f;
    frame_motion(m, ws, link, f);
    const Vec2 axis = rotate(link.axis, ws.body[upper].c, ws.body[upper].s);
    const Vec2 at_k = planar::pin_force(m, ws, knuckle, m.pins()[knuckle].member(upper));
    const Vec2 at_o = ws.reaction[m.spec().find_joint("O")].force;  // ground on upper
    const Vec2 expected_k(axis.dot(at_k), cross(axis, at_k)), expected_o(axis.dot(at_o), cross(axis, at_o));
    EXPECT_LT((f.end_force[1] - expected_k).norm(), 1e-12 * at_k.norm()) << "step " << k;
    EXPECT_LT((f.end_force[0] - expected_o).norm(), 1e-12 * at_o.norm()) << "step " << k;
    largest = std::max(largest, at_k.norm());
  }
  EXPECT_GT(largest, 5e4);  // through the forming
}

/// A crank of one uniform bar turning at Omega, clamped at its pivot: E I = rho A = L = 1 so
/// that gamma = Omega; nearly inextensible (L / r = 1000).
std::string spinning_crank(double omega) {
  return "name: spinning-crank\n"
         "ground: {A: [0, 0]}\n"
         "bodies:\n"
         "  crank: {mass: 1.0, inertia: " +
         std::to_string(1.0 / 12.0) +
         ", com: [0.5, 0], points: {A: [0, 0], B: [1, 0]}}\n"
         "joints:\n"
         "  A: {type: revolute, bodies: [ground, crank]}\n"
         "drivers:\n"
         "  motor: {type: rotational, joint: A, law: {type: constant_speed, speed: " +
         std::to_string(omega) +
         ", steps: 8}}\n"
         "elastic_links:\n"
         "  blade: {body: crank, from: A, to: B, E: 1, rho: 1.0e-6, A: 1.0e6, I: 1, elements: 20, supports: [clamped, "
         "free]}\n";
}

TEST(ElasticLinkCoupling, SpinningCrankReproducesTheRotatingCantileverThroughKinetostatics) {
  for (const auto& [gamma, w1, w2] : {std::tuple{4.0, 3.8977, 23.9415}, std::tuple{10.0, 5.0490, 32.1197}}) {
    const Linked model = compile_text(spinning_crank(gamma));
    const planar::Mechanism& m = model.m;
    const std::vector<ElasticLink> links = model.links();
    const Table t = io::eigen_cycle_table(m, links, eigen_cycle(m, links, m.default_grid(), CycleOptions{2, true, {}}));
    for (size_t r = 0; r < t.rows(); ++r) {
      EXPECT_NEAR(t.at(r, t.column("blade.f1")) * 2.0 * M_PI, w1, 2e-4 * w1) << "gamma " << gamma;
      EXPECT_NEAR(t.at(r, t.column("blade.f2")) * 2.0 * M_PI, w2, 2e-4 * w2) << "gamma " << gamma;
      EXPECT_NEAR(t.at(r, t.column("blade.axial_force.mid")), 0.5 * gamma * gamma * (1.0 - 0.25), 1e-9 * gamma * gamma);
    }
  }
}

TEST(ElasticLinkCycle, TheAutomaticGyroscopicBasisIsUsedWhereTheLinkTurnsSlowlyAndAgreesWithTheFullProblem) {
  // The default: modes at rest (3 per asked mode) where |omega| <= 0.2 omega1 at rest and lambda1
  // is within 25 % of its value at rest. The pump's lever (0.04) and the 3200 rpm slider-crank's
  // rod (0.12) take it at every position and agree with the full problem (frequencies 1e-6,
  // real parts 1e-6 of the frequency); a cantilever spun at gamma = 10 (3 times omega1) never
  // takes it.
  struct Case {
    std::string name;
    Linked model;
    int expected_positions;  ///< -1: every one
  };
  std::vector<Case> cases;
  for (const char* example : {"seed004-pump", "fast-slider-crank-elastic"}) {
    const io::Model model = io::read_model(std::string(LINKDYN_EXAMPLES_DIR) + "/" + example + ".yaml");
    cases.push_back({example, {planar::compile(model.mechanism), model.elastic_links}, -1});
  }
  cases.push_back({"spinning cantilever", compile_text(spinning_crank(10.0)), 0});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const planar::Mechanism& m = c.model.m;
    const std::vector<ElasticLink> links = c.model.links();
    const planar::TimeGrid grid = m.default_grid();
    CycleOptions automatic{4, true, {}}, full{4, true, {}, 0};
    ASSERT_EQ(automatic.gyroscopic_basis_per_mode, -1) << "the default";
    const EigenCycleResult a = eigen_cycle(m, links, grid, automatic), b = eigen_cycle(m, links, grid, full);
    const LinkModes &la = a.links[0], &lb = b.links[0];
    EXPECT_EQ(la.basis_positions, c.expected_positions < 0 ? grid.steps + 1 : c.expected_positions);
    EXPECT_EQ(lb.basis_positions, 0);
    expect_same_gyroscopic(lb, la, 1e-6, 1e-6);
  }
}

// Newmark response against closed forms, on a standalone pinned-pinned beam.
const BeamSection bar{210e9, 7850.0, 2.0e-4, 1.0e-9};

TEST(ElasticResponse, SteadyResponseToUniformWeightIsTheStaticDeflection5qL4Over384EI) {
  const BeamModel beam = make_beam(bar, 0.5, 10, {BeamSupport::pinned, BeamSupport::sliding});
  const double g = 9.81;
  const MotionAt weight = [&](double, FrameMotion& f) {
    f = FrameMotion{};
    f.gravity = {0.0, -g};
  };
  const Response r = periodic_response(beam, weight, 0.0, 0.01, 200);
  const double q = bar.mass_per_length() * g, expected = -5.0 * q * std::pow(0.5, 4) / (384.0 * bar.E * bar.I);
  for (int k : {0, 100, 200}) {
    const double w = displacement_at(beam, r.displacement.col(k), 0.25).y();
    EXPECT_NEAR(w, expected, 1e-9 * std::abs(expected)) << "Hermite elements are nodally exact for a uniform load";
  }
  EXPECT_LT(r.periodicity_error, 1e-9);
}

TEST(ElasticResponse, PeriodicResponseToHarmonicBaseAccelerationMatchesTheFrequencyDomainSolution) {
  const BeamModel beam = make_beam(bar, 0.5, 10, {BeamSupport::pinned, BeamSupport::sliding});
  ModalWorkspace ws(beam);
  analyze_modes(beam, FrameMotion{}, ws, false);
  const double w1 = std::sqrt(ws.lambda(0)), forcing = 0.6 * w1, amplitude = 50.0, period = 2.0 * M_PI / forcing;
  const MotionAt shaking = [&](double t, FrameMotion& f) {
    f = FrameMotion{};
    f.origin_acceleration = {0.0, amplitude * std::sin(forcing * t)};
  };
  const Response r = periodic_response(beam, shaking, 0.0, period, 4000);
  // Frequency domain: (K - W^2 M) X = -[m_O] (0, A): d(t) = X sin(W t).
  const Eigen::VectorXd x = (beam.stiffness - forcing * forcing * beam.mass)
                                .lu()
                                .solve(-beam.translation_load * Eigen::Vector2d(0.0, amplitude));
  const double mid_amplitude = displacement_at(beam, x, 0.25).y();
  double largest_error = 0.0;
  for (int k = 0; k <= 4000; k += 50) {
    const double expected = mid_amplitude * std::sin(forcing * r.t[k]);
    largest_error =
        std::max(largest_error, std::abs(displacement_at(beam, r.displacement.col(k), 0.25).y() - expected));
  }
  EXPECT_LT(largest_error, 2e-5 * std::abs(mid_amplitude)) << "Newmark's error is O((W dt)^2)";
  EXPECT_LT(r.periodicity_error, 1e-7);
}

TEST(ElasticResponse, FromRestUnderASuddenWeightOscillatesAboutTheStaticDeflection) {
  const BeamModel beam = make_beam(bar, 0.5, 10, {BeamSupport::pinned, BeamSupport::sliding});
  ModalWorkspace ws(beam);
  analyze_modes(beam, FrameMotion{}, ws, false);
  const double period = 2.0 * M_PI / std::sqrt(ws.lambda(0));
  const MotionAt weight = [&](double, FrameMotion& f) {
    f = FrameMotion{};
    f.gravity = {0.0, -9.81};
  };
  const Response r = transient_response(beam, weight, 0.0, period, 2000);
  const double q = bar.mass_per_length() * 9.81, static_w = -5.0 * q * std::pow(0.5, 4) / (384.0 * bar.E * bar.I);
  // Mostly the first mode: w(T/2) ~ 2 w_static, back to ~0 at T (1.3 % of the load in higher modes).
  EXPECT_NEAR(displacement_at(beam, r.displacement.col(1000), 0.25).y(), 2.0 * static_w, 0.03 * std::abs(static_w));
  EXPECT_NEAR(displacement_at(beam, r.displacement.col(2000), 0.25).y(), 0.0, 0.03 * std::abs(static_w));
}

TEST(ElasticDamping, RayleighModesDecayAtTheClosedFormRateWithTheDampedFrequency) {
  // Proportional damping keeps the undamped modes: s_k = -zeta_k w_k + i w_k sqrt(1 - zeta_k^2),
  // zeta_k = alpha / (2 w_k) + beta w_k / 2.
  BeamModel beam = make_beam(bar, 0.5, 10, {BeamSupport::pinned, BeamSupport::sliding});
  std::tie(beam.damping_alpha, beam.damping_beta) = rayleigh_damping(beam, 0.02);
  ModalWorkspace ws(beam);
  analyze_modes(beam, FrameMotion{}, ws, true);
  for (int k = 0; k < 4; ++k) {
    const double w = std::sqrt(ws.lambda(k)), zeta = beam.damping_alpha / (2.0 * w) + beam.damping_beta * w / 2.0;
    if (k < 2) {
      EXPECT_NEAR(zeta, 0.02, 1e-12) << "the ratio asked for, at the first two modes";
    }
    EXPECT_NEAR(ws.gyroscopic(k).real(), -zeta * w, 1e-8 * w) << "mode " << k + 1;
    EXPECT_NEAR(ws.gyroscopic(k).imag(), w * std::sqrt(1.0 - zeta * zeta), 1e-8 * w) << "mode " << k + 1;
  }
}

TEST(ElasticDamping, AFreeVibrationAboutTheStaticDeflectionDecaysAsExpOfMinusZetaOmegaT) {
  // The sudden weight of the test above, with 2 % of damping in the first modes: the deviation
  // from the static deflection at its peaks (half periods) shrinks by exp(-zeta w1 t).
  BeamModel beam = make_beam(bar, 0.5, 10, {BeamSupport::pinned, BeamSupport::sliding});
  const double zeta = 0.02;
  std::tie(beam.damping_alpha, beam.damping_beta) = rayleigh_damping(beam, zeta);
  ModalWorkspace ws(beam);
  analyze_modes(beam, FrameMotion{}, ws, false);
  const double w1 = std::sqrt(ws.lambda(0)), damped_period = 2.0 * M_PI / (w1 * std::sqrt(1.0 - zeta * zeta));
  const MotionAt weight = [&](double, FrameMotion& f) {
    f = FrameMotion{};
    f.gravity = {0.0, -9.81};
  };
  const int per_period = 2000, periods = 10;
  const Response r = transient_response(beam, weight, 0.0, periods * damped_period, periods * per_period);
  const double q = bar.mass_per_length() * 9.81, static_w = -5.0 * q * std::pow(0.5, 4) / (384.0 * bar.E * bar.I);
  for (int p = 1; p <= periods; ++p) {
    const int k = p * per_period - per_period / 2;  // a peak: (p - 1/2) damped periods
    const double deviation = displacement_at(beam, r.displacement.col(k), 0.25).y() - static_w;
    const double expected = static_w * std::exp(-zeta * w1 * r.t[static_cast<size_t>(k)]);
    EXPECT_NEAR(deviation, expected, 0.01 * std::abs(static_w)) << "peak " << p;
  }
}

TEST(ElasticResponse, ALongSteadyResponseOfADampedLinkRepeatsTo1e7AndIsTheDampedFrequencyDomainSolution) {
  // 100000 Newmark steps: undamped, the high modes would keep the integration's rounding (the
  // wind pump at 20000 positions repeated only to 1.9e-5, once called resonance); with Rayleigh
  // damping (1 % in the first two modes) Newton's correction brings the state's repetition below
  // 1e-7 (8e-9 reached), and the response is (K - W^2 M + i W C) X = F to Newmark's accuracy.
  BeamModel beam = make_beam(bar, 0.5, 4, {BeamSupport::pinned, BeamSupport::sliding});
  std::tie(beam.damping_alpha, beam.damping_beta) = rayleigh_damping(beam, 0.01);
  ModalWorkspace ws(beam);
  analyze_modes(beam, FrameMotion{}, ws, false);
  const double w1 = std::sqrt(ws.lambda(0)), forcing = 0.3 * w1, amplitude = 50.0, period = 2.0 * M_PI / forcing;
  const MotionAt shaking = [&](double t, FrameMotion& f) {
    f = FrameMotion{};
    f.origin_acceleration = {0.0, amplitude * std::sin(forcing * t)};
  };
  const int steps = 100000;
  const Response r = periodic_response(beam, shaking, 0.0, period, steps);
  EXPECT_LT(r.periodicity_error, 1e-7);
  // F sin(W t) = Im(F e^{iWt}): d(t) = Im(X e^{iWt}).
  const Eigen::MatrixXcd dynamic =
      (beam.stiffness - forcing * forcing * beam.mass).cast<std::complex<double>>() +
      std::complex<double>(0.0, forcing) * (beam.damping_alpha * beam.mass + beam.damping_beta * beam.stiffness);
  const Eigen::VectorXcd x =
      dynamic.lu().solve((-beam.translation_load * Eigen::Vector2d(0.0, amplitude)).cast<std::complex<double>>());
  double largest_error = 0.0, largest = 0.0;
  for (int k = 0; k <= steps; k += 500) {
    const Eigen::VectorXd expected = (x * std::exp(std::complex<double>(0.0, forcing * r.t[k]))).imag();
    largest_error = std::max(largest_error, (r.displacement.col(k) - expected).cwiseAbs().maxCoeff());
    largest = std::max(largest, expected.cwiseAbs().maxCoeff());
  }
  EXPECT_LT(largest_error, 1e-7 * largest) << "Newmark's error is O((W dt)^2)";
}

TEST(ElasticResponse, AResponseStreamedInChunksIsTheWholeResponseRowForRowAndSoIsItsEnvelope) {
  // The fast slider-crank's rod, steady response at 36 positions: chunks of 7 rows handed over
  // as the final pass computes them, joined, equal the whole response value for value; the stress
  // envelope gathered chunk by chunk equals the one of the whole.
  const io::Model model = io::read_model(std::string(LINKDYN_EXAMPLES_DIR) + "/fast-slider-crank-elastic.yaml");
  const planar::Mechanism m = planar::compile(model.mechanism);
  const std::vector<ElasticLink> links = make_elastic_links(m, model.elastic_links);
  const planar::TimeGrid grid{0.0, 60.0 / 3200.0, 36};
  const ResponseOptions options{10, true, {}};
  const LinkResponse whole = link_response(m, links[0], grid, options);
  ASSERT_EQ(whole.t.size(), 37);
  std::vector<LinkResponse> chunks;
  const double error =
      link_response(m, links[0], grid, options, 7, [&](const LinkResponse& rows) { chunks.push_back(rows); });
  EXPECT_EQ(error, whole.periodicity_error);
  ASSERT_EQ(chunks.size(), 6u);  // 5 x 7 + 2
  StressEnvelope chunked(links[0], whole.station), at_once(links[0], whole.station);
  at_once.add(whole);
  Eigen::Index row = 0;
  for (const LinkResponse& c : chunks) {
    chunked.add(c);
    for (Eigen::Index k = 0; k < c.t.size(); ++k, ++row) {
      EXPECT_EQ(c.t(k), whole.t(row));
      EXPECT_EQ(c.node_w.row(k), whole.node_w.row(row));
      EXPECT_EQ(c.moment.row(k), whole.moment.row(row));
    }
  }
  EXPECT_EQ(row, 37);
  EXPECT_EQ(chunked.fibre_max[0], at_once.fibre_max[0]);
  EXPECT_EQ(chunked.m_min, at_once.m_min);
  EXPECT_EQ(chunked.sigma.value, at_once.sigma.value);
  EXPECT_GT(at_once.sigma.value, 1e7) << "the rod's stresses are tens of MPa";
}

}  // namespace
}  // namespace linkdyn::flex
