// Interpolation of the reduced parameters with Boost.Math (cubic Hermite, cubic B-spline).
#include <boost/math/interpolators/cardinal_cubic_b_spline.hpp>
#include <boost/math/interpolators/cubic_hermite.hpp>
#include <cmath>
#include <fmt/format.h>

#include "linkdyn/dynamics/reduced.hpp"

namespace linkdyn::dynamics {

struct TabulatedCurve::Impl {
  boost::math::interpolators::cardinal_cubic_b_spline<double> spline;
};

TabulatedCurve::TabulatedCurve(const std::vector<double>& q, std::vector<double> f, bool periodic) : periodic_(periodic) {
  const size_t n = q.size();
  if (n < 4 || f.size() != n) throw AnalysisError("a tabulated curve needs at least 4 points");
  double h = (q.back() - q.front()) / static_cast<double>(n - 1);
  if (h < 0) std::reverse(f.begin(), f.end()), h = -h;
  q0_ = std::min(q.front(), q.back());
  span_ = h * static_cast<double>(n - 1);
  auto impl = std::make_shared<Impl>();
  if (periodic) {
    const double slope = (f[1] - f[n - 2]) / (2.0 * h);  // equal end slopes across the wrap
    impl->spline = {f.data(), n, q0_, h, slope, slope};
  } else {
    impl->spline = {f.data(), n, q0_, h};
  }
  impl_ = impl;
}

double TabulatedCurve::wrap(double q) const {
  if (periodic_) {
    double x = std::fmod(q - q0_, span_);
    if (x < 0) x += span_;
    return q0_ + std::min(x, span_);
  }
  const double slack = 1e-12 * (1 + span_);
  if (q < q0_ - slack || q > q0_ + span_ + slack)
    throw AnalysisError(fmt::format("q = {:.9g} is outside the tabulated range [{:.9g}, {:.9g}]", q, q0_, q0_ + span_));
  return std::clamp(q, q0_, q0_ + span_);
}

double TabulatedCurve::operator()(double q) const { return impl_->spline(wrap(q)); }
double TabulatedCurve::derivative(double q) const { return impl_->spline.prime(wrap(q)); }

struct ReducedInterpolant::Impl {
  std::unique_ptr<boost::math::interpolators::cardinal_cubic_hermite<std::vector<double>>> m;
};

ReducedInterpolant::ReducedInterpolant(const ReducedTable& t)
    : periodic_(t.periodic), range_(t.q, t.m, t.periodic) {
  std::vector<double> m = t.m, dm = t.dm;
  double h = (t.q.back() - t.q.front()) / static_cast<double>(t.q.size() - 1);
  if (h < 0) std::reverse(m.begin(), m.end()), std::reverse(dm.begin(), dm.end()), h = -h;
  auto impl = std::make_shared<Impl>();
  impl->m = std::make_unique<boost::math::interpolators::cardinal_cubic_hermite<std::vector<double>>>(
      std::move(m), std::move(dm), std::min(t.q.front(), t.q.back()), h);
  impl_ = impl;
  for (size_t a = 0; a < t.me1.size(); ++a) {
    me1_.emplace_back(t.q, t.me1[a], t.periodic);
    me1q_.emplace_back(t.q, t.me1q[a], t.periodic);
  }
}

double ReducedInterpolant::m(double q) const { return (*impl_->m)(range_.wrap(q)); }
double ReducedInterpolant::dm(double q) const { return impl_->m->prime(range_.wrap(q)); }
double ReducedInterpolant::me1(size_t a, double q) const { return me1_.at(a)(q); }
double ReducedInterpolant::me1q(size_t a, double q) const { return me1q_.at(a)(q); }

}  // namespace linkdyn::dynamics
