// The model file's cams (docs/model-format.md, "Cams"): a cam joint between a disc cam turning
// on a ground pivot and a follower sliding on a ground guide or turning on a ground pivot, its
// follower's program, and the geometry its pitch curve is made for, taken from those pairs.
#include <algorithm>
#include <cmath>
#include <string>

#include "io/model_parser.hpp"

namespace linkdyn::io {
using namespace linkdyn::planar;

namespace {

/// The two-body revolute or prismatic pair of `body` with the ground, or -1.
int ground_pair(const MechanismSpec& spec, int body) {
  for (size_t k = 0; k < spec.joints.size(); ++k) {
    const Joint& j = spec.joints[k];
    if (j.connects(body) && j.other(body) == 0 && (j.is<RevolutePair>() || j.is<PrismaticPair>()))
      return static_cast<int>(k);
  }
  return -1;
}

}  // namespace

void ModelParser::cam_joint(const YAML::Node& j, Joint& joint, const std::string& entity) {
  joint.kind.emplace<CamPair>();
  in_.allow_only(j, entity,
                 {"type", "bodies", "follower_point", "roller_radius", "base_radius", "program", "phase", "turning",
                  "side", "friction", "spring"});
  const YAML::Node point =
      in_.required(j, "follower_point", entity, "name the follower's point on the cam: its roller's centre or edge");
  joint.point_name[1] = in_.text(point, entity + ".follower_point");
  joint.point[1] = point_ref(joint.body[1], joint.point_name[1], point, entity);
  cam_nodes_.push_back({static_cast<int>(spec_.joints.size()), j});
}

void ModelParser::cam_geometry() {
  for (const auto& [index, j] : cam_nodes_) {
    Joint& joint = spec_.joints[static_cast<size_t>(index)];
    const std::string entity = "joint '" + joint.name + "'";
    CamPair& cam = joint.as<CamPair>();
    const int cam_body = joint.body[0], follower = joint.body[1];
    // The cam's pivot and the follower's pair, both on the ground.
    const int pivot = ground_pair(spec_, cam_body);
    if (cam_body == 0 || pivot < 0 || !spec_.joints[static_cast<size_t>(pivot)].is<RevolutePair>())
      in_.fail(field(j, "bodies"), entity, "the cam (the first body) must turn on a revolute joint with the ground",
               "pin the cam to a ground point");
    const Joint& cam_pivot = spec_.joints[static_cast<size_t>(pivot)];
    const int side0 = cam_pivot.body[0] == 0 ? 0 : 1;
    const Vec2 O = cam_pivot.point[side0];
    joint.point[0] = cam_pivot.point[1 - side0];
    joint.point_name[0] = cam_pivot.point_name[1 - side0];
    const int pair = follower == 0 ? -1 : ground_pair(spec_, follower);
    if (pair < 0)
      in_.fail(field(j, "bodies"), entity,
               "the follower (the second body) must slide on a ground guide or turn on a ground pivot",
               "join it to the ground with a prismatic or a revolute joint");
    const Joint& fp = spec_.joints[static_cast<size_t>(pair)];
    const bool translating = fp.is<PrismaticPair>();
    if (translating && fp.body[0] != 0)
      in_.fail(field(j, "bodies"), entity, "the follower's guide must be fixed in the ground",
               "give the prismatic joint as bodies: [ground, " + spec_.bodies[follower].name + "]");

    CamFollower& f = cam.follower;
    f.motion = translating ? CamFollower::Motion::translating : CamFollower::Motion::oscillating;
    f.base_radius =
        in_.number(in_.required(j, "base_radius", entity, "give base_radius: the profile's smallest radius"),
                   entity + ".base_radius", Quantity::length);
    if (!(f.base_radius > 0.0))
      in_.fail(field(j, "base_radius"), entity, "the base radius must be positive", "e.g. 30 mm");
    f.roller_radius = in_.non_negative(j, "roller_radius", entity, Quantity::length, false);
    f.contact = f.roller_radius > 0.0 ? CamFollower::Contact::roller : CamFollower::Contact::knife_edge;
    if (const YAML::Node node = field(j, "friction")) {
      // A knife edge slides on the cam; a roller rolls on it and its friction is in its pin.
      const bool roller = f.contact == CamFollower::Contact::roller;
      PairFriction friction;
      pair_friction(node, entity + ".friction", roller ? "radius" : nullptr, friction);
      if (roller && friction.coefficient > 0.0 && !(friction.size > 0.0))
        in_.fail(node, entity + ".friction", "a roller rolls on the cam: its friction acts in its pin",
                 "give the pin's radius: friction: {coefficient: 0.1, radius: 4 mm}");
      if (roller && friction.static_coefficient * friction.size >= f.roller_radius)
        in_.fail(node, entity + ".friction",
                 fmt::format("the pin's friction {:g} x {:g} m is not below the roller's radius {:g} m: the roller "
                             "could not turn",
                             friction.static_coefficient, friction.size, f.roller_radius),
                 "give a pin's friction coefficient (0.001 to 0.2) and its radius");
      if (roller && friction.size >= f.roller_radius)
        in_.fail(node, entity + ".friction",
                 fmt::format("the roller's pin radius {:g} m is not below the roller's {:g} m", friction.size,
                             f.roller_radius),
                 "give the radius of the pin the roller turns on");
      joint.friction = friction.coefficient, joint.static_friction = friction.static_coefficient;
      cam.roller_pin_radius = friction.size;
    }
    const std::string turning =
        field(j, "turning") ? in_.text(field(j, "turning"), entity + ".turning") : "counterclockwise";
    if (turning != "counterclockwise" && turning != "clockwise")
      in_.fail(field(j, "turning"), entity, "unknown turning '" + turning + "'",
               "give turning: counterclockwise (default) or clockwise, the way the cam runs its program");
    cam.mirrored = turning == "clockwise";
    cam.phase = in_.optional_number(j, "phase", entity, Quantity::angle).value_or(0.0);

    // The layout: columns ex, ey of the canonical axes on the ground; a clockwise cam is the
    // mirror image of a counter-clockwise one.
    Vec2 ex, ey;
    Eigen::Matrix2d mirror = Eigen::Matrix2d::Identity();
    if (translating) {
      // The follower lifts along its guide, away from the cam: towards the guide's point.
      const Vec2 u = fp.as<PrismaticPair>().guide_dir, G = fp.point[0];
      ey = (G - O).dot(u) < 0.0 ? Vec2(-u) : u;
      ex = Vec2(ey.y(), -ey.x());
      if (cam.mirrored) mirror(0, 0) = -1.0;
      // The follower point's line: the slider's line, shifted by the point's place on the follower.
      const double angle = fp.as<PrismaticPair>().angle_offset;
      const Vec2 on_line = G + rotate(Vec2(joint.point[1] - fp.point[1]), angle);
      f.offset = (cam.mirrored ? -1.0 : 1.0) * (on_line - O).dot(ex);
    } else {
      const int fside = fp.body[0] == 0 ? 0 : 1;
      const Vec2 A = fp.point[fside];
      f.pivot_distance = (A - O).norm();
      f.arm_length = (joint.point[1] - fp.point[1 - fside]).norm();
      if (f.pivot_distance < 1e-9 || f.arm_length < 1e-9)
        in_.fail(field(j, "bodies"), entity, "the follower's pivot is on the cam's centre, or its point on its pivot",
                 "move the follower's pivot off the cam's centre and its point off its pivot");
      ex = (A - O) / f.pivot_distance;
      ey = perp(ex);
      const std::string side = field(j, "side") ? in_.text(field(j, "side"), entity + ".side") : "left";
      if (side != "left" && side != "right")
        in_.fail(field(j, "side"), entity, "unknown side '" + side + "'",
                 "give side: left or right, where the follower's point lies seen from the cam's centre towards the "
                 "follower's pivot");
      f.arm_side = (side == "left") != cam.mirrored ? 1 : -1;
      if (cam.mirrored) mirror(1, 1) = -1.0;
    }
    if (translating && field(j, "side"))
      in_.fail(field(j, "side"), entity, "a translating follower has no side", "remove 'side'");
    Eigen::Matrix2d axes;
    axes.col(0) = ex, axes.col(1) = ey;
    cam.frame = axes * mirror * Eigen::Rotation2Dd(-(cam.mirrored ? -1.0 : 1.0) * cam.phase).toRotationMatrix();

    // The program: rises and returns in m (translating) or rad (oscillating).
    const YAML::Node program = in_.required(j, "program", entity, "give program: the follower's segments over a turn");
    if (program.IsMap()) {
      cam_table_program(program, entity + ".program", cam.program);
    } else {
      if (!program.IsSequence() || program.size() == 0)
        in_.fail(program, entity, "the program must list segments (or name a table file)",
                 "write program: [{rise: 10 mm, over: 120 deg, curve: cycloidal}, {dwell: 60 deg}, ...] or "
                 "program: {file: lift.csv}");
      const Quantity lift_kind = translating ? Quantity::length : Quantity::angle;
      for (const YAML::Node& seg : program) {
        const std::string path = entity + ".program";
        in_.require_map(seg, path);
        CamSegment s;
        if (const YAML::Node dwell = field(seg, "dwell")) {
          in_.allow_only(seg, path, {"dwell"});
          s.span = in_.number(dwell, path + ".dwell", Quantity::angle);
        } else {
          in_.allow_only(seg, path, {"rise", "return", "over", "curve"});
          const bool rise = static_cast<bool>(field(seg, "rise"));
          const YAML::Node lift = rise ? field(seg, "rise") : field(seg, "return");
          if (!lift || (rise && field(seg, "return")))
            in_.fail(seg, path, "a segment is a rise, a return or a dwell",
                     "write {rise: 10 mm, over: 120 deg, curve: cycloidal}, {return: ...} or {dwell: 60 deg}");
          s.lift = in_.number(lift, path, lift_kind);
          if (!(s.lift > 0.0)) in_.fail(lift, path, "a rise or return is given as a positive lift", "e.g. rise: 10 mm");
          if (!rise) s.lift = -s.lift;
          s.span = in_.number(in_.required(seg, "over", path, "give over: the cam angle it takes"), path + ".over",
                              Quantity::angle);
          const YAML::Node c = in_.required(seg, "curve", path,
                                            "give curve: cycloidal, 3-4-5, modified_trapezoid or "
                                            "simple_harmonic");
          const std::string curve = in_.text(c, path + ".curve");
          if (curve == "cycloidal")
            s.curve = CamCurve::cycloidal;
          else if (curve == "3-4-5" || curve == "polynomial_345")
            s.curve = CamCurve::polynomial_345;
          else if (curve == "modified_trapezoid")
            s.curve = CamCurve::modified_trapezoid;
          else if (curve == "simple_harmonic")
            s.curve = CamCurve::simple_harmonic;
          else
            in_.fail(c, path, "unknown curve '" + curve + "'",
                     "use cycloidal, 3-4-5, modified_trapezoid or simple_harmonic");
        }
        cam.program.segments.push_back(s);
      }
    }
    if (const std::string problem = cam_program_problem(cam.program); !problem.empty())
      in_.fail(program, entity, "the program " + problem,
               "make the segments' spans add up to 360 deg and the returns equal the rises, the rises first");
    if (const std::string problem = cam_profile_problem(f, cam.program, 0.25 * M_PI / 180.0); !problem.empty())
      in_.fail(field(j, "base_radius"), entity, "no cam can be made: " + problem,
               "a larger base circle, a smaller roller, or gentler segments (longer spans)");
    const int samples = 720;
    cam.samples.reserve(samples);
    for (int k = 0; k < samples; ++k) cam.samples.push_back(pitch_curve(f, cam.program, 2.0 * M_PI * k / samples).c);
  }
}

void ModelParser::cam_table_program(const YAML::Node& node, const std::string& entity, CamProgram& program) {
  // Rows theta, s from theta = 0 every h = 2 pi / n (a last row at 2 pi repeats the first's s).
  in_.allow_only(node, entity, {"file"});
  std::string file;
  std::vector<int> lines;
  const std::vector<std::vector<double>> rows = csv(
      in_.required(node, "file", entity, "give file: a CSV of theta,s over one turn"), entity, "theta,s", file, &lines);
  const auto line = [&](size_t r) { return SourceLocation{file, lines[r]}; };
  const double turn = 2.0 * M_PI;
  size_t n = rows.size();
  if (rows[0][0] != 0.0)
    throw InputError(line(0), "cam table", fmt::format("the first angle is {:g} rad, not 0", rows[0][0]),
                     "start the table at theta = 0 (the program's start)");
  const double first_step = rows[1][0] - rows[0][0], last = rows.back()[0];
  if (std::abs(last - turn) <= 1e-6 * first_step) {
    if (std::abs(rows.back()[1] - rows[0][1]) > 1e-12 * (1.0 + std::abs(rows[0][1])))
      throw InputError(
          line(n - 1), "cam table",
          fmt::format("the row at 2 pi has s = {:g}, not the first row's {:g}", rows.back()[1], rows[0][1]),
          "a turn comes back to its start: give the same s at 0 and 2 pi (or leave the row at 2 pi out)");
    --n;
  }
  if (n < 8)
    throw InputError(line(rows.size() - 1), "cam table", fmt::format("{} angles over the turn: fewer than 8", n),
                     "give at least 8 (every 1 deg, say)");
  const double step = turn / static_cast<double>(n);
  if (std::abs(first_step - step) > 1e-6 * step)
    throw InputError(line(n - 1), "cam table",
                     fmt::format("{} rows every {:.9g} rad end at {:.9g} rad: they do not make one turn (2 pi)", n,
                                 first_step, last),
                     "give theta every 2 pi / n rad from 0 up to 2 pi - 2 pi / n (or 2 pi)");
  std::vector<double> lift(n);
  for (size_t r = 0; r < n; ++r) {
    if (std::abs(rows[r][0] - static_cast<double>(r) * step) > 1e-6 * step)
      throw InputError(line(r), "cam table",
                       fmt::format("theta {:.9g} rad is not {} x {:.9g} rad: the angles are not evenly spaced over the "
                                   "turn ({} rows)",
                                   rows[r][0], r, step, n),
                       "give theta every 2 pi / n rad from 0 (every 1 deg: 0.0174532925199 rad)");
    lift[r] = rows[r][1];
  }
  const auto lowest = std::min_element(lift.begin(), lift.end());
  if (*lowest < -1e-9 * std::abs(*std::max_element(lift.begin(), lift.end())))
    throw InputError(line(static_cast<size_t>(lowest - lift.begin())), "cam table",
                     fmt::format("s = {:g} is below 0, the base circle (the follower's lowest place)", *lowest),
                     "shift the table's s so that its least value is 0");
  program.table = cam_table(lift);
  // The spline between the rows (it rings where a dwell meets a steep ramp): not below 0 either.
  const double largest = std::abs(*std::max_element(lift.begin(), lift.end()));
  for (size_t k = 0; k < 10 * n; ++k) {
    const double theta = static_cast<double>(k) * step / 10.0, s = program.table.at(theta).s;
    if (s < -1e-6 * largest)
      throw InputError(line(k / 10), "cam table",
                       fmt::format("the smooth curve through the rows dips to s = {:.3g} at theta = {:.6g} rad, below "
                                   "the base circle (it rings where the table turns sharply)",
                                   s, theta),
                       "give rows closer together where the lift starts or ends, or a smoother table");
  }
}

void ModelParser::cam_springs() {
  // The spring named on the cam joint, else the model's only spring (linear or torsional).
  const auto is_spring = [](const Load& l) { return l.is<Spring>() || l.is<TorsionalSpring>(); };
  const auto springs = std::count_if(spec_.loads.begin(), spec_.loads.end(), is_spring);
  for (const auto& [index, j] : cam_nodes_) {
    Joint& joint = spec_.joints[static_cast<size_t>(index)];
    CamPair& cam = joint.as<CamPair>();
    const std::string entity = "joint '" + joint.name + "'";
    if (const YAML::Node node = field(j, "spring")) {
      const std::string name = in_.text(node, entity + ".spring");
      const auto it =
          std::find_if(spec_.loads.begin(), spec_.loads.end(), [&](const Load& l) { return l.name == name; });
      if (it == spec_.loads.end() || !is_spring(*it))
        in_.fail(node, entity + ".spring",
                 it == spec_.loads.end() ? "no load '" + name + "'" : "load '" + name + "' is not a spring",
                 "name the load of type spring (or torsional_spring) that holds the follower on the cam");
      cam.closing_spring = static_cast<int>(it - spec_.loads.begin());
    } else if (springs == 1) {
      cam.closing_spring =
          static_cast<int>(std::find_if(spec_.loads.begin(), spec_.loads.end(), is_spring) - spec_.loads.begin());
    }
  }
}

}  // namespace linkdyn::io
