#pragma once
// The planar mechanism model: what the user describes (MechanismSpec) and its compiled,
// immutable form with the structural sequence of groups (Mechanism).
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "linkdyn/core/error.hpp"
#include "linkdyn/core/geometry.hpp"
#include "linkdyn/core/variant.hpp"
#include "linkdyn/planar/cam_profile.hpp"
#include "linkdyn/planar/motion_law.hpp"

namespace linkdyn::planar {

class Group;

/// A named point fixed in a body, in the body frame.
struct NamedPoint {
  std::string name;
  Vec2 local = Vec2::Zero();
  SourceLocation where;
};

/// A rigid body. Body 0 is the ground; its points are the ground points.
struct Body {
  std::string name;
  double mass = 0.0;
  double inertia = 0.0;  ///< about the centre of mass, kg m^2
  Vec2 com = Vec2::Zero();
  std::vector<NamedPoint> points;
  SourceLocation where;
  /// Index of the named point, or -1.
  [[nodiscard]] int find_point(const std::string& point_name) const;
};

/// The kind of a pair, in the order of Joint::kind's alternatives (for switches).
enum class JointType { revolute, prismatic, gear, cam };

/// A revolute pair: point[k] is the pin in body[k]'s frame.
struct RevolutePair {
  double pin_radius = 0.0;  ///< r, for Coulomb friction [001 Eq. 8]
};
/// A prismatic pair: the guide line is fixed in body[0] through point[0] along guide_dir
/// (body[0] frame, unit); point[1] of body[1] slides on it; theta1 - theta0 = angle_offset.
struct PrismaticPair {
  Vec2 guide_dir = Vec2::UnitX();
  double angle_offset = 0.0;
  /// Length b of a slider whose normal load is carried at its two ends (0: a short slider,
  /// friction f |N|).
  double slider_length = 0.0;
};
/// A gear pair: theta1 = ratio * theta0 + phase (body[1] is a wheel pivoted on the ground).
struct GearPair {
  double ratio = 1.0;
  double phase = 0.0;
};

/// A cam pair, a higher pair: body[0] is a disc cam, body[1] its follower, whose point point[1]
/// (a roller's centre or a knife edge) stays on the cam's pitch curve. On the cam's frame the
/// curve is point[0] + frame c(sigma), c the pitch curve of the follower's program laid out as
/// cam_profile.hpp lays it (the cam turning counter-clockwise, a translating follower on +y, an
/// oscillating one's pivot on +x); `frame` turns that layout onto the cam body's frame (with a
/// mirror where the follower sits on the other side). One constraint, the point on the curve;
/// its reaction is the contact force along the common normal. Friction (Joint::friction): a knife
/// edge slides on the cam; a roller rolls on it and turns on a pin of radius `roller_pin_radius`.
struct CamPair {
  CamFollower follower;
  CamProgram program;
  double roller_pin_radius = 0.0;  ///< the roller's pin (m), where its friction acts
  /// The spring that holds the follower on the cam (an index into MechanismSpec::loads, -1 for
  /// none): the kinetostatics give the preload it needs.
  int closing_spring = -1;
  Eigen::Matrix2d frame = Eigen::Matrix2d::Identity();
  bool mirrored = false;      ///< the program's angle runs opposite to the cam body's
  double phase = 0.0;         ///< the cam body's angle where the program starts (rad)
  std::vector<Vec2> samples;  ///< c at evenly spaced sigma over the turn: the foot point's first guess
  int index = 0;              ///< its place among the mechanism's cam pairs (Workspace::cam_piece)
};

/// A pair between body[0] and body[1]; `kind` holds what its type alone has.
struct Joint : OneOf<Joint> {
  std::string name;
  std::variant<RevolutePair, PrismaticPair, GearPair, CamPair> kind;
  std::array<int, 2> body{0, 0};
  std::array<Vec2, 2> point{Vec2::Zero(), Vec2::Zero()};
  std::array<std::string, 2> point_name;  ///< names of the points in the model, if named
  /// Coulomb friction: coefficient f' (revolute) or f (prismatic); none in a gear pair.
  double friction = 0.0;
  double static_friction = 0.0;  ///< the static coefficient (>= friction), for sticking
  SourceLocation where;
  /// A pair materialised from a compound pin (a revolute pair named like the pin, without
  /// friction of its own): the pin's index in MechanismSpec::pins; -1 for a model's joint.
  int pin = -1;
  static constexpr auto alternatives = &Joint::kind;
  [[nodiscard]] JointType type() const { return static_cast<JointType>(kind.index()); }
  [[nodiscard]] int constraint_count() const { return is<GearPair>() || is<CamPair>() ? 1 : 2; }
  [[nodiscard]] bool connects(int b) const { return body[0] == b || body[1] == b; }
  [[nodiscard]] int other(int b) const { return body[0] == b ? body[1] : body[0]; }
};
/// The alternative of Joint::kind that a JointType names.
template <JointType type>
using JointPair = std::variant_alternative_t<static_cast<size_t>(type), decltype(Joint::kind)>;
static_assert(std::is_same_v<JointPair<JointType::revolute>, RevolutePair> &&
              std::is_same_v<JointPair<JointType::prismatic>, PrismaticPair> &&
              std::is_same_v<JointPair<JointType::gear>, GearPair> &&
              std::is_same_v<JointPair<JointType::cam>, CamPair>);

/// A revolute joint of k >= 3 bodies at one pin (a compound hinge). It counts as k - 1
/// revolute pairs; the compiled mechanism materialises them as binary pairs (Joint::pin) that
/// form a tree over the members. The pin is a massless part fixed in the first listed body:
/// Coulomb friction acts in the bearing of every other member (docs/model-format.md).
struct CompoundPin {
  std::string name;
  std::vector<int> bodies;               ///< the members, in the listed order
  std::vector<Vec2> points;              ///< the pin in each member's frame
  std::vector<std::string> point_names;  ///< names of those points in the model
  double friction = 0.0;                 ///< f' [001 Eq. 8]
  double static_friction = 0.0;          ///< the static coefficient (>= friction)
  double pin_radius = 0.0;               ///< r
  SourceLocation where;
  /// Index of `body` among the members, or -1.
  [[nodiscard]] int member(int body) const;
};

enum class DriverType { rotational, linear };

/// A first-class mechanism: the angle of a body pinned to the ground (rotational), or the
/// position of a slider along a ground guide (linear), q measured from the guide point. A linear
/// driver on a prismatic pair between two moving bodies (a cylinder's) gives that pair's
/// displacement: it is not a group of its own but one more equation of the group that places
/// the pair's bodies (a driving dyad, structure.cpp).
struct Driver {
  std::string name;
  DriverType type = DriverType::rotational;
  /// The driven pair, an index into Mechanism::joints(). For a driver on a compound ground pin
  /// the model gives `pin` and `pin_body` (the member it turns) and compile sets `joint` to the
  /// pair (ground, pin_body) it materialises first.
  int joint = -1;
  int pin = -1;
  int pin_body = -1;
  MotionLaw law = ConstantSpeedLaw{};
  int cylinder = -1;  ///< the cylinder (MechanismSpec::cylinders) whose length it gives, or -1
  SourceLocation where;
};

/// How a group's assembly mode is chosen at the start: the assembly that puts the named point
/// (a joint, or "body.point") nearest to `near`, or the branch `sign` (+1 / -1, see
/// docs/model-format.md). `anchors` are the (body, local point) pairs the name stands for.
struct AssemblyHint {
  std::string name;
  std::vector<std::pair<int, Vec2>> anchors;
  std::optional<Vec2> near;
  int sign = 0;
  SourceLocation where;
};

/// A point of a body, by index and body-frame coordinates.
struct BodyPoint {
  int body = 0;
  Vec2 local = Vec2::Zero();
};

/// A scalar of the mechanism's motion that a load may depend on (`kind`): time, a driver's
/// coordinate, a body's angle, a point's x or y (global), a prismatic pair's displacement (its
/// slider point along the guide from the guide point), a revolute pair's relative angle (second
/// body's angle minus the first's), or the distance between two points. Its rate is its time
/// derivative (coordinate.hpp).
/// (The alternatives nested in Coordinate, Magnitude, LoadPart and Bearing are aggregates
/// without default member values, built whole: a nested type's defaults would keep its
/// enclosing type from being default-constructible, whose variant value-initialises its first.)
struct Coordinate : OneOf<Coordinate> {
  struct Time {};
  struct DriverValue {
    int driver;
  };
  struct BodyAngle {
    int body;
  };
  struct PointX {
    BodyPoint point;
  };
  struct PointY {
    BodyPoint point;
  };
  struct PairDisplacement {
    int joint;
  };
  struct PairAngle {
    int joint;
  };
  struct Distance {
    std::array<BodyPoint, 2> between;
  };
  using Kind = std::variant<Time, DriverValue, BodyAngle, PointX, PointY, PairDisplacement, PairAngle, Distance>;
  Kind kind;
  std::string label = "t";  ///< as the model names it, for messages
  static constexpr auto alternatives = &Coordinate::kind;
};

/// A load value given as a table against a coordinate (or its rate), linear in between.
struct LoadTable {
  Coordinate against;
  bool rate = false;      ///< against the coordinate's rate (a speed)
  bool periodic = false;  ///< the rows cover one period of the coordinate: x wraps into it
  std::vector<double> x;
  std::vector<Vec2> value;  ///< (Fx, Fy) for forces, (M, 0) for moments
  std::string file;
  SourceLocation where;  ///< the table entry in the model
};

/// How a load part's magnitude follows its coordinate's value x and rate xd (`law`).
struct Magnitude : OneOf<Magnitude> {
  /// gain
  struct Constant {
    double gain;
  };
  /// The load table's column at x (or xd): 0 (Fx or M) or 1 (Fy).
  struct Table {
    int column;
    Coordinate coordinate;
  };
  /// gain (x - offset)
  struct LinearValue {
    double gain, offset;
    Coordinate coordinate;
  };
  /// gain xd
  struct LinearRate {
    double gain;
    Coordinate coordinate;
  };
  using Law = std::variant<Constant, Table, LinearValue, LinearRate>;
  Law law;
  static constexpr auto alternatives = &Magnitude::law;
  /// The coordinate the law follows; nullptr for a constant.
  [[nodiscard]] const Coordinate* coordinate() const {
    return std::visit(overloaded{[](const Constant&) -> const Coordinate* { return nullptr; },
                                 [](const auto& l) -> const Coordinate* { return &l.coordinate; }},
                      law);
  }
};

/// A load as a sum of parts, each a magnitude times a unit pattern where it acts (`pattern`).
struct LoadPart : OneOf<LoadPart> {
  /// A unit force along `direction` (global) at `at`.
  struct Force {
    Vec2 direction;
    BodyPoint at;
  };
  /// A unit moment on `body`.
  struct Moment {
    int body;
  };
  /// Unit pulls drawing the two points together along the line between them.
  struct Tension {
    std::array<BodyPoint, 2> between;
  };
  /// A unit moment on `joint`'s second body and its opposite on the first.
  struct MomentPair {
    int joint;
  };
  using Pattern = std::variant<Force, Moment, Tension, MomentPair>;
  Pattern pattern;
  Magnitude magnitude;
  static constexpr auto alternatives = &LoadPart::pattern;
};

/// A force at a body's point: `value` (global Fx, Fy), the load's table, or viscous
/// F = -viscous v_point (N s/m).
struct PointForce {
  BodyPoint at;
  Vec2 value = Vec2::Zero();
  double viscous = 0.0;
};
/// A moment on a body: `value` (N m, counter-clockwise) or the load's table.
struct BodyMoment {
  int body = 0;
  double value = 0.0;
};
/// A tension k (L - L0) drawing two points together.
struct Spring {
  std::array<BodyPoint, 2> between{};
  double stiffness = 0.0, free_length = 0.0;
};
/// A tension c dL/dt between two points.
struct Damper {
  std::array<BodyPoint, 2> between{};
  double damping = 0.0;
};
/// In a revolute pair, the moment -k (dtheta - theta0) on its second body, opposite on the first.
struct TorsionalSpring {
  int joint = -1;
  double stiffness = 0.0, free_angle = 0.0;
};
/// In a revolute pair, the moment -c domega on its second body, opposite on the first.
struct TorsionalDamper {
  int joint = -1;
  double damping = 0.0;
};

/// An external load or force element. compile() writes its `parts` (load_parts in loads.cpp),
/// which every analysis evaluates.
struct Load : OneOf<Load> {
  std::string name;
  std::variant<PointForce, BodyMoment, Spring, Damper, TorsionalSpring, TorsionalDamper> element;
  std::optional<LoadTable> table;  ///< a force's or moment's value against a coordinate
  bool useful = false;             ///< a useful resistance, for the efficiency [001 Eq. 1]
  SourceLocation where;
  std::vector<LoadPart> parts;
  static constexpr auto alternatives = &Load::element;
};

/// A linear actuator (a hydraulic or electric cylinder) between a point of one body and a point
/// of another (either may be the ground). It is built of two bodies: the barrel, pinned at
/// between[0] (revolute pair `base_joint`), and the rod, pinned at between[1] (`end_joint`),
/// sliding in the barrel (prismatic pair `slide_joint`, barrel first). Each body's frame has its
/// origin at its pin and its x axis along the cylinder from between[0] to between[1], so the
/// slide's displacement is the cylinder's length L, pin to pin. When driven (`driver` >= 0) L
/// follows the driver's law; its effort is the force pushing the rod out (N).
struct Cylinder {
  std::string name;
  std::array<BodyPoint, 2> between{};
  std::array<std::string, 2> between_names;  ///< as the model names them ("boom.C")
  int barrel = -1, rod = -1;
  int base_joint = -1, slide_joint = -1, end_joint = -1;
  int driver = -1;
  double stroke_min = 0.0;  ///< the shortest and longest pin-to-pin length (m)
  double stroke_max = 0.0;
  /// The areas the pressure acts on (m^2): the piston's when pushing, the annulus (piston less
  /// rod) when pulling; both given or both 0.
  double piston_area = 0.0;
  double annulus_area = 0.0;
  double seal_friction = 0.0;  ///< the seals' Coulomb force F0 along the cylinder (N)
  double relief = 0.0;         ///< the relief valve's pressure (Pa), 0 without one
  SourceLocation where;
  [[nodiscard]] bool has_areas() const { return piston_area > 0.0; }
  /// The pressure (Pa) that force F needs: F / piston area when pushing, -F / annulus area when
  /// pulling (has_areas()).
  [[nodiscard]] double pressure(double force) const {
    return force >= 0.0 ? force / piston_area : -force / annulus_area;
  }
};

struct MechanismSpec {
  std::string name;
  SourceLocation where;           ///< the model file
  std::vector<Body> bodies;       ///< bodies[0] is the ground
  std::vector<Joint> joints;      ///< two-body pairs
  std::vector<CompoundPin> pins;  ///< revolute joints of three or more bodies (names unique among joints and pins)
  std::vector<Driver> drivers;
  std::vector<Cylinder> cylinders;  ///< their bodies, pairs and drivers are in the lists above
  std::vector<Load> loads;
  Vec2 gravity = Vec2::Zero();
  std::vector<AssemblyHint> assembly;
  /// Optional explicit structural sequence: the bodies of each group, in order.
  std::vector<std::vector<std::string>> structure;
  SourceLocation structure_where;
  /// Optional analysis grid from the model; otherwise the first driver's natural grid.
  std::optional<TimeGrid> grid;

  [[nodiscard]] int find_body(const std::string& body_name) const;
  [[nodiscard]] int find_joint(const std::string& joint_name) const;
  [[nodiscard]] int find_pin(const std::string& pin_name) const;
};

/// Where an output point lives: a named point of a moving body and its column label.
struct OutputPoint {
  std::string label;
  int body = 0;
  Vec2 local = Vec2::Zero();
};

struct CompileOptions {
  /// Solve every group, dyads included, with the generic Newton group (a check of the closed
  /// forms).
  bool force_generic = false;
};

/// A bearing with Coulomb friction (`kind`): a revolute pair, a member of a compound pin turning
/// on the pin, or a prismatic pair (friction.hpp has the equations).
struct Bearing : OneOf<Bearing> {
  /// A revolute pair (an index into Mechanism::joints()) with its pin's radius r.
  struct Revolute {
    int joint;
    double radius;
  };
  /// The member (>= 1) of compound pin `pin` that turns on it, with the pin's radius r.
  struct PinMember {
    int pin;
    int member;
    double radius;
  };
  /// A prismatic pair (an index into Mechanism::joints()).
  struct Prismatic {
    int joint;
  };
  /// A cam pair's contact (an index into Mechanism::joints()): a tangential force at the contact
  /// point, f |N| where a knife edge slides, or, for a roller rolling on the cam, its pin's
  /// friction moment f' r |F| carried to the contact point, f' (r / roller radius) |F|.
  struct Contact {
    int joint;
  };
  using Kind = std::variant<Revolute, PinMember, Prismatic, Contact>;
  Kind kind;
  int body[2] = {0, 0};             ///< first (the effort's reaction) and second body
  double coefficient = 0.0;         ///< kinetic: f' (revolute, pin, roller) or f (prismatic, knife edge)
  double static_coefficient = 0.0;  ///< for sticking (>= coefficient)
  std::string label;                ///< "<joint>" or "<pin>.<body>"
  static constexpr auto alternatives = &Bearing::kind;
};

/// The compiled, immutable mechanism: its description, degrees of freedom and the tape of
/// groups in structural order (drivers first) [001 Fig. 3].
class Mechanism {
 public:
  [[nodiscard]] const MechanismSpec& spec() const { return spec_; }
  [[nodiscard]] const std::vector<Body>& bodies() const { return spec_.bodies; }
  /// Every binary pair: the model's joints first, in order (their indices are the spec's), then
  /// the pairs materialised for the compound pins (Joint::pin >= 0).
  [[nodiscard]] const std::vector<Joint>& joints() const { return joints_; }
  [[nodiscard]] const std::vector<CompoundPin>& pins() const { return spec_.pins; }
  /// The binary pairs materialised for compound pin `pin` (indices into joints(), ascending).
  [[nodiscard]] const std::vector<int>& pin_pairs(int pin) const { return pin_pairs_[static_cast<size_t>(pin)]; }
  /// The bearings with friction (friction.hpp).
  [[nodiscard]] const std::vector<Bearing>& bearings() const { return bearings_; }
  /// The cam pairs' joints (indices into joints(), in order: CamPair::index is the place here).
  [[nodiscard]] const std::vector<int>& cam_pairs() const { return cam_pairs_; }
  /// The bearings of compound pin `pin`'s members (indices into bearings(), ascending).
  [[nodiscard]] const std::vector<int>& pin_bearings(int pin) const { return pin_bearings_[static_cast<size_t>(pin)]; }
  [[nodiscard]] const std::vector<Driver>& drivers() const { return spec_.drivers; }
  [[nodiscard]] const std::vector<Cylinder>& cylinders() const { return spec_.cylinders; }
  /// The cylinder that driver `d` drives, or nullptr.
  [[nodiscard]] const Cylinder* driven_cylinder(int d) const;
  /// True for a linear driver whose prismatic pair joins two moving bodies (its displacement is
  /// an equation of a group, not a group of its own).
  [[nodiscard]] bool relative_driver(int d) const;
  [[nodiscard]] int dof() const { return dof_; }
  [[nodiscard]] const std::vector<std::shared_ptr<const Group>>& groups() const { return groups_; }
  /// Named points of moving bodies, with unique column labels.
  [[nodiscard]] const std::vector<OutputPoint>& output_points() const { return output_points_; }
  /// Grid of the analysis: the model's, else the first driver's natural one.
  [[nodiscard]] TimeGrid default_grid() const;
  /// The structural sequence, e.g. "R_I(0,1) -> RRR_II(2,3)" [001 Eq. 17].
  [[nodiscard]] std::string structure_string() const;

  /// The same mechanism with body `body`'s moment of inertia set to `inertia` (a flywheel's
  /// trial): the structure is shared, not found again. Throws InputError on a bad inertia.
  [[nodiscard]] Mechanism with_inertia(int body, double inertia) const;

  Mechanism(Mechanism&&) noexcept;
  Mechanism& operator=(Mechanism&&) noexcept;
  ~Mechanism();

 private:
  friend Mechanism compile(MechanismSpec spec, const CompileOptions& options);
  Mechanism() = default;
  Mechanism(const Mechanism&) = default;  ///< shares the groups (immutable)
  MechanismSpec spec_;
  std::vector<Joint> joints_;
  int dof_ = 0;
  std::vector<std::shared_ptr<const Group>> groups_;
  std::vector<OutputPoint> output_points_;
  std::vector<Bearing> bearings_;
  std::vector<std::vector<int>> pin_pairs_;
  std::vector<std::vector<int>> pin_bearings_;
  std::vector<int> cam_pairs_;
};

/// Checks the description, counts the DOF (Gruebler-Kutzbach), finds the structural sequence
/// and returns the immutable mechanism. Throws InputError on a bad description.
[[nodiscard]] Mechanism compile(MechanismSpec spec, const CompileOptions& options = {});

/// The drivers' values for messages: "crank = 30 deg, slider = 0.1 m".
[[nodiscard]] std::string driver_values(const Mechanism& m, std::span<const double> q);

}  // namespace linkdyn::planar
