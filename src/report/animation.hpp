#pragma once
// The report's animation of the machine: its frames (every moving body's points and pose) and
// the elements drawn on it (guides, slider blocks, springs, dampers, load arrows, wheels, cams).
#include <string>
#include <utility>
#include <vector>

#include "linkdyn/dynamics/machine_spec.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "report/axes.hpp"

namespace linkdyn::report {

/// A moving body in the animation: its points' x, y in each frame from `offset` on.
struct AnimatedBody {
  std::string name;
  size_t offset = 0;
  size_t points = 0;  ///< its named points, or 1 (its frame's origin) if it has none
};

/// The animation's SVG viewBox, y pointing down.
struct ViewBox {
  double x = 0, y = 0, width = 0, height = 0;
};

/// A point fixed in a body (0: the ground), in the body's frame.
struct AnchoredPoint {
  int body = 0;
  Vec2 local = Vec2::Zero();
};

/// A prismatic pair's guide: the line through `anchor` along `direction` (both in the guide
/// body's frame), drawn over [from, to] along it (the slider's travel and its block).
struct GuideLine {
  AnchoredPoint anchor;
  Vec2 direction = Vec2::UnitX();
  double from = 0.0, to = 0.0;
};

/// A slider's block, centred on the slider's point of the pair, along its guide.
struct SliderBlock {
  AnchoredPoint centre;
  size_t guide = 0;  ///< index into Animation::guides
  double length = 0.0, width = 0.0;
};

/// A spring, a damper or a cylinder between two points; a cylinder's barrel runs `lengths[0]`
/// from ends[0] along the line, its rod `lengths[1]` back from ends[1].
struct ForceElementLine {
  std::string kind;  ///< "spring", "damper" or "cylinder"
  AnchoredPoint ends[2];
  double lengths[2] = {0.0, 0.0};
};

/// An applied force: its point and (Fx, Fy) in each frame (NaN where the mechanism is absent).
struct LoadArrow {
  std::string name;
  AnchoredPoint at;
  std::vector<double> force;
};

/// A wheel that turns with its body: a gear's pitch circle, or the wheel of a motor's shaft
/// (rotor and flywheel).
struct Wheel {
  std::string kind;  ///< "gear" or "motor"
  AnchoredPoint centre;
  double radius = 0.0;
};

/// A disc cam: its profile on the cam body's frame (a closed polygon, turning with the body), and
/// the follower's roller (its centre on the follower; radius 0 for a knife edge).
struct CamOutline {
  int body = 0;
  std::vector<Vec2> profile;
  AnchoredPoint roller;
  double roller_radius = 0.0;
};

struct Animation {
  std::string x_label;
  std::vector<double> x;  ///< the x axis at each frame
  std::vector<AnimatedBody> bodies;
  std::vector<Vec2> ground;                 ///< the ground's named points
  std::vector<std::vector<double>> frames;  ///< every body's points, x then y
  /// Every moving body's frame in each frame of the animation: x, y, angle (rad) body after body.
  std::vector<std::vector<double>> poses;
  std::vector<Vec2> pivots;  ///< the ground's revolute pairs (drawn as ground pivots)
  std::vector<GuideLine> guides;
  std::vector<SliderBlock> blocks;
  std::vector<ForceElementLine> elements;
  std::vector<LoadArrow> loads;
  double load_scale = 0.0;  ///< arrow length per newton (the largest force: a fifth of the drawing)
  std::vector<Wheel> wheels;
  std::vector<CamOutline> cams;
  /// Each output point's path: x then y at each frame.
  std::vector<std::pair<std::string, std::vector<double>>> paths;
  double size = 0;  ///< the largest extent of the drawing (scales its marks)
  ViewBox view;
};

/// The animation at about max_frames rows of the kinematics (the decimated rows); the load
/// arrows from a second sweep over `grid` (the loads at each frame's solved state).
[[nodiscard]] Animation animation(const planar::Mechanism& m, const dynamics::MachineSpec& machine,
                                  const planar::TimeGrid& grid, const planar::KinematicsResult& r, const XAxis& x,
                                  size_t max_frames);

}  // namespace linkdyn::report
