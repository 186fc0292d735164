#include "linkdyn/core/error.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace linkdyn {
namespace {
std::string compose(const SourceLocation& where, const std::string& entity, const std::string& problem,
                    const std::string& fix) {
  std::string place;
  if (!where.file.empty()) place = where.line > 0 ? fmt::format("{}:{}: ", where.file, where.line) : where.file + ": ";
  return fmt::format("{}{}{}{}{}", place, entity.empty() ? "" : entity + ": ", problem, fix.empty() ? "" : "; ", fix);
}
}  // namespace

InputError::InputError(const SourceLocation& where, const std::string& entity, const std::string& problem,
                       const std::string& fix)
    : std::runtime_error(compose(where, entity, problem, fix)), where_(where), entity_(entity) {}

namespace {
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string nearest_name(const std::string& name, const std::vector<std::string>& names) {
  std::string nearest;
  size_t best = 3;
  for (const std::string& candidate : names)
    if (const size_t d = edit_distance(name, candidate); d < best) best = d, nearest = candidate;
  return nearest;
}

}  // namespace linkdyn
