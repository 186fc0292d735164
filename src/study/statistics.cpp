// Statistics of a Monte Carlo study: summaries with confidence intervals, sensitivities.
#include <Eigen/Dense>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "linkdyn/study/study.hpp"

namespace linkdyn::study {
namespace {

/// Percentile p (0-100) of sorted values, by linear interpolation between order statistics
/// (Hyndman and Fan's definition 7, that of NumPy and R).
double percentile_of_sorted(const std::vector<double>& sorted, double p) {
  const double h = (static_cast<double>(sorted.size()) - 1.0) * p / 100.0;
  const auto below = static_cast<size_t>(std::floor(h));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (h - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

MetricSummary summarize(std::span<const double> values, const std::vector<double>& percentiles, double confidence) {
  MetricSummary s;
  std::vector<double> sorted;
  for (double v : values)
    if (std::isfinite(v)) sorted.push_back(v);
  s.n = static_cast<int>(sorted.size());
  const size_t np = percentiles.size();
  const double missing = std::numeric_limits<double>::quiet_NaN();
  s.percentile.assign(np, missing), s.percentile_low.assign(np, missing), s.percentile_high.assign(np, missing);
  s.mean = s.mean_low = s.mean_high = s.std = s.std_low = s.std_high = s.min = s.max = missing;
  if (s.n == 0) return s;
  std::sort(sorted.begin(), sorted.end());
  const double n = s.n;
  s.min = sorted.front(), s.max = sorted.back();
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / n;
  double squares = 0.0;
  for (double v : sorted) squares += (v - s.mean) * (v - s.mean);
  const double alpha = 1.0 - confidence;
  for (size_t k = 0; k < np; ++k) s.percentile[k] = percentile_of_sorted(sorted, percentiles[k]);
  if (s.n < 2) return s;
  s.std = std::sqrt(squares / (n - 1.0));
  const boost::math::students_t t(n - 1.0);
  const double half = boost::math::quantile(boost::math::complement(t, alpha / 2.0)) * s.std / std::sqrt(n);
  s.mean_low = s.mean - half, s.mean_high = s.mean + half;
  const boost::math::chi_squared chi2(n - 1.0);
  s.std_low = std::sqrt(squares / boost::math::quantile(boost::math::complement(chi2, alpha / 2.0)));
  s.std_high = std::sqrt(squares / boost::math::quantile(chi2, alpha / 2.0));
  // The percentile's interval between order statistics: the number of values below the true
  // percentile is binomial(n, p), here by its normal approximation (ranks rounded outwards).
  const double z = boost::math::quantile(boost::math::complement(boost::math::normal(), alpha / 2.0));
  for (size_t k = 0; k < np; ++k) {
    const double p = percentiles[k] / 100.0;
    const double spread = z * std::sqrt(n * p * (1.0 - p));
    const double lo = std::floor(n * p - spread), hi = std::ceil(n * p + spread);
    if (lo >= 1.0) s.percentile_low[k] = sorted[static_cast<size_t>(lo) - 1];
    if (hi <= n) s.percentile_high[k] = sorted[static_cast<size_t>(hi) - 1];
  }
  return s;
}

Sensitivity sensitivity(const std::vector<std::vector<double>>& x, std::span<const double> y) {
  Sensitivity s;
  const size_t parameters = x.empty() ? 0 : x.front().size();
  s.src.assign(parameters, 0.0), s.sobol.assign(parameters, 0.0);
  std::vector<size_t> rows;
  for (size_t i = 0; i < y.size(); ++i)
    if (std::isfinite(y[i])) rows.push_back(i);
  const auto n = static_cast<Eigen::Index>(rows.size());
  if (n < static_cast<Eigen::Index>(parameters) + 3) return s;
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v(i) = y[rows[static_cast<size_t>(i)]];
  const double mean = v.mean();
  const double variance = (v.array() - mean).square().sum() / static_cast<double>(n - 1);
  if (!(variance > 0.0)) return s;
  // Standardised regression coefficients: least squares on standardised parameters and metric.
  Eigen::MatrixXd z(n, static_cast<Eigen::Index>(parameters));
  std::vector<bool> varies(parameters, false);
  for (size_t j = 0; j < parameters; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) z(i, static_cast<Eigen::Index>(j)) = x[rows[static_cast<size_t>(i)]][j];
    auto column = z.col(static_cast<Eigen::Index>(j));
    const double m = column.mean();
    const double sd = std::sqrt((column.array() - m).square().sum() / static_cast<double>(n - 1));
    varies[j] = sd > 0.0;
    if (varies[j])
      column = ((column.array() - m) / sd).matrix();
    else
      column.setZero();
  }
  const Eigen::VectorXd w = (v.array() - mean) / std::sqrt(variance);
  const Eigen::VectorXd beta = z.colPivHouseholderQr().solve(w);
  for (size_t j = 0; j < parameters; ++j) s.src[j] = varies[j] ? beta(static_cast<Eigen::Index>(j)) : 0.0;
  const Eigen::VectorXd residual = w - z * beta;
  s.r2 = 1.0 - residual.squaredNorm() / w.squaredNorm();
  // First-order Sobol index Var(E[y | x_j]) / Var(y) from the same sample: the conditional means
  // over equiprobable bins of x_j (about sqrt(n) / 2 bins); the bins' sampling noise, (bins - 1)
  // times the within-bin variance over n, is taken off the between-bin variance.
  const auto bins =
      static_cast<Eigen::Index>(std::clamp(std::round(std::sqrt(static_cast<double>(n)) / 2.0), 2.0, 64.0));
  std::vector<Eigen::Index> order(static_cast<size_t>(n));
  for (size_t j = 0; j < parameters; ++j) {
    if (!varies[j]) continue;
    std::iota(order.begin(), order.end(), 0);
    const auto column = z.col(static_cast<Eigen::Index>(j));
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return column(a) < column(b); });
    double between = 0.0, within = 0.0;
    for (Eigen::Index b = 0; b < bins; ++b) {
      const Eigen::Index begin = b * n / bins, end = (b + 1) * n / bins;
      double sum = 0.0;
      for (Eigen::Index k = begin; k < end; ++k) sum += v(order[static_cast<size_t>(k)]);
      const double bin_mean = sum / static_cast<double>(end - begin);
      between += static_cast<double>(end - begin) * (bin_mean - mean) * (bin_mean - mean);
      for (Eigen::Index k = begin; k < end; ++k) {
        const double d = v(order[static_cast<size_t>(k)]) - bin_mean;
        within += d * d;
      }
    }
    const double within_variance = within / static_cast<double>(n - bins);
    const double explained = (between - static_cast<double>(bins - 1) * within_variance) / static_cast<double>(n);
    s.sobol[j] = std::clamp(explained / (variance * static_cast<double>(n - 1) / static_cast<double>(n)), 0.0, 1.0);
  }
  return s;
}

}  // namespace linkdyn::study
