#pragma once
// An elastic link of a planar mechanism: a beam whose frame follows its rigid body's motion
// from the kinematics, with the forces at its ends from the kinetostatics [004 Sect. 5].
#include <array>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "linkdyn/flex/beam.hpp"
#include "linkdyn/flex/response.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::flex {

/// An elastic link as the model describes it: a uniform beam along a body from its point
/// `from` to its point `to`, E (Pa), rho (kg/m^3), A (m^2), I (m^4), in `elements` finite
/// elements (the body and its points are the mechanism's).
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

/// The frame motion of the link from a solved kinematics and kinetostatics in ws.
void frame_motion(const planar::Mechanism& m, const planar::Workspace& ws, const ElasticLink& link, FrameMotion& out);

/// The mechanism's rigid motion at any time: kinematics, then kinetostatics (for the end
/// forces), in a workspace kept between calls (assembly modes tracked).
class RigidMotion {
 public:
  RigidMotion(const planar::Mechanism& m, const planar::KinetostaticsOptions& options);
  /// Solves at t; throws AnalysisError (with the driver values) where the mechanism does not
  /// assemble or is at a dead point, or where its joint friction self-locks.
  void solve(double t);
  [[nodiscard]] const planar::Workspace& workspace() const { return ws_; }

 private:
  const planar::Mechanism& m_;
  planar::Workspace ws_;
  planar::KinetostaticsOptions options_;
};

struct CycleOptions {
  int modes = 4;
  bool gyroscopic = true;
  planar::KinetostaticsOptions kinetostatics;
  /// The gyroscopic problem on this many modes at rest per asked mode (ModalWorkspace's basis;
  /// 0: the full problem). Two per mode agree with the full problem to 1e-8 on the pump's lever at
  /// a seventh of its cost, but miss a fast spin's reshaped modes. Automatic (the default, -1):
  /// three per mode at the positions where the link turns slowly and its first undamped
  /// frequency is near the one at rest (slow_spin), the full problem elsewhere.
  int gyroscopic_basis_per_mode = -1;
};

/// One link's eigen-analysis along the grid: per row its frame's omega (rad/s) and epsilon
/// (rad/s^2) and the axial force at mid-span (N); per row and mode k the eigenvalue lambda
/// (omega^2 of the undamped problem, 1/s^2), its frequency (Hz, negative when lambda < 0), and
/// of the gyroscopic problem the frequency (Hz) and real part sigma (1/s; empty without it).
struct LinkModes {
  Eigen::VectorXd omega, epsilon, axial_force_mid;
  int basis_positions = 0;  ///< positions whose gyroscopic problem was solved on modes at rest
  Eigen::MatrixXd lambda, frequency, gyroscopic_frequency, gyroscopic_sigma;  ///< rows x modes
};
/// The eigen-analysis of every elastic link along the grid [004 Fig. 6], one row per grid time.
struct EigenCycleResult {
  Eigen::VectorXd t;
  Eigen::MatrixXd q;             ///< per driver
  std::vector<LinkModes> links;  ///< per elastic link
  int modes = 0;
  bool gyroscopic = true;
};
[[nodiscard]] EigenCycleResult eigen_cycle(const planar::Mechanism& m, const std::vector<ElasticLink>& links,
                                           const planar::TimeGrid& grid, const CycleOptions& options);

/// The automatic choice of the gyroscopic problem's basis: at a position where |omega| is at most
/// 0.2 of the first circular frequency at rest and the first undamped eigenvalue within 25 % of
/// the one at rest, modes at rest span the moving link's modes (the fast slider-crank's rod at
/// 0.12: 6e-8 in frequency) and the projection is used.
[[nodiscard]] bool slow_spin(double omega, double lambda1, double lambda1_at_rest);

/// The first instability along the cycle, as a sentence naming the link, t and the driver
/// values, or empty: a negative first eigenvalue (the axial force buckles the link) or, of the
/// gyroscopic problem, a mode whose real part sigma exceeds 1e-6 of its circular frequency (it
/// grows: flutter). Rounding leaves |sigma| near 1e-9 of it in a stable link.
[[nodiscard]] std::string first_instability(const planar::Mechanism& m, const std::vector<ElasticLink>& links,
                                            const EigenCycleResult& cycle);

struct ResponseOptions {
  int substeps = 20;     ///< Newmark steps per grid step
  bool periodic = true;  ///< the steady periodic response (else: from rest over the grid)
  planar::KinetostaticsOptions kinetostatics;
};

/// Empty when the grid spans one period of the drivers' motion (rotational coordinates modulo
/// whole turns, and their speeds), else which driver does not repeat and how.
[[nodiscard]] std::string periodicity_problem(const planar::Mechanism& m, const planar::TimeGrid& grid);

/// The response of one link along the grid, one row per grid time: the deflection in the beam
/// frame (transverse w, axial u, m) at mid-span, w at the second end, the axial force at
/// mid-span (N), and w, u at every node 0..elements from the first end.
struct LinkResponse {
  Eigen::VectorXd t;
  Eigen::MatrixXd q;  ///< per driver
  Eigen::VectorXd mid_w, mid_u, end_w, axial_force_mid;
  Eigen::MatrixXd node_w, node_u;  ///< rows x nodes
  /// Internal forces (flex::internal_forces) at the stations s (nodes and element middles):
  /// rows x stations, N (tension +), V = dM/ds (N) and M (N m).
  Eigen::VectorXd station;
  Eigen::MatrixXd normal, shear, moment;
  double periodicity_error = 0.0;  ///< as in Response
};
[[nodiscard]] LinkResponse link_response(const planar::Mechanism& m, const ElasticLink& link,
                                         const planar::TimeGrid& grid, const ResponseOptions& options);
/// The same streamed: the rows handed to `on_chunk` in chunks of `chunk_rows` as the final pass
/// computes them (the last chunk possibly shorter), nothing kept; returns the periodicity error.
double link_response(const planar::Mechanism& m, const ElasticLink& link, const planar::TimeGrid& grid,
                     const ResponseOptions& options, Eigen::Index chunk_rows,
                     const std::function<void(const LinkResponse& rows)>& on_chunk);

/// The internal forces' envelope over a response, gathered chunk by chunk: per station the
/// extremes of N, V and M, and with a section modulus W those of the two extreme fibres' stresses
/// N / A +- M / W, the largest range a fibre sees (fatigue) and when |sigma| peaks there; and the
/// peaks of |N|, |V|, |M|, |sigma| and of the range along the link, with where and when.
struct StressEnvelope {
  struct Peak {
    double value = -1.0, s = 0.0, t = 0.0;
    void update(double v, double at_s, double at_t) {
      if (v > value) value = v, s = at_s, t = at_t;
    }
  };
  StressEnvelope(const ElasticLink& link, const Eigen::VectorXd& stations);
  void add(const LinkResponse& rows);
  /// The range's peak along the link (after the last add).
  [[nodiscard]] Peak range_peak() const;
  bool stresses = false;  ///< every segment has a section modulus
  Eigen::VectorXd station;
  /// Per station its section's area and modulus (at a step between segments, the smaller: the
  /// larger stress).
  Eigen::VectorXd area, modulus;
  /// Per station: N, V, M min and max; per fibre (+c, -c) the stress min and max; |sigma|'s
  /// largest and its time.
  Eigen::VectorXd n_min, n_max, v_min, v_max, m_min, m_max, sigma_largest, t_sigma_largest;
  std::array<Eigen::VectorXd, 2> fibre_min, fibre_max;
  Peak normal, shear, moment, sigma;
};

}  // namespace linkdyn::flex
