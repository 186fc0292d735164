#pragma once
// An elastic link of a planar mechanism: as the model describes it (ElasticLinkSpec), and as a
// beam on its body with the pairs that hold its ends (ElasticLink) [004 Sect. 5].
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "linkdyn/core/error.hpp"
#include "linkdyn/flex/beam.hpp"
#include "linkdyn/planar/mechanism.hpp"

namespace linkdyn::flex {

/// A mass and rotary inertia attached to an elastic link `at` a distance from its first end.
struct AttachedMass {
  double at = 0.0, mass = 0.0, inertia = 0.0;  ///< m, kg, kg m^2
  SourceLocation where;
};

/// A segment of a stepped link, from the first end on: its length, elements and section.
struct LinkSegment {
  BeamSegment beam;
  SourceLocation where;
};

/// An elastic link as the model describes it: a uniform beam along a body from its point
/// `from` to its point `to`, E (Pa), rho (kg/m^3), A (m^2), I (m^4), in `elements` finite
/// elements (the body and its points are the mechanism's).
struct ElasticLinkSpec {
  std::string name;
  int body = 0;
  std::array<std::string, 2> point_name;
  std::array<Vec2, 2> point{Vec2::Zero(), Vec2::Zero()};
  double E = 0.0, rho = 0.0, A = 0.0, I = 0.0;
  int elements = 10;
  std::array<BeamSupport, 2> supports{BeamSupport::pinned, BeamSupport::sliding};
  bool geometric_stiffness = true;
  /// Damping: Rayleigh alpha (1/s) and beta (s), or a ratio for the first two modes at rest
  /// (ratio > 0 sets alpha and beta by flex::rayleigh_damping).
  double damping_alpha = 0.0, damping_beta = 0.0, damping_ratio = 0.0;
  /// Section modulus W = I / c for the extreme-fibre stresses (m^3; 0: not given, no stresses).
  double section_modulus = 0.0;
  std::vector<AttachedMass> masses;  ///< each at a node of the elements
  /// Piecewise sections (their lengths add up to the link's); empty: uniform (E, rho, A, I,
  /// section_modulus, elements above).
  std::vector<LinkSegment> segments;
  SourceLocation where;
};

/// The rigid-body inertia of a body that bends: of its links' beams (per uniform piece, the whole
/// link or each segment: mass rho A L at mid-chord, m L^2 / 12 about it) and of their attached
/// masses, combined by the parallel-axis theorem.
struct BeamBodyInertia {
  double mass = 0.0, inertia = 0.0;       ///< kg; kg m^2 about com
  Vec2 com = Vec2::Zero();                ///< in the body frame
  double length = 0.0;                    ///< the longest chord (m)
  const ElasticLinkSpec* link = nullptr;  ///< the first link on the body
  bool attached_masses = false;           ///< the links carry attached masses
};
/// Empty when no link bends `body` or their mass is not positive.
[[nodiscard]] std::optional<BeamBodyInertia> beam_body_inertia(const std::vector<ElasticLinkSpec>& links, int body);

/// The beam along body `body` from its point `point[0]` (the frame's origin) to `point[1]`
/// (the frame's x axis), and the pairs that hold its two ends.
struct ElasticLink {
  std::string name;
  int body = 0;
  std::array<Vec2, 2> point{Vec2::Zero(), Vec2::Zero()};
  Vec2 axis = Vec2::UnitX();  ///< unit, in the body frame
  BeamModel beam;
  /// Per end: (joint, sign) with sign +1 when the body is the joint's second body (the reaction
  /// acts on it), -1 when it is the first.
  std::array<std::vector<std::pair<int, double>>, 2> end_joints;
  std::vector<int> ignored_loads;  ///< loads on the body that the beam does not carry
  SourceLocation where;
};

/// The elastic links of the model on its mechanism. Throws InputError naming the file, line and
/// link on bad data.
[[nodiscard]] std::vector<ElasticLink> make_elastic_links(const planar::Mechanism& m,
                                                          const std::vector<ElasticLinkSpec>& specs);
/// The same for an analysis of elastic links: InputError when the model has none.
[[nodiscard]] std::vector<ElasticLink> require_elastic_links(const planar::Mechanism& m,
                                                             const std::vector<ElasticLinkSpec>& specs);

}  // namespace linkdyn::flex
