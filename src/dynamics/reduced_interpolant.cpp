// Interpolation of the reduced parameters with Boost.Math (cubic Hermite, cubic B-spline).
#include <boost/math/interpolators/cardinal_cubic_b_spline.hpp>
#include <boost/math/interpolators/cubic_hermite.hpp>
#include <cmath>
#include <fmt/format.h>

#include "linkdyn/dynamics/reduced.hpp"

namespace linkdyn::dynamics {

struct ReducedInterpolant::Impl {
  using Hermite = boost::math::interpolators::cardinal_cubic_hermite<std::vector<double>>;
  using BSpline = boost::math::interpolators::cardinal_cubic_b_spline<double>;
  std::unique_ptr<Hermite> m;
  std::vector<BSpline> me1, me1q;
};

namespace {
boost::math::interpolators::cardinal_cubic_b_spline<double> b_spline(const std::vector<double>& f, double q0, double h,
                                                                     bool periodic) {
  const size_t n = f.size();
  if (periodic && n >= 3) {
    // Equal end slopes across the wrap (f[n-1] = f[0]).
    const double slope = (f[1] - f[n - 2]) / (2.0 * h);
    return {f.data(), n, q0, h, slope, slope};
  }
  return {f.data(), n, q0, h};
}
}  // namespace

ReducedInterpolant::ReducedInterpolant(const ReducedTable& t) {
  const size_t n = t.q.size();
  if (n < 4) throw AnalysisError("a reduced table needs at least 4 points");
  periodic_ = t.periodic;
  q0_ = t.q.front();
  span_ = t.q.back() - t.q.front();
  const double h = span_ / static_cast<double>(n - 1);
  auto impl = std::make_shared<Impl>();
  std::vector<double> m = t.m, dm = t.dm;
  if (h < 0) {  // the interpolators want increasing abscissae: reverse
    std::reverse(m.begin(), m.end());
    std::reverse(dm.begin(), dm.end());
  }
  const double start = std::min(t.q.front(), t.q.back());
  impl->m = std::make_unique<Impl::Hermite>(std::move(m), std::move(dm), start, std::abs(h));
  for (size_t a = 0; a < t.me1.size(); ++a) {
    std::vector<double> f1 = t.me1[a], fq = t.me1q[a];
    if (h < 0) std::reverse(f1.begin(), f1.end()), std::reverse(fq.begin(), fq.end());
    impl->me1.push_back(b_spline(f1, start, std::abs(h), periodic_));
    impl->me1q.push_back(b_spline(fq, start, std::abs(h), periodic_));
  }
  q0_ = start;
  span_ = std::abs(span_);
  impl_ = impl;
}

double ReducedInterpolant::wrap(double q) const {
  if (periodic_) {
    double x = std::fmod(q - q0_, span_);
    if (x < 0) x += span_;
    return q0_ + std::min(x, span_);
  }
  if (q < q0_ - 1e-12 * (1 + span_) || q > q0_ + span_ + 1e-12 * (1 + span_))
    throw AnalysisError(fmt::format("q = {:.9g} is outside the reduced parameters' range [{:.9g}, {:.9g}]", q, q0_, q0_ + span_));
  return std::clamp(q, q0_, q0_ + span_);
}

double ReducedInterpolant::m(double q) const { return (*impl_->m)(wrap(q)); }
double ReducedInterpolant::dm(double q) const { return impl_->m->prime(wrap(q)); }
double ReducedInterpolant::me1(size_t a, double q) const { return impl_->me1.at(a)(wrap(q)); }
double ReducedInterpolant::me1q(size_t a, double q) const { return impl_->me1q.at(a)(wrap(q)); }

}  // namespace linkdyn::dynamics
