#pragma once
// A serial chain of rigid links joined by revolute and prismatic joints: the immutable model.
// Joint i moves link i relative to link i-1 (link 0 is the base). Joint i's frame sits at
// `placement` in link i-1's frame at q_i = 0; link i's frame is the joint frame moved by q_i
// (rotated about or slid along `axis`), so the axis is fixed in both.
#include <string>
#include <vector>

#include "linkdyn/core/error.hpp"
#include "linkdyn/spatial/mass.hpp"

namespace linkdyn::spatial {

enum class JointType { revolute, prismatic };

/// Joint friction [002 Eq. 157]: b qd + mu * r * |k x f| * sgn(qd), with f the force the joint
/// transmits, r = diameter/2 for a revolute joint and r = 1 for a prismatic one.
struct JointFriction {
  double viscous = 0.0;   ///< b: N m s/rad or N s/m
  double coulomb = 0.0;   ///< mu
  double diameter = 0.0;  ///< d of the revolute joint's journal, m
};

struct ChainJoint {
  std::string name;
  JointType type = JointType::revolute;
  Pose placement;                 ///< joint frame in the parent link frame at q = 0
  Vec3 axis = Vec3::UnitZ();      ///< unit, in the joint frame
  JointFriction friction;
  SourceLocation where;
};

struct ChainLink {
  std::string name;
  MassProperties inertia;  ///< in the link frame
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
  std::vector<ChainJoint> joints;
  std::vector<ChainLink> links;  ///< links[i] is moved by joints[i]
  Vec3 gravity = Vec3(0, 0, -9.81);  ///< in the base frame
  Pose end_effector;                 ///< in the last link's frame
  EndEffectorLoad load;
};

/// The compiled chain: the spec plus per-link constants the algorithms use.
struct Chain {
  ChainSpec spec;
  int dof = 0;
  // Per link, in its own frame: mass, first moment m c, inertia about the origin, pseudo-inertia.
  std::vector<double> mass;
  std::vector<Vec3> first_moment;
  std::vector<Mat3> inertia_origin;
  std::vector<Mat4> pseudo;
  /// 6-vector motion subspace [omega; v] of each joint in its link frame.
  std::vector<Vec6> motion_subspace;
  /// +-1, +-2, +-3 when a joint axis is +-x, +-y, +-z of its frame (fast rotations), else 0.
  std::vector<int> axis_code;

  const ChainJoint& joint(int i) const { return spec.joints[static_cast<size_t>(i)]; }
  /// Index of the named joint, or -1.
  int joint_index(const std::string& name) const;
};

/// Checks the spec (unit axes, physical links, unique names) and compiles it. Throws InputError
/// naming the joint or link.
Chain build_chain(ChainSpec spec);

/// Conventions for describing a chain, turned into the placement form above.
/// Standard Denavit-Hartenberg row: Rz(theta) Tz(d) Tx(a) Rx(alpha); the joint variable adds to
/// theta (revolute) or d (prismatic). Link inertias are given in the DH frame i.
/// Modified DH (Craig): Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i), row i holds
/// alpha_{i-1}, a_{i-1}, theta_i, d_i; link inertias in frame i.
struct DhRow {
  ChainJoint joint;  ///< name, type, friction, where
  double a = 0, alpha = 0, d = 0, theta = 0;
  ChainLink link;
};
/// Fills spec.joints and spec.links from DH rows; `end_effector` is given in the last DH frame.
void chain_from_dh(ChainSpec& spec, const std::vector<DhRow>& rows, bool modified, const Pose& end_effector);

/// Product of exponentials [002 Sect. 3.1]: each joint's axis (unit direction and a point on it)
/// in the base frame at q = 0; each link's centre of mass and inertia in the base frame at q = 0;
/// the end effector's pose in the base frame at q = 0.
struct PoeJoint {
  ChainJoint joint;  ///< name, type, friction, where
  Vec3 direction = Vec3::UnitZ();
  Vec3 point = Vec3::Zero();
  ChainLink link;
};
void chain_from_poe(ChainSpec& spec, const std::vector<PoeJoint>& joints, const Pose& end_effector);

}  // namespace linkdyn::spatial
