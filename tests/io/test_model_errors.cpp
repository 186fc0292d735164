// Bad input: one clear error naming the file, line, entity and the fix. One test per case.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "linkdyn/io/model_file.hpp"

using namespace linkdyn;

namespace {

// A valid four-bar; each test breaks one thing in it.
const std::string base = R"(name: test
ground:
  A: [0, 0]
  D: [4, 0]
bodies:
  crank:
    mass: 1
    inertia: 0.1
    points: {A: [0, 0], B: [1, 0]}
  coupler:
    mass: 2
    inertia: 0.5
    points: {B: [0, 0], C: [4, 0]}
  rocker:
    mass: 1
    inertia: 0.2
    points: {D: [0, 0], C: [3, 0]}
joints:
  A: {type: revolute, bodies: [ground, crank]}
  B: {type: revolute, bodies: [crank, coupler]}
  C: {type: revolute, bodies: [coupler, rocker]}
  D: {type: revolute, bodies: [ground, rocker]}
drivers:
  motor:
    type: rotational
    joint: A
    law: {type: constant_speed, speed: 1}
)";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

/// Expects an InputError at `line` whose message contains every fragment (the model read as
/// `path`: its tables are found beside it).
void expect_error(const std::string& text, int line, std::initializer_list<const char*> fragments,
                  const std::string& path = "bad.yaml") {
  try {
    (void)planar::compile(io::parse_planar_model(text, path));
    FAIL() << "no error for this input";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(e.where().file, path) << msg;
    EXPECT_EQ(e.where().line, line) << msg;
    for (const char* f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "'" << f << "' not in: " << msg;
  }
}

}  // namespace

TEST(ModelErrors, TheBaseModelIsValid) {
  const planar::Mechanism m = planar::compile(io::parse_planar_model(base, "ok.yaml"));
  EXPECT_EQ(m.structure_string(), "R_I(0,1) -> RRR_II(2,3)");
}

TEST(ModelErrors, UnknownBodyInAJoint) {
  expect_error(replace(base, "bodies: [crank, coupler]", "bodies: [crank, copuler]"), 20,
               {"joint 'B'", "unknown body 'copuler'", "defined under 'bodies'"});
}

TEST(ModelErrors, UnknownJointInADriver) {
  expect_error(replace(base, "joint: A", "joint: Z"), 26, {"driver 'motor'", "unknown joint 'Z'"});
}

TEST(ModelErrors, UnknownPointOfABody) {
  expect_error(replace(base, "points: {B: [0, 0], C: [4, 0]}", "points: {B: [0, 0], K: [4, 0]}"), 21,
               {"joint 'C'", "body 'coupler' has no point 'C'", "bodies.coupler.points"});
}

TEST(ModelErrors, MisspelledFieldSuggestsTheRightOne) {
  expect_error(replace(base, "    mass: 2\n", "    mas: 2\n"), 11,
               {"body 'coupler'", "unknown field 'mas'", "did you mean 'mass'"});
}

TEST(ModelErrors, MissingField) {
  expect_error(replace(base, "  C: {type: revolute, bodies: [coupler, rocker]}", "  C: {bodies: [coupler, rocker]}"),
               21, {"joint 'C'", "missing field 'type'"});
}

TEST(ModelErrors, MistypedNumber) {
  expect_error(replace(base, "inertia: 0.5", "inertia: heavy"), 12, {"body 'coupler'", "'heavy' is not a number"});
}

TEST(ModelErrors, WrongUnit) {
  expect_error(replace(base, "D: [4, 0]", "D: [4 deg, 0]"), 4,
               {"ground point 'D'", "unit 'deg' is not accepted", "m, mm, cm"});
}

TEST(ModelErrors, NegativeMass) {
  expect_error(replace(base, "mass: 2", "mass: -2"), 11, {"body 'coupler'", "mass is negative", "mass >= 0"});
}

TEST(ModelErrors, NegativeInertia) {
  expect_error(replace(base, "inertia: 0.2", "inertia: -0.2"), 16, {"body 'rocker'", "moment of inertia is negative"});
}

TEST(ModelErrors, ZeroLengthLink) {
  expect_error(replace(base, "points: {B: [0, 0], C: [4, 0]}", "points: {B: [0, 0], C: [0, 0]}"), 21,
               {"body 'coupler'", "same point", "zero length", "distinct coordinates"});
}

TEST(ModelErrors, BodyConnectedToNothing) {
  expect_error(replace(base, "joints:", "  loose:\n    mass: 1\njoints:"), 18,
               {"body 'loose'", "connected to nothing"});
}

TEST(ModelErrors, DegreesOfFreedomDifferFromDrivers) {
  // Remove the rocker's ground pivot: 3 x 3 - 2 x 3 = 3 DOF for 1 driver.
  expect_error(replace(base, "  D: {type: revolute, bodies: [ground, rocker]}\n", ""), 23,
               {"drivers", "3 degree(s) of freedom", "but 1 driver(s)", "add a driver"});
}

TEST(ModelErrors, DuplicateName) {
  expect_error(replace(base, "  rocker:\n", "  crank:\n"), 14, {"body 'crank'", "defined twice"});
}

TEST(ModelErrors, RotationalDriverOnAFloatingJoint) {
  expect_error(replace(base, "joint: A", "joint: B"), 26, {"driver 'motor'", "not a revolute joint to the ground"});
}

TEST(ModelErrors, NotYaml) { expect_error("bodies: [unclosed\n", 2, {"not valid YAML"}); }

TEST(ModelErrors, ThreePrismaticPairsAreNotADyad) {
  const std::string ppp = R"(ground: {O: [0, 0]}
bodies:
  crank: {points: {O: [0, 0]}}
  a: {points: {O: [0, 0]}}
  b: {points: {O: [0, 0]}}
joints:
  O: {type: revolute, bodies: [ground, crank]}
  p1: {type: prismatic, bodies: [crank, a], guide: {point: O, direction: 0 deg}}
  p2: {type: prismatic, bodies: [a, b], guide: {point: O, direction: 90 deg}}
  p3: {type: prismatic, bodies: [ground, b], guide: {point: O, direction: 45 deg}}
drivers:
  m: {type: rotational, joint: O, law: {type: constant_speed, speed: 1}}
)";
  expect_error(ppp, 9, {"three prismatic pairs", "make one of the pairs revolute"});
}

TEST(ModelErrors, TableFileWithBadRow) {
  const std::string dir = LINKDYN_TEST_DATA_DIR;
  try {
    (void)planar::compile(io::parse_planar_model(
        replace(base, "law: {type: constant_speed, speed: 1}", "law: {type: table, file: bad-table.csv}"),
        dir + "/model.yaml"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, dir + "/bad-table.csv");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_NE(std::string(e.what()).find("the first column does not increase"), std::string::npos) << e.what();
  }
}

TEST(ModelErrors, NegativeFrictionCoefficient) {
  expect_error(replace(base, "  C: {type: revolute, bodies: [coupler, rocker]}",
                       "  C: {type: revolute, bodies: [coupler, rocker], friction: {coefficient: -0.1, radius: 0.01}}"),
               21, {"joint 'C'", "friction coefficient is negative"});
}

TEST(ModelErrors, FrictionCoefficientAboveTen) {
  // Once accepted at 9e11: every position self-locked, the summary printed nan.
  expect_error(base + "friction:\n  revolute: {coefficient: 0.3, static: 40, radius: 5 mm}\n", 29,
               {"friction.revolute", "friction static 40 is above 10"});
}

TEST(ModelErrors, GearRatioBeyondAMillion) {
  expect_error(replace(base, "  D: {type: revolute, bodies: [ground, rocker]}\n",
                       "  D: {type: revolute, bodies: [ground, rocker]}\n  G: {type: gear, bodies: [crank, rocker], "
                       "ratio: 1e-300}\n"),
               23, {"joint 'G'", "gear ratio must be between 1e-6 and 1e6"});
}

TEST(ModelErrors, NegativePinRadius) {
  expect_error(base + "friction:\n  revolute: {coefficient: 0.1, radius: -5 mm}\n", 29,
               {"friction.revolute", "friction radius is negative", "radius >= 0"});
}

TEST(ModelErrors, AnUnknownFrictionFieldIsNamedByItsPath) {
  // Was "friction.prismatic.friction: unknown field 'radius'".
  expect_error(base + "friction:\n  prismatic: {coefficient: 0.1, radius: 5 mm}\n", 29,
               {"bad.yaml:29: friction.prismatic: unknown field 'radius'"});
  expect_error(replace(base, "  C: {type: revolute, bodies: [coupler, rocker]}",
                       "  C: {type: revolute, bodies: [coupler, rocker], friction: {coefficient: 0.1, length: 1}}"),
               21, {"joint 'C'.friction: unknown field 'length'"});
}

TEST(ModelErrors, ASpeedTooSlowForAFiniteSpanIsRefusedAtItsLine) {
  // Was "t = inf" from kinematics, without file and line, and exit 0 from check and simulate.
  expect_error(replace(base, "speed: 1}", "speed: 1e-308 rad/s}"), 27,
               {"bad.yaml:27: driver 'motor'", "at this speed one revolution takes", "beyond the 1e+12 s a time may be",
                "give a faster speed"});
}

TEST(ModelErrors, LoadOnAnUnknownPoint) {
  expect_error(base + "loads:\n  push: {type: force, body: coupler, point: Z, value: [0, -10]}\n", 29,
               {"load 'push'", "body 'coupler' has no point 'Z'"});
}

TEST(ModelErrors, LoadOnAnUnknownBody) {
  expect_error(base + "loads:\n  turn: {type: moment, body: rotor, value: 5}\n", 29,
               {"load 'turn'", "unknown body 'rotor'"});
}

TEST(ModelErrors, LoadOnTheGround) {
  expect_error(base + "loads:\n  turn: {type: moment, body: ground, value: 5}\n", 29, {"load 'turn'", "does no work"});
}

TEST(ModelErrors, NegativeSpringStiffness) {
  expect_error(base + "loads:\n  s: {type: spring, between: [crank.B, ground.D], stiffness: -1, free_length: 1}\n", 29,
               {"load 's'", "stiffness is negative"});
}

TEST(ModelErrors, PairResistanceInARevoluteJoint) {
  expect_error(base + "actuators:\n  rub: {type: resistance, joint: C, F0: 5}\n", 29,
               {"actuator 'rub'", "'C' is not a prismatic joint", "name a prismatic joint"});
}

TEST(ModelErrors, PairResistanceWithANegativeForce) {
  const std::string slider = replace(
      replace(base, "  D: {type: revolute, bodies: [ground, rocker]}",
              "  D: {type: prismatic, bodies: [ground, rocker], guide: {point: D, direction: 0 deg}, slider_point: C}"),
      "    points: {D: [0, 0], C: [3, 0]}", "    points: {C: [0, 0]}");
  expect_error(slider + "actuators:\n  rub: {type: resistance, joint: D, F0: -5}\n", 29,
               {"actuator 'rub'", "F0 is negative"});
}

namespace {

// A valid mechanism with a compound pin: the crank's tip B carries a coupler (to a rocker) and
// a connecting rod (to a slider). Each test below breaks one thing in it.
const std::string compound = R"(name: compound
ground:
  A: [0, 0]
  D: [0.30, 0.05]
  G: [0, -0.10]
bodies:
  crank: {mass: 1, points: {A: [0, 0], B: [0.06, 0]}}
  coupler: {mass: 1, points: {B: [0, 0], C: [0.25, 0]}}
  rocker: {mass: 1, points: {D: [0, 0], C: [0.15, 0]}}
  rod: {mass: 1, points: {B: [0, 0], P: [0.22, 0]}}
  slider: {mass: 1, points: {P: [0, 0]}}
joints:
  A: {type: revolute, bodies: [ground, crank]}
  B: {type: revolute, bodies: [crank, coupler, rod]}
  C: {type: revolute, bodies: [coupler, rocker]}
  D: {type: revolute, bodies: [ground, rocker]}
  P: {type: revolute, bodies: [rod, slider]}
  slide: {type: prismatic, bodies: [ground, slider], guide: {point: G, direction: 180 deg}, slider_point: P}
drivers:
  motor:
    type: rotational
    joint: A
    law: {type: constant_speed, speed: 1}
assembly:
  C: {near: [0.30, 0.20]}
)";

// The same with the crank and the rocker on one ground pin A (the rocker's pivot D removed, so the
// driver's lines move up by one).
std::string ground_pin() {
  return replace(replace(compound, "  A: {type: revolute, bodies: [ground, crank]}",
                         "  A: {type: revolute, bodies: [ground, crank, rocker], points: [A, A, D]}"),
                 "  D: {type: revolute, bodies: [ground, rocker]}\n", "");
}

}  // namespace

TEST(ModelErrors, TheCompoundBaseModelIsValid) {
  const planar::Mechanism m = planar::compile(io::parse_planar_model(compound, "ok.yaml"));
  EXPECT_EQ(m.structure_string(), "R_I(0,1) -> RRR_II(2,3) -> RRP_II(4,5)");
  ASSERT_EQ(m.pins().size(), 1u);
  EXPECT_EQ(m.pins()[0].bodies.size(), 3u);
}

TEST(ModelErrors, CompoundPinListingABodyTwice) {
  expect_error(replace(compound, "bodies: [crank, coupler, rod]", "bodies: [crank, coupler, crank]"), 14,
               {"joint 'B'", "lists body 'crank' twice", "list each body the pin joins once"});
}

TEST(ModelErrors, JointWithOneBody) {
  expect_error(replace(compound, "bodies: [crank, coupler, rod]", "bodies: [crank]"), 14,
               {"joint 'B'", "'bodies' lists one body", "bodies: [crank, coupler]", "three or more at one pin"});
}

TEST(ModelErrors, CompoundPinWithAPointCountUnlikeItsBodies) {
  expect_error(
      replace(compound, "bodies: [crank, coupler, rod]}", "bodies: [crank, coupler, rod], points: [B, B]}"), 14,
      {"joint 'B'", "'points' names 2 point(s) for 3 bodies", "one point of each body, in the order of 'bodies'"});
}

TEST(ModelErrors, CompoundPinWithAnUnknownBody) {
  expect_error(replace(compound, "bodies: [crank, coupler, rod]", "bodies: [crank, coupler, rdo]"), 14,
               {"joint 'B'", "unknown body 'rdo'", "defined under 'bodies'"});
}

TEST(ModelErrors, CompoundPinAtAPointAMemberLacks) {
  expect_error(replace(compound, "rod: {mass: 1, points: {B: [0, 0], P: [0.22, 0]}}",
                       "rod: {mass: 1, points: {Q: [0, 0], P: [0.22, 0]}}"),
               14, {"joint 'B'", "body 'rod' has no point 'B'", "bodies.rod.points"});
}

TEST(ModelErrors, CompoundPinNamedLikeAnotherJoint) {
  expect_error(replace(compound, "  C: {type: revolute, bodies: [coupler, rocker]}",
                       "  B: {type: revolute, bodies: [coupler, rocker]}"),
               15, {"joint 'B'", "defined twice"});
}

TEST(ModelErrors, TwoJointsAtOnePointSuggestACompoundJoint) {
  // The rod pinned to the coupler's B instead of sharing the pin: a link of zero length.
  const std::string split =
      replace(compound, "  B: {type: revolute, bodies: [crank, coupler, rod]}",
              "  B: {type: revolute, bodies: [crank, coupler]}\n  B2: {type: revolute, bodies: [coupler, rod], at: B}");
  expect_error(split, 15,
               {"body 'coupler'", "joints 'B' and 'B2' sit at the same point", "distinct coordinates",
                "write one compound joint: bodies: [coupler, crank, rod]"});
}

TEST(ModelErrors, TorsionalSpringInACompoundPin) {
  expect_error(
      compound + "loads:\n  s: {type: torsional_spring, joint: B, stiffness: 2}\n", 27,
      {"load 's'", "'B' is a compound joint of 3 bodies", "torsional spring or damper", "name a two-body joint"});
}

TEST(ModelErrors, ConstraintActionInACompoundPin) {
  expect_error(compound + "constraint_actions:\n  pin_x: {joint: B, direction: 0 deg}\n", 27,
               {"constraint action 'pin_x'", "'B' is a compound joint of 3 bodies", "name a two-body joint"});
}

TEST(ModelErrors, PairResistanceInACompoundPin) {
  expect_error(compound + "actuators:\n  rub: {type: resistance, joint: B, F0: 5}\n", 27,
               {"actuator 'rub'", "'B' is a compound joint of 3 bodies", "name a two-body joint"});
}

TEST(ModelErrors, DriverOnAGroundPinWithoutTheBodyItTurns) {
  expect_error(ground_pin(), 21,
               {"driver 'motor'", "joint 'A' joins several bodies at a ground pin", "add body: one of crank, rocker"});
}

TEST(ModelErrors, DriverOnAGroundPinTurningABodyNotOnIt) {
  expect_error(replace(ground_pin(), "    joint: A\n", "    joint: A\n    body: coupler\n"), 22,
               {"driver 'motor'", "'coupler' is not a moving body of joint 'A'", "give body: one of crank, rocker"});
}

TEST(ModelErrors, DriverOnACompoundPinOffTheGround) {
  expect_error(
      replace(compound, "    joint: A\n", "    joint: B\n    body: crank\n"), 22,
      {"driver 'motor'", "joint 'B' does not include the ground", "name a joint whose bodies include the ground"});
}

TEST(ModelErrors, LinearDriverOnACompoundPin) {
  expect_error(replace(replace(ground_pin(), "    joint: A\n", "    joint: A\n    body: crank\n"), "type: rotational",
                       "type: linear"),
               21, {"driver 'motor'", "compound revolute joint, not a prismatic joint", "name a prismatic joint"});
}

TEST(ModelErrors, DriverBodyOnATwoBodyJoint) {
  expect_error(replace(compound, "    joint: A\n", "    joint: A\n    body: crank\n"), 23,
               {"driver 'motor'", "'body' names the driven member of a compound joint", "remove 'body'"});
}

TEST(ModelErrors, DriverOnAGroundPinIsValidWithItsBody) {
  const planar::Mechanism m = planar::compile(
      io::parse_planar_model(replace(ground_pin(), "    joint: A\n", "    joint: A\n    body: crank\n"), "ok.yaml"));
  EXPECT_EQ(m.dof(), 1);
  EXPECT_EQ(m.joints()[m.drivers()[0].joint].body[1], m.spec().find_body("crank"));
}

// Friction in the dynamics and loads against coordinates (issue 12): each breaks the base.
TEST(ModelErrors, StaticFrictionBelowKinetic) {
  expect_error(
      replace(
          base, "  C: {type: revolute, bodies: [coupler, rocker]}",
          "  C: {type: revolute, bodies: [coupler, rocker], friction: {coefficient: 0.2, static: 0.1, radius: 0.01}}"),
      21, {"joint 'C'", "static", "0.2"});
}

TEST(ModelErrors, NegativeStaticFriction) {
  expect_error(
      base + "friction:\n  revolute: {coefficient: 0.1, static: -0.2, radius: 5 mm}\n", 29,
      {"friction.revolute", "static friction coefficient -0.2 is below the kinetic one", "give static >= coefficient"});
}

TEST(ModelErrors, ActuatorStaticResistanceBelowKinetic) {
  expect_error(base + "actuators:\n  brake: {type: resistance, body: rocker, T0: 5, T0_static: 2}\n", 29,
               {"actuator 'brake'", "T0_static", "T0"});
}

/// The base with a load tabulated against `against` (the table in tests/data/incline-force.csv).
std::string table_load(const std::string& against) {
  return base +
         "loads:\n  push: {type: force, body: coupler, point: B, table: {file: incline-force.csv, against: " + against +
         "}}\n";
}

void expect_table_error(const std::string& against, std::initializer_list<const char*> fragments) {
  expect_error(table_load(against), 29, fragments, std::string(LINKDYN_TEST_DATA_DIR) + "/bad.yaml");
}

TEST(ModelErrors, TableAgainstAnUnknownBody) { expect_table_error("rotor.angle", {"load 'push'", "rotor"}); }
TEST(ModelErrors, TableAgainstAnUnknownPoint) { expect_table_error("coupler.Z.x", {"load 'push'", "Z"}); }
TEST(ModelErrors, TableAgainstAnUnknownJoint) { expect_table_error("slot.displacement", {"load 'push'", "slot"}); }
TEST(ModelErrors, TableAgainstAnUnknownQuantity) { expect_table_error("crank.colour", {"load 'push'", "colour"}); }
TEST(ModelErrors, TableAgainstADisplacementOfARevoluteJoint) {
  expect_table_error("B.displacement", {"load 'push'", "B"});
}

TEST(ModelErrors, PeriodicTableWhoseEndsDiffer) {
  std::ofstream(testing::TempDir() + "/ramp.csv") << "x,Fx,Fy\n0,0,0\n6.283185307179586,10,0\n";
  expect_error(base +
                   "loads:\n  push: {type: force, body: coupler, point: B, table: {file: ramp.csv, against: motor, "
                   "periodic: true}}\n",
               29, {"load 'push'", "periodic table must end with its first value", "repeat the first row's values"},
               testing::TempDir() + "/bad.yaml");
}

// Strict parsing: the YAML features linkdyn reads and those it refuses, and unusable files.

TEST(ModelErrors, AnAliasOfAWholeValueReadsAsACopy) {
  // YAML anchors and aliases work as YAML defines them: the rocker's points are the coupler's.
  const planar::Mechanism m = planar::compile(io::parse_planar_model(
      replace(replace(base, "points: {B: [0, 0], C: [4, 0]}", "points: &pts {B: [0, 0], C: [4, 0]}"), "mass: 2",
              "mass: &m 2"),
      "ok.yaml"));
  EXPECT_EQ(m.bodies()[2].mass, 2.0);
}

TEST(ModelErrors, MergeKeyIsRefusedWithItsLine) {
  expect_error(replace(base, "  rocker:\n    mass: 1\n", "  rocker:\n    <<: {mass: 1}\n"), 15,
               {"merge key ('<<')", "write the entries out"});
}

TEST(ModelErrors, AliasBombIsRefusedBeforeItExpands) {
  std::string bomb = base + "analysis: {x0: &x0 [1, 2, 3, 4, 5, 6, 7, 8, 9]";
  for (int k = 1; k < 9; ++k) {
    bomb += ", x" + std::to_string(k) + ": &x" + std::to_string(k) + " [";
    for (int j = 0; j < 9; ++j) bomb += (j ? ", *x" : "*x") + std::to_string(k - 1);
    bomb += "]";
  }
  bomb += "}\n";
  expect_error(bomb, 0, {"aliases (*name) add 4.9e+08 values by their expansion, more than 1e+06"});
}

TEST(ModelErrors, AnAnchorThatContainsItsOwnAliasIsRefusedNamingIt) {
  expect_error(base + "analysis: {a: &a [*a]}\n", 28,
               {"anchor &a: contains an alias of itself (*a)", "alias the anchor only outside the value it names"});
  expect_error(replace(base, "bodies:\n", "bodies: &b\n  loop: *b\n"), 5,
               {"anchor &b: contains an alias of itself (*b)"});
}

TEST(ModelErrors, ALargeModelWithoutAliasesIsNotCountedAsAnAliasExpansion) {
  std::string big = base + "analysis: {values: [";
  for (int k = 0; k < 1000100; ++k) big += k ? ",0" : "0";
  big += "]}\n";
  expect_error(big, 28, {"analysis: unknown field 'values'"});  // not an alias expansion
}

TEST(ModelErrors, DeepFlowNestingIsRefusedBeforeParsing) {
  expect_error(base + "analysis: " + std::string(100000, '[') + std::string(100000, ']') + "\n", 28,
               {"nest more than 64 levels deep"});
}

TEST(ModelErrors, DeepIndentedNestingIsRefused) {
  std::string deep = base + "analysis:\n";
  for (int k = 1; k <= 2000; ++k) deep += std::string(static_cast<size_t>(k), ' ') + "a:\n";
  try {
    (void)planar::compile(io::parse_planar_model(deep, "bad.yaml"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nest too deeply"), std::string::npos) << e.what();
  }
}

namespace {
/// Expects io::read_model(path) to fail with one line containing `fragment`.
void expect_file_error(const std::string& path, const char* fragment) {
  try {
    (void)io::read_model(path);
    FAIL() << "no error for " << path;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(e.where().file, path) << msg;
    EXPECT_NE(msg.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}
}  // namespace

TEST(ModelErrors, UnusableFilesGetOneLineEach) {
  const std::string dir = testing::TempDir();
  expect_file_error(dir + "/no-such-model.yaml", "does not exist");
  expect_file_error(dir, "is a folder");
  expect_file_error("/dev/null", "not a regular file");
  std::ofstream(dir + "/empty.yaml") << "\n  \n";
  expect_file_error(dir + "/empty.yaml", "the file is empty");
  std::ofstream(dir + "/binary.yaml", std::ios::binary) << std::string("name: x\n\0\x01\x02", 11);
  expect_file_error(dir + "/binary.yaml", "binary file");
  std::ofstream(dir + "/latin1.yaml", std::ios::binary) << "name: caf\xE9\n";
  expect_file_error(dir + "/latin1.yaml", "not UTF-8");
  std::ofstream(dir + "/overlong.yaml", std::ios::binary) << "name: \xC0\xAF\n";  // an overlong '/'
  expect_file_error(dir + "/overlong.yaml", "not UTF-8");
  std::ofstream(dir + "/utf8.yaml", std::ios::binary)
      << base + "description: \xC3\xA9l\xC3\xA8ve \xE2\x86\x92 \xF0\x9F\x94\xA7\n";
  EXPECT_NO_THROW((void)io::read_model(dir + "/utf8.yaml"));
}

TEST(ModelErrors, ASymbolicLinkLoopIsNamedAsOne) {
  // A model file or a table that is a loop of links: one InputError naming the file (was an
  // uncaught filesystem_error for the table).
  const std::string dir = testing::TempDir();
  for (const char* name : {"/loop-a.yaml", "/loop-b.yaml", "/loop-a.csv", "/loop-b.csv"})
    std::filesystem::remove(dir + name);
  std::filesystem::create_symlink(dir + "/loop-b.yaml", dir + "/loop-a.yaml");
  std::filesystem::create_symlink(dir + "/loop-a.yaml", dir + "/loop-b.yaml");
  expect_file_error(dir + "/loop-a.yaml", "is a loop of symbolic links");
  std::filesystem::create_symlink(dir + "/loop-b.csv", dir + "/loop-a.csv");
  std::filesystem::create_symlink(dir + "/loop-a.csv", dir + "/loop-b.csv");
  try {
    (void)planar::compile(io::parse_planar_model(
        base + "loads:\n  push: {type: force, body: coupler, point: B, table: {file: loop-a.csv, against: motor}}\n",
        dir + "/bad.yaml"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, (std::filesystem::path(dir + "/bad.yaml").parent_path() / "loop-a.csv").string());
    EXPECT_NE(std::string(e.what()).find("table: is a loop of symbolic links (Too many levels of symbolic links); "
                                         "point the link at the file itself"),
              std::string::npos)
        << e.what();
  }
}

TEST(ModelErrors, ABareAngleBeyondATurnNeedsItsUnit) {
  // "angle: 90" read as 90 rad (14 turns) was silently wrong: the unit is required beyond 2 pi.
  expect_error(replace(base, "law: {type: constant_speed, speed: 1}", "law: {type: constant_speed, q0: 90, speed: 1}"),
               27, {"a bare angle of 90 is 14.3 turns in radians", "'90 deg' or, if radians are meant, '90 rad'"});
  EXPECT_NO_THROW((void)planar::compile(io::parse_planar_model(
      replace(base, "law: {type: constant_speed, speed: 1}", "law: {type: constant_speed, q0: 90 deg, speed: 1}"),
      "ok.yaml")));
  EXPECT_NO_THROW((void)planar::compile(io::parse_planar_model(
      replace(base, "law: {type: constant_speed, speed: 1}", "law: {type: constant_speed, q0: 1.5, speed: 1}"),
      "ok.yaml")));
}
