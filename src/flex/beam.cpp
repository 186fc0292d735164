// Planar beam elements on a moving frame and their assembly [004 Sects. 3-4, Eqs. 17-20].
#include "linkdyn/flex/beam.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "linkdyn/core/error.hpp"

namespace linkdyn::flex {
namespace {

constexpr int bending_dofs[4] = {1, 2, 4, 5};

/// Dofs a support removes from its node: (u, v, theta).
std::array<bool, 3> supported(BeamSupport support) {
  switch (support) {
    case BeamSupport::clamped: return {true, true, true};
    case BeamSupport::pinned: return {true, true, false};
    case BeamSupport::sliding: return {false, true, false};
    case BeamSupport::free: break;
  }
  return {false, false, false};
}

Eigen::MatrixXd restrict(const Eigen::MatrixXd& full, const std::vector<int>& free_dofs) {
  const int n = static_cast<int>(free_dofs.size());
  Eigen::MatrixXd out(n, full.cols() == full.rows() ? n : full.cols());
  for (int i = 0; i < n; ++i) {
    if (full.cols() == full.rows())
      for (int j = 0; j < n; ++j) out(i, j) = full(free_dofs[i], free_dofs[j]);
    else
      out.row(i) = full.row(free_dofs[i]);
  }
  return out;
}

}  // namespace

SectionProperties rectangle_section(double width, double height) {
  const double b = width, h = height;
  SectionProperties out;
  out.area = b * h, out.second_moment = b * h * h * h / 12.0;
  out.modulus = out.second_moment / (0.5 * h);
  return out;
}

SectionProperties tube_section(double outer, double inner) {
  const double D = outer, d = inner;
  SectionProperties out;
  out.area = M_PI * (D * D - d * d) / 4.0, out.second_moment = M_PI * (D * D * D * D - d * d * d * d) / 64.0;
  out.modulus = out.second_moment / (0.5 * D);
  return out;
}

SectionProperties i_section(double height, double width, double flange, double web) {
  const double h = height, b = width, tf = flange, tw = web;
  const double hw = h - 2.0 * tf;  // web height
  SectionProperties out;
  out.area = 2.0 * b * tf + tw * hw;
  out.second_moment = (b * h * h * h - (b - tw) * hw * hw * hw) / 12.0;
  out.modulus = out.second_moment / (0.5 * h);
  return out;
}

ShapeMatrix shape_functions(double h, double s) {
  const double x = s / h, x2 = x * x, x3 = x2 * x;
  ShapeMatrix n = ShapeMatrix::Zero();
  n(0, 0) = 1.0 - x;
  n(0, 3) = x;
  n(1, 1) = 1.0 - 3.0 * x2 + 2.0 * x3;
  n(1, 2) = h * (x - 2.0 * x2 + x3);
  n(1, 4) = 3.0 * x2 - 2.0 * x3;
  n(1, 5) = h * (x3 - x2);
  return n;
}

Eigen::Matrix<double, 1, 6> slope_functions(double h, double s) {
  const double x = s / h, x2 = x * x;
  Eigen::Matrix<double, 1, 6> d = Eigen::Matrix<double, 1, 6>::Zero();
  d(1) = (-6.0 * x + 6.0 * x2) / h;
  d(2) = 1.0 - 4.0 * x + 3.0 * x2;
  d(4) = (6.0 * x - 6.0 * x2) / h;
  d(5) = 3.0 * x2 - 2.0 * x;
  return d;
}

Eigen::Matrix<double, 1, 6> curvature_functions(double h, double s) {
  const double x = s / h;
  Eigen::Matrix<double, 1, 6> d = Eigen::Matrix<double, 1, 6>::Zero();
  d(1) = (-6.0 + 12.0 * x) / (h * h);
  d(2) = (-4.0 + 6.0 * x) / h;
  d(4) = (6.0 - 12.0 * x) / (h * h);
  d(5) = (6.0 * x - 2.0) / h;
  return d;
}

Eigen::Matrix<double, 1, 6> strain_functions(double h, double /*s*/) {
  Eigen::Matrix<double, 1, 6> d = Eigen::Matrix<double, 1, 6>::Zero();
  d(0) = -1.0 / h;
  d(3) = 1.0 / h;
  return d;
}

Matrix6 element_mass(const BeamSection& sec, double h) {
  const double r = sec.mass_per_length(), h2 = h * h, h3 = h2 * h;
  Matrix6 m = Matrix6::Zero();
  m(0, 0) = m(3, 3) = h / 3.0;
  m(0, 3) = m(3, 0) = h / 6.0;
  const double b[4][4] = {{13.0 * h / 35.0, 11.0 * h2 / 210.0, 9.0 * h / 70.0, -13.0 * h2 / 420.0},
                          {11.0 * h2 / 210.0, h3 / 105.0, 13.0 * h2 / 420.0, -h3 / 140.0},
                          {9.0 * h / 70.0, 13.0 * h2 / 420.0, 13.0 * h / 35.0, -11.0 * h2 / 210.0},
                          {-13.0 * h2 / 420.0, -h3 / 140.0, -11.0 * h2 / 210.0, h3 / 105.0}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m(bending_dofs[i], bending_dofs[j]) = b[i][j];
  return r * m;
}

Matrix6 element_stiffness(const BeamSection& sec, double h) {
  const double ea = sec.E * sec.A / h, ei = sec.E * sec.I / (h * h * h), h2 = h * h;
  Matrix6 k = Matrix6::Zero();
  k(0, 0) = k(3, 3) = ea;
  k(0, 3) = k(3, 0) = -ea;
  const double b[4][4] = {{12.0, 6.0 * h, -12.0, 6.0 * h},
                          {6.0 * h, 4.0 * h2, -6.0 * h, 2.0 * h2},
                          {-12.0, -6.0 * h, 12.0, -6.0 * h},
                          {6.0 * h, 2.0 * h2, -6.0 * h, 4.0 * h2}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) k(bending_dofs[i], bending_dofs[j]) = ei * b[i][j];
  return k;
}

Matrix6 element_rotation_coupling(const BeamSection& sec, double h) {
  // rho A int (N_v^T N_u - N_u^T N_v) ds: row = transverse dof, column = axial dof.
  const double h2 = h * h;
  Matrix6 g = Matrix6::Zero();
  // int N_v,i N_u,j ds for the bending shapes (v1, th1, v2, th2) and axial (u1, u2).
  const double vu[4][2] = {{7.0 * h / 20.0, 3.0 * h / 20.0},
                           {h2 / 20.0, h2 / 30.0},
                           {3.0 * h / 20.0, 7.0 * h / 20.0},
                           {-h2 / 30.0, -h2 / 20.0}};
  constexpr int axial[2] = {0, 3};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) {
      g(bending_dofs[i], axial[j]) = vu[i][j];
      g(axial[j], bending_dofs[i]) = -vu[i][j];
    }
  return sec.mass_per_length() * g;
}

Matrix62 element_translation_load(const BeamSection& sec, double h) {
  Matrix62 t = Matrix62::Zero();
  t(0, 0) = t(3, 0) = h / 2.0;
  t(1, 1) = t(4, 1) = h / 2.0;
  t(2, 1) = h * h / 12.0;
  t(5, 1) = -h * h / 12.0;
  return sec.mass_per_length() * t;
}

Matrix62 element_first_moment(const BeamSection& sec, double h) {
  const double h2 = h * h;
  Matrix62 f = Matrix62::Zero();
  f(0, 0) = h2 / 6.0;
  f(3, 0) = h2 / 3.0;
  f(1, 1) = 3.0 * h2 / 20.0;
  f(2, 1) = h2 * h / 30.0;
  f(4, 1) = 7.0 * h2 / 20.0;
  f(5, 1) = -h2 * h / 20.0;
  return sec.mass_per_length() * f;
}

Matrix6 element_geometric_stiffness(double h, double p0, double pm, double p1) {
  // int L_k(s) v'^T v' ds for the quadratic Lagrange basis L_k at s = 0, h/2, h.
  const double g0[4][4] = {{3.0 / (35.0 * h), -2.0 / 35.0, -3.0 / (35.0 * h), 3.0 / 70.0},
                           {-2.0 / 35.0, h / 14.0, 2.0 / 35.0, -h / 84.0},
                           {-3.0 / (35.0 * h), 2.0 / 35.0, 3.0 / (35.0 * h), -3.0 / 70.0},
                           {3.0 / 70.0, -h / 84.0, -3.0 / 70.0, h / 210.0}};
  const double gm[4][4] = {{36.0 / (35.0 * h), 4.0 / 35.0, -36.0 / (35.0 * h), 4.0 / 35.0},
                           {4.0 / 35.0, 2.0 * h / 35.0, -4.0 / 35.0, -h / 105.0},
                           {-36.0 / (35.0 * h), -4.0 / 35.0, 36.0 / (35.0 * h), -4.0 / 35.0},
                           {4.0 / 35.0, -h / 105.0, -4.0 / 35.0, 2.0 * h / 35.0}};
  const double g1[4][4] = {{3.0 / (35.0 * h), 3.0 / 70.0, -3.0 / (35.0 * h), -2.0 / 35.0},
                           {3.0 / 70.0, h / 210.0, -3.0 / 70.0, -h / 84.0},
                           {-3.0 / (35.0 * h), -3.0 / 70.0, 3.0 / (35.0 * h), 2.0 / 35.0},
                           {-2.0 / 35.0, -h / 84.0, 2.0 / 35.0, h / 14.0}};
  Matrix6 k = Matrix6::Zero();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) k(bending_dofs[i], bending_dofs[j]) = p0 * g0[i][j] + pm * gm[i][j] + p1 * g1[i][j];
  return k;
}

const char* support_name(BeamSupport support) {
  switch (support) {
    case BeamSupport::clamped: return "clamped";
    case BeamSupport::pinned: return "pinned";
    case BeamSupport::sliding: return "sliding";
    case BeamSupport::free: break;
  }
  return "free";
}

BeamModel make_beam(const BeamSection& section, double length, int elements, std::array<BeamSupport, 2> supports,
                    bool geometric_stiffness, const std::vector<NodeMass>& node_masses) {
  return make_beam({BeamSegment{section, length, elements}}, supports, geometric_stiffness, node_masses);
}

int BeamModel::element_at(double s) const {
  const auto above = std::upper_bound(node_s.begin() + 1, node_s.end() - 1, s);
  return static_cast<int>(above - node_s.begin()) - 1;
}

double BeamModel::beam_mass() const {
  double mass = 0.0;
  for (const BeamSegment& segment : segments) mass += segment.section.mass_per_length() * segment.length;
  return mass;
}

BeamModel make_beam(const std::vector<BeamSegment>& segments, std::array<BeamSupport, 2> supports,
                    bool geometric_stiffness, const std::vector<NodeMass>& node_masses) {
  const SourceLocation nowhere;
  if (segments.empty()) throw InputError(nowhere, "beam", "has no segment", "give a length and a section");
  int elements = 0;
  double length = 0.0;
  for (const BeamSegment& segment : segments) {
    const BeamSection& section = segment.section;
    if (!(section.E > 0.0 && section.rho > 0.0 && section.A > 0.0 && section.I > 0.0 && section.W >= 0.0))
      throw InputError(nowhere, "beam", "E, rho, A and I must all be positive",
                       "give the material and section in SI units");
    if (!(segment.length > 0.0))
      throw InputError(nowhere, "beam", "the length is not positive", "give two distinct end points");
    if (segment.elements < 1) throw InputError(nowhere, "beam", "needs at least one element", "give elements >= 1");
    elements += segment.elements;
    length += segment.length;
  }
  const auto s0 = supported(supports[0]), s1 = supported(supports[1]);
  const bool axial_held = s0[0] || s1[0];
  const bool bending_held = (s0[1] && s0[2]) || (s1[1] && s1[2]) || (s0[1] && s1[1]);
  if (!axial_held || !bending_held)
    throw InputError(nowhere, "beam",
                     std::string("supports ") + support_name(supports[0]) + "-" + support_name(supports[1]) +
                         " leave a rigid-body motion",
                     "use pinned-pinned, pinned-sliding, clamped-free, clamped-pinned or clamped-clamped");

  BeamModel b;
  b.section = segments.front().section;
  b.segments = segments;
  b.length = length;
  b.elements = elements;
  b.supports = supports;
  b.geometric_stiffness = geometric_stiffness;
  b.full_dofs = 3 * (elements + 1);
  // Nodes, and M0 = int rho A, M1 = int rho A x at each (exact: rho A is constant per element).
  b.node_s.push_back(0.0);
  b.mass_moment0.push_back(0.0), b.mass_moment1.push_back(0.0);
  double start = 0.0;  // of the segment
  for (size_t k = 0; k < segments.size(); start += segments[k].length, ++k)
    for (int e = 0; e < segments[k].elements; ++e) {
      const double h = segments[k].length / segments[k].elements, x0 = start + e * h, x1 = start + (e + 1) * h,
                   mu = segments[k].section.mass_per_length();
      b.element_segment.push_back(static_cast<int>(k));
      b.node_s.push_back(x1);
      b.mass_moment0.push_back(b.mass_moment0.back() + mu * h);
      b.mass_moment1.push_back(b.mass_moment1.back() + 0.5 * mu * (x1 * x1 - x0 * x0));
    }
  b.node_s.back() = length;

  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(b.full_dofs, b.full_dofs), k = m, g = m;
  std::array<Eigen::MatrixXd, 4> geo{m, m, m, m};
  Eigen::MatrixXd t = Eigen::MatrixXd::Zero(b.full_dofs, 2), f = t;
  for (int e = 0; e < elements; ++e) {
    const BeamSection& section = b.element_section(e);
    const double h = b.element_length(e);
    const Matrix6 me = element_mass(section, h), ke = element_stiffness(section, h),
                  ge = element_rotation_coupling(section, h);
    const Matrix62 te = element_translation_load(section, h), fe = element_first_moment(section, h);
    const int at = 3 * e;
    const double x0 = b.node_s[static_cast<size_t>(e)], xm = x0 + 0.5 * h, x1 = x0 + h;
    m.block<6, 6>(at, at) += me;
    k.block<6, 6>(at, at) += ke;
    g.block<6, 6>(at, at) += ge;
    t.block<6, 2>(at, 0) += te;
    f.block<6, 2>(at, 0) += fe + x0 * te;  // int rho N^T (x0 + s) dV
    // The basis functions of P at the element's ends and middle (quadratic within it).
    const double mu = section.mass_per_length(), m0 = b.mass_moment0[static_cast<size_t>(e)],
                 m1 = b.mass_moment1[static_cast<size_t>(e)];
    const double m0_mid = m0 + mu * 0.5 * h, m1_mid = m1 + 0.5 * mu * (xm * xm - x0 * x0);
    geo[0].block<6, 6>(at, at) += element_geometric_stiffness(h, 1.0, 1.0, 1.0);
    geo[1].block<6, 6>(at, at) += element_geometric_stiffness(h, x0, xm, x1);
    geo[2].block<6, 6>(at, at) +=
        element_geometric_stiffness(h, m0, m0_mid, b.mass_moment0[static_cast<size_t>(e) + 1]);
    geo[3].block<6, 6>(at, at) +=
        element_geometric_stiffness(h, m1, m1_mid, b.mass_moment1[static_cast<size_t>(e) + 1]);
  }

  // Attached masses: at node i (s_i = i h), m on u and v, J on the rotation; their share of
  // int rho N^T dV, int rho N^T s dV and int rho N^T J N dV (N at a node: the unit rows).
  for (const NodeMass& p : node_masses) {
    if (p.node < 0 || p.node > elements || !(p.mass >= 0.0) || !(p.inertia >= 0.0))
      throw InputError(nowhere, "beam", "an attached mass is off the nodes or negative",
                       "attach it at a node 0..elements with mass and inertia >= 0");
    const int u = 3 * p.node, v = u + 1, theta = u + 2;
    const double s_node = b.node_s[static_cast<size_t>(p.node)];
    m(u, u) += p.mass, m(v, v) += p.mass, m(theta, theta) += p.inertia;
    t(u, 0) += p.mass, t(v, 1) += p.mass;
    f(u, 0) += p.mass * s_node, f(v, 1) += p.mass * s_node;
    g(u, v) -= p.mass, g(v, u) += p.mass;
  }
  b.node_masses = node_masses;

  b.reduced_of.assign(b.full_dofs, -1);
  for (int d = 0; d < b.full_dofs; ++d) {
    const int node = d / 3, kind = d % 3;
    const bool held = (node == 0 && s0[kind]) || (node == elements && s1[kind]);
    if (held) continue;
    b.reduced_of[d] = static_cast<int>(b.free_dofs.size());
    b.free_dofs.push_back(d);
  }
  b.mass = restrict(m, b.free_dofs);
  b.stiffness = restrict(k, b.free_dofs);
  b.rotation_coupling = restrict(g, b.free_dofs);
  b.translation_load = restrict(t, b.free_dofs);
  b.first_moment = restrict(f, b.free_dofs);
  for (int p = 0; p < 4; ++p) b.geometric[p] = restrict(geo[p], b.free_dofs);
  b.rotary = Eigen::VectorXd::Zero(b.size());
  for (const NodeMass& p : node_masses)
    if (const int r = b.reduced_of[3 * p.node + 2]; r >= 0) b.rotary(r) += p.inertia;
  b.mass_factor.compute(b.mass);
  if (b.mass_factor.info() != Eigen::Success || !b.mass.allFinite() || !b.stiffness.allFinite())
    throw InputError(nowhere, "beam",
                     "the section data give no usable mass or stiffness matrix (overflow or underflow)",
                     "give E, rho, A and I in SI units (Pa, kg/m^3, m^2, m^4)");
  return b;
}

BeamOperators make_operators(const BeamModel& beam) {
  const int n = beam.size();
  BeamOperators op;
  op.damping = Eigen::MatrixXd::Zero(n, n);
  op.stiffness = Eigen::MatrixXd::Zero(n, n);
  op.load = Eigen::VectorXd::Zero(n);
  return op;
}

AxialForce axial_force(const BeamModel& beam, const FrameMotion& motion) {
  // Tension from the part [0, s]: P = -F0x - int_0^s q_x, q_x = rho A (g_x - a_Ox + omega^2 x),
  // so P = -F0x - (g_x - a_Ox) M0(s) - omega^2 M1(s), plus the mismatch of the two end forces
  // spread linearly.
  const double g = motion.gravity.x() - motion.origin_acceleration.x(), w2 = motion.omega * motion.omega;
  const double f0 = motion.end_force[0].x(), f1 = motion.end_force[1].x();
  const double mismatch = f1 + f0 + g * beam.mass_moment0.back() + w2 * beam.mass_moment1.back();
  return {{-f0, mismatch / beam.length, -g, -w2}};
}

double axial_at(const BeamModel& beam, const AxialForce& P, double s) {
  const int e = beam.element_at(s);
  const double x0 = beam.node_s[static_cast<size_t>(e)], mu = beam.element_section(e).mass_per_length();
  const double m0 = beam.mass_moment0[static_cast<size_t>(e)] + mu * (s - x0),
               m1 = beam.mass_moment1[static_cast<size_t>(e)] + 0.5 * mu * (s * s - x0 * x0);
  return P.c[0] + P.c[1] * s + P.c[2] * m0 + P.c[3] * m1;
}

void evaluate_operators(const BeamModel& beam, const FrameMotion& motion, BeamOperators& out) {
  const double w = motion.omega, e = motion.epsilon;
  out.damping = (2.0 * w) * beam.rotation_coupling;  // [c(omega)]
  if (beam.damping_alpha != 0.0) out.damping += beam.damping_alpha * beam.mass;
  if (beam.damping_beta != 0.0) out.damping += beam.damping_beta * beam.stiffness;
  out.stiffness = beam.stiffness;                     // [k]
  out.stiffness += e * beam.rotation_coupling;        // [k(epsilon)]
  out.stiffness -= (w * w) * beam.mass;               // [k(omega)] (of the translations:
  out.stiffness.diagonal() += (w * w) * beam.rotary;  // the attached rotary inertias have none)
  out.axial = axial_force(beam, motion);
  if (beam.geometric_stiffness) {
    for (int p = 0; p < 4; ++p)
      if (out.axial.c[p] != 0.0) out.stiffness += out.axial.c[p] * beam.geometric[p];
  }
  // [m_O] a_O + Q(epsilon) + Q(omega) with their signs [004 Eq. 17], and the weight.
  const Vec2 translation = motion.gravity - motion.origin_acceleration;
  out.load.noalias() = beam.translation_load * translation;
  out.load.noalias() -= e * beam.first_moment.col(1);
  out.load.noalias() += (w * w) * beam.first_moment.col(0);
  out.load.noalias() -= e * beam.rotary;
  const int last = 3 * beam.elements;
  for (int end = 0; end < 2; ++end)
    for (int axis = 0; axis < 2; ++axis) {
      const int r = beam.reduced_of[(end == 0 ? 0 : last) + axis];
      if (r >= 0) out.load(r) += motion.end_force[end](axis);
    }
}

std::pair<double, double> rayleigh_damping(const BeamModel& beam, double zeta) {
  // The at-rest problem k x = omega^2 m x, as in solve_undamped: L^-1 k L^-T.
  Eigen::MatrixXd reduced = beam.stiffness;
  const auto lower = beam.mass_factor.matrixL();
  lower.solveInPlace(reduced);
  reduced.transposeInPlace();
  lower.solveInPlace(reduced);
  const Eigen::VectorXd lambda =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(reduced, Eigen::EigenvaluesOnly).eigenvalues();
  const double w1 = std::sqrt(std::max(lambda(0), 0.0)),
               w2 = lambda.size() > 1 ? std::sqrt(std::max(lambda(1), 0.0)) : w1;
  // zeta = alpha / (2 w) + beta w / 2 at w1 and w2.
  return {2.0 * zeta * w1 * w2 / (w1 + w2), 2.0 * zeta / (w1 + w2)};
}

Vec2 displacement_at(const BeamModel& beam, const Eigen::VectorXd& free_dofs, double s) {
  const int e = beam.element_at(s);
  const double h = beam.element_length(e);
  Eigen::Matrix<double, 6, 1> d;
  for (int k = 0; k < 6; ++k) {
    const int r = beam.reduced_of[3 * e + k];
    d(k) = r >= 0 ? free_dofs(r) : 0.0;
  }
  return shape_functions(h, s - beam.node_s[static_cast<size_t>(e)]) * d;
}

}  // namespace linkdyn::flex
