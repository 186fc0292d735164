#pragma once
// A kinematic tree of rigid links (a serial chain is the special case): the immutable model.
// Joint i moves link i relative to its parent link lambda(i) (Featherstone's parent array,
// RBDA Sect. 4.1.2; -1 is the base), and parents come before their children. Joint i's frame
// sits at `placement` in the parent link's frame at q_i = 0; link i's frame is the joint frame
// moved by q_i (rotated about or slid along `axis`, so the axis is fixed in both). A free-flyer
// joint gives its link six degrees of freedom (a floating base).
#include <string>
#include <vector>

#include "linkdyn/core/error.hpp"
#include "linkdyn/spatial/mass.hpp"

namespace linkdyn::spatial {

enum class JointType { revolute, prismatic, free_flyer };

/// How a free-flyer joint stores its rotation in q. Its velocity is always the body twist: the
/// velocity of the link origin and the angular velocity, both in the link's axes (6 entries).
enum class RotationCoordinates {
  quaternion,   ///< q = [x, y, z, qx, qy, qz, qw]: 7 entries, unit quaternion (normalised on use)
  exponential,  ///< q = [x, y, z, rx, ry, rz]: the rotation vector (axis times angle), |r| < 2 pi
};

/// Joint friction: b qd + (c + mu r |k x f|) sgn(qd), with f the force the joint transmits
/// [002 Eq. 157], r = diameter/2 for a revolute joint and r = 1 for a prismatic one, and c a
/// constant dry friction (URDF's <dynamics friction>).
struct JointFriction {
  double viscous = 0.0;   ///< b: N m s/rad or N s/m
  double coulomb = 0.0;   ///< mu
  double diameter = 0.0;  ///< d of the revolute joint's journal, m
  double constant = 0.0;  ///< c: N m or N, independent of the load
};

struct ChainJoint {
  /// `parent` value meaning "the link of the joint listed just before" (a serial chain).
  static constexpr int previous_link = -2;
  std::string name;
  JointType type = JointType::revolute;
  int parent = previous_link;  ///< index of the parent link (= its joint's index), -1 for the base
  Pose placement;              ///< joint frame in the parent link frame at q = 0
  Vec3 axis = Vec3::UnitZ();   ///< unit, in the joint frame (1-DOF joints)
  JointFriction friction;      ///< 1-DOF joints
  SourceLocation where;
};

struct ChainLink {
  ChainLink() = default;
  ChainLink(std::string name_, MassProperties inertia_, SourceLocation where_ = {})
      : name(std::move(name_)), inertia(std::move(inertia_)), where(std::move(where_)) {}
  std::string name;
  MassProperties inertia;  ///< in the link frame
  SourceLocation where;
};

/// A frame fixed to a link (a tool, a sensor, a merged URDF link).
struct FrameSpec {
  std::string name;
  int link = -1;  ///< -1: the base
  Pose pose;      ///< in the link frame
};

/// A wrench applied to the end effector by the manipulated load [002 Eqs. 128-132].
struct EndEffectorLoad {
  Vec3 force = Vec3::Zero();
  Vec3 moment = Vec3::Zero();
  bool in_base_frame = false;  ///< components in the base frame (else in the end-effector frame)
};

struct ChainSpec {
  std::string name;
  std::string source_file;
  std::string base_name = "base";  ///< the name of the fixed base (URDF: the root link)
  std::vector<ChainJoint> joints;
  std::vector<ChainLink> links;                       ///< links[i] is moved by joints[i]
  std::vector<FrameSpec> frames;                      ///< extra frames (the links' own frames are always there)
  Vec3 gravity = Vec3(0, 0, -9.81);                   ///< in the base frame
  int end_effector_link = ChainJoint::previous_link;  ///< previous_link: the last link
  Pose end_effector;                                  ///< in that link's frame
  EndEffectorLoad load;
  RotationCoordinates rotation_coordinates = RotationCoordinates::quaternion;  ///< of free-flyer joints
};

/// What to do with a link whose principal moments break the triangle inequality (a tensor no
/// distribution of positive density has, as the PUMA 560's link 3 in Corke's toolbox).
enum class InertiaCheck {
  refuse,   ///< InputError naming the link (the library's default)
  warn,     ///< compute with it; Chain::warnings names the link and the inequality
  balance,  ///< set the three principal moments to their mean, as MuJoCo's `balanceinertia`
};

struct BuildOptions {
  InertiaCheck inertia = InertiaCheck::refuse;
};

/// A frame of the compiled model: a link frame, an extra frame, the base or the end effector.
struct Frame {
  std::string name;
  int link = -1;
  Pose pose;
};

/// The compiled tree: the spec plus per-link and per-DOF constants the algorithms use.
struct Chain {
  ChainSpec spec;
  int dof = 0;         ///< nv: degrees of freedom (length of qd, qdd, tau)
  int nq = 0;          ///< length of q (7 per quaternion free-flyer)
  int links = 0;       ///< number of joints = number of moving links
  bool serial = true;  ///< every parent is the previous link and every joint has one DOF
  // Per link (joint), all sized `links`.
  std::vector<int> parent;      ///< lambda(i), -1 for the base
  std::vector<int> q_index;     ///< first entry of the joint in q
  std::vector<int> v_index;     ///< first entry of the joint in qd, qdd, tau
  std::vector<int> joint_dofs;  ///< 1, or 6 for a free-flyer
  // Per link, in its own frame: mass, first moment m c, inertia about the origin, pseudo-inertia.
  std::vector<double> mass;
  std::vector<Vec3> first_moment;
  std::vector<Mat3> inertia_origin;
  std::vector<Mat4> pseudo;
  std::vector<Mat6> spatial_inertia;  ///< [I_O, [h x]; [h x]^T, m 1]: force [n; f] of a motion [w; v]
  /// 6-vector motion subspace [omega; v] of each 1-DOF joint in its link frame.
  std::vector<Vec6> motion_subspace;
  /// +-1, +-2, +-3 when a joint axis is +-x, +-y, +-z of its frame (fast rotations), else 0.
  std::vector<int> axis_code;
  // Per DOF, sized `dof`.
  std::vector<int> dof_link;                  ///< the link its joint moves
  std::vector<int> dof_parent;                ///< the DOF before it on its path to the base, -1 (LTDL sparsity)
  std::vector<Vec6> dof_subspace;             ///< [omega; v] in the link frame
  std::vector<std::string> q_names, v_names;  ///< coordinate names: "<joint>" or "<joint>.x" ...
  // Frames: the base, every link, the extra frames, the end effector.
  std::vector<Frame> frames;
  int end_effector_link = 0;
  std::vector<std::string> warnings;  ///< inertias computed with though inconsistent (InertiaCheck::warn)

  [[nodiscard]] const ChainJoint& joint(int i) const { return spec.joints[static_cast<size_t>(i)]; }
  /// Index of the named joint, or -1.
  [[nodiscard]] int joint_index(const std::string& name) const;
  /// Index of the named frame, or -1.
  [[nodiscard]] int frame_index(const std::string& name) const;
  /// Index of a velocity coordinate (v_names) or of a configuration coordinate (q_names), or -1.
  [[nodiscard]] int v_coordinate(const std::string& name) const;
  [[nodiscard]] int q_coordinate(const std::string& name) const;
  /// True when link `a` is `b` or one of its ancestors.
  [[nodiscard]] bool supports(int a, int b) const;
};

/// Checks the spec (unit axes, physical links, unique names, parents before children) and
/// compiles it. Throws InputError naming the joint or link.
[[nodiscard]] Chain build_chain(ChainSpec spec, const BuildOptions& options = {});

/// The inequality a body breaks ("I1 + I2 >= I3: 0.0785 < 0.086 kg m^2"), empty if none; and
/// the body with its principal moments set to their mean (MuJoCo's balanceinertia).
[[nodiscard]] std::string triangle_inequality_violation(const MassProperties& body);
/// "the inertia has a negative principal moment (-0.01 kg m^2)", empty if none: a tensor the
/// kinetic energy could go negative with.
[[nodiscard]] std::string negative_moment_of_inertia(const MassProperties& body);
[[nodiscard]] MassProperties balanced_inertia(const MassProperties& body);

/// Conventions for describing a chain, turned into the placement form above.
/// Standard Denavit-Hartenberg row: Rz(theta) Tz(d) Tx(a) Rx(alpha); the joint variable adds to
/// theta (revolute) or d (prismatic). Link inertias are given in the DH frame i.
/// Modified DH (Craig, Khalil-Kleinfinger for trees): Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i)
/// Tz(d_i) from the parent's frame; row i holds alpha_{i-1}, a_{i-1}, theta_i, d_i; link inertias
/// in frame i.
struct DhRow {
  ChainJoint joint;  ///< name, type, friction, where, parent
  double a = 0, alpha = 0, d = 0, theta = 0;
  ChainLink link;
};
/// Fills spec.joints and spec.links from DH rows; `end_effector` is given in the last DH frame.
/// Standard DH describes a chain only: a row with a parent other than the previous link throws.
void chain_from_dh(ChainSpec& spec, const std::vector<DhRow>& rows, bool modified, const Pose& end_effector);

/// Product of exponentials [002 Sect. 3.1]: each joint's axis (unit direction and a point on it)
/// in the base frame at q = 0; each link's centre of mass and inertia in the base frame at q = 0;
/// the end effector's pose in the base frame at q = 0.
struct PoeJoint {
  ChainJoint joint;  ///< name, type, friction, where, parent
  Vec3 direction = Vec3::UnitZ();
  Vec3 point = Vec3::Zero();
  ChainLink link;
};
void chain_from_poe(ChainSpec& spec, const std::vector<PoeJoint>& joints, const Pose& end_effector);

}  // namespace linkdyn::spatial
