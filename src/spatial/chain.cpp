#include "linkdyn/spatial/chain.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

namespace linkdyn::spatial {

int Chain::joint_index(const std::string& name) const {
  for (int i = 0; i < dof; ++i)
    if (spec.joints[static_cast<size_t>(i)].name == name) return i;
  return -1;
}

Chain build_chain(ChainSpec spec) {
  const SourceLocation file{spec.source_file, 0};
  if (spec.joints.empty())
    throw InputError(file, spec.name.empty() ? "chain" : spec.name, "the chain has no joint", "give at least one joint");
  if (spec.links.size() != spec.joints.size())
    throw InputError(file, "chain", "there are " + std::to_string(spec.links.size()) + " links for " +
                     std::to_string(spec.joints.size()) + " joints", "give one link per joint");
  std::set<std::string> names;
  Chain c;
  c.dof = static_cast<int>(spec.joints.size());
  for (size_t i = 0; i < spec.joints.size(); ++i) {
    ChainJoint& j = spec.joints[i];
    const ChainLink& l = spec.links[i];
    if (j.name.empty()) j.name = "joint" + std::to_string(i + 1);
    if (!names.insert(j.name).second)
      throw InputError(j.where, j.name, "the joint name is used twice", "give every joint its own name");
    const double n = j.axis.norm();
    if (!(n > 1e-9) || !std::isfinite(n))
      throw InputError(j.where, j.name, "the joint axis has zero length", "give a non-zero axis direction");
    j.axis /= n;
    const JointFriction& f = j.friction;
    if (f.viscous < 0 || f.coulomb < 0 || f.diameter < 0)
      throw InputError(j.where, j.name, "a friction coefficient is negative",
                       "give viscous, coulomb and diameter >= 0");
    if (f.coulomb > 0 && j.type == JointType::revolute && f.diameter <= 0)
      throw InputError(j.where, j.name, "dry friction in a revolute joint needs the journal diameter",
                       "give friction.diameter (m), the d of mu d/2 |k x f| [002 Eq. 157]");
    const MassProperties& b = l.inertia;
    if (!(b.mass >= 0.0) || !b.inertia_com.allFinite() || !b.com.allFinite())
      throw InputError(j.where, l.name.empty() ? j.name : l.name, "the link's mass properties are not valid numbers",
                       "give mass >= 0, a finite centre of mass and inertia");
    if (b.mass == 0.0 && !b.inertia_com.isZero(0.0)) {
      // A massless link may carry rotational inertia alone (a rotor, or the one identifiable
      // component of a published model, like the PUMA's link 1): it must be positive
      // semi-definite, so the kinetic energy cannot go negative.
      const Vec3 m = principal_axes(b).moments;
      if (m(0) < -1e-12 * m.cwiseAbs().sum())
        throw InputError(j.where, l.name.empty() ? j.name : l.name,
                         "the link has no mass and a negative principal moment of inertia (" + std::to_string(m(0)) +
                             " kg m^2)",
                         "give an inertia tensor with moments >= 0, in the link frame");
    }
    if (b.mass > 0.0) {
      const std::string problem = physical_consistency_problem(b);
      if (!problem.empty())
        throw InputError(j.where, l.name.empty() ? j.name : l.name, "the link is not physically possible: " + problem,
                         "check the inertia values and their frame");
    }
    c.mass.push_back(b.mass);
    c.first_moment.push_back(b.mass * b.com);
    c.inertia_origin.push_back(inertia_about_origin(b));
    c.pseudo.push_back(pseudo_inertia(b));
    Vec6 s = Vec6::Zero();
    if (j.type == JointType::revolute) s.head<3>() = j.axis;
    else s.tail<3>() = j.axis;
    c.motion_subspace.push_back(s);
    int code = 0;
    for (int k = 0; k < 3; ++k)
      if (j.axis.cwiseAbs() == Vec3::Unit(k)) code = (k + 1) * (j.axis(k) > 0 ? 1 : -1);
    c.axis_code.push_back(code);
  }
  c.spec = std::move(spec);
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
  Vec3 previous_origin = Vec3::Zero();
  for (const PoeJoint& pj : joints) {
    ChainJoint j = pj.joint;
    // Link frame: at the axis point, axes parallel to the base at q = 0.
    j.placement = trans(pj.point - previous_origin);
    j.axis = pj.direction;
    ChainLink link = pj.link;
    link.inertia.com -= pj.point;
    previous_origin = pj.point;
    spec.joints.push_back(j);
    spec.links.push_back(link);
  }
  spec.end_effector = trans(-previous_origin) * end_effector;
}

}  // namespace linkdyn::spatial
