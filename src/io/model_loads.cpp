// The model file's loads: forces, moments, springs and dampers, tabulated loads against a
// coordinate of the motion, and the CSV tables of loads and motion laws.
#include <filesystem>

#include "io/model_parser.hpp"
#include "linkdyn/io/table_reader.hpp"

namespace linkdyn::io {
using namespace linkdyn::planar;

void ModelParser::loads(const YAML::Node& node) {
  each_named(
      node, "loads", spec_.loads, "load",
      [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
        const YAML::Node& l = value;
        in_.require_map(l, entity);
        Load load;
        load.name = name;
        load.where = in_.where(key);
        const YAML::Node type = in_.required(
            l, "type", entity, "give type: force, moment, spring, damper, torsional_spring or torsional_damper");
        const std::string t = in_.text(type, entity + ".type");
        if (field(l, "useful")) {
          if (!field(l, "useful").IsScalar() ||
              (field(l, "useful").Scalar() != "true" && field(l, "useful").Scalar() != "false"))
            in_.fail(field(l, "useful"), entity, "useful must be true or false", "write useful: true");
          load.useful = field(l, "useful").Scalar() == "true";
        }
        auto body_of = [&]() {
          const YAML::Node b = in_.required(l, "body", entity, "name the body it acts on");
          const int body = body_ref(b, entity);
          if (body == 0)
            in_.fail(b, entity, "a load on the ground does no work and needs no analysis", "apply it to a moving body");
          return body;
        };
        auto revolute_joint = [&]() {
          const YAML::Node jn = in_.required(l, "joint", entity, "name the revolute joint it acts in");
          need_two_body_joint(jn, entity, "a torsional spring or damper");
          const int joint = spec_.find_joint(in_.text(jn, entity + ".joint"));
          if (joint < 0 || !spec_.joints[joint].is<RevolutePair>())
            in_.fail(jn, entity, "'" + jn.Scalar() + "' is not a revolute joint",
                     "name a revolute joint defined under 'joints'");
          return joint;
        };
        auto between = [&]() {
          const YAML::Node points = in_.required(l, "between", entity, "give between: [body.point, body.point]");
          if (!points.IsSequence() || points.size() != 2)
            in_.fail(points, entity, "'between' names two points", "write between: [crank.B, ground.D]");
          return std::array<BodyPoint, 2>{body_point(points[0], entity), body_point(points[1], entity)};
        };
        if (t == "force" || t == "moment") {
          const bool force = t == "force";
          if (force)
            in_.allow_only(l, entity, {"type", "body", "point", "value", "table", "viscous", "useful"});
          else
            in_.allow_only(l, entity, {"type", "body", "value", "table", "useful"});
          const int body = body_of();
          PointForce point_force;
          BodyMoment moment;
          if (force) {
            const YAML::Node p = in_.required(l, "point", entity, "name the point of the body where it acts");
            point_force.at = {body, point_ref(body, in_.text(p, entity + ".point"), p, entity)};
          }
          moment.body = body;
          if ((field(l, "value") ? 1 : 0) + (field(l, "table") ? 1 : 0) + (field(l, "viscous") ? 1 : 0) > 1)
            in_.fail(field(l, "table") ? field(l, "table") : field(l, "viscous"), entity,
                     "more than one of 'value', 'table', 'viscous' is given", "give one of them");
          if (field(l, "table")) {
            load.table = load_table(field(l, "table"), entity, force);
          } else if (field(l, "viscous")) {
            point_force.viscous = in_.non_negative(l, "viscous", entity, Quantity::plain, true);
          } else {
            const YAML::Node v =
                in_.required(l, "value", entity, force ? "give value: [Fx, Fy] in N" : "give value: M in N m");
            if (force)
              point_force.value = in_.vector(v, entity + ".value", Quantity::force, "write value: [Fx, Fy] in N");
            else
              moment.value = in_.number(v, entity + ".value", Quantity::moment);
          }
          if (force)
            load.element = point_force;
          else
            load.element = moment;
        } else if (t == "spring") {
          in_.allow_only(l, entity, {"type", "between", "stiffness", "free_length", "useful"});
          Spring spring;
          spring.between = between();
          spring.stiffness = in_.non_negative(l, "stiffness", entity, Quantity::plain, true);
          spring.free_length = in_.non_negative(l, "free_length", entity, Quantity::length, true);
          load.element = spring;
        } else if (t == "damper") {
          in_.allow_only(l, entity, {"type", "between", "damping", "useful"});
          Damper damper;
          damper.between = between();
          damper.damping = in_.non_negative(l, "damping", entity, Quantity::plain, true);
          load.element = damper;
        } else if (t == "torsional_spring") {
          in_.allow_only(l, entity, {"type", "joint", "stiffness", "free_angle", "useful"});
          TorsionalSpring spring;
          spring.joint = revolute_joint();
          spring.stiffness = in_.non_negative(l, "stiffness", entity, Quantity::plain, true);
          spring.free_angle = in_.optional_number(l, "free_angle", entity, Quantity::angle).value_or(0.0);
          load.element = spring;
        } else if (t == "torsional_damper") {
          in_.allow_only(l, entity, {"type", "joint", "damping", "useful"});
          TorsionalDamper damper;
          damper.joint = revolute_joint();
          damper.damping = in_.non_negative(l, "damping", entity, Quantity::plain, true);
          load.element = damper;
        } else {
          in_.fail(type, entity, "unknown load type '" + t + "'",
                   "use force, moment, spring, damper, torsional_spring or torsional_damper");
        }
        spec_.loads.push_back(std::move(load));
      });
}

/// A coordinate of the motion by name (docs/model-format.md, tabulated loads): t, a driver,
/// <body>.angle|omega, <joint>.displacement|speed (prismatic) or .angle|omega (revolute),
/// <body>.<point>.x|y|vx|vy or <point>.x|y|vx|vy for a point named in one moving body.
/// `rate` tells whether the name is a rate (omega, speed, vx, vy).
Coordinate ModelParser::coordinate(const YAML::Node& node, const std::string& entity, bool& rate) {
  const std::string text = in_.text(node, entity);
  const std::string fix =
      "write t, a driver's name, <body>.angle or .omega, <joint>.displacement or .speed (prismatic), <joint>.angle "
      "or "
      ".omega (revolute), or <body>.<point>.x, .y, .vx, .vy";
  Coordinate c;
  c.label = text;
  rate = false;
  if (text == "t") return c;
  for (size_t d = 0; d < spec_.drivers.size(); ++d)
    if (spec_.drivers[d].name == text) {
      c.kind = Coordinate::DriverValue{static_cast<int>(d)};
      return c;
    }
  const auto dot = text.rfind('.');
  if (dot == std::string::npos) in_.fail(node, entity, "'" + text + "' is neither t, a driver nor a coordinate", fix);
  const std::string owner = text.substr(0, dot), what = text.substr(dot + 1);
  if (what == "angle" || what == "omega") {
    rate = what == "omega";
    if (const int b = spec_.find_body(owner); b > 0) {
      c.kind = Coordinate::BodyAngle{b};
      return c;
    }
    if (const int j = spec_.find_joint(owner); j >= 0 && spec_.joints[j].is<RevolutePair>()) {
      c.kind = Coordinate::PairAngle{j};
      return c;
    }
    in_.fail(node, entity, "'" + owner + "' is neither a moving body nor a revolute joint", fix);
  }
  if (what == "displacement" || what == "speed") {
    rate = what == "speed";
    const int j = spec_.find_joint(owner);
    if (j < 0 || !spec_.joints[j].is<PrismaticPair>())
      in_.fail(node, entity, "'" + owner + "' is not a prismatic joint", fix);
    c.kind = Coordinate::PairDisplacement{j};
    return c;
  }
  if (what == "x" || what == "y" || what == "vx" || what == "vy") {
    rate = what[0] == 'v';
    auto along = [&](const BodyPoint& p) -> Coordinate::Kind {
      if (what.back() == 'x') return Coordinate::PointX{p};
      return Coordinate::PointY{p};
    };
    // body.point, or a point name carried by one moving body.
    const auto inner = owner.find('.');
    if (inner != std::string::npos) {
      const int b = spec_.find_body(owner.substr(0, inner));
      if (b <= 0) in_.fail(node, entity, "'" + owner.substr(0, inner) + "' is not a moving body", fix);
      c.kind = along({b, point_ref(b, owner.substr(inner + 1), node, entity)});
      return c;
    }
    int found = 0;
    for (size_t b = 1; b < spec_.bodies.size(); ++b)
      if (const int k = spec_.bodies[b].find_point(owner); k >= 0) {
        if (found++ == 0) c.kind = along({static_cast<int>(b), spec_.bodies[b].points[k].local});
      }
    if (found == 0) in_.fail(node, entity, "no moving body has a point '" + owner + "'", fix);
    if (found > 1)
      in_.fail(node, entity, "several bodies have a point '" + owner + "'", "write <body>." + owner + "." + what);
    return c;
  }
  in_.fail(node, entity, "unknown coordinate '" + text + "'", fix);
}

/// {file, against, periodic, scale}: CSV with columns x,Fx,Fy (force) or x,M (moment), its
/// values times scale (a load's size in a design study).
LoadTable ModelParser::load_table(const YAML::Node& node, const std::string& entity, bool force) {
  in_.allow_only(node, entity + ".table", {"file", "against", "periodic", "scale"});
  LoadTable tab;
  tab.where = in_.where(node);
  const YAML::Node against =
      in_.required(node, "against", entity + ".table", "give against: t, a driver's name or a coordinate");
  tab.against = coordinate(against, entity + ".table.against", tab.rate);
  if (const YAML::Node p = field(node, "periodic")) {
    const std::string v = in_.text(p, entity + ".table.periodic");
    if (v != "true" && v != "false") in_.fail(p, entity, "periodic must be true or false", "write periodic: true");
    tab.periodic = v == "true";
  }
  const std::vector<std::vector<double>> rows = csv(in_.required(node, "file", entity + ".table", "give file: a CSV"),
                                                    entity, force ? "x,Fx,Fy" : "x,M", tab.file);
  const double scale = in_.optional_number(node, "scale", entity + ".table").value_or(1.0);
  for (const auto& r : rows) {
    tab.x.push_back(r[0]);
    tab.value.emplace_back(scale * r[1], force ? scale * r[2] : 0.0);
  }
  if (tab.periodic && (tab.value.front() - tab.value.back()).norm() > 1e-9 * (1.0 + tab.value.front().norm()))
    in_.fail(field(node, "periodic"), entity,
             fmt::format("a periodic table must end with its first value, and {} ends at {:g}", tab.file,
                         tab.value.back().x()),
             "repeat the first row's values at x + period in the last row");
  return tab;
}

/// Rows of a CSV file (path relative to the model) with the given header; the first column
/// strictly increasing; '#' lines are comments (parsing by io::read_csv_table); each row's line
/// into `lines` if given.
std::vector<std::vector<double>> ModelParser::csv(const YAML::Node& f, const std::string& entity,
                                                  const std::string& header_expected, std::string& file,
                                                  std::vector<int>* lines) {
  const std::filesystem::path rel = in_.text(f, entity + ".file");
  const std::filesystem::path full = rel.is_absolute() ? rel : std::filesystem::path(path_).parent_path() / rel;
  file = full.string();
  std::error_code ec;  // a path that exists but cannot be read: read_csv_table says why
  if (!std::filesystem::exists(full, ec) && !ec)
    in_.fail(f, entity, "'" + file + "' does not exist", "give a path relative to the model file");
  const CsvTable csv = read_csv_table(file);
  const Table& t = csv.table;
  std::string joined;
  for (const std::string& c : t.columns) joined += (joined.empty() ? "" : ",") + c;
  if (joined != header_expected)
    throw InputError({file, csv.header_line}, "table", "the header is '" + joined + "'",
                     "the first line must be " + header_expected);
  std::vector<std::vector<double>> rows;
  for (size_t r = 0; r < t.rows(); ++r) {
    rows.emplace_back(t.values.begin() + std::ptrdiff_t(r * t.width()),
                      t.values.begin() + std::ptrdiff_t((r + 1) * t.width()));
    if (r > 0 && !(rows[r][0] > rows[r - 1][0]))
      throw InputError({file, csv.row_lines[r]}, "table", "the first column does not increase",
                       "sort the rows without repeats");
  }
  if (rows.size() < 2)
    throw InputError({file, csv.row_lines.back()}, "table", "fewer than two rows",
                     "give at least two rows of " + header_expected);
  if (lines) *lines = csv.row_lines;
  return rows;
}

}  // namespace linkdyn::io
