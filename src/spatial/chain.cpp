#include "linkdyn/spatial/chain.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

namespace linkdyn::spatial {

int Chain::joint_index(const std::string& name) const {
  for (int i = 0; i < links; ++i)
    if (spec.joints[static_cast<size_t>(i)].name == name) return i;
  return -1;
}

int Chain::frame_index(const std::string& name) const {
  for (size_t i = 0; i < frames.size(); ++i)
    if (frames[i].name == name) return static_cast<int>(i);
  return -1;
}

namespace {
int index_of(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}
}  // namespace

int Chain::v_coordinate(const std::string& name) const { return index_of(v_names, name); }
int Chain::q_coordinate(const std::string& name) const { return index_of(q_names, name); }

bool Chain::supports(int a, int b) const {
  while (b > a) b = parent[static_cast<size_t>(b)];
  return a == b;
}

std::string negative_moment_of_inertia(const MassProperties& body) {
  const Vec3 m = principal_axes(body).moments;
  if (m(0) >= -1e-12 * m.cwiseAbs().sum()) return {};
  return fmt::format("the inertia has a negative principal moment ({:.6g} kg m^2)", m(0));
}

std::string triangle_inequality_violation(const MassProperties& body) {
  const Vec3 m = principal_axes(body).moments;
  const double tol = 1e-12 * (m.cwiseAbs().sum() + body.mass * body.com.squaredNorm());
  if (m(0) + m(1) >= m(2) - tol) return {};
  return fmt::format(
      "its principal moments {:.6g}, {:.6g}, {:.6g} kg m^2 break the triangle inequality "
      "I1 + I2 >= I3 ({:.6g} < {:.6g}: no distribution of positive density has them)",
      m(0), m(1), m(2), m(0) + m(1), m(2));
}

MassProperties balanced_inertia(const MassProperties& body) {
  // MuJoCo's balanceinertia: the three principal moments replaced by their mean, which makes
  // the tensor isotropic (the same about every axis through the centre of mass).
  MassProperties b = body;
  b.inertia_com = Mat3::Identity() * (body.inertia_com.trace() / 3.0);
  return b;
}

namespace {

/// Checks link `i` of the spec: finite values, positive semi-definite rotational inertia, and
/// the triangle inequality as `options` say. May balance the inertia in place.
void check_link(ChainSpec& spec, size_t i, const BuildOptions& options, std::vector<std::string>& warnings) {
  const ChainJoint& j = spec.joints[i];
  ChainLink& l = spec.links[i];
  const std::string entity = "link '" + (l.name.empty() ? j.name : l.name) + "'";
  const SourceLocation& at = l.where.file.empty() ? j.where : l.where;
  MassProperties& b = l.inertia;
  if (!(b.mass >= 0.0) || !b.inertia_com.allFinite() || !b.com.allFinite())
    throw InputError(at, entity, "the link's mass properties are not valid numbers",
                     "give mass >= 0, a finite centre of mass and inertia");
  if (b.inertia_com.isZero(0.0)) return;
  // The rotational inertia must be positive semi-definite, so the kinetic energy cannot go
  // negative; a massless link may carry it alone (a rotor, or the one identifiable component of
  // a published model, like the PUMA's link 1).
  if (const std::string negative = negative_moment_of_inertia(b); !negative.empty())
    throw InputError(at, entity, negative, "give an inertia tensor with moments >= 0, in the link frame");
  if (b.mass == 0.0) return;
  const std::string broken = triangle_inequality_violation(b);
  if (broken.empty()) return;
  const std::string place = at.file.empty() ? ""
                            : at.line > 0   ? fmt::format("{}:{}: ", at.file, at.line)
                                            : at.file + ": ";
  switch (options.inertia) {
    case InertiaCheck::refuse:
      throw InputError(at, entity, "the link is not physically possible: " + broken,
                       "check the inertia values and their frame");
    case InertiaCheck::warn: warnings.push_back(place + entity + ": " + broken + "; computed as given"); break;
    case InertiaCheck::balance: {
      const MassProperties balanced = balanced_inertia(b);
      warnings.push_back(place + entity + ": " + broken +
                         fmt::format("; balanced to {:.6g} kg m^2 about every axis "
                                     "(MuJoCo's balanceinertia)",
                                     balanced.inertia_com(0, 0)));
      b = balanced;
      break;
    }
  }
}

void check_joint(ChainJoint& j) {
  if (j.type == JointType::free_flyer) return;
  const double n = j.axis.norm();
  if (!(n > 1e-9) || !std::isfinite(n))
    throw InputError(j.where, j.name, "the joint axis has zero length", "give a non-zero axis direction");
  j.axis /= n;
  const JointFriction& f = j.friction;
  if (f.viscous < 0 || f.coulomb < 0 || f.diameter < 0 || f.constant < 0)
    throw InputError(j.where, j.name, "a friction coefficient is negative",
                     "give viscous, coulomb, diameter and constant >= 0");
  if (f.coulomb > 0 && j.type == JointType::revolute && f.diameter <= 0)
    throw InputError(j.where, j.name, "dry friction in a revolute joint needs the journal diameter",
                     "give friction.diameter (m), the d of mu d/2 |k x f| [002 Eq. 157]");
}

void add_frame(Chain& c, Frame f, const SourceLocation& where) {
  if (c.frame_index(f.name) >= 0)
    throw InputError(where, "frame '" + f.name + "'", "two frames (links, extra frames, the base) have this name",
                     "give every link and frame its own name");
  c.frames.push_back(std::move(f));
}

/// Coordinates, DOF tables and frames of the compiled tree.
void index_joints(Chain& c) {
  const ChainSpec& spec = c.spec;
  const bool quaternion = spec.rotation_coordinates == RotationCoordinates::quaternion;
  for (int i = 0; i < c.links; ++i) {
    const ChainJoint& j = spec.joints[size_t(i)];
    c.q_index.push_back(c.nq);
    c.v_index.push_back(c.dof);
    const int lambda = c.parent[size_t(i)];
    int previous_dof = lambda < 0 ? -1 : c.v_index[size_t(lambda)] + c.joint_dofs[size_t(lambda)] - 1;
    if (j.type == JointType::free_flyer) {
      c.joint_dofs.push_back(6);
      for (const char* s : {".x", ".y", ".z"}) c.q_names.push_back(j.name + s);
      static const std::vector<std::string> quaternion_names{".qx", ".qy", ".qz", ".qw"},
          vector_names{".rx", ".ry", ".rz"};
      for (const std::string& s : quaternion ? quaternion_names : vector_names) c.q_names.push_back(j.name + s);
      for (const char* s : {".x", ".y", ".z", ".rx", ".ry", ".rz"}) c.v_names.push_back(j.name + s);
      c.nq += quaternion ? 7 : 6;
      // Degrees of freedom in the order x, y, z (along the link's axes), rx, ry, rz (about them).
      for (int k = 0; k < 6; ++k) {
        Vec6 s = Vec6::Zero();
        s(k < 3 ? 3 + k : k - 3) = 1.0;
        c.dof_subspace.push_back(s);
        c.dof_link.push_back(i);
        c.dof_parent.push_back(previous_dof);
        previous_dof = c.dof++;
      }
      c.motion_subspace.push_back(Vec6::Zero());
      c.axis_code.push_back(0);
      c.serial = false;
      continue;
    }
    c.joint_dofs.push_back(1);
    c.q_names.push_back(j.name);
    c.v_names.push_back(j.name);
    ++c.nq;
    Vec6 s = Vec6::Zero();
    if (j.type == JointType::revolute)
      s.head<3>() = j.axis;
    else
      s.tail<3>() = j.axis;
    c.motion_subspace.push_back(s);
    c.dof_subspace.push_back(s);
    c.dof_link.push_back(i);
    c.dof_parent.push_back(previous_dof);
    ++c.dof;
    int code = 0;
    for (int k = 0; k < 3; ++k)
      if (j.axis.cwiseAbs() == Vec3::Unit(k)) code = (k + 1) * (j.axis(k) > 0 ? 1 : -1);
    c.axis_code.push_back(code);
  }
}
}  // namespace

Chain build_chain(ChainSpec spec, const BuildOptions& options) {
  const SourceLocation file{spec.source_file, 0};
  if (spec.joints.empty())
    throw InputError(file, spec.name.empty() ? "chain" : spec.name, "the chain has no joint",
                     "give at least one joint");
  if (spec.links.size() != spec.joints.size())
    throw InputError(file, "chain",
                     "there are " + std::to_string(spec.links.size()) + " links for " +
                         std::to_string(spec.joints.size()) + " joints",
                     "give one link per joint");
  std::set<std::string> names;
  Chain c;
  c.links = static_cast<int>(spec.joints.size());
  for (size_t i = 0; i < spec.joints.size(); ++i) {
    ChainJoint& j = spec.joints[i];
    if (j.name.empty()) j.name = "joint" + std::to_string(i + 1);
    if (!names.insert(j.name).second)
      throw InputError(j.where, j.name, "the joint name is used twice", "give every joint its own name");
    if (j.parent == ChainJoint::previous_link) j.parent = static_cast<int>(i) - 1;
    if (j.parent < -1 || j.parent >= static_cast<int>(i))
      throw InputError(j.where, j.name, "its parent link is not listed before it",
                       "list every link after its parent (the base first)");
    c.parent.push_back(j.parent);
    c.serial = c.serial && j.parent == static_cast<int>(i) - 1;
    check_joint(j);
    check_link(spec, i, options, c.warnings);
    const MassProperties& b = spec.links[i].inertia;
    c.mass.push_back(b.mass);
    c.first_moment.push_back(b.mass * b.com);
    c.inertia_origin.push_back(inertia_about_origin(b));
    c.pseudo.push_back(pseudo_inertia(b));
    Mat6 I;
    I << c.inertia_origin.back(), skew(c.first_moment.back()), skew(c.first_moment.back()).transpose(),
        b.mass * Mat3::Identity();
    c.spatial_inertia.push_back(I);
  }
  if (spec.end_effector_link == ChainJoint::previous_link) spec.end_effector_link = c.links - 1;
  if (spec.end_effector_link < -1 || spec.end_effector_link >= c.links)
    throw InputError(file, "end effector", "its link does not exist", "name one of the model's links");
  c.spec = std::move(spec);
  index_joints(c);
  c.end_effector_link = c.spec.end_effector_link;
  add_frame(c, {c.spec.base_name, -1, Pose::identity()}, file);
  for (int i = 0; i < c.links; ++i) {
    const ChainLink& l = c.spec.links[size_t(i)];
    add_frame(c, {l.name.empty() ? c.joint(i).name + "_link" : l.name, i, Pose::identity()}, l.where);
  }
  for (const FrameSpec& f : c.spec.frames) {
    if (f.link < -1 || f.link >= c.links)
      throw InputError(file, "frame '" + f.name + "'", "its link does not exist",
                       "attach it to one of the model's links");
    add_frame(c, {f.name, f.link, f.pose}, file);
  }
  if (c.frame_index("end_effector") < 0) add_frame(c, {"end_effector", c.end_effector_link, c.spec.end_effector}, file);
  return c;
}

namespace {
Pose rot_x(double a) { return {axis_rotation(Vec3::UnitX(), a), Vec3::Zero()}; }
Pose rot_z(double a) { return {axis_rotation(Vec3::UnitZ(), a), Vec3::Zero()}; }
Pose trans(const Vec3& p) { return {Mat3::Identity(), p}; }
}  // namespace

void chain_from_dh(ChainSpec& spec, const std::vector<DhRow>& rows, bool modified, const Pose& end_effector) {
  spec.joints.clear();
  spec.links.clear();
  Pose previous_fixed;  // standard DH: Tx(a_{i-1}) Rx(alpha_{i-1}) of the previous row
  for (const DhRow& r : rows) {
    ChainJoint j = r.joint;
    j.axis = Vec3::UnitZ();
    // The offsets along/about z commute with the joint motion and go into the placement.
    const Pose offset = j.type == JointType::revolute ? trans(Vec3(0, 0, r.d)) * rot_z(r.theta)
                                                      : rot_z(r.theta) * trans(Vec3(0, 0, r.d));
    ChainLink link = r.link;
    if (modified) {
      j.placement = rot_x(r.alpha) * trans(Vec3(r.a, 0, 0)) * offset;
    } else {
      const int previous = static_cast<int>(spec.joints.size()) - 1;
      if (j.parent != ChainJoint::previous_link && j.parent != previous)
        throw InputError(j.where, j.name, "standard DH describes a serial chain: a branch cannot be placed by it",
                         "use convention modified_dh (Khalil-Kleinfinger) or origin for a tree");
      j.placement = previous_fixed * offset;
      previous_fixed = trans(Vec3(r.a, 0, 0)) * rot_x(r.alpha);
      // Inertia given in DH frame i, which sits at previous_fixed in the link frame.
      link.inertia = transformed(link.inertia, previous_fixed);
    }
    spec.joints.push_back(j);
    spec.links.push_back(link);
  }
  spec.end_effector = modified ? end_effector : previous_fixed * end_effector;
}

void chain_from_poe(ChainSpec& spec, const std::vector<PoeJoint>& joints, const Pose& end_effector) {
  spec.joints.clear();
  spec.links.clear();
  std::vector<Vec3> origin;  // each link frame's origin in the base at q = 0
  for (const PoeJoint& pj : joints) {
    ChainJoint j = pj.joint;
    const int i = static_cast<int>(spec.joints.size());
    const int parent = j.parent == ChainJoint::previous_link ? i - 1 : j.parent;
    const Vec3 parent_origin = parent >= 0 && parent < i ? origin[size_t(parent)] : Vec3::Zero();
    // Link frame: at the axis point, axes parallel to the base at q = 0.
    j.placement = trans(pj.point - parent_origin);
    j.axis = pj.direction;
    ChainLink link = pj.link;
    link.inertia.com -= pj.point;
    origin.push_back(pj.point);
    spec.joints.push_back(j);
    spec.links.push_back(link);
  }
  const int ee = spec.end_effector_link == ChainJoint::previous_link ? static_cast<int>(origin.size()) - 1
                                                                     : spec.end_effector_link;
  spec.end_effector =
      trans(ee >= 0 && ee < int(origin.size()) ? Vec3(-origin[size_t(ee)]) : Vec3::Zero()) * end_effector;
}

}  // namespace linkdyn::spatial
