// The model file's cylinders: a linear actuator between two bodies' points, built of a barrel and
// a rod (two bodies), a revolute pair at each end and a prismatic pair between them, driven by
// its length (docs/model-format.md, "Cylinders").
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "io/model_parser.hpp"

namespace linkdyn::io {
using namespace linkdyn::planar;

namespace {

/// The extreme lengths a motion law reaches over a grid (four samples per step, the ends
/// included) and the times it reaches them.
struct LawRange {
  double low = 0.0, high = 0.0, t_low = 0.0, t_high = 0.0;
};
LawRange law_range(const MotionLaw& law, const TimeGrid& grid) {
  const int samples = 4 * std::max(grid.steps, 1);
  LawRange r;
  for (int k = 0; k <= samples; ++k) {
    const double t = grid.t0 + (grid.t_end - grid.t0) * k / samples;
    const double q = evaluate(law, t).q;
    if (k == 0 || q < r.low) r.low = q, r.t_low = t;
    if (k == 0 || q > r.high) r.high = q, r.t_high = t;
  }
  return r;
}

/// Where `law` takes cylinder c's length beyond its limits (or to zero) over `grid`; "" if
/// nowhere.
std::string stroke_problem(const Cylinder& c, const MotionLaw& law, const TimeGrid& grid) {
  const LawRange range = law_range(law, grid);
  const double low = c.stroke_max > 0.0 ? c.stroke_min : 0.0;
  const double high = c.stroke_max > 0.0 ? c.stroke_max : std::numeric_limits<double>::infinity();
  const double slack = 1e-9 * std::max(1.0, c.stroke_max);
  if (range.low >= low - slack && range.high <= high + slack) return {};
  const bool below = range.low < low - slack;
  const double length = below ? range.low : range.high, t = below ? range.t_low : range.t_high;
  if (!(c.stroke_max > 0.0)) return fmt::format("its law takes the length to {:.6g} m at t = {:.6g} s", length, t);
  return fmt::format("its law takes the length to {:.6g} m at t = {:.6g} s, {} {:g} m", length, t,
                     below ? "below the retracted length" : "beyond the extended length", below ? low : high);
}

}  // namespace

dynamics::CylinderForce ModelParser::cylinder_force(const Cylinder& c, const YAML::Node& f, const std::string& path) {
  dynamics::CylinderForce law;
  law.joint = c.slide_joint;
  law.driver = c.driver;
  if (c.relief > 0.0) law.max_push = c.relief * c.piston_area, law.max_pull = c.relief * c.annulus_area;
  if (!f.IsMap()) {
    law.value = in_.number(f, path, Quantity::force);
    return law;
  }
  if (field(f, "table")) {
    // A force tabulated against the length or the speed: rows [x, F], x increasing.
    in_.allow_only(f, path, {"against", "table"});
    const YAML::Node against = in_.required(f, "against", path, "give against: length or against: speed");
    const std::string x_name = in_.text(against, path + ".against");
    if (x_name != "length" && x_name != "speed")
      in_.fail(against, path, "unknown coordinate '" + x_name + "'",
               "give against: length (pin to pin, m) or against: speed (dL/dt, m/s)");
    law.against =
        x_name == "length" ? dynamics::CylinderForce::Against::length : dynamics::CylinderForce::Against::speed;
    const Quantity x_kind = x_name == "length" ? Quantity::length : Quantity::velocity;
    const YAML::Node rows = field(f, "table");
    const std::string hint = x_name == "length" ? "write table: [[1.2 m, 40 kN], [1.8 m, 35 kN]]"
                                                : "write table: [[-0.2, -30 kN], [0, 0], [0.2, 30 kN]] (m/s, N)";
    if (!rows.IsSequence() || rows.size() < 2) in_.fail(rows, path, "the table needs two rows or more", hint);
    for (const YAML::Node& row : rows) {
      if (!row.IsSequence() || row.size() != 2) in_.fail(row, path, "each row is a pair [" + x_name + ", force]", hint);
      law.x.push_back(in_.number(row[0], path + ".table", x_kind));
      law.force.push_back(in_.number(row[1], path + ".table", Quantity::force));
      if (law.x.size() > 1 && !(law.x.back() > law.x[law.x.size() - 2]))
        in_.fail(row, path,
                 fmt::format("the {} {:g} is not above the previous row's {:g}", x_name, law.x.back(),
                             law.x[law.x.size() - 2]),
                 "give the rows in increasing " + x_name);
    }
    if (law.against == dynamics::CylinderForce::Against::length && c.stroke_max > 0.0 &&
        (law.x.front() > c.stroke_min || law.x.back() < c.stroke_max))
      in_.fail(rows, path,
               fmt::format("the table covers lengths [{:g}, {:g}] m, not the stroke [{:g}, {:g}] m", law.x.front(),
                           law.x.back(), c.stroke_min, c.stroke_max),
               "extend the table from the retracted to the extended length");
    return law;
  }
  // The pressure on one side, less a back pressure on the other: p A_piston - p_back A_annulus
  // pushing, or p A_annulus - p_back A_piston pulling.
  in_.allow_only(f, path, {"pressure", "side", "back_pressure"});
  const YAML::Node p = in_.required(f, "pressure", path, "give pressure: e.g. 250 bar, or table: and against:");
  const double pressure = in_.number(p, path + ".pressure", Quantity::pressure);
  if (!(pressure > 0.0)) in_.fail(p, path, "the pressure must be positive", "give the supply pressure, e.g. 250 bar");
  if (!c.has_areas())
    in_.fail(f, path, "a pressure needs the cylinder's areas", "give bore: and rod_diameter: beside force:");
  const YAML::Node back = field(f, "back_pressure");
  const double back_pressure = back ? in_.number(back, path + ".back_pressure", Quantity::pressure) : 0.0;
  if (!(back_pressure >= 0.0 && back_pressure < pressure))
    in_.fail(back, path, "the back pressure must be between 0 and the pressure",
             "give the return line's pressure, e.g. 5 bar");
  const std::string side = field(f, "side") ? in_.text(field(f, "side"), path + ".side") : "piston";
  if (side != "piston" && side != "rod")
    in_.fail(field(f, "side"), path, "unknown side '" + side + "'",
             "give side: piston (pushing the rod out) or rod (pulling it in)");
  law.value = side == "piston" ? pressure * c.piston_area - back_pressure * c.annulus_area
                               : back_pressure * c.piston_area - pressure * c.annulus_area;
  return law;
}

void ModelParser::cylinder_strokes() {
  // The analyses run over the model's grid (analysis:) or the first driver's law's: each
  // cylinder's law must stay within its stroke there too.
  if (spec_.drivers.empty()) return;
  const TimeGrid grid = spec_.grid ? *spec_.grid : natural_grid(spec_.drivers.front().law);
  for (const Cylinder& c : spec_.cylinders) {
    const Driver& drv = spec_.drivers[static_cast<size_t>(c.driver)];
    if (const std::string problem = stroke_problem(c, drv.law, grid); !problem.empty())
      throw InputError(drv.where, "driver '" + drv.name + "'",
                       problem + fmt::format(", within the analysis's time span [{:g}, {:g}] s", grid.t0, grid.t_end),
                       "keep the analysis within the law's span (analysis:, or the first driver's law), or the law "
                       "within the cylinder's limits");
  }
}

void ModelParser::cylinder(const std::string& name, const std::string& entity, const YAML::Node& key,
                           const YAML::Node& d) {
  in_.allow_only(d, entity,
                 {"type", "between", "law", "limits", "bore", "rod_diameter", "seal_friction", "relief", "barrel",
                  "rod", "force"});
  Cylinder c;
  c.name = name;
  c.where = in_.where(key);
  const YAML::Node between =
      in_.required(d, "between", entity, "give between: [body.P, body.Q], the barrel's pin first, then the rod's");
  if (!between.IsSequence() || between.size() != 2)
    in_.fail(between, entity, "'between' must name two points", "write between: [ground.C, boom.D]");
  for (int k = 0; k < 2; ++k) {
    c.between[static_cast<size_t>(k)] = body_point(between[k], entity + ".between");
    c.between_names[static_cast<size_t>(k)] = between[k].Scalar();
  }
  if (c.between[0].body == c.between[1].body)
    in_.fail(between, entity, "joins body '" + spec_.bodies[c.between[0].body].name + "' to itself",
             "name points of two different bodies: the one that carries the barrel, then the one the rod pushes");
  // Two ends on one pin never part: the cylinder could not change its length.
  for (const Joint& j : spec_.joints)
    if (j.is<RevolutePair>())
      for (int side = 0; side < 2; ++side)
        if (j.body[side] == c.between[0].body && j.body[1 - side] == c.between[1].body &&
            (j.point[side] - c.between[0].local).norm() < 1e-12 &&
            (j.point[1 - side] - c.between[1].local).norm() < 1e-12)
          in_.fail(between, entity, "its two ends sit on joint '" + j.name + "', so they always coincide",
                   "name the points where the barrel and the rod are pinned, apart from each other");

  // Its parts, named after it; names must be free.
  const std::string barrel_name = name + "_barrel", rod_name = name + "_rod";
  const std::string base_name = name + "_base", slide_name = name + "_slide", end_name = name + "_end";
  for (const std::string& n : {barrel_name, rod_name})
    if (spec_.find_body(n) >= 0)
      in_.fail(key, entity, "its " + n.substr(name.size() + 1) + " is named '" + n + "', a body of the model",
               "rename the cylinder or that body");
  for (const std::string& n : {base_name, slide_name, end_name})
    if (spec_.find_joint(n) >= 0 || spec_.find_pin(n) >= 0)
      in_.fail(key, entity, "its pair '" + n + "' has the name of a joint of the model",
               "rename the cylinder or that joint");

  auto part = [&](const char* which, const std::string& part_name) {
    Body b;
    b.name = part_name;
    b.where = c.where;
    if (const YAML::Node p = field(d, which)) {
      const std::string path = entity + "." + which;
      in_.require_map(p, path);
      in_.allow_only(p, path, {"mass", "com", "inertia"});
      b.mass = in_.non_negative(p, "mass", path, Quantity::plain, false);
      b.inertia = in_.non_negative(p, "inertia", path, Quantity::plain, false);
      if (field(p, "com")) b.com = in_.point(field(p, "com"), path + ".com");
      b.where = in_.where(p);
    }
    spec_.bodies.push_back(std::move(b));
    return static_cast<int>(spec_.bodies.size()) - 1;
  };
  c.barrel = part("barrel", barrel_name);
  c.rod = part("rod", rod_name);

  auto pin = [&](const std::string& pin_name, int body, const Vec2& local, const std::string& point_name, int part) {
    Joint j;
    j.name = pin_name;
    j.where = c.where;
    j.kind = RevolutePair{revolute_friction_.size};
    j.friction = revolute_friction_.coefficient, j.static_friction = revolute_friction_.static_coefficient;
    j.body = {body, part};
    j.point = {local, Vec2::Zero()};
    j.point_name = {point_name, "origin"};
    spec_.joints.push_back(std::move(j));
    return static_cast<int>(spec_.joints.size()) - 1;
  };
  auto point_name = [](const std::string& ref) { return ref.substr(ref.find('.') + 1); };
  c.base_joint = pin(base_name, c.between[0].body, c.between[0].local, point_name(c.between_names[0]), c.barrel);
  Joint slide;  // the rod's origin (its pin) on the barrel's axis, from the barrel's pin: q = L
  slide.name = slide_name;
  slide.where = c.where;
  slide.kind = PrismaticPair{};
  slide.body = {c.barrel, c.rod};
  slide.point_name = {"origin", "origin"};
  spec_.joints.push_back(std::move(slide));
  c.slide_joint = static_cast<int>(spec_.joints.size()) - 1;
  c.end_joint = pin(end_name, c.between[1].body, c.between[1].local, point_name(c.between_names[1]), c.rod);

  if (const YAML::Node limits = field(d, "limits")) {
    const std::string path = entity + ".limits";
    in_.require_map(limits, path);
    in_.allow_only(limits, path, {"retracted", "extended"});
    c.stroke_min =
        in_.number(in_.required(limits, "retracted", path, "give retracted: the shortest length, pin to pin"),
                   path + ".retracted", Quantity::length);
    c.stroke_max = in_.number(in_.required(limits, "extended", path, "give extended: the longest length, pin to pin"),
                              path + ".extended", Quantity::length);
    if (!(c.stroke_min > 0.0))
      in_.fail(field(limits, "retracted"), path, "the retracted length must be positive", "give it in m, pin to pin");
    if (!(c.stroke_max > c.stroke_min))
      in_.fail(
          field(limits, "extended"), path,
          fmt::format("the extended length {:g} m is not above the retracted one {:g} m", c.stroke_max, c.stroke_min),
          "give extended > retracted (their difference is the stroke)");
  }
  if (const YAML::Node bore = field(d, "bore")) {
    const double D = in_.number(bore, entity + ".bore", Quantity::length);
    const YAML::Node rod_node = field(d, "rod_diameter");
    const double rod = rod_node ? in_.number(rod_node, entity + ".rod_diameter", Quantity::length) : 0.0;
    if (!(D > 0.0))
      in_.fail(bore, entity, "the bore must be positive", "give bore: the piston's diameter, e.g. 140 mm");
    if (!rod_node)
      in_.fail(bore, entity, "a bore without rod_diameter leaves the pulling area unknown",
               "give rod_diameter: e.g. 100 mm");
    if (!(rod > 0.0 && rod < D))
      in_.fail(rod_node, entity, fmt::format("the rod's diameter {:g} m is not between 0 and the bore {:g} m", rod, D),
               "give a rod thinner than the bore");
    c.piston_area = M_PI * D * D / 4.0;
    c.annulus_area = M_PI * (D * D - rod * rod) / 4.0;
  } else if (const YAML::Node rod_node = field(d, "rod_diameter")) {
    in_.fail(rod_node, entity, "rod_diameter without bore", "give bore: the piston's diameter too");
  }
  c.seal_friction = in_.non_negative(d, "seal_friction", entity, Quantity::force, false);

  Driver drv;
  drv.name = name;
  drv.type = DriverType::linear;
  drv.joint = c.slide_joint;
  drv.where = c.where;
  drv.cylinder = static_cast<int>(spec_.cylinders.size());
  const YAML::Node law_node =
      in_.required(d, "law", entity, "give the length's motion law, e.g. law: {type: sweep, from: 2 m, to: 3 m}");
  drv.law = law(law_node, entity + ".law", DriverType::linear);
  if (const std::string problem = stroke_problem(c, drv.law, natural_grid(drv.law)); !problem.empty())
    in_.fail(law_node, entity, problem,
             c.stroke_max > 0.0 ? "keep the law within limits: {retracted, extended}, or correct the limits"
                                : "give a law of positive lengths (pin to pin)");
  c.driver = static_cast<int>(spec_.drivers.size());
  spec_.drivers.push_back(std::move(drv));

  if (const YAML::Node r = field(d, "relief")) {
    c.relief = in_.number(r, entity + ".relief", Quantity::pressure);
    if (!(c.relief > 0.0)) in_.fail(r, entity, "the relief pressure must be positive", "give it, e.g. 300 bar");
    if (!c.has_areas())
      in_.fail(r, entity, "a relief pressure needs the cylinder's areas", "give bore: and rod_diameter: beside it");
  }
  if (const YAML::Node f = field(d, "force")) {  // in the direct dynamics, its force along it
    dynamics::Actuator force;
    force.name = name + "_force";
    force.where = in_.where(f);
    force.body = c.rod;
    force.law = cylinder_force(c, f, entity + ".force");
    machine_.actuators.push_back(std::move(force));
  }
  if (c.seal_friction > 0.0) {  // in the direct dynamics, a Coulomb resistance in the slide
    dynamics::Actuator seal;
    seal.name = name + "_seal";
    seal.where = c.where;
    seal.body = c.rod;
    seal.law = dynamics::Resistance{c.slide_joint, c.seal_friction, c.seal_friction, 0.0};
    machine_.actuators.push_back(std::move(seal));
  }
  spec_.cylinders.push_back(std::move(c));
}

}  // namespace linkdyn::io
