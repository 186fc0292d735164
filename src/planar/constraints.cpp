#include "linkdyn/planar/constraints.hpp"

#include <algorithm>
#include <cmath>

namespace linkdyn::planar {

CamCurveFoot cam_curve_foot(const Joint& joint, const Workspace& ws) {
  // The follower's point on the cam's frame, laid out as the pitch curve is (frame^T, a
  // rotation or a mirror: its inverse is its transpose).
  const CamPair& cam = joint.as<CamPair>();
  const BodyState& b0 = ws.body[joint.body[0]];
  const BodyState& b1 = ws.body[joint.body[1]];
  const Vec2 world = b1.position(joint.point[1]) - b0.r;
  const Vec2 local = rotate(world, b0.c, -b0.s);  // turned back by the cam's angle
  const Vec2 y = cam.frame.transpose() * (local - joint.point[0]);
  // The foot of the normal from y: Newton on g = c'.(y - c) = 0, g' = c''.(y - c) - |c'|^2, from
  // the program's angle (where the follower touches once assembled), else from the nearest sample.
  const int piece = ws.cam_piece[static_cast<size_t>(cam.index)];
  double sigma = 0.0;
  PitchCurvePoint p;
  const auto newton = [&](double start) {
    sigma = start;
    p = pitch_curve(cam.follower, cam.program, sigma, piece);
    for (int it = 0; it < 30; ++it) {
      const Vec2 d = y - p.c;
      const double g = p.dc.dot(d), dg = p.d2c.dot(d) - p.dc.squaredNorm();
      const double step = dg != 0.0 ? std::clamp(-g / dg, -0.5, 0.5) : 0.0;
      sigma += step;
      p = pitch_curve(cam.follower, cam.program, sigma, piece);
      if (std::abs(step) <= 1e-15 * (1.0 + std::abs(sigma))) return true;
    }
    return false;
  };
  const double program_angle = cam_program_angle(joint, ws);
  if (!newton(program_angle) || std::abs(std::remainder(sigma - program_angle, 2.0 * M_PI)) > 0.5) {
    size_t nearest = 0;
    for (size_t k = 1; k < cam.samples.size(); ++k)
      if ((cam.samples[k] - y).squaredNorm() < (cam.samples[nearest] - y).squaredNorm()) nearest = k;
    (void)newton(2.0 * M_PI * static_cast<double>(nearest) / static_cast<double>(cam.samples.size()));
  }
  CamCurveFoot foot;
  foot.sigma = sigma;
  foot.curve = p;
  foot.distance = p.outward_normal().dot(y - p.c);
  // The normal and tangent on the world's axes: the cam body's turn of frame's.
  const Vec2 n = cam.frame * p.outward_normal(), t = cam.frame * p.dc.normalized();
  foot.normal = b0.arm(n);
  foot.tangent = b0.arm(t);
  return foot;
}

double cam_program_angle(const Joint& joint, const Workspace& ws) {
  const CamPair& cam = joint.as<CamPair>();
  const double turn = ws.body[joint.body[0]].theta - cam.phase;
  return cam.mirrored ? -turn : turn;
}

void joint_rows(const Joint& joint, const Workspace& ws, bool with_gamma, JointRows& rows) {
  const BodyState& b0 = ws.body[joint.body[0]];
  const BodyState& b1 = ws.body[joint.body[1]];
  rows.jac[0].setZero();
  rows.jac[1].setZero();
  rows.gamma.setZero();
  rows.phi.setZero();
  switch (joint.type()) {
    case JointType::revolute: {
      // Phi = r0 + A0 p0 - r1 - A1 p1.
      const Vec2 arm0 = b0.arm(joint.point[0]);
      const Vec2 arm1 = b1.arm(joint.point[1]);
      rows.count = 2;
      rows.phi = b0.r + arm0 - b1.r - arm1;
      rows.jac[0].block<2, 2>(0, 0).setIdentity();
      rows.jac[0].col(2) = perp(arm0);
      rows.jac[1].block<2, 2>(0, 0) = -Eigen::Matrix2d::Identity();
      rows.jac[1].col(2) = -perp(arm1);
      // Phi'' = a0 + alpha0 perp(arm0) - w0^2 arm0 - (same of body 1): gamma = w0^2 arm0 - w1^2 arm1.
      if (with_gamma) rows.gamma = b0.omega * b0.omega * arm0 - b1.omega * b1.omega * arm1;
      break;
    }
    case JointType::prismatic: {
      // Phi1 = theta1 - theta0 - offset; Phi2 = n . d with n the guide normal in body 0.
      const PrismaticPair& pair = joint.as<PrismaticPair>();
      const Vec2 u = b0.arm(pair.guide_dir);
      const Vec2 n = perp(u);
      const Vec2 arm0 = b0.arm(joint.point[0]);
      const Vec2 arm1 = b1.arm(joint.point[1]);
      const Vec2 d = b1.r + arm1 - b0.r - arm0;
      rows.count = 2;
      rows.phi(0) = b1.theta - b0.theta - pair.angle_offset;
      rows.phi(1) = n.dot(d);
      rows.jac[0](0, 2) = -1.0;
      rows.jac[1](0, 2) = 1.0;
      rows.jac[0].block<1, 2>(1, 0) = -n.transpose();
      rows.jac[0](1, 2) = -u.dot(d) - n.dot(perp(arm0));
      rows.jac[1].block<1, 2>(1, 0) = n.transpose();
      rows.jac[1](1, 2) = n.dot(perp(arm1));
      if (with_gamma) {
        // u and n turn with body 0: u' = w0 n, n' = -w0 u, n'' = -alpha0 u - w0^2 n; and
        // d'' = a1 + alpha1 perp(arm1) - w1^2 arm1 - a0 - alpha0 perp(arm0) + w0^2 arm0. So
        // Phi2'' = n''.d + 2 n'.d' + n.d'': the terms in (a, alpha) are the Jacobian row above
        // (-alpha0 u.d from n''.d), and gamma = -(the rest)
        //        = w0^2 n.d - 2 n'.d' - n.(w0^2 arm0 - w1^2 arm1).
        const Vec2 n_dot = -b0.omega * u;
        const Vec2 d_dot = b1.v + b1.omega * perp(arm1) - b0.v - b0.omega * perp(arm0);
        const double w0 = b0.omega * b0.omega, w1 = b1.omega * b1.omega;
        rows.gamma(1) = w0 * n.dot(d) - 2.0 * n_dot.dot(d_dot) - n.dot(w0 * arm0 - w1 * arm1);
      }
      break;
    }
    case JointType::cam: {
      // Phi = n . (P - C): the follower's point P from the cam's pitch curve along its normal
      // (a signed distance). Its gradient is the normal force's pattern: n at P on the
      // follower, -n at the same point of the cam; Phi'' = n . a_rel + kappa (t . v_rel)^2,
      // a_rel = a_P - a_cam(P) - 2 w0 J v_rel the acceleration of P relative to the cam, kappa
      // the curve's curvature (Haug, Computer-Aided Kinematics and Dynamics, Sect. 3.4).
      const CamCurveFoot foot = cam_curve_foot(joint, ws);
      const Vec2& n = foot.normal;
      const Vec2 arm1 = b1.arm(joint.point[1]);
      const Vec2 rel = b1.r + arm1 - b0.r;  // P from the cam body's origin
      rows.count = 1;
      rows.phi(0) = foot.distance;
      rows.jac[0].block<1, 2>(0, 0) = -n.transpose();
      rows.jac[0](0, 2) = -cross(rel, n);
      rows.jac[1].block<1, 2>(0, 0) = n.transpose();
      rows.jac[1](0, 2) = cross(arm1, n);
      if (with_gamma) {
        const Vec2 v_rel = b1.v + b1.omega * perp(arm1) - b0.v - b0.omega * perp(rel);
        const double kappa = 1.0 / foot.curve.curvature_radius(), vt = foot.tangent.dot(v_rel);
        rows.gamma(0) = b1.omega * b1.omega * n.dot(arm1) - b0.omega * b0.omega * n.dot(rel) +
                        2.0 * b0.omega * n.dot(perp(v_rel)) - kappa * vt * vt;
      }
      break;
    }
    case JointType::gear: {
      // Phi = theta1 - ratio theta0 - phase.
      const GearPair& gear = joint.as<GearPair>();
      rows.count = 1;
      rows.phi(0) = b1.theta - gear.ratio * b0.theta - gear.phase;
      rows.jac[0](0, 2) = -gear.ratio;
      rows.jac[1](0, 2) = 1.0;
      break;
    }
  }
}

void displacement_row(const Joint& joint, const Workspace& ws, bool with_gamma, DisplacementRow& row) {
  // s = u . d, d = r1 + A1 p1 - r0 - A0 p0, u turning with body 0 (u' = w0 n, n = perp(u)).
  const BodyState& b0 = ws.body[joint.body[0]];
  const BodyState& b1 = ws.body[joint.body[1]];
  const Vec2 u = b0.arm(joint.as<PrismaticPair>().guide_dir);
  const Vec2 n = perp(u);
  const Vec2 arm0 = b0.arm(joint.point[0]);
  const Vec2 arm1 = b1.arm(joint.point[1]);
  const Vec2 d = b1.r + arm1 - b0.r - arm0;
  row.value = u.dot(d);
  row.jac[0] << -u.x(), -u.y(), n.dot(d) - u.dot(perp(arm0));
  row.jac[1] << u.x(), u.y(), u.dot(perp(arm1));
  row.velocity_terms = 0.0;
  if (with_gamma) {
    // s'' = u.d'' + 2 u'.d' + u''.d with u'' = alpha0 n - w0^2 u; the terms in (a, alpha) are the
    // row above, the rest: u.(w0^2 arm0 - w1^2 arm1) + 2 w0 n.d' - w0^2 u.d.
    const Vec2 d_dot = b1.v + b1.omega * perp(arm1) - b0.v - b0.omega * perp(arm0);
    const double w0 = b0.omega * b0.omega, w1 = b1.omega * b1.omega;
    row.velocity_terms = u.dot(w0 * arm0 - w1 * arm1) + 2.0 * b0.omega * n.dot(d_dot) - w0 * row.value;
  }
}

void push_constraint_force(const Joint& joint, const JointRows& rows, int side, const Eigen::Vector2d& lambda,
                           Workspace& ws) {
  ws.load[joint.body[side]] += rows.jac[side].topRows(rows.count).transpose() * lambda.head(rows.count);
}

void store_reaction(const Joint& joint, int joint_index, const Eigen::Vector2d& lambda, Workspace& ws) {
  JointReaction& r = ws.reaction[joint_index];
  r.lambda = lambda;
  switch (joint.type()) {
    case JointType::revolute:
      // The constraint force on body[1] is J1^T lambda = -(lambda, arm x lambda).
      r.force = -lambda;
      r.moment = 0.0;
      r.normal = 0.0;
      break;
    case JointType::prismatic:
      // On body[1]: the torque lambda_0 and the force lambda_1 n at the slider point.
      r.normal = lambda(1);
      r.force = lambda(1) * perp(ws.body[joint.body[0]].arm(joint.as<PrismaticPair>().guide_dir));
      r.moment = lambda(0);
      break;
    case JointType::cam:
      // On the follower: the contact force lambda along the common normal (positive pushes it
      // off the cam: a compression).
      r.normal = lambda(0);
      r.force = lambda(0) * cam_curve_foot(joint, ws).normal;
      r.moment = 0.0;
      break;
    case JointType::gear:
      r.force = Vec2::Zero();
      r.moment = lambda(0);
      r.normal = 0.0;
      break;
  }
}

}  // namespace linkdyn::planar
