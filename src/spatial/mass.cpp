#include "linkdyn/spatial/mass.hpp"

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <stdexcept>

namespace linkdyn::spatial {

MassProperties transformed(const MassProperties& body, const Pose& pose) {
  return {body.mass, pose.apply(body.com), pose.R * body.inertia_com * pose.R.transpose()};
}

Mat3 inertia_about_origin(const MassProperties& body) {
  const Mat3 c = skew(body.com);
  return body.inertia_com + body.mass * c * c.transpose();
}

Mat3 second_moment_com(const MassProperties& body) {
  return 0.5 * body.inertia_com.trace() * Mat3::Identity() - body.inertia_com;
}

Mat3 second_moment_about_origin(const MassProperties& body) {
  return second_moment_com(body) + body.mass * body.com * body.com.transpose();
}

Mat4 pseudo_inertia(const MassProperties& body) {
  Mat4 J;
  J.topLeftCorner<3, 3>() = second_moment_about_origin(body);
  J.topRightCorner<3, 1>() = body.mass * body.com;
  J.bottomLeftCorner<1, 3>() = body.mass * body.com.transpose();
  J(3, 3) = body.mass;
  return J;
}

MassProperties from_pseudo_inertia(const Mat4& J) {
  MassProperties b;
  b.mass = J(3, 3);
  // A mass that is only rounding (added and subtracted parts that cancel) has no centre.
  const double scale = J.cwiseAbs().maxCoeff();
  b.com = std::abs(b.mass) > 1e-12 * scale ? Vec3(J.topRightCorner<3, 1>() / b.mass) : Vec3::Zero();
  const Mat3 planar_com = J.topLeftCorner<3, 3>() - b.mass * b.com * b.com.transpose();
  b.inertia_com = planar_com.trace() * Mat3::Identity() - planar_com;
  return b;
}

MassProperties merged(const MassProperties& a, const MassProperties& b) {
  return from_pseudo_inertia(pseudo_inertia(a) + pseudo_inertia(b));
}

PrincipalAxes principal_axes(const MassProperties& body) {
  Eigen::SelfAdjointEigenSolver<Mat3> eig(0.5 * (body.inertia_com + body.inertia_com.transpose()));
  PrincipalAxes pa{eig.eigenvalues(), eig.eigenvectors()};
  if (pa.axes.determinant() < 0) pa.axes.col(2) = -pa.axes.col(2);
  return pa;
}

std::string physical_consistency_problem(const MassProperties& body) {
  if (!(body.mass > 0.0))
    return fmt::format("its mass is {:.6g} kg (must be positive: the subtracted parts outweigh the added ones)",
                       body.mass);
  // With m > 0 the pseudo-inertia is positive semi-definite exactly when the planar tensor at the
  // centre of mass is, i.e. when the principal moments obey the triangle inequality.
  const Vec3 m = principal_axes(body).moments;
  const double tol = 1e-12 * (m.cwiseAbs().sum() + body.mass * body.com.squaredNorm());
  if (m(0) + m(1) < m(2) - tol || m(0) < -tol)
    return fmt::format(
        "its principal moments {:.6g}, {:.6g}, {:.6g} kg m^2 break the triangle inequality "
        "I1 + I2 >= I3 (its pseudo-inertia tensor is not positive semi-definite: no distribution "
        "of positive density has these properties)",
        m(0), m(1), m(2));
  return {};
}

namespace {
struct ShapeInfo {
  Shape shape;
  const char* name;
  int dimension;
};
constexpr std::array<ShapeInfo, 12> shapes{{{Shape::box, "box", 3},
                                            {Shape::hollow_box, "hollow_box", 3},
                                            {Shape::cylinder, "cylinder", 3},
                                            {Shape::hollow_cylinder, "hollow_cylinder", 3},
                                            {Shape::sphere, "sphere", 3},
                                            {Shape::hollow_sphere, "hollow_sphere", 3},
                                            {Shape::cone, "cone", 3},
                                            {Shape::rod, "rod", 1},
                                            {Shape::plate, "plate", 2},
                                            {Shape::disk, "disk", 2},
                                            {Shape::ring, "ring", 1},
                                            {Shape::point, "point", 0}}};

/// Box of edges a, b, c and mass m at its centre.
Mat3 box_inertia(double m, const Vec3& e) {
  return (m / 12.0 * Vec3(e.y() * e.y() + e.z() * e.z(), e.z() * e.z() + e.x() * e.x(), e.x() * e.x() + e.y() * e.y()))
      .asDiagonal();
}
/// Axisymmetric inertia: axial moment `axial` about z, transverse moment `transverse`.
Mat3 axisymmetric(double transverse, double axial) { return Vec3(transverse, transverse, axial).asDiagonal(); }
}  // namespace

const char* shape_name(Shape s) {
  for (const auto& info : shapes)
    if (info.shape == s) return info.name;
  return "?";
}
bool shape_from_name(const std::string& name, Shape& s) {
  for (const auto& info : shapes)
    if (name == info.name) {
      s = info.shape;
      return true;
    }
  return false;
}
int shape_dimension(Shape s) {
  for (const auto& info : shapes)
    if (info.shape == s) return info.dimension;
  return 0;
}

double measure(const Primitive& p) {
  const double r = p.radius, ri = p.inner_radius, L = p.length;
  switch (p.shape) {
    case Shape::box: return p.size.prod();
    case Shape::hollow_box: return p.size.prod() - p.inner_size.prod();
    case Shape::cylinder: return M_PI * r * r * L;
    case Shape::hollow_cylinder: return M_PI * (r * r - ri * ri) * L;
    case Shape::sphere: return 4.0 / 3.0 * M_PI * r * r * r;
    case Shape::hollow_sphere: return 4.0 / 3.0 * M_PI * (r * r * r - ri * ri * ri);
    case Shape::cone: return M_PI * r * r * L / 3.0;
    case Shape::rod: return L;
    case Shape::plate: return p.size.x() * p.size.y();
    case Shape::disk: return M_PI * r * r;
    case Shape::ring: return 2.0 * M_PI * r;
    case Shape::point: return 0.0;
  }
  return 0.0;
}

namespace {
/// Empty when the primitive's dimensions make a body, else what is wrong.
std::string dimension_problem(const Primitive& p) {
  switch (p.shape) {
    case Shape::box: return p.size.minCoeff() > 0 ? "" : "a box edge is not positive";
    case Shape::hollow_box:
      return p.inner_size.minCoeff() > 0 && (p.size - p.inner_size).minCoeff() > 0
                 ? ""
                 : "the cavity does not fit inside the box";
    case Shape::cylinder:
    case Shape::cone: return p.radius > 0 && p.length > 0 ? "" : "radius and length must be positive";
    case Shape::hollow_cylinder:
      return p.inner_radius > 0 && p.inner_radius < p.radius && p.length > 0
                 ? ""
                 : "need 0 < inner_radius < radius, length > 0";
    case Shape::sphere:
    case Shape::disk:
    case Shape::ring: return p.radius > 0 ? "" : "the radius must be positive";
    case Shape::hollow_sphere:
      return p.inner_radius > 0 && p.inner_radius < p.radius ? "" : "need 0 < inner_radius < radius";
    case Shape::rod: return p.length > 0 ? "" : "the length must be positive";
    case Shape::plate: return p.size.head<2>().minCoeff() > 0 ? "" : "a plate edge is not positive";
    case Shape::point: return p.mass >= 0 ? "" : "a point needs its mass";
  }
  return "";
}
}  // namespace

MassProperties primitive_mass_properties(const Primitive& p) {
  const std::string problem = dimension_problem(p);
  if (!problem.empty())
    throw std::invalid_argument("primitive '" + p.name + "' (" + shape_name(p.shape) + "): " + problem);
  if (!(p.mass >= 0.0) && !(p.density > 0.0))
    throw std::invalid_argument("primitive '" + p.name + "': give a mass >= 0 or a density > 0");
  const double m = p.mass >= 0.0 ? p.mass : p.density * measure(p);
  const double r = p.radius, ri = p.inner_radius, L = p.length;
  MassProperties b;
  b.mass = m;
  switch (p.shape) {
    case Shape::box: b.inertia_com = box_inertia(m, p.size); break;
    case Shape::hollow_box: {
      // Outer block minus the centred cavity, at one density.
      const double rho = m / measure(p);
      b.inertia_com = box_inertia(rho * p.size.prod(), p.size) - box_inertia(rho * p.inner_size.prod(), p.inner_size);
      break;
    }
    case Shape::cylinder: b.inertia_com = axisymmetric(m * (3 * r * r + L * L) / 12.0, m * r * r / 2.0); break;
    case Shape::hollow_cylinder:
      b.inertia_com = axisymmetric(m * (3 * (r * r + ri * ri) + L * L) / 12.0, m * (r * r + ri * ri) / 2.0);
      break;
    case Shape::sphere: b.inertia_com = Mat3::Identity() * (0.4 * m * r * r); break;
    case Shape::hollow_sphere: {
      const double k = 0.4 * (std::pow(r, 5) - std::pow(ri, 5)) / (std::pow(r, 3) - std::pow(ri, 3));
      b.inertia_com = Mat3::Identity() * (m * k);
      break;
    }
    case Shape::cone:
      b.com = Vec3(0, 0, L / 4.0);
      b.inertia_com = axisymmetric(m * (3.0 / 20.0 * r * r + 3.0 / 80.0 * L * L), 0.3 * m * r * r);
      break;
    case Shape::rod: b.inertia_com = axisymmetric(m * L * L / 12.0, 0.0); break;
    case Shape::plate: b.inertia_com = box_inertia(m, Vec3(p.size.x(), p.size.y(), 0.0)); break;
    case Shape::disk: b.inertia_com = axisymmetric(m * r * r / 4.0, m * r * r / 2.0); break;
    case Shape::ring: b.inertia_com = axisymmetric(m * r * r / 2.0, m * r * r); break;
    case Shape::point: break;
  }
  return b;
}

MassProperties composite_mass_properties(const std::vector<Primitive>& parts) {
  Mat4 J = Mat4::Zero();
  for (const Primitive& p : parts) J += p.sign * pseudo_inertia(transformed(primitive_mass_properties(p), p.pose));
  return from_pseudo_inertia(J);
}

}  // namespace linkdyn::spatial
