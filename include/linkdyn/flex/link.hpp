#pragma once
// The analyses of an elastic link of a planar mechanism (elastic_link.hpp) along the drivers'
// motion: a beam whose frame follows its rigid body's motion from the kinematics, with the
// forces at its ends from the kinetostatics [004 Sect. 5]; its modes along the cycle and its
// response (results in link_results.hpp).
#include <array>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "linkdyn/flex/beam.hpp"
#include "linkdyn/flex/elastic_link.hpp"
#include "linkdyn/flex/link_results.hpp"
#include "linkdyn/flex/response.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::flex {

/// The frame motion of the link from a solved kinematics and kinetostatics in ws.
void frame_motion(const planar::Mechanism& m, const planar::Workspace& ws, const ElasticLink& link, FrameMotion& out);

/// The mechanism's rigid motion at any time: kinematics, then kinetostatics (for the end
/// forces), in a workspace kept between calls (assembly modes tracked).
class RigidMotion {
 public:
  RigidMotion(const planar::Mechanism& m, const planar::KinetostaticsOptions& options);
  /// Solves at t; throws AnalysisError (with the driver values) where the mechanism does not
  /// assemble or is at a dead point.
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

/// The eigen-analysis of every elastic link along the grid [004 Fig. 6] (EigenCycleResult).
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

/// The response of one link along the grid (LinkResponse).
[[nodiscard]] LinkResponse link_response(const planar::Mechanism& m, const ElasticLink& link,
                                         const planar::TimeGrid& grid, const ResponseOptions& options);
/// The same streamed: the rows handed to `on_chunk` in chunks of `chunk_rows` as the final pass
/// computes them (the last chunk possibly shorter), nothing kept; returns the periodicity error.
[[nodiscard]] double link_response(const planar::Mechanism& m, const ElasticLink& link, const planar::TimeGrid& grid,
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
