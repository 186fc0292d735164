// Robot model files: URDF (fixed joints merged, non-serial refused), the DH, modified DH, POE and
// origin conventions against direct products of their matrices, and input errors with lines.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/spatial/dynamics.hpp"
#include "linkdyn/spatial/kinematics.hpp"
#include "spatial/spatial_test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::spatial;
using linkdyn::test::random_vector;

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "linkdyn_robot_files";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}
Mat4 rot_z(double a) {
  Mat4 T = Mat4::Identity();
  T.topLeftCorner<3, 3>() = axis_rotation(Vec3::UnitZ(), a);
  return T;
}
Mat4 rot_x(double a) {
  Mat4 T = Mat4::Identity();
  T.topLeftCorner<3, 3>() = axis_rotation(Vec3::UnitX(), a);
  return T;
}
Mat4 trans(double x, double y, double z) {
  Mat4 T = Mat4::Identity();
  T.topRightCorner<3, 1>() = Vec3(x, y, z);
  return T;
}

/// Expects the reading of `text` (written as `name`) to fail at `line` with `words` in the message.
void expect_error(const std::string& name, const std::string& text, int line, const std::string& words) {
  const std::string path = write_temp(name, text);
  try {
    (void)build_chain(io::read_chain_file(path));
    ADD_FAILURE() << "no error for " << name;
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, line) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}
}  // namespace

TEST(RobotFiles, UrdfOfTheIiwaGivesSevenJointsDampingAndTheToolFrame) {
  const Chain c = linkdyn::test::robot("iiwa14.urdf");
  ASSERT_EQ(c.dof, 7);
  EXPECT_EQ(c.joint(0).name, "iiwa_joint_1");
  EXPECT_EQ(c.joint(6).name, "iiwa_joint_7");
  EXPECT_DOUBLE_EQ(c.joint(3).friction.viscous, 0.5);
  EXPECT_DOUBLE_EQ(c.mass[1], 6.35);
  EXPECT_LE((c.spec.end_effector.p - Vec3(0, 0, 0.045)).norm(), 1e-15);
  // At q = 0 the arm stands straight up: the flange at 0.1575 + 0.2025 + 0.2045 + 0.2155 +
  // 0.1845 + 0.2155 + 0.081 + 0.045 = 1.306 m.
  ChainData d(c);
  forward_kinematics(c, d, Eigen::VectorXd::Zero(7));
  EXPECT_LE((d.end_effector.p - Vec3(0, 0, 1.306)).norm(), 1e-12);
}

TEST(RobotFiles, UrdfFixedChildIsMergedIntoItsParentLink) {
  const std::string urdf = R"(<robot name="merge">
  <link name="base"/>
  <joint name="j1" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/></joint>
  <link name="arm"><inertial><origin xyz="0.2 0 0"/><mass value="2"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.03"/></inertial></link>
  <joint name="weld" type="fixed"><parent link="arm"/><child link="weight"/><origin xyz="0.6 0 0" rpy="0 0 1.0"/></joint>
  <link name="weight"><inertial><mass value="3"/>
    <inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.004"/></inertial></link>
</robot>)";
  const Chain c = build_chain(io::read_chain_file(write_temp("merge.urdf", urdf)));
  ASSERT_EQ(c.dof, 1);
  const MassProperties& b = c.spec.links[0].inertia;
  EXPECT_NEAR(b.mass, 5.0, 1e-14);
  EXPECT_NEAR(b.com.x(), (2 * 0.2 + 3 * 0.6) / 5, 1e-14);
  // Izz about the merged centre: parallel axes for both parts.
  const double cz = (2 * 0.2 + 3 * 0.6) / 5;
  EXPECT_NEAR(b.inertia_com(2, 2), 0.03 + 2 * std::pow(0.2 - cz, 2) + 0.004 + 3 * std::pow(0.6 - cz, 2), 1e-14);
  EXPECT_LE((c.spec.end_effector.p - Vec3(0.6, 0, 0)).norm(), 1e-15);  // the leaf 'weight'
}

TEST(RobotFiles, BrokenUrdfIsRefusedWithItsLine) {
  // (Branching robots are trees now, read by RobotFiles.UrdfBranchesBecomeSubtrees.)
  expect_error("syntax.urdf", "<robot name=\"x\">\n  <link name=\"base\">\n</robot>\n", 3, "not valid XML");
  expect_error("nolimit.urdf", R"(<robot name="n">
  <link name="base"/>
  <link name="a"/>
  <joint name="j" type="revolute"><parent link="base"/><child link="a"/></joint>
</robot>)",
               4, "needs <limit");
  expect_error("nochild.urdf", R"(<robot name="c">
  <link name="base"/>
  <joint name="j" type="continuous">
    <parent link="base"/>
    <child link="arm"/>
  </joint>
</robot>)",
               5, "child link 'arm' is not defined");
  expect_error("planar.urdf", R"(<robot name="f">
  <link name="base"/>
  <joint name="free" type="planar"><parent link="base"/><child link="a"/></joint>
  <link name="a"/>
</robot>)",
               3, "planar");
}

TEST(RobotFiles, AUrdfNumberThatIsNotFiniteOrTooLargeIsRefusedAtItsLine) {
  expect_error("huge.urdf", R"(<robot name="h">
  <link name="base"/>
  <link name="arm"><inertial><mass value="1e300"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/></joint>
</robot>)",
               3, "'1e300' is too large");
  expect_error("nan.urdf", R"(<robot name="h">
  <link name="base"/>
  <link name="arm"/>
  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 nan 1"/></joint>
</robot>)",
               4, "'nan' is not a finite number");
}

TEST(RobotFiles, EveryUrdfNumberIsReadStrictlyAtItsLineWithItsAttribute) {
  // urdfdom dropped such an inertial in silence: the results were those of a link without one.
  const auto arm = [](const std::string& inertial, const std::string& joint = "<origin xyz=\"0 0 0.1\"/>") {
    return "<robot name=\"r\">\n  <link name=\"base\"/>\n  <link name=\"arm\"><inertial>\n" + inertial +
           "\n  </inertial></link>\n  <joint name=\"j\" type=\"continuous\"><parent link=\"base\"/><child "
           "link=\"arm\"/>\n" +
           joint + "\n  </joint>\n</robot>\n";
  };
  const std::string inertia = "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/>";
  expect_error("mass-x.urdf", arm("<mass value=\"x3.2\"/>" + inertia), 4,
               "link 'arm' <mass value>: 'x3.2' is not a number");
  expect_error("mass-comma.urdf", arm("<mass value=\"3,2\"/>" + inertia), 4, "'3,2' is not a number");
  expect_error("mass-empty.urdf", arm("<mass value=\"\"/>" + inertia), 4, "<mass value>: the attribute is empty");
  expect_error("mass-none.urdf", arm("<mass/>" + inertia), 4, "<mass value>: the attribute is missing");
  expect_error("mass-negative.urdf", arm("<mass value=\"-1\"/>" + inertia), 4, "<mass value>: the mass is negative");
  expect_error("no-mass.urdf", arm(inertia), 3, "<inertial>: the inertial has no <mass>");
  expect_error("ixx.urdf",
               arm("<mass value=\"1\"/><inertia ixx=\"abc\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/>"), 4,
               "link 'arm' <inertia ixx>: 'abc' is not a number");
  expect_error("iyz.urdf", arm("<mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" izz=\"1\"/>"), 4,
               "<inertia iyz>: the attribute is missing");
  expect_error("indefinite.urdf",
               arm("<mass value=\"1\"/><inertia ixx=\"1\" ixy=\"2\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/>"), 4,
               "link 'arm' <inertia>: the inertia has a negative principal moment (-1 kg m^2)");
  expect_error("origin.urdf", arm("<origin xyz=\"1 2\"/><mass value=\"1\"/>" + inertia), 4,
               "link 'arm' <origin xyz>: '1 2' has 2 numbers, not 3");
  expect_error("rpy.urdf", arm("<mass value=\"1\"/>" + inertia, "<origin rpy=\"0 0 1 2\"/>"), 7,
               "joint 'j' <origin rpy>: '0 0 1 2' has 4 numbers, not 3");
  expect_error("axis.urdf", arm("<mass value=\"1\"/>" + inertia, "<axis xyz=\"0 0 1e\"/>"), 7,
               "joint 'j' <axis xyz>: '1e' is not a number");
  expect_error("damping.urdf", arm("<mass value=\"1\"/>" + inertia, "<dynamics damping=\"0.1.2\"/>"), 7,
               "joint 'j' <dynamics damping>: '0.1.2' is not a number");
  expect_error("limit.urdf", arm("<mass value=\"1\"/>" + inertia, "<limit effort=\"inf\" velocity=\"1\"/>"), 7,
               "joint 'j' <limit effort>: 'inf' is not a finite number");
}

TEST(RobotFiles, AUrdfThatIsNotOneTreeOfLinksNamesWhy) {
  expect_error("text.urdf", "\n  hello\n<?xml version=\"1.0\"?>\n<robot name=\"t\"><link name=\"a\"/></robot>\n", 2,
               "text before the XML declaration '<?xml' (line 3)");
  expect_error("fourbar.urdf", R"(<robot name="loop">
  <link name="base"/><link name="crank"/><link name="coupler"/><link name="rocker"/>
  <joint name="a" type="continuous"><parent link="base"/><child link="crank"/></joint>
  <joint name="b" type="continuous"><parent link="crank"/><child link="coupler"/></joint>
  <joint name="c" type="continuous"><parent link="base"/><child link="rocker"/></joint>
  <joint name="d" type="continuous"><parent link="rocker"/><child link="coupler"/></joint>
</robot>)",
               6, "joint 'd': it closes a loop of the links 'coupler', 'crank', 'base', 'rocker'");
  expect_error("cycle.urdf", R"(<robot name="cycle">
  <link name="base"/><link name="a"/><link name="b"/>
  <joint name="j0" type="continuous"><parent link="base"/><child link="base2"/></joint>
  <link name="base2"/>
  <joint name="j1" type="continuous"><parent link="a"/><child link="b"/></joint>
  <joint name="j2" type="continuous"><parent link="b"/><child link="a"/></joint>
</robot>)",
               6, "joint 'j2': it closes a loop of the links 'a', 'b'");
  expect_error("twins.urdf", R"(<robot name="twins">
  <link name="base"/><link name="a"/>
  <link name="a"/>
</robot>)",
               3, "link 'a': the name is used twice (first at line 2)");
  expect_error("roots.urdf", R"(<robot name="roots">
  <link name="base"/><link name="a"/>
  <link name="stray"/>
  <joint name="j" type="continuous"><parent link="base"/><child link="a"/></joint>
</robot>)",
               3, "link 'stray': no joint has it as child, as the root 'base'");
}

TEST(RobotFiles, AUrdfNestedAHundredThousandLevelsIsRefusedBeforeTheXmlParserRecurses) {
  // Once a stack overflow in the XML parser (SIGSEGV after 7 s); now one line at once. Nesting
  // inside comments, CDATA and attribute values does not count.
  std::string deep = "<robot name=\"deep\">\n<!-- <a><a><a> -->\n<link name=\"base\" note=\"<b>\"/>\n";
  for (int k = 0; k < 100000; ++k) deep += "<a>";
  for (int k = 0; k < 100000; ++k) deep += "</a>";
  deep += "\n</robot>\n";
  expect_error("deep.urdf", deep, 4, "nested more than 64 levels deep");
  std::ifstream in(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/iiwa14.urdf");
  std::string iiwa((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string comment = "<!--";
  for (int k = 0; k < 1000; ++k) comment += "<a>";
  iiwa.insert(iiwa.find("<link"), comment + "-->\n<![CDATA[<b><b>]]>\n");
  const std::string path = ::testing::TempDir() + "/iiwa-commented.urdf";
  std::ofstream(path) << iiwa;
  EXPECT_EQ(io::read_chain_file(path).joints.size(), 7u);
}

TEST(RobotFiles, DenavitHartenbergFramesEqualTheProductOfTheirMatrices) {
  // Standard DH: T = prod Rz(theta_i + q_i) Tz(d_i) Tx(a_i) Rx(alpha_i) (q_i on d_i if prismatic).
  const Chain scara = linkdyn::test::robot("scara.yaml");
  const double a[] = {0.35, 0.30, 0, 0}, alpha[] = {0, M_PI, 0, 0}, d0[] = {0.40, 0, 0, 0.05};
  ChainData d(scara);
  const Eigen::VectorXd q = random_vector(4, 1.0, 3);
  forward_kinematics(scara, d, q);
  Mat4 T = Mat4::Identity();
  for (int i = 0; i < 4; ++i) {
    const bool slide = i == 2;
    T = T * rot_z(slide ? 0 : q(i)) * trans(0, 0, d0[i] + (slide ? q(i) : 0)) * trans(a[i], 0, 0) * rot_x(alpha[i]);
  }
  EXPECT_LE((d.end_effector.matrix() - T).cwiseAbs().maxCoeff(), 1e-14);
  // A centre of mass given in DH frame i lands where the product of the matrices puts it.
  std::vector<DhRow> rows(4);
  const Vec3 com(0.1, 0.02, -0.03);
  for (int i = 0; i < 4; ++i) {
    rows[size_t(i)].joint.name = std::string("j").append(std::to_string(i));
    rows[size_t(i)].joint.type = i == 2 ? JointType::prismatic : JointType::revolute;
    rows[size_t(i)].a = a[i], rows[size_t(i)].alpha = alpha[i], rows[size_t(i)].d = d0[i];
    rows[size_t(i)].link.inertia = {1.0, com, Mat3::Identity() * 0.01};
  }
  ChainSpec spec;
  chain_from_dh(spec, rows, false, Pose::identity());
  const Chain manual = build_chain(spec);
  ChainData dm(manual);
  forward_kinematics(manual, dm, q);
  Mat4 Ti = Mat4::Identity();
  for (int i = 0; i < 4; ++i) {
    const bool slide = i == 2;
    Ti = Ti * rot_z(slide ? 0 : q(i)) * trans(0, 0, d0[i] + (slide ? q(i) : 0)) * trans(a[i], 0, 0) * rot_x(alpha[i]);
    const Vec3 expected = (Ti * Eigen::Vector4d(com.x(), com.y(), com.z(), 1.0)).head<3>();
    EXPECT_LE((dm.world[size_t(i)].apply(manual.first_moment[size_t(i)]) - expected).norm(), 1e-14) << "link " << i;
  }
  // Modified DH (Craig): T = prod Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i + q_i) Tz(d_i).
  const Chain puma = linkdyn::test::robot("puma560.yaml");
  const double pa[] = {0, 0, 0.4318, -0.0203, 0, 0}, pal[] = {0, -M_PI / 2, 0, M_PI / 2, -M_PI / 2, M_PI / 2},
               pd[] = {0, 0.2435, -0.0934, 0.4331, 0, 0};
  ChainData dp(puma);
  const Eigen::VectorXd qp = random_vector(6, 2.0, 4);
  forward_kinematics(puma, dp, qp);
  Mat4 P = Mat4::Identity();
  for (int i = 0; i < 6; ++i) {
    P = P * rot_x(pal[i]) * trans(pa[i], 0, 0) * rot_z(qp(i)) * trans(0, 0, pd[i]);
    EXPECT_LE((dp.transform[size_t(i)] - P).cwiseAbs().maxCoeff(), 1e-14) << "frame " << i + 1;
  }
}

TEST(RobotFiles, FourConventionsOfOnePlanarArmGiveOneDynamics) {
  const std::string link1 = "{mass: 2.0, com: [%C1, 0, 0], inertia: {ixx: 0.001, iyy: 0.05, izz: 0.05}}";
  auto fill = [](std::string s, double c) {
    const auto k = s.find("%C1");
    return s.replace(k, 3, std::to_string(c));
  };
  const double L[] = {0.5, 0.4, 0.3}, lc[] = {0.2, 0.15, 0.1};
  std::string origin = "robot:\n  gravity: [0, -9.81, 0]\n  joints:\n",
              dh = "robot:\n  convention: dh\n  gravity: [0, -9.81, 0]\n  joints:\n",
              mdh = "robot:\n  convention: modified_dh\n  gravity: [0, -9.81, 0]\n  joints:\n",
              poe = "robot:\n  convention: poe\n  gravity: [0, -9.81, 0]\n  joints:\n";
  double x = 0;
  for (int i = 0; i < 3; ++i) {
    const std::string n = "    - name: j" + std::to_string(i + 1) + "\n";
    origin += n + "      origin: {xyz: [" + std::to_string(i ? L[i - 1] : 0.0) +
              ", 0, 0]}\n      link: " + fill(link1, lc[i]) + "\n";
    dh += n + "      a: " + std::to_string(L[i]) + "\n      link: " + fill(link1, lc[i] - L[i]) + "\n";
    mdh += n + "      a: " + std::to_string(i ? L[i - 1] : 0.0) + "\n      link: " + fill(link1, lc[i]) + "\n";
    poe += n + "      axis: [0, 0, 1]\n      point: [" + std::to_string(x) +
           ", 0, 0]\n      link: " + fill(link1, x + lc[i]) + "\n";
    x += L[i];
  }
  origin += "  end_effector: {xyz: [0.3, 0, 0]}\n";
  mdh += "  end_effector: {xyz: [0.3, 0, 0]}\n";
  poe += "  end_effector: {xyz: [1.2, 0, 0]}\n";
  const Chain ref = build_chain(io::read_chain_file(write_temp("origin.yaml", origin)));
  ChainData dr(ref);
  const Eigen::VectorXd q = random_vector(3, 2.0, 1), qd = random_vector(3, 2.0, 2), qdd = random_vector(3, 2.0, 3);
  const Eigen::VectorXd tau = inverse_dynamics(ref, dr, q, qd, qdd);
  forward_kinematics(ref, dr, q);
  for (const auto& [name, text] : {std::pair{"dh.yaml", dh}, {"mdh.yaml", mdh}, {"poe.yaml", poe}}) {
    const Chain c = build_chain(io::read_chain_file(write_temp(name, text)));
    ChainData d(c);
    EXPECT_LE((inverse_dynamics(c, d, q, qd, qdd) - tau).cwiseAbs().maxCoeff(), 1e-12) << name;
    forward_kinematics(c, d, q);
    EXPECT_LE((d.end_effector.p - dr.end_effector.p).norm(), 1e-14) << name;
  }
}

TEST(RobotFiles, YamlErrorsNameTheLineAndTheFix) {
  expect_error(
      "shape.yaml",
      "robot:\n  joints:\n    - name: j1\n      link:\n        parts:\n          - {shape: pyramid, mass: 1}\n", 6,
      "unknown shape 'pyramid'");
  expect_error("field.yaml",
               "robot:\n  joints:\n    - name: j1\n      link:\n        parts:\n          - {shape: sphere, radius: "
               "0.1, length: 2, mass: 1}\n",
               6, "does not apply to a sphere");
  expect_error("hole.yaml",
               "robot:\n  joints:\n    - name: j1\n      link:\n        parts:\n          - {shape: box, size: [0.1, "
               "0.1, 0.1], density: 1000}\n"
               "          - {shape: sphere, radius: 0.2, density: 1000, subtract: true}\n",
               6, "not physically possible");
  expect_error("convention.yaml", "robot:\n  convention: euler\n  joints:\n    - {name: j1, link: {mass: 1}}\n", 2,
               "unknown convention");
  expect_error("nolink.yaml", "robot:\n  joints:\n    - name: j1\n      axis: [0, 0, 1]\n", 3, "missing field 'link'");
  expect_error("axis.yaml", "robot:\n  joints:\n    - name: j1\n      axis: [0, 0, 0]\n      link: {mass: 1}\n", 3,
               "zero length");
  expect_error("inertia.yaml",
               "robot:\n  joints:\n    - name: j1\n      link: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 3}}\n", 3,
               "triangle inequality");
  expect_error("massless.yaml", "robot:\n  joints:\n    - name: j1\n      link: {mass: 0, inertia: {ixx: -1}}\n", 3,
               "negative principal moment");
  expect_error("friction.yaml",
               "robot:\n  joints:\n    - name: j1\n      friction: {coulomb: 0.1}\n      link: {mass: 1}\n", 3,
               "diameter");
}

TEST(RobotFiles, PumaAsUrdfEqualsPumaInModifiedDh) {
  const Chain a = linkdyn::test::robot("puma560.yaml"), b = linkdyn::test::robot("puma560.urdf");
  ChainData da(a), db(b);
  for (unsigned s = 0; s < 3; ++s) {
    const Eigen::VectorXd q = random_vector(6, 2.0, s), qd = random_vector(6, 2.0, s + 5),
                          qdd = random_vector(6, 2.0, s + 9);
    EXPECT_LE((inverse_dynamics(a, da, q, qd, qdd) - inverse_dynamics(b, db, q, qd, qdd)).cwiseAbs().maxCoeff(), 1e-12);
    forward_kinematics(a, da, q);
    forward_kinematics(b, db, q);
    EXPECT_LE((da.end_effector.matrix() - db.end_effector.matrix()).cwiseAbs().maxCoeff(), 1e-14);
  }
}
