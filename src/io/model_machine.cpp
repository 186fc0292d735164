// The model file's machine of direct dynamics: actuators (torques, resistances, DC motors) and
// constraint actions.
#include <cmath>

#include "io/model_parser.hpp"

namespace linkdyn::io {
using namespace linkdyn::planar;

void ModelParser::actuators(const YAML::Node& node) {
  each_named(
      node, "actuators", machine_.actuators, "actuator",
      [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
        dynamics::Actuator a;
        a.name = name;
        a.where = in_.where(key);
        const YAML::Node& n = value;
        in_.require_map(n, entity);
        const YAML::Node type = in_.required(n, "type", entity, "give type: torque, force, resistance or dc_motor");
        const std::string t = in_.text(type, entity + ".type");
        if (t == "force") {
          // A constant force along a prismatic pair, on its second body (a cylinder's pressure).
          in_.allow_only(n, entity, {"type", "joint", "value"});
          dynamics::Torque f;
          f.joint = prismatic_joint(
              in_.required(n, "joint", entity, "name the prismatic joint it pushes along (a cylinder's: <name>_slide)"),
              entity, "a force in a pair");
          f.value = in_.number(in_.required(n, "value", entity, "give value: the force along the guide, N"),
                               entity + ".value", Quantity::force);
          a.body = spec_.joints[f.joint].body[1];
          a.law = f;
          machine_.actuators.push_back(std::move(a));
          return;
        }
        if (t == "resistance" && field(n, "joint")) {
          // A Coulomb-viscous force along a prismatic pair, on its second body (the slider).
          dynamics::Resistance r;
          r.joint = prismatic_joint(field(n, "joint"), entity, "a resistance in a pair");
          if (field(n, "body"))
            in_.fail(field(n, "body"), entity, "a resistance in a joint acts on the joint's bodies", "remove 'body'");
          a.body = spec_.joints[r.joint].body[1];
          in_.allow_only(n, entity, {"type", "joint", "F0", "F0_static", "c"});
          r.T0 = in_.non_negative(n, "F0", entity, Quantity::force, false);
          r.T0_static = static_resistance(n, "F0_static", r.T0, entity, Quantity::force);
          r.c = in_.non_negative(n, "c", entity, Quantity::plain, false);
          a.law = r;
          machine_.actuators.push_back(std::move(a));
          return;
        }
        const YAML::Node body =
            in_.required(n, "body", entity, "name the body it acts on (or, for a resistance, the prismatic joint)");
        a.body = body_ref(body, entity);
        if (a.body == 0) in_.fail(body, entity, "an actuator on the ground does nothing", "name a moving body");
        auto positive = [&](const char* key, Quantity kind) {
          const double v =
              in_.number(in_.required(n, key, entity, std::string("give ") + key), entity + "." + key, kind);
          if (!(v > 0.0))
            in_.fail(n[key], entity, std::string(key) + " must be positive", std::string("give ") + key + " > 0");
          return v;
        };
        if (t == "torque") {
          dynamics::Torque torque;
          in_.allow_only(n, entity, {"type", "body", "value", "when"});
          torque.value =
              in_.number(in_.required(n, "value", entity, "give value: N m"), entity + ".value", Quantity::moment);
          if (const YAML::Node w = field(n, "when")) {
            in_.allow_only(w, entity + ".when", {"body", "omega"});
            torque.when_body =
                body_ref(in_.required(w, "body", entity + ".when", "name the body whose turning enables it"), entity);
            const std::string sign =
                in_.text(in_.required(w, "omega", entity + ".when", "give omega: positive or negative"), entity);
            if (sign != "positive" && sign != "negative")
              in_.fail(field(w, "omega"), entity, "omega must be positive or negative", "write omega: negative");
            torque.when_sign = sign == "positive" ? 1 : -1;
          }
          a.law = torque;
        } else if (t == "resistance") {
          dynamics::Resistance r;
          in_.allow_only(n, entity, {"type", "body", "T0", "T0_static", "c"});
          r.T0 = in_.non_negative(n, "T0", entity, Quantity::moment, false);
          r.T0_static = static_resistance(n, "T0_static", r.T0, entity, Quantity::moment);
          r.c = in_.non_negative(n, "c", entity, Quantity::plain, false);
          a.law = r;
        } else if (t == "dc_motor") {
          dynamics::DcMotor d;
          in_.allow_only(
              n, entity,
              {"type", "body", "voltage", "resistance", "inductance", "constant", "rotor_inertia", "reducer"});
          d.voltage = in_.number(in_.required(n, "voltage", entity, "give voltage: V"), entity + ".voltage");
          d.resistance = positive("resistance", Quantity::plain);
          d.inductance = positive("inductance", Quantity::plain);
          d.constant = positive("constant", Quantity::plain);
          d.rotor_inertia = in_.non_negative(n, "rotor_inertia", entity, Quantity::plain, false);
          if (const YAML::Node r = field(n, "reducer")) {
            in_.allow_only(r, entity + ".reducer", {"ratio", "inertia", "efficiency"});
            d.ratio = in_.number(in_.required(r, "ratio", entity + ".reducer", "give ratio: omega_out / omega_motor"),
                                 entity + ".reducer.ratio");
            if (!(std::abs(d.ratio) >= 1e-6 && std::abs(d.ratio) <= 1e6))
              in_.fail(field(r, "ratio"), entity, "reducer ratio must be between 1e-6 and 1e6 in magnitude",
                       "give omega_out / omega_motor (a ratio beyond that is no reducer)");
            d.reducer_inertia = in_.non_negative(r, "inertia", entity + ".reducer", Quantity::plain, false);
            d.efficiency =
                field(r, "efficiency") ? in_.number(field(r, "efficiency"), entity + ".reducer.efficiency") : 1.0;
            if (!(d.efficiency > 0.0 && d.efficiency <= 1.0))
              in_.fail(field(r, "efficiency"), entity, "efficiency must be in (0, 1]", "give efficiency: 0.9");
          }
          a.law = d;
        } else {
          in_.fail(type, entity, "unknown actuator type '" + t + "'", "use torque, force, resistance or dc_motor");
        }
        machine_.actuators.push_back(std::move(a));
      });
}

/// The prismatic pair named by `jn` (a cylinder's slide too) that `what` acts in.
int ModelParser::prismatic_joint(const YAML::Node& jn, const std::string& entity, const std::string& what) {
  need_two_body_joint(jn, entity, what);
  const int joint = spec_.find_joint(in_.text(jn, entity + ".joint"));
  if (joint < 0 || !spec_.joints[joint].is<PrismaticPair>())
    in_.fail(jn, entity, "'" + jn.Scalar() + "' is not a prismatic joint",
             "name a prismatic joint defined under 'joints' or a cylinder's slide, <name>_slide");
  return joint;
}

/// The static Coulomb resistance (default: the kinetic one), not below the kinetic one.
double ModelParser::static_resistance(const YAML::Node& n, const char* key, double kinetic, const std::string& entity,
                                      Quantity kind) {
  if (!n[key]) return kinetic;
  const double v = in_.non_negative(n, key, entity, kind, true);
  if (v < kinetic)
    in_.fail(n[key], entity, fmt::format("{} = {:g} is below the kinetic resistance {:g}", key, v, kinetic),
             std::string("give ") + key +
                 " >= the kinetic value (static friction holds at least what kinetic friction resists)");
  return v;
}

void ModelParser::constraint_actions(const YAML::Node& node) {
  each_named(
      node, "constraint_actions", machine_.constraint_actions, "constraint action",
      [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
        dynamics::ConstraintAction a;
        a.name = name;
        a.where = in_.where(key);
        in_.allow_only(value, entity, {"joint", "along", "direction", "component"});
        const YAML::Node jn = in_.required(value, "joint", entity, "name the joint whose reaction it follows");
        need_two_body_joint(jn, entity, "a constraint action follows the reaction that");
        a.joint = spec_.find_joint(in_.text(jn, entity + ".joint"));
        if (a.joint < 0)
          in_.fail(jn, entity, "unknown joint '" + jn.Scalar() + "'", "name a joint defined under 'joints'");
        const Joint& j = spec_.joints[a.joint];
        if (j.is<RevolutePair>()) {
          if (field(value, "along")) {
            const YAML::Node along = field(value, "along");
            if (!along.IsSequence() || along.size() != 2)
              in_.fail(along, entity, "'along' names two points of one body", "write along: [leg.K, leg.A]");
            const dynamics::AlongPoints points{{body_point(along[0], entity), body_point(along[1], entity)}};
            if (points.through[0].body != points.through[1].body ||
                (points.through[1].local - points.through[0].local).norm() < 1e-12)
              in_.fail(along, entity, "'along' needs two distinct points of the same body",
                       "write along: [leg.K, leg.A]");
            a.component = points;
          } else {
            const double angle =
                in_.number(in_.required(value, "direction", entity, "give along: [body.P, body.Q] or direction: angle"),
                           entity + ".direction", Quantity::angle);
            a.component = dynamics::AlongDirection{Vec2(std::cos(angle), std::sin(angle))};
          }
        } else if (j.is<PrismaticPair>()) {
          const std::string c =
              field(value, "component") ? in_.text(field(value, "component"), entity + ".component") : "normal";
          if (c != "normal" && c != "moment")
            in_.fail(field(value, "component"), entity, "unknown component '" + c + "'", "use normal or moment");
          if (c == "moment")
            a.component = dynamics::PairMoment{};
          else
            a.component = dynamics::NormalForce{};
        } else {
          in_.fail(jn, entity, "a gear pair has no constraint action here", "name a revolute or prismatic joint");
        }
        machine_.constraint_actions.push_back(std::move(a));
      });
}

}  // namespace linkdyn::io
