// An elastic link on its rigid body's motion: the coupling of [004 Sect. 5] and the studies
// along the cycle (eigenvalues [004 Fig. 6], response [004 Eq. 20]).
#include "linkdyn/flex/link.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "linkdyn/core/error.hpp"
#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/core/progress.hpp"
#include "linkdyn/flex/internal_forces.hpp"
#include "linkdyn/flex/modal.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/sweep.hpp"

namespace linkdyn::flex {
using planar::GearPair;

std::optional<BeamBodyInertia> beam_body_inertia(const std::vector<ElasticLinkSpec>& links, int body) {
  struct Beam {
    const ElasticLinkSpec* link;
    double length, mass;
    Vec2 centre;
  };
  std::vector<Beam> beams;
  double mass = 0.0, length = 0.0;
  Vec2 first_moment = Vec2::Zero();
  struct Point {
    double mass, inertia;
    Vec2 at;
  };
  std::vector<Point> points;  // the links' attached masses
  for (const ElasticLinkSpec& e : links)
    if (e.body == body) {
      const double L = (e.point[1] - e.point[0]).norm();
      const Vec2 axis = L > 0.0 ? Vec2((e.point[1] - e.point[0]) / L) : Vec2::Zero();
      // One uniform rod per segment (the whole link when it has none) along the chord.
      double start = 0.0;
      for (size_t k = 0; k < std::max<size_t>(e.segments.size(), 1); ++k) {
        const double piece = e.segments.empty() ? L : e.segments[k].beam.length,
                     mu = e.segments.empty() ? e.rho * e.A : e.segments[k].beam.section.mass_per_length();
        const Vec2 centre = e.segments.empty() ? Vec2(0.5 * (e.point[0] + e.point[1]))
                                               : Vec2(e.point[0] + (start + 0.5 * piece) * axis);
        beams.push_back({&e, piece, mu * piece, centre});
        mass += beams.back().mass, first_moment += beams.back().mass * beams.back().centre;
        start += piece;
      }
      length = std::max(length, L);
      for (const AttachedMass& a : e.masses) {
        const Vec2 at = e.point[0] + (L > 0.0 ? a.at / L : 0.0) * (e.point[1] - e.point[0]);
        points.push_back({a.mass, a.inertia, at});
        mass += a.mass, first_moment += a.mass * at;
      }
    }
  if (beams.empty() || !(mass > 0.0)) return std::nullopt;
  const Vec2 com = first_moment / mass;
  double inertia = 0.0;  // m L^2 / 12 about each centre, moved to the body's (parallel axes)
  for (const Beam& beam : beams)
    inertia += beam.mass * (beam.length * beam.length / 12.0 + (beam.centre - com).squaredNorm());
  for (const Point& p : points) inertia += p.inertia + p.mass * (p.at - com).squaredNorm();
  return BeamBodyInertia{mass, inertia, com, length, beams.front().link, !points.empty()};
}

std::vector<ElasticLink> make_elastic_links(const planar::Mechanism& m, const std::vector<ElasticLinkSpec>& specs) {
  std::vector<ElasticLink> links;
  for (const ElasticLinkSpec& s : specs) {
    ElasticLink link;
    link.name = s.name;
    link.body = s.body;
    link.point = s.point;
    link.where = s.where;
    const std::string entity = "elastic link '" + s.name + "'";
    const Vec2 chord = s.point[1] - s.point[0];
    const double length = chord.norm();
    if (!(length > 0.0))
      throw InputError(s.where, entity,
                       "its end points '" + s.point_name[0] + "' and '" + s.point_name[1] + "' coincide",
                       "name two distinct points of the body as from and to");
    link.axis = chord / length;
    // The segments (one for a uniform link), their lengths adding up to the link's.
    std::vector<BeamSegment> segments;
    for (const LinkSegment& segment : s.segments) segments.push_back(segment.beam);
    if (segments.empty()) segments.push_back({{s.E, s.rho, s.A, s.I, s.section_modulus}, length, s.elements});
    double total = 0.0;
    std::vector<double> nodes{0.0};
    for (const BeamSegment& segment : segments) {
      for (int e = 1; e <= segment.elements; ++e) nodes.push_back(total + segment.length * e / segment.elements);
      total += segment.length;
    }
    if (std::abs(total - length) > 1e-6 * length)
      throw InputError(s.where, entity,
                       fmt::format("its segments add up to {:.9g} m, the link from '{}' to '{}' is {:.9g} m long",
                                   total, s.point_name[0], s.point_name[1], length),
                       "make the segments' lengths add up to the distance between the ends");
    std::vector<NodeMass> node_masses;
    for (const AttachedMass& a : s.masses) {
      const auto nearest = std::min_element(
          nodes.begin(), nodes.end(), [&](double x, double y) { return std::abs(x - a.at) < std::abs(y - a.at); });
      if (a.at > length * (1.0 + 1e-9) || std::abs(*nearest - a.at) > 1e-6 * length)
        throw InputError(a.where, entity,
                         fmt::format("a mass at {:g} m is not at a node of its {} elements (the nearest is at {:g} m "
                                     "along its {:g} m)",
                                     a.at, nodes.size() - 1, *nearest, length),
                         "give at as a node's distance from the first end, or change elements");
      node_masses.push_back({static_cast<int>(nearest - nodes.begin()), a.mass, a.inertia});
    }
    try {
      link.beam = make_beam(segments, s.supports, s.geometric_stiffness, node_masses);
      if (s.damping_ratio > 0.0)
        std::tie(link.beam.damping_alpha, link.beam.damping_beta) = rayleigh_damping(link.beam, s.damping_ratio);
      else
        link.beam.damping_alpha = s.damping_alpha, link.beam.damping_beta = s.damping_beta;
    } catch (const InputError& e) {
      throw InputError(s.where, entity, e.what(), "fix the link's section, elements or supports");
    }
    const double tolerance = 1e-9 * length;
    for (const planar::Joint& joint : m.joints())
      if (joint.is<planar::CamPair>() && joint.connects(s.body))
        throw InputError(s.where, entity,
                         "joint '" + joint.name + "' is a cam pair on body '" + m.bodies()[s.body].name +
                             "': a cam's contact on an elastic link is not modelled yet",
                         "treat the cam and its follower as rigid bodies");
    for (size_t j = 0; j < m.joints().size(); ++j) {
      const planar::Joint& joint = m.joints()[j];
      if (joint.is<GearPair>()) continue;
      for (int side = 0; side < 2; ++side) {
        if (joint.body[side] != s.body) continue;
        for (int end = 0; end < 2; ++end)
          if ((joint.point[side] - s.point[end]).norm() <= tolerance)
            link.end_joints[end].push_back({static_cast<int>(j), side == 1 ? 1.0 : -1.0});
      }
    }
    // A pair elsewhere on the body would load the beam between its ends: not modelled.
    for (size_t j = 0; j < m.joints().size(); ++j) {
      const planar::Joint& joint = m.joints()[j];
      if (joint.is<GearPair>()) continue;
      for (int side = 0; side < 2; ++side) {
        if (joint.body[side] != s.body) continue;
        const bool at_end = (joint.point[side] - s.point[0]).norm() <= tolerance ||
                            (joint.point[side] - s.point[1]).norm() <= tolerance;
        if (!at_end)
          throw InputError(s.where, entity,
                           "joint '" + joint.name + "' joins body '" + m.bodies()[s.body].name +
                               "' between the link's ends; its force would not reach the beam",
                           "make the elastic link a body whose pairs are at its two ends (from, to)");
      }
    }
    // Loads at the body's points (not those in its pairs): the beam does not carry them.
    for (size_t k = 0; k < m.spec().loads.size(); ++k) {
      const std::vector<planar::LoadPart>& parts = m.spec().loads[k].parts;
      const bool on_body = std::any_of(parts.begin(), parts.end(), [&](const planar::LoadPart& p) {
        return std::visit(overloaded{[&](const planar::LoadPart::Force& f) { return f.at.body == s.body; },
                                     [&](const planar::LoadPart::Moment& f) { return f.body == s.body; },
                                     [&](const planar::LoadPart::Tension& f) {
                                       return f.between[0].body == s.body || f.between[1].body == s.body;
                                     },
                                     [](const planar::LoadPart::MomentPair&) { return false; }},
                          p.pattern);
      });
      if (on_body) link.ignored_loads.push_back(static_cast<int>(k));
    }
    links.push_back(std::move(link));
  }
  return links;
}

std::vector<ElasticLink> require_elastic_links(const planar::Mechanism& m, const std::vector<ElasticLinkSpec>& specs) {
  std::vector<ElasticLink> links = make_elastic_links(m, specs);
  if (links.empty())
    throw InputError(m.spec().where, "model", "has no elastic link",
                     "add an 'elastic_links:' section (docs/model-format.md) naming the body that bends");
  return links;
}

void frame_motion(const planar::Mechanism& m, const planar::Workspace& ws, const ElasticLink& link, FrameMotion& out) {
  const planar::BodyState& body = ws.body[link.body];
  const Vec2 axis = rotate(link.axis, body.c, body.s);  // the beam's x axis, global
  auto to_beam = [&](const Vec2& g) { return in_beam_frame(g, axis); };
  out.omega = body.omega;
  out.epsilon = body.alpha;
  out.origin_acceleration = to_beam(body.acceleration(link.point[0]));
  out.gravity = to_beam(m.spec().gravity);
  for (int end = 0; end < 2; ++end) {
    Vec2 force = Vec2::Zero();
    for (const auto& [joint, sign] : link.end_joints[end]) force += sign * ws.reaction[joint].force;
    out.end_force[end] = to_beam(force);
  }
}

RigidMotion::RigidMotion(const planar::Mechanism& m, const planar::KinetostaticsOptions& options)
    : m_(m), ws_(m), options_(options) {}

void RigidMotion::solve(double t) {
  planar::set_drivers(m_, ws_, t);
  const planar::KinematicStatus status = planar::solve_kinematics(m_, ws_);
  if (!status.ok())
    throw AnalysisError(fmt::format("{}: t = {:.6g} s: {}; the elastic link needs the whole motion",
                                    m_.spec().where.file, t, planar::describe(m_, ws_, status)));
  if (planar::solve_kinetostatics(m_, ws_, t, options_).self_locking)
    throw AnalysisError(
        fmt::format("{}: t = {:.6g} s: the joint friction self-locks (no reactions); the elastic link "
                    "needs the whole motion",
                    m_.spec().where.file, t));
}

EigenCycleResult eigen_cycle(const planar::Mechanism& m, const std::vector<ElasticLink>& links,
                             const planar::TimeGrid& grid, const CycleOptions& options) {
  EigenCycleResult res;
  res.modes = options.modes;
  res.gyroscopic = options.gyroscopic;
  const Eigen::Index rows = grid.steps + 1, modes = options.modes, gyro_modes = options.gyroscopic ? modes : 0;
  res.t.resize(rows);
  res.q.resize(rows, static_cast<Eigen::Index>(m.drivers().size()));
  std::vector<ModalWorkspace> modal, projected;
  for (const ElasticLink& link : links) {
    if (options.modes > link.beam.size())
      throw InputError(
          link.where, "elastic link '" + link.name + "'",
          fmt::format("{} modes asked, the link has {} degrees of freedom", options.modes, link.beam.size()),
          "ask fewer modes or give more elements");
    const bool automatic = options.gyroscopic && options.gyroscopic_basis_per_mode < 0;
    modal.emplace_back(link.beam,
                       options.gyroscopic && !automatic ? options.gyroscopic_basis_per_mode * options.modes : 0);
    // Automatic: the projection where the link turns slowly (below), the full problem elsewhere.
    projected.emplace_back(link.beam, automatic ? 3 * options.modes : 0);
    LinkModes& l = res.links.emplace_back();
    for (Eigen::VectorXd* per_row : {&l.omega, &l.epsilon, &l.axial_force_mid}) per_row->resize(rows);
    l.lambda.resize(rows, modes), l.frequency.resize(rows, modes);
    l.gyroscopic_frequency.resize(rows, gyro_modes), l.gyroscopic_sigma.resize(rows, gyro_modes);
  }
  RigidMotion rigid(m, options.kinetostatics);
  FrameMotion motion;
  for (int step = 0; step <= grid.steps; ++step) {
    throw_if_stop_requested();
    report_progress(step, grid.steps + 1);
    const double t = grid.time(step);
    rigid.solve(t);
    const planar::Workspace& ws = rigid.workspace();
    res.t(step) = t;
    for (size_t d = 0; d < ws.q.size(); ++d) res.q(step, static_cast<Eigen::Index>(d)) = ws.q[d];
    for (size_t l = 0; l < links.size(); ++l) {
      frame_motion(m, ws, links[l], motion);
      LinkModes& out = res.links[l];
      ModalWorkspace& full = modal[l];
      ModalWorkspace& basis = projected[l];
      evaluate_operators(links[l].beam, motion, full.operators);
      solve_undamped(links[l].beam, full);
      if (basis.basis > 0 && slow_spin(motion.omega, full.lambda(0), basis.lambda1_at_rest)) {
        basis.operators.damping = full.operators.damping;  // same sizes: no allocation
        basis.operators.stiffness = full.operators.stiffness;
        solve_gyroscopic(links[l].beam, basis);
        full.gyroscopic.head(options.modes) = basis.gyroscopic.head(options.modes);
        ++out.basis_positions;
      } else if (options.gyroscopic) {
        solve_gyroscopic(links[l].beam, full);
        if (full.basis > 0) ++out.basis_positions;
      }
      const ModalWorkspace& r = full;
      out.omega(step) = motion.omega;
      out.epsilon(step) = motion.epsilon;
      out.axial_force_mid(step) = axial_at(links[l].beam, r.operators.axial, 0.5 * links[l].beam.length);
      for (int k = 0; k < options.modes; ++k) {
        out.lambda(step, k) = r.lambda(k);
        out.frequency(step, k) = frequency_hz(r.lambda(k));
        if (options.gyroscopic) {
          out.gyroscopic_frequency(step, k) = r.gyroscopic(k).imag() / (2.0 * M_PI);
          out.gyroscopic_sigma(step, k) = r.gyroscopic(k).real();
        }
      }
    }
  }
  return res;
}

bool slow_spin(double omega, double lambda1, double lambda1_at_rest) {
  return lambda1_at_rest > 0.0 && omega * omega <= 0.04 * lambda1_at_rest &&
         std::abs(lambda1 - lambda1_at_rest) <= 0.25 * lambda1_at_rest;
}

std::string periodicity_problem(const planar::Mechanism& m, const planar::TimeGrid& grid) {
  planar::Workspace a(m), b(m);
  for (auto [ws, t] : {std::pair{&a, grid.t0}, std::pair{&b, grid.t_end}}) {
    planar::set_drivers(m, *ws, t);
    (void)planar::solve_kinematics(m, *ws);
  }
  for (size_t k = 0; k < m.drivers().size(); ++k) {
    const planar::Driver& d = m.drivers()[k];
    double dq = b.q[k] - a.q[k];
    if (d.type == planar::DriverType::rotational) dq = std::remainder(dq, 2.0 * M_PI);  // whole turns repeat
    const double scale = 1.0 + std::abs(a.qd[k]) + std::abs(b.qd[k]);
    if (std::abs(dq) > 1e-6 * (1.0 + std::abs(a.q[k])) || std::abs(b.qd[k] - a.qd[k]) > 1e-6 * scale)
      return fmt::format(
          "driver '{}' goes from q = {:.6g}, qd = {:.6g} at t = {:.6g} s to q = {:.6g}, qd = {:.6g} at "
          "t = {:.6g} s",
          d.name, a.q[k], a.qd[k], grid.t0, b.q[k], b.qd[k], grid.t_end);
  }
  return {};
}

std::string first_instability(const planar::Mechanism& m, const std::vector<ElasticLink>& links,
                              const EigenCycleResult& cycle) {
  for (Eigen::Index row = 0; row < cycle.t.size(); ++row) {
    const Eigen::VectorXd q = cycle.q.row(row).transpose();
    const std::string where = fmt::format("t = {:.6g} s ({})", cycle.t(row),
                                          planar::driver_values(m, {q.data(), static_cast<size_t>(q.size())}));
    for (size_t l = 0; l < links.size(); ++l) {
      const LinkModes& modes = cycle.links[l];
      if (modes.lambda.cols() > 0 && modes.lambda(row, 0) < 0.0)
        return fmt::format(
            "elastic link '{}' is unstable at {}: its first eigenvalue is negative (lambda1 = {:.6g} 1/s^2): the axial "
            "force buckles it",
            links[l].name, where, modes.lambda(row, 0));
      for (Eigen::Index k = 0; k < modes.gyroscopic_sigma.cols(); ++k) {
        const double sigma = modes.gyroscopic_sigma(row, k),
                     omega = 2.0 * M_PI * std::abs(modes.gyroscopic_frequency(row, k));
        if (sigma > 1e-6 * std::max(omega, 1.0))
          return fmt::format(
              "elastic link '{}' is unstable at {}: mode {} grows (real part sigma = {:.6g} 1/s > 0, frequency {:.6g} "
              "Hz)",
              links[l].name, where, k + 1, sigma, modes.gyroscopic_frequency(row, k));
      }
    }
  }
  return {};
}

double link_response(const planar::Mechanism& m, const ElasticLink& link, const planar::TimeGrid& grid,
                     const ResponseOptions& options, Eigen::Index chunk_rows,
                     const std::function<void(const LinkResponse& rows)>& on_chunk) {
  if (options.periodic) {
    const std::string problem = periodicity_problem(m, grid);
    if (!problem.empty())
      throw AnalysisError(
          fmt::format("{}: the analysis grid is not one period of the motion ({}): no steady periodic "
                      "response; give the analysis a duration of one cycle, or use --from-rest",
                      m.spec().where.file, problem));
  }
  RigidMotion rigid(m, options.kinetostatics);
  const MotionAt motion_at = [&](double t, FrameMotion& out) {
    rigid.solve(t);
    frame_motion(m, rigid.workspace(), link, out);
  };
  // The rows of a chunk, sized once.
  LinkResponse chunk;
  const Eigen::Index rows = std::clamp<Eigen::Index>(chunk_rows, 1, grid.steps + 1), nodes = link.beam.elements + 1;
  chunk.t.resize(rows);
  chunk.q.resize(rows, static_cast<Eigen::Index>(m.drivers().size()));
  for (Eigen::VectorXd* per_row : {&chunk.mid_w, &chunk.mid_u, &chunk.end_w, &chunk.axial_force_mid})
    per_row->resize(rows);
  chunk.node_w.resize(rows, nodes), chunk.node_u.resize(rows, nodes);
  InternalForceWorkspace forces(link.beam);
  chunk.station = forces.forces.s;
  for (Eigen::MatrixXd* per_station : {&chunk.normal, &chunk.shear, &chunk.moment})
    per_station->resize(rows, chunk.station.size());
  const double length = link.beam.length;
  FrameMotion motion;
  Eigen::Index row = 0;
  const StepSink sink = [&](double t, const Eigen::Ref<const Eigen::VectorXd>& d,
                            const Eigen::Ref<const Eigen::VectorXd>& v) {
    if (row == rows) on_chunk(chunk), row = 0;
    motion_at(t, motion);
    chunk.t(row) = t;
    for (size_t i = 0; i < rigid.workspace().q.size(); ++i)
      chunk.q(row, static_cast<Eigen::Index>(i)) = rigid.workspace().q[i];
    const Vec2 mid = displacement_at(link.beam, d, 0.5 * length), end = displacement_at(link.beam, d, length);
    chunk.mid_w(row) = mid.y(), chunk.mid_u(row) = mid.x(), chunk.end_w(row) = end.y();
    chunk.axial_force_mid(row) = axial_at(link.beam, axial_force(link.beam, motion), 0.5 * length);
    for (int node = 0; node < nodes; ++node) {
      const Vec2 at = displacement_at(link.beam, d, link.beam.node_s[static_cast<size_t>(node)]);
      chunk.node_w(row, node) = at.y(), chunk.node_u(row, node) = at.x();
    }
    internal_forces(link.beam, motion, d, v, forces);
    chunk.normal.row(row) = forces.forces.normal.transpose();
    chunk.shear.row(row) = forces.forces.shear.transpose();
    chunk.moment.row(row) = forces.forces.moment.transpose();
    ++row;
  };
  const double duration = grid.t_end - grid.t0;
  if (static_cast<long>(grid.steps) * options.substeps > std::numeric_limits<int>::max())
    throw InputError({}, "substeps",
                     fmt::format("{} positions x {} substeps are more Newmark steps than an int counts", grid.steps,
                                 options.substeps),
                     "give fewer steps or substeps");
  const int steps = grid.steps * options.substeps;
  double periodicity_error = 0.0;
  try {
    // Only the grid's positions are handed over (1 / substeps of the Newmark steps).
    periodicity_error = options.periodic
                            ? periodic_response(link.beam, motion_at, grid.t0, duration, steps, options.substeps, sink)
                                  .periodicity_error
                            : transient_response(link.beam, motion_at, grid.t0, duration, steps, options.substeps, sink)
                                  .periodicity_error;
  } catch (const AnalysisError& e) {  // which link (a machine may have several)
    throw AnalysisError("elastic link '" + link.name + "': " + e.what());
  }
  chunk.periodicity_error = periodicity_error;
  for (Eigen::VectorXd* per_row : {&chunk.t, &chunk.mid_w, &chunk.mid_u, &chunk.end_w, &chunk.axial_force_mid})
    per_row->conservativeResize(row);
  for (Eigen::MatrixXd* matrix : {&chunk.q, &chunk.node_w, &chunk.node_u, &chunk.normal, &chunk.shear, &chunk.moment})
    matrix->conservativeResize(row, Eigen::NoChange);
  on_chunk(chunk);
  return periodicity_error;
}

LinkResponse link_response(const planar::Mechanism& m, const ElasticLink& link, const planar::TimeGrid& grid,
                           const ResponseOptions& options) {
  LinkResponse whole;
  whole.periodicity_error =
      link_response(m, link, grid, options, grid.steps + 1, [&](const LinkResponse& rows) { whole = rows; });
  return whole;
}

StressEnvelope::StressEnvelope(const ElasticLink& link, const Eigen::VectorXd& stations) : station(stations) {
  const BeamModel& beam = link.beam;
  const Eigen::Index k = stations.size();
  stresses = std::all_of(beam.segments.begin(), beam.segments.end(),
                         [](const BeamSegment& segment) { return segment.section.W > 0.0; });
  area.resize(k), modulus.resize(k);
  for (Eigen::Index i = 0; i < k; ++i) {  // stations 2e (node e) and 2e + 1 (element e's middle)
    const int e = static_cast<int>(std::min<Eigen::Index>(i / 2, beam.elements - 1));
    area(i) = beam.element_section(e).A, modulus(i) = beam.element_section(e).W;
    if (i % 2 == 0 && i / 2 > 0 && i / 2 < beam.elements) {  // a node between two elements
      const BeamSection& before = beam.element_section(e - 1);
      area(i) = std::min(area(i), before.A), modulus(i) = std::min(modulus(i), before.W);
    }
  }
  for (Eigen::VectorXd* lowest : {&n_min, &v_min, &m_min, &fibre_min[0], &fibre_min[1]})
    lowest->setConstant(k, INFINITY);
  for (Eigen::VectorXd* highest : {&n_max, &v_max, &m_max, &fibre_max[0], &fibre_max[1]})
    highest->setConstant(k, -INFINITY);
  sigma_largest.setConstant(k, -1.0);
  t_sigma_largest.setZero(k);
}

void StressEnvelope::add(const LinkResponse& r) {
  for (Eigen::Index k = 0; k < station.size(); ++k) {
    const double s = station(k);
    for (Eigen::Index row = 0; row < r.t.size(); ++row) {
      const double n = r.normal(row, k), v = r.shear(row, k), mo = r.moment(row, k), t = r.t(row);
      n_min(k) = std::min(n_min(k), n), n_max(k) = std::max(n_max(k), n);
      v_min(k) = std::min(v_min(k), v), v_max(k) = std::max(v_max(k), v);
      m_min(k) = std::min(m_min(k), mo), m_max(k) = std::max(m_max(k), mo);
      normal.update(std::abs(n), s, t), shear.update(std::abs(v), s, t), moment.update(std::abs(mo), s, t);
      if (!stresses) continue;
      for (int side = 0; side < 2; ++side) {  // the +c fibre, then the -c one
        const double stress = n / area(k) + (side == 0 ? 1.0 : -1.0) * mo / modulus(k);
        fibre_min[side](k) = std::min(fibre_min[side](k), stress);
        fibre_max[side](k) = std::max(fibre_max[side](k), stress);
        if (std::abs(stress) > sigma_largest(k)) sigma_largest(k) = std::abs(stress), t_sigma_largest(k) = t;
        sigma.update(std::abs(stress), s, t);
      }
    }
  }
}

StressEnvelope::Peak StressEnvelope::range_peak() const {
  Peak peak;
  for (Eigen::Index k = 0; k < station.size(); ++k)
    peak.update(std::max(fibre_max[0](k) - fibre_min[0](k), fibre_max[1](k) - fibre_min[1](k)), station(k), 0.0);
  return peak;
}

}  // namespace linkdyn::flex
